//! Move notation: printing a move and reading one back.
//!
//! A move prints as its choices in order, separated by spaces. Each choice
//! prints as its `as "label"` (if any) followed by the chosen value, or as
//! the label with `{}` replaced by the value (`as "+{}"` gives `+d4`): a cell
//! by name (`c3`), a piece kind by symbol (`K`), a line by its end cells
//! (`b2-d4`), a player or direction by name, a number in digits. A move with
//! no choices (a forced pass) prints as `pass`.
//!
//! Reading is exact and needs no grammar of its own: the text is compared,
//! token by token and ignoring case, with the printed form of every legal
//! move. A text that is the start of one or more legal moves is reported as
//! incomplete, with the possible continuations. A choice declared `as
//! short` may also be typed by the start of its value; such a short form is
//! read only when no move matches exactly and exactly one legal move fits.

use crate::ir::{Value, NONE16, NONE8};
use crate::state::{Move, RunError, State};
use crate::Game;
use std::fmt;

/// Why a typed move was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing was typed.
    Empty,
    /// The text is no legal move here.
    Illegal {
        /// What was typed (normalised).
        text: String,
        /// How many legal moves there are.
        legal: usize,
    },
    /// The text is the start of legal moves; these tokens may follow.
    Incomplete {
        /// What was typed (normalised).
        text: String,
        /// Possible next tokens, in move order without repeats.
        next: Vec<String>,
    },
    /// The game is over.
    GameOver,
    /// A rule failed while generating moves.
    Rule(RunError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "no move given"),
            MoveError::Illegal { text, legal } => {
                write!(
                    f,
                    "`{text}` is not a legal move here ({legal} legal moves; `moves` lists them)"
                )
            }
            MoveError::Incomplete { text, next } => {
                let shown: Vec<&str> = next.iter().take(12).map(|s| s.as_str()).collect();
                let more = if next.len() > 12 { ", ..." } else { "" };
                write!(
                    f,
                    "`{text}` is not a whole move; it may go on with: {}{more}",
                    shown.join(", ")
                )
            }
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::Rule(e) => write!(f, "a rule failed: {e}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A value as it appears in notation.
pub fn value_text(g: &crate::ir::Game, v: Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Cell(c) => g.board.names.get(c as usize).cloned().unwrap_or_else(|| "none".into()),
        Value::Player(p) if p != NONE8 => g.players[p as usize].clone(),
        Value::Kind(k) if k != NONE16 => g.kinds[k as usize].symbol.clone(),
        Value::Player(_) | Value::Kind(_) => "none".into(),
        Value::Dir(d) => g.board.dir_names[d as usize].to_string(),
        Value::Line(l) => g.board.line_name(l),
        Value::Cells(s) => {
            let names: Vec<&str> = s.iter().map(|c| g.board.names[c as usize].as_str()).collect();
            names.join(" ")
        }
        Value::Zone(z, p) => {
            let zone = &g.zones[z as usize];
            if zone.per_player {
                format!("{}({})", zone.name, g.players[p as usize])
            } else {
                zone.name.clone()
            }
        }
        Value::Dirs => "dirs".into(),
        Value::Kinds => "kinds".into(),
        Value::Players => "players".into(),
        Value::Lines(..) => "lines".into(),
        Value::Groups(p) => format!("groups({})", g.players[p as usize]),
        Value::Placements(k) => format!("placements({})", g.kinds[k as usize].symbol),
        Value::Range(a, b) => format!("{a}..{b}"),
        Value::KindList(l) | Value::PlayerList(l) | Value::DirList(l) | Value::IntList(l) => {
            let ty = v.ty().elem().unwrap_or(crate::ir::Ty::Int);
            let items: Vec<String> = g
                .lists
                .get(l as usize)
                .map(|ws| {
                    ws.iter()
                        .map(|&w| value_text(g, crate::compile::expr::word_value(ty, w)))
                        .collect()
                })
                .unwrap_or_default();
            format!("[{}]", items.join(", "))
        }
    }
}

/// A variable's value (word `w` of variable `v`) as text: a number, a
/// condition, a name (kinds by name), `none`, or the phase's name.
pub fn var_text(g: &crate::ir::Game, v: u16, w: i64) -> String {
    let Some(d) = g.vars.get(v as usize) else { return w.to_string() };
    if d.phase {
        return g.phases.get(w as usize).cloned().unwrap_or_else(|| w.to_string());
    }
    match crate::compile::expr::word_value(d.ty, w) {
        Value::Kind(k) if k != NONE16 => g.kinds[k as usize].name.clone(),
        other => value_text(g, other),
    }
}

/// Reads a variable's value written by [`var_text`].
pub fn var_parse(g: &crate::ir::Game, v: u16, text: &str) -> Option<i64> {
    let d = g.vars.get(v as usize)?;
    if d.phase {
        return g.phases.iter().position(|p| p == text).map(|i| i as i64);
    }
    let none = crate::compile::expr::none_word(d.ty);
    match d.ty {
        crate::ir::Ty::Int => text.parse().ok(),
        crate::ir::Ty::Bool => match text {
            "true" => Some(1),
            "false" => Some(0),
            _ => None,
        },
        _ if text == "none" => Some(none),
        crate::ir::Ty::Cell => g.board.cell(text).map(i64::from),
        crate::ir::Ty::Player => g.players.iter().position(|p| p == text).map(|i| i as i64),
        crate::ir::Ty::Kind => {
            g.kinds.iter().position(|k| k.name == text || k.symbol == text).map(|i| i as i64)
        }
        crate::ir::Ty::Dir => g.board.dir_names.iter().position(|d| d == text).map(|i| i as i64),
        _ => None,
    }
}

/// One choice as printed: its label with the value in place of `{}`, or
/// the label and the value separated by a space, or the value alone.
pub fn choice_text(g: &crate::ir::Game, site: u16, v: Value) -> String {
    if let (Some(branches), Value::Int(b)) = (&g.sites[site as usize].branches, v) {
        return branches.get(b as usize).cloned().flatten().unwrap_or_default();
    }
    let value = value_text(g, v);
    match &g.sites[site as usize].label {
        Some(l) if l.contains("{}") => l.replace("{}", &value),
        Some(l) => format!("{l} {value}"),
        None => value,
    }
}

fn tokens(g: &crate::ir::Game, mv: &Move) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in &mv.choices {
        out.extend(choice_text(g, c.site, c.value).split_whitespace().map(str::to_string));
    }
    if out.is_empty() {
        out.push("pass".into());
    }
    out
}

/// The move in notation.
pub fn text(g: &crate::ir::Game, mv: &Move) -> String {
    tokens(g, mv).join(" ")
}

/// Whether `typed` starts with one choice's notation; how many words it
/// takes. Case is ignored, and the cells of a set of cells (a tile
/// placement) may be typed in any order.
pub(crate) fn choice_matches(g: &Game, site: u16, v: Value, typed: &[String]) -> Option<usize> {
    if let Value::Cells(set) = v {
        if let Some(n) = placement_by_anchor(g, site, set, typed) {
            return Some(n);
        }
    }
    let text = choice_text(g, site, v).to_ascii_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let n = words.len();
    if typed.len() < n {
        return None;
    }
    let got: Vec<String> = typed[..n].iter().map(|t| t.to_ascii_lowercase()).collect();
    let mut got: Vec<&str> = got.iter().map(String::as_str).collect();
    let mut want = words;
    if matches!(v, Value::Cells(_)) {
        // A label (if any) first, then the cell names in any order.
        let skip = usize::from(g.sites[site as usize].label.is_some()).min(n);
        want[skip..].sort_unstable();
        got[skip..].sort_unstable();
    }
    (want == got).then_some(n)
}

/// A tile placement typed as `ANCHOR:N`: the cell where the tile's first
/// listed cell lands and the orientation number (0 = as declared, then
/// turns; the reflected ones follow). Matches if some tile kind covers
/// exactly `set` that way. Returns the words taken (with a label, if any).
fn placement_by_anchor(
    g: &Game,
    site: u16,
    set: crate::board::CellSet,
    typed: &[String],
) -> Option<usize> {
    let skip = usize::from(g.sites[site as usize].label.is_some());
    if skip == 1 && !typed.first()?.eq_ignore_ascii_case(g.sites[site as usize].label.as_deref()?) {
        return None;
    }
    let (cell, orient) = typed.get(skip)?.split_once(':')?;
    let anchor = g.board.cell(cell)?;
    let t: usize = orient.parse().ok()?;
    if t >= g.board.symmetries() {
        return None;
    }
    let fits = g
        .kinds
        .iter()
        .filter_map(|k| k.shape.as_deref())
        .any(|shape| shape.len() == set.len() && g.board.image(shape, t, anchor) == Some(set));
    fits.then_some(skip + 1)
}

/// Like [`choice_matches`], and for a choice of an `as short` site also
/// the start of its value (its label, if any, typed in full): `d` for
/// `d4`.
fn choice_matches_short(g: &Game, site: u16, v: Value, typed: &[String]) -> Option<usize> {
    if let Some(n) = choice_matches(g, site, v, typed) {
        return Some(n);
    }
    if !g.sites.get(site as usize).is_some_and(|s| s.short) {
        return None;
    }
    let text = choice_text(g, site, v).to_ascii_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let (value, label) = words.split_last()?;
    let n = words.len();
    if typed.len() < n || label.iter().zip(typed).any(|(w, t)| !w.eq_ignore_ascii_case(t)) {
        return None;
    }
    let start = typed[n - 1].to_ascii_lowercase();
    // The start must end where a letter meets a digit (or other sign):
    // `d` for `d4`, never `a1` for `a11`.
    let class = |c: u8| (c.is_ascii_alphabetic(), c.is_ascii_digit());
    let cut = value.as_bytes().get(start.len()).zip(start.as_bytes().last());
    let at_boundary = cut.is_some_and(|(&next, &last)| class(next) != class(last));
    (at_boundary && value.starts_with(&start)).then_some(n)
}

/// How many of `typed` the move's notation takes, if `typed` starts with
/// it; with `short`, choices of `as short` sites may be shortened.
fn leading_match_with(g: &Game, mv: &Move, typed: &[String], short: bool) -> Option<usize> {
    if mv.choices.is_empty() {
        // A forced pass.
        return typed.first().is_some_and(|t| t.eq_ignore_ascii_case("pass")).then_some(1);
    }
    let mut pos = 0;
    for c in &mv.choices {
        pos += if short {
            choice_matches_short(g, c.site, c.value, &typed[pos..])?
        } else {
            choice_matches(g, c.site, c.value, &typed[pos..])?
        };
    }
    Some(pos)
}

/// How many of `typed` the move's notation takes, if `typed` starts with it.
fn leading_match(g: &Game, mv: &Move, typed: &[String]) -> Option<usize> {
    leading_match_with(g, mv, typed, false)
}

/// Whether the game has a choice that may be typed short.
fn has_short(g: &Game) -> bool {
    g.sites.iter().any(|s| s.short)
}

/// Reads a move typed in notation.
pub fn parse(g: &Game, s: &State, input: &str) -> Result<Move, MoveError> {
    let typed: Vec<String> = input.split_whitespace().map(|t| t.to_ascii_lowercase()).collect();
    if typed.is_empty() {
        return Err(MoveError::Empty);
    }
    let legal = s.legal_moves(g).map_err(MoveError::Rule)?;
    if legal.is_empty() {
        return Err(MoveError::GameOver);
    }
    let mut next: Vec<String> = Vec::new();
    for m in &legal {
        if leading_match(g, m, &typed) == Some(typed.len()) {
            return Ok(m.clone());
        }
    }
    if has_short(g) {
        // Short forms: the move if exactly one fits; the ones that fit if
        // several do.
        let fits: Vec<&Move> = legal
            .iter()
            .filter(|m| leading_match_with(g, m, &typed, true) == Some(typed.len()))
            .collect();
        match fits.as_slice() {
            [] => {}
            [one] => return Ok((*one).clone()),
            many => {
                return Err(MoveError::Incomplete {
                    text: typed.join(" "),
                    next: many.iter().map(|m| text(g, m)).collect(),
                })
            }
        }
    }
    for m in &legal {
        let t = tokens(g, m);
        let lower: Vec<String> = t.iter().map(|x| x.to_ascii_lowercase()).collect();
        if lower.len() > typed.len() && lower[..typed.len()] == typed[..] {
            let n = &t[typed.len()];
            if !next.contains(n) {
                next.push(n.clone());
            }
        }
    }
    let text = typed.join(" ");
    if next.is_empty() {
        Err(MoveError::Illegal { text, legal: legal.len() })
    } else {
        Err(MoveError::Incomplete { text, next })
    }
}

/// A move of a sequence that could not be read or played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceError {
    /// Which move (from 1).
    pub index: usize,
    /// What was read for it.
    pub text: String,
    /// Why it failed.
    pub error: MoveError,
}

impl fmt::Display for SequenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} (`{}`): {}", self.index, self.text, self.error)
    }
}

/// Reads and plays a sequence of moves from `s`. Moves are separated by
/// commas or semicolons (`K c3, K d4`); without any, the tokens are split
/// into moves by the legal moves of each position, each move as long as a
/// legal move allows (`c3 a1 b4`, `K c3 K d4`). Returns the final position.
pub fn play_sequence(g: &Game, s: &State, text: &str) -> Result<State, SequenceError> {
    let mut s = s.clone();
    if text.contains([',', ';']) {
        for (i, m) in text.split([',', ';']).map(str::trim).filter(|m| !m.is_empty()).enumerate() {
            let fail = |error| SequenceError { index: i + 1, text: m.to_string(), error };
            let mv = parse(g, &s, m).map_err(fail)?;
            s = s.play(g, &mv).map_err(fail)?;
        }
        return Ok(s);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut pos = 0;
    let mut index = 0;
    while pos < words.len() {
        index += 1;
        let legal = s.legal_moves(g).map_err(|e| SequenceError {
            index,
            text: words[pos].to_string(),
            error: MoveError::Rule(e),
        })?;
        // The longest run of tokens that is a whole legal move.
        let rest: Vec<String> = words[pos..].iter().map(|w| w.to_ascii_lowercase()).collect();
        let mut best: Option<(usize, &Move)> = None;
        for m in &legal {
            if let Some(n) = leading_match(g, m, &rest) {
                if best.is_none_or(|(k, _)| n > k) {
                    best = Some((n, m));
                }
            }
        }
        if best.is_none() && has_short(g) {
            // Short forms: the longest that exactly one legal move fits.
            let mut fits: Vec<(usize, &Move)> = legal
                .iter()
                .filter_map(|m| leading_match_with(g, m, &rest, true).map(|n| (n, m)))
                .collect();
            let longest = fits.iter().map(|f| f.0).max().unwrap_or(0);
            fits.retain(|f| f.0 == longest);
            if let [one] = fits.as_slice() {
                best = Some(*one);
            }
        }
        let Some((n, mv)) = best else {
            // Explain with the rest of the line read as one move.
            let rest = words[pos..].join(" ");
            let error = match parse(g, &s, &rest) {
                Err(e) => e,
                Ok(_) => MoveError::Illegal { text: rest.clone(), legal: legal.len() },
            };
            return Err(SequenceError { index, text: rest, error });
        };
        s.play_unchecked(g, mv).map_err(|e| SequenceError {
            index,
            text: words[pos..pos + n].join(" "),
            error: MoveError::Rule(e),
        })?;
        pos += n;
    }
    Ok(s)
}
