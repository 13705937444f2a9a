//! The `tabula` command line: check a game file, show positions, list and
//! explain moves, count perft, run random playouts, benchmark, and play
//! against the engine. `docs/cli.md` documents every verb, the exit codes
//! and the JSON schemas.
//!
//! This binary is the only place that reads files, prints and renders
//! miette reports; everything else is in the library, which knows nothing
//! of the modules under `src/cli/`.

mod cli;

fn main() {
    // The command runs on a thread with room for the deepest turn a search
    // allows (`tabula::state::DECISION_LIMIT`) in either build; here when
    // no thread can be started. A panic there exits as one here would.
    let code = match std::thread::Builder::new()
        .stack_size(tabula::state::SEARCH_STACK)
        .spawn(cli::main)
    {
        Ok(h) => h.join().unwrap_or(101),
        Err(_) => cli::main(),
    };
    std::process::exit(code);
}
