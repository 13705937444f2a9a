//! `cargo bench`: playouts per second and perft nodes per second for every
//! bundled game, and for boop, Bug, Snekagon and Bug Off! the same numbers
//! for a hand-written native engine (`benches/native/`) and the ratios
//! native / interpreter, in one table. Both sides run the same number of
//! playouts (uniformly random complete moves, capped at 1000 plies) and
//! the same perft depth from the same position (a perft that finishes
//! quickly is repeated and the rate averaged). Each game is measured in
//! three rounds, the interpreter and the native engine in turn; the rates
//! printed are the medians of the rounds, and each ratio is the median of
//! the rounds' ratios, so a drift of the machine's speed between rounds
//! does not move it. Perft counts are asserted (against `tests/perft/`,
//! and the natives against the interpreter), so a fast but wrong
//! generator fails here too. `cargo bench -- boop bug_off` measures only
//! the games whose file names contain one of the words.

mod native;

use std::time::Instant;
use tabula::rng::Rng;
use tabula::{perft, playout, playout_listed, Game, Source, State};

/// Playout length cap, for both sides.
const MAX_PLIES: u32 = 1000;
/// A perft is repeated until it has run this long.
const MIN_PERFT_SECS: f64 = 0.2;
/// Rounds of measurement per game, the interpreter and the native engine
/// in turn; the figures printed are the medians.
const ROUNDS: u32 = 3;

fn load(name: &str) -> Game {
    let path = format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("game file");
    Game::load(&Source::new(path, text), &[]).expect("valid game")
}

/// Speeds measured for one engine.
struct Speed {
    playouts_per_s: f64,
    moves_per_s: f64,
    nodes: u64,
    nodes_per_s: f64,
}

/// Times `n` playouts (each returns its plies) and the perft, the perft
/// repeated until it has run for `MIN_PERFT_SECS` (a fast engine's short
/// perft is otherwise too quick to time).
fn measure(n: u32, mut one_playout: impl FnMut() -> u32, mut perft: impl FnMut() -> u64) -> Speed {
    let t = Instant::now();
    let mut moves = 0u64;
    for _ in 0..n {
        moves += u64::from(one_playout());
    }
    let secs = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (nodes, mut runs) = (perft(), 1u32);
    while t.elapsed().as_secs_f64() < MIN_PERFT_SECS {
        assert_eq!(perft(), nodes, "perft is deterministic");
        runs += 1;
    }
    let psecs = t.elapsed().as_secs_f64();
    Speed {
        playouts_per_s: f64::from(n) / secs,
        moves_per_s: moves as f64 / secs,
        nodes,
        nodes_per_s: f64::from(runs) * nodes as f64 / psecs,
    }
}

/// The native engine's speeds for a game, from the interpreter's starting
/// position `start` (Bug Off!: its deal, for perft; playouts deal afresh).
fn native_speed(name: &str, start: &State, g: &Game, n: u32, depth: u32) -> Option<Speed> {
    let mut rng = native::Rng::new(1);
    Some(match name {
        "boop.game" => {
            let e = native::boop::Game::new();
            let s = e.initial();
            measure(n, || e.playout(&s, &mut rng, MAX_PLIES).0, || e.perft(&s, depth))
        }
        "bug.game" => {
            let e = native::bug::Game::new(3);
            let s = e.initial();
            measure(n, || e.playout(&s, &mut rng, MAX_PLIES).0, || e.perft(&s, depth))
        }
        "snekagon.game" => {
            // Both draw their moves (tabula: pass 15); the listing figures
            // are the `(listed)` row.
            let e = native::snekagon::Game::new(6);
            let s = e.initial();
            measure(n, || e.playout_drawn(&s, &mut rng, MAX_PLIES).0, || e.perft(&s, depth))
        }
        "snekagon.game listed" => {
            let e = native::snekagon::Game::new(6);
            let s = e.initial();
            measure(n, || e.playout(&s, &mut rng, MAX_PLIES).0, || e.perft(&s, depth))
        }
        "bug_off.game" => {
            let e = native::bug_off::Game::new(2, 10);
            let deal = e.position(&start.to_text(g)).expect("the interpreter's deal");
            measure(
                n,
                || {
                    let s = e.deal(rng.next_u64());
                    e.playout(&s, &mut rng, MAX_PLIES).0
                },
                || e.perft(&deal, depth),
            )
        }
        _ => return None,
    })
}

fn main() {
    // game, playouts, perft depth, perft nodes (`None`: whatever the native
    // engine counts from the same deal).
    let cases: &[(&str, u32, u32, Option<u64>)] = &[
        ("boop.game", 200, 4, Some(1_421_952)),
        ("bug.game", 500, 3, Some(13_002)),
        ("tictactoe.game", 5000, 9, Some(127_872)),
        ("connect4.game", 1000, 6, Some(117_649)),
        ("hex.game", 100, 2, Some(14_520)),
        ("snekagon.game", 200, 2, Some(194_388)),
        ("snekagon.game listed", 20, 2, Some(194_388)),
        ("bug_off.game", 1000, 7, None),
        ("breakthrough.game", 200, 4, Some(256_036)),
    ];
    println!(
        "game, playouts/s, moves/s, playouts, perft depth, perft nodes/s, \
         native playouts/s, native moves/s, native perft nodes/s, \
         playouts native/interp, perft native/interp"
    );
    // `cargo bench -- boop bug_off`: only the cases whose file name
    // contains one of the words (cargo's own `--bench` flag is passed over).
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    for &(case, n, depth, nodes) in cases {
        if !only.is_empty() && !only.iter().any(|w| case.contains(w.as_str())) {
            continue;
        }
        // `NAME listed`: playouts that list every move on both sides.
        let (name, listed) = match case.strip_suffix(" listed") {
            Some(name) => (name, true),
            None => (case, false),
        };
        let g = load(name);
        let mut s = State::initial(&g).expect("setup");
        // Perft from a referee's deal: the deck in a fixed order (a
        // face-down deck would make every draw a chance node to expand).
        s.stack(&g, &mut Rng::new(7)).expect("stacked deal");
        // Each playout deals afresh when the setup has chance events (as
        // `tabula playout` does); otherwise the start is the same for all.
        let dealt = (!g.setup_has_chance()).then(|| State::initial(&g).expect("setup"));
        // The interpreter and the native engine in turn, ROUNDS times: the
        // machine's speed drifts, so each ratio is taken within a round and
        // the median of the rounds is printed (the rates too).
        let mut interps = Vec::new();
        let mut natives = Vec::new();
        for round in 0..ROUNDS {
            let mut rng = Rng::new(1 + u64::from(round));
            let interp = measure(
                n,
                || {
                    let deal = rng.next_u64();
                    let dealt_now;
                    let s = match &dealt {
                        Some(s) => s,
                        None => {
                            dealt_now = State::initial_seeded(&g, deal).expect("setup");
                            &dealt_now
                        }
                    };
                    if listed {
                        playout_listed(&g, s, &mut rng, MAX_PLIES).expect("playout").plies
                    } else {
                        playout(&g, s, &mut rng, MAX_PLIES).expect("playout").plies
                    }
                },
                || perft(&g, &s, depth).expect("perft"),
            );
            if let Some(nodes) = nodes {
                assert_eq!(interp.nodes, nodes, "{name}: perft({depth})");
            }
            if let Some(nat) = native_speed(case, &s, &g, n, depth) {
                assert_eq!(nat.nodes, interp.nodes, "{name}: native perft({depth})");
                natives.push(nat);
            }
            interps.push(interp);
        }
        let interp = Medians::of(&interps);
        let mut line = format!(
            "{}{}, {:.1}, {:.0}, {n}, {depth}, {:.0}",
            g.name,
            if listed { " (listed)" } else { "" },
            interp.playouts_per_s,
            interp.moves_per_s,
            interp.nodes_per_s
        );
        if natives.len() == interps.len() {
            let nat = Medians::of(&natives);
            let ratio = |f: fn(&Speed) -> f64| {
                median(natives.iter().zip(&interps).map(|(a, b)| f(a) / f(b)).collect())
            };
            line.push_str(&format!(
                ", {:.1}, {:.0}, {:.0}, {:.1}, {:.1}",
                nat.playouts_per_s,
                nat.moves_per_s,
                nat.nodes_per_s,
                ratio(|x| x.playouts_per_s),
                ratio(|x| x.nodes_per_s)
            ));
        } else {
            line.push_str(", -, -, -, -, -");
        }
        println!("{line}");
    }
}

/// The median of some figures (the upper middle one of an even count).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The median of each rate over several measurements.
struct Medians {
    playouts_per_s: f64,
    moves_per_s: f64,
    nodes_per_s: f64,
}

impl Medians {
    fn of(runs: &[Speed]) -> Medians {
        let m = |f: fn(&Speed) -> f64| median(runs.iter().map(f).collect());
        Medians {
            playouts_per_s: m(|x| x.playouts_per_s),
            moves_per_s: m(|x| x.moves_per_s),
            nodes_per_s: m(|x| x.nodes_per_s),
        }
    }
}
