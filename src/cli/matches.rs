//! `tabula match`: engines play each other, and the results are counted
//! with confidence intervals.
//!
//! Entrants `--a`, `--b`, ... take the seats in order; with fewer entrants
//! than players, the last one fills the remaining seats (`--a mcts --b
//! random` in a four-player game is one search against three random
//! players). Game `i` rotates the seats by `i`, and is played from its own
//! seed (the deal, every engine's random source, chance) derived from
//! `--seed` and `i` alone: with `-j`, games run in parallel and the results
//! are the same whatever the number of threads (engines search on one
//! thread each).
//!
//! Scoring: a game is worth 1 in total; a win gives it to the winner, a win
//! shared by `k` players `1/k` to each, a draw or an unfinished game `1/n`
//! to each of the `n` seats. An entrant's score is the sum over its seats;
//! its share is its score over the games, with a 95% Wilson score interval.
//! With two players and two entrants, the share also gives an Elo
//! difference (`400 log10(share / (1 - share))`, the interval from the
//! share's interval).

use super::common::{load, print_json, run_err, start, Ctx};
use super::playout::game_seed;
use super::{par, progress, usage, From, Result};
use miette::miette;
use serde::Serialize;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tabula::play::{Player, Spec};
use tabula::rng::Rng;
use tabula::wire::Record;
use tabula::{Game, Outcome, State, Turn};

/// The options of `tabula match`.
pub struct Options<'a> {
    /// The game file.
    pub file: &'a str,
    /// The entrants' engines, `--a` first.
    pub entrants: Vec<String>,
    /// Number of games.
    pub games: u64,
    /// Turns after which a game stops unfinished.
    pub max_plies: u32,
    /// Games played at the same time.
    pub jobs: usize,
    /// Where to save one record per game.
    pub record: Option<&'a str>,
    /// JSON instead of text.
    pub json: bool,
    /// The starting position.
    pub from: &'a From,
}

/// One game's result.
struct Game1 {
    /// Each seat's reward in units of 1/840.
    reward: Vec<u64>,
    /// The entrant at each seat.
    seats: Vec<usize>,
    outcome: Option<Outcome>,
    /// Time each seat spent choosing, and its number of decisions.
    time: Vec<(Duration, u64)>,
    record: Option<Record>,
}

const UNIT: u64 = 840;

/// Entrant letters.
const LETTERS: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];

/// Runs `tabula match`.
pub fn run(ctx: &Ctx, o: &Options) -> Result<()> {
    let g = load(ctx, o.file)?;
    let players = g.players.len();
    let specs: Vec<Spec> = o
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| e.parse::<Spec>().map_err(|m| usage(miette!("--{}: {m}", LETTERS[i]))))
        .collect::<Result<_>>()?;
    if specs.len() < 2 {
        return Err(usage(miette!(
            help = "e.g. `tabula match FILE --a mcts:1000 --b random`",
            "a match needs two entrants at least (--a and --b)"
        )));
    }
    if specs.len() > players {
        return Err(usage(miette!(
            "{} entrants for a game of {players} players: at most one entrant per seat",
            specs.len()
        )));
    }
    let seed = ctx.seed();
    let base = start(&ctx.silenced(), &g, o.from)?;
    let start_text = o.from.is_set().then(|| base.to_text(&g));
    if let Some(dir) = o.record {
        std::fs::create_dir_all(dir)
            .map_err(|e| usage(miette!("cannot create folder `{dir}`: {e}")))?;
    }
    // The seat list of game 0: entrants in order, the last one repeated.
    let lineup: Vec<usize> = (0..players).map(|j| j.min(specs.len() - 1)).collect();
    let pb = progress::bar(ctx, o.games, "games");
    let running = Mutex::new(vec![0u64; specs.len()]);
    let names: Vec<String> = (0..specs.len()).map(|i| LETTERS[i].to_string()).collect();
    let overrides = ctx.overrides()?;
    let started = Instant::now();
    let results = par::map(
        o.games as usize,
        o.jobs,
        |i| -> Result<Game1> {
            let gs = game_seed(seed, i as u64);
            let seats: Vec<usize> = (0..players).map(|j| lineup[(j + i) % players]).collect();
            let s = match &o.from.position {
                Some(_) => base.clone(),
                None if o.from.after.is_some() => base.clone(),
                None => State::initial_seeded(&g, gs).map_err(|e| run_err(&g, e))?,
            };
            let rec = o.record.map(|_| {
                Record::new(&g, o.file.to_string(), overrides.clone(), gs, start_text.clone())
            });
            let r = play_game(&g, s, &specs, seats, gs, o.max_plies, rec)?;
            if let Ok(mut run) = running.lock() {
                for (j, &e) in r.seats.iter().enumerate() {
                    run[e] += r.reward[j];
                }
                let shown: Vec<String> = run
                    .iter()
                    .enumerate()
                    .map(|(e, &p)| format!("{} {}", names[e], points(p)))
                    .collect();
                pb.set_message(shown.join(" – "));
            }
            if let (Some(dir), Some(rec)) = (o.record, &r.record) {
                let path = format!("{dir}/game-{:04}.json", i + 1);
                let mut rec = rec.clone();
                rec.seal(super::play::path_from(o.file, &path));
                let json = serde_json::to_string_pretty(&rec).map_err(|e| usage(miette!("{e}")))?;
                std::fs::write(&path, json + "\n")
                    .map_err(|e| usage(miette!("cannot write `{path}`: {e}")))?;
            }
            Ok(r)
        },
        |k| pb.inc(k),
    )?;
    pb.finish_and_clear();
    let summary = summarise(&g, &specs, &results, seed, started.elapsed());
    if o.json {
        print_json(&summary)?;
    } else {
        print_summary(&summary);
    }
    Ok(())
}

/// Whole and fractional points, e.g. `12.5`.
fn points(units: u64) -> String {
    let v = units as f64 / UNIT as f64;
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        format!("{v:.1}")
    }
}

/// Plays one game with an engine per seat; chance draws from its own source.
fn play_game(
    g: &Game,
    mut s: State,
    specs: &[Spec],
    seats: Vec<usize>,
    seed: u64,
    max_plies: u32,
    mut record: Option<Record>,
) -> Result<Game1> {
    let n = g.players.len();
    let mut engines: Vec<Player> =
        seats.iter().map(|&e| Player::new(specs[e].clone(), 1)).collect();
    let mut rngs: Vec<Rng> = (0..n as u64).map(|j| Rng::new(game_seed(seed ^ 0x5EA7, j))).collect();
    let mut chance = Rng::new(game_seed(seed ^ 0xC4A2, 0));
    let mut time = vec![(Duration::ZERO, 0u64); n];
    let mut turns = 0u32;
    let mut moves = Vec::new();
    let outcome = loop {
        match s.turn() {
            Turn::Over => break s.ended(),
            Turn::Chance => {
                let outs = s.chance_outcomes(g).map_err(|e| run_err(g, e))?;
                let w: Vec<u32> = outs.iter().map(|o| o.1).collect();
                let Some(k) = tabula::rng::pick_weighted(&w, outs.len(), &mut chance) else {
                    break None;
                };
                if let Some(r) = &mut record {
                    r.moves.push(State::move_text(g, &outs[k].0));
                }
                s.play_unchecked(g, &outs[k].0).map_err(|e| run_err(g, e))?;
            }
            Turn::Player(p) => {
                s.legal_moves_into(g, &mut moves).map_err(|e| run_err(g, e))?;
                if moves.is_empty() {
                    break s.outcome(g).map_err(|e| run_err(g, e))?;
                }
                if turns >= max_plies {
                    break None;
                }
                let t0 = Instant::now();
                let d = engines[p as usize]
                    .choose(g, &s, &moves, &mut rngs[p as usize], None)
                    .map_err(|e| run_err(g, e))?;
                let slot = &mut time[p as usize];
                slot.0 += t0.elapsed();
                slot.1 += 1;
                if let Some(r) = &mut record {
                    r.moves.push(State::move_text(g, &d.mv));
                }
                s.play_unchecked(g, &d.mv).map_err(|e| run_err(g, e))?;
                turns += 1;
            }
        }
    };
    let mut reward = vec![0u64; n];
    match outcome {
        Some(Outcome::Win(w)) => reward[w as usize] = UNIT,
        Some(Outcome::Shared(m)) => {
            let k = u64::from(m.count_ones().max(1));
            for (p, r) in reward.iter_mut().enumerate() {
                if m & (1 << p) != 0 {
                    *r = UNIT / k;
                }
            }
        }
        Some(Outcome::Draw) | None => reward.fill(UNIT / n as u64),
    }
    if let Some(r) = &mut record {
        r.outcome = outcome.map(|o| o.describe(g));
    }
    Ok(Game1 { reward, seats, outcome, time, record })
}

/// The summary of a match (`match --json` prints it).
#[derive(Serialize)]
struct Summary {
    game: String,
    seed: u64,
    games: u64,
    players: usize,
    unfinished: u64,
    entrants: Vec<Entrant>,
    /// Entrant a's Elo difference to b (two players, two entrants).
    elo: Option<Elo>,
    seconds: f64,
}

#[derive(Serialize)]
struct Entrant {
    entrant: String,
    engine: String,
    /// Seats per game.
    seats: usize,
    wins: u64,
    /// Draws, shared wins and unfinished games.
    draws: u64,
    losses: u64,
    score: f64,
    share: f64,
    /// The share a player of equal strength would get (seats / players).
    fair_share: f64,
    /// The 95% Wilson score interval of the share.
    low: f64,
    high: f64,
    /// Mean time per decision.
    ms_per_move: f64,
}

/// An Elo difference and its interval; `None` (JSON `null`) is infinite:
/// every game won (or lost), or an interval end at a share of 1 (or 0).
#[derive(Serialize)]
struct Elo {
    diff: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference of a share: `None` at 0 and 1 (infinite).
fn elo(share: f64) -> Option<f64> {
    (share > 1e-9 && share < 1.0 - 1e-9).then(|| 400.0 * (share / (1.0 - share)).log10())
}

fn summarise(g: &Game, specs: &[Spec], results: &[Game1], seed: u64, took: Duration) -> Summary {
    let players = g.players.len();
    let n = results.len() as u64;
    let mut entrants = Vec::new();
    for (e, spec) in specs.iter().enumerate() {
        let (mut wins, mut draws, mut losses, mut score) = (0, 0, 0, 0u64);
        let (mut t, mut decisions) = (Duration::ZERO, 0);
        let mut seats = 0;
        for r in results {
            let mine: Vec<usize> = (0..players).filter(|&j| r.seats[j] == e).collect();
            seats = mine.len();
            score += mine.iter().map(|&j| r.reward[j]).sum::<u64>();
            for &j in &mine {
                t += r.time[j].0;
                decisions += r.time[j].1;
            }
            match r.outcome {
                Some(Outcome::Win(w)) if mine.contains(&(w as usize)) => wins += 1,
                Some(Outcome::Win(_)) => losses += 1,
                Some(Outcome::Shared(m)) if mine.iter().any(|&j| m & (1 << j) != 0) => draws += 1,
                Some(Outcome::Shared(_)) => losses += 1,
                _ => draws += 1,
            }
        }
        let score = score as f64 / UNIT as f64;
        let share = if n == 0 { 0.0 } else { score / n as f64 };
        let (low, high) = wilson(score, n as f64);
        entrants.push(Entrant {
            entrant: LETTERS[e].to_string(),
            engine: spec.to_string(),
            seats,
            wins,
            draws,
            losses,
            score,
            share,
            fair_share: seats as f64 / players as f64,
            low,
            high,
            ms_per_move: if decisions == 0 {
                0.0
            } else {
                t.as_secs_f64() * 1000.0 / decisions as f64
            },
        });
    }
    let elo = (players == 2 && specs.len() == 2).then(|| {
        let a = &entrants[0];
        Elo { diff: elo(a.share), low: elo(a.low), high: elo(a.high) }
    });
    Summary {
        game: g.name.clone(),
        seed,
        games: n,
        players,
        unfinished: results.iter().filter(|r| r.outcome.is_none()).count() as u64,
        entrants,
        elo,
        seconds: took.as_secs_f64(),
    }
}

fn print_summary(s: &Summary) {
    say!("game: {}", s.game);
    say!(
        "games: {} (seed {}, {} players, seats rotate){}",
        s.games,
        s.seed,
        s.players,
        if s.unfinished > 0 { format!(", {} unfinished", s.unfinished) } else { String::new() }
    );
    say!(
        "{:<9} {:<14} {:>5} {:>5} {:>6} {:>7}  {:>6}  {:<17} {:>9}",
        "entrant",
        "engine",
        "wins",
        "draws",
        "losses",
        "score",
        "share",
        "95% interval",
        "ms/move"
    );
    for e in &s.entrants {
        let seats = if e.seats > 1 { format!(" ×{}", e.seats) } else { String::new() };
        say!(
            "{:<9} {:<14} {:>5} {:>5} {:>6} {:>7}  {:>5.1}%  {:<17} {:>9.1}",
            format!("{}{seats}", e.entrant),
            e.engine,
            e.wins,
            e.draws,
            e.losses,
            format!("{:.1}", e.score),
            e.share * 100.0,
            format!("{:.1}%–{:.1}%", e.low * 100.0, e.high * 100.0),
            e.ms_per_move
        );
    }
    if let Some(elo) = &s.elo {
        let show = |x: Option<f64>, share: f64| match x {
            Some(x) => format!("{x:+.0}"),
            None if share <= 0.0 => "-inf".to_string(),
            None => "+inf".to_string(),
        };
        let a = &s.entrants[0];
        say!(
            "Elo difference a − b: {} (95%: {} to {})",
            show(elo.diff, a.share),
            show(elo.low, a.low),
            show(elo.high, a.high)
        );
    } else {
        let fair: Vec<String> = s
            .entrants
            .iter()
            .map(|e| format!("{} {:.1}%", e.entrant, e.fair_share * 100.0))
            .collect();
        say!("fair shares: {}", fair.join(", "));
    }
}
