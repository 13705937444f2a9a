//! Positions and moves at the boundary: a readable position text and serde
//! representations that use names, never internal ids.
//!
//! # Position text
//! One fact per line; `#` starts a comment. Everything not mentioned is
//! empty or zero.
//! ```text
//! turn Black                # who moves next (default: the first player)
//! ply 12                    # turns played so far (default 0)
//! White Stone a1 b2         # pieces: player, kind, cells
//! Black Queen c3
//! pool White Stone 5        # zone counts: zone, player (if per player), kind, count
//! deck Ace King Two         # ordered zones: zone, player (if per player), pieces first to last
//! deck Ace | King 2 Two 1 | Queen   # between bars: face down, in no order yet (kind, count)
//! score White 3             # variables: name, player (if per player), value
//! seen 0a1b... 2c3d...      # positions that began a turn (games counting repetitions)
//! ```
//!
//! # Validation
//! A position from text or JSON is checked before it is used: every name
//! exists, no cell holds two pieces, no zone lists a kind (or an ordered
//! zone its contents) twice, the ply is at most [`MAX_PLY`], a zone holds at
//! most [`MAX_ZONE_PIECES`] pieces, and, in a game whose rules create no
//! piece after `setup` (no `place` or `add` in the turn, `on no moves` or
//! `at end`), no kind has more pieces in all than the setup creates: ten
//! cards in a row of six Bug Off! cards (one of each) are refused.
//!
//! # Records
//! A [`Record`] names its game by a path relative to the record's own
//! folder, which must end in `.game`, and by a hash of the game's text; it
//! carries a check over all its fields. Replaying refuses a record whose
//! game text differs from the one it was played with, whose fields were
//! edited, or whose moves or result do not replay.

use crate::ir::Visibility;
use crate::state::{Move, Outcome, State};
use crate::Game;
use serde::{Deserialize, Serialize};

/// A position with names instead of ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateRepr {
    /// The player to move (or the last mover, when the game is over).
    pub to_move: String,
    /// Turns played.
    pub ply: u32,
    /// `White wins`, `draw`, ... if the game ended by a rule.
    pub outcome: Option<String>,
    /// Pieces on the board: `[cell, player, kind]`, in cell order.
    pub pieces: Vec<[String; 3]>,
    /// Non-zero zone counts.
    pub zones: Vec<ZoneCount>,
    /// Non-empty ordered zones, first to last (by kind name).
    #[serde(default)]
    pub sequences: Vec<SequenceRepr>,
    /// Which `compare` key decided the outcome (0 = the first).
    #[serde(default)]
    pub decided_by: Option<u8>,
    /// A turn under way (interrupted by a chance event): its moves and
    /// chance outcomes so far, in notation, from the position above.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_so_far: Vec<String>,
    /// Variables (`var`, `clock`) whose values differ from their start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<VarRepr>,
    /// For games that count repetitions: the positions that began a turn,
    /// oldest first, as 16-digit hexadecimal keys.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seen: Vec<String>,
    /// The result when the game is over: by a rule (as `outcome`), or
    /// because the player to move has no move and `on no moves` ends the
    /// game. Filled in by [`StateRepr::with_game_over`]; a position read
    /// back ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_over: Option<String>,
}

/// The value of a variable kept in the position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarRepr {
    /// The variable's name.
    pub name: String,
    /// Whose (absent for a variable of the whole game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Its value as written in a position text: a number, `true`/`false`,
    /// a name (cell, player, kind, direction, phase) or `none`.
    pub value: String,
}

/// Every variable (of every player), or only those that differ from
/// their starting value.
fn vars_of(g: &crate::ir::Game, s: &State, all: bool) -> Vec<VarRepr> {
    let mut out = Vec::new();
    for (i, v) in g.vars.iter().enumerate() {
        let owners = if v.per_player { g.players.len() } else { 1 };
        for p in 0..owners as u8 {
            let w = s.var(g, i as u16, p);
            if all || w != v.init {
                out.push(VarRepr {
                    name: v.name.clone(),
                    player: v.per_player.then(|| g.players[p as usize].clone()),
                    value: crate::notation::var_text(g, i as u16, w),
                });
            }
        }
    }
    out
}

/// The contents of one ordered zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SequenceRepr {
    /// The zone's name.
    pub zone: String,
    /// The owner (absent for shared zones).
    pub player: Option<String>,
    /// Kind names, first to last (the known front).
    pub pieces: Vec<String>,
    /// Pieces face down after the front, in no order yet: kind names and counts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub face_down: Vec<(String, u16)>,
    /// Kind names after the face-down pieces, first to last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub back: Vec<String>,
}

/// One non-zero zone counter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneCount {
    /// The zone's name.
    pub zone: String,
    /// The owner (absent for shared zones).
    pub player: Option<String>,
    /// The piece kind.
    pub kind: String,
    /// How many.
    pub count: u16,
}

/// A move with its notation and its choices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRepr {
    /// The move in the game's notation.
    pub text: String,
}

impl MoveRepr {
    /// The representation of a move.
    pub fn new(g: &Game, m: &Move) -> MoveRepr {
        MoveRepr { text: State::move_text(g, m) }
    }
}

impl StateRepr {
    /// Sets [`StateRepr::game_over`] from the game's outcome (`None`: not over).
    pub fn with_game_over(mut self, g: &crate::ir::Game, over: Option<Outcome>) -> StateRepr {
        self.game_over = over.map(|o| o.describe(g));
        self
    }

    /// The representation of a state.
    pub fn new(g: &crate::ir::Game, s: &State) -> StateRepr {
        let mut pieces = Vec::new();
        for c in 0..g.board.len() as u16 {
            if let Some((p, k)) = s.piece(g, c) {
                pieces.push([
                    g.board.names[c as usize].clone(),
                    g.players[p as usize].clone(),
                    g.kinds[k as usize].name.clone(),
                ]);
            }
        }
        let mut zones = Vec::new();
        let mut sequences = Vec::new();
        for (z, zone) in g.zones.iter().enumerate() {
            let owners = if zone.per_player { g.players.len() } else { 1 };
            for p in 0..owners as u8 {
                if zone.ordered {
                    let seq = s.sequence(g, z as u16, p);
                    if !seq.is_empty() {
                        let names = |v: &[u16]| {
                            v.iter().map(|&k| g.kinds[k as usize].name.clone()).collect()
                        };
                        sequences.push(SequenceRepr {
                            zone: zone.name.clone(),
                            player: zone.per_player.then(|| g.players[p as usize].clone()),
                            pieces: names(&seq.front().collect::<Vec<_>>()),
                            face_down: seq
                                .hidden_kinds()
                                .map(|(k, n)| (g.kinds[k as usize].name.clone(), n))
                                .collect(),
                            back: names(&seq.back),
                        });
                    }
                    continue;
                }
                for k in 0..g.kinds.len() as u16 {
                    let n = s.count(g, z as u16, p, k);
                    if n > 0 {
                        zones.push(ZoneCount {
                            zone: zone.name.clone(),
                            player: zone.per_player.then(|| g.players[p as usize].clone()),
                            kind: g.kinds[k as usize].name.clone(),
                            count: n,
                        });
                    }
                }
            }
        }
        // The turn under way, as its moves and chance outcomes.
        let mut turn_so_far = Vec::new();
        if let Some(pd) = s.pending() {
            let mut mv = Vec::new();
            for c in &pd.events {
                let chance = g.sites.get(c.site as usize).is_some_and(|x| x.chance);
                if chance {
                    if !mv.is_empty() {
                        let m = Move { choices: std::mem::take(&mut mv), stuck: false };
                        turn_so_far.push(crate::notation::text(g, &m));
                    }
                    let m = Move { choices: vec![*c], stuck: false };
                    turn_so_far.push(crate::notation::text(g, &m));
                } else {
                    mv.push(*c);
                }
            }
            if !mv.is_empty() {
                turn_so_far.push(crate::notation::text(g, &Move { choices: mv, stuck: false }));
            }
        }
        StateRepr {
            to_move: g.players[s.current() as usize].clone(),
            ply: s.ply(),
            outcome: s.ended().map(|o| o.describe(g)),
            pieces,
            zones,
            sequences,
            decided_by: s.decided_by(),
            turn_so_far,
            vars: vars_of(g, s, false),
            seen: {
                let mut keys: Vec<String> =
                    s.history().keys().map(|k| format!("{k:016x}")).collect();
                keys.reverse();
                keys
            },
            game_over: None,
        }
    }

    /// The state this represents, validated (see the module docs).
    pub fn to_state(&self, g: &Game) -> Result<State, String> {
        let mut s = State::empty(g);
        s.set_current(player(g, &self.to_move)?);
        if self.ply > MAX_PLY {
            return Err(format!(
                "ply {} is more than any game lasts (at most {MAX_PLY})",
                self.ply
            ));
        }
        s.ply = self.ply;
        s.outcome = match &self.outcome {
            None => None,
            Some(text) => Some(outcome_from(g, text)?),
        };
        for [cell, p, k] in &self.pieces {
            let c = g.board.cell(cell).ok_or_else(|| format!("no cell `{cell}` on this board"))?;
            let piece = (player(g, p)?, kind(g, k)?);
            if let Some((q, j)) = s.piece(g, c) {
                return Err(format!(
                    "two pieces on `{cell}`: {} {} and {p} {k}",
                    g.players[q as usize], g.kinds[j as usize].name
                ));
            }
            s.set_piece(g, c, Some(piece));
        }
        for z in &self.zones {
            let zid = g
                .zones
                .iter()
                .position(|x| x.name == z.zone)
                .ok_or_else(|| format!("no zone `{}`", z.zone))?;
            let p = match (&z.player, g.zones[zid].per_player) {
                (Some(p), true) => player(g, p)?,
                (None, false) => 0,
                (None, true) => return Err(format!("zone `{}` needs a player", z.zone)),
                (Some(_), false) => return Err(format!("zone `{}` is shared", z.zone)),
            };
            if g.zones[zid].ordered {
                return Err(format!("zone `{}` is ordered: list its pieces", z.zone));
            }
            let k = kind(g, &z.kind)?;
            if s.count(g, zid as u16, p, k) != 0 {
                return Err(format!("zone `{}` lists `{}` twice", z.zone, z.kind));
            }
            s.set_count(g, zid as u16, p, k, z.count);
        }
        for q in &self.sequences {
            let zid = g
                .zones
                .iter()
                .position(|x| x.name == q.zone && x.ordered)
                .ok_or_else(|| format!("no ordered zone `{}`", q.zone))?;
            let p = match (&q.player, g.zones[zid].per_player) {
                (Some(p), true) => player(g, p)?,
                (None, false) => 0,
                (None, true) => return Err(format!("zone `{}` needs a player", q.zone)),
                (Some(_), false) => return Err(format!("zone `{}` is shared", q.zone)),
            };
            if q.pieces.len() > MAX_ZONE_PIECES {
                return Err(format!("zone `{}` holds more than {MAX_ZONE_PIECES} pieces", q.zone));
            }
            let kinds =
                |v: &[String]| v.iter().map(|k| kind(g, k)).collect::<Result<Vec<u16>, String>>();
            let mut middle = Vec::new();
            if !q.face_down.is_empty() {
                middle = vec![0u16; g.kinds.len()];
                for (k, n) in &q.face_down {
                    let slot = &mut middle[kind(g, k)? as usize];
                    *slot = slot.checked_add(*n).ok_or_else(|| {
                        format!("zone `{}` holds more than {MAX_ZONE_PIECES} pieces", q.zone)
                    })?;
                }
            }
            // With nothing face down, one known list (the canonical form).
            let seq = crate::state::Seq::from_parts(kinds(&q.pieces)?, middle, kinds(&q.back)?);
            if seq.len() > MAX_ZONE_PIECES {
                return Err(format!("zone `{}` holds more than {MAX_ZONE_PIECES} pieces", q.zone));
            }
            if !s.sequence(g, zid as u16, p).is_empty() {
                return Err(format!("zone `{}` is listed twice", q.zone));
            }
            s.set_sequence(g, zid as u16, p, seq);
        }
        s.decided_by = self.decided_by;
        for v in &self.vars {
            let id = g
                .vars
                .iter()
                .position(|x| x.name == v.name)
                .ok_or_else(|| format!("no variable `{}`", v.name))?;
            let p = match (&v.player, g.vars[id].per_player) {
                (Some(p), true) => player(g, p)?,
                (None, false) => 0,
                (None, true) => return Err(format!("variable `{}` needs a player", v.name)),
                (Some(_), false) => {
                    return Err(format!("variable `{}` is one for the game", v.name))
                }
            };
            let w = crate::notation::var_parse(g, id as u16, &v.value)
                .ok_or_else(|| format!("`{}` is not a value of variable `{}`", v.value, v.name))?;
            s.set_var(g, id as u16, p, w);
        }
        if !self.seen.is_empty() {
            let keys = self
                .seen
                .iter()
                .map(|k| u64::from_str_radix(k, 16).map_err(|_| format!("`{k}` is not a key")))
                .collect::<Result<Vec<u64>, String>>()?;
            s.set_history(crate::state::History::from_keys(&keys));
        } else {
            s.record(g);
        }
        validate(g, &s)?;
        // The turn under way: its moves and chance outcomes, replayed.
        crate::eval::settle(g, &mut s).map_err(|e| e.message.clone())?;
        for text in &self.turn_so_far {
            let m = s.parse_move(g, text).map_err(|e| format!("turn so far, `{text}`: {e}"))?;
            s.play_unchecked(g, &m).map_err(|e| e.message.clone())?;
        }
        Ok(s)
    }

    /// The position text (see the module docs).
    pub fn to_text(&self) -> String {
        let mut out = format!("turn {}\nply {}\n", self.to_move, self.ply);
        if let Some(o) = &self.outcome {
            out.push_str(&format!("outcome {o}\n"));
        }
        let mut groups: Vec<(String, String, Vec<String>)> = Vec::new();
        for [c, p, k] in &self.pieces {
            match groups.iter_mut().find(|(gp, gk, _)| gp == p && gk == k) {
                Some(g) => g.2.push(c.clone()),
                None => groups.push((p.clone(), k.clone(), vec![c.clone()])),
            }
        }
        for (p, k, cells) in groups {
            out.push_str(&format!("{p} {k} {}\n", cells.join(" ")));
        }
        for z in &self.zones {
            match &z.player {
                Some(p) => out.push_str(&format!("{} {p} {} {}\n", z.zone, z.kind, z.count)),
                None => out.push_str(&format!("{} {} {}\n", z.zone, z.kind, z.count)),
            }
        }
        for q in &self.sequences {
            let owner = q.player.as_ref().map(|p| format!(" {p}")).unwrap_or_default();
            let mut line = format!("{}{owner}", q.zone);
            for k in &q.pieces {
                line.push(' ');
                line.push_str(k);
            }
            if !q.face_down.is_empty() || !q.back.is_empty() {
                line.push_str(" |");
                for (k, n) in &q.face_down {
                    line.push_str(&format!(" {k} {n}"));
                }
                line.push_str(" |");
                for k in &q.back {
                    line.push(' ');
                    line.push_str(k);
                }
            }
            out.push_str(&line);
            out.push('\n');
        }
        if let Some(k) = self.decided_by {
            out.push_str(&format!("decided-by {k}\n"));
        }
        for v in &self.vars {
            match &v.player {
                Some(p) => out.push_str(&format!("{} {p} {}\n", v.name, v.value)),
                None => out.push_str(&format!("{} {}\n", v.name, v.value)),
            }
        }
        if !self.seen.is_empty() {
            out.push_str(&format!("seen {}\n", self.seen.join(" ")));
        }
        for m in &self.turn_so_far {
            out.push_str(&format!("then {m}\n"));
        }
        out
    }

    /// Reads a position text (see the module docs).
    pub fn from_text(g: &Game, text: &str) -> Result<StateRepr, String> {
        let mut r = StateRepr {
            to_move: g.players[0].clone(),
            ply: 0,
            outcome: None,
            pieces: Vec::new(),
            zones: Vec::new(),
            sequences: Vec::new(),
            decided_by: None,
            turn_so_far: Vec::new(),
            vars: Vec::new(),
            seen: Vec::new(),
            game_over: None,
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            let err = |m: String| format!("line {}: {m}", i + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(first) = words.first() else { continue };
            match *first {
                "turn" if words.len() == 2 => {
                    r.to_move = g.players[player(g, words[1]).map_err(err)? as usize].clone();
                }
                "ply" if words.len() == 2 => {
                    r.ply = words[1].parse().map_err(|_| err("`ply` needs a number".into()))?;
                }
                "outcome" => r.outcome = Some(words[1..].join(" ")),
                "then" if words.len() > 1 => r.turn_so_far.push(words[1..].join(" ")),
                "seen" => r.seen.extend(words[1..].iter().map(|w| w.to_string())),
                w if g.vars.iter().any(|v| v.name == w) => {
                    let per = g.vars.iter().any(|v| v.name == w && v.per_player);
                    match (per, &words[1..]) {
                        (true, [p, value]) => r.vars.push(VarRepr {
                            name: w.to_string(),
                            player: Some(p.to_string()),
                            value: value.to_string(),
                        }),
                        (false, [value]) => r.vars.push(VarRepr {
                            name: w.to_string(),
                            player: None,
                            value: value.to_string(),
                        }),
                        _ => {
                            return Err(err(format!(
                                "expected `{w} {}VALUE`",
                                if per { "PLAYER " } else { "" }
                            )))
                        }
                    }
                }
                "decided-by" if words.len() == 2 => {
                    r.decided_by = Some(
                        words[1].parse().map_err(|_| err("`decided-by` needs a number".into()))?,
                    );
                }
                w if g.players.iter().any(|p| p == w) => {
                    if words.len() < 3 {
                        return Err(err("expected `PLAYER KIND CELL...`".into()));
                    }
                    kind(g, words[1]).map_err(err)?;
                    for c in &words[2..] {
                        let id = g.board.cell(c).ok_or_else(|| err(format!("no cell `{c}`")))?;
                        r.pieces.push([
                            g.board.names[id as usize].clone(),
                            w.to_string(),
                            words[1].to_string(),
                        ]);
                    }
                }
                w if g.zones.iter().any(|z| z.name == w && z.ordered) => {
                    let per_player = g.zones.iter().any(|z| z.name == w && z.per_player);
                    let (p, rest) = if per_player {
                        let p = words.get(1).ok_or_else(|| err("missing player".into()))?;
                        player(g, p).map_err(err)?;
                        (Some(p.to_string()), &words[2..])
                    } else {
                        (None, &words[1..])
                    };
                    let name = |k: &str| kind(g, k).map(|id| g.kinds[id as usize].name.clone());
                    let mut parts = rest.split(|w| *w == "|");
                    let mut pieces = Vec::new();
                    for k in parts.next().unwrap_or_default() {
                        pieces.push(name(k).map_err(err)?);
                    }
                    let mut face_down = Vec::new();
                    let mut back = Vec::new();
                    if let Some(mid) = parts.next() {
                        if mid.len() % 2 != 0 {
                            return Err(err("between `|`s: KIND COUNT pairs".into()));
                        }
                        for pair in mid.chunks(2) {
                            let n = pair[1]
                                .parse()
                                .map_err(|_| err(format!("`{}` is not a count", pair[1])))?;
                            face_down.push((name(pair[0]).map_err(err)?, n));
                        }
                        let Some(after) = parts.next() else {
                            return Err(err("the face-down part needs a closing `|`".into()));
                        };
                        for k in after {
                            back.push(name(k).map_err(err)?);
                        }
                        if parts.next().is_some() {
                            return Err(err("at most one face-down part".into()));
                        }
                    }
                    r.sequences.push(SequenceRepr {
                        zone: w.to_string(),
                        player: p,
                        pieces,
                        face_down,
                        back,
                    });
                }
                w if g.zones.iter().any(|z| z.name == w) => {
                    let z = g.zones.iter().find(|z| z.name == w).map(|z| z.per_player);
                    let (p, rest) = if z == Some(true) {
                        let p = words.get(1).ok_or_else(|| err("missing player".into()))?;
                        player(g, p).map_err(err)?;
                        (Some(p.to_string()), &words[2..])
                    } else {
                        (None, &words[1..])
                    };
                    let [k, n] = rest else {
                        return Err(err(format!(
                            "expected `{w} {}KIND COUNT`",
                            if p.is_some() { "PLAYER " } else { "" }
                        )));
                    };
                    kind(g, k).map_err(err)?;
                    let count = n.parse().map_err(|_| err(format!("`{n}` is not a count")))?;
                    r.zones.push(ZoneCount {
                        zone: w.to_string(),
                        player: p,
                        kind: k.to_string(),
                        count,
                    });
                }
                w => {
                    return Err(err(format!(
                        "`{w}` is not `turn`, `ply`, a player, a zone or a variable"
                    )))
                }
            }
        }
        Ok(r)
    }
}

/// The largest ply a position may have.
pub const MAX_PLY: u32 = 1_000_000;
/// The most pieces one zone may hold in a position.
pub const MAX_ZONE_PIECES: usize = u16::MAX as usize;

/// Whether any statement here creates pieces (`place`, `add`).
fn creates(stmts: &[crate::ir::Stmt]) -> bool {
    use crate::ir::StmtKind as K;
    stmts.iter().any(|s| match &s.kind {
        K::Place { .. } | K::Add { .. } | K::Change { .. } => true,
        K::Either { branches, .. } => branches.iter().any(|b| creates(b)),
        K::For { body, .. } | K::While { body, .. } | K::Block(_, body) => creates(body),
        K::If { then, otherwise, .. } => creates(then) || creates(otherwise),
        _ => false,
    })
}

/// Pieces of each kind in all: on the board, in zones and in sequences.
fn totals(g: &Game, s: &State) -> Vec<u64> {
    let mut t = vec![0u64; g.kinds.len()];
    for c in 0..g.board.len() as u16 {
        if let Some((_, k)) = s.piece(g, c) {
            t[k as usize] += 1;
        }
    }
    for (z, zone) in g.zones.iter().enumerate() {
        let owners = if zone.per_player { g.players.len() } else { 1 };
        for p in 0..owners as u8 {
            if zone.ordered {
                let seq = s.sequence(g, z as u16, p);
                for (k, x) in t.iter_mut().enumerate() {
                    *x += seq.count(k as u16) as u64;
                }
            } else {
                for (k, x) in t.iter_mut().enumerate() {
                    *x += u64::from(s.count(g, z as u16, p, k as u16));
                }
            }
        }
    }
    t
}

/// The most pieces of each kind a position can hold, when the rules bound
/// it: the rules create no piece after `setup`, and the setup creates the
/// same numbers whatever the deal (seeds 0, 1 and 2 agree).
pub fn piece_limits(g: &Game) -> Option<Vec<u64>> {
    if creates(&g.turn)
        || g.no_moves.as_deref().is_some_and(creates)
        || g.at_end.as_deref().is_some_and(creates)
    {
        return None;
    }
    let mut limits = None;
    for seed in 0..3 {
        let t = totals(g, &State::initial_seeded(g, seed).ok()?);
        match &limits {
            None => limits = Some(t),
            Some(l) if *l == t => {}
            Some(_) => return None,
        }
    }
    limits
}

/// Checks what the parts of a position cannot show alone: zone sizes and
/// the totals the rules allow (see the module docs).
fn validate(g: &Game, s: &State) -> Result<(), String> {
    for (z, zone) in g.zones.iter().enumerate() {
        let owners = if zone.per_player { g.players.len() } else { 1 };
        for p in 0..owners as u8 {
            let n: usize = if zone.ordered {
                s.sequence(g, z as u16, p).len()
            } else {
                (0..g.kinds.len() as u16).map(|k| usize::from(s.count(g, z as u16, p, k))).sum()
            };
            if n > MAX_ZONE_PIECES {
                return Err(format!(
                    "zone `{}` holds more than {MAX_ZONE_PIECES} pieces",
                    zone.name
                ));
            }
        }
    }
    if let Some(limits) = piece_limits(g) {
        let t = totals(g, s);
        for (k, (&have, &most)) in t.iter().zip(&limits).enumerate() {
            if have > most {
                return Err(format!(
                    "{have} pieces of kind `{}`, but the game has only {most} (its rules create none after setup)",
                    g.kinds[k].name
                ));
            }
        }
    }
    Ok(())
}

fn player(g: &Game, name: &str) -> Result<u8, String> {
    g.players
        .iter()
        .position(|p| p == name)
        .map(|p| p as u8)
        .ok_or_else(|| format!("no player `{name}`"))
}

fn kind(g: &Game, name: &str) -> Result<u16, String> {
    g.kinds
        .iter()
        .position(|k| k.name == name || k.symbol == name)
        .map(|k| k as u16)
        .ok_or_else(|| format!("no piece kind `{name}`"))
}

fn outcome_from(g: &Game, text: &str) -> Result<Outcome, String> {
    if text == "draw" {
        return Ok(Outcome::Draw);
    }
    if let Some(p) = text.strip_suffix(" wins") {
        return Ok(Outcome::Win(player(g, p)?));
    }
    if let Some(list) = text.strip_prefix("shared win: ") {
        let mut m = 0u8;
        for p in list.split(", ") {
            m |= 1 << player(g, p)?;
        }
        return Ok(Outcome::Shared(m));
    }
    Err(format!("`{text}` is not an outcome"))
}

impl State {
    /// Reads a position text (see [`crate::wire`]).
    pub fn from_text(g: &Game, text: &str) -> Result<State, String> {
        StateRepr::from_text(g, text)?.to_state(g)
    }

    /// The position text of this state.
    pub fn to_text(&self, g: &Game) -> String {
        StateRepr::new(g, self).to_text()
    }
}

/// Who looks at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// Sees everything (debugging, tests): hands, deck order.
    All,
    /// A player: public zones, their own `owner` zones, sizes of the rest.
    Player(u8),
    /// A spectator: public zones and sizes only.
    Public,
}

/// What a viewer may know of a position. Built by the engine from the
/// zones' declared visibility: nothing outside it is ever included (no
/// hidden contents, no deck order, no random state).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The observing player (`None` for a spectator or the all-seeing view).
    pub viewer: Option<String>,
    /// The player to move.
    pub to_move: String,
    /// Turns played.
    pub ply: u32,
    /// The result, if the game ended by a rule.
    pub outcome: Option<String>,
    /// Pieces on the board (always public): `[cell, player, kind]`.
    pub pieces: Vec<[String; 3]>,
    /// Every zone instance.
    pub zones: Vec<ZoneView>,
    /// Every variable kept in the position (always public).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<VarRepr>,
    /// The result when the game is over (see [`StateRepr::game_over`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_over: Option<String>,
}

/// One zone as a viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneView {
    /// The zone's name.
    pub zone: String,
    /// The owner (absent for shared zones).
    pub player: Option<String>,
    /// How many pieces it holds (always visible).
    pub size: usize,
    /// The pieces by kind name (first to last in an ordered zone), if the
    /// viewer may see them.
    pub contents: Option<Vec<String>>,
    /// In an ordered zone: how many pieces are face down, in no order yet
    /// (they follow the first `face_down_after` of `contents`, by kind).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub face_down: usize,
    /// See `face_down`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub face_down_after: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The observation of `viewer` (see [`Observation`]).
pub fn observe(g: &crate::ir::Game, s: &State, viewer: Viewer) -> Observation {
    // A turn under way is seen as it stands at its stop.
    let shown;
    let s = if s.pending().is_some() {
        shown = crate::interp::reference::view(g, s).unwrap_or_else(|_| s.clone());
        &shown
    } else {
        s
    };
    let full = StateRepr::new(g, s);
    let mut zones = Vec::new();
    for (z, zone) in g.zones.iter().enumerate() {
        let owners = if zone.per_player { g.players.len() } else { 1 };
        for p in 0..owners as u8 {
            let contents: Vec<String> = if zone.ordered {
                let seq = s.sequence(g, z as u16, p);
                (0..seq.len())
                    .filter_map(|i| seq.nth(i))
                    .map(|k| g.kinds[k as usize].name.clone())
                    .collect()
            } else {
                (0..g.kinds.len() as u16)
                    .flat_map(|k| {
                        std::iter::repeat_n(
                            g.kinds[k as usize].name.clone(),
                            s.count(g, z as u16, p, k) as usize,
                        )
                    })
                    .collect()
            };
            let visible = match (viewer, zone.visibility) {
                (Viewer::All, _) | (_, Visibility::Public) => true,
                (Viewer::Player(v), Visibility::Owner) => zone.per_player && v == p,
                _ => false,
            };
            let (face_down, face_down_after) = if zone.ordered {
                let seq = s.sequence(g, z as u16, p);
                (seq.hidden(), seq.front().len())
            } else {
                (0, 0)
            };
            zones.push(ZoneView {
                zone: zone.name.clone(),
                player: zone.per_player.then(|| g.players[p as usize].clone()),
                size: contents.len(),
                contents: visible.then_some(contents),
                face_down: if visible { face_down } else { 0 },
                face_down_after: if visible { face_down_after } else { 0 },
            });
        }
    }
    Observation {
        viewer: match viewer {
            Viewer::Player(p) => Some(g.players[p as usize].clone()),
            _ => None,
        },
        to_move: full.to_move,
        ply: full.ply,
        outcome: full.outcome,
        pieces: full.pieces,
        zones,
        vars: vars_of(g, s, true),
        game_over: None,
    }
}

/// A played game: enough to replay it to the identical final state.
///
/// The game is named by a path relative to the record's folder (ending in
/// `.game`) and the hash of its text; `check` covers every other field, so
/// a record edited by hand, or replayed against another game text, is
/// refused (the hashes guard against mistakes, not against forgery: the
/// replay itself checks every move).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The game file, relative to the folder of the record, `/`-separated.
    pub game: String,
    /// The hash of the game text (see [`text_hash`]).
    pub game_hash: String,
    /// Parameter overrides (`--set`).
    pub params: Vec<(String, i64)>,
    /// The seed of the deal (the engine's random state at the start).
    pub seed: u64,
    /// The starting position as position text, if not the initial one.
    pub start: Option<String>,
    /// The moves in notation.
    pub moves: Vec<String>,
    /// The result as recorded, if the game ended.
    pub outcome: Option<String>,
    /// The hash of all the fields above (see [`Record::seal`]).
    pub check: String,
}

/// The game file `game` (a relative `.game` path) read relative to the
/// folder of the record at `record`.
fn game_beside(game: &str, record: &std::path::Path) -> Result<std::path::PathBuf, String> {
    let rel = std::path::Path::new(game);
    if !game.ends_with(".game")
        || rel.is_absolute()
        || rel
            .components()
            .any(|c| matches!(c, std::path::Component::RootDir | std::path::Component::Prefix(_)))
    {
        return Err(format!(
            "the record names its game as `{game}`: a game is a `.game` file named relative to the record"
        ));
    }
    let dir = record.parent().unwrap_or(std::path::Path::new(""));
    Ok(dir.join(rel))
}

/// What one player saw of a played game, and nothing more: for every step
/// (the start, then each move or chance event) a caption and the position
/// as that player saw it. No seed, no hidden contents, no deck order: a
/// viewer record cannot rebuild the hidden state, so it is not replayed
/// move by move but shown step by step. The referee's [`Record`] is the
/// separate, explicit option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewRecord {
    /// The game file, relative to the folder of the record, `/`-separated.
    pub game: String,
    /// The hash of the game text (see [`text_hash`]).
    pub game_hash: String,
    /// Parameter overrides (`--set`).
    pub params: Vec<(String, i64)>,
    /// Whose view this is (a player's name).
    pub viewer: String,
    /// The start, then one step per move or chance event.
    pub steps: Vec<ViewStep>,
    /// The result, if the game ended.
    pub outcome: Option<String>,
    /// The hash of all the fields above.
    pub check: String,
}

/// One step of a [`ViewRecord`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewStep {
    /// `start`, `3. Ben: collect ant`, or `4. chance` (outcomes unnamed).
    pub caption: String,
    /// The position as the viewer saw it, drawn as text.
    pub text: String,
    /// The same position as data.
    pub observation: Observation,
}

impl ViewRecord {
    /// An empty viewer record of a game about to be played from `game`.
    pub fn new(
        game: &Game,
        path: impl Into<String>,
        params: Vec<(String, i64)>,
        viewer: u8,
    ) -> Self {
        ViewRecord {
            game: path.into(),
            game_hash: text_hash(&game.source.text),
            params,
            viewer: game.players.get(viewer as usize).cloned().unwrap_or_default(),
            steps: Vec::new(),
            outcome: None,
            check: String::new(),
        }
    }

    /// Adds a step: the position `s` as the viewer sees it.
    pub fn push(&mut self, g: &Game, caption: String, s: &State) {
        let Some(p) = g.players.iter().position(|n| *n == self.viewer) else { return };
        let v = Viewer::Player(p as u8);
        let text = crate::render::render_for(g, s, v);
        self.steps.push(ViewStep { caption, text, observation: observe(g, s, v) });
    }

    fn digest(&self) -> String {
        let fields =
            (&self.game, &self.game_hash, &self.params, &self.viewer, &self.steps, &self.outcome);
        text_hash(&serde_json::to_string(&fields).unwrap_or_default())
    }

    /// Names the game by `relative` and computes the check: call it last.
    pub fn seal(&mut self, relative: impl Into<String>) {
        self.game = relative.into();
        self.check = self.digest();
    }

    /// Where the game file is (see [`Record::game_path`]); refuses a
    /// record changed after it was sealed.
    pub fn game_path(&self, record: &std::path::Path) -> Result<std::path::PathBuf, String> {
        if self.check != self.digest() {
            return Err(
                "the record was changed after it was saved (its check does not match)".into()
            );
        }
        game_beside(&self.game, record)
    }

    /// Refuses a game text other than the one the record was played with.
    pub fn check_game(&self, text: &str) -> Result<(), String> {
        if text_hash(text) != self.game_hash {
            return Err(format!(
                "`{}` is not the game this record was played with (its text has changed)",
                self.game
            ));
        }
        Ok(())
    }
}

/// A hash of a text, as 16 hex digits (64-bit FNV-1a): stable across
/// versions and platforms; not a cryptographic hash.
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The path from folder `from` to file `to`, both absolute and without
/// `.`/`..` (canonical), `/`-separated; `None` on different roots.
pub fn relative_path(from: &std::path::Path, to: &std::path::Path) -> Option<String> {
    use std::path::Component;
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    if a.first() != b.first() {
        return None;
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    for c in &b[common..] {
        match c {
            Component::Normal(n) => parts.push(n.to_str()?.to_string()),
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

impl Record {
    /// A record of a game about to be played from `game` (its path, to be
    /// made relative to the record with [`Record::seal`]).
    pub fn new(
        game: &Game,
        path: impl Into<String>,
        params: Vec<(String, i64)>,
        seed: u64,
        start: Option<String>,
    ) -> Record {
        Record {
            game: path.into(),
            game_hash: text_hash(&game.source.text),
            params,
            seed,
            start,
            moves: Vec::new(),
            outcome: None,
            check: String::new(),
        }
    }

    fn digest(&self) -> String {
        let fields = (
            &self.game,
            &self.game_hash,
            &self.params,
            self.seed,
            &self.start,
            &self.moves,
            &self.outcome,
        );
        text_hash(&serde_json::to_string(&fields).unwrap_or_default())
    }

    /// Names the game by `relative` (the path from the record's folder)
    /// and computes the check: call it last, before saving.
    pub fn seal(&mut self, relative: impl Into<String>) {
        self.game = relative.into();
        self.check = self.digest();
    }

    /// Where the game file is, given the record's path: `game` read
    /// relative to the record's folder. Refuses a record whose fields were
    /// changed, and a game path that is absolute or not a `.game` file.
    pub fn game_path(&self, record: &std::path::Path) -> Result<std::path::PathBuf, String> {
        self.verify()?;
        game_beside(&self.game, record)
    }

    /// Refuses a record whose fields were changed after [`Record::seal`].
    pub fn verify(&self) -> Result<(), String> {
        if self.check != self.digest() {
            return Err(
                "the record was changed after it was saved (its check does not match)".into()
            );
        }
        Ok(())
    }

    /// Refuses a game text other than the one the record was played with.
    pub fn check_game(&self, text: &str) -> Result<(), String> {
        if text_hash(text) != self.game_hash {
            return Err(format!(
                "`{}` is not the game this record was played with (its text has changed: hash {}, the record says {})",
                self.game,
                text_hash(text),
                self.game_hash
            ));
        }
        Ok(())
    }

    /// The starting position of the record.
    pub fn start_state(&self, g: &Game) -> Result<State, String> {
        match &self.start {
            Some(text) => State::from_text(g, text),
            None => State::initial_seeded(g, self.seed).map_err(|e| e.to_string()),
        }
    }

    /// Plays the record's moves from its start; checks the game text, the
    /// parameters and the recorded result.
    pub fn replay(&self, g: &Game) -> Result<State, String> {
        self.verify()?;
        self.check_game(&g.source.text)?;
        let set: Vec<(String, i64)> = g
            .params
            .iter()
            .filter(|(n, v)| self.params.iter().any(|(m, w)| m == n && w == v))
            .cloned()
            .collect();
        if set.len() != self.params.len() {
            return Err(format!(
                "the game was loaded with other parameters than the record's ({})",
                self.params.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(", ")
            ));
        }
        let mut s = self.start_state(g)?;
        for (i, m) in self.moves.iter().enumerate() {
            if s.ended().is_some() {
                return Err(format!("move {} (`{m}`): the game was already over", i + 1));
            }
            let mv = s.parse_move(g, m).map_err(|e| format!("move {} (`{m}`): {e}", i + 1))?;
            s = s.play(g, &mv).map_err(|e| format!("move {} (`{m}`): {e}", i + 1))?;
        }
        let outcome = s.outcome(g).map_err(|e| e.to_string())?.map(|o| o.describe(g));
        if outcome != self.outcome {
            return Err(format!(
                "the replay ends with {:?}, the record says {:?}",
                outcome.as_deref().unwrap_or("no result"),
                self.outcome.as_deref().unwrap_or("no result")
            ));
        }
        Ok(s)
    }
}

/// An explanation of a typed move, with line numbers, for `--json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplanationRepr {
    /// The move as typed.
    pub input: String,
    /// `legal`, `incomplete` or `illegal`.
    pub verdict: String,
    /// For a legal move: the path through the turn.
    pub steps: Vec<StepRepr>,
    /// For a legal move: the position after it, as the mover may see it.
    pub position: Option<String>,
    /// For an incomplete move: what may follow.
    pub next: Vec<String>,
    /// For an illegal move: each reading and where it failed.
    pub failures: Vec<FailureRepr>,
}

/// A step with its place in the game file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRepr {
    /// 1-based line of the statement.
    pub line: usize,
    /// What happened.
    pub text: String,
}

/// One failed reading of a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRepr {
    /// The tokens read before the failure.
    pub read: String,
    /// 1-based line and column of the rule that rejected it.
    pub line: usize,
    /// Column.
    pub column: usize,
    /// Byte span `[start, end)` in the game file.
    pub span: [u32; 2],
    /// Why.
    pub message: String,
    /// Values of the parts of the rule, with their lines.
    pub values: Vec<StepRepr>,
}

fn line_col(g: &Game, at: u32) -> (usize, usize) {
    let text = &g.source.text[..(at as usize).min(g.source.text.len())];
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl ExplanationRepr {
    /// The representation of an explanation; the position after a legal
    /// move is drawn as `viewer` may see it.
    pub fn new(
        g: &Game,
        input: &str,
        v: &crate::interp::Verdict,
        viewer: Viewer,
    ) -> ExplanationRepr {
        use crate::interp::Verdict;
        let step = |s: &crate::interp::Step| StepRepr {
            line: line_col(g, s.span.start).0,
            text: s.text.clone(),
        };
        let mut r = ExplanationRepr {
            input: input.to_string(),
            verdict: String::new(),
            steps: Vec::new(),
            position: None,
            next: Vec::new(),
            failures: Vec::new(),
        };
        match v {
            Verdict::Legal { steps, after, .. } => {
                r.verdict = "legal".into();
                r.steps = steps.iter().map(step).collect();
                r.position = Some(crate::render::render_for(g, after, viewer));
            }
            Verdict::Incomplete { next } => {
                r.verdict = "incomplete".into();
                r.next = next.clone();
            }
            Verdict::Illegal { attempts } => {
                r.verdict = "illegal".into();
                for a in attempts {
                    let (line, column) = line_col(g, a.why.span.start);
                    r.failures.push(FailureRepr {
                        read: a.read.clone(),
                        line,
                        column,
                        span: [a.why.span.start, a.why.span.end],
                        message: a.why.message.clone(),
                        values: a
                            .why
                            .values
                            .iter()
                            .map(|(s, t)| StepRepr {
                                line: line_col(g, s.start).0,
                                text: t.clone(),
                            })
                            .collect(),
                    });
                }
            }
        }
        r
    }

    /// The explanation as text (failures as plain lines; the CLI renders
    /// them as reports on the game file).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        match self.verdict.as_str() {
            "legal" => {
                out.push_str(&format!("`{}` is legal. The turn:\n", self.input));
                for s in &self.steps {
                    out.push_str(&format!("  line {:>3}: {}\n", s.line, s.text));
                }
            }
            "incomplete" => out.push_str(&format!(
                "`{}` is not a whole move; it may go on with: {}\n",
                self.input,
                self.next.join(", ")
            )),
            _ => {
                for f in &self.failures {
                    out.push_str(&format!("line {}:{}: {}\n", f.line, f.column, f.message));
                    for v in &f.values {
                        out.push_str(&format!("  line {}: {}\n", v.line, v.text));
                    }
                }
            }
        }
        out
    }
}
