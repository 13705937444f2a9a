//! Bad input never panics: mangled game files get diagnostics (or, if they
//! still make sense, run), and a few random moves run without panicking.

use tabula::rng::Rng;
use tabula::{Game, Source, State};

fn mangle(text: &str, rng: &mut Rng) -> String {
    let mut bytes: Vec<u8> = text.bytes().collect();
    let pieces: &[&[u8]] = &[
        b"(", b")", b"{", b"}", b"-", b"0", b"999999", b"x", b" ", b"\n", b"all", b"none", b"==",
        b":", b",",
    ];
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(3) {
            0 => {
                let n = 1 + rng.below(8);
                bytes.drain(at..(at + n).min(bytes.len()));
            }
            1 => {
                let p = pieces[rng.below(pieces.len())];
                bytes.splice(at..at, p.iter().copied());
            }
            _ => {
                let from = rng.below(bytes.len());
                let n = (1 + rng.below(20)).min(bytes.len() - from);
                let chunk: Vec<u8> = bytes[from..from + n].to_vec();
                bytes.splice(at..at, chunk);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mangled_game_files_never_panic() {
    // `TABULA_FUZZ_ROUNDS=5000 cargo test --release robust` hunts longer.
    let rounds: usize =
        std::env::var("TABULA_FUZZ_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(60);
    let mut rng = Rng::new(99);
    for path in crate::files(&crate::root().join("games"), "game") {
        let text = std::fs::read_to_string(&path).unwrap();
        for _ in 0..rounds {
            let m = mangle(&text, &mut rng);
            let g = match Game::load(&Source::new("m.game", m.clone()), &[]) {
                Ok(g) => g,
                Err(d) => {
                    crate::props::no_internal_error(&d.problems);
                    continue;
                }
            };
            let Ok(mut s) = State::initial(&g) else { continue };
            for _ in 0..3 {
                let Ok(moves) = s.legal_moves(&g) else { break };
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[rng.below(moves.len())];
                let _ = tabula::interp::explain(&g, &s, &State::move_text(&g, mv));
                if s.play_unchecked(&g, mv).is_err() {
                    break;
                }
            }
        }
    }
}

/// The hostile inputs of issue 14: each ends in a few short diagnostics
/// (never a crash, never output that grows faster than the input).
#[test]
fn hostile_game_files_get_short_diagnostics() {
    let hdr = "players A, B\nboard square 3 by 3\npiece S\n";
    let turn = " choose c in cells where empty(c)\n place S at c }\n";
    let plus = vec!["1"; 10_000].join("+");
    let cases: Vec<(&str, String, &str)> = vec![
        ("a sum of 10,000 terms", format!("{hdr}def d = {plus}\nturn {{ require d > 0{turn}"), "nesting too deep"),
        ("30,000 `not`", format!("{hdr}turn {{ require {}true{turn}", "not ".repeat(30_000)), "nesting too deep"),
        ("30,000 `-`", format!("{hdr}turn {{ require {}1 > 0{turn}", "-".repeat(30_000)), "nesting too deep"),
        ("30,000 parentheses", format!("{hdr}turn {{ require {}true{}{turn}", "(".repeat(30_000), ")".repeat(30_000)), "nesting too deep"),
        ("10,000 nested `if`", format!("{hdr}turn {{ {}{}{turn}", "if true { ".repeat(10_000), "}".repeat(10_000)), "nesting too deep"),
        ("10,000 `else if`", format!("{hdr}turn {{ if false {{ }} {}{turn}", "else if false { } ".repeat(10_000)), "nesting too deep"),
        ("10,000 nested quantifiers", format!("{hdr}turn {{ require {}true{turn}", "any x in cells: ".repeat(10_000)), "nesting too deep"),
        ("10,000 nested calls", format!("{hdr}turn {{ require {}1{} > 0{turn}", "abs(".repeat(10_000), ")".repeat(10_000)), "nesting too deep"),
        ("a 1 MB line of `(`", format!("{hdr}{}", "(".repeat(1 << 20)), "nesting too deep"),
        ("defs that double", format!("{hdr}def d0 = 1\n{}turn {{ require d40 > 0{turn}", (1..=40).map(|i| format!("def d{i} = d{} + d{}\n", i - 1, i - 1)).collect::<String>()), "too large once defs"),
        ("a board of 2^31 cells", "players A, B\nboard square 3 by 2147483647\npiece S\nturn { choose c in cells place S at c }\n".to_string(), "at most 256 cells"),
        ("a hexhex board of side 2^31", "players A, B\nboard hexhex 2147483647\npiece S\nturn { choose c in cells place S at c }\n".to_string(), "cannot be built"),
        ("3,600 ill-typed terms on one line", format!("{hdr}turn {{ {}{turn}", "require 1 ".repeat(3_600)), "expected a condition"),
    ];
    for (what, text, expect) in cases {
        let t = std::time::Instant::now();
        let e = match Game::load(&Source::new("hostile.game", text.clone()), &[]) {
            Ok(_) => panic!("{what}: checks"),
            Err(d) => d,
        };
        let out = crate::render_problems(&e.problems);
        assert!(out.contains(expect), "{what}: {}", &out[..out.len().min(2000)]);
        // Each problem once; each report a few lines, however long the line.
        for p in &e.problems {
            let one = crate::render_problems(std::slice::from_ref(p));
            assert!(one.len() < 2_000, "{what}: a report of {} bytes", one.len());
        }
        let deep = e.problems.iter().filter(|p| p.code.ends_with("too_deep")).count();
        assert!(deep <= 1, "{what}: {deep} reports of nesting");
        // At most `MAX_PROBLEMS` reports of a few lines each.
        assert!(e.problems.len() <= tabula::diag::MAX_PROBLEMS, "{what}");
        assert!(out.len() <= 100_000, "{what}: {} bytes of output", out.len());
        assert!(t.elapsed().as_secs() < 20, "{what}: {:?}", t.elapsed());
    }
}

/// A long span (a block, a long expression) is shown by its start.
#[test]
fn long_spans_are_clipped() {
    let body = "require true\n".repeat(5_000);
    let text = format!(
        "players A, B\nboard square 3 by 3\npiece S\nturn {{ {body} }}\nturn {{ {body} }}\n"
    );
    let e = Game::load(&Source::new("dup.game", text), &[]).unwrap_err();
    let out = crate::render_problems(&e.problems);
    assert!(out.contains("declared twice"), "{out}");
    assert!(out.len() < 5_000, "{} bytes", out.len());
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    let deep =
        format!("players A, B\nturn {{ require {}true{} }}", "(".repeat(5000), ")".repeat(5000));
    assert!(Game::load(&Source::new("deep.game", deep), &[]).is_err());
    let blocks =
        format!("players A, B\nturn {{ {} }}", "if true { ".repeat(400) + &"}".repeat(400));
    assert!(Game::load(&Source::new("deep.game", blocks), &[]).is_err());
}

#[test]
fn typed_garbage_never_panics() {
    let g = crate::game("bug_off.game");
    let s = crate::start(&g);
    for input in
        ["", " ", "collect", "collect ladybug extra", "🐞", "score ant ant ant", "pass", "\u{0}"]
    {
        let _ = s.parse_move(&g, input);
        let _ = tabula::interp::explain(&g, &s, input);
    }
}

/// In positions of random games, every legal move (a sample of them)
/// explains as legal with the same choices, and a mangled move is never
/// explained as legal unless it is one.
#[test]
fn explanations_agree_with_move_generation() {
    let mut rng = Rng::new(5);
    for path in crate::files(&crate::root().join("games"), "game") {
        let g = crate::game(&path.file_name().unwrap().to_string_lossy());
        let mut s = State::initial_seeded(&g, 3).unwrap();
        for _ in 0..12 {
            let moves = s.legal_moves(&g).unwrap();
            if moves.is_empty() {
                break;
            }
            if s.turn() == tabula::Turn::Chance {
                s = s.play(&g, &moves[rng.below(moves.len())]).unwrap();
                continue;
            }
            for _ in 0..3 {
                let m = &moves[rng.below(moves.len())];
                let text = State::move_text(&g, m);
                match tabula::interp::explain(&g, &s, &text).unwrap() {
                    tabula::interp::Verdict::Legal { mv, .. } => {
                        assert_eq!(&mv, m, "{}: {text}", g.name)
                    }
                    other => panic!("{}: `{text}` explained as {other:?}", g.name),
                }
                let mangled = format!("{text} zz9");
                if let tabula::interp::Verdict::Legal { .. } =
                    tabula::interp::explain(&g, &s, &mangled).unwrap()
                {
                    panic!("{}: `{mangled}` explained as legal", g.name);
                }
            }
            s = s.play(&g, &moves[rng.below(moves.len())]).unwrap();
        }
    }
}

/// Rules nested as deep as the checker allows (defs inlined into each
/// other) still compile and run on a test thread's stack.
#[test]
fn rules_at_the_depth_limit_run() {
    let nots = |n: usize| "not ".repeat(n);
    let negs = |n: usize| "- ".repeat(n);
    let anys = |n: usize| "any y in cells: ".repeat(n);
    let text = format!(
        "players A, B\nboard square 3 by 3\npiece S\n\
         def d1(x) = {n1}empty(x)\n def d2(x) = {n2}d1(x)\n def d3(x) = {n3}d2(x)\n\
         def e1 = {m1}1\n def e2 = {m2}e1\n def e3 = {m3}e2\n\
         def q1(x) = {q1}empty(x)\n def q2(x) = {q1}q1(x)\n def q3(x) = {q3}q2(x)\n\
         turn {{ choose c in cells where d3(c) and e3 != 0 and q3(c)\n place S at c }}\n",
        n1 = nots(110),
        n2 = nots(110),
        n3 = nots(24),
        m1 = negs(110),
        m2 = negs(110),
        m3 = negs(25),
        q1 = anys(100),
        q3 = anys(40),
    );
    let g = crate::game_text(&text).unwrap();
    let s = crate::start(&g);
    assert_eq!(tabula::perft(&g, &s, 2).unwrap(), 72);
    let over =
        text.replace(&format!("def d3(x) = {}", nots(24)), &format!("def d3(x) = {}", nots(60)));
    let e = crate::game_text(&over).unwrap_err();
    assert!(e.contains("nesting too deep once defs and actions are inlined"), "{e}");
}

/// Position text and JSON are validated before use.
#[test]
fn impossible_positions_are_refused() {
    let g = crate::game("tictactoe.game");
    let refused = |g: &tabula::Game, text: &str| State::from_text(g, text).unwrap_err();
    assert!(refused(&g, "X Mark a1\nO Mark a1").contains("two pieces on `a1`"));
    assert!(refused(&g, "ply 4294967295").contains("at most"));
    assert!(refused(&g, "ply 99999999999").contains("`ply` needs a number"));
    assert!(refused(&g, "turn Nobody").contains("no player `Nobody`"));
    assert!(refused(&g, "Nobody Mark a1").contains("`Nobody` is not"));
    // JSON goes through the same checks.
    let mut repr = tabula::wire::StateRepr::new(&g, &crate::start(&g));
    repr.pieces =
        vec![["a1".into(), "X".into(), "Mark".into()], ["a1".into(), "O".into(), "Mark".into()]];
    assert!(repr.to_state(&g).unwrap_err().contains("two pieces"));
    repr.pieces.clear();
    repr.ply = u32::MAX;
    assert!(repr.to_state(&g).is_err());
    repr.ply = 0;
    repr.to_move = "Nobody".into();
    assert!(repr.to_state(&g).is_err());

    // Bug Off! creates no card after setup: a position may not hold more
    // cards of a kind than the deck has (one net of each type).
    let g = crate::game("bug_off.game");
    let row = "row ant-net bee-net beetle-net butterfly-net ladybug-net slug-net \
               ant-net bee-net beetle-net butterfly-net";
    assert!(refused(&g, row).contains("pieces of kind `AntNet`"), "{}", refused(&g, row));
    assert!(refused(&g, "hand Ann ant 11").contains("pieces of kind `Ant`"));
    assert!(refused(&g, "hand Ann ant 2\nhand Ann ant 3").contains("twice"));
    State::from_text(&g, "row ant-net bee-net\nhand Ann ant 3").unwrap();
}

/// The fuzz targets play and mutate every bundled game.
#[test]
fn fuzz_games_are_the_bundled_games() {
    let mut listed: Vec<String> =
        crate::props::GAMES.iter().map(|(n, _)| format!("games/{n}")).collect();
    let mut found: Vec<String> = crate::files(&crate::root().join("games"), "game")
        .iter()
        .filter_map(|p| p.file_name().map(|f| format!("games/{}", f.to_string_lossy())))
        .collect();
    listed.sort();
    found.sort();
    assert_eq!(listed, found, "tests/it/props.rs GAMES must list games/*.game");
}

/// The fuzz targets' properties (`tests/it/props.rs`) on fixed inputs:
/// random play on every bundled game with parameters from their ranges,
/// and the evaluators' agreement there (in session 46, 3,600 such games
/// agreed over 25 to 40 plies each).
#[test]
fn fuzz_properties_random_play() {
    use crate::props::*;
    for pick in 0..GAMES.len() {
        for seed in [1u64, 7] {
            let mut gen = Gen(seed * 1000 + pick as u64);
            let g = bundled(pick, &mut gen);
            play_checked(&g, seed, &[], 12);
            agree_some(&g, seed, 8);
        }
    }
}

/// Token-level mutants of the bundled games: never a crash.
#[test]
fn fuzz_properties_mutants() {
    use crate::props::*;
    let rounds: u64 =
        std::env::var("TABULA_FUZZ_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(150);
    let mut gen = Gen(14);
    for _ in 0..rounds {
        let data: Vec<u8> = (0..1 + gen.below(24)).map(|_| gen.next_u64() as u8).collect();
        if let Some(g) = check_any(mutate(&data).as_bytes()) {
            play_some(&g, gen.next_u64(), 3);
        }
    }
}

/// Token-level mutants of the bundled games, the compiled evaluator
/// against the reference interpreter: the same move lists, outcomes and
/// successors wherever both answer (`props::agree_some`). In session 46,
/// 8,385 loadable mutants (of 30,000 tries) agreed over 12 plies each.
#[test]
fn fuzz_properties_mutants_agree() {
    use crate::props::*;
    let rounds: u64 =
        std::env::var("TABULA_FUZZ_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let mut gen = Gen(46);
    let mut compared = 0;
    for _ in 0..rounds {
        let data: Vec<u8> = (0..1 + gen.below(12)).map(|_| gen.next_u64() as u8).collect();
        match Game::load(&tabula::Source::new("m.game", mutate(&data)), &[]) {
            Ok(g) => {
                agree_some(&g, gen.next_u64(), 8);
                compared += 1;
            }
            Err(d) => no_internal_error(&d.problems),
        }
    }
    assert!(compared > rounds / 10, "only {compared} of {rounds} mutants load");
}

/// Mangled position texts, JSON and records: never a crash.
#[test]
fn fuzz_properties_wire() {
    use crate::props::*;
    let mut gen = Gen(3);
    for (pick, name) in [(3usize, "bug_off.game"), (0, "boop.game"), (7, "tictactoe.game")] {
        let g = crate::game(name);
        let _ = pick;
        let s = State::initial_seeded(&g, 5).unwrap();
        let text = s.to_text(&g);
        let json = serde_json::to_string(&tabula::wire::StateRepr::new(&g, &s)).unwrap();
        for base in [text, json] {
            for _ in 0..60 {
                let mut b: Vec<u8> = base.bytes().collect();
                for _ in 0..1 + gen.below(3) {
                    let at = gen.below(b.len().max(1));
                    match gen.below(3) {
                        0 if !b.is_empty() => {
                            b.remove(at);
                        }
                        1 => b.insert(at, b" 0123456789\n\"{}[],:-"[gen.below(19)]),
                        _ => b.splice(at..at, b"4294967295".iter().copied()).for_each(drop),
                    }
                }
                wire_any(&g, &String::from_utf8_lossy(&b));
            }
        }
    }
}

/// Every input a fuzzer found a crash with, kept (`tests/fuzz/`).
#[test]
fn fuzz_regressions() {
    let dir = crate::root().join("tests/fuzz");
    for path in crate::files(&dir, "game") {
        let bytes = std::fs::read(&path).unwrap();
        if let Some(g) = crate::props::check_any(&bytes) {
            crate::props::play_some(&g, 1, 5);
        }
    }
}

/// The game `turn { BODY }` on a 16 x 16 board.
fn runaway(body: &str) -> tabula::Game {
    let text = format!("players A, B\nboard square 16 by 16\npiece Stone\nturn {{\n{body}\n}}\n");
    crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// The rule an error points at.
fn pointed(g: &tabula::Game, e: &tabula::RunError) -> String {
    g.source.text[e.span.start as usize..e.span.end as usize].to_string()
}

/// A rule error is one pointer, so that the evaluator's results (a count,
/// a flag) fit in two registers and come back in them, not through memory.
#[test]
fn a_rule_error_is_one_pointer_wide() {
    use std::mem::size_of;
    assert_eq!(size_of::<tabula::RunError>(), size_of::<usize>());
    assert!(size_of::<Result<u64, tabula::RunError>>() <= 2 * size_of::<usize>());
    assert!(size_of::<Result<bool, tabula::RunError>>() <= 2 * size_of::<usize>());
}

#[test]
fn a_huge_choose_domain_stops_with_an_error_at_the_choose() {
    let g = runaway("choose a in range(1, 2000000000)\npass");
    let e = crate::start(&g).legal_moves(&g).expect_err("too much work");
    assert!(e.message.contains("steps"), "{}", e.message);
    assert!(pointed(&g, &e).starts_with("choose a in range"), "{}", pointed(&g, &e));
}

#[test]
fn quantifiers_over_huge_or_nested_domains_stop_with_an_error() {
    for (body, at) in [
        ("require any a in range(1, 2000000000): a == 0", "any a in range"),
        ("require (sum a in range(1, 2000000000): a) > 0", "sum a in range"),
        (
            "require (sum a in cells: sum b in cells: sum c in cells: file(a) + file(b) + file(c)) > 0",
            "sum",
        ),
    ] {
        let g = runaway(&format!("{body}\npass"));
        let e = crate::start(&g).legal_moves(&g).expect_err(body);
        assert!(e.message.contains("steps"), "{body}: {}", e.message);
        assert!(pointed(&g, &e).starts_with(at), "{body}: {}", pointed(&g, &e));
        // The reference interpreter stops too.
        let r = tabula::interp::reference::legal_moves(&g, &crate::start(&g));
        assert!(r.is_err(), "{body}: the reference runs on");
    }
}

#[test]
fn arithmetic_overflow_is_a_rule_error_at_the_operator() {
    // Literals fit in 32 bits; products of them overflow 64 bits.
    let big = "(2000000000 * 2000000000 * size(cells))";
    for (body, at) in [
        (format!("require {big} * 3 > 0"), format!("{big} * 3")),
        (format!("require 0 - {big} - {big} - {big} < 0"), format!("0 - {big} - {big} - {big}")),
        (format!("require -(0 - {big} - {big} - 1) < 0"), format!("0 - {big} - {big} - 1")),
    ] {
        let body = body.as_str();
        let g = runaway(&format!("{body}\npass"));
        let e = crate::start(&g).legal_moves(&g).expect_err(body);
        assert!(e.message.contains("overflow"), "{body}: {}", e.message);
        assert!(at.contains(&pointed(&g, &e)), "{body}: `{}`", pointed(&g, &e));
        let r = tabula::interp::reference::legal_moves(&g, &crate::start(&g)).expect_err(body);
        assert!(r.message.contains("overflow"), "{body}: {}", r.message);
    }
}

#[test]
fn the_work_limits_can_be_set() {
    let g = crate::game("boop.game");
    let tight = g.with_limits(tabula::compile::Limits { steps: 5, choices: 2_000_000 });
    let e = crate::start(&tight).legal_moves(&tight).expect_err("5 steps are too few");
    assert!(e.message.contains("more than 5 steps"), "{}", e.message);
    let r = tabula::interp::reference::legal_moves(&tight, &crate::start(&tight))
        .expect_err("the reference keeps to 5 steps");
    assert_eq!(r.message, e.message);
    let few = g.with_limits(tabula::compile::Limits { steps: 2_000_000, choices: 10 });
    let e = crate::start(&few).legal_moves(&few).expect_err("10 choices are too few");
    assert!(e.message.contains("more than 10 choices"), "{}", e.message);
    let r = tabula::interp::reference::legal_moves(&few, &crate::start(&few))
        .expect_err("the reference keeps to 10 choices");
    assert_eq!(r.message, e.message);
    assert_eq!(crate::start(&g).legal_moves(&g).unwrap().len(), 36);
}

#[test]
fn rounds_over_the_directions_keep_to_the_step_limit() {
    // Eight rounds, one step each (language.md: a step is a loop round),
    // the rounds that run removing a piece: with a limit of 8 the turn is
    // a move, with 7 the loop stops at its eighth round. Pass 38 takes
    // the eight steps at once only where they fit; where they do not, the
    // rounds count them one by one and stop where the limit is passed.
    let text = "players A, B\nboard square 3 by 3 with 8 neighbours\npiece Stone\n\
                setup { place Stone of B at a1  place Stone of B at c3 }\n\
                turn {\n for d in dirs {\n  let n = step(b2, d)\n  if occupied(n) { remove n }\n }\n pass\n}\n";
    let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
    let notes = g.program().notes();
    assert!(notes.iter().any(|n| n.starts_with("stepless rounds")), "{notes:?}");
    let limited = |steps| g.with_limits(tabula::compile::Limits { steps, choices: 2_000_000 });
    let fits = limited(8);
    assert_eq!(crate::start(&fits).legal_moves(&fits).expect("8 steps fit").len(), 1);
    let tight = limited(7);
    let e = crate::start(&tight).legal_moves(&tight).expect_err("7 steps are too few");
    assert!(e.message.contains("more than 7 steps"), "{}", e.message);
    assert!(pointed(&tight, &e).starts_with("for d in dirs"), "`{}`", pointed(&tight, &e));
    // Rounds whose test counts steps of its own (a quantifier) count
    // theirs one by one.
    let stepping =
        text.replace("if occupied(n)", "if occupied(n) and any e in dirs: empty(step(n, e))");
    let g = crate::game_text(&stepping).unwrap_or_else(|e| panic!("{e}"));
    let notes = g.program().notes();
    assert!(notes.iter().any(|n| n.starts_with("guarded rounds")), "{notes:?}");
    assert!(!notes.iter().any(|n| n.starts_with("stepless rounds")), "{notes:?}");
}

#[test]
fn the_first_number_of_a_range_keeps_to_the_step_limit() {
    // `min x in range(1, 5) where x >= 3: x` looks at five numbers
    // (language.md: a step is an element a quantifier looks at), and pass
    // 48 stops at 3: it takes the five steps at once where they fit, and
    // where they do not it walks them one by one and stops with the error
    // at the quantifier, as the walk without the pass does; the reference
    // interpreter keeps to the same limit.
    let text = "players A, B\nboard square 3 by 3\npiece Stone\n\
                turn {\n let k = min x in range(1, 5) where x >= 3: x\n require k == 3\n pass\n}\n";
    let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
    let notes = g.program().notes();
    assert!(notes.iter().any(|n| n.starts_with("first in a range")), "{notes:?}");
    let limited = |steps| g.with_limits(tabula::compile::Limits { steps, choices: 2_000_000 });
    let fits = limited(5);
    let s = crate::start(&fits);
    assert_eq!(s.legal_moves(&fits).expect("5 steps fit").len(), 1);
    assert_eq!(tabula::interp::reference::legal_moves(&fits, &s).expect("reference").len(), 1);
    let tight = limited(4);
    let s = crate::start(&tight);
    let e = s.legal_moves(&tight).expect_err("4 steps are too few");
    assert!(e.message.contains("more than 4 steps"), "{}", e.message);
    assert!(pointed(&tight, &e).starts_with("min x in range"), "`{}`", pointed(&tight, &e));
    let r = tabula::interp::reference::legal_moves(&tight, &s).expect_err("reference, 4 steps");
    assert_eq!(r.message, e.message);
    assert_eq!(pointed(&tight, &r), pointed(&tight, &e));
    // `max`, from the top: 5 passes at once; none passing gives 0.
    for (rule, moves) in [
        ("max x in range(1, 5) where x >= 3: x) == 5", 1),
        ("max x in range(1, 5) where x > 5: x) == 0", 1),
        ("min x in range(1, 5) where x > 5: x) == 1", 0),
    ] {
        let text = text.replace(
            "let k = min x in range(1, 5) where x >= 3: x\n require k == 3",
            &format!("require ({rule}"),
        );
        let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
        assert!(g.program().notes().iter().any(|n| n.starts_with("first in a range")), "{rule}");
        let s = crate::start(&g);
        assert_eq!(s.legal_moves(&g).expect("moves").len(), moves, "{rule}");
        assert_eq!(
            tabula::interp::reference::legal_moves(&g, &s).expect("reference").len(),
            moves,
            "{rule}"
        );
    }
}

#[test]
fn the_first_number_along_a_line_keeps_to_the_step_limit() {
    // Pass 52 (the first number whose cell along a line passes) counts the
    // range's numbers as pass 48 does: five steps for `range(1, 5)`, at
    // once where they fit, one by one up to the error at the quantifier
    // where they do not. b1 holds a Stone, so the first empty cell east
    // of a1 is the second (c1), and past the ray's end `none` is not
    // empty. The reference interpreter agrees under every limit from 1 to
    // 6: both answer from 5 steps, and below 5 both stop with the error
    // at the quantifier.
    for (rule, answer) in [
        ("min k in range(1, 5) where empty(ray(x, e)[k]): k", 2),
        ("max k in range(1, 5) where empty(ray(x, e)[k]): k", 2),
        ("min k in range(0, 4) where occupied(ray(x, e)[k]): k", 1),
    ] {
        let text = format!(
            "players A, B\nboard square 3 by 3\npiece Stone\nsetup {{ place Stone of B at b1 }}\n\
             turn {{\n let x = a1\n let n = {rule}\n require n == {answer}\n pass\n}}\n"
        );
        let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
        let notes = g.program().notes();
        assert!(notes.iter().any(|n| n.starts_with("first along a line")), "{rule}: {notes:?}");
        for (steps, r) in (1..).zip(under_limits(&g, 1..=6, rule)) {
            let at = format!("{rule}, {steps} steps");
            match r {
                Ok(moves) => {
                    assert_eq!(moves, 1, "{at}");
                    assert!(steps >= 5, "{at}: five numbers fit in {steps} steps");
                }
                Err(at_rule) => {
                    assert!(steps < 5, "{at}: stopped at `{at_rule}`");
                    assert!(at_rule.starts_with(&rule[..3]), "{at}: `{at_rule}`");
                }
            }
        }
    }
}

#[test]
fn guarded_directions_keep_to_the_step_limit() {
    // Pass 53 passes over the directions whose first conjunct fails
    // without asking the rest, and counts them as the walk does: one step
    // a direction, in order (n, ne, e, se, s, sw, w, nw), those passed
    // over together, and the rest's own steps (two numbers of a range)
    // where it is asked; where no neighbour passes, all eight at once.
    // Under every limit from 1 to 16 the compiled evaluator and the
    // reference interpreter give the same moves or the same error at the
    // same place, and the least limit that fits is the walk's count.
    let rest = "(min k in range(1, 2) where empty(ray(x, d)[k]): k) >= 0";
    let any = format!("any d in dirs: owner(step(x, d)) == B and {rest}");
    let none = format!("none d in dirs: owner(step(x, d)) == B and {rest}");
    let all = format!("all d in dirs where owner(step(x, d)) == B: {rest}");
    // B's stones east (the third direction) and south-west of b2: `any`
    // and `none` stop at the east, 3 + 2 steps; `all` looks at all eight
    // and asks the rest of both stones, 8 + 2 * 2. With no stones every
    // quantifier looks at the eight directions and nothing more.
    let stones = "place Stone of B at [c2, a1]";
    let cases = [
        (stones, any.clone(), 5),
        (stones, format!("not ({none})"), 5),
        (stones, all.clone(), 12),
        ("pass", format!("not ({any})"), 8),
        ("pass", none, 8),
        ("pass", all, 8),
    ];
    for (setup, rule, least) in &cases {
        let text = format!(
            "players A, B\nboard square 3 by 3 with 8 neighbours\npiece Stone\n\
             setup {{ {setup} }}\n\
             turn {{\n let x = b2\n require {rule}\n pass\n}}\n"
        );
        let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
        let notes = g.program().notes();
        assert!(notes.iter().any(|n| n.starts_with("guarded directions")), "{rule}: {notes:?}");
        let results = under_limits(&g, 1..=16, &format!("{rule}, {setup}"));
        for r in &results {
            assert!(r.as_ref().map_or(true, |&moves| moves == 1), "{rule}, {setup}: {r:?}");
        }
        let fitted = (1..).zip(&results).find_map(|(steps, r)| r.is_ok().then_some(steps));
        assert_eq!(fitted, Some(*least), "{rule}, {setup}");
    }
}

/// The moves at `g`'s start under each step limit of `limits`, by the
/// compiled evaluator and the reference interpreter, which must agree:
/// the same moves (their number, `Ok`), or the same error at the same
/// place (the rule's text it points at, `Err`). `what` names the case.
fn under_limits(
    g: &tabula::Game,
    limits: std::ops::RangeInclusive<u32>,
    what: &str,
) -> Vec<Result<usize, String>> {
    limits
        .map(|steps| {
            let lim = g.with_limits(tabula::compile::Limits { steps, choices: 2_000_000 });
            let s = crate::start(&lim);
            let ours = s.legal_moves(&lim);
            let theirs = tabula::interp::reference::legal_moves(&lim, &s);
            let at = format!("{what}, {steps} steps");
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{at}");
                    Ok(a.len())
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a.message, b.message, "{at}");
                    assert_eq!(pointed(&lim, a), pointed(&lim, b), "{at}");
                    Err(pointed(&lim, a))
                }
                _ => panic!("{at}: {ours:?} against {theirs:?}"),
            }
        })
        .collect()
}

#[test]
fn a_ray_quantifier_keeps_to_the_step_limit() {
    // Pass 51 counts the directions a quantifier over `dirs` looks at, at
    // once: `any` and `none` up to the first where the condition holds,
    // `all` up to the first where it does not, `count` all eight. Under
    // every limit from 1 to 9 the compiled evaluator and the reference
    // interpreter (which walks the directions one by one) give the same
    // moves or the same error at the same place. The four rules say the
    // same: no Rook is the first piece along a ray from b2. The Rook on
    // c2 is east of b2; without it every direction is looked at.
    let stop = "last(upto(ray(x, d)))";
    let rules = [
        (format!("not (any d in dirs: kind({stop}) == Rook)"), true),
        (format!("none d in dirs where kind({stop}) == Rook"), true),
        (format!("all d in dirs: kind({stop}) != Rook"), true),
        (format!("(count d in dirs: kind({stop}) == Rook) == 0"), false),
    ];
    for (rule, stops_early) in &rules {
        for (setup, rook) in [("place Rook of B at c2", true), ("pass", false)] {
            let text = format!(
                "players A, B\nboard square 3 by 3 with 8 neighbours\npiece Rook\nsetup {{ {setup} }}\n\
                 turn {{\n let x = b2\n require {rule}\n pass\n}}\n"
            );
            let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
            let notes = g.program().notes();
            assert!(notes.iter().any(|n| n.starts_with("ray quantifier")), "{rule}: {notes:?}");
            let mut fitted = None;
            let results = under_limits(&g, 1..=9, &format!("{rule}, {setup}"));
            for (steps, r) in (1..).zip(results) {
                let at = format!("{rule}, {setup}, {steps} steps");
                match r {
                    Ok(moves) => {
                        assert_eq!(moves, usize::from(!rook), "{at}");
                        fitted.get_or_insert(steps);
                    }
                    Err(at_rule) => {
                        let quant = ["any d", "none d", "all d", "count d"];
                        assert!(quant.iter().any(|q| at_rule.starts_with(q)), "{at}");
                    }
                }
            }
            // The Rook seen by a quantifier that stops early: fewer than
            // eight steps fit; otherwise eight, one for each direction.
            match (rook && *stops_early, fitted) {
                (true, Some(n)) => assert!(n < 8, "{rule}, {setup}: {n}"),
                (false, Some(n)) => assert_eq!(n, 8, "{rule}, {setup}"),
                (_, None) => panic!("{rule}, {setup}: no limit up to 9 fits"),
            }
        }
    }
}

#[test]
fn a_choose_over_a_set_without_a_filter_counts_its_cells() {
    // `choose c in pieces(me)` offers the set itself, not its cells one by
    // one; it must still count a step per element it looks at (language.md)
    // and stop at the `choose` past the limit. Three stones: three steps,
    // the turn's only ones (the move and the rule after it count none).
    let text = "players A, B\nboard square 3 by 3\npiece Stone\n\
                setup { place Stone of A at a1  place Stone of A at b2  place Stone of A at c3 }\n\
                turn {\n choose c in pieces(me)\n remove c\n}\n";
    let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
    let limited = |steps| g.with_limits(tabula::compile::Limits { steps, choices: 2_000_000 });
    let fits = limited(3);
    let moves = crate::start(&fits).legal_moves(&fits).expect("3 steps fit");
    let shown: Vec<String> = moves.iter().map(|m| tabula::notation::text(g.ir(), m)).collect();
    assert_eq!(shown, ["a1", "b2", "c3"], "the cells in order");
    let tight = limited(2);
    let e = crate::start(&tight).legal_moves(&tight).expect_err("2 steps are too few");
    assert!(e.message.contains("more than 2 steps"), "{}", e.message);
    assert!(pointed(&tight, &e).starts_with("choose c in pieces(me)"), "`{}`", pointed(&tight, &e));
}

/// Runs `f` on a thread with tabula's search stack: at the decision limit
/// a debug build's search needs more than a test thread's 2 MiB.
fn deep(f: impl FnOnce() + Send + 'static) {
    let h = std::thread::Builder::new().stack_size(tabula::state::SEARCH_STACK).spawn(f);
    if let Err(p) = h.expect("a thread starts").join() {
        std::panic::resume_unwind(p);
    }
}

/// The game whose turn makes `n` one-option decisions, then `tail`.
fn decisions(n: usize, tail: &str) -> tabula::Game {
    decisions_in("", n, tail)
}

/// [`decisions`] after the declarations `decl`.
fn decisions_in(decl: &str, n: usize, tail: &str) -> tabula::Game {
    let text = format!(
        "players A, B\n{decl}\nturn {{\n for i in range(1, {n}) {{ choose k in range(1, 1) }}\n {tail}\n}}\n"
    );
    crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Every way the evaluators search a turn, from the start of `g`: the
/// compiled list, count, perft and both playouts (a playout as 0 moves),
/// and the reference interpreter's list. Each result as a number of
/// moves, or the error.
fn searched(g: &tabula::Game) -> Vec<(&'static str, Result<u64, tabula::RunError>)> {
    searched_at(g, &crate::start(g))
}

/// [`searched`] from position `s`.
fn searched_at(
    g: &tabula::Game,
    s: &tabula::State,
) -> Vec<(&'static str, Result<u64, tabula::RunError>)> {
    let listed = |r: Result<Vec<tabula::Move>, _>| r.map(|m: Vec<_>| m.len() as u64);
    let played = |r: Result<tabula::Playout, _>| r.map(|_| 0);
    vec![
        ("list", listed(s.legal_moves(g))),
        ("count", s.count_moves(g)),
        ("perft 1", tabula::perft(g, s, 1)),
        ("perft 2", tabula::perft(g, s, 2)),
        ("playout", played(tabula::playout(g, s, &mut Rng::new(1), 2))),
        ("listed playout", played(tabula::playout_listed(g, s, &mut Rng::new(1), 2))),
        ("reference", listed(tabula::interp::reference::legal_moves(g, s))),
    ]
}

#[test]
fn a_turn_makes_at_most_the_limit_of_decisions_one_after_another() {
    // A loop with a decision in every round never reaches the step limit
    // in one run (each run stops at the decision): the move search would
    // recurse once per decision until the stack overflowed. A turn may
    // make `DECISION_LIMIT` choices, and a search that meets a decision
    // with options after as many stops with an error at it (a chance
    // event past the limit: the next test).
    deep(|| {
        const LIMIT: usize = tabula::state::DECISION_LIMIT;
        let too_deep = |g: &tabula::Game, at: &str| {
            for (how, r) in searched(g) {
                let e = r.expect_err(how);
                assert!(
                    e.message.contains(&format!("more than {LIMIT} decisions and chance events")),
                    "{how}: {e}"
                );
                assert!(pointed(g, &e).starts_with(at), "{how}: `{}`", pointed(g, &e));
            }
        };
        // `n` moves (`n2` two turns deep; a playout finishes).
        let moves = |g: &tabula::Game, n: u64, n2: u64| {
            for (how, r) in searched(g) {
                let want = match how {
                    "perft 2" => n2,
                    "playout" | "listed playout" => 0,
                    _ => n,
                };
                assert_eq!(r.unwrap_or_else(|e| panic!("{how}: {e}")), want, "{how}");
            }
        };
        // Exactly the limit: one move of that many choices.
        let g = decisions(LIMIT, "pass");
        moves(&g, 1, 1);
        let m = crate::start(&g).legal_moves(&g).expect("at the limit");
        assert_eq!(m[0].choices.len(), LIMIT);
        // One more, by the loop or after it; an endless loop.
        too_deep(&decisions(LIMIT + 1, "pass"), "choose k");
        too_deep(&decisions(LIMIT, "choose m in range(1, 2)"), "choose m");
        too_deep(&decisions(LIMIT, "either { pass } or { pass }"), "either");
        too_deep(&runaway("while true { choose n in range(1, 1) }"), "choose n");
        // An `either` whose arms decide at once, at the last place: its
        // arms are one too many, however they are counted.
        let arms = "either { choose a in range(1, 3) } or { choose b in range(1, 3) }";
        moves(&decisions(LIMIT - 2, arms), 6, 36);
        too_deep(&decisions(LIMIT - 1, arms), "choose a");
        too_deep(&decisions(LIMIT, arms), "either");
        // The same with arms that choose a kind from a hand, which a count
        // may tell without listing them.
        let hand = "piece Red\npiece Blue\nzone hand per player\n\
                    setup { add 2 Red to hand(A)  add Blue to hand(A) }\non no moves { draw }";
        let arms = "either { choose a in hand(me)  take a from hand(me) }\n \
                    or { choose b in hand(me)  take b from hand(me)  add b to hand(next(me)) }";
        // A's two kinds by either arm; then B holds nothing, or the kind
        // given, which it takes or gives back.
        moves(&decisions_in(hand, LIMIT - 2, arms), 4, 4);
        too_deep(&decisions_in(hand, LIMIT - 1, arms), "choose a");
        // Past the limit, a decision without options fails the turn's
        // run as anywhere (no move, no error).
        moves(&decisions(LIMIT, "choose m in range(1, 2) where m > 2"), 0, 0);
    });
}

#[test]
fn a_chance_event_past_the_limit_is_refused_where_chance_decides_it() {
    // Chance events count among a turn's choices: a move may stop at one
    // met after `DECISION_LIMIT` choices, but its outcomes are refused
    // wherever they are listed, drawn or played, in both evaluators. So
    // a turn that loops over chance events ends with that error instead
    // of replaying ever more events (it hung: each event replays the turn
    // from its start with all the events before it).
    deep(|| {
        const LIMIT: usize = tabula::state::DECISION_LIMIT;
        let refused = |g: &tabula::Game, how: &str, r: Result<u64, tabula::RunError>| {
            let e = r.map(|n| panic!("{how}: {n}, no error")).unwrap_err();
            assert!(
                e.message.contains(&format!("more than {LIMIT} decisions and chance events")),
                "{how}: {e}"
            );
            assert!(pointed(g, &e).starts_with("random d"), "{how}: `{}`", pointed(g, &e));
        };
        let g = decisions(LIMIT, "random d in range(1, 6)");
        let s = crate::start(&g);
        for (how, r) in searched(&g) {
            match how {
                "perft 2" | "playout" | "listed playout" => refused(&g, how, r),
                _ => assert_eq!(r.unwrap_or_else(|e| panic!("{how}: {e}")), 1, "{how}"),
            }
        }
        let m = s.legal_moves(&g).expect("the move to chance").remove(0);
        let node = s.play(&g, &m).expect("a chance node");
        let reference = tabula::interp::reference::play(g.ir(), &s, &m).expect("a chance node");
        assert_eq!(node, reference);
        refused(&g, "outcomes", node.chance_outcomes(&g).map(|o| o.len() as u64));
        let r = tabula::interp::reference::chance_outcomes(g.ir(), &node);
        refused(&g, "reference outcomes", r.map(|o| o.len() as u64));
        // Playing an outcome the limit did not let be listed.
        let site = g.ir().sites.iter().position(|s| s.chance).expect("the random") as u16;
        let one = tabula::Move {
            choices: vec![tabula::state::Choice { site, value: tabula::ir::Value::Int(1) }],
            stuck: false,
        };
        let r = node.clone().play_unchecked(&g, &one).map(|_| 0);
        refused(&g, "play", r);
        let r = tabula::interp::reference::play(g.ir(), &node, &one);
        refused(&g, "reference play", r.map(|_| 0));
        // A turn of chance events alone, endlessly.
        let g = runaway("while true { random d in range(1, 2) }");
        for (how, r) in searched(&g) {
            if how == "perft 2" || how.ends_with("playout") {
                refused(&g, how, r);
            }
        }
        let r = tabula::perft(&g, &crate::start(&g), 3);
        refused(&g, "perft 3", r);
        // A chance event first: the search of the turn under way after it
        // counts it among the turn's choices.
        for (n, ok) in [(LIMIT - 1, true), (LIMIT, false)] {
            let text = format!(
                "players A, B\nturn {{\n random d in range(1, 2)\n \
                 for i in range(1, {n}) {{ choose k in range(1, 1) }}\n}}\n"
            );
            let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
            let s = crate::start(&g);
            let outcome = s.legal_moves(&g).expect("the outcomes").remove(0);
            let s = s.play(&g, &outcome).expect("the event");
            for (how, r) in searched_at(&g, &s) {
                if ok {
                    assert!(r.is_ok(), "{n} {how}: {r:?}");
                } else {
                    let e = r.map(|n| panic!("{how}: {n}, no error")).unwrap_err();
                    assert!(
                        pointed(&g, &e).starts_with("choose k"),
                        "{how}: `{}`",
                        pointed(&g, &e)
                    );
                }
            }
        }
    });
}

#[test]
fn a_list_of_moves_holds_at_most_the_limit_of_choices() {
    // Moves of many choices each multiply within the choice budget (each
    // pick explored once, shared by the moves below it): a turn of 985
    // forced decisions and then 11 binary ones lists 2,048 moves of 996
    // choices, 2,039,808 in all, one list of about 100 MB. The list stops
    // at `LIST_LIMIT` choices, at the last decision of the move that
    // passes it (the 2,009th); counting the moves lists none.
    deep(|| {
        const LIMIT: usize = tabula::state::LIST_LIMIT;
        let binary = |n: usize| format!("for j in range(1, {n}) {{ choose m in range(0, 1) }}");
        // The last decision in the loop, or after it (where the turn asks
        // nothing more: its options are moves without a run), or moves
        // that stop at chance; a decision that meets the next at once
        // (`pair`: kept by a playout as a group).
        let pair = |n: usize, last: &str, then: &str| {
            format!("{}\n choose y in range(0, 1)\n choose z in {last}{then}", binary(n))
        };
        // A draw from a shuffled deck: a decision whose options all stop at
        // it is listed unrun.
        let deck = "piece Red\npiece Blue\nzone deck shared ordered hidden\nzone hand per player\n\
                    setup {\n add 1 Red to deck\n add 1 Blue to deck\n shuffle deck\n}";
        let draw = "\n move first(deck) from deck to hand(me)";
        // A listed playout keeps a finished move as its position and a
        // decision without a run as its level and options, whatever their
        // choices (`false`); but it keeps the picks of a move that stops at
        // chance, or of a decision whose options do (`true`): those count
        // against the same limit, the error at the same decision.
        for (decl, tail, at, kept) in [
            ("", binary(11), "choose m", false),
            ("", format!("{}\n choose z in range(0, 1)", binary(10)), "choose z", false),
            ("", pair(9, "range(0, 1)", ""), "choose z", false),
            ("", format!("{}\n random r in range(1, 2)", binary(11)), "choose m", true),
            ("", pair(10, "range(0, 0)", "\n random r in range(1, 2)"), "choose z", true),
            (deck, format!("{}\n choose z in range(0, 0){draw}", binary(11)), "choose z", true),
            (deck, pair(10, "range(0, 0)", draw), "choose z", true),
        ] {
            let g = decisions_in(decl, 985, &tail);
            let s = crate::start(&g);
            let said = format!("moves hold more than {LIMIT} choices in all");
            for (how, r) in [
                ("compiled", s.legal_moves(&g)),
                ("reference", tabula::interp::reference::legal_moves(&g, &s)),
            ] {
                let e = r.map(|m| panic!("{how}: {} moves, no error", m.len())).unwrap_err();
                assert!(e.message.contains(&said), "{how}: {e}");
                assert!(pointed(&g, &e).starts_with(at), "{how}: `{}`", pointed(&g, &e));
            }
            let listed = tabula::playout_listed(&g, &s, &mut Rng::new(1), 1);
            match (listed, kept) {
                (Err(e), true) => {
                    assert!(e.message.contains(&said), "{tail}: {e}");
                    assert!(pointed(&g, &e).starts_with(at), "{tail}: `{}`", pointed(&g, &e));
                }
                (Ok(p), false) => assert_eq!(p.plies, 1, "{tail}"),
                (r, _) => panic!("{tail}: the listed playout gave {:?}", r.map(|p| p.plies)),
            }
            assert_eq!(s.count_moves(&g).expect("a count holds no list"), 2048);
        }
        // One binary decision fewer: 1,024 moves, about half the limit.
        let g = decisions(985, &binary(10));
        let s = crate::start(&g);
        let moves = s.legal_moves(&g).expect("within the limit");
        assert_eq!(moves.len(), 1024);
        assert_eq!(moves, tabula::interp::reference::legal_moves(&g, &s).expect("the reference"));
    });
}

#[test]
fn assignments_and_rays_keep_to_the_step_budget_and_overflow_checks() {
    // A loop that only changes a local runs forever: stopped at the loop.
    // A local doubled in a loop overflows: stopped at the assignment. A
    // variable of the position overflows the same way. Both evaluators.
    for (body, at, what) in [
        ("let n = 0\nwhile true { n += 1 }\npass", "while true", "steps"),
        ("let n = 1\nwhile n > 0 { n += n }\npass", "n += n", "overflow"),
        ("let x = a1\nwhile true { x = last(ray(x, e)) }\npass", "while true", "steps"),
        ("let n = 2000000000 * 2000000000\nwhile true { n = n * 3 }\npass", "n * 3", "overflow"),
    ] {
        let g = runaway(body);
        let e = crate::start(&g).legal_moves(&g).expect_err(body);
        assert!(e.message.contains(what), "{body}: {}", e.message);
        assert!(pointed(&g, &e).starts_with(at), "{body}: `{}`", pointed(&g, &e));
        let r = tabula::interp::reference::legal_moves(&g, &crate::start(&g)).expect_err(body);
        assert!(r.message.contains(what), "{body}: {}", r.message);
        assert_eq!(pointed(&g, &r), pointed(&g, &e), "{body}: the reference");
    }
    let text = "players A, B\nboard square 2 by 1\npiece Stone\nvar total = 0\n\
                turn { total += 2000000000 * 2000000000\n total += total\n pass }\n";
    let g = crate::game_text(text).unwrap();
    // 4e18 doubled is 8e18, under 2^63; the next turn's 4e18 more is not.
    let s = crate::play(&g, &crate::start(&g), "pass");
    assert!(s.to_text(&g).contains("total 8000000000000000000"), "{}", s.to_text(&g));
    let e = s.legal_moves(&g).expect_err("overflow");
    assert!(e.message.contains("overflow"), "{}", e.message);
    assert!(pointed(&g, &e).starts_with("total += 2000000000"), "`{}`", pointed(&g, &e));
    let r = tabula::interp::reference::legal_moves(&g, &s).expect_err("overflow");
    assert!(r.message.contains("overflow"), "{}", r.message);
}

#[test]
fn a_zone_never_holds_more_than_65535_pieces() {
    // `add`, `move` into a counted zone and `add` to an ordered one stop
    // with a rule error at the statement that would pass the limit; the
    // reference interpreter stops there too. Below the limit the same
    // rules are legal moves.
    for (zones, rule) in [
        ("zone pool per player\nzone heap shared", "add N Stone to pool(me)"),
        ("zone pool per player\nzone heap shared", "move all Stone from heap to pool(me)"),
        ("zone pool per player\nzone heap shared", "move N Stone from heap to pool(me)"),
        ("zone pool per player ordered\nzone heap shared", "add N Stone to pool(me)"),
    ] {
        for (n, legal) in [(25535, true), (25536, false)] {
            let rule = rule.replace('N', &n.to_string());
            let text = format!(
                "players A, B\nboard square 2 by 2\npiece Stone\n{zones}\n\
                 setup {{\n add 40000 Stone to pool(A)\n add {n} Stone to heap\n}}\n\
                 turn {{\n choose c in cells where empty(c)\n place Stone at c\n {rule}\n}}\n"
            );
            four_moves_or_overflow(&text, legal, &rule);
        }
    }
}

/// The start of game `text` has four legal moves (`legal`), or listing
/// them stops with the zone limit's error at statement `rule`; the
/// reference interpreter agrees either way.
fn four_moves_or_overflow(text: &str, legal: bool, rule: &str) {
    let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
    let s = crate::start(&g);
    let ours = s.legal_moves(&g);
    let theirs = tabula::interp::reference::legal_moves(&g, &s);
    if legal {
        assert_eq!(ours.expect("legal").len(), 4, "{rule}");
        assert_eq!(theirs.expect("legal").len(), 4, "{rule}");
    } else {
        let e = ours.expect_err("past the limit");
        assert!(e.message.contains("more than 65535"), "{rule}: {}", e.message);
        assert_eq!(pointed(&g, &e), rule, "{rule}");
        let r = theirs.expect_err("the reference stops too");
        assert!(r.message.contains("more than 65535"), "{rule}: {}", r.message);
    }
}

#[test]
fn a_piece_sent_home_fails_from_an_empty_cell_and_stops_at_a_full_zone() {
    // `add kind(c) to pool(owner(c))` then `remove c` (compiled as one
    // effect, pass 45): from an empty cell the `add` fails the turn, so
    // of the four cells only B's piece on b2 is a move; into a pool of
    // 65535 it is a rule error at the `add`; the reference agrees. The
    // piece is B's Blue, so the counter it reads is not the first.
    let add = "add kind(c) to pool(owner(c))";
    for (held, legal) in [(65534, true), (65535, false)] {
        let text = format!(
            "players A, B\nboard square 2 by 2\npiece Red\npiece Blue\nzone pool per player\n\
             setup {{\n place Blue of B at b2\n add {held} Blue to pool(B)\n}}\n\
             turn {{\n choose c in cells\n {add}\n remove c\n}}\n\
             on no moves {{ pass }}\n"
        );
        let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
        let s = crate::start(&g);
        let ours = s.legal_moves(&g);
        let theirs = tabula::interp::reference::legal_moves(&g, &s);
        if legal {
            let ours = ours.expect("legal");
            assert_eq!(ours.len(), 1, "{held}");
            assert_eq!(theirs.expect("legal").len(), 1, "{held}");
            // The piece left b2 for B's pool: the reference's position.
            let t = s.play(&g, &ours[0]).expect("plays");
            let r = tabula::interp::reference::play(&g, &s, &ours[0]).expect("reference play");
            assert_eq!(t, r);
            assert_ne!(t, s);
        } else {
            let e = ours.expect_err("past the limit");
            assert!(e.message.contains("more than 65535"), "{}", e.message);
            assert_eq!(pointed(&g, &e), add);
            let r = theirs.expect_err("the reference stops too");
            assert!(r.message.contains("more than 65535"), "{}", r.message);
        }
    }
}

#[test]
fn an_else_if_after_statements_is_asked_only_where_the_if_fails() {
    // Statements, then `if A { decision } else if B { decision }`, the two
    // tests run in one op (pass 46). On a 4×4 board, A is `file(c) == 1`
    // and B, `6 / (rank(c) - 1) > 2`, divides by zero on the first rank.
    // With B's pieces on b1, c1 and d1, B is never asked on the first
    // rank: 13 empty cells, each placement leaving 12. A holds on file 1
    // (4 cells × 12 options of `more`), B on ranks 2 and 3 of files 2 to
    // 4 (6 cells × 12 options of `else`), neither on rank 4 of files 2
    // to 4 (3 cells, a move each): 48 + 72 + 3 = 123 moves. Without those
    // pieces, b1 asks B: a rule error at B's division.
    let b = "6 / (rank(c) - 1)";
    for (setup, moves) in [("place Stone of B at [b1, c1, d1]", Some(123)), ("", None)] {
        let text = format!(
            "players A, B\nboard square 4 by 4\npiece Stone\nsetup {{ {setup} }}\n\
             turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
             if file(c) == 1 {{ choose d in cells where empty(d) as \"more\"\n place Stone at d }}\n\
             else if {b} > 2 {{ choose e in cells where empty(e) as \"else\"\n place Stone at e }}\n}}\n\
             on no moves {{ pass }}\n"
        );
        let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            g.program().notes().iter().any(|n| n.contains("`else if`")),
            "the two tests are one op here"
        );
        let s = crate::start(&g);
        let ours = s.legal_moves(&g);
        let theirs = tabula::interp::reference::legal_moves(&g, &s);
        match moves {
            Some(n) => {
                let ours = ours.expect("legal");
                assert_eq!(ours.len(), n);
                assert_eq!(ours, theirs.expect("legal"));
                assert_eq!(s.count_moves(&g).expect("count"), n as u64);
            }
            None => {
                let e = ours.expect_err("a division by zero");
                assert!(e.message.contains("division by zero"), "{}", e.message);
                assert_eq!(pointed(&g, &e), b);
                let r = theirs.expect_err("the reference stops too");
                assert!(r.message.contains("division by zero"), "{}", r.message);
            }
        }
    }
}

#[test]
fn a_draw_into_a_full_zone_stops_with_an_error() {
    // `move first(Z) from Z to Y` into a zone named in the rule: counted,
    // its player `me`, a local or a constant; ordered, shared or of a
    // constant player (one sequence to another). The draw into 65534
    // pieces is a legal turn, into 65535 a rule error at the statement, as
    // in the reference interpreter.
    for (dest, draw) in [
        ("pool(A)", "move first(heap) from heap to pool(me)"),
        ("pool(A)", "let p = me\n move first(heap) from heap to pool(p)"),
        ("pool(A)", "move first(heap) from heap to pool(A)"),
        ("row", "move first(heap) from heap to row"),
        ("line(A)", "move first(heap) from heap to line(A)"),
    ] {
        for (held, legal) in [(65534, true), (65535, false)] {
            let text = format!(
                "players A, B\nboard square 2 by 2\npiece Stone\n\
                 zone pool per player\nzone heap shared ordered\n\
                 zone row shared ordered\nzone line per player ordered\n\
                 setup {{\n add {held} Stone to {dest}\n add 3 Stone to heap\n}}\n\
                 turn {{\n choose c in cells where empty(c)\n place Stone at c\n {draw}\n}}\n"
            );
            let line = draw.lines().last().unwrap_or_default().trim();
            four_moves_or_overflow(&text, legal, line);
        }
    }
}

#[test]
fn taking_or_moving_pieces_a_zone_lacks_fails_the_turn() {
    // With one piece in the heap, taking or moving two is not a legal
    // turn (the reference agrees); with two it is.
    for (zones, rule) in [
        ("zone pool per player\nzone heap shared", "take 2 Stone from heap"),
        ("zone pool per player\nzone heap shared", "move 2 Stone from heap to pool(me)"),
        ("zone pool per player\nzone heap shared ordered", "take 2 Stone from heap"),
    ] {
        for (n, moves) in [(2, 4), (1, 0)] {
            let text = format!(
                "players A, B\nboard square 2 by 2\npiece Stone\n{zones}\n\
                 setup {{\n add {n} Stone to heap\n}}\n\
                 turn {{\n choose c in cells where empty(c)\n place Stone at c\n {rule}\n}}\n\
                 on no moves {{\n draw\n}}\n"
            );
            let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
            let s = crate::start(&g);
            let ours = s.legal_moves(&g).expect("moves");
            let theirs = tabula::interp::reference::legal_moves(&g, &s).expect("reference");
            assert_eq!(ours.len(), moves, "{rule} with {n} in the heap");
            assert_eq!(theirs, ours, "{rule} with {n} in the heap");
        }
    }
}

/// A two-card game whose play from the hand runs into a draw from a
/// face-down pile (a chance tail, pass 14) after `tail`.
fn play_then_draw(heap: u32, tail: &str) -> tabula::Game {
    let text = format!(
        "players A, B\npiece Red\npiece Blue\n\
         zone deck shared ordered hidden\nzone hand per player owner\n\
         zone table per player\nzone heap shared\n\
         setup {{ add 5 Red to deck  add 5 Blue to deck  add {heap} Red to heap  add {heap} Blue to heap\n\
           shuffle deck\n\
           for p in players {{ move first(deck) from deck to hand(p) }} }}\n\
         turn {{\n choose c in hand(me)\n {tail}\n\
           move last(deck) from deck to hand(next(me))\n}}\n"
    );
    let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
    let notes = g.program().notes();
    assert!(notes.iter().any(|n| n.starts_with("chance tail")), "{tail}: {notes:#?}");
    g
}

#[test]
fn a_play_before_a_draw_that_would_overfill_a_zone_stops_with_the_error() {
    // The options of a play that runs into a draw are listed without
    // running them only while no zone can overflow: with 65535 pieces in
    // the heap, moving the card there stops with the rule error, as the
    // reference does; with one fewer the play is a legal move. Playouts
    // and perft, which count the pieces once for all the positions they
    // search (play adds none), stop there too.
    for (heap, legal) in [(65534, true), (65535, false)] {
        let g = play_then_draw(heap, "move 1 c from hand(me) to heap");
        assert!(g.program().fixed_pieces(), "the bound is counted once");
        let s = crate::start(&g);
        let ours = s.legal_moves(&g);
        let theirs = tabula::interp::reference::legal_moves(&g, &s);
        let perft = tabula::perft(&g, &s, 1);
        let playout = tabula::playout(&g, &s, &mut tabula::rng::Rng::new(1), 0);
        if legal {
            assert_eq!(ours.expect("legal").len(), 1, "heap {heap}");
            assert_eq!(theirs.expect("legal").len(), 1, "heap {heap}");
            perft.expect("perft");
            playout.expect("playout");
        } else {
            for e in [perft.expect_err("perft"), playout.expect_err("playout")] {
                assert!(e.message.contains("more than 65535"), "{}", e.message);
            }
            let e = ours.expect_err("past the limit");
            assert!(e.message.contains("more than 65535"), "{}", e.message);
            assert_eq!(pointed(&g, &e), "move 1 c from hand(me) to heap");
            let r = theirs.expect_err("the reference stops too");
            assert!(r.message.contains("more than 65535"), "{}", r.message);
        }
    }
}

#[test]
fn an_add_earlier_in_the_turn_counts_for_the_overflow_bound() {
    // The bound may be checked on the turn's start only in a turn without
    // `add`: here the start holds 65530 pieces in all, the `add` before
    // the play makes the heap's 65535, and moving the card there must
    // stop with the rule error, as the reference does.
    let text = "players A, B\npiece Red\n\
                zone deck shared ordered hidden\nzone hand per player owner\nzone heap shared\n\
                setup { add 10 Red to deck  add 65520 Red to heap  shuffle deck\n\
                  for p in players { move first(deck) from deck to hand(p) } }\n\
                turn {\n add 15 Red to heap\n choose c in hand(me)\n\
                  move 1 c from hand(me) to heap\n\
                  move last(deck) from deck to hand(next(me))\n}\n";
    let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
    assert!(g.program().notes().iter().any(|n| n.starts_with("chance tail")));
    assert!(!g.program().fixed_pieces(), "play adds pieces: no count for all positions");
    let s = crate::start(&g);
    let e = s.legal_moves(&g).expect_err("past the limit");
    let p = tabula::perft(&g, &s, 1).expect_err("perft past the limit");
    assert!(p.message.contains("more than 65535"), "{}", p.message);
    assert!(e.message.contains("more than 65535"), "{}", e.message);
    assert_eq!(pointed(&g, &e), "move 1 c from hand(me) to heap");
    let r = tabula::interp::reference::legal_moves(&g, &s).expect_err("the reference stops too");
    assert!(r.message.contains("more than 65535"), "{}", r.message);
}

#[test]
fn a_play_before_a_draw_respects_the_step_limit() {
    // Listing the options of a play that runs into a draw without running
    // them must not hide a run past the step limit: under every limit,
    // either the move list stops with the step error or every listed move
    // plays, and a limit that is too low for the loops is an error.
    let tail = "move c from hand(me) to table(me)\n\
                for q in players { for k in kinds { move all k from table(q) to heap } }";
    let g = play_then_draw(0, tail);
    let s = crate::start(&g);
    let mut errors = 0;
    for steps in 1..40 {
        let g = g.with_limits(tabula::compile::Limits { steps, ..Default::default() });
        match s.legal_moves(&g) {
            Ok(moves) => {
                assert_eq!(moves.len(), 1, "limit {steps}");
                for m in &moves {
                    let mut t = s.clone();
                    t.play_unchecked(&g, m)
                        .unwrap_or_else(|e| panic!("limit {steps}: listed, then {}", e.message));
                }
            }
            Err(e) => {
                assert!(e.message.contains("steps"), "limit {steps}: {}", e.message);
                errors += 1;
            }
        }
    }
    assert!(errors > 0, "no limit was too low");
    assert!(errors < 39, "every limit was too low");
}

#[test]
fn an_error_in_an_if_condition_is_never_lost() {
    // An `if` whose condition cannot raise an error runs without looking
    // for one; every other condition is looked at. Here the condition
    // divides by zero on the first column and the branch taken then makes
    // the run fail (`require false`): the error must stop the listing
    // instead of the option being dropped as not a move, in each shape
    // of `if` (one statement or more, with and without `else`) and
    // against the reference interpreter.
    let shapes = [
        "if 6 / (file(c) - 1) > 99 { place Stone at c }",
        "if 6 / (file(c) - 1) > 99 { place Stone at c } else { require false }",
        "if 6 / (file(c) - 1) < 99 { require false\n place Stone at c }",
        "if 6 / (file(c) - 1) > 99 { place Stone at c } else { require false\n place Stone at c }",
    ];
    for shape in shapes {
        let text = format!(
            "players A, B\nboard square 3 by 3\npiece Stone\n\
             turn {{\n choose c in cells where empty(c)\n {shape}\n}}\n"
        );
        let g = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
        let s = crate::start(&g);
        let e = s.legal_moves(&g).expect_err(shape);
        assert!(e.message.contains("division by zero"), "{shape}: {}", e.message);
        let r = tabula::interp::reference::legal_moves(&g, &s).expect_err(shape);
        assert_eq!(r.message, e.message, "{shape}");
    }
}

#[test]
fn a_drawn_decision_hides_no_rule_error() {
    // A playout draws among a decision's options without running them all
    // (pass 15) only when the rest of the turn cannot raise a rule error:
    // here the options away from the first stone divide by zero, so the
    // pass must not fire, and every playout stops with the error, as a
    // playout that lists the moves does. Without the division the pass
    // fires and the playouts play.
    let text = |check: &str| {
        format!(
            "players A, B\nboard square 4 by 4\npiece Stone\n\
             setup {{ place Stone of B at a1 }}\n\
             turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
               require {check}\n}}\n"
        )
    };
    let divides = crate::game_text(&text("12 / (count x in neighbours(c) where occupied(x)) > 0"))
        .unwrap_or_else(|e| panic!("{e}"));
    let drawn = |g: &tabula::Game| g.program().notes().iter().any(|n| n.starts_with("drawn tail"));
    assert!(!drawn(&divides));
    let s = crate::start(&divides);
    for seed in 0..20 {
        let e =
            tabula::playout(&divides, &s, &mut Rng::new(seed), 5).expect_err("division by zero");
        assert!(e.message.contains("division by zero"), "{}", e.message);
        let l = tabula::playout_listed(&divides, &s, &mut Rng::new(seed), 5).expect_err("listed");
        assert_eq!(l.message, e.message);
    }
    let counts = crate::game_text(&text("(count x in neighbours(c) where occupied(x)) > 0"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(drawn(&counts));
    let p = tabula::playout(&counts, &crate::start(&counts), &mut Rng::new(1), 5).expect("plays");
    assert_eq!((p.plies, p.drawn), (5, 5));
}

#[test]
fn a_drawn_decision_respects_the_step_limit() {
    // The rest of the turn takes 4 steps from most cells and 4 + 16 from
    // the last rank: under a limit between, listing the moves stops with
    // the step error, and so must a playout that draws its move (the pass
    // draws only when the most steps the rest may take fit in the limit;
    // a draw that ran one option would play most of the time).
    let text = "players A, B\nboard square 4 by 4\npiece Stone\n\
                turn {\n choose c in cells where empty(c)\n place Stone at c\n\
                  for d in dirs { if rank(c) == 4 { for e in dirs { require true } } }\n\
                  require rank(c) >= 2\n}\n";
    drawn_as_listed(text, "drawn tail", 1..40, 4);
}

/// One-turn playouts of `g` from its start under each step limit of
/// `limits`, with seeds from 0 to `seeds`: a playout that draws its move
/// stops with the step error exactly when one that lists every move does.
/// The numbers of errors and of playouts played.
fn drawn_errs_as_listed(g: &tabula::Game, limits: std::ops::Range<u32>, seeds: u64) -> (u32, u32) {
    let s = crate::start(g);
    let (mut errors, mut plays) = (0, 0);
    for steps in limits {
        let g = g.with_limits(tabula::compile::Limits { steps, ..Default::default() });
        for seed in 0..seeds {
            let listed = tabula::playout_listed(&g, &s, &mut Rng::new(seed), 1);
            let drawn = tabula::playout(&g, &s, &mut Rng::new(seed), 1);
            assert_eq!(listed.is_err(), drawn.is_err(), "limit {steps} seed {seed}");
            match drawn {
                Err(e) => {
                    assert!(e.message.contains("steps"), "limit {steps}: {}", e.message);
                    errors += 1;
                }
                Ok(_) => plays += 1,
            }
        }
    }
    (errors, plays)
}

/// The game of `text`, whose passes include the note `note` (a drawn
/// tail or filter), checked by [`drawn_errs_as_listed`] under `limits`
/// with seeds below `seeds`: some playouts stop with the step error and
/// some play.
fn drawn_as_listed(
    text: &str,
    note: &str,
    limits: std::ops::Range<u32>,
    seeds: u64,
) -> tabula::Game {
    let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
    let notes = g.program().notes();
    assert!(notes.iter().any(|n| n.starts_with(note)), "{note}: {notes:?}");
    let (errors, plays) = drawn_errs_as_listed(&g, limits, seeds);
    assert!(errors > 0 && plays > 0, "{errors} errors, {plays} playouts");
    g
}

#[test]
fn a_drawn_decision_that_walks_rays_respects_the_step_limit() {
    // A rest of the turn with a `while` that walks a ray (`x = step(x,
    // d)` while the cell holds an opponent's stone, which `none` cannot)
    // is drawn (pass 15): its rounds are bounded by the longest walk on
    // the board. B's stones fill the middle row and column, so the walks
    // take from 0 to 4 rounds in each direction; under every limit the
    // drawn playout errs exactly when the listed one does. The `require`
    // at the end, which the lazy-tail pass cannot show to hold, keeps the
    // tail from being lazy: a listing runs it.
    let text = "players A, B\nboard square 5 by 5 with 8 neighbours\npiece Stone\n\
                setup { place Stone of B at [a3, b3, c3, d3, e3, c1, c2, c4, c5] }\n\
                turn {\n choose c in cells where empty(c)\n place Stone at c\n\
                  for d in dirs {\n let x = step(c, d)\n\
                    while owner(x) == opponent {\n change x to me\n x = step(x, d)\n }\n }\n\
                  require size(pieces(me)) > 0\n}\n";
    drawn_as_listed(text, "drawn tail", 1..120, 4);
    // One walk east, from a1 over four stones and from the other cells
    // over none: the bound (5 rounds, the longest walk east, and the last
    // test) is close to the 4 rounds from a1, and a bound below those
    // lets a draw of a short walk play under a limit where listing stops.
    let east = "players A, B\nboard square 5 by 5 with 8 neighbours\npiece Stone\n\
                setup { place Stone of B at [b1, c1, d1, e1] }\n\
                turn {\n choose c in cells where empty(c)\n place Stone at c\n\
                  let x = step(c, e)\n\
                  while owner(x) == opponent {\n change x to me\n x = step(x, e)\n }\n\
                  require size(pieces(me)) > 0\n}\n";
    drawn_as_listed(east, "drawn tail", 1..40, 16);
    // Not drawn: a walk on a board where stepping east goes round a loop
    // (it might never end), a walk whose test holds at `none`, and one
    // that does not step every round.
    let looped = text
        .replace("board square 5 by 5 with 8 neighbours", "board graph {\n points a3, b3, c3, d3, e3, c1, c2, c4, c5, z\n links e/w: a3-b3-c3-d3-e3-a3\n links n/s: c1-c2-c3-c4-c5\n}");
    let not_none = text.replace("while owner(x) == opponent", "while owner(x) != me");
    let stays = text.replace("x = step(x, d)\n }", "if empty(x) { x = step(x, d) }\n }");
    for (what, t) in [("a loop", looped), ("true at none", not_none), ("a step in an if", stays)] {
        let g = crate::game_text(&t).unwrap_or_else(|e| panic!("{what}: {e}"));
        let notes = g.program().notes();
        assert!(!notes.iter().any(|n| n.starts_with("drawn tail")), "{what}: {notes:?}");
    }
}

#[test]
fn a_drawn_decision_over_a_long_list_respects_the_step_limit() {
    // A `for` over a written list of directions that names one direction
    // twelve times, on a board of four: pass 15's bound on the rest of
    // the turn counts the list's twelve rounds, not the board's four
    // directions, so a drawn playout errs exactly when a listed one does
    // under every limit. A placement on the third rank counts the cells
    // in each round (about ten steps), any other takes a step a round: a
    // bound of four rounds would let a playout draw a cheap placement
    // under a limit where listing stops at a dear one. (The `require`,
    // which the lazy-tail pass cannot show to hold, keeps the listing
    // running the rest.)
    let text = "players A, B\nboard square 3 by 3\npiece Stone\n\
                turn {\n choose c in cells where empty(c)\n place Stone at c\n\
                  for d in [e, e, e, e, e, e, e, e, e, e, e, e] {\n\
                    if rank(c) == 3 and (count x in cells: owner(step(x, d)) == me) > 0 { let y = d }\n }\n\
                  require size(pieces(me)) > 0\n}\n";
    drawn_as_listed(text, "drawn tail", 1..200, 2);
}

#[test]
fn a_filter_asked_as_drawn_respects_the_step_limit() {
    // Pass 54: a playout lists the empty cells (the filter's set-form
    // part) and asks the rest of the filter, a count over the cells, only
    // of those it draws, when listing every option would stay within the
    // step limit and the rest of the turn (a count of its own). Under
    // every limit a drawn playout errs exactly when a listed one does:
    // below the listing's steps both stop; between them and the pass's
    // bound (a count of every cell for every empty cell, and the rest)
    // the playout lists as the rules say; above it, it draws.
    let text = "players A, B\nboard square 4 by 4\npiece Stone\n\
                setup { place Stone of B at [a1, b2, c3] }\n\
                turn {\n choose c in cells where empty(c) and \
                  ((count x in cells: owner(x) == opponent and x != c) >= 1 or ply == 0) and \
                  (any d in dirs: owner(step(c, d)) != me)\n place Stone at c\n\
                  if (count x in cells: owner(x) == me) >= 2 { let y = c }\n}\n";
    let g = drawn_as_listed(text, "drawn filter", 1..700, 3);
    // Above the bound the move is drawn, asking the filter of fewer cells.
    let s = crate::start(&g);
    let p = tabula::playout(&g, &s, &mut Rng::new(1), 1).expect("playout");
    assert_eq!(p.drawn, 1);
    // A filter with no set-form part, a step per cell listed, and a long
    // rest (pass 15's drawn tail, whose `place` fails on a stone): the
    // bound counts the rest too, else a playout would draw under a limit
    // where the listing's steps and the rest pass it.
    let long = "players A, B\nboard square 4 by 4\npiece Stone\n\
                setup { place Stone of B at [a1, b2, c3] }\n\
                turn {\n choose c in cells where rank(c) >= ply or ply >= 0\n place Stone at c\n\
                  for i in range(1, 300) { let y = i }\n}\n";
    drawn_as_listed(long, "drawn filter", 280..340, 3);
}

#[test]
fn a_drawn_decision_respects_the_zone_limit() {
    // The rest of the turn adds six pieces to a zone from the last rank
    // only (two, then one in each of the four directions). With the zones holding `held` pieces, a move there would pass
    // 65535: listing the moves stops with that error, and so must a
    // playout that draws its move (the pass draws only when all the zones'
    // pieces plus the most the rest adds fit within 65535; a draw that ran
    // one option would play most of the time). With room left, it draws.
    let text = |held: u32| {
        format!(
            "players A, B\nboard square 4 by 4\npiece Stone\nzone heap shared\n\
             setup {{ add {held} Stone to heap }}\n\
             turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
               if rank(c) == 4 {{ add 2 Stone to heap  for d in dirs {{ add Stone to heap }} }}\n}}\n"
        )
    };
    let (mut errors, mut drawn) = (0, 0);
    for held in 65526..=65535 {
        let g = crate::game_text(&text(held)).unwrap_or_else(|e| panic!("{e}"));
        assert!(g.program().notes().iter().any(|n| n.starts_with("drawn tail")));
        let s = crate::start(&g);
        for seed in 0..4 {
            let listed = tabula::playout_listed(&g, &s, &mut Rng::new(seed), 1);
            let d = tabula::playout(&g, &s, &mut Rng::new(seed), 1);
            assert_eq!(listed.is_err(), d.is_err(), "{held} pieces, seed {seed}");
            match d {
                Err(e) => {
                    assert!(e.message.contains("65535"), "{held}: {}", e.message);
                    errors += 1;
                }
                Ok(p) => drawn += p.drawn,
            }
        }
    }
    assert!(errors > 0 && drawn > 0, "{errors} errors, {drawn} drawn");
}

#[test]
fn guarded_rounds_skipped_at_once_count_their_steps() {
    // A `for d in dirs` whose rounds all fail their guard is skipped in one
    // go (pass 9); it must count the same steps as walking the rounds. The
    // same rule with an `else` (which pass 9 leaves alone) walks every
    // round: under every step limit both give the same move list, or the
    // same step error at the same statement (a loop after it counts on),
    // on the empty board (every loop skipped at once) and after a few
    // stones (some rounds run). Each way the pass reads the cell stepped
    // from (a local, a constant) and its guard (`occupied(n)`, which has a
    // closure of its own, another occupancy test, a set form of several)
    // has a case, and so has a round with another `let` before its `if`
    // (which the `if` made in the rounds' closure must still compute);
    // the moves and the positions after them are compared.
    let cases = [
        ("c", "", "occupied(n) and owner(n) != me"),
        ("b2", "", "occupied(n) and owner(n) != me"),
        ("c", "", "owner(n) == me"),
        ("c", "", "owner(n) != me and occupied(n)"),
        ("b2", "", "owner(n) != me and occupied(n)"),
        ("c", "  let o = owner(n)\n", "occupied(n) and o != me"),
    ];
    for (from, extra, cond) in cases {
        let text = |otherwise: &str| {
            format!(
                "game \"Guarded\"\nplayers A, B\nboard square 3 by 3 with 8 neighbours\n\
                 piece Stone \"s\"\n\
                 turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
                   for d in dirs {{\n  let n = step({from}, d)\n{extra}\
                    if {cond} {{\n   remove n\n  }}{otherwise}\n }}\n\
                   for k in range(1, 2) {{\n  let z = k\n }}\n\
                   require size(pieces(me)) > 0\n}}\n"
            )
        };
        // The same text but for the `else`, blanked out: spans line up.
        let otherwise = " else {\n   let z = 0\n  }";
        let blank: String = otherwise.chars().map(|c| if c == '\n' { c } else { ' ' }).collect();
        let guarded = crate::game_text(&text(&blank)).unwrap_or_else(|e| panic!("{e}"));
        let walked = crate::game_text(&text(otherwise)).unwrap_or_else(|e| panic!("{e}"));
        let fired = |g: &tabula::Game| g.program().notes().iter().any(|n| n.starts_with("guarded"));
        assert!(fired(&guarded) && !fired(&walked), "{from}, {cond}");
        let empty = crate::start(&guarded);
        let mut later = empty.clone();
        for m in ["a1", "b2", "c3", "c2"] {
            let mv = later.parse_move(&guarded, m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
            let next = later.play(&guarded, &mv).unwrap_or_else(|e| panic!("{m}: {e:?}"));
            let by_walk = later.play(&walked, &mv).unwrap_or_else(|e| panic!("{m}: {e:?}"));
            assert_eq!(next.to_text(&guarded), by_walk.to_text(&walked), "{from}, {cond}: {m}");
            later = next;
        }
        let (mut errors, mut lists) = (0, 0);
        for s in [&empty, &later] {
            for steps in 1..120 {
                let limits = tabula::compile::Limits { steps, ..Default::default() };
                let ours = s.legal_moves(&guarded.with_limits(limits));
                let theirs = s.legal_moves(&walked.with_limits(limits));
                match (ours, theirs) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a, b, "{from}, {cond}: limit {steps}");
                        lists += 1;
                    }
                    (Err(a), Err(b)) => {
                        assert_eq!((&a.message, a.span.start), (&b.message, b.span.start));
                        assert!(a.message.contains("steps"), "limit {steps}: {}", a.message);
                        errors += 1;
                    }
                    (a, b) => panic!("{from}, {cond}: limit {steps}: {a:?} against {b:?}"),
                }
            }
        }
        assert!(errors > 0 && lists > 0, "{from}, {cond}: {errors} errors, {lists} lists");
    }
}

#[test]
fn a_cell_switch_runs_every_statement_of_its_branch() {
    // Pass 29's switch over `off(b)` / `empty(b)` / else, each branch of
    // two statements (a push and a catch, a send-off and a catch), against
    // the same rules with `and me == me` after the first test, which the
    // pass leaves alone: the same positions (the catches are counted in a
    // zone) and move lists after every move of a game.
    let text = |extra: &str| {
        format!(
            "game \"Switch\"\nplayers A, B\nboard square 3 by 3 with 8 neighbours\n\
             piece Stone \"s\"\nzone caught per player\n\
             turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
               for d in dirs {{\n  let n = step(c, d)\n  if occupied(n) {{\n\
                let b = step(n, d)\n   if off(b){extra} {{\n    remove n\n\
                add Stone to caught(me)\n   }} else if empty(b) {{\n    move n to b\n\
                add Stone to caught(me)\n   }} else {{\n    remove n\n\
                add 2 Stone to caught(me)\n   }}\n  }}\n }}\n}}\n"
        )
    };
    let extra = " and me == me";
    let blank: String = extra.chars().map(|_| ' ').collect();
    let switched = crate::game_text(&text(&blank)).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&text(extra)).unwrap_or_else(|e| panic!("{e}"));
    let fired = |g: &tabula::Game| g.program().notes().iter().any(|n| n.starts_with("cell switch"));
    assert!(fired(&switched) && !fired(&walked));
    let mut s = crate::start(&switched);
    let mut caught = 0;
    for k in 0..12 {
        let ours = s.legal_moves(&switched).unwrap_or_else(|e| panic!("{k}: {e:?}"));
        let theirs = s.legal_moves(&walked).unwrap_or_else(|e| panic!("{k}: {e:?}"));
        assert_eq!(ours, theirs, "move {k}");
        let Some(mv) = ours.get(k * 5 % ours.len().max(1)) else { break };
        let next = s.play(&switched, mv).unwrap_or_else(|e| panic!("{k}: {e:?}"));
        let by_walk = s.play(&walked, mv).unwrap_or_else(|e| panic!("{k}: {e:?}"));
        assert_eq!(next.to_text(&switched), by_walk.to_text(&walked), "after move {k}");
        caught += next.to_text(&switched).lines().filter(|l| l.starts_with("caught")).count();
        s = next;
    }
    // Some catches happened, so the branches' second statements ran.
    assert!(caught > 0, "no catch in the game");
}

/// Under every step limit in `limits`, the moves of `ours` and of `walked`
/// (the same rules written so that a pass does not fire) at `s` are the
/// same, or both runs stop with the same step error at the same place;
/// `check` is asked of each list. Returns how many limits gave errors and
/// how many gave lists.
fn same_under_limits(
    ours: &Game,
    walked: &Game,
    s: &State,
    limits: std::ops::Range<u32>,
    ctx: &str,
    check: impl Fn(&[tabula::Move]),
) -> (u32, u32) {
    let (mut errors, mut lists) = (0, 0);
    for steps in limits {
        let limits = tabula::compile::Limits { steps, ..Default::default() };
        let pair =
            (s.legal_moves(&ours.with_limits(limits)), s.legal_moves(&walked.with_limits(limits)));
        match pair {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{ctx}, limit {steps}");
                check(&a);
                lists += 1;
            }
            (Err(a), Err(b)) => {
                assert_eq!((&a.message, a.span.start), (&b.message, b.span.start), "{ctx}");
                assert!(a.message.contains("steps"), "{ctx}, limit {steps}: {}", a.message);
                errors += 1;
            }
            (a, b) => panic!("{ctx}, limit {steps}: {a:?} against {b:?} walking"),
        }
    }
    (errors, lists)
}

/// [`same_under_limits`] at each position of a game of `fast` of up to
/// `plies` turns (the move `ply * stride` of each list, modulo its
/// length): the step errors and the move lists met on the way.
fn same_along_a_game(
    fast: &Game,
    walked: &Game,
    plies: usize,
    limits: std::ops::Range<u32>,
    stride: usize,
) -> (u32, u32) {
    let mut s = crate::start(fast);
    let (mut errors, mut lists) = (0, 0);
    for ply in 0..plies {
        let ctx = format!("ply {ply}");
        let (e, l) = same_under_limits(fast, walked, &s, limits.clone(), &ctx, |_| {});
        (errors, lists) = (errors + e, lists + l);
        let moves = s.legal_moves(fast).unwrap_or_else(|e| panic!("{e}"));
        let Some(m) = moves.get(ply * stride % moves.len().max(1)) else { break };
        s.play_unchecked(fast, m).unwrap_or_else(|e| panic!("{e}"));
        if s.outcome(fast).ok().flatten().is_some() {
            break;
        }
    }
    (errors, lists)
}

#[test]
fn a_zone_listed_at_once_counts_its_steps() {
    // `choose k in pool(me)` over a counted zone without a filter lists the
    // kinds from the zone's counters at once; it must count a step per kind
    // as walking them does. The same rule with a filter that always holds
    // walks them: under every step limit both give the same move list, or
    // the same step error at the same statement.
    let text = |filter: &str| {
        format!(
            "game \"Pool\"\nplayers A, B\nboard square 2 by 2\n\
             piece Red \"r\"\npiece Green \"g\"\npiece Blue \"b\"\n\
             zone pool per player\n\
             setup {{\n for p in players {{\n  add 2 Red to pool(p)\n  add Blue to pool(p)\n }}\n}}\n\
             turn {{\n choose k in pool(me){filter}\n choose c in cells where empty(c)\n\
               take k from pool(me)\n place k at c\n\
               for i in range(1, 3) {{\n  let z = i\n }}\n}}\n"
        )
    };
    let filter = " where count(pool(me)) > 0";
    let blank: String = filter.chars().map(|_| ' ').collect();
    let listed = crate::game_text(&text(&blank)).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&text(filter)).unwrap_or_else(|e| panic!("{e}"));
    let s = crate::start(&listed);
    let (errors, lists) = same_under_limits(&listed, &walked, &s, 1..40, "pool", |a| {
        assert_eq!(a.len(), 8, "two kinds on four cells");
    });
    assert!(errors > 0 && lists > 0, "{errors} errors, {lists} lists");
}

#[test]
fn a_zone_walked_in_place_counts_its_steps() {
    // `for j in hand(me)` over a counted zone named with `me` (or a
    // constant player, or a word local) reads the zone's counters in
    // place (`effect::for_kinds`); with the player given by an expression
    // (`next(next(me))`, the same player of two) the general walk runs.
    // Under every step limit both give the same move list, or the same
    // step error at the same statement.
    let text = |who: &str| {
        format!(
            "game \"Hands\"\nplayers A, B\n\
             piece Red \"r\" {{ v: 1 }}\npiece Green \"g\" {{ v: 2 }}\npiece Blue \"b\" {{ v: 3 }}\n\
             zone hand per player\nzone pile per player\n\
             setup {{\n for p in players {{\n  add 2 Red to hand(p)\n  add Green to hand(p)\n  add 3 Blue to hand(p)\n }}\n}}\n\
             turn {{\n for j in hand({who}) where v(j) > 1 {{\n  add j to pile(me)\n }}\n\
               for q in players {{\n  for j in hand(q) {{\n   add j to pile(q)\n  }}\n }}\n\
               choose k in hand(me)\n take k from hand(me)\n}}\n"
        )
    };
    // The same lengths, so that spans agree.
    let ours = crate::game_text(&text("me            ")).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&text("next(next(me))")).unwrap_or_else(|e| panic!("{e}"));
    let in_place =
        |g: &Game| g.program().notes().iter().filter(|n| n.contains("a `for` over a zone")).count();
    assert_eq!((in_place(&ours), in_place(&walked)), (2, 1), "hand(me) and hand(q) in place");
    let s = crate::start(&ours);
    let (errors, lists) = same_under_limits(&ours, &walked, &s, 1..20, "hands", |a| {
        assert_eq!(a.len(), 3, "three kinds in hand");
    });
    assert!(errors > 0 && lists > 0, "{errors} errors, {lists} lists");
}

#[test]
fn players_kinds_as_one_loop_count_their_steps() {
    // `for q in players { for j in hand(q) where ... { ... } }` runs as one
    // closure (`effect::for_players_kinds`); with a filter on the outer
    // loop (`where true`, which takes no step) the two loops run as two.
    // Under every step limit both give the same move list, or the same
    // step error at the same statement, before and after a few turns
    // (a round's body empties kinds the later rounds would walk).
    let text = |outer: &str| {
        format!(
            "game \"Hands\"\nplayers A, B\n\
             piece Red \"r\"\npiece Green \"g\"\npiece Blue \"b\"\n\
             zone hand per player\nzone heap shared\n\
             setup {{\n for p in players {{\n  add 2 Red to hand(p)\n  add Green to hand(p)\n  add 2 Blue to hand(p)\n }}\n}}\n\
             turn {{\n choose k in hand(me)\n take k from hand(me)\n add k to heap\n\
               for q in players{outer} {{\n  for j in hand(q) where count(heap, j) > 1 {{\n   move all j from hand(q) to heap\n  }}\n }}\n\
               for i in range(1, 3) {{\n  let z = i\n }}\n}}\n"
        )
    };
    let ours = crate::game_text(&text("           ")).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&text(" where true")).unwrap_or_else(|e| panic!("{e}"));
    let fused = |g: &Game| g.program().notes().iter().any(|n| n.starts_with("players' kinds"));
    assert!(fused(&ours) && !fused(&walked));
    let mut s = crate::start(&ours);
    let (mut errors, mut lists) = (0, 0);
    for ply in 0..4 {
        let (e, l) = same_under_limits(&ours, &walked, &s, 1..40, &format!("ply {ply}"), |_| {});
        (errors, lists) = (errors + e, lists + l);
        let moves = s.legal_moves(&ours).expect("moves");
        let Some(m) = moves.last() else { break };
        s = s.play(&ours, m).expect("play");
    }
    assert!(errors > 0 && lists > 0, "{errors} errors, {lists} lists");
}

#[test]
fn players_moves_as_one_loop_count_their_steps() {
    // `for q in players { move N K from Z1(q) to Z2(q) }` runs as one
    // closure (`effect::for_players_transfer`); with `where true` on the
    // loop (no step) the loop and the move run as two. Under every step
    // limit both give the same move list (a `move 1 Red` from a hand
    // without one fails the move), or the same step error at the same
    // statement, over a few turns.
    let text = |outer: &str| {
        format!(
            "game \"Piles\"\nplayers A, B\n\
             piece Red \"r\"\npiece Green \"g\"\n\
             zone hand per player\nzone pile per player\n\
             setup {{\n for p in players {{\n  add 2 Red to hand(p)\n  add 3 Green to hand(p)\n }}\n}}\n\
             turn {{\n choose k in hand(me)\n take k from hand(me)\n\
               for q in players{outer} {{\n  move all k from hand(q) to pile(q)\n }}\n\
               for q in players{outer} {{\n  move 1 Red from pile(q) to hand(q)\n }}\n\
               for i in range(1, 3) {{\n  let z = i\n }}\n}}\n"
        )
    };
    let ours = crate::game_text(&text("           ")).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&text(" where true")).unwrap_or_else(|e| panic!("{e}"));
    let fused =
        |g: &Game| g.program().notes().iter().filter(|n| n.starts_with("players' moves")).count();
    assert_eq!((fused(&ours), fused(&walked)), (2, 0));
    let mut s = crate::start(&ours);
    let (mut errors, mut lists, mut fewer) = (0, 0, 0);
    for ply in 0..5 {
        let (e, l) = same_under_limits(&ours, &walked, &s, 1..30, &format!("ply {ply}"), |_| {});
        (errors, lists) = (errors + e, lists + l);
        let moves = s.legal_moves(&ours).expect("moves");
        // A kind whose `move 1 Red` fails for want of a Red is no move.
        fewer += usize::from(moves.len() < 2);
        let Some(m) = moves.first() else { break };
        s = s.play(&ours, m).expect("play");
    }
    assert!(errors > 0 && lists > 0, "{errors} errors, {lists} lists");
    assert!(fewer > 0, "some position lost a move to a failed `move`");
}

#[test]
fn lines_through_a_cell_count_the_lines_passed_over() {
    // Pass 18 walks only the lines through the cell and counts the others
    // in bulk; the same rules with a first test the pass does not know walk
    // every line. Under every step limit both give the same moves, or the
    // same step error at the same quantifier, along a game.
    use crate::crosscheck::THROUGH;
    let fired =
        |g: &Game| g.program().notes().iter().filter(|n| n.starts_with("lines through")).count();
    // The same lengths, so that spans agree.
    let (mut ours, mut walked) = (THROUGH.to_string(), THROUGH.to_string());
    for x in ["c", "up", "b2"] {
        let from = format!("where {x} in l");
        assert!(THROUGH.contains(&from), "{from}");
        ours = ours.replace(&from, &format!("where                 {x} in l"));
        walked = walked.replace(&from, &format!("where size(l) > 0 and {x} in l"));
    }
    let through = crate::game_text(&ours).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&walked).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((fired(&through), fired(&walked)), (4, 0));
    let (errors, lists) = same_along_a_game(&through, &walked, 6, 1..90, 5);
    assert!(errors > 20 && lists > 20, "{errors} errors, {lists} lists");
}

#[test]
fn a_set_removed_at_once_counts_its_rounds_and_fails_where_the_loop_would() {
    // Pass 21 removes every cell of a set at once; the same loop with one
    // more statement in its body walks the cells. Under every step limit
    // both give the same moves, or the same step error at the same
    // statement, along a game (a loop that meets an empty cell fails the
    // move, after counting its rounds up to it).
    let text = |body: &str| {
        format!(
            "game \"Clear\"\nplayers A, B\nboard square 4 by 4\npiece Stone\n\
             turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
              if (count x in neighbours(c) where occupied(x)) >= 2 {{\n\
               for y in neighbours(c) {{ remove y{body} }}\n }}\n\
              for i in range(1, 3) {{\n  let z = i\n }}\n}}\non no moves {{ pass }}\n"
        )
    };
    let walked_body = "  let w = y";
    let blank: String = walked_body.chars().map(|_| ' ').collect();
    let at_once = crate::game_text(&text(&blank)).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&text(walked_body)).unwrap_or_else(|e| panic!("{e}"));
    let fired = |g: &Game| g.program().notes().iter().any(|n| n.starts_with("remove all"));
    assert!(fired(&at_once) && !fired(&walked));
    let mut s = crate::start(&at_once);
    let (mut errors, mut lists, mut failed) = (0, 0, 0);
    for ply in 0..10 {
        let (e, l) = same_under_limits(&at_once, &walked, &s, 1..40, &format!("ply {ply}"), |_| {});
        (errors, lists) = (errors + e, lists + l);
        let moves = s.legal_moves(&at_once).unwrap_or_else(|e| panic!("{e}"));
        // Some placements fail at an empty neighbour.
        failed += 16 - ply - moves.len().min(16 - ply);
        let Some(m) = moves.get(ply * 7 % moves.len().max(1)) else { break };
        s.play_unchecked(&at_once, m).unwrap_or_else(|e| panic!("{e}"));
        if s.outcome(&at_once).ok().flatten().is_some() {
            break;
        }
    }
    assert!(
        errors > 20 && lists > 20 && failed > 0,
        "{errors} errors, {lists} lists, {failed} failed"
    );
}

#[test]
fn an_option_explored_in_its_decisions_level_leaves_its_steps_behind() {
    // A decision whose options go straight on to another decision, lazy
    // here, is explored by a sink that only reads (move lists, counts) in
    // the first decision's own level; the listing of each option's
    // decision counts steps (the `any` over numbers in the filter, asked
    // cell by cell) that must not be
    // left in that level for the next option. The twin has a statement
    // between the two decisions, so each option is explored in a copy.
    // Under every step limit both give the same moves, or the same step
    // error at the same place, along a game; counts agree with the lists.
    let text = |between: &str| {
        format!(
            "game \"Lend\"\nplayers A, B\nboard square 3 by 3\n\
             piece Red \"r\"\npiece Green \"g\"\npiece Blue \"b\"\nzone pool per player\n\
             setup {{\n for p in players {{\n  add 2 Red to pool(p)\n  add Green to pool(p)\n  add 2 Blue to pool(p)\n }}\n}}\n\
             turn {{\n choose k in pool(me)\n {between}\n\
               choose c in cells where empty(c) and (any i in range(1, 3): i == 3)\n\
               take k from pool(me)\n place k at c\n}}\non no moves {{ pass }}\n"
        )
    };
    let between = "let z = 0";
    let blank: String = between.chars().map(|_| ' ').collect();
    let lent = crate::game_text(&text(&blank)).unwrap_or_else(|e| panic!("{e}"));
    let copied = crate::game_text(&text(between)).unwrap_or_else(|e| panic!("{e}"));
    let mut s = crate::start(&lent);
    let (mut errors, mut lists) = (0, 0);
    for ply in 0..6 {
        let ctx = format!("ply {ply}");
        let (e, l) = same_under_limits(&lent, &copied, &s, 1..40, &ctx, |_| {});
        (errors, lists) = (errors + e, lists + l);
        let moves = s.legal_moves(&lent).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.count_moves(&lent).ok(), Some(moves.len() as u64), "{ctx}");
        let Some(m) = moves.get(ply * 5 % moves.len().max(1)) else { break };
        s.play_unchecked(&lent, m).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(errors > 8 && lists > 20, "{errors} errors, {lists} lists");
}

#[test]
fn a_while_that_asks_for_options_counts_no_more_steps_than_written() {
    // Pass 25 computes the options of the `choose` in the `while`
    // condition and skips the condition's own walk of the groups: under
    // every step limit it gives the moves the written rules give (a twin
    // whose condition has one more conjunct that always holds, so the pass
    // does not fire), or an
    // error where they give one too; never an error where they do not.
    use crate::crosscheck::chain;
    let fired = |g: &Game| g.program().notes().iter().any(|n| n.starts_with("options first"));
    let fused = crate::game_text(&chain("can(a)", "can(a)")).unwrap_or_else(|e| panic!("{e}"));
    let written = crate::game_text(&chain("can(a) and size(a) >= 0", "can(a)"))
        .unwrap_or_else(|e| panic!("{e}"));
    let bare =
        crate::game_text(&chain("size(a) == 2", "size(a) == 2")).unwrap_or_else(|e| panic!("{e}"));
    assert!(fired(&fused) && !fired(&written) && !fired(&bare));
    // The non-empty test either way round.
    let flipped = chain("can(a)", "can(a)").replace("size(targets(a)) > 0", "0 < size(targets(a))");
    assert!(flipped.contains("0 < size"));
    assert!(fired(&crate::game_text(&flipped).unwrap_or_else(|e| panic!("{e}"))));
    let (same, errors, fewer) = under_step_limits(&fused, &written, 10, 150);
    assert!(same > 50 && errors > 50 && fewer > 0, "{same} same, {errors} errors, {fewer} fewer");
}

/// Plays `plies` plies of `fast` (a move chosen by the ply) and, before
/// each, lists the moves of `fast` and of `written` (the same rules, a
/// pass not firing) under every step limit below `limits`: the same moves
/// where both run, the step error where both stop, and never an error of
/// `fast` where `written` runs. Returns how many limits gave the same
/// moves, an error on both sides, and an error of `written` alone.
fn under_step_limits(fast: &Game, written: &Game, plies: usize, limits: u32) -> (u32, u32, u32) {
    let mut s = crate::start(fast);
    let (mut same, mut errors, mut fewer) = (0, 0, 0);
    for ply in 0..plies {
        for steps in 1..limits {
            let limits = tabula::compile::Limits { steps, ..Default::default() };
            match (
                s.legal_moves(&fast.with_limits(limits)),
                s.legal_moves(&written.with_limits(limits)),
            ) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "ply {ply}, limit {steps}");
                    same += 1;
                }
                (Err(a), Err(b)) => {
                    assert!(
                        a.message.contains("steps") && b.message.contains("steps"),
                        "{a:?} {b:?}"
                    );
                    errors += 1;
                }
                (Ok(_), Err(b)) => {
                    assert!(b.message.contains("steps"), "{b:?}");
                    fewer += 1;
                }
                (Err(a), Ok(_)) => {
                    panic!("ply {ply}, limit {steps}: {a:?} where the written rules run")
                }
            }
        }
        let moves = s.legal_moves(fast).unwrap_or_else(|e| panic!("{e}"));
        let Some(m) = moves.get(ply * 7 % moves.len().max(1)) else { break };
        s.play_unchecked(fast, m).unwrap_or_else(|e| panic!("{e}"));
    }
    (same, errors, fewer)
}

#[test]
fn a_walk_left_out_by_a_touch_bound_counts_no_more_steps_than_written() {
    // Pass 43 leaves out the walk over a player's groups when none can
    // touch the other player's: under every step limit BOUNDED gives the
    // moves a twin gives whose filters each have a disjunct that never
    // holds (`or size(a) < 0`, so the pass does not fire), or an error
    // where the twin gives one too; never an error where it does not.
    use crate::crosscheck::BOUNDED;
    let fired =
        |g: &Game| g.program().notes().iter().filter(|n| n.starts_with("touch bound")).count();
    let mut twin = BOUNDED.to_string();
    for (from, to) in [
        ("where size(foes(a)) > 0: foes(a)", "where size(foes(a)) > 0 or size(a) < 0: foes(a)"),
        (": b): a) >= 6", ": b) or size(a) < 0: a) >= 6"),
        (": size(foes(a)) > 0)", ": size(foes(a)) > 0 or size(a) < 0)"),
        (
            "any b in groups(me): touches(b, a))",
            "(any b in groups(me): touches(b, a)) or size(a) < 0)",
        ),
        (
            "where size(foes(a)) > 0: size(a) >= 2",
            "where size(foes(a)) > 0 or size(a) < 0: size(a) >= 2",
        ),
    ] {
        assert!(twin.contains(from), "{from}");
        twin = twin.replacen(from, to, 1);
    }
    let bounded = crate::game_text(BOUNDED).unwrap_or_else(|e| panic!("{e}"));
    let written = crate::game_text(&twin).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((fired(&bounded), fired(&written)), (5, 0));
    let (same, errors, fewer) = under_step_limits(&bounded, &written, 12, 300);
    // 3,336, 151 and 101 when written.
    assert!(
        same > 1000 && errors > 100 && fewer > 50,
        "{same} same, {errors} errors, {fewer} fewer"
    );
}

#[test]
fn the_largest_group_counts_a_step_per_cell() {
    // Pass 24 answers `max x in S: size(group(x))` from the groups that
    // meet `S` and counts the cells together; the same rules with a filter
    // that always holds walk the cells. Under every step limit both give
    // the same moves, or the same step error at the same quantifier, along
    // a game.
    use crate::crosscheck::LARGEST;
    let filter = " where size(cells) > 0";
    let blank: String = filter.chars().map(|_| ' ').collect();
    let (mut ours, mut walked) = (LARGEST.to_string(), LARGEST.to_string());
    for d in ["cells", "pieces(next(me))", "neighbours(c)", "pieces(me)"] {
        let from = format!("max x in {d}:");
        assert!(LARGEST.contains(&from), "{from}");
        ours = ours.replace(&from, &format!("max x in {d}{blank}:"));
        walked = walked.replace(&from, &format!("max x in {d}{filter}:"));
    }
    let fired =
        |g: &Game| g.program().notes().iter().filter(|n| n.starts_with("largest group")).count();
    let at_once = crate::game_text(&ours).unwrap_or_else(|e| panic!("{e}"));
    let walked = crate::game_text(&walked).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((fired(&at_once), fired(&walked)), (4, 0));
    let (errors, lists) = same_along_a_game(&at_once, &walked, 8, 1..120, 7);
    assert!(errors > 20 && lists > 20, "{errors} errors, {lists} lists");
}

#[test]
fn a_group_size_require_asked_at_listing_counts_no_step() {
    // Pass 44 asks Bug's `require size(group(c)) == 1 or ... <= limit` as
    // the cells are listed and leaves it out of the runs; the same rule
    // with a conjunct that always holds, which the pass does not take,
    // runs it after each placement. Both runs go on to the `while` (no
    // lazy tail on either side). Under every step limit both give the
    // same moves, or the same step error at the same place, along a game.
    let text = std::fs::read_to_string(crate::root().join("games/bug.game")).expect("bug.game");
    let from = "require size(group(c)) == 1 or size(group(c)) <= limit";
    assert!(text.contains(from), "{from}");
    // The two texts are as long, so that an error after the `require` is
    // at the same offset in both.
    let and = "size(cells) > 0 and ";
    let blank: String = and.chars().map(|_| ' ').collect();
    let run = text.replacen(from, &format!("require {and}({})", &from[8..]), 1);
    let text = text.replacen(from, &format!("require {blank}({})", &from[8..]), 1);
    let fired = |g: &Game| g.program().notes().iter().any(|n| n.starts_with("group-size require"));
    let listed = crate::game_text(&text).unwrap_or_else(|e| panic!("{e}"));
    let run = crate::game_text(&run).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((fired(&listed), fired(&run)), (true, false));
    let (errors, lists) = same_along_a_game(&listed, &run, 10, 1..150, 5);
    assert!(errors > 20 && lists > 20, "{errors} errors, {lists} lists");
}

/// A card game whose play from the hand ends with a draw until a card
/// that stops it, from a face-up deck (a sure tail, pass 22): `deck` is
/// the deck from the top (`R` a Red, `B` a Blue, which stops the draw),
/// `heap` the Reds already on the heap, `extra` statements after the
/// draw, `hidden` whether the first two cards are shuffled face down and
/// the top one looked at, the rest added below them face up.
fn draw_until(deck: &str, heap: u32, extra: &str, hidden: bool) -> Game {
    let cards = |d: &str| -> String {
        d.chars()
            .map(|c| format!("add {} to deck\n", if c == 'B' { "Blue" } else { "Red" }))
            .collect()
    };
    let heap = if heap > 0 { format!("add {heap} Red to heap\n") } else { String::new() };
    let (face, adds) = if hidden {
        let (first, rest) = deck.split_at(2.min(deck.len()));
        let shuffle = "shuffle deck\nlet top = first(deck)\n";
        (" hidden", format!("{}{shuffle}{}", cards(first), cards(rest)))
    } else {
        ("", cards(deck))
    };
    let text = format!(
        "players A, B\npiece Red {{ stop: 0 }}\npiece Blue {{ stop: 1 }}\n\
         zone deck shared ordered{face}\nzone hand per player owner\n\
         zone table per player\nzone heap shared\n\
         setup {{\n{adds}{heap}\
           for p in players {{ add 2 Red to hand(p)  add 1 Blue to hand(p) }}\n}}\n\
         turn {{\n choose c in hand(me)\n move c from hand(me) to table(me)\n\
           while stop(first(deck)) == 0 {{\n\
             move first(deck) from deck to heap\n\
             for q in players {{ for k in table(q) where count(heap, k) > 3 {{\n\
               move all k from table(q) to heap\n\
             }} }}\n\
           }}\n\
           move first(deck) from deck to hand(next(me))\n{extra}\n}}\n"
    );
    crate::game_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn sure(g: &Game) -> bool {
    g.program().notes().iter().any(|n| n.starts_with("sure tail"))
}

/// The moves (or the error) of both evaluators at `s`, which must agree,
/// with every move played by both to the same position.
fn both_agree(g: &Game, s: &State, ctx: &str) -> Result<usize, String> {
    let ours = s.legal_moves(g);
    let theirs = tabula::interp::reference::legal_moves(g, s);
    match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "{ctx}");
            assert_eq!(s.count_moves(g).expect("count"), a.len() as u64, "{ctx}");
            assert_eq!(tabula::perft(g, s, 1).expect("perft"), a.len() as u64, "{ctx}");
            for m in &a {
                let mut t = s.clone();
                t.play_unchecked(g, m).expect("play");
                let r = tabula::interp::reference::play(g, s, m).expect("reference play");
                assert_eq!(t, r, "{ctx}");
            }
            Ok(a.len())
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.message, b.message, "{ctx}");
            Err(a.message.clone())
        }
        (a, b) => panic!("{ctx}: {a:?} against the reference's {b:?}"),
    }
}

#[test]
fn a_draw_until_a_card_lists_the_plays_as_moves_when_the_deck_allows() {
    // Pass 22 fires on the draw-until tail; at the decision the deck must
    // hold a card that stops the draw. With one, the plays are moves (and
    // both evaluators agree on them and on where they lead); without one
    // the draw runs off the deck, and the moves, or the error, are the
    // reference's.
    let g = draw_until("RRB", 0, "", false);
    assert!(sure(&g), "{:#?}", g.program().notes());
    assert_eq!(both_agree(&g, &crate::start(&g), "RRB"), Ok(2));
    for deck in ["RR", "", "R"] {
        let g = draw_until(deck, 0, "", false);
        assert!(both_agree(&g, &crate::start(&g), deck) != Ok(2), "{deck}");
    }
    // Playouts and perft play the moves listed unrun.
    for deck in ["RRB", "BRRBRB", "RRRRRRRBRRRRRRRB"] {
        let g = draw_until(deck, 0, "", false);
        let s = crate::start(&g);
        let mut t = s.clone();
        let mut rng = Rng::new(3);
        while let Ok(n) = both_agree(&g, &t, deck) {
            if n == 0 {
                break;
            }
            let moves = t.legal_moves(&g).expect("moves");
            t.play_unchecked(&g, &moves[rng.below(n)]).expect("play");
        }
        tabula::playout(&g, &s, &mut Rng::new(1), 50).expect("playout");
    }
    // A deck whose top card is known (a Red) and the next face down, with
    // Blues below: the draw meets the face-down card (chance), so the plays
    // are not finished moves.
    let g = draw_until("RRBRB", 0, "", true);
    let s = crate::start(&g);
    assert!(both_agree(&g, &s, "face down").is_ok());
    for seed in 0..8 {
        tabula::playout(&g, &s, &mut Rng::new(seed), 50).expect("playout");
    }
    // Not a sure tail: a loop condition that reads the position, a loop
    // that puts cards on the deck or draws after something else, a draw
    // from the other end or onto the deck, arithmetic that may overflow.
    let base = draw_until("RRB", 0, "", false);
    let text = &base.source.text;
    for (from, to) in [
        ("stop(first(deck)) == 0", "stop(first(deck)) == count(heap, Blue)"),
        (
            "move first(deck) from deck to heap\n",
            "move first(deck) from deck to heap\nadd Red to deck\n",
        ),
        (
            "move first(deck) from deck to heap\n",
            "for q in players { }\nmove first(deck) from deck to heap\n",
        ),
        ("while stop(first(deck))", "while stop(last(deck))"),
        ("count(heap, k) > 3", "count(heap, k) + 1 > 4"),
        ("move first(deck) from deck to heap", "move first(deck) from deck to deck"),
        ("move all k from table(q) to heap", "move all k from table(q) to deck"),
    ] {
        assert!(text.contains(from), "{from}");
        let v = crate::game_text(&text.replacen(from, to, 1)).expect("variant");
        assert!(!sure(&v), "{to}");
    }
}

#[test]
fn a_draw_until_a_card_respects_the_step_limit() {
    // Listing the plays without running them must not hide a run past the
    // step limit: under every limit, the moves are those of the same rules
    // with a statement that keeps the pass from firing, or both stop with
    // the same step error.
    let deck = "RRRRRRBRB";
    let g = draw_until(deck, 2, "", false);
    let walked = draw_until(deck, 2, "let n = count(heap) + 0", false);
    assert!(sure(&g) && !sure(&walked));
    let s = crate::start(&g);
    let (errors, lists) =
        same_under_limits(&g, &walked, &s, 1..400, "draw until", |m| assert_eq!(m.len(), 2));
    assert!(errors > 0 && lists > 0, "{errors} errors, {lists} lists");
}

#[test]
fn a_draw_until_a_card_that_would_overfill_a_zone_stops_with_the_error() {
    // The plays are listed unrun only while all zones together hold at
    // most 65535 pieces. 9 cards in the deck and the hands: a heap of
    // 65526 is within; 65532 is not, and playing a Red still fits (it
    // and the two Reds drawn go to the heap); with 65533 it overflows.
    for (heap, ok) in [(65526, true), (65532, true), (65533, false)] {
        let g = draw_until("RRB", heap, "", false);
        let r = both_agree(&g, &crate::start(&g), &format!("heap {heap}"));
        assert_eq!(r.is_ok(), ok, "heap {heap}: {r:?}");
        if let Err(e) = r {
            assert!(e.contains("more than 65535"), "{e}");
        }
    }
}

/// Counting a position's moves without a search gives what listing them
/// gives, under every limit of steps and of choices: the same number, or
/// the same error at the same statement. The count binds each option of
/// a decision in turn in one level and puts back the steps each listing
/// took, runs the options that must run in copies, and spends the
/// choices the search spends; positions along games of rules whose moves
/// are counted so.
#[test]
fn counting_moves_agrees_with_listing_them_under_every_limit() {
    let games = [
        ("counted", crate::game_text(crate::crosscheck::COUNTED).expect("counted game"), false),
        ("bug_off", crate::game("bug_off.game"), false),
        ("bug_off stacked", crate::game("bug_off.game"), true),
        ("breakthrough 5", crate::game_with("breakthrough.game", &[("size", 5)]), false),
        ("tictactoe", crate::game("tictactoe.game"), false),
        // The top card known, the next face down: neither tail holds, the
        // count runs the options, in copies, to the face-down card.
        ("draw until", draw_until("RRBRB", 0, "", true), false),
        // Options that run and may meet a decision (a graduation).
        ("boop", crate::game_with("boop.game", &[("size", 4), ("kittens", 3)]), false),
        // A turn that begins with a `let`: the count runs it first, in
        // the search's copy of the position.
        ("bug", crate::game("bug.game"), false),
        // Each option's run changes a local bound before the decision and
        // a set local: a later option's copy must have them as they were.
        ("locals", crate::game_text(RUN_CHANGES_LOCALS).expect("locals game"), false),
        ("loops", crate::game_text(RUN_RESTARTS_A_LOOP).expect("loops game"), false),
        // Arms whose `choose`s count alike, one tail far longer than the
        // other: under some limits the first's sure tail holds and the
        // second's runs pass the limit.
        ("arms alike", crate::game_text(ARMS_ALIKE).expect("arms game"), true),
        // A `choose` among the kinds of a constant player's hand: perft's
        // last ply counts it from that player's counters (pass 33).
        ("constant hand", crate::game_text(CONSTANT_HAND).expect("hand game"), false),
    ];
    let (mut errors, mut counts) = (0, 0);
    for (name, g, stack) in &games {
        let mut s = State::initial_seeded(g, 1).expect("setup");
        if *stack {
            s.stack(g, &mut Rng::new(1)).expect("stacked");
        }
        let mut rng = Rng::new(5);
        for ply in 0..12 {
            let limits = (1..400).map(|k| (k, 2_000_000));
            for (steps, choices) in limits.chain((1..40).map(|k| (2_000_000, k))) {
                // One game for both: the listing finds the values the
                // count remembered (Bug's memo tables), and counts their
                // steps as the count did.
                let lg = g.with_limits(tabula::compile::Limits { steps, choices });
                let ctx = format!("{name} ply {ply}, {steps} steps, {choices} choices");
                match (s.count_moves(&lg), s.legal_moves(&lg)) {
                    (Ok(n), Ok(l)) => {
                        assert_eq!(n, l.len() as u64, "{ctx}");
                        counts += 1;
                    }
                    (Err(a), Err(b)) => {
                        assert_eq!((&a.message, a.span), (&b.message, b.span), "{ctx}");
                        errors += 1;
                    }
                    (a, b) => panic!("{ctx}: counted {a:?}, listed {b:?}"),
                }
            }
            if s.turn() == tabula::Turn::Chance {
                let o = s.chance_outcomes(g).expect("outcomes");
                s.play_unchecked(g, &o[rng.below(o.len())].0).expect("resolve");
                continue;
            }
            let moves = s.legal_moves(g).expect("moves");
            if moves.is_empty() {
                break;
            }
            s.play_unchecked(g, &moves[rng.below(moves.len())]).expect("play");
        }
    }
    assert!(errors > 100 && counts > 100, "{errors} errors, {counts} counts");
}

/// A turn whose options run (in copies of the level, when counted) and
/// change locals the decision found: the number and the set of cells
/// before it. Where an option's copy kept the last run's locals, the
/// second option would meet no decision.
const RUN_CHANGES_LOCALS: &str = "players A, B\nboard square 3 by 3\npiece Stone\n\
    turn {\n\
      let n = 0\n\
      let free = collect x in cells where empty(x)\n\
      choose c in cells where empty(c)\n\
      n = n + 1\n\
      free = minus(free, c)\n\
      place Stone at c\n\
      if n == 1 and size(free) == size(collect x in cells where empty(x)) {\n\
        choose r in range(0, 1) as \"r\"\n\
      }\n\
    }\n\
    on no moves { pass }";

/// A decision inside a loop that an option's run may leave and start
/// again (the next rank's cells): a later option's copy must go on with
/// the collection the loop walked at the decision.
const RUN_RESTARTS_A_LOOP: &str = "players A, B\nboard square 3 by 3\npiece Stone\n\
    turn {\n\
      for i in range(1, 2) {\n\
        for c in collect x in cells where rank(x) == i and empty(x) {\n\
          choose k in range(0, 2) as \"k\"\n\
          if k >= 1 { place Stone at c }\n\
        }\n\
      }\n\
    }\n\
    on no moves { pass }";

/// A turn that begins with a `choose` among the kinds of player B's
/// hand, whoever moves (two kinds there, one in A's), before a draw until
/// a stop card: its sure tail holds while the deck (face up) holds one.
const CONSTANT_HAND: &str = "players A, B\n\
    piece Red { stop: 1 }\n\
    piece Blue { stop: 0 }\n\
    zone deck shared ordered\n\
    zone hand per player\n\
    zone pile per player\n\
    setup {\n\
      add 3 Blue to deck\n\
      add 2 Red to deck\n\
      add Red to hand(B)\n\
      add Blue to hand(B)\n\
      add Red to hand(A)\n\
    }\n\
    turn {\n\
      choose k in hand(B)\n\
      move k from hand(B) to pile(me)\n\
      while stop(first(deck)) == 0 {\n\
        move first(deck) from deck to pile(me)\n\
      }\n\
      move first(deck) from deck to hand(B)\n\
    }\n\
    on no moves { draw }";

/// Pass 33 is made for turns that begin with a `choose` among a counted
/// zone's kinds, or an `either` of such arms, each with a sure tail whose
/// zones are known at load (Bug Off!, in both its programs), and for no
/// other turn.
#[test]
fn a_leaf_count_is_made_where_the_turn_allows() {
    let leaf = |g: &Game| g.program().notes().iter().filter(|n| n.contains("leaf count")).count();
    assert_eq!(leaf(&crate::game("bug_off.game")), 2, "Bug Off! and its face-up program");
    assert_eq!(leaf(&crate::game_text(ARMS_ALIKE).expect("arms game")), 2);
    assert_eq!(leaf(&crate::game_text(CONSTANT_HAND).expect("hand game")), 2);
    assert_eq!(leaf(&draw_until("RRBRB", 0, "", false)), 2);
    for name in ["bug.game", "boop.game", "tictactoe.game", "snekagon.game"] {
        assert_eq!(leaf(&crate::game(name)), 0, "{name}");
    }
}

/// Two arms of an `either` whose `choose`s count alike (`check --passes`
/// says so): the kinds of the mover's hand, the same draw-until tail;
/// the second arm's own loops take about 250 steps more (six kinds,
/// three loops deep), far more than the first's sure tail is bounded by. A
/// third arm chooses among another zone's kinds: not alike.
const ARMS_ALIKE: &str = "players A, B\n\
    piece Red { red: 1 }\n\
    piece Blue { red: 0 }\n\
    piece Green { red: 0 }\n\
    piece Gold { red: 0 }\n\
    piece Grey { red: 0 }\n\
    piece Pink { red: 0 }\n\
    zone deck shared ordered hidden\n\
    zone hand per player\n\
    zone pile per player\n\
    setup {\n\
      add 6 Red to deck\n\
      add 6 Blue to deck\n\
      shuffle deck\n\
      for p in players {\n\
        move first(deck) from deck to hand(p)\n\
        move first(deck) from deck to hand(p)\n\
      }\n\
    }\n\
    turn {\n\
      either \"keep\" {\n\
        choose k in hand(me)\n\
        move k from hand(me) to pile(me)\n\
      } or \"spend\" {\n\
        choose k in hand(me)\n\
        move k from hand(me) to pile(me)\n\
        for i in kinds {\n\
          for j in kinds {\n\
            for l in kinds {\n\
              move all k from pile(me) to pile(me)\n\
            }\n\
          }\n\
        }\n\
      } or \"recall\" {\n\
        choose k in pile(me)\n\
        move k from pile(me) to hand(me)\n\
      }\n\
      while red(first(deck)) == 0 {\n\
        move first(deck) from deck to pile(me)\n\
      }\n\
      move first(deck) from deck to hand(me)\n\
    }\n\
    on no moves { draw }";

/// A remembered value (a memo table's) counts the steps its computation
/// counted, so that a step limit stops a run at the same statement
/// whether the tables are empty or hold what an earlier search learnt:
/// under every limit, a listing made right after another in the same
/// game (which finds what the first remembered before the limit stopped
/// it) gives the first's answer, and so does a move played again. Bug's
/// collections over groups (pass 23) and the groups by change of snakes
/// on a hex board (pass 13) count steps; Snekagon's and the crosschecks'
/// `snakes`' remembered conditions (passes 4 and 19) are answered in set
/// form, which counts none, and are here as rules where a table is asked
/// in a move's run rather than in its listing.
#[test]
fn a_remembered_value_counts_the_steps_it_took() {
    let mut games = vec![
        ("bug".to_string(), crate::game("bug.game")),
        ("snekagon".to_string(), crate::game("snekagon.game")),
    ];
    let wanted = ["snakes on hexhex 4", "snakes"];
    games.extend(
        crate::crosscheck::cases().into_iter().filter(|(n, _)| wanted.contains(&n.as_str())),
    );
    assert_eq!(games.len(), 4);
    let (mut errors, mut lists) = (0, 0);
    for (name, g) in &games {
        let mut s = State::initial_seeded(g, 1).expect("setup");
        let mut rng = Rng::new(3);
        for ply in 0..10 {
            let moves = s.legal_moves(g).expect("moves");
            for steps in (1..1200).step_by(7) {
                // A new game each time: its tables begin empty.
                let lg = g.with_limits(tabula::compile::Limits { steps, choices: 2_000_000 });
                let ctx = format!("{name} ply {ply}, {steps} steps");
                let key = |r: Result<Vec<tabula::Move>, tabula::RunError>| {
                    r.map_err(|e| (e.message.clone(), e.span))
                };
                let cold = key(s.legal_moves(&lg));
                let warm = key(s.legal_moves(&lg));
                assert_eq!(cold, warm, "{ctx}");
                if cold.is_ok() {
                    lists += 1;
                } else {
                    errors += 1;
                }
                for m in moves.iter().step_by(moves.len() / 4 + 1) {
                    let lg = g.with_limits(tabula::compile::Limits { steps, choices: 2_000_000 });
                    let play = || {
                        let mut t = s.clone();
                        t.play_unchecked(&lg, m).map(|_| t).map_err(|e| (e.message.clone(), e.span))
                    };
                    let cold = play();
                    assert_eq!(cold, play(), "{ctx}, {}", State::move_text(g, m));
                    if cold.is_ok() {
                        lists += 1;
                    } else {
                        errors += 1;
                    }
                }
            }
            if moves.is_empty() {
                break;
            }
            s.play_unchecked(g, &moves[rng.below(moves.len())]).expect("play");
        }
    }
    assert!(errors > 100 && lists > 100, "{errors} errors, {lists} lists");
}

/// Arms that begin with a lazy `choose`, a `random` (one move, that stops
/// there) and a `choose` followed by a `random`; no decision after chance,
/// so a playout counts the moves and plays the one it draws. The count
/// after the decisions takes steps (a step per cell).
const STOPS: &str = "players A, B\nboard square 3 by 3\npiece Stone\nzone score per player\n\
    turn {\n\
      either \"place\" { choose c in cells where empty(c)  place Stone at c }\n\
      or \"roll\" { random r in range(1, 3)  add r Stone to score(me) }\n\
      or \"pick\" { choose a in cells where empty(a)  random d in range(1, 2)  if d == 2 { place Stone at a } }\n\
      if (count x in cells: empty(x)) > 20 { win me }\n\
      if size(pieces(me)) >= 3 or count(score(me)) >= 5 { win me }\n\
    }\n\
    on no moves { draw }";

/// A `choose` followed by a lazy one (an arm of an `either`): a group,
/// whose options run from where the first decision left the steps (the
/// second's listing, a step per kind, not counted); the count after them
/// takes a step per kind.
const PAIRS: &str = "players A, B\nboard square 3 by 3\npiece Stone\npiece Red\npiece Blue\n\
    zone pool per player\n\
    setup { for p in players { add 3 Red to pool(p)  add 3 Blue to pool(p) } }\n\
    turn {\n\
      either \"place\" { choose c in cells where empty(c)  place Stone at c }\n\
      or \"trade\" { choose s in pieces(me)  choose k in pool(me)  take k from pool(me)  remove s }\n\
      if (count j in pool(me): count(pool(me), j) > 1) > 20 { win me }\n\
      if size(pieces(me)) >= 4 { win me }\n\
    }\n\
    on no moves { draw }";

/// The `let` [`behind_a_let`] puts before a turn's first statement.
const LET: &str = "\n let listed_ = 0";

/// The rules of `text` with a `let` before the turn's first decision,
/// which counts no step: the turn no longer begins with a decision, so a
/// search lists every move and nothing is counted or walked by a plan.
fn behind_a_let(text: &str) -> String {
    assert_eq!(text.matches("turn {").count(), 1);
    text.replacen("turn {", &format!("turn {{{LET}"), 1)
}

/// Errors `a` (of the rules in `text`) and `b` (of the same rules
/// [`behind_a_let`]) are the same: the same message at the same
/// statement, whose span the `let` moved.
fn assert_same_error(text: &str, a: &tabula::RunError, b: &tabula::RunError, ctx: &str) {
    let at = text.find("turn {").map_or(0, |i| i + "turn {".len()) as u32;
    let moved = |x: u32| if x >= at { x - LET.len() as u32 } else { x };
    assert_eq!(
        (&a.message, a.span.start, a.span.end),
        (&b.message, moved(b.span.start), moved(b.span.end)),
        "{ctx}"
    );
}

/// Perft above its last ply by pass 33's plan (each arm's options
/// completed and counted below, without the search's walk to them)
/// counts what the search counts, or raises its error, under every limit
/// of steps and choices: the same rules behind a `let` (no plan) are the
/// yardstick, `perft 2` and `perft 3` from positions along games with
/// a face-up deck.
#[test]
fn perft_by_the_plan_agrees_with_the_search_under_every_limit() {
    let bug_off =
        std::fs::read_to_string(crate::root().join("games/bug_off.game")).expect("game file");
    let cases = [("bug_off", bug_off, 23), ("arms alike", ARMS_ALIKE.to_string(), 1)];
    let (mut errors, mut counts) = (0, 0);
    for (name, text, every) in &cases {
        let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
        let l = crate::game_text(&behind_a_let(text)).unwrap_or_else(|e| panic!("{e}"));
        let leaf = |g: &Game| g.program().notes().iter().any(|n| n.contains("leaf count"));
        assert!(leaf(&g) && !leaf(&l), "{name}");
        for seed in 0..2 {
            let mut s = State::initial_seeded(&g, seed).expect("setup");
            s.stack(&g, &mut Rng::new(seed)).expect("stacked");
            let mut rng = Rng::new(seed + 3);
            for ply in 0..6 {
                let most = 2_000_000;
                let limits = (1..500).step_by(*every).chain([most]).map(|k| (k, most));
                for (steps, choices) in limits.chain((1..30).map(|k| (most, k))) {
                    let lim = tabula::compile::Limits { steps, choices };
                    let (g, l) = (g.with_limits(lim), l.with_limits(lim));
                    for depth in [2, 3] {
                        let ctx = format!("{name} seed {seed} ply {ply}, {steps} steps, {choices} choices, perft {depth}");
                        match (tabula::perft(&g, &s, depth), tabula::perft(&l, &s, depth)) {
                            (Ok(a), Ok(b)) => {
                                assert_eq!(a, b, "{ctx}");
                                counts += 1;
                            }
                            (Err(a), Err(b)) => {
                                assert_same_error(text, &a, &b, &ctx);
                                errors += 1;
                            }
                            (a, b) => panic!("{ctx}: by the plan {a:?}, searched {b:?}"),
                        }
                    }
                }
                let moves = s.legal_moves(&g).expect("moves");
                if moves.is_empty() {
                    break;
                }
                s.play_unchecked(&g, &moves[rng.below(moves.len())]).expect("play");
            }
        }
    }
    assert!(errors > 100 && counts > 100, "{errors} errors, {counts} counts");
}

/// Pass 34: a `while` whose test reads only the kind of a deck's top
/// card answers from a table made at load for the kinds whose test takes
/// no step and raises nothing, and asks the test itself for the others (a
/// quantifier's steps, a division by zero) and for an empty deck. The
/// moves (the rules with reveals, where the test follows them in ops) and
/// perft from a face-up deck (the rules without reveals, where the `while`
/// is one closure) are those of the same test with `and me == me`
/// appended (which reads `me`, so the pass leaves it alone), and so are
/// the errors, under every step limit, along games.
#[test]
fn a_test_of_the_top_card_answers_from_its_table_as_the_test_does() {
    const MORE: &str = " and me == me";
    let game = |test: &str| {
        format!(
            "players A, B\npiece Red {{ v: 1 }}\npiece Blue {{ v: 0 }}\npiece Gold {{ v: 2 }}\n\
             zone deck shared ordered\nzone hand per player\nzone heap shared\n\
             setup {{\n add 2 Red to deck\n add Gold to deck\n add 2 Blue to deck\n\
               add Red to deck\n add Blue to deck\n\
               for p in players {{ add Red to hand(p)  add Blue to hand(p)  add Gold to hand(p) }}\n}}\n\
             turn {{\n choose c in hand(me)\n move c from hand(me) to heap\n\
               while {test} {{\n move first(deck) from deck to heap\n }}\n\
               if count(deck) > 0 {{ move first(deck) from deck to hand(next(me)) }}\n}}\n\
             on no moves {{ draw }}"
        )
    };
    let tests = [
        "v(first(deck)) == 1",
        "any j in kinds: j == first(deck) and v(j) == 1",
        "4 / v(first(deck)) > 3",
    ];
    let (mut errors, mut counts) = (0, 0);
    for test in tests {
        let (a_text, b_text) = (game(test), game(&format!("{test}{MORE}")));
        let a = crate::game_text(&a_text).unwrap_or_else(|e| panic!("{e}\n{a_text}"));
        let b = crate::game_text(&b_text).unwrap_or_else(|e| panic!("{e}\n{b_text}"));
        // The rules with reveals (moves) and without (perft from a
        // face-up position) both take the table.
        let table = |g: &Game, up: &str| {
            g.program().notes().iter().any(|n| n.starts_with(&format!("{up}end kind")))
        };
        for up in ["", "face up: "] {
            assert!(table(&a, up) && !table(&b, up), "{test}");
        }
        // `b`'s spans after the appended words, where `a`'s are.
        let at = (a_text.find(test).expect("test") + test.len()) as u32;
        let moved = |x: u32| if x >= at + MORE.len() as u32 { x - MORE.len() as u32 } else { x };
        for seed in 0..3 {
            let mut s = State::initial_seeded(&a, seed).expect("setup");
            let mut rng = Rng::new(seed);
            for ply in 0..8 {
                for steps in 1..60 {
                    let lim = tabula::compile::Limits { steps, ..Default::default() };
                    let ctx = format!("{test}, seed {seed}, ply {ply}, {steps} steps");
                    let (x, y) = (a.with_limits(lim), b.with_limits(lim));
                    let same_error = |x: &tabula::RunError, y: &tabula::RunError| {
                        assert_eq!(
                            (&x.message, x.span.start, x.span.end),
                            (&y.message, moved(y.span.start), moved(y.span.end)),
                            "{ctx}"
                        );
                    };
                    match (tabula::perft(&x, &s, 2), tabula::perft(&y, &s, 2)) {
                        (Ok(x), Ok(y)) => {
                            assert_eq!(x, y, "{ctx}");
                            counts += 1;
                        }
                        (Err(x), Err(y)) => {
                            same_error(&x, &y);
                            errors += 1;
                        }
                        (x, y) => panic!("{ctx}: by the table {x:?}, asked {y:?}"),
                    }
                    match (s.legal_moves(&x), s.legal_moves(&y)) {
                        (Ok(x), Ok(y)) => assert_eq!(x, y, "{ctx}"),
                        (Err(x), Err(y)) => same_error(&x, &y),
                        (x, y) => panic!("{ctx}: moves by the table {x:?}, asked {y:?}"),
                    }
                }
                let Ok(moves) = s.legal_moves(&a) else { break };
                if moves.is_empty() {
                    break;
                }
                s.play_unchecked(&a, &moves[rng.below(moves.len())]).expect("play");
            }
        }
    }
    assert!(errors > 100 && counts > 100, "{errors} errors, {counts} counts");
}

/// A playout that counts the moves and plays only the one it draws
/// (`Program::count_playouts`) takes the course of one that lists them
/// (the same rules behind a `let` before the first decision, which counts
/// no step: the search then lists every move), under every limit of
/// steps and of choices: the same plies, branching, result and last
/// position, or the same error. The last position of the rules behind the `let` is the
/// same, as the `let`'s local is no part of a position.
#[test]
fn a_counted_playout_takes_the_listed_course_under_every_limit() {
    let listed = behind_a_let;
    let file = |name: &str| {
        std::fs::read_to_string(crate::root().join("games").join(name)).expect("game file")
    };
    let (bug_off, breakthrough) = (file("bug_off.game"), file("breakthrough.game"));
    // The larger games every 37 steps, the small ones every step.
    let cases = [
        ("bug_off", bug_off.clone(), false, 37),
        ("bug_off stacked", bug_off, true, 37),
        ("breakthrough", breakthrough, false, 37),
        ("stops", STOPS.to_string(), false, 1),
        ("pairs", PAIRS.to_string(), false, 1),
        // Counted by pass 33's plan: a face-down deck (the arms' chance
        // tails) and a stacked one (their sure tails).
        ("arms alike", ARMS_ALIKE.to_string(), false, 1),
        ("arms alike stacked", ARMS_ALIKE.to_string(), true, 1),
    ];
    let (mut errors, mut runs) = (0, 0);
    for (name, text, stack, every) in &cases {
        let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
        let l = crate::game_text(&listed(text)).unwrap_or_else(|e| panic!("{e}"));
        let counted = "counted playouts";
        assert!(g.program().notes().iter().any(|n| n.starts_with(counted)), "{name}");
        assert!(!l.program().notes().iter().any(|n| n.starts_with(counted)), "{name}");
        for seed in 0..3 {
            let mut s = State::initial_seeded(&g, seed).expect("setup");
            if *stack {
                s.stack(&g, &mut Rng::new(seed)).expect("stacked");
            }
            let most = 2_000_000;
            let limits = (1..600).step_by(*every).chain([most]).map(|k| (k, most));
            for (steps, choices) in limits.chain((1..12).map(|k| (most, k))) {
                let lim = tabula::compile::Limits { steps, choices };
                let (g, l) = (g.with_limits(lim), l.with_limits(lim));
                let ctx = format!("{name}, seed {seed}, {steps} steps, {choices} choices");
                let a = tabula::playout(&g, &s, &mut Rng::new(seed + 5), 60);
                let b = tabula::playout(&l, &s, &mut Rng::new(seed + 5), 60);
                match (a, b) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(
                            (a.plies, a.branching, a.outcome, &a.last),
                            (b.plies, b.branching, b.outcome, &b.last),
                            "{ctx}"
                        );
                        runs += 1;
                    }
                    (Err(a), Err(b)) => {
                        assert_same_error(text, &a, &b, &ctx);
                        errors += 1;
                    }
                    (a, b) => panic!("{ctx}: counted {a:?}, listed {b:?}"),
                }
            }
        }
    }
    assert!(errors > 10 && runs > 10, "{errors} errors, {runs} runs");
}

/// A rule that fails is reported at its statement: a `setup` that cannot
/// be carried out, and a move whose `require` fails after its decision
/// (played without the legality check, as a recorded game may be).
#[test]
fn a_failed_rule_is_reported_at_its_statement() {
    let text = "players A, B\nboard square 3 by 3\npiece Stone\nzone pool per player\n\
                setup { add 1 Stone to pool(A)  take 2 Stone from pool(A) }\n\
                turn { choose c in cells where empty(c) }";
    let g = crate::game_text(text).expect("game");
    let e = State::initial(&g).expect_err("setup fails");
    assert_eq!(pointed(&g, &e), "take 2 Stone from pool(A)", "{}", e.message);
    let text = "players A, B\nboard square 3 by 3\npiece Stone\n\
                turn {\n  choose c in cells where empty(c)\n  place Stone at c\n  \
                require size(pieces(me)) < 2\n}\non no moves { pass }";
    let g = crate::game_text(text).expect("game");
    let s0 = crate::start(&g);
    let at_c3 = s0.legal_moves(&g).expect("moves").pop().expect("a move");
    let s = crate::play(&g, &crate::play(&g, &s0, "a1"), "b1");
    assert!(
        s.legal_moves(&g).expect("moves").iter().all(|m| m.stuck),
        "A may place no second stone"
    );
    let e = s.clone().play_unchecked(&g, &at_c3).expect_err("the require fails");
    assert_eq!(pointed(&g, &e), "require size(pieces(me)) < 2", "{}", e.message);
}
