//! `tabula playout`: random games and statistics people can compare.
//!
//! Game `i` is played from its own seed, derived from `--seed` and `i`
//! alone, so the results do not depend on `-j`. Statistics are folded in
//! as the games finish (memory does not grow with `-n`), as exact integer
//! sums: a shared win among `k` players counts `1/k` to each, kept as
//! `840/k` (840 is divisible by every `k` up to 8 players). Means and
//! standard errors are computed from those sums at the end.

use super::common::{load, print_json, run_err, start, Ctx};
use super::{par, progress, Failure, From, Result};
use serde::Serialize;
use std::time::Instant;
use tabula::rng::Rng;
use tabula::{playout as play_out, playout_listed, Game, Outcome, Playout, State};

/// The unit of a win share: a whole win is 840, a win shared by `k` players `840 / k`.
const UNIT: i128 = 840;

/// The seed of game `i` of a run seeded `base`.
pub fn game_seed(base: u64, i: u64) -> u64 {
    Rng::new(base ^ i.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

/// A sum and a sum of squares, exact.
#[derive(Clone, Copy, Default)]
pub struct Sum {
    n: u64,
    sum: i128,
    squares: i128,
}

impl Sum {
    fn add(&mut self, x: i128) {
        self.n += 1;
        self.sum = self.sum.saturating_add(x);
        self.squares = self.squares.saturating_add(x.saturating_mul(x));
    }

    fn merge(&mut self, o: Sum) {
        self.n += o.n;
        self.sum = self.sum.saturating_add(o.sum);
        self.squares = self.squares.saturating_add(o.squares);
    }

    /// Mean and standard error of the mean, the values divided by `scale`.
    fn mean(&self, scale: i128) -> Mean {
        if self.n == 0 {
            return Mean { mean: 0.0, se: 0.0 };
        }
        let n = self.n as f64;
        let (s, q) = (self.sum as f64 / scale as f64, self.squares as f64 / (scale * scale) as f64);
        let mean = s / n;
        let se =
            if self.n < 2 { 0.0 } else { ((q - s * mean) / (n - 1.0)).max(0.0).sqrt() / n.sqrt() };
        Mean { mean, se }
    }
}

/// A mean with its standard error.
#[derive(Serialize, Clone, Copy)]
pub struct Mean {
    mean: f64,
    se: f64,
}

impl std::fmt::Display for Mean {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.3} ± {:.3}", self.mean, self.se)
    }
}

/// Everything counted over the games.
#[derive(Clone, Default)]
pub struct Stats {
    length: Sum,
    branching: u64,
    /// Positions where a move was chosen and the moves counted.
    decisions: u64,
    /// Positions where the move was drawn without counting the moves.
    drawn: u64,
    outright: u64,
    tie_break: u64,
    shared: u64,
    draws: u64,
    unfinished: u64,
    share: Vec<Sum>,
    score: Vec<Sum>,
    winning_score: Sum,
}

impl Stats {
    fn new(players: usize) -> Stats {
        Stats {
            share: vec![Sum::default(); players],
            score: vec![Sum::default(); players],
            ..Stats::default()
        }
    }

    /// Counts one finished playout.
    fn add(&mut self, g: &Game, p: &Playout) -> std::result::Result<(), tabula::RunError> {
        self.length.add(i128::from(p.plies));
        self.branching += p.branching;
        self.decisions += u64::from(p.plies.saturating_sub(p.drawn));
        self.drawn += u64::from(p.drawn);
        let players = g.players.len() as u8;
        let winners: Vec<u8> = match p.outcome {
            Some(o) => (0..players).filter(|&i| o.is_winner(i)).collect(),
            None => Vec::new(),
        };
        match p.outcome {
            Some(Outcome::Win(_)) if p.last.decided_by().is_some_and(|k| k > 0) => {
                self.tie_break += 1
            }
            Some(Outcome::Win(_)) => self.outright += 1,
            Some(Outcome::Shared(_)) => self.shared += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
        let k = winners.len() as i128;
        for i in 0..players {
            let share = if winners.contains(&i) { UNIT / k } else { 0 };
            self.share[i as usize].add(share);
        }
        if g.score.is_some() {
            let mut scores = Vec::with_capacity(players as usize);
            for i in 0..players {
                let s = p.last.score(g, i)?.unwrap_or(0);
                self.score[i as usize].add(i128::from(s));
                scores.push(i128::from(s));
            }
            if k > 0 {
                // The winners' mean score, in units of 1/840.
                let total: i128 = winners.iter().map(|&w| scores[w as usize]).sum();
                self.winning_score.add(total * (UNIT / k));
            }
        }
        Ok(())
    }

    /// Turns played in all games.
    pub fn plies(&self) -> u64 {
        self.length.sum as u64
    }

    fn merge(&mut self, o: Stats) {
        self.length.merge(o.length);
        self.branching += o.branching;
        self.decisions += o.decisions;
        self.drawn += o.drawn;
        self.outright += o.outright;
        self.tie_break += o.tie_break;
        self.shared += o.shared;
        self.draws += o.draws;
        self.unfinished += o.unfinished;
        for (a, b) in self.share.iter_mut().zip(o.share) {
            a.merge(b);
        }
        for (a, b) in self.score.iter_mut().zip(o.score) {
            a.merge(b);
        }
        self.winning_score.merge(o.winning_score);
    }
}

/// `playout --json`.
#[derive(Serialize)]
struct PlayoutJson {
    game: String,
    seed: u64,
    playouts: u64,
    max_plies: u32,
    length: Mean,
    /// The mean number of moves of the positions where a move was chosen
    /// (`None` when some moves were drawn without counting the moves).
    branching: Option<f64>,
    /// The share of those positions where the move was drawn without
    /// counting the moves (see `tabula::playout`).
    drawn: f64,
    results: Results,
    players: Vec<PlayerJson>,
    winning_score: Option<Mean>,
    seconds: f64,
    playouts_per_second: f64,
}

/// How the games ended; the counts add up to `playouts`.
#[derive(Serialize)]
struct Results {
    outright: u64,
    tie_break: u64,
    shared: u64,
    draws: u64,
    unfinished: u64,
}

/// One seat's statistics.
#[derive(Serialize)]
struct PlayerJson {
    player: String,
    win_share: Mean,
    score: Option<Mean>,
}

#[allow(clippy::too_many_arguments)]
/// Plays games `0..n` (or until `deadline`) on `jobs` threads; the sums
/// and the number of games played.
pub fn run(
    g: &Game,
    fixed: Option<&State>,
    seed: u64,
    n: u64,
    max_plies: u32,
    list: bool,
    jobs: usize,
    deadline: Option<Instant>,
    tick: impl Fn(u64) + Sync,
) -> std::result::Result<(Stats, u64), tabula::RunError> {
    // A setup without chance deals the same start whatever the seed: it
    // is dealt once (the seed is still drawn, so games do not change).
    let dealt = match fixed {
        None if !g.setup_has_chance() => Some(State::initial_seeded(g, 0)?),
        _ => None,
    };
    par::fold(
        n,
        jobs,
        deadline,
        || Stats::new(g.players.len()),
        |acc, i| {
            let mut rng = Rng::new(game_seed(seed, i));
            // Without a fixed start, every game gets its own deal.
            let dealt_now;
            let s0 = match (fixed, &dealt) {
                (Some(s), _) => s,
                (None, Some(s)) => {
                    rng.next_u64();
                    s
                }
                (None, None) => {
                    dealt_now = State::initial_seeded(g, rng.next_u64())?;
                    &dealt_now
                }
            };
            let p = if list {
                playout_listed(g, s0, &mut rng, max_plies)?
            } else {
                play_out(g, s0, &mut rng, max_plies)?
            };
            acc.add(g, &p)
        },
        Stats::merge,
        tick,
    )
}

/// How `tabula playout` plays its games.
pub struct How {
    /// Turns after which a game is cut.
    pub max_plies: u32,
    /// List every move before picking one ([`playout_listed`]).
    pub list: bool,
    /// Threads.
    pub jobs: usize,
}

/// Runs `tabula playout`.
pub fn playout(ctx: &Ctx, file: &str, n: u64, how: How, from: &From, json: bool) -> Result<()> {
    let How { max_plies, list, jobs } = how;
    let g = load(ctx, file)?;
    let seed = ctx.seed();
    let fixed = if from.is_set() { Some(start(ctx, &g, from)?) } else { None };
    let pb = progress::bar(ctx, n, "playouts");
    pb.set_prefix(g.name.clone());
    let t = Instant::now();
    let r = run(&g, fixed.as_ref(), seed, n, max_plies, list, jobs, None, |k| pb.inc(k));
    pb.finish_and_clear();
    let (st, _) = r.map_err(|e| -> Failure { run_err(&g, e) })?;
    let seconds = t.elapsed().as_secs_f64();
    let rate = n as f64 / seconds.max(1e-9);
    let length = st.length.mean(1);
    // Positions whose move was drawn (pass 15) have no count of moves, and
    // a mean over the others alone would mislead: none is given.
    let branching = (st.drawn == 0).then(|| st.branching as f64 / st.decisions.max(1) as f64);
    let drawn = st.drawn as f64 / (st.decisions + st.drawn).max(1) as f64;
    let scored = g.score.is_some();
    let players: Vec<PlayerJson> = g
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| PlayerJson {
            player: p.clone(),
            win_share: st.share[i].mean(UNIT),
            score: scored.then(|| st.score[i].mean(1)),
        })
        .collect();
    let winning_score = (scored && st.winning_score.n > 0).then(|| st.winning_score.mean(UNIT));
    if json {
        return print_json(&PlayoutJson {
            game: g.name.clone(),
            seed,
            playouts: n,
            max_plies,
            length,
            branching,
            drawn,
            results: Results {
                outright: st.outright,
                tie_break: st.tie_break,
                shared: st.shared,
                draws: st.draws,
                unfinished: st.unfinished,
            },
            players,
            winning_score,
            seconds,
            playouts_per_second: rate,
        });
    }
    say!("game: {}", g.name);
    let start = if from.is_set() { ", from the given position" } else { "" };
    say!("playouts: {n} (seed {seed}, cap {max_plies} turns{start})");
    say!("mean length: {length} turns");
    match branching {
        Some(b) => say!("mean branching factor: {b:.3}"),
        None => say!(
            "mean branching factor: not counted (at {:.1}% of the positions the move was drawn without listing them all: `--list` counts them)",
            100.0 * drawn
        ),
    }
    say!("wins outright: {}", st.outright);
    say!("wins by a tie-break: {}", st.tie_break);
    say!("shared wins: {}", st.shared);
    say!("draws: {}", st.draws);
    say!("unfinished: {}", st.unfinished);
    let width = g.players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(6);
    if scored {
        say!("{:<width$}  {:<15}  mean score", "player", "win share");
    } else {
        say!("{:<width$}  win share", "player");
    }
    for p in &players {
        match &p.score {
            Some(s) => say!("{:<width$}  {:<15}  {s}", p.player, p.win_share.to_string()),
            None => say!("{:<width$}  {}", p.player, p.win_share),
        }
    }
    if let Some(w) = winning_score {
        say!("mean winning score: {w}");
    }
    ctx.note(&format!("{seconds:.3}s, {rate:.1} playouts/s"));
    Ok(())
}
