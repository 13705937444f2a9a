//! `tabula bench`: playouts/s, moves/s, perft nodes/s and the size of a
//! state, for one game or for every bundled game, in one table.
//!
//! Without `-n`, playouts run for `--time` seconds; without `--depth`,
//! perft goes one turn deeper while the next depth is expected to fit in
//! `--time` (its time estimated as this depth's times the growth factor).

use super::common::{load_source, print_json, run_err, source, Ctx};
use super::{bundled, perft, playout, progress, usage, Result};
use miette::miette;
use serde::Serialize;
use std::time::{Duration, Instant};
use tabula::{Game, Source, State};

/// Turns after which a benchmark playout stops.
const MAX_PLIES: u32 = 1000;

/// One game's measurements (`bench --json` prints a list of these).
#[derive(Serialize)]
struct Row {
    file: String,
    game: String,
    playouts: u64,
    moves: u64,
    playouts_per_second: f64,
    moves_per_second: f64,
    perft_depth: u32,
    perft_nodes: u64,
    perft_nodes_per_second: f64,
    state_bytes: usize,
}

/// Runs `tabula bench`.
pub fn bench(
    ctx: &Ctx,
    file: Option<&str>,
    n: Option<u64>,
    depth: Option<u32>,
    time: f64,
    jobs: usize,
    json: bool,
) -> Result<()> {
    let sources: Vec<Source> = match file {
        Some(f) => vec![source(f)?],
        None => {
            if !ctx.overrides()?.is_empty() {
                return Err(usage(miette!(
                    help = "name the game: `tabula bench games/boop.game --set size=8`",
                    "`--set` needs a game file: the bundled games have different parameters"
                )));
            }
            bundled::GAMES.iter().map(|(path, text)| Source::new(*path, *text)).collect()
        }
    };
    if !(time > 0.0 && time.is_finite()) {
        return Err(usage(miette!("`--time {time}`: give a positive number of seconds")));
    }
    let budget = Duration::from_secs_f64(time);
    let pb = progress::spinner(ctx, "");
    let quiet = ctx.silenced();
    let mut rows = Vec::new();
    for src in &sources {
        let g = load_source(ctx, src)?;
        pb.set_prefix(g.name.clone());
        rows.push(measure(&quiet, &g, &src.name, n, depth, budget, jobs, &pb)?);
    }
    pb.finish_and_clear();
    if json {
        return print_json(&rows);
    }
    let w = rows.iter().map(|r| r.game.chars().count()).max().unwrap_or(4).max(4);
    say!(
        "{:<w$}  {:>12}  {:>12}  {:>14}  {:>5}  {:>11}",
        "game",
        "playouts/s",
        "moves/s",
        "perft nodes/s",
        "depth",
        "state bytes"
    );
    for r in &rows {
        say!(
            "{:<w$}  {:>12.1}  {:>12.0}  {:>14.0}  {:>5}  {:>11}",
            r.game,
            r.playouts_per_second,
            r.moves_per_second,
            r.perft_nodes_per_second,
            r.perft_depth,
            r.state_bytes
        );
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn measure(
    ctx: &Ctx,
    g: &Game,
    file: &str,
    n: Option<u64>,
    depth: Option<u32>,
    budget: Duration,
    jobs: usize,
    pb: &indicatif::ProgressBar,
) -> Result<Row> {
    let seed = ctx.seed();
    let s0 = State::initial_seeded(g, seed).map_err(|e| run_err(g, e))?;
    pb.set_message("playouts");
    let t = Instant::now();
    let deadline = n.is_none().then(|| t + budget);
    let (stats, playouts) = playout::run(
        g,
        None,
        seed,
        n.unwrap_or(u64::MAX),
        MAX_PLIES,
        false,
        jobs,
        deadline,
        |_| {},
    )
    .map_err(|e| run_err(g, e))?;
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    let moves = stats.plies();
    let (perft_depth, perft_nodes, perft_secs) = match depth {
        Some(d) => {
            pb.set_message(format!("perft({d})"));
            timed_perft(ctx, g, &s0, d, jobs)?
        }
        None => {
            let mut best = (0, 1, 1e-9);
            let mut d = 1;
            loop {
                pb.set_message(format!("perft({d})"));
                let (_, nodes, secs) = timed_perft(ctx, g, &s0, d, jobs)?;
                if nodes == 0 {
                    break;
                }
                let growth = nodes as f64 / best.1.max(1) as f64;
                best = (d, nodes, secs);
                if d >= 30 || secs * (1.0 + growth.max(1.0)) > budget.as_secs_f64() {
                    break;
                }
                d += 1;
            }
            best
        }
    };
    Ok(Row {
        file: file.to_string(),
        game: g.name.clone(),
        playouts,
        moves,
        playouts_per_second: playouts as f64 / secs,
        moves_per_second: moves as f64 / secs,
        perft_depth,
        perft_nodes,
        perft_nodes_per_second: perft_nodes as f64 / perft_secs,
        state_bytes: s0.size_bytes(),
    })
}

fn timed_perft(ctx: &Ctx, g: &Game, s: &State, depth: u32, jobs: usize) -> Result<(u32, u64, f64)> {
    let t = Instant::now();
    let (nodes, _) = perft::count(ctx, g, s, depth, jobs, false)?;
    Ok((depth, nodes, t.elapsed().as_secs_f64().max(1e-9)))
}
