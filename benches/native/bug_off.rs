//! Bug Off! (rules/bug_off.md, games/bug_off.game), hand-written with
//! per-type card counts and the deck as a fixed array with a top index.
//!
//! Card codes: bug types 0..6 (ant, bee, beetle, butterfly, ladybug,
//! slug), Bug Off cards (nets) 6..12 for the same types. A move is (type,
//! collect or score). Resolutions of `games/bug_off.game`: a player's draw
//! happens at the end of the previous player's turn (and in the deal for
//! the first player), so the sixth net ends the game before anyone must
//! play; playing a netted type is allowed; score-then-tie-break on the
//! oldest net's type, still tied players share the win (even all of them).

use super::{Outcome, Rng};

/// Bug types.
pub const TYPES: usize = 6;
/// Type names, by type.
pub const TYPE_NAMES: [&str; TYPES] = ["ant", "bee", "beetle", "butterfly", "ladybug", "slug"];
/// Seat names.
pub const PLAYER_NAMES: [&str; MAX_PLAYERS] = ["Ann", "Ben", "Cleo", "Dev", "Eli"];
/// Most players.
pub const MAX_PLAYERS: usize = 5;
/// Most bug cards of one type.
pub const MAX_COPIES: usize = 40;
/// The largest deck.
const MAX_DECK: usize = TYPES * MAX_COPIES + TYPES;
/// Cards dealt to each hand.
const HAND: usize = 3;

/// A position (the deck order included, so play is deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The draw pile: `deck[top..len]`, top card first.
    pub deck: [u8; MAX_DECK],
    /// Cards in `deck`.
    pub len: u16,
    /// The next card to draw.
    pub top: u16,
    /// Per player and type: cards in hand, in the display, in the score pile.
    pub hand: [[u8; TYPES]; MAX_PLAYERS],
    /// Face-up displays.
    pub display: [[u8; TYPES]; MAX_PLAYERS],
    /// Score piles.
    pub pile: [[u8; TYPES]; MAX_PLAYERS],
    /// The central discard, per type.
    pub discard: [u8; TYPES],
    /// The Bug Off row (types of the revealed nets), oldest first.
    pub row: [u8; TYPES],
    /// Nets revealed.
    pub row_len: u8,
    /// Types in the row, as bits.
    pub netted: u8,
    /// Player to move.
    pub to_move: u8,
    /// The result, once the sixth net was revealed.
    pub outcome: Option<Outcome>,
}

/// A complete turn: play a card of a type from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// `true`: score (discard it, every display scores that type);
    /// `false`: collect (into the mover's display).
    pub score: bool,
    /// The bug type.
    pub ty: u8,
}

/// The parameters.
#[derive(Debug, Clone)]
pub struct Game {
    players: usize,
    copies: usize,
}

impl Game {
    /// `players` (2 to 5) players, `copies` (1 to 40) cards of each type.
    pub fn new(players: usize, copies: usize) -> Game {
        assert!((2..=MAX_PLAYERS).contains(&players), "2 to 5 players");
        assert!((1..=MAX_COPIES).contains(&copies), "1 to 40 copies");
        assert!(TYPES * copies >= HAND * players, "enough cards to deal");
        Game { players, copies }
    }

    fn empty(&self) -> State {
        State {
            deck: [0; MAX_DECK],
            len: 0,
            top: 0,
            hand: [[0; TYPES]; MAX_PLAYERS],
            display: [[0; TYPES]; MAX_PLAYERS],
            pile: [[0; TYPES]; MAX_PLAYERS],
            discard: [0; TYPES],
            row: [0; TYPES],
            row_len: 0,
            netted: 0,
            to_move: 0,
            outcome: None,
        }
    }

    /// A random deal (rule 5): shuffle the bug cards, deal three to each
    /// player, shuffle the nets into the rest; the first player draws.
    pub fn deal(&self, seed: u64) -> State {
        let mut rng = Rng::new(seed);
        let mut s = self.empty();
        let mut cards = Vec::with_capacity(MAX_DECK);
        for t in 0..TYPES {
            cards.extend(std::iter::repeat_n(t as u8, self.copies));
        }
        shuffle(&mut cards, &mut rng);
        let mut next = 0;
        for p in 0..self.players {
            for _ in 0..HAND {
                s.hand[p][cards[next] as usize] += 1;
                next += 1;
            }
        }
        let mut rest = cards.split_off(next);
        rest.extend((0..TYPES).map(|t| (TYPES + t) as u8));
        shuffle(&mut rest, &mut rng);
        s.deck[..rest.len()].copy_from_slice(&rest);
        s.len = rest.len() as u16;
        self.draw(&mut s, 0);
        s
    }

    /// Reads a position text as the interpreter writes it (`turn`, zone
    /// counts `hand Ann ant 2`, ordered zones `row ...` and `draw_pile ...`
    /// top first); kinds by name or symbol (`Ant`, `ant`, `AntNet`,
    /// `ant-net`). `ply`, `seed` and `decided-by` are ignored; the outcome
    /// follows from the row.
    pub fn position(&self, text: &str) -> Result<State, String> {
        let mut s = self.empty();
        let player = |w: Option<&&str>| -> Result<usize, String> {
            let w = w.ok_or("missing player")?;
            PLAYER_NAMES[..self.players]
                .iter()
                .position(|p| p == w)
                .ok_or_else(|| format!("no player `{w}`"))
        };
        let count = |w: Option<&&str>| -> Result<u8, String> {
            w.ok_or("missing count")?.parse().map_err(|_| "bad count".to_string())
        };
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("");
            let w: Vec<&str> = line.split_whitespace().collect();
            match w.first().copied() {
                None | Some("ply" | "seed" | "decided-by" | "outcome") => {}
                Some("turn") => s.to_move = player(w.get(1))? as u8,
                Some(z @ ("hand" | "display" | "pile")) => {
                    let p = player(w.get(1))?;
                    let t = bug(w.get(2).ok_or("missing kind")?)?;
                    let n = count(w.get(3))?;
                    match z {
                        "hand" => s.hand[p][t] = n,
                        "display" => s.display[p][t] = n,
                        _ => s.pile[p][t] = n,
                    }
                }
                Some("discard") => {
                    s.discard[bug(w.get(1).ok_or("missing kind")?)?] = count(w.get(2))?
                }
                Some("row") => {
                    for k in &w[1..] {
                        let t = card(k)?.checked_sub(TYPES).ok_or("a bug card in the row")?;
                        s.row[s.row_len as usize] = t as u8;
                        s.row_len += 1;
                        s.netted |= 1 << t;
                    }
                }
                Some("draw_pile") => {
                    for k in &w[1..] {
                        s.deck[s.len as usize] = card(k)? as u8;
                        s.len += 1;
                    }
                }
                Some(other) => return Err(format!("unknown line `{other}`")),
            }
        }
        if s.row_len as usize == TYPES {
            s.outcome = Some(self.score(&s));
        }
        Ok(s)
    }

    /// Rule 6 for player `p`: nets join the row and empty every display of
    /// the netted types; the sixth ends the game; a bug card ends the draw.
    /// An empty pile (impossible from a real deal: the sixth net always
    /// comes first) ends the draw here; the interpreter instead finds the
    /// turn impossible, so such a hand-made position has no moves there.
    fn draw(&self, s: &mut State, p: usize) {
        while s.top < s.len {
            let c = s.deck[s.top as usize] as usize;
            s.top += 1;
            if c < TYPES {
                s.hand[p][c] += 1;
                return;
            }
            let t = c - TYPES;
            s.row[s.row_len as usize] = t as u8;
            s.row_len += 1;
            s.netted |= 1 << t;
            for d in &mut s.display[..self.players] {
                for (t, n) in d.iter_mut().enumerate() {
                    if s.netted >> t & 1 != 0 {
                        s.discard[t] += *n;
                        *n = 0;
                    }
                }
            }
            if s.row_len as usize == TYPES {
                s.outcome = Some(self.score(s));
                return;
            }
        }
    }

    /// Rules 10-11: most points, then most cards of the oldest net's type;
    /// still tied players share the win.
    fn score(&self, s: &State) -> Outcome {
        let oldest = s.row[0] as usize;
        let key = |p: usize| {
            let pile = &s.pile[p];
            (pile.iter().map(|&n| u32::from(n)).sum::<u32>(), pile[oldest])
        };
        let best = (0..self.players).map(key).max().unwrap_or_default();
        let winners = (0..self.players).filter(|&p| key(p) == best).fold(0u8, |m, p| m | 1 << p);
        if winners.count_ones() == 1 {
            Outcome::Win(winners.trailing_zeros() as u8)
        } else {
            Outcome::Shared(winners)
        }
    }

    /// Every complete turn, into `out` (cleared first): every collect, then
    /// every score, types in order.
    pub fn legal_moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        if s.outcome.is_some() {
            return;
        }
        let hand = &s.hand[s.to_move as usize];
        for score in [false, true] {
            for (t, &n) in hand.iter().enumerate() {
                if n > 0 {
                    out.push(Move { score, ty: t as u8 });
                }
            }
        }
    }

    /// The position after a move: the card is played, then the next player
    /// draws (rule 6).
    pub fn play(&self, s: &State, m: &Move) -> State {
        let mut t = *s;
        let me = s.to_move as usize;
        let ty = m.ty as usize;
        t.hand[me][ty] -= 1;
        if m.score {
            t.discard[ty] += 1;
            for (d, p) in t.display[..self.players].iter_mut().zip(&mut t.pile) {
                p[ty] += d[ty];
                d[ty] = 0;
            }
        } else {
            t.display[me][ty] += 1;
        }
        let next = (me + 1) % self.players;
        t.to_move = next as u8;
        self.draw(&mut t, next);
        t
    }

    /// The result, once the game is over.
    pub fn outcome(&self, s: &State) -> Option<Outcome> {
        s.outcome
    }

    /// Complete-turn move paths of exactly `depth` from a fully specified
    /// position.
    pub fn perft(&self, s: &State, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if s.outcome.is_some() {
            return 0;
        }
        let hand = &s.hand[s.to_move as usize];
        let types = hand.iter().filter(|&&n| n > 0).count() as u64;
        if depth == 1 {
            return 2 * types;
        }
        let mut n = 0;
        for (ty, &k) in hand.iter().enumerate() {
            if k > 0 {
                for score in [false, true] {
                    n += self.perft(&self.play(s, &Move { score, ty: ty as u8 }), depth - 1);
                }
            }
        }
        n
    }

    /// A uniformly random game from `s` until it ends or `max_plies`
    /// turns were played; returns the plies played and the last position.
    pub fn playout(&self, s: &State, rng: &mut Rng, max_plies: u32) -> (u32, State) {
        let mut moves = Vec::with_capacity(2 * TYPES);
        let mut s = *s;
        let mut plies = 0;
        loop {
            self.legal_moves(&s, &mut moves);
            if moves.is_empty() || plies >= max_plies {
                return (plies, s);
            }
            s = self.play(&s, &moves[rng.below(moves.len())]);
            plies += 1;
        }
    }
}

/// Fisher-Yates.
fn shuffle(v: &mut [u8], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

/// A card code from a kind name or symbol.
fn card(k: &str) -> Result<usize, String> {
    let k = k.to_ascii_lowercase().replace('-', "");
    let (base, net) = match k.strip_suffix("net") {
        Some(b) => (b.to_string(), true),
        None => (k.clone(), false),
    };
    let t = TYPE_NAMES.iter().position(|n| *n == base).ok_or(format!("no card `{k}`"))?;
    Ok(if net { TYPES + t } else { t })
}

/// A bug type from a kind name or symbol.
fn bug(k: &str) -> Result<usize, String> {
    card(k).and_then(|c| if c < TYPES { Ok(c) } else { Err(format!("`{k}` is a net")) })
}
