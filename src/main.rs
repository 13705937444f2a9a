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
    std::process::exit(cli::main());
}
