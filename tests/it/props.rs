//! Properties shared by the fuzz targets (`fuzz/`, which include this file)
//! and by the fast deterministic tests below: whatever the input, these
//! functions return normally (a failed property is a panic).
//!
//! - [`check_any`]: any bytes load to a game or to diagnostics that render,
//!   none of them an internal error (the parser and the lowering disagree).
//! - [`mutate`]: a bundled game mutated token by token (most mutants parse).
//! - [`agree_some`]: the compiled evaluator and the reference interpreter
//!   agree along random plies wherever both answer.
//! - [`play_checked`]: random play with invariants: every legal move plays,
//!   its notation reads back as the same move, the position text and JSON
//!   round-trip, observations never show hidden contents.
//! - [`wire_any`]: position text, position JSON and records never crash, and
//!   what reads back round-trips.

#![allow(dead_code)] // each fuzz target uses a part
#![allow(clippy::unwrap_used)] // a failed property is a panic

use tabula::ir::Visibility;
use tabula::wire::{observe, Record, StateRepr, Viewer};
use tabula::{Game, Source, State};

/// The bundled games: name and text.
pub const GAMES: &[(&str, &str)] = &[
    ("boop.game", include_str!("../../games/boop.game")),
    ("breakthrough.game", include_str!("../../games/breakthrough.game")),
    ("bug.game", include_str!("../../games/bug.game")),
    ("bug_off.game", include_str!("../../games/bug_off.game")),
    ("chess.game", include_str!("../../games/chess.game")),
    ("connect4.game", include_str!("../../games/connect4.game")),
    ("hex.game", include_str!("../../games/hex.game")),
    ("morris.game", include_str!("../../games/morris.game")),
    ("othello.game", include_str!("../../games/othello.game")),
    ("snekagon.game", include_str!("../../games/snekagon.game")),
    ("tictactoe.game", include_str!("../../games/tictactoe.game")),
];

/// Renders problems as the CLI does (no colour): the report code must not
/// panic on any span, and a report stays short.
pub fn render(problems: &[tabula::Problem]) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(80);
    let mut out = String::new();
    for p in problems {
        let before = out.len();
        handler.render_report(&mut out, p).unwrap();
        assert!(out.len() - before < 4_000, "a report of {} bytes", out.len() - before);
    }
    out
}

/// A `tabula::syntax::internal` report is a bug (a parse tree the lowering
/// does not expect): for users a report, for the properties a failure, as
/// the panic it replaced was.
pub fn no_internal_error(problems: &[tabula::Problem]) {
    if let Some(p) = problems.iter().find(|p| p.code == "tabula::syntax::internal") {
        panic!("the parser and the lowering disagree:\n{}", render(std::slice::from_ref(p)));
    }
}

/// Any bytes: a game (whose setup may fail with a rule error) or
/// diagnostics that render, none of them an internal error.
pub fn check_any(bytes: &[u8]) -> Option<Game> {
    let text = String::from_utf8_lossy(bytes);
    match Game::load(&Source::new("fuzz.game", text.as_ref()), &[]) {
        Ok(g) => {
            render(&g.warnings);
            Some(g)
        }
        Err(d) => {
            assert!(!d.problems.is_empty());
            assert!(d.problems.len() <= tabula::diag::MAX_PROBLEMS);
            render(&d.problems);
            no_internal_error(&d.problems);
            None
        }
    }
}

/// A token of a game text: a word, a number, a string, a comment,
/// whitespace or one other character.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else {
            i += 1;
            while !text.is_char_boundary(i) {
                i += 1;
            }
        }
        out.push(&text[start..i]);
    }
    out
}

/// Tokens worth inserting: keywords, operators, extreme numbers.
const VOCABULARY: &[&str] = &[
    " ",
    "\n",
    "(",
    ")",
    "{",
    "}",
    ",",
    ":",
    "..",
    "=",
    "==",
    "!=",
    "<",
    "+",
    "-",
    "*",
    "/",
    "%",
    "not",
    "and",
    "or",
    "if",
    "else",
    "while",
    "for",
    "in",
    "choose",
    "where",
    "any",
    "all",
    "count",
    "sum",
    "max",
    "collect",
    "none",
    "me",
    "opponent",
    "cells",
    "lines",
    "0",
    "1",
    "-1",
    "64",
    "65",
    "256",
    "2147483647",
    "2147483648",
    "99999999999",
    "true",
    "false",
    "require",
    "place",
    "remove",
    "move",
    "add",
    "take",
    "from",
    "to",
    "at",
    "win",
    "lose",
    "draw",
    "pass",
    "def",
    "action",
    "param",
    "board",
    "piece",
    "zone",
    "ordered",
    "hidden",
    "players",
    "turn",
    "setup",
    "range",
    "step",
    "neighbours",
    "owner",
    "kind",
    "empty",
    "shuffle",
    "first",
    "\"x\"",
];

/// A bundled game mutated token by token, driven by `data`: the first
/// byte picks the game, then each pair of bytes is one edit (delete,
/// duplicate, swap, insert from the vocabulary, or copy another token).
pub fn mutate(data: &[u8]) -> String {
    let Some((&pick, ops)) = data.split_first() else { return String::new() };
    let (_, text) = GAMES[pick as usize % GAMES.len()];
    let mut toks: Vec<&str> = tokens(text);
    for op in ops.chunks(3) {
        if toks.is_empty() {
            break;
        }
        let at = |i: usize| usize::from(op.get(i).copied().unwrap_or(0)) * 131 % toks.len().max(1);
        let i = (at(1) * 257 + at(2)) % toks.len();
        match op[0] % 5 {
            0 => {
                toks.remove(i);
            }
            1 => toks.insert(i, toks[i]),
            2 => {
                let j = at(2);
                toks.swap(i, j);
            }
            3 => toks.insert(
                i,
                VOCABULARY[usize::from(op.get(2).copied().unwrap_or(0)) % VOCABULARY.len()],
            ),
            _ => {
                let j = at(2);
                toks.insert(i, toks[j]);
            }
        }
    }
    toks.concat()
}

/// A small deterministic generator (SplitMix64), so that properties do not
/// depend on the library's own.
pub struct Gen(pub u64);

impl Gen {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Loads bundled game `pick` with parameters drawn from their declared
/// ranges.
pub fn bundled(pick: usize, gen: &mut Gen) -> Game {
    let (name, text) = GAMES[pick % GAMES.len()];
    let source = Source::new(name, text);
    let file = tabula::syntax::parse(&source).unwrap();
    let mut set = Vec::new();
    for item in &file.items {
        if let tabula::syntax::ast::Item::Param { name, range: Some((lo, hi)), .. } = item {
            let (tabula::syntax::ast::ExprKind::Int(lo), tabula::syntax::ast::ExprKind::Int(hi)) =
                (&lo.kind, &hi.kind)
            else {
                continue;
            };
            if gen.below(2) == 0 {
                set.push((name.name.clone(), lo + gen.below((hi - lo + 1) as usize) as i64));
            }
        }
    }
    // Every value of a declared range checks (the checker promises it).
    Game::load(&source, &set)
        .unwrap_or_else(|d| panic!("{name} with {set:?}: {}", render(&d.problems)))
}

/// Plays a few moves of any game, ignoring rule errors (mutants).
pub fn play_some(g: &Game, seed: u64, plies: usize) {
    let mut gen = Gen(seed);
    let Ok(mut s) = State::initial_seeded(g, seed) else { return };
    for _ in 0..plies {
        let Ok(moves) = s.legal_moves(g) else { return };
        if moves.is_empty() {
            return;
        }
        let m = &moves[gen.below(moves.len())];
        let _ = tabula::interp::explain(g, &s, &State::move_text(g, m));
        if s.play_unchecked(g, m).is_err() {
            return;
        }
    }
}

/// Plays up to `plies` moves, chosen by `choices` (then by `seed`), from a
/// deal seeded by `seed`, checking the invariants at every position.
pub fn play_checked(g: &Game, seed: u64, choices: &[u8], plies: usize) {
    let mut gen = Gen(seed);
    let Ok(mut s) = State::initial_seeded(g, seed) else { return };
    for ply in 0..plies {
        position_round_trips(g, &s);
        observations_hide(g, &s);
        let Ok(moves) = s.legal_moves(g) else { return };
        if moves.is_empty() {
            return;
        }
        // A sample of the moves (reading a move back compares it with every
        // legal move, so all of them would be quadratic).
        for _ in 0..moves.len().min(6) {
            let m = &moves[gen.below(moves.len())];
            let text = State::move_text(g, m);
            let back = s.parse_move(g, &text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
            assert_eq!(&back, m, "`{text}` reads back as another move");
        }
        let pick = match choices.get(ply) {
            Some(&c) => usize::from(c) % moves.len(),
            None => gen.below(moves.len()),
        };
        s = s.play(g, &moves[pick]).unwrap_or_else(|e| {
            panic!("legal move `{}` does not play: {e}", State::move_text(g, &moves[pick]))
        });
    }
}

/// The position text and JSON read back as the same position.
pub fn position_round_trips(g: &Game, s: &State) {
    let text = s.to_text(g);
    let back = State::from_text(g, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.to_text(g), text);
    let json = serde_json::to_string(&StateRepr::new(g, s)).unwrap();
    let repr: StateRepr = serde_json::from_str(&json).unwrap();
    assert_eq!(repr.to_state(g).unwrap().to_text(g), text);
}

/// A player's observation never holds the contents of a zone they may not
/// see; a spectator's never holds any non-public contents.
pub fn observations_hide(g: &Game, s: &State) {
    for viewer in (0..g.players.len() as u8).map(Viewer::Player).chain([Viewer::Public]) {
        let obs = observe(g, s, viewer);
        for z in &obs.zones {
            let zone = g.zones.iter().find(|x| x.name == z.zone).unwrap();
            let owner = z.player.as_ref().and_then(|p| g.players.iter().position(|q| q == p));
            let may = match (viewer, zone.visibility) {
                (_, Visibility::Public) => true,
                (Viewer::Player(v), Visibility::Owner) => owner == Some(v as usize),
                _ => false,
            };
            assert!(may || z.contents.is_none(), "{:?} sees {}", viewer, z.zone);
        }
    }
}

/// Position text, position JSON and a record, all from the same text:
/// never a crash; a position that reads is valid and round-trips.
pub fn wire_any(g: &Game, text: &str) {
    if let Ok(s) = State::from_text(g, text) {
        position_round_trips(g, &s);
        let _ = s.legal_moves(g);
    }
    if let Ok(repr) = serde_json::from_str::<StateRepr>(text) {
        if let Ok(s) = repr.to_state(g) {
            position_round_trips(g, &s);
        }
    }
    if let Ok(rec) = serde_json::from_str::<Record>(text) {
        let _ = rec.game_path(std::path::Path::new("records/r.json"));
        let _ = rec.replay(g);
    }
}

/// Most moves of a position [`agree_some`] asks the reference for.
pub const AGREE_MOVES: usize = 2_000;

/// The compiled evaluator and the reference interpreter agree along a few
/// random plies of `g` wherever both answer: the same first position, the
/// same move lists, outcomes and successors. A side that stops with an
/// error (a step limit, a rule error) ends the comparison: passes may take
/// fewer steps than the written rules, and a lazy tail meets an error
/// when its move is played rather than listed. The compiled side is asked
/// first, and the reference (which replays the turn for every choice) only
/// where there are at most [`AGREE_MOVES`] moves, so that a mutant whose
/// turn multiplies its choices costs the fuzzer little.
pub fn agree_some(g: &Game, seed: u64, plies: usize) {
    use tabula::interp::reference;
    let mut gen = Gen(seed);
    let (Ok(mut s), Ok(r)) = (State::initial_seeded(g, seed), reference::initial(g, seed)) else {
        return;
    };
    assert_eq!(s, r, "the first positions differ");
    for ply in 0..plies {
        let Ok(ours) = s.legal_moves(g) else { return };
        if ours.len() > AGREE_MOVES {
            return;
        }
        let Ok(theirs) = reference::legal_moves(g, &s) else { return };
        assert_eq!(ours, theirs, "ply {ply}: the move lists differ\n{}", s.to_text(g));
        let (Ok(a), Ok(b)) = (s.outcome(g), reference::outcome(g, &s)) else { return };
        assert_eq!(a, b, "ply {ply}: the outcomes differ");
        if ours.is_empty() {
            return;
        }
        let m = &ours[gen.below(ours.len())];
        let mut t = s.clone();
        let (Ok(()), Ok(r)) = (t.play_unchecked(g, m), reference::play(g, &s, m)) else { return };
        assert_eq!(t, r, "ply {ply}: {} leads elsewhere", State::move_text(g, m));
        s = t;
    }
}
