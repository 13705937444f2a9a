#![allow(clippy::unwrap_used)] // test code may unwrap
//! The one integration-test binary (see CONTRIBUTING.md).
//!
//! Every test goes through the helpers below, never straight through the
//! API, so an API change touches one place.

mod boop;
mod bug;
mod bug_off;
pub mod chance;
mod chess;
mod classics;
mod cli;
mod crosscheck;
mod engines;
mod errors;
mod explain;
mod games;
pub mod language;
mod morris;
mod native;
mod othello;
mod perft;
mod play;
pub mod props;
mod robust;
mod snekagon;

use std::path::{Path, PathBuf};
use tabula::{Game, Source, State};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads a game from `games/` with parameter overrides; panics with the
/// rendered diagnostics if it does not check.
pub fn game_with(name: &str, set: &[(&str, i64)]) -> Game {
    let path = root().join("games").join(name);
    let text = std::fs::read_to_string(&path).expect("game file");
    let set: Vec<(String, i64)> = set.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    match Game::load(&Source::new(format!("games/{name}"), text), &set) {
        Ok(g) => g,
        Err(d) => panic!("{name} does not check:\n{}", render_problems(&d.problems)),
    }
}

/// Loads a game from `games/`.
pub fn game(name: &str) -> Game {
    game_with(name, &[])
}

/// Loads a game from text.
pub fn game_text(text: &str) -> Result<Game, String> {
    Game::load(&Source::new("test.game", text), &[]).map_err(|d| render_problems(&d.problems))
}

/// Renders diagnostics as a reviewer sees them: no colour, 80 columns.
pub fn render_problems(problems: &[tabula::Problem]) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(80);
    let mut out = String::new();
    for p in problems {
        handler.render_report(&mut out, p).expect("render");
    }
    out
}

/// The starting position.
pub fn start(g: &Game) -> State {
    State::initial(g).expect("setup runs")
}

/// A position from position text.
pub fn position(g: &Game, text: &str) -> State {
    State::from_text(g, text).unwrap_or_else(|e| panic!("bad position: {e}"))
}

/// The legal moves in notation.
pub fn moves(g: &Game, s: &State) -> Vec<String> {
    s.legal_moves(g).expect("moves").iter().map(|m| State::move_text(g, m)).collect()
}

/// Plays one move given in notation (it must be legal).
pub fn play(g: &Game, s: &State, mv: &str) -> State {
    let m = s.parse_move(g, mv).unwrap_or_else(|e| panic!("`{mv}`: {e}"));
    s.play(g, &m).expect("legal")
}

/// What stands on a cell: `Player Kind`, or `-` when empty.
pub fn at(g: &Game, s: &State, cell: &str) -> String {
    let c = g.board.cell(cell).unwrap_or_else(|| panic!("no cell {cell}"));
    match s.piece(g, c) {
        Some((p, k)) => format!("{} {}", g.players[p as usize], g.kinds[k as usize].name),
        None => "-".into(),
    }
}

/// The game's outcome as text, or `-` while it goes on.
pub fn outcome(g: &Game, s: &State) -> String {
    match s.outcome(g).expect("outcome") {
        Some(o) => o.describe(g),
        None => "-".into(),
    }
}

/// The position text.
pub fn text(g: &Game, s: &State) -> String {
    s.to_text(g)
}

/// Asserts two move lists hold the same moves, in any order.
pub fn same_moves(mut ours: Vec<String>, mut theirs: Vec<String>, context: &str) {
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "{context}");
}

/// Every `*.game` file in `dir`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

/// Runs the `tabula` binary as a user would, from the project root, without
/// colour, with `input` on stdin.
pub fn tabula(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .current_dir(crate::root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tabula");
    // A command that stops before reading all its input closes the pipe:
    // that is not a failure of the test.
    if let Err(e) = child.stdin.take().expect("stdin").write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().expect("output")
}
