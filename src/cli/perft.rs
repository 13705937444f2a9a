//! `tabula perft`: move paths of exactly DEPTH turns, split over the first
//! moves (one progress step and, with `-j`, one thread task each).

use super::common::{load, print_json, run_err, start, viewer, Ctx};
use super::{par, progress, From, Result};
use miette::miette;
use serde::Serialize;
use std::time::Instant;
use tabula::{Game, State};

/// `perft --json`.
#[derive(Serialize)]
struct PerftJson {
    depth: u32,
    nodes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<Divided>>,
    seconds: f64,
    nodes_per_second: f64,
}

/// The count below one first move.
#[derive(Serialize)]
struct Divided {
    #[serde(rename = "move")]
    mv: String,
    nodes: u64,
}

/// Runs `tabula perft`.
/// How `perft` counts and prints.
#[derive(Debug, Clone, Copy)]
pub struct Opts {
    /// The count below each first move too.
    pub divide: bool,
    /// One drawn outcome at each chance node.
    pub sample: bool,
    /// Face-down pieces in a fixed order first (a stacked deck).
    pub stack: bool,
    /// Threads.
    pub jobs: usize,
    /// JSON output.
    pub json: bool,
}

pub fn perft(
    ctx: &Ctx,
    file: &str,
    depth: u32,
    from: &From,
    view: &super::View,
    opts: Opts,
) -> Result<()> {
    let Opts { divide, sample, stack, jobs, json } = opts;
    let g = load(ctx, file)?;
    let mut s = start(ctx, &g, from)?;
    if stack {
        let mut rng = tabula::rng::Rng::new(ctx.seed());
        s.stack(&g, &mut rng).map_err(|e| run_err(&g, e))?;
    }
    // Counting past the mover's own moves walks through everybody's hands.
    if g.has_hidden_information() && !view.reveal && (depth > 1 || s.pending().is_some()) {
        return Err(miette!(
            help = "`--reveal` counts with everything visible (the referee's count)",
            "perft {depth} of this game looks at hidden pieces"
        )
        .into());
    }
    viewer(&g, &s, view, true)?;
    let t = Instant::now();
    let (nodes, per_move) = if sample {
        // A sample of the tree: one outcome at each chance node, drawn.
        let mut rng = tabula::rng::Rng::new(ctx.seed());
        let n = tabula::eval::perft_sampled(&g, &s, depth, &mut rng).map_err(|e| run_err(&g, e))?;
        (n, Vec::new())
    } else {
        count(ctx, &g, &s, depth, jobs, divide)?
    };
    let seconds = t.elapsed().as_secs_f64();
    let nodes_per_second = nodes as f64 / seconds.max(1e-9);
    if json {
        let divide = divide.then(|| {
            per_move.into_iter().map(|(mv, nodes)| Divided { mv, nodes }).collect::<Vec<_>>()
        });
        return print_json(&PerftJson { depth, nodes, divide, seconds, nodes_per_second });
    }
    for (m, k) in &per_move {
        say!("{m}: {k}");
    }
    say!("perft({depth}) = {nodes}");
    ctx.note(&format!("{seconds:.3}s, {nodes_per_second:.0} nodes/s"));
    Ok(())
}

/// Perft from `s`, and the count below each first move when `divide` (or
/// when the work is split anyway): the first moves are shared out over
/// `jobs` threads, and the sum does not depend on how.
pub fn count(
    ctx: &Ctx,
    g: &Game,
    s: &State,
    depth: u32,
    jobs: usize,
    divide: bool,
) -> Result<(u64, Vec<(String, u64)>)> {
    if depth == 0 || (depth == 1 && !divide) {
        // The last depth is counted without building moves.
        return Ok((tabula::perft(g, s, depth).map_err(|e| run_err(g, e))?, Vec::new()));
    }
    let moves = s.legal_moves(g).map_err(|e| run_err(g, e))?;
    // A chance node is not a move: its outcomes are counted at the same depth.
    let below = if s.turn() == tabula::Turn::Chance { depth } else { depth - 1 };
    let pb = progress::bar(ctx, moves.len() as u64, "first moves");
    pb.set_prefix(format!("perft({depth})"));
    let counts = par::map(
        moves.len(),
        jobs,
        |i| {
            let mut t = s.clone();
            t.play_unchecked(g, &moves[i])?;
            tabula::perft(g, &t, below)
        },
        |k| pb.inc(k),
    );
    pb.finish_and_clear();
    let counts = counts.map_err(|e| run_err(g, e))?;
    let total = counts.iter().sum();
    let per_move = if divide {
        moves.iter().zip(counts).map(|(m, k)| (State::move_text(g, m), k)).collect()
    } else {
        Vec::new()
    };
    Ok((total, per_move))
}
