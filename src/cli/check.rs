//! `tabula check`: every problem of a game file, as reports or as JSON.

use super::common::{print_json, source, Ctx};
use super::{json, reported, Result};
use miette::miette;
use serde::Serialize;
use tabula::{Game, State};

/// `check --json`.
#[derive(Serialize)]
struct CheckJson {
    file: String,
    /// No errors (and no warnings, with `--deny-warnings`).
    ok: bool,
    errors: usize,
    warnings: usize,
    /// What was loaded, if the game has no errors.
    game: Option<GameJson>,
    diagnostics: Vec<json::Diagnostic>,
    /// With `--passes`: what the optimisation passes did, each with a count.
    #[serde(skip_serializing_if = "Option::is_none")]
    passes: Option<Vec<PassJson>>,
}

/// A summary of a loaded game.
#[derive(Serialize)]
struct GameJson {
    name: String,
    players: Vec<String>,
    params: Vec<(String, i64)>,
    cells: usize,
    piece_kinds: usize,
    decision_points: usize,
}

/// One kind of thing a pass did, and how often.
#[derive(Serialize)]
struct PassJson {
    pass: String,
    count: usize,
}

/// Runs `tabula check`.
pub fn check(ctx: &Ctx, file: &str, passes: bool, deny_warnings: bool, json: bool) -> Result<()> {
    let src = source(file)?;
    let (game, mut problems) = match Game::load(&src, &ctx.overrides()?) {
        Ok(g) => {
            let warnings = g.warnings.iter().map(|w| w.clone().with_source(&src)).collect();
            (Some(g), warnings)
        }
        Err(d) => (None, d.problems),
    };
    // The setup must run, too.
    if let Some(g) = &game {
        if let Err(e) = State::initial_seeded(g, ctx.seed()) {
            problems.push(e.to_problem(g));
        }
    }
    let errors = problems.iter().filter(|p| !p.is_warning).count();
    let warnings = problems.len() - errors;
    let ok = errors == 0 && !(deny_warnings && warnings > 0);
    let pass_list = game.as_ref().filter(|_| passes).map(|g| {
        let mut seen: Vec<(String, usize)> = Vec::new();
        for n in g.program().notes() {
            match seen.iter_mut().find(|(m, _)| m == n) {
                Some(e) => e.1 += 1,
                None => seen.push((n.clone(), 1)),
            }
        }
        seen
    });
    if json {
        print_json(&CheckJson {
            file: file.to_string(),
            ok,
            errors,
            warnings,
            game: game.as_ref().filter(|_| errors == 0).map(|g| GameJson {
                name: g.name.clone(),
                players: g.players.clone(),
                params: g.params.clone(),
                cells: g.board.len(),
                piece_kinds: g.kinds.len(),
                decision_points: g.sites.len(),
            }),
            diagnostics: problems.iter().map(|p| json::diagnostic(&src, p)).collect(),
            passes: pass_list
                .map(|l| l.into_iter().map(|(pass, count)| PassJson { pass, count }).collect()),
        })?;
        return if ok { Ok(()) } else { Err(reported()) };
    }
    for p in problems {
        eprintln!("{:?}", miette::Report::new(p));
    }
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match &game {
        Some(g) if errors == 0 => {
            say!(
                "{file}: ok — \"{}\", {} players, {} cells, {} piece kinds, {} decision points",
                g.name,
                g.players.len(),
                g.board.len(),
                g.kinds.len(),
                g.sites.len()
            );
            for (n, k) in pass_list.unwrap_or_default() {
                if k > 1 {
                    say!("  pass: {n} (x{k})");
                } else {
                    say!("  pass: {n}");
                }
            }
        }
        _ => return Err(miette!("{file}: {} found", plural(errors, "problem")).into()),
    }
    if !ok {
        return Err(
            miette!("{file}: {}, denied by --deny-warnings", plural(warnings, "warning")).into()
        );
    }
    Ok(())
}
