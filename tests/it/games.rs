//! Every game in `games/`: a seeded playthrough snapshot and property tests
//! over seeded random playouts.

use tabula::rng::Rng;
use tabula::wire::StateRepr;
use tabula::{render, Game, Source, State};

fn load(path: &std::path::Path) -> Game {
    let text = std::fs::read_to_string(path).expect("game file");
    let name = format!("games/{}", path.file_name().expect("name").to_string_lossy());
    Game::load(&Source::new(name, text), &[])
        .unwrap_or_else(|d| panic!("{}", crate::render_problems(&d.problems)))
}

/// Per turn: the board, the number of legal moves and the move chosen by a
/// seeded random player; then the outcome.
pub fn playthrough(g: &Game, seed: u64, cap: u32) -> String {
    let mut out = format!("game: {}\nplayers: {}\nseed: {seed}\n", g.name, g.players.join(", "));
    let mut s = State::initial_seeded(g, seed).expect("setup");
    let mut rng = Rng::new(seed);
    for turn in 1..=cap {
        let moves = s.legal_moves(g).expect("moves");
        out.push_str(&format!("\n--- turn {turn}\n{}", render(g, &s)));
        if moves.is_empty() {
            let o = s.outcome(g).expect("outcome").expect("no moves means game over");
            out.push_str(&format!("outcome: {}\n", o.describe(g)));
            return out;
        }
        if s.turn() == tabula::Turn::Chance {
            // Chance decides, with its weights.
            let outcomes = s.chance_outcomes(g).expect("outcomes");
            let w: Vec<u32> = outcomes.iter().map(|o| o.1).collect();
            let i = tabula::rng::pick_weighted(&w, w.len(), &mut rng).expect("an outcome");
            let m = &outcomes[i].0;
            out.push_str(&format!(
                "chance: {} (weight {} of {})\n",
                State::move_text(g, m),
                w[i],
                w.iter().sum::<u32>()
            ));
            s = s.play(g, m).expect("outcome");
            continue;
        }
        let m = &moves[rng.below(moves.len())];
        out.push_str(&format!(
            "legal moves: {}\nchosen: {}\n",
            moves.len(),
            State::move_text(g, m)
        ));
        s = s.play(g, m).expect("legal");
    }
    out.push_str("unfinished (turn cap)\n");
    out
}

#[test]
fn playthrough_snapshots() {
    insta::glob!(concat!(env!("CARGO_MANIFEST_DIR"), "/games"), "*.game", |path| {
        let g = load(path);
        insta::assert_snapshot!("playthrough", playthrough(&g, 1, 300));
    });
}

/// Random playouts: every listed move is accepted by the checked `play`,
/// the move list is empty exactly when the game is over, games end within
/// the cap, and every state survives the text and JSON round trips.
#[test]
fn random_playouts_keep_the_invariants() {
    for path in crate::files(&crate::root().join("games"), "game") {
        let g = load(&path);
        for seed in 0..4 {
            let mut rng = Rng::new(seed);
            let mut s = State::initial_seeded(&g, seed).expect("setup");
            let mut finished = false;
            for _ in 0..1000 {
                let text = s.to_text(&g);
                assert_eq!(State::from_text(&g, &text).expect("reads back"), s, "{text}");
                let repr = StateRepr::new(&g, &s);
                let json = serde_json::to_string(&repr).expect("json");
                let back: StateRepr = serde_json::from_str(&json).expect("json back");
                assert_eq!(back.to_state(&g).expect("state"), s);

                let moves = s.legal_moves(&g).expect("moves");
                let over = s.outcome(&g).expect("outcome").is_some();
                assert_eq!(moves.is_empty(), over, "{}: moves empty iff over\n{text}", g.name);
                if over {
                    finished = true;
                    break;
                }
                // Notation is unambiguous, and the chosen move reads back.
                let mut texts: Vec<String> =
                    moves.iter().map(|m| State::move_text(&g, m)).collect();
                texts.sort();
                texts.dedup();
                assert_eq!(texts.len(), moves.len(), "two moves print alike");
                let m = &moves[rng.below(moves.len())];
                let t = State::move_text(&g, m);
                assert_eq!(&s.parse_move(&g, &t).expect("notation reads back"), m, "{t}");
                s = s.play(&g, m).expect("every generated move plays");
            }
            assert!(finished, "{}: seed {seed} did not finish in 1000 turns", g.name);
        }
    }
}
