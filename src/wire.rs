//! Positions and moves at the boundary: a readable position text and serde
//! representations that use names, never internal ids.
//!
//! # Position text
//! One fact per line; `#` starts a comment. Everything not mentioned is
//! empty or zero.
//! ```text
//! turn Gray                 # who moves next (default: the first player)
//! ply 12                    # turns played so far (default 0)
//! Orange Kitten a1 b2       # pieces: player, kind, cells
//! Gray Cat c3
//! pool Orange Kitten 5      # zone counts: zone, player (if per player), kind, count
//! ```

use crate::eval::{Move, Outcome, State};
use crate::ir::Game;
use serde::{Deserialize, Serialize};

/// A position with names instead of ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateRepr {
    /// The player to move (or the last mover, when the game is over).
    pub to_move: String,
    /// Turns played.
    pub ply: u32,
    /// `Orange wins`, `draw`, ... if the game ended by a rule.
    pub outcome: Option<String>,
    /// Pieces on the board: `[cell, player, kind]`, in cell order.
    pub pieces: Vec<[String; 3]>,
    /// Non-zero zone counts.
    pub zones: Vec<ZoneCount>,
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
    /// The representation of a state.
    pub fn new(g: &Game, s: &State) -> StateRepr {
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
        for (z, zone) in g.zones.iter().enumerate() {
            let owners = if zone.per_player { g.players.len() } else { 1 };
            for p in 0..owners as u8 {
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
        StateRepr {
            to_move: g.players[s.current() as usize].clone(),
            ply: s.ply(),
            outcome: s.ended().map(|o| o.describe(g)),
            pieces,
            zones,
        }
    }

    /// The state this represents.
    pub fn to_state(&self, g: &Game) -> Result<State, String> {
        let mut s = State::empty(g);
        s.set_current(player(g, &self.to_move)?);
        s.ply = self.ply;
        s.outcome = match &self.outcome {
            None => None,
            Some(text) => Some(outcome_from(g, text)?),
        };
        for [cell, p, k] in &self.pieces {
            let c = g.board.cell(cell).ok_or_else(|| format!("no cell `{cell}` on this board"))?;
            s.set_piece(g, c, Some((player(g, p)?, kind(g, k)?)));
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
            s.set_count(g, zid as u16, p, kind(g, &z.kind)?, z.count);
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
                w => return Err(err(format!("`{w}` is not `turn`, `ply`, a player or a zone"))),
            }
        }
        Ok(r)
    }
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
