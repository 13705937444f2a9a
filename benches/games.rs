//! `cargo bench`: playouts per second and perft nodes per second for every
//! bundled game, and for boop, Bug, Snekagon and Bug Off! the same numbers
//! for a hand-written native engine (`benches/native/`) and the ratios
//! native / interpreter, in one table. Both sides run the same number of
//! playouts (uniformly random complete moves, capped at 1000 plies) and
//! the same perft depth from the same position (a perft that finishes
//! quickly is repeated and the rate averaged).
//!
//! The machine's speed drifts, by up to 2× and for seconds at a time, so
//! the two engines are measured in short turns: `PAIRS` pairs of a batch
//! of playouts each, then `PAIRS` pairs of perfts, the interpreter first
//! in even pairs and the native engine first in odd ones. Each ratio is
//! the median of its pairs' ratios (the two halves of a pair are tens of
//! milliseconds apart, so a drift moves both alike); each rate printed is
//! the median of its measurements. Within one process the pairs agree
//! closely, but the machine also has slower phases that last from one
//! process to the next and do not slow both engines alike (see "How to
//! measure" in `docs/performance.md`): compare several runs.
//!
//! Perft counts are asserted (against `tests/perft/`, and the natives
//! against the interpreter), so a fast but wrong generator fails here too.
//! `cargo bench -- boop bug_off` measures only the games whose file names
//! contain one of the words.

mod native;

use std::time::Instant;
use tabula::rng::Rng;
use tabula::{perft, playout, playout_listed, Game, Source, State};

/// Playout length cap, for both sides.
const MAX_PLIES: u32 = 1000;
/// A perft is repeated until it has run this long.
const MIN_PERFT_SECS: f64 = 0.05;
/// Measurements of each kind per game and engine (pairs, where there is
/// a native engine); the figures printed are the medians.
const PAIRS: usize = 9;

fn load(name: &str) -> Game {
    let path = format!("{}/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("game file");
    Game::load(&Source::new(path, text), &[]).expect("valid game")
}

/// One engine of a game: a random playout (returning its plies) and the
/// perft (returning its count), each run as often as asked.
struct Engine<'a> {
    playout: Box<dyn FnMut() -> u32 + 'a>,
    perft: Box<dyn FnMut() -> u64 + 'a>,
}

/// `n` playouts, timed: playouts and moves per second.
fn time_playouts(e: &mut Engine<'_>, n: u32) -> (f64, f64) {
    let t = Instant::now();
    let mut moves = 0u64;
    for _ in 0..n {
        moves += u64::from((e.playout)());
    }
    let secs = t.elapsed().as_secs_f64();
    (f64::from(n) / secs, moves as f64 / secs)
}

/// The perft, repeated until it has run for `MIN_PERFT_SECS` (a fast
/// engine's short perft is otherwise too quick to time): its count and
/// nodes per second.
fn time_perft(e: &mut Engine<'_>) -> (u64, f64) {
    let t = Instant::now();
    let (nodes, mut runs) = ((e.perft)(), 1u32);
    while t.elapsed().as_secs_f64() < MIN_PERFT_SECS {
        assert_eq!((e.perft)(), nodes, "perft is deterministic");
        runs += 1;
    }
    (nodes, f64::from(runs) * nodes as f64 / t.elapsed().as_secs_f64())
}

/// Runs `f` on both engines (the native one, when there is one, first
/// where `native_first`): the interpreter's result and the native's.
fn both<T>(
    interp: &mut Engine<'_>,
    native: Option<&mut Engine<'_>>,
    native_first: bool,
    mut f: impl FnMut(&mut Engine<'_>) -> T,
) -> (T, Option<T>) {
    match native {
        Some(nat) if native_first => {
            let b = f(nat);
            (f(interp), Some(b))
        }
        Some(nat) => {
            let a = f(interp);
            (a, Some(f(nat)))
        }
        None => (f(interp), None),
    }
}

/// The native engine of a game, from the interpreter's starting position
/// `start` (Bug Off!: its deal, for perft; playouts deal afresh).
fn native_engine<'a>(name: &str, start: &State, g: &Game, depth: u32) -> Option<Engine<'a>> {
    use native::{boop, bug, bug_off, snekagon};
    Some(match name {
        "boop.game" => {
            let e = boop::Game::new();
            let s = e.initial();
            native_of(e, s, depth, |e, s, r| e.playout(s, r, MAX_PLIES).0, boop::Game::perft)
        }
        "bug.game" => {
            let e = bug::Game::new(3);
            let s = e.initial();
            native_of(e, s, depth, |e, s, r| e.playout(s, r, MAX_PLIES).0, bug::Game::perft)
        }
        // Both draw their moves (tabula: pass 15); the listing figures are
        // the `(listed)` row.
        "snekagon.game" => {
            let e = snekagon::Game::new(6);
            let s = e.initial();
            let play = |e: &snekagon::Game, s: &_, r: &mut _| e.playout_drawn(s, r, MAX_PLIES).0;
            native_of(e, s, depth, play, snekagon::Game::perft)
        }
        "snekagon.game listed" => {
            let e = snekagon::Game::new(6);
            let s = e.initial();
            native_of(e, s, depth, |e, s, r| e.playout(s, r, MAX_PLIES).0, snekagon::Game::perft)
        }
        "bug_off.game" => {
            let e = bug_off::Game::new(2, 10);
            let deal = e.position(&start.to_text(g)).expect("the interpreter's deal");
            let play = |e: &bug_off::Game, _: &_, r: &mut native::Rng| {
                let s = e.deal(r.next_u64());
                e.playout(&s, r, MAX_PLIES).0
            };
            native_of(e, deal, depth, play, bug_off::Game::perft)
        }
        _ => return None,
    })
}

/// A native engine `e` as an [`Engine`]: its playouts by `play` (from `s`
/// or dealing afresh), its perft of `depth` from `s`.
fn native_of<'a, G: 'a, S: 'a>(
    e: G,
    s: S,
    depth: u32,
    play: impl Fn(&G, &S, &mut native::Rng) -> u32 + 'a,
    perft: impl Fn(&G, &S, u32) -> u64 + 'a,
) -> Engine<'a> {
    let game = std::rc::Rc::new((e, s));
    let other = std::rc::Rc::clone(&game);
    let mut rng = native::Rng::new(1);
    Engine {
        playout: Box::new(move || play(&game.0, &game.1, &mut rng)),
        perft: Box::new(move || perft(&other.0, &other.1, depth)),
    }
}

fn main() {
    // game, playouts per batch, perft depth, perft nodes (`None`: whatever
    // the native engine counts from the same deal).
    let cases: &[(&str, u32, u32, Option<u64>)] = &[
        ("boop.game", 70, 4, Some(1_421_952)),
        ("bug.game", 170, 3, Some(13_002)),
        ("tictactoe.game", 1700, 9, Some(127_872)),
        ("connect4.game", 340, 6, Some(117_649)),
        ("hex.game", 35, 2, Some(14_520)),
        ("snekagon.game", 70, 2, Some(194_388)),
        ("snekagon.game listed", 7, 2, Some(194_388)),
        ("bug_off.game", 340, 7, None),
        ("breakthrough.game", 70, 4, Some(256_036)),
        ("othello.game", 35, 6, Some(8_200)),
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
        let mut rng = Rng::new(1);
        let mut interp = Engine {
            playout: Box::new(|| {
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
            }),
            perft: Box::new(|| perft(&g, &s, depth).expect("perft")),
        };
        let mut native = native_engine(case, &s, &g, depth);
        // Pairs of playouts, then pairs of perfts (see the notes at the top).
        let (mut plays, mut nat_plays) = (Vec::new(), Vec::new());
        for i in 0..PAIRS {
            let (a, b) = both(&mut interp, native.as_mut(), i % 2 == 1, |e| time_playouts(e, n));
            plays.push(a);
            nat_plays.extend(b);
        }
        let (mut perfts, mut nat_perfts) = (Vec::new(), Vec::new());
        for i in 0..PAIRS {
            let (a, b) = both(&mut interp, native.as_mut(), i % 2 == 1, time_perft);
            if let Some(nodes) = nodes {
                assert_eq!(a.0, nodes, "{name}: perft({depth})");
            }
            if let Some(b) = b {
                assert_eq!(b.0, a.0, "{name}: native perft({depth})");
                nat_perfts.push(b.1);
            }
            perfts.push(a.1);
        }
        let mut line = format!(
            "{}{}, {:.1}, {:.0}, {n}, {depth}, {:.0}",
            g.name,
            if listed { " (listed)" } else { "" },
            median(plays.iter().map(|x| x.0).collect()),
            median(plays.iter().map(|x| x.1).collect()),
            median(perfts.clone())
        );
        if native.is_some() {
            let ratio =
                |a: &[f64], b: &[f64]| median(a.iter().zip(b).map(|(x, y)| x / y).collect());
            let nat_rates: Vec<f64> = nat_plays.iter().map(|x| x.0).collect();
            let rates: Vec<f64> = plays.iter().map(|x| x.0).collect();
            line.push_str(&format!(
                ", {:.1}, {:.0}, {:.0}, {:.1}, {:.1}",
                median(nat_rates.clone()),
                median(nat_plays.iter().map(|x| x.1).collect()),
                median(nat_perfts.clone()),
                ratio(&nat_rates, &rates),
                ratio(&nat_perfts, &perfts)
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
