//! JSON shapes shared by several verbs: diagnostics (`check --json`) and
//! moves with their choices (`moves --json`). docs/cli.md documents them.

use super::common::line_col;
use serde::Serialize;
use tabula::notation::{choice_text, value_text};
use tabula::{Game, Move, Problem, RunError, Source, State};

/// A diagnostic: what miette shows, as data.
#[derive(Serialize)]
pub struct Diagnostic {
    code: String,
    severity: &'static str,
    message: String,
    labels: Vec<Label>,
    help: Option<String>,
}

/// A labelled place in the game file.
#[derive(Serialize)]
pub struct Label {
    label: String,
    primary: bool,
    span: SpanJson,
}

/// A byte span with 1-based lines and columns (columns count characters).
#[derive(Serialize)]
pub struct SpanJson {
    start: usize,
    end: usize,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

fn span(src: &Source, s: tabula::Span) -> SpanJson {
    let (line, column) = line_col(&src.text, s.start as usize);
    let (end_line, end_column) = line_col(&src.text, s.end as usize);
    SpanJson { start: s.start as usize, end: s.end as usize, line, column, end_line, end_column }
}

/// The JSON of a problem in `src`.
pub fn diagnostic(src: &Source, p: &Problem) -> Diagnostic {
    let mut labels = vec![Label { label: p.label.clone(), primary: true, span: span(src, p.span) }];
    labels.extend(p.secondary.iter().map(|(s, l)| Label {
        label: l.clone(),
        primary: false,
        span: span(src, *s),
    }));
    Diagnostic {
        code: p.code.to_string(),
        severity: if p.is_warning { "warning" } else { "error" },
        message: p.message.clone(),
        labels,
        help: p.help.clone(),
    }
}

/// The legal moves of a position (`moves --json`).
#[derive(Serialize)]
pub struct Moves {
    to_move: String,
    count: usize,
    moves: Vec<MoveJson>,
    /// The result when there is no move because the game is over.
    outcome: Option<String>,
}

/// One move: its notation, its choices, and the result if it ends the game.
#[derive(Serialize)]
pub struct MoveJson {
    notation: String,
    choices: Vec<ChoiceJson>,
    outcome: Option<String>,
}

/// One decision of a move.
#[derive(Serialize)]
pub struct ChoiceJson {
    /// The variable the `choose` binds (absent for `either`).
    variable: Option<String>,
    /// The `as "..."` label, if any.
    label: Option<String>,
    /// The type of the value (`cell`, `piece kind`, ...).
    #[serde(rename = "type")]
    ty: &'static str,
    /// The value as notation writes it (a cell name, a kind symbol, ...).
    value: String,
    /// The choice as it appears in the move's notation.
    text: String,
}

/// The JSON of the moves of `s`, each played to see whether it ends the game.
pub fn moves(g: &Game, s: &State, moves: &[Move]) -> Result<Moves, RunError> {
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let mut t = s.clone();
        t.play_unchecked(g, m)?;
        let choices = m
            .choices
            .iter()
            .map(|c| {
                let site = &g.sites[c.site as usize];
                ChoiceJson {
                    variable: (!site.var.is_empty()).then(|| site.var.clone()),
                    label: site.label.clone(),
                    ty: c.value.ty().name(),
                    value: value_text(g, c.value),
                    text: choice_text(g, c.site, c.value),
                }
            })
            .collect();
        out.push(MoveJson {
            notation: State::move_text(g, m),
            choices,
            outcome: t.outcome(g)?.map(|o| o.describe(g)),
        });
    }
    let outcome = if moves.is_empty() { s.outcome(g)?.map(|o| o.describe(g)) } else { None };
    Ok(Moves {
        to_move: g.players[s.current() as usize].clone(),
        count: out.len(),
        moves: out,
        outcome,
    })
}
