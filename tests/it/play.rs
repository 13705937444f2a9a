//! `tabula play`, `match` and `replay --step` as a person uses them:
//! scripted input, snapshotted transcripts (stdin is not a terminal, so
//! each typed line is echoed after its prompt and nothing is coloured).

use std::process::Output;

use crate::tabula;

/// Stdout, with the scratch folder written as `SCRATCH`.
fn transcript(o: &Output, dir: &std::path::Path) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).replace(&dir.to_string_lossy().into_owned(), "SCRATCH")
}

/// A scratch folder of one test, removed when the test ends (also when it
/// fails).
struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("tabula-play-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

#[test]
fn play_transcript_illegal_partial_hint_undo_save_and_load() {
    let dir = scratch("boop");
    let saved = dir.join("game.json");
    let saved = saved.to_string_lossy();
    // An illegal move, a partial one, targets of a prefix, a hint, a move
    // typed in small letters, undo, the move again, save.
    let script =
        format!("help\nK z9\nK\nmoves K c\nhint\nk c3\nundo\nK d4\nwhy C a1\nsave {saved}\nquit\n");
    let args = ["play", "games/boop.game", "--seed", "2", "--engine", "mcts:60"];
    let o = tabula(&args, &script);
    let first = transcript(&o, &dir);
    insta::assert_snapshot!("play_boop", first);
    // Going on from the saved game: the same position, then a move.
    let args = ["play", "games/boop.game", "--load", &saved, "--engine", "mcts:60"];
    let o = tabula(&args, "K a1\nquit\n");
    insta::assert_snapshot!("play_boop_loaded", transcript(&o, &dir));
}

#[test]
fn play_transcript_to_the_end_with_a_summary() {
    // Tic-tac-toe against random play: the person wins on row 1.
    let dir = scratch("ttt");
    let args = ["play", "games/tictactoe.game", "--seed", "1", "--seat", "2=random"];
    let o = tabula(&args, "b2\na1\nc1\nb1\na3\nc3\na2\nc2\nquit\n");
    let text = transcript(&o, &dir);
    assert_eq!(text.matches("Game over").count(), 1, "{text}");
    insta::assert_snapshot!("play_tictactoe", text);
}

#[test]
fn seats_may_be_engines_or_people_by_number_or_name() {
    let o = tabula(
        &[
            "play",
            "games/tictactoe.game",
            "--seed",
            "3",
            "--seat",
            "1=greedy",
            "--seat",
            "O=mcts:50",
        ],
        "",
    );
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("X greedy, O mcts:50"), "{s}");
    assert!(s.contains("Game over"), "{s}");
    let o = tabula(&["play", "games/tictactoe.game", "--seat", "3=human"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = tabula(&["play", "games/tictactoe.game", "--seat", "1=alphazero"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an engine"));
}

#[test]
fn load_refuses_a_record_of_another_game() {
    let dir = scratch("other");
    let rec = dir.join("ttt.json");
    let rec = rec.to_string_lossy();
    let o = tabula(
        &["play", "games/tictactoe.game", "--seed", "1"],
        &format!("b2\nsave {rec}\nquit\n"),
    );
    assert!(o.status.success());
    let o = tabula(&["play", "games/connect4.game", "--load", &rec], "quit\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not the game"), "{o:?}");
}

/// The JSON of a match without its timings.
fn match_json(args: &[&str]) -> serde_json::Value {
    let o = tabula(args, "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v.as_object_mut().unwrap().remove("seconds");
    for e in v["entrants"].as_array_mut().unwrap() {
        e.as_object_mut().unwrap().remove("ms_per_move");
    }
    v
}

#[test]
fn match_results_are_reproducible_for_a_seed_whatever_the_threads() {
    let args = [
        "match",
        "games/tictactoe.game",
        "--a",
        "mcts:40",
        "--b",
        "greedy",
        "-n",
        "12",
        "--seed",
        "4",
        "--json",
    ];
    let one = match_json(&args);
    let again = match_json(&args);
    let mut two_args = args.to_vec();
    two_args.extend(["-j", "2"]);
    let two = match_json(&two_args);
    assert_eq!(one, again);
    assert_eq!(one, two);
    insta::assert_snapshot!("match_json", serde_json::to_string_pretty(&one).unwrap());
}

#[test]
fn match_of_four_players_and_records_that_replay() {
    let dir = scratch("match");
    let d = dir.to_string_lossy();
    let v = match_json(&[
        "match",
        "games/bug_off.game",
        "--set",
        "players=4",
        "--a",
        "mcts:20",
        "--b",
        "random",
        "-n",
        "4",
        "--seed",
        "2",
        "--record",
        &d,
        "--json",
    ]);
    assert_eq!(v["entrants"][0]["seats"], 1);
    assert_eq!(v["entrants"][1]["seats"], 3);
    assert_eq!(v["entrants"][1]["fair_share"], 0.75);
    let share: f64 =
        v["entrants"].as_array().unwrap().iter().map(|e| e["share"].as_f64().unwrap()).sum();
    assert!((share - 1.0).abs() < 1e-9, "{v}");
    for i in 1..=4 {
        let rec = dir.join(format!("game-{i:04}.json"));
        // A match record is the referee's: it holds every hidden card, so
        // replaying it takes `--reveal` (without it `replay` refuses).
        let o = tabula(&["replay", &rec.to_string_lossy()], "");
        assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
        let o = tabula(&["replay", &rec.to_string_lossy(), "--reveal"], "");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn match_refuses_too_many_entrants_and_bad_engines() {
    let o = tabula(
        &["match", "games/tictactoe.game", "--a", "random", "--b", "random", "--c", "random"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    let o = tabula(&["match", "games/tictactoe.game", "--a", "mcts:zero", "--b", "random"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn replay_steps_forward_and_back() {
    let dir = scratch("replay");
    let rec = dir.join("ttt.json");
    let rec = rec.to_string_lossy();
    let o = tabula(
        &[
            "play",
            "games/tictactoe.game",
            "--watch",
            "--seed",
            "5",
            "--engine",
            "greedy",
            "--record",
            &rec,
        ],
        "",
    );
    assert!(o.status.success());
    let o = tabula(&["replay", &rec, "--step"], "\nn\nb\n4\nlast\nn\nfirst\nq\n");
    insta::assert_snapshot!("replay_step", transcript(&o, &dir));
}

/// Lines a person types in Bug Off!: every `collect` and `score` of every
/// bug, over and over (the illegal ones are refused and the game goes on).
fn bug_off_typing(rounds: usize) -> String {
    let bugs = ["ant", "bee", "butterfly", "ladybug", "slug", "beetle"];
    let mut s = String::new();
    for _ in 0..rounds {
        for verb in ["collect", "score"] {
            for b in bugs {
                s.push_str(&format!("{verb} {b}\n"));
            }
        }
    }
    s
}

#[test]
fn a_viewer_record_holds_what_its_player_saw_and_a_referee_record_everything() {
    let dir = scratch("records");
    let (v, r) = (dir.join("ann.json"), dir.join("referee.json"));
    let (vs, rs) = (v.to_string_lossy().into_owned(), r.to_string_lossy().into_owned());
    let args = [
        "play",
        "games/bug_off.game",
        "--seat",
        "2=random",
        "--seed",
        "3",
        "--record",
        &vs,
        "--record-referee",
        &rs,
    ];
    let o = tabula(&args, &bug_off_typing(80));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Game over"), "the game ran to its end");

    // The viewer record: no seed, no start position, Ann's name.
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&v).unwrap())
        .expect("the viewer record is JSON");
    assert!(json.get("seed").is_none() && json.get("start").is_none(), "{json}");
    let view: tabula::wire::ViewRecord = serde_json::from_value(json).unwrap();
    assert_eq!(view.viewer, "Ann");

    // Step by step it is exactly what the referee's record shows Ann: the
    // same observations, chance outcomes unnamed.
    let referee: tabula::wire::Record =
        serde_json::from_str(&std::fs::read_to_string(&r).unwrap()).unwrap();
    let g = crate::game("bug_off.game");
    let ann = tabula::wire::Viewer::Player(0);
    let mut s = referee.start_state(&g).unwrap();
    assert_eq!(view.steps.len(), referee.moves.len() + 1);
    assert_eq!(view.steps[0].observation, tabula::wire::observe(&g, &s, ann));
    for (i, m) in referee.moves.iter().enumerate() {
        let chance = s.turn() == tabula::Turn::Chance;
        let mv = s.parse_move(&g, m).expect("a recorded move reads back");
        s.play_unchecked(&g, &mv).expect("a recorded move plays");
        let step = &view.steps[i + 1];
        assert_eq!(step.observation, tabula::wire::observe(&g, &s, ann), "step {}", i + 1);
        assert_eq!(step.text, tabula::render::render_for(&g, &s, ann), "step {}", i + 1);
        if chance {
            assert_eq!(step.caption, format!("{}. chance", i + 1));
        } else {
            assert!(step.caption.ends_with(&format!(": {m}")), "{}", step.caption);
        }
    }
    assert_eq!(view.outcome, referee.outcome);

    // `replay` shows the viewer record as Ann saw it, and only so.
    let mine = tabula(&["replay", &vs, "-q"], "");
    assert!(mine.status.success(), "{}", String::from_utf8_lossy(&mine.stderr));
    let theirs = tabula(&["replay", &rs, "--as", "Ann", "-q"], "");
    assert!(theirs.status.success(), "{}", String::from_utf8_lossy(&theirs.stderr));
    let board = |o: &Output| {
        let t = String::from_utf8_lossy(&o.stdout).into_owned();
        t.lines()
            .filter(|l| l.contains(':') && !l.contains("Game over"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let last = view.steps.last().unwrap();
    for line in last.text.lines().filter(|l| !l.starts_with("game over")) {
        assert!(board(&mine).iter().any(|l| l == line), "{line}");
        assert!(board(&theirs).iter().any(|l| l == line), "{line}");
    }
    for refused in [vec!["--reveal"], vec!["--as", "Ben"], vec!["--html", "x.html"]] {
        let mut a = vec!["replay", vs.as_str()];
        a.extend(refused.iter().copied());
        assert_eq!(tabula(&a, "").status.code(), Some(2), "{refused:?}");
    }
    // An edited viewer record is refused.
    let text = std::fs::read_to_string(&v).unwrap();
    std::fs::write(&v, text.replacen("chance", "Ben: collect ant", 1)).unwrap();
    let o = tabula(&["replay", &vs], "");
    assert!(String::from_utf8_lossy(&o.stderr).contains("record was changed"));
}

#[test]
fn record_of_a_hidden_game_needs_one_person_or_the_referee_option() {
    let dir = scratch("records-who");
    let p = dir.join("x.json").to_string_lossy().into_owned();
    let watch = ["play", "games/bug_off.game", "--watch", "--engine", "random", "--record", &p];
    let o = tabula(&watch, "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--record-referee"));
    assert!(!dir.join("x.json").exists());
}

#[test]
fn undo_draws_again() {
    // The same move, undone and played again: the cards drawn after it are
    // drawn anew each time, not taken from a stored order.
    let input = "collect ant\nundo\n".repeat(12) + "quit\n";
    let o = tabula(&["play", "games/bug_off.game", "--seat", "2=random", "--seed", "3"], &input);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let hands: std::collections::BTreeSet<&str> = out
        .split("Ann plays collect ant")
        .skip(1)
        .filter_map(|after| after.lines().find(|l| l.starts_with("Ann hand:")))
        .collect();
    assert_eq!(out.matches("Ann plays collect ant").count(), 12);
    assert!(hands.len() > 1, "the same hand after every redo: {hands:?}");
}

#[test]
fn an_illegal_move_at_the_prompt_gives_the_rules_own_words() {
    // After 1. e4 e5 2. Qh5, f7-f6 leaves the black king attacked from h5:
    // chess says why in its `require ... else "..."`.
    let o = tabula(
        &["play", "games/chess.game", "--seat", "1=human", "--seat", "2=human"],
        "e2 e4\ne7 e5\nd1 h5\nf7 f6\nd8 e7\nquit\n",
    );
    let s = String::from_utf8_lossy(&o.stdout);
    let line = std::fs::read_to_string(crate::root().join("games/chess.game"))
        .unwrap()
        .lines()
        .position(|l| l.contains("else \"this leaves your king in check\""))
        .unwrap()
        + 1;
    assert!(
        s.contains(&format!(
            "`f7 f6` is not a legal move here (26 legal moves; `moves` lists them)\n\
             the rules say: this leaves your king in check (line {line}); type `why` for the details"
        )),
        "{s}"
    );
    assert!(s.contains("Black plays d8 e7"), "{s}");
    // A move no `require` with a message rejects keeps the plain hint.
    let o = tabula(
        &["play", "games/chess.game", "--seat", "1=human", "--seat", "2=human"],
        "e2 e5\nquit\n",
    );
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("(type `why` to see which rule rejects it)"), "{s}");
}

#[test]
fn engines_alone_stop_at_the_turn_cap() {
    let o = tabula(
        &["play", "games/tictactoe.game", "--watch", "--engine", "random", "--max-plies", "3"],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.matches(" plays ").count(), 3, "{out}");
    assert!(out.contains("Game stopped after 3 turns"), "{out}");
}
