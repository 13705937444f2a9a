//! `cargo bench`: playouts per second and perft nodes per second for every
//! bundled game, in one shape: `game, playouts/s, moves/s, playouts`.
//! Perft counts are asserted against `tests/perft/`, so a fast but wrong
//! generator fails here too.

use std::time::Instant;
use tabula::rng::Rng;
use tabula::{perft, playout, Game, Source, State};

fn load(name: &str) -> Game {
    let path = format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("game file");
    Game::load(&Source::new(path, text), &[]).expect("valid game")
}

fn main() {
    let cases: &[(&str, u32, u32, u64)] = &[
        ("boop.game", 200, 4, 1_421_952),
        ("bug.game", 500, 3, 13_002),
        ("tictactoe.game", 5000, 9, 127_872),
        ("connect4.game", 1000, 6, 117_649),
        ("hex.game", 100, 2, 14_520),
        ("snekagon.game", 20, 2, 194_388),
        ("bug_off.game", 1000, 1, 6),
        ("breakthrough.game", 200, 4, 256_036),
    ];
    println!("game, playouts/s, moves/s, playouts, perft depth, perft nodes/s");
    for &(name, n, depth, nodes) in cases {
        let g = load(name);
        let s = State::initial(&g).expect("setup");
        let mut rng = Rng::new(1);
        let t = Instant::now();
        let mut moves = 0u64;
        for _ in 0..n {
            // Each playout deals afresh (for games that shuffle).
            let s = State::initial_seeded(&g, rng.next_u64()).expect("setup");
            moves += u64::from(playout(&g, &s, &mut rng, 1000).expect("playout").plies);
        }
        let secs = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let got = perft(&g, &s, depth).expect("perft");
        assert_eq!(got, nodes, "{name}: perft({depth})");
        let psecs = t.elapsed().as_secs_f64();
        println!(
            "{}, {:.1}, {:.0}, {n}, {depth}, {:.0}",
            g.name,
            f64::from(n) / secs,
            moves as f64 / secs,
            nodes as f64 / psecs
        );
    }
}
