//! The `tabula` binary, run as a user would.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tabula(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .current_dir(crate::root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tabula");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    child.wait_with_output().expect("output")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_accepts_every_bundled_game() {
    for path in crate::files(&crate::root().join("games"), "game") {
        let p = path.to_string_lossy().into_owned();
        let o = tabula(&["check", &p], "");
        assert!(o.status.success(), "{p}: {}", err(&o));
    }
}

#[test]
fn check_reports_errors_with_file_name_and_fails() {
    let o = tabula(&["check", "tests/errors/unknown_name.game"], "");
    assert!(!o.status.success());
    let e = err(&o);
    assert!(e.contains("tests/errors/unknown_name.game"), "{e}");
    assert!(e.contains("unknown name `Stnoe`"), "{e}");
    assert!(e.contains("did you mean `Stone`?"), "{e}");
}

#[test]
fn moves_after_a_sequence() {
    let o = tabula(&["moves", "games/boop.game", "--after", "K a1, K f6"], "");
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 34);
    let bad = tabula(&["moves", "games/boop.game", "--after", "K a1, K a1"], "");
    assert!(!bad.status.success());
    assert!(err(&bad).contains("move 2"), "{}", err(&bad));
}

#[test]
fn perft_and_set() {
    let o = tabula(&["perft", "games/boop.game", "2"], "");
    assert!(out(&o).contains("perft(2) = 1260"), "{}", out(&o));
    let o = tabula(&["perft", "games/boop.game", "1", "--set", "size=4"], "");
    assert!(out(&o).contains("perft(1) = 16"), "{}", out(&o));
    let o = tabula(&["perft", "games/boop.game", "1", "--set", "size=99"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("outside 3..16"), "{}", err(&o));
}

#[test]
fn playout_statistics() {
    let o = tabula(&["playout", "games/tictactoe.game", "-n", "20", "--seed", "3"], "");
    let s = out(&o);
    for key in [
        "games: 20",
        "mean length",
        "mean branching factor",
        "wins X",
        "wins O",
        "draws",
        "unfinished: 0",
        "playouts/s",
    ] {
        assert!(s.contains(key), "missing `{key}` in\n{s}");
    }
}

#[test]
fn play_explains_illegal_moves_and_goes_on() {
    let o = tabula(
        &["play", "games/boop.game", "--seed", "2"],
        "K z9\nK\nhelp\nK c3\nundo\nK d4\nquit\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    let s = out(&o);
    assert!(s.contains("`k z9` is not a legal move here"), "{s}");
    assert!(s.contains("`k` is not a whole move; it may go on with: a1, b1"), "{s}");
    assert!(s.contains("Gray plays"), "{s}");
    assert!(s.contains("Orange K") || s.contains(" OK "), "{s}");
}

#[test]
fn play_with_engines_only_finishes() {
    let o = tabula(&["play", "games/tictactoe.game", "--watch", "--seed", "5"], "");
    assert!(o.status.success());
    assert!(out(&o).contains("Game over:"), "{}", out(&o));
}

#[test]
fn card_game_views_hide_what_the_rules_hide() {
    // A spectator sees sizes only; a player sees their own hand.
    let o = tabula(&["show", "games/bug_off.game"], "");
    let s = out(&o);
    assert!(s.contains("draw_pile: 59 hidden") && s.contains("Ann hand: 4 hidden"), "{s}");
    let o = tabula(&["show", "games/bug_off.game", "--as", "Ben"], "");
    let s = out(&o);
    assert!(s.contains("Ann hand: 4 hidden") && !s.contains("Ben hand: 3 hidden"), "{s}");
    let o = tabula(&["show", "games/bug_off.game", "--json"], "");
    let s = out(&o);
    assert!(s.contains("\"contents\": null") && !s.contains("rng"), "{s}");
    // Everything only when asked for.
    let o = tabula(&["show", "games/bug_off.game", "--reveal"], "");
    assert!(!out(&o).contains("hidden"), "{}", out(&o));
}

#[test]
fn card_game_play_never_shows_an_engine_hand() {
    let o = tabula(
        &["play", "games/bug_off.game", "--set", "players=3", "--seed", "4"],
        "moves\nquit\n",
    );
    let s = out(&o);
    assert!(s.contains("Ben hand: 3 hidden") && s.contains("Cleo hand: 3 hidden"), "{s}");
    assert!(s.contains("draw_pile: ") && s.contains(" hidden"), "{s}");
    assert!(!s.contains("Ann hand: 4 hidden"), "the person sees their own hand: {s}");
}

#[test]
fn hot_seat_hides_each_hand_until_its_owner_confirms() {
    let o = tabula(
        &["play", "games/bug_off.game", "--as", "Ann", "--as", "Ben", "--seed", "2"],
        "\ncollect ant\ncollect bee\nscore ant\nscore bee\nquit\n",
    );
    let s = out(&o);
    assert!(s.contains("Pass the screen to Ann"), "{s}");
    let before_ann = s.split("Pass the screen to Ann").nth(1).unwrap_or("");
    assert!(before_ann.contains("Ben hand: 3 hidden"), "{s}");
}

#[test]
fn record_and_replay() {
    let dir = std::env::temp_dir().join(format!("tabula-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    let p = path.to_string_lossy().into_owned();
    let o = tabula(&["play", "games/bug_off.game", "--watch", "--seed", "8", "--record", &p], "");
    assert!(o.status.success(), "{}", err(&o));
    let end = out(&o);
    let o = tabula(&["replay", &p], "");
    assert!(o.status.success(), "{}", err(&o));
    let replayed = out(&o);
    // The replay ends in the same final position as the game.
    let last_board = |s: &str| {
        s.rsplit("discard:").next().unwrap_or("").lines().take(3).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(last_board(&end), last_board(&replayed));
    // The record names the game relative to itself, with its text's hash.
    let json = std::fs::read_to_string(&path).unwrap();
    let rec: tabula::wire::Record = serde_json::from_str(&json).unwrap();
    assert!(rec.game.ends_with("games/bug_off.game") && !rec.game.starts_with('/'), "{json}");
    // Pointed elsewhere, or edited: refused, and nothing else is read.
    let edited = json.replace(&format!("\"{}\"", rec.game), "\"/etc/passwd\"");
    std::fs::write(&path, edited).unwrap();
    let o = tabula(&["replay", &p], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("record was changed"), "{}", err(&o));
    assert!(!err(&o).contains("root:"), "{}", err(&o));
    let moved = json.replace("\"moves\": [", "\"moves\": [\"collect ant\", ");
    std::fs::write(&path, moved).unwrap();
    let o = tabula(&["replay", &p], "");
    assert!(err(&o).contains("record was changed"), "{}", err(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn files_that_are_not_game_files_are_refused_before_reading() {
    for (path, why) in [("/dev/zero", "not a regular file"), ("games", "not a regular file")] {
        let o = tabula(&["check", path], "");
        assert!(!o.status.success());
        assert!(err(&o).contains(why), "{path}: {}", err(&o));
    }
    let dir = std::env::temp_dir().join(format!("tabula-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.game");
    std::fs::write(&big, vec![b' '; tabula::syntax::MAX_SOURCE_BYTES + 1]).unwrap();
    let o = tabula(&["check", &big.to_string_lossy()], "");
    assert!(err(&o).contains("is larger than"), "{}", err(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn card_game_playout_statistics() {
    let o = tabula(&["playout", "games/bug_off.game", "-n", "30", "--set", "players=4"], "");
    let s = out(&o);
    for key in
        ["mean length", "mean score Dev", "decided by a tie-break", "shared wins", "playouts/s"]
    {
        assert!(s.contains(key), "missing `{key}` in\n{s}");
    }
}

#[test]
fn after_reads_moves_with_or_without_commas() {
    let a = out(&tabula(&["show", "games/boop.game", "--after", "K c3 K d4 K f6"], ""));
    let b = out(&tabula(&["show", "games/boop.game", "--after", "K c3, K d4, K f6"], ""));
    assert_eq!(a, b);
    assert!(a.contains("to move: Gray"), "{a}");
    let o = tabula(&["moves", "games/bug.game", "--after", "c3 a1 b4"], "");
    assert!(o.status.success(), "{}", err(&o));
}
