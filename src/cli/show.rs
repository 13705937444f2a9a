//! `tabula show`, `moves` and `explain`: one position, read-only.

use super::common::{after, base, last_move, load, print_json, run_err, seat, start, viewer, Ctx};
use super::{json, picture, reported, usage, From, Result};
use miette::miette;
use tabula::interp::Verdict;
use tabula::render::{render_for, render_over};
use tabula::wire::{observe, ExplanationRepr, StateRepr, Viewer};
use tabula::{Game, State};

/// What `show` prints.
pub enum Out {
    /// The text drawing.
    Drawing,
    /// The position text.
    Text,
    /// JSON.
    Json,
    /// An SVG picture, into this file (`-`: stdout).
    Svg(String),
}

/// Runs `tabula show`.
pub fn show(
    ctx: &Ctx,
    file: &str,
    from: &From,
    viewer: Option<&str>,
    reveal: bool,
    out: Out,
) -> Result<()> {
    let g = load(ctx, file)?;
    let before = base(ctx, &g, from)?;
    let s = after(&g, before.clone(), from)?;
    // Without `--reveal`, a game with hidden zones shows only what the
    // chosen player (or, by default, anybody) may see.
    let view = match (viewer, reveal) {
        (_, true) => Viewer::All,
        (Some(v), false) => Viewer::Player(seat(&g, v)?),
        (None, false) if g.has_hidden_information() => Viewer::Public,
        (None, false) => Viewer::All,
    };
    let hides = g.has_hidden_information() && view != Viewer::All;
    // Over by a rule, or because the player to move has no move.
    let over = || s.outcome(&g).map_err(|e| run_err(&g, e));
    match out {
        Out::Text if hides => Err(usage(miette!(
            help = "add `--reveal` to print everything, hidden zones included",
            "the position text shows every zone, and this view hides some"
        ))),
        Out::Text => {
            say_part!("{}", s.to_text(&g));
            Ok(())
        }
        Out::Json if view == Viewer::All => {
            print_json(&StateRepr::new(&g, &s).with_game_over(&g, over()?))
        }
        Out::Json => {
            let o = over()?;
            let mut seen = observe(&g, &s, view);
            seen.game_over = o.map(|o| o.describe(&g));
            print_json(&seen)
        }
        Out::Drawing => {
            say_part!("{}", render_over(&g, &s, view, over()?));
            Ok(())
        }
        Out::Svg(path) => {
            let last = from.after.as_deref().and_then(|a| last_move(&g, &before, a, &s));
            let marked = last.map(|m| picture::move_cells(&g, &m)).unwrap_or_default();
            let svg = picture::svg(&g, &s, view, &marked);
            if path == "-" {
                say_part!("{svg}");
                Ok(())
            } else {
                std::fs::write(&path, svg).map_err(|e| usage(miette!("cannot write `{path}`: {e}")))
            }
        }
    }
}

/// Runs `tabula moves`.
pub fn moves(ctx: &Ctx, file: &str, from: &From, view: &super::View, json: bool) -> Result<()> {
    let g = load(ctx, file)?;
    let s = start(ctx, &g, from)?;
    viewer(&g, &s, view, true)?;
    let moves = s.legal_moves(&g).map_err(|e| run_err(&g, e))?;
    if json {
        return print_json(&json::moves(&g, &s, &moves).map_err(|e| run_err(&g, e))?);
    }
    for m in &moves {
        say!("{}", State::move_text(&g, m));
    }
    if moves.is_empty() {
        match s.outcome(&g).map_err(|e| run_err(&g, e))? {
            Some(o) => say!("(no moves: game over, {})", o.describe(&g)),
            None => say!("(no moves)"),
        }
    }
    Ok(())
}

/// Runs `tabula explain`; fails (exit status 1) unless the move is legal.
pub fn explain(
    ctx: &Ctx,
    file: &str,
    mv: &str,
    from: &From,
    view: &super::View,
    json: bool,
) -> Result<()> {
    let g = load(ctx, file)?;
    let s = start(ctx, &g, from)?;
    viewer(&g, &s, view, true)?;
    let full = super::common::spelled_out(&g, &s, mv);
    let mv = full.as_str();
    let v = tabula::interp::explain(&g, &s, mv).map_err(|e| run_err(&g, e))?;
    if json {
        let repr = ExplanationRepr::new(&g, mv, &v, mover_view(&g, &s));
        print_json(&repr)?;
    } else {
        say_part!("{}", explanation_text(&g, &s, mv, &v));
    }
    match v {
        Verdict::Legal { .. } => Ok(()),
        _ => Err(reported()),
    }
}

/// What the mover may see.
fn mover_view(g: &Game, s: &State) -> Viewer {
    if g.has_hidden_information() {
        Viewer::Player(s.current())
    } else {
        Viewer::All
    }
}

/// An explanation for people: the path of a legal move and the position
/// after it, or each failed reading as a report on the game file.
pub fn explanation_text(g: &Game, s: &State, input: &str, v: &Verdict) -> String {
    let view = mover_view(g, s);
    match v {
        Verdict::Illegal { attempts } => {
            let mut out = String::new();
            if attempts.len() > 1 {
                out.push_str(&format!("`{input}` was read {} ways; each fails:\n", attempts.len()));
            }
            for a in attempts {
                out.push_str(&format!("{:?}\n", miette::Report::new(a.to_problem(g, input))));
            }
            out
        }
        Verdict::Legal { after, .. } => {
            let repr = ExplanationRepr::new(g, input, v, view);
            format!("{}\nAfter it:\n{}", repr.to_text(), render_for(g, after, view))
        }
        Verdict::Incomplete { .. } => ExplanationRepr::new(g, input, v, view).to_text(),
    }
}
