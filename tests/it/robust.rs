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
            let Ok(g) = Game::load(&Source::new("m.game", m.clone()), &[]) else { continue };
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
