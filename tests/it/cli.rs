//! The `tabula` binary, run as a user would.

use std::process::{Command, Output};

use crate::tabula;

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
        "playouts: 20 (seed 3",
        "mean length",
        "mean branching factor",
        "\nX ",
        "\nO ",
        "draws",
        "unfinished: 0",
    ] {
        assert!(s.contains(key), "missing `{key}` in\n{s}");
    }
}

#[test]
fn play_explains_illegal_moves_and_goes_on() {
    let o = tabula(
        &["play", "games/boop.game", "--seed", "2", "--engine", "greedy"],
        "K z9\nK\nhelp\nK c3\nundo\nK d4\nquit\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    let s = out(&o);
    // Inputs are echoed as typed.
    assert!(s.contains("`K z9` is not a legal move here"), "{s}");
    assert!(s.contains("`K` is not a whole move; it may go on with: a1, b1"), "{s}");
    assert!(s.contains("Gray plays"), "{s}");
    // Pieces are told apart by case, not by a tag that reads as a word.
    assert!(s.contains("Orange: K Kitten, C Cat · Gray: k Kitten, c Cat"), "{s}");
    assert!(!s.contains(" OK "), "{s}");
}

#[test]
fn play_with_engines_only_finishes() {
    let o = tabula(&["play", "games/tictactoe.game", "--watch", "--seed", "5"], "");
    assert!(o.status.success());
    let s = out(&o);
    assert!(s.contains("Game over:"), "{s}");
    // The result is said once.
    assert_eq!(s.to_lowercase().matches("game over").count(), 1, "{s}");
}

#[test]
fn card_game_views_hide_what_the_rules_hide() {
    // A spectator sees sizes only; a player sees their own hand.
    let o = tabula(&["show", "games/bug_off.game", "--seed", "0"], "");
    let s = out(&o);
    assert!(s.contains("draw_pile: 59 hidden") && s.contains("Ann hand: 4 hidden"), "{s}");
    let o = tabula(&["show", "games/bug_off.game", "--as", "Ben", "--seed", "0"], "");
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
    let o = tabula(
        &[
            "play",
            "games/bug_off.game",
            "--watch",
            "--seed",
            "8",
            "--engine",
            "random",
            "--record-referee",
            &p,
        ],
        "",
    );
    assert!(o.status.success(), "{}", err(&o));
    let end = out(&o);
    // A game with hidden hands replays for a viewer, or for the referee.
    let o = tabula(&["replay", &p], "");
    assert!(!o.status.success() && err(&o).contains("--as"), "{}", err(&o));
    let o = tabula(&["replay", &p, "--reveal"], "");
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
    let o = tabula(&["replay", &p, "--reveal"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("record was changed"), "{}", err(&o));
    assert!(!err(&o).contains("root:"), "{}", err(&o));
    let moved = json.replace("\"moves\": [", "\"moves\": [\"collect ant\", ");
    std::fs::write(&path, moved).unwrap();
    let o = tabula(&["replay", &p, "--reveal"], "");
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
    for key in ["mean length", "mean score", "\nDev ", "wins by a tie-break", "shared wins"] {
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

/// Standard output parsed as JSON, with timings (which vary) removed.
fn json(o: &Output) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&out(o))
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", out(o), err(o)));
    strip_timings(&mut v);
    v
}

fn strip_timings(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| k != "seconds" && !k.ends_with("_per_second"));
            m.values_mut().for_each(strip_timings);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_timings),
        _ => {}
    }
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).expect("json")
}

/// A scratch folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn jobs_do_not_change_results() {
    let runs = [
        vec!["playout", "games/tictactoe.game", "-n", "300", "--seed", "5", "-q"],
        vec!["playout", "games/bug_off.game", "-n", "100", "--seed", "5", "-q", "--json"],
        vec!["perft", "games/boop.game", "3", "--divide", "-q"],
        vec!["bench", "games/bug.game", "-n", "20", "--depth", "2", "--seed", "5", "--json"],
    ];
    for args in runs {
        let mut one = args.clone();
        one.extend(["-j", "1"]);
        let mut two = args.clone();
        two.extend(["-j", "2"]);
        let (a, b) = (tabula(&one, ""), tabula(&two, ""));
        assert!(a.status.success() && b.status.success(), "{args:?}: {}{}", err(&a), err(&b));
        if args.contains(&"--json") {
            assert_eq!(json(&a), json(&b), "{args:?}");
        } else {
            assert_eq!(out(&a), out(&b), "{args:?}");
        }
    }
}

#[test]
fn bench_without_a_file_measures_every_bundled_game() {
    let o = tabula(&["bench", "-n", "1", "--depth", "1", "--seed", "1", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    let v = json(&o);
    let listed: Vec<String> = v
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| r["file"].as_str().expect("file").to_string())
        .collect();
    let bundled: Vec<String> = crate::files(&crate::root().join("games"), "game")
        .iter()
        .map(|p| format!("games/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    assert_eq!(listed, bundled, "src/cli/bundled.rs must list games/*.game");
    for r in v.as_array().expect("a list") {
        assert!(r["state_bytes"].as_u64().expect("size") > 0, "{r}");
        assert_eq!(r["playouts"], 1, "{r}");
    }
    // The table: one header and one row per game.
    let o = tabula(&["bench", "-n", "1", "--depth", "1", "--seed", "1"], "");
    let s = out(&o);
    assert_eq!(s.lines().count(), bundled.len() + 1, "{s}");
    for col in ["playouts/s", "moves/s", "perft nodes/s", "state bytes"] {
        assert!(s.lines().next().is_some_and(|h| h.contains(col)), "{s}");
    }
}

#[test]
fn help_of_every_verb() {
    let mut all = String::new();
    let verbs = [
        "check",
        "show",
        "moves",
        "explain",
        "perft",
        "playout",
        "bench",
        "play",
        "replay",
        "completions",
        "man",
    ];
    for verb in verbs {
        let o = tabula(&[verb, "--help"], "");
        assert!(o.status.success(), "{verb}: {}", err(&o));
        let text = out(&o);
        // Every argument has help text: on its line, or on the next (long help).
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.starts_with("  ") || !line.trim_start().starts_with(['-', '<']) {
                continue;
            }
            let next = lines.get(i + 1).copied().unwrap_or("");
            let indent = |l: &str| l.len() - l.trim_start().len();
            let below = !next.trim().is_empty() && indent(next) > indent(line);
            assert!(line.trim().contains("  ") || below, "{verb}: no help for `{line}`");
        }
        all.push_str(&format!("===== tabula {verb} --help\n{text}\n"));
    }
    insta::assert_snapshot!("help_verbs", all);
    let o = tabula(&["help"], "");
    assert!(o.status.success());
    assert!(out(&o).contains("Examples:"), "{}", out(&o));
    insta::assert_snapshot!("help", out(&o));
}

#[test]
fn exit_codes() {
    let code = |args: &[&str]| tabula(args, "").status.code().expect("exit code");
    // 0: success.
    assert_eq!(code(&["check", "games/tictactoe.game"]), 0);
    assert_eq!(code(&["explain", "games/tictactoe.game", "b2"]), 0);
    // 1: the game, a position or a move is wrong.
    assert_eq!(code(&["check", "tests/errors/unknown_name.game"]), 1);
    assert_eq!(code(&["explain", "games/tictactoe.game", "z9"]), 1);
    assert_eq!(code(&["explain", "games/tictactoe.game", "b2", "--after", "b2"]), 1);
    assert_eq!(code(&["moves", "games/tictactoe.game", "--after", "b2 b2"]), 1);
    assert_eq!(code(&["perft", "games/boop.game", "1", "--set", "size=99"]), 1);
    // Warnings pass, unless denied.
    assert_eq!(code(&["check", "tests/warnings/unused.game"]), 0);
    assert_eq!(code(&["check", "tests/warnings/unused.game", "--deny-warnings"]), 1);
    // 2: the command line is wrong.
    assert_eq!(code(&["perft", "games/tictactoe.game"]), 2);
    assert_eq!(code(&["perft", "games/tictactoe.game", "x"]), 2);
    assert_eq!(code(&["show", "games/tictactoe.game", "--bogus"]), 2);
    assert_eq!(code(&["show", "games/tictactoe.game", "--set", "size"]), 2);
    assert_eq!(code(&["show", "games/nothing_here.game"]), 2);
    assert_eq!(code(&["show", "games/bug_off.game", "--as", "Zed"]), 2);
    assert_eq!(code(&[]), 2);
}

#[test]
fn set_last_value_wins() {
    let o = tabula(&["perft", "games/boop.game", "1", "--set", "size=7", "--set", "size=5"], "");
    assert_eq!(out(&o), "perft(1) = 25\n", "{}", err(&o));
    let o = tabula(&["perft", "games/boop.game", "1", "--set", "size=5", "--set", "size=7"], "");
    assert_eq!(out(&o), "perft(1) = 49\n", "{}", err(&o));
}

#[test]
fn show_and_play_deal_the_same_hands_for_a_seed() {
    for seed in ["4", "9"] {
        let shown =
            out(&tabula(&["show", "games/bug_off.game", "--as", "Ann", "--seed", seed], ""));
        let played = out(&tabula(&["play", "games/bug_off.game", "--seed", seed], "quit\n"));
        let hand = |s: &str| {
            s.lines().find(|l| l.starts_with("Ann hand:")).unwrap_or("(no hand)").to_string()
        };
        assert_eq!(hand(&shown), hand(&played), "seed {seed}:\n{shown}\n{played}");
        assert!(played.contains(&format!("(seed {seed})")), "{played}");
    }
    // Without --seed, a random seed is drawn and said, and it repeats the deal.
    let o = tabula(&["show", "games/bug_off.game", "--as", "Ann"], "");
    let e = err(&o);
    let seed = e
        .split("--seed ")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .unwrap_or_else(|| panic!("no seed in {e}"));
    let again = tabula(&["show", "games/bug_off.game", "--as", "Ann", "--seed", seed], "");
    assert_eq!(out(&o), out(&again));
}

#[test]
fn progress_is_absent_when_stderr_is_not_a_terminal() {
    for args in [
        vec!["perft", "games/boop.game", "3", "--divide"],
        vec!["playout", "games/tictactoe.game", "-n", "200", "--seed", "1"],
        vec!["bench", "games/tictactoe.game", "-n", "20", "--depth", "2"],
    ] {
        let o = tabula(&args, "");
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        let e = err(&o);
        assert!(!e.contains('\r') && !e.contains("\x1b[") && !e.contains("=>"), "{args:?}: {e:?}");
        // Only the one timing line, which `-q` silences too.
        assert!(e.lines().count() <= 1, "{args:?}: {e}");
        let mut quiet = args.clone();
        quiet.push("-q");
        assert_eq!(err(&tabula(&quiet, "")), "", "{args:?}");
    }
}

#[test]
fn json_of_every_verb_on_a_fixed_position() {
    let after = "b2 a1 c3";
    let mut all = String::new();
    let mut add = |what: &str, args: &[&str], success: bool| {
        let o = tabula(args, "");
        assert_eq!(o.status.success(), success, "{what}: {}", err(&o));
        all.push_str(&format!("===== {what}\n{}\n", pretty(&json(&o))));
    };
    let ttt = "games/tictactoe.game";
    add("show", &["show", ttt, "--after", after, "--seed", "1", "--json"], true);
    add("moves", &["moves", ttt, "--after", after, "--json"], true);
    add("moves (boop, choices)", &["moves", "games/boop.game", "--set", "size=3", "--json"], true);
    add("moves (a winning move)", &["moves", ttt, "--after", "a1 b1 a2 b2", "--json"], true);
    add("moves (game over)", &["moves", ttt, "--after", "a1 b1 a2 b2 a3", "--json"], true);
    add("explain (legal)", &["explain", ttt, "a3", "--after", after, "--json"], true);
    add("explain (illegal)", &["explain", ttt, "b2", "--after", after, "--json"], false);
    add("perft", &["perft", ttt, "2", "--after", after, "--json"], true);
    add("perft --divide", &["perft", ttt, "2", "--after", after, "--divide", "--json"], true);
    add("playout", &["playout", ttt, "-n", "50", "--seed", "2", "--after", after, "--json"], true);
    add(
        "playout (scores, tie-breaks)",
        &[
            "playout",
            "games/bug_off.game",
            "-n",
            "40",
            "--seed",
            "2",
            "--set",
            "players=4",
            "--json",
        ],
        true,
    );
    add("bench", &["bench", ttt, "-n", "5", "--depth", "2", "--seed", "1", "--json"], true);
    add("check", &["check", ttt, "--json"], true);
    add("check (errors)", &["check", "tests/errors/several_errors.game", "--json"], false);
    add("check (warnings)", &["check", "tests/warnings/unused.game", "--json"], true);
    insta::assert_snapshot!("json", all);
    let denied = tabula(&["check", "tests/warnings/unused.game", "--json", "--deny-warnings"], "");
    assert_eq!(denied.status.code(), Some(1));
    assert_eq!(json(&denied)["ok"], false);
}

#[test]
fn position_round_trips_through_json_and_text() {
    let dir = scratch("position");
    for (game, after, extra) in [
        ("games/boop.game", "K c3, K d4, K f6", vec![]),
        ("games/bug_off.game", "", vec!["--reveal", "--seed", "3"]),
        ("games/snekagon.game", "", vec![]),
    ] {
        let mut args = vec!["show", game, "--after", after];
        args.extend(&extra);
        for (flag, name) in [("--json", "p.json"), ("--text", "p.txt")] {
            let mut first = args.clone();
            first.push(flag);
            let a = tabula(&first, "");
            assert!(a.status.success(), "{game} {flag}: {}", err(&a));
            let path = dir.join(name);
            std::fs::write(&path, out(&a)).expect("write");
            let p = path.to_string_lossy().into_owned();
            let mut again = vec!["show", game, "--position", &p, flag];
            again.extend(&extra);
            let b = tabula(&again, "");
            assert!(b.status.success(), "{game} {flag}: {}", err(&b));
            assert_eq!(out(&a), out(&b), "{game} {flag}");
            // Both formats are read by every verb that takes `--position`.
            let m = tabula(&["moves", game, "--position", &p], "");
            let direct = tabula(&["moves", game, "--after", after, "--seed", "3"], "");
            assert_eq!(out(&m), out(&direct), "{game} {flag}");
        }
    }
    // A view that hides cards cannot be read back, and says why.
    let a = tabula(&["show", "games/bug_off.game", "--json", "--seed", "3"], "");
    let path = dir.join("hidden.json");
    std::fs::write(&path, out(&a)).expect("write");
    let b = tabula(&["show", "games/bug_off.game", "--position", &path.to_string_lossy()], "");
    assert_eq!(b.status.code(), Some(1));
    assert!(err(&b).contains("--reveal"), "{}", err(&b));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn replay_finds_the_game_beside_the_record() {
    let dir = scratch("replay");
    let path = dir.join("game.json");
    let p = path.to_string_lossy().into_owned();
    let o = tabula(
        &[
            "play",
            "games/connect4.game",
            "--watch",
            "--seed",
            "3",
            "--engine",
            "greedy",
            "--record",
            &p,
        ],
        "",
    );
    assert!(o.status.success(), "{}", err(&o));
    // From another folder.
    let o = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["replay", &p])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run");
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("moves replayed"), "{}", out(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_echo_input_as_typed() {
    let o = tabula(&["moves", "games/boop.game", "--after", "K c3, K Z9"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("`K Z9` is not a legal move here"), "{}", err(&o));
}

#[test]
fn completions_and_man_pages() {
    for (shell, marker) in
        [("bash", "_tabula()"), ("zsh", "#compdef tabula"), ("fish", "complete -c tabula")]
    {
        let o = tabula(&["completions", shell], "");
        assert!(o.status.success(), "{shell}: {}", err(&o));
        assert!(out(&o).contains(marker), "{shell}: {}", out(&o));
        assert!(out(&o).contains("playout"), "{shell}");
    }
    let o = tabula(&["man"], "");
    assert!(out(&o).starts_with(".ie") && out(&o).contains(".TH tabula 1"), "{}", out(&o));
    let o = tabula(&["man", "perft"], "");
    assert!(out(&o).contains(".TH tabula-perft 1"), "{}", out(&o));
    assert!(out(&o).contains("divide"), "{}", out(&o));
    assert_eq!(tabula(&["man", "nope"], "").status.code(), Some(2));
}

/// Every element of an SVG or HTML text with a `class` attribute: its
/// classes and its `data-*` attributes.
fn tagged(text: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    for tag in text.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap_or("");
        let mut attrs = Vec::new();
        let mut rest = tag;
        while let Some(eq) = rest.find("=\"") {
            let name = rest[..eq].rsplit(' ').next().unwrap_or("").to_string();
            let after = &rest[eq + 2..];
            let end = after.find('"').unwrap_or(after.len());
            attrs.push((name, after[..end].to_string()));
            rest = &after[(end + 1).min(after.len())..];
        }
        if let Some((_, class)) = attrs.iter().find(|(n, _)| n == "class") {
            let class = class.clone();
            out.push((class, attrs.into_iter().filter(|(n, _)| n.starts_with("data-")).collect()));
        }
    }
    out
}

fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> &'a str {
    attrs.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v.as_str())
}

/// For each bundled game, the position after its first legal move: the
/// arguments of `show` and the game's cell count.
fn picture_cases() -> Vec<(String, Vec<String>)> {
    let mut cases = Vec::new();
    for path in crate::files(&crate::root().join("games"), "game") {
        let game = format!("games/{}", path.file_name().expect("name").to_string_lossy());
        let first = out(&tabula(&["moves", &game, "--seed", "1", "--reveal"], ""));
        let first = first.lines().next().unwrap_or("").to_string();
        let args: Vec<String> =
            ["show", &game, "--seed", "1", "--reveal", "--after", &first].map(String::from).into();
        cases.push((game, args));
    }
    cases
}

#[test]
fn svg_of_every_bundled_game() {
    let mut summary = String::new();
    for (game, args) in picture_cases() {
        let mut svg_args: Vec<&str> = args.iter().map(String::as_str).collect();
        svg_args.extend(["--svg", "-"]);
        let o = tabula(&svg_args, "");
        assert!(o.status.success(), "{game}: {}", err(&o));
        let svg = out(&o);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{game}");
        let els = tagged(&svg);
        type El = (String, Vec<(String, String)>);
        let of = |class: &str| -> Vec<&El> {
            els.iter().filter(|(c, _)| c.split(' ').any(|x| x == class)).collect()
        };
        // One cell per board cell.
        let mut json_args: Vec<&str> = args.iter().map(String::as_str).collect();
        json_args.push("--json");
        let position = json(&tabula(&json_args, ""));
        let check = json(&tabula(&["check", &game, "--json"], ""));
        let cells = check["game"]["cells"].as_u64().expect("cells") as usize;
        assert_eq!(of("cell").len(), cells, "{game}");
        // The pieces stand where the position says.
        let mut drawn: Vec<String> = of("piece")
            .iter()
            .map(|(_, a)| {
                format!(
                    "{} {} {}",
                    attr(a, "data-cell"),
                    attr(a, "data-player"),
                    attr(a, "data-kind")
                )
            })
            .collect();
        let mut expected: Vec<String> = position["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .map(|p| {
                format!(
                    "{} {} {}",
                    p[0].as_str().unwrap(),
                    p[1].as_str().unwrap(),
                    p[2].as_str().unwrap()
                )
            })
            .collect();
        drawn.sort();
        expected.sort();
        assert_eq!(drawn, expected, "{game}");
        let last: Vec<&str> = of("last").iter().map(|(_, a)| attr(a, "data-cell")).collect();
        let zones: Vec<String> = of("zone")
            .iter()
            .map(|(_, a)| {
                let owner = attr(a, "data-player");
                let owner = if owner.is_empty() { String::new() } else { format!(" {owner}") };
                format!("{}{owner}: {}", attr(a, "data-zone"), attr(a, "data-size"))
            })
            .collect();
        summary.push_str(&format!(
            "{game} (after `{}`): {} cells; pieces: {}; last move: {}; zones: {}\n",
            args.last().map_or("", String::as_str),
            of("cell").len(),
            drawn.join(", "),
            last.join(" "),
            zones.join(", ")
        ));
    }
    insta::assert_snapshot!("svg", summary);
}

/// The headless Chromium binary, if installed (tests/install_chromium.sh).
fn chromium() -> Option<&'static str> {
    let ok = Command::new("chromium").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: chromium is not installed (tests/install_chromium.sh installs it)");
    }
    ok.then_some("chromium")
}

/// The DOM of a page after its scripts ran, as Chromium renders it.
fn browse(chromium: &str, url: &str, profile: &std::path::Path) -> String {
    let o = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1600,1200",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            url,
        ])
        .output()
        .expect("run chromium");
    assert!(o.status.success(), "chromium: {}", err(&o));
    out(&o)
}

#[test]
fn svg_in_a_browser_puts_each_piece_on_its_cell() {
    let Some(chromium) = chromium() else { return };
    let dir = scratch("svg-browser");
    for (game, args) in picture_cases() {
        let mut svg_args: Vec<&str> = args.iter().map(String::as_str).collect();
        svg_args.extend(["--svg", "-"]);
        let svg = out(&tabula(&svg_args, ""));
        // The browser lays the picture out; the script asks it which cell
        // lies under the centre of each piece.
        let page = format!(
            "<!DOCTYPE html><html><body style=\"margin:0\">{svg}<script>\
             var out = [];\
             document.querySelectorAll('circle.piece').forEach(function (p) {{\
               var r = p.getBoundingClientRect();\
               var under = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2)\
                 .find(function (e) {{ return e.classList.contains('cell'); }});\
               out.push(p.dataset.cell + '=' + (under ? under.dataset.cell : 'none'));\
             }});\
             document.body.setAttribute('data-result', document.querySelectorAll('.cell').length + ';' + out.join(','));\
             </script></body></html>"
        );
        let path = dir.join("page.html");
        std::fs::write(&path, page).expect("write");
        let dom = browse(chromium, &format!("file://{}", path.display()), &dir.join("profile"));
        let result = dom
            .split("data-result=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_else(|| panic!("{game}: the script did not run:\n{dom}"));
        let (cells, pieces) = result.split_once(';').expect("result");
        let svg_cells = tagged(&svg).iter().filter(|(c, _)| c == "cell").count();
        assert_eq!(cells.parse::<usize>().expect("count"), svg_cells, "{game}");
        for p in pieces.split(',').filter(|p| !p.is_empty()) {
            let (on, under) = p.split_once('=').expect("pair");
            assert_eq!(on, under, "{game}: the piece of {on} is drawn over {under}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn html_replay_steps_forward_and_back_in_a_browser() {
    let dir = scratch("html");
    let record = dir.join("game.json");
    let page = dir.join("game.html");
    let (r, p) = (record.to_string_lossy().into_owned(), page.to_string_lossy().into_owned());
    let o = tabula(&["play", "games/tictactoe.game", "--watch", "--seed", "2", "--record", &r], "");
    assert!(o.status.success(), "{}", err(&o));
    let o = tabula(&["replay", &r, "--html", &p], "");
    assert!(o.status.success(), "{}", err(&o));
    let html = std::fs::read_to_string(&page).expect("page");
    // Self-contained: one SVG per step, nothing loaded from elsewhere.
    let moves = out(&tabula(&["replay", &r], "")).matches('\n').count();
    let frames = tagged(&html).iter().filter(|(c, _)| c == "frame").count();
    assert!(frames >= 6 && html.matches("<svg").count() == frames, "{frames} frames");
    assert!(!html.contains("src=") && !html.contains("href="), "the page loads nothing");
    assert!(moves > 0);
    let Some(chromium) = chromium() else {
        std::fs::remove_dir_all(&dir).ok();
        return;
    };
    let step = |hash: &str| {
        let dom = browse(chromium, &format!("file://{p}#{hash}"), &dir.join("profile"));
        let body = dom.split("<body").nth(1).unwrap_or("");
        let shown: Vec<&str> = dom
            .split("class=\"frame shown\" data-step=\"")
            .skip(1)
            .map(|s| s.split('"').next().unwrap_or(""))
            .collect();
        let at = body.split("data-step=\"").nth(1).and_then(|s| s.split('"').next()).unwrap_or("?");
        assert_eq!(shown, vec![at], "exactly the current step is shown ({hash})");
        at.parse::<usize>().expect("step")
    };
    assert_eq!(step(""), 0);
    assert_eq!(step("clicks=fff"), 3);
    assert_eq!(step("clicks=fffb"), 2);
    assert_eq!(step("clicks=bb"), 0, "back stops at the start");
    assert_eq!(
        step(&format!("clicks={}", "f".repeat(frames + 3))),
        frames - 1,
        "forward stops at the end"
    );
    assert_eq!(step("step=4&clicks=b"), 3);
    std::fs::remove_dir_all(&dir).ok();
}

/// A position like `s` that differs only in what `viewer` cannot see: one
/// card of another player's hand traded with a face-down card of the deck.
fn hidden_twin(g: &tabula::Game, s: &tabula::State, viewer: u8) -> Option<tabula::State> {
    let hand = g.zones.iter().position(|z| z.name == "hand")? as u16;
    let deck = g.zones.iter().position(|z| z.name == "draw_pile")? as u16;
    let other = (0..g.players.len() as u8).find(|&p| p != viewer)?;
    let seq = s.sequence(g, deck, 0).clone();
    let (dk, _) = seq.hidden_kinds().next()?;
    let hk = (0..g.kinds.len() as u16).find(|&k| k != dk && s.count(g, hand, other, k) > 0)?;
    let mut t = s.clone();
    t.set_count(g, hand, other, hk, s.count(g, hand, other, hk) - 1);
    t.set_count(g, hand, other, dk, s.count(g, hand, other, dk) + 1);
    let mut middle = seq.middle().to_vec();
    middle[dk as usize] -= 1;
    middle[hk as usize] += 1;
    let seq2 = tabula::state::Seq::from_parts(seq.front().collect(), middle, seq.back.clone());
    t.set_sequence(g, deck, 0, seq2);
    (t != *s).then_some(t)
}

#[test]
fn every_verb_shows_a_viewer_only_what_they_may_know() {
    // Two positions that differ only in what a player cannot see give that
    // player the very same output on every verb, text and JSON; a verb
    // that would need hidden cards refuses without `--as`.
    let dir = std::env::temp_dir().join(format!("tabula-leak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut compared = 0;
    for players in [2i64, 3, 5] {
        let g = crate::game_with("bug_off.game", &[("players", players)]);
        let set = format!("players={players}");
        let mut rng = tabula::rng::Rng::new(players as u64);
        let mut s = tabula::State::initial_seeded(&g, players as u64).unwrap();
        for ply in 0..40 {
            if s.turn() == tabula::Turn::Player(s.current()) && ply % 3 == 0 {
                let me = s.current();
                if let Some(twin) = hidden_twin(&g, &s, me) {
                    let (a, b) = (dir.join("a.pos"), dir.join("b.pos"));
                    std::fs::write(&a, s.to_text(&g)).unwrap();
                    std::fs::write(&b, twin.to_text(&g)).unwrap();
                    let who = g.players[me as usize].clone();
                    let first = tabula::State::move_text(&g, &s.legal_moves(&g).unwrap()[0]);
                    let verbs: Vec<Vec<&str>> = vec![
                        vec!["show", "--as", &who],
                        vec!["show", "--as", &who, "--json"],
                        vec!["moves", "--as", &who],
                        vec!["moves", "--as", &who, "--json"],
                        vec!["explain", &first, "--as", &who],
                        vec!["explain", &first, "--as", &who, "--json"],
                        vec!["explain", "collect zz", "--as", &who],
                        vec!["perft", "1", "--as", &who],
                        vec!["moves"],
                        vec!["perft", "2", "--as", &who],
                    ];
                    for v in verbs {
                        let run = |pos: &std::path::Path| {
                            let p = pos.to_string_lossy().into_owned();
                            let mut args = vec![v[0], "games/bug_off.game", "--set", &set];
                            args.extend(["--position", &p, "-q"]);
                            args.extend(&v[1..]);
                            let o = tabula(&args, "");
                            (
                                out(&o).replace(&p, "POS"),
                                err(&o).replace(&p, "POS"),
                                o.status.code(),
                            )
                        };
                        assert_eq!(
                            run(&a),
                            run(&b),
                            "{v:?} leaks at ply {ply}:\n{}",
                            s.to_text(&g)
                        );
                        compared += 1;
                    }
                    // Playing as that player, with a viewer record, and
                    // replaying the record: the same screens, the same file.
                    let play = |pos: &std::path::Path, rec: &std::path::Path| {
                        let (p, r) = (pos.to_string_lossy(), rec.to_string_lossy());
                        let o = tabula(
                            &[
                                "play",
                                "games/bug_off.game",
                                "--set",
                                &set,
                                "--position",
                                &p,
                                "--as",
                                &who,
                                "--seed",
                                "1",
                                "--record",
                                &r,
                            ],
                            "moves\nhelp\nquit\n",
                        );
                        let replayed = tabula(&["replay", &r, "-q"], "");
                        (
                            out(&o).replace(&*p, "POS").replace(&*r, "REC"),
                            err(&o),
                            o.status.code(),
                            std::fs::read_to_string(rec).unwrap_or_default(),
                            out(&replayed),
                            replayed.status.code(),
                        )
                    };
                    let (ra, rb) = (dir.join("a.json"), dir.join("b.json"));
                    let (pa, pb) = (play(&a, &ra), play(&b, &rb));
                    assert!(pa.3.contains("\"viewer\""), "a viewer record: {}", pa.3);
                    assert_eq!(pa, pb, "play or its record leaks at ply {ply}");
                    compared += 1;
                    // Without a viewer: refused, and nothing of a hand printed.
                    let o = tabula(
                        &[
                            "moves",
                            "games/bug_off.game",
                            "--set",
                            &set,
                            "--position",
                            &a.to_string_lossy(),
                        ],
                        "",
                    );
                    assert!(!o.status.success() && err(&o).contains("--as"), "{}", err(&o));
                }
            }
            let moves = s.legal_moves(&g).unwrap();
            if moves.is_empty() {
                break;
            }
            s = s.play(&g, &moves[rng.below(moves.len())]).unwrap();
        }
    }
    assert!(compared > 50, "only {compared} comparisons");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--max-steps` is the limit of every command's runs, `explain`'s (the
/// reference interpreter) as much as `moves`' (the compiled evaluator): a
/// turn of 2,000,001 loop rounds stops under the default limit of
/// 2,000,000 steps in both, and runs in both when the limit is raised by
/// one. (The reference interpreter used to keep to the default whatever
/// was asked.)
#[test]
fn the_step_limit_is_the_same_for_explain_and_moves() {
    let dir = scratch("steps");
    let file = dir.join("long.game");
    let text = "players A, B\nboard square 2 by 2\npiece Stone\nturn {\n\
                choose c in cells where empty(c)\n let k = 0\n\
                for i in range(1, 2000001) { k = i }\n require k > 0\n\
                place Stone at c\n}\n";
    std::fs::write(&file, text).expect("write");
    let f = file.to_str().expect("path");
    for (limit, ok) in [(None, false), (Some("2000001"), true)] {
        let with = |args: &[&str]| {
            let mut all: Vec<&str> = limit.map_or(vec![], |n| vec!["--max-steps", n]);
            all.extend(args);
            tabula(&all, "")
        };
        let moves = with(&["moves", f]);
        let explained = with(&["explain", f, "a1"]);
        for (what, o) in [("moves", &moves), ("explain", &explained)] {
            assert_eq!(o.status.success(), ok, "{what} under {limit:?}: {}", err(o));
            if !ok {
                let shown = err(o);
                assert!(shown.contains("more than 2000000 steps"), "{what}: {shown}");
                assert!(shown.contains("for i in range(1, 2000001)"), "{what}: {shown}");
            }
        }
        if ok {
            assert!(out(&explained).contains("`a1` is legal"), "{}", out(&explained));
            assert_eq!(out(&moves).lines().count(), 4, "{}", out(&moves));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn short_forms_work_at_the_prompt_and_in_explain() {
    // Connect Four declares its cell choice `as short`: a column letter.
    let o = tabula(&["explain", "games/connect4.game", "d", "--after", "d"], "");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("`d2` is legal"), "{}", out(&o));
    let o =
        tabula(&["play", "games/connect4.game", "--seat", "2=random", "--seed", "1"], "d\nquit\n");
    assert!(out(&o).contains("Red plays d1"), "{}", out(&o));
}

/// `show` says when the game is over and how it ended, in the drawing and
/// in JSON: a game a rule ended (three in a row), and one whose player to
/// move has no move, where `on no moves` ends it (a full board, a draw).
#[test]
fn show_says_the_game_is_over() {
    let ttt = "games/tictactoe.game";
    let cases = [
        ("in play", "a1 a2"),
        ("won by a rule", "a1 a2 b1 b2 c1"),
        ("no move left", "a1 b2 c1 b1 b3 a2 c2 c3 a3"),
    ];
    let mut all = String::new();
    for (what, after) in cases {
        let drawing = tabula(&["show", ttt, "--after", after], "");
        let j = tabula(&["show", ttt, "--after", after, "--json"], "");
        assert!(drawing.status.success() && j.status.success(), "{what}: {}", err(&drawing));
        let (drawing, j) = (out(&drawing), json(&j));
        let over = what != "in play";
        assert_eq!(drawing.contains("game over: "), over, "{what}: {drawing}");
        assert_eq!(drawing.contains("to move: "), !over, "{what}: {drawing}");
        assert_eq!(j.get("game_over").is_some_and(|v| v.is_string()), over, "{what}: {j}");
        all.push_str(&format!("===== {what}\n{drawing}{}\n", pretty(&j)));
    }
    insta::assert_snapshot!(all);
}
