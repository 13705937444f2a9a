//! The hand-written native engines of `benches/native/` (the benchmark
//! baselines) against the interpreter: perft counts, and the complete move
//! lists, in notation, and the outcomes along seeded random games. The
//! games' own tests (`boop.rs`, `bug.rs`, `snekagon.rs`, `perft.rs`) use
//! the same engines as their hand-written references.

#[path = "../../benches/native/mod.rs"]
mod engines;

pub use engines::{boop, bug, bug_off, snekagon, Outcome};

use crate::{game, game_with, moves, outcome, play, position, root, start};
use tabula::{Game, State};

/// Deep cases run in release builds or with `RUN_SLOW_TESTS=1`.
fn slow() -> bool {
    !cfg!(debug_assertions) || std::env::var("RUN_SLOW_TESTS").is_ok_and(|v| v == "1")
}

/// An outcome as the interpreter describes it.
pub fn describe(g: &Game, o: Option<Outcome>) -> String {
    match o {
        None => "-".into(),
        Some(Outcome::Win(p)) => format!("{} wins", g.players[p as usize]),
        Some(Outcome::Shared(m)) => {
            let names: Vec<&str> = (0..g.players.len())
                .filter(|p| m >> p & 1 != 0)
                .map(|p| g.players[p].as_str())
                .collect();
            format!("shared win: {}", names.join(", "))
        }
        Some(Outcome::Draw) => "draw".into(),
    }
}

/// The interpreter's name of the hex cell at axial `(q, r)`.
pub fn hex_name(g: &Game, (q, r): (i32, i32)) -> String {
    let i = g.board.coords.iter().position(|&c| c == (q, r)).expect("a cell");
    g.board.names[i].clone()
}

/// One native engine, as the lock-step comparison sees it.
pub trait Engine {
    /// A position.
    type S;
    /// A complete turn.
    type M;
    /// Every complete turn.
    fn moves(&self, s: &Self::S, out: &mut Vec<Self::M>);
    /// The position after a turn.
    fn play(&self, s: &Self::S, m: &Self::M) -> Self::S;
    /// The result of a finished game.
    fn outcome(&self, s: &Self::S) -> Option<Outcome>;
    /// A turn in the interpreter's notation.
    fn text(&self, g: &Game, m: &Self::M) -> String;
}

impl Engine for boop::Game {
    type S = boop::State;
    type M = boop::Move;
    fn moves(&self, s: &Self::S, out: &mut Vec<Self::M>) {
        self.legal_moves(s, out);
    }
    fn play(&self, s: &Self::S, m: &Self::M) -> Self::S {
        self.play(s, m)
    }
    fn outcome(&self, s: &Self::S) -> Option<Outcome> {
        self.outcome(s)
    }
    fn text(&self, g: &Game, m: &Self::M) -> String {
        let name = |sq: u8| g.board.names[sq as usize].clone();
        let mut t = format!("{} {}", if m.cat { "C" } else { "K" }, name(m.square));
        if let Some(l) = m.grad {
            let mut set = tabula::board::CellSet::EMPTY;
            for c in self.line(l) {
                set.insert(u16::from(c));
            }
            let l = g.board.lines.iter().position(|l| l.set == set).expect("a line");
            t.push_str(&format!(" grad {}", g.board.line_name(l as u32)));
        }
        if let Some(r) = m.remove {
            t.push_str(&format!(" remove {}", name(r)));
        }
        t
    }
}

impl Engine for bug::Game {
    type S = bug::State;
    type M = bug::Move;
    fn moves(&self, s: &Self::S, out: &mut Vec<Self::M>) {
        self.legal_moves(s, out);
    }
    fn play(&self, s: &Self::S, m: &Self::M) -> Self::S {
        self.play(s, m)
    }
    fn outcome(&self, s: &Self::S) -> Option<Outcome> {
        self.outcome(s)
    }
    fn text(&self, g: &Game, m: &Self::M) -> String {
        let mut t = hex_name(g, self.coords(m.grow));
        for &c in m.bonus() {
            t.push_str(&format!(" +{}", hex_name(g, self.coords(c))));
        }
        t
    }
}

impl Engine for snekagon::Game {
    type S = snekagon::State;
    type M = snekagon::Move;
    fn moves(&self, s: &Self::S, out: &mut Vec<Self::M>) {
        self.legal_moves(s, out);
    }
    fn play(&self, s: &Self::S, m: &Self::M) -> Self::S {
        self.play(s, m)
    }
    fn outcome(&self, s: &Self::S) -> Option<Outcome> {
        self.outcome(s)
    }
    fn text(&self, g: &Game, m: &Self::M) -> String {
        let snekagon::Move::Place { tile, .. } = *m else { return "pass".into() };
        let mut ids: Vec<usize> = self
            .cells(m)
            .iter()
            .map(|&c| g.board.coords.iter().position(|&x| x == self.coords(c)).expect("cell"))
            .collect();
        ids.sort_unstable();
        let names: Vec<&str> = ids.iter().map(|&i| g.board.names[i].as_str()).collect();
        format!("{} {}", snekagon::TILE_NAMES[tile as usize], names.join(" "))
    }
}

impl Engine for bug_off::Game {
    type S = bug_off::State;
    type M = bug_off::Move;
    fn moves(&self, s: &Self::S, out: &mut Vec<Self::M>) {
        self.legal_moves(s, out);
    }
    fn play(&self, s: &Self::S, m: &Self::M) -> Self::S {
        self.play(s, m)
    }
    fn outcome(&self, s: &Self::S) -> Option<Outcome> {
        self.outcome(s)
    }
    fn text(&self, _: &Game, m: &Self::M) -> String {
        let action = if m.score { "score" } else { "collect" };
        format!("{action} {}", bug_off::TYPE_NAMES[m.ty as usize])
    }
}

/// Plays random games in lock step (moves picked from the native list with
/// `rng`): in every position the native and the interpreter have the same
/// moves (count, then the sorted notation), and at the end the same
/// outcome. Returns the plies of each game.
pub fn lockstep<E: Engine>(
    g: &Game,
    e: &E,
    mut ours: State,
    mut theirs: E::S,
    rng: &mut tabula::rng::Rng,
    max_plies: u32,
) -> u32 {
    let mut buf = Vec::new();
    for ply in 0..max_plies {
        e.moves(&theirs, &mut buf);
        let mut a = moves(g, &ours);
        let context = ours.to_text(g);
        assert_eq!(a.len(), buf.len(), "move count\n{context}");
        let mut b: Vec<String> = buf.iter().map(|m| e.text(g, m)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{context}");
        if buf.is_empty() {
            assert_eq!(describe(g, e.outcome(&theirs)), outcome(g, &ours), "{context}");
            return ply;
        }
        let m = &buf[rng.below(buf.len())];
        ours = play(g, &ours, &e.text(g, m));
        theirs = e.play(&theirs, m);
    }
    max_plies
}

#[test]
fn boop_perft_and_random_games() {
    let g = game("boop.game");
    let n = boop::Game::new();
    let s = n.initial();
    let expected = [36, 1260, 42900, 1_421_952];
    for (d, &nodes) in (1..).zip(&expected) {
        assert_eq!(n.perft(&s, d), nodes, "native depth {d}");
        if d <= 3 || slow() {
            assert_eq!(tabula::perft(&g, &start(&g), d).unwrap(), nodes, "depth {d}");
        }
    }
    let mut rng = tabula::rng::Rng::new(101);
    for _ in 0..2 {
        lockstep(&g, &n, start(&g), n.initial(), &mut rng, 300);
    }
}

#[test]
fn bug_perft_and_random_games() {
    let g = game("bug.game");
    let n = bug::Game::new(3);
    let s = n.initial();
    let expected = [19, 660, 13002, 439_476];
    for (d, &nodes) in (1..).zip(&expected) {
        assert_eq!(n.perft(&s, d), nodes, "native depth {d}");
        if d <= 3 || slow() {
            assert_eq!(tabula::perft(&g, &start(&g), d).unwrap(), nodes, "depth {d}");
        }
    }
    let mut rng = tabula::rng::Rng::new(102);
    for _ in 0..3 {
        let plies = lockstep(&g, &n, start(&g), n.initial(), &mut rng, 1000);
        assert!(plies < 1000, "Bug games end");
    }
}

#[test]
fn snekagon_perft_and_random_games() {
    let g = game("snekagon.game");
    let n = snekagon::Game::new(6);
    let s = n.initial();
    assert_eq!(n.perft(&s, 1), 91);
    assert_eq!(n.perft(&s, 2), 194_388);
    assert_eq!(tabula::perft(&g, &start(&g), 1).unwrap(), 91);
    if slow() {
        assert_eq!(tabula::perft(&g, &start(&g), 2).unwrap(), 194_388);
        // Checked once against `tabula::perft` (about ten minutes in release).
        assert_eq!(n.perft(&s, 3), 315_706_848);
    }
    let mut rng = tabula::rng::Rng::new(103);
    for _ in 0..2 {
        let plies = lockstep(&g, &n, start(&g), n.initial(), &mut rng, 100);
        assert!(plies <= 30, "Snekagon games end");
    }
}

#[test]
fn bug_off_perft_from_the_fixed_deal() {
    let g = game("bug_off.game");
    let n = bug_off::Game::new(2, 10);
    let text = std::fs::read_to_string(root().join("tests/perft/bug_off_deal.pos")).unwrap();
    let ours = position(&g, &text);
    let theirs = n.position(&text).expect("the deal");
    for (d, nodes) in [(1, 6), (2, 48), (3, 320)] {
        assert_eq!(n.perft(&theirs, d), nodes, "native depth {d}");
        assert_eq!(tabula::perft(&g, &ours, d).unwrap(), nodes, "depth {d}");
    }
}

#[test]
fn bug_off_seeded_deals_and_random_games() {
    for players in [2, 3, 5] {
        let g = game_with("bug_off.game", &[("players", players)]);
        let n = bug_off::Game::new(players as usize, 10);
        let mut rng = tabula::rng::Rng::new(104);
        for seed in 0..3 {
            // A referee's deal: the deck in a fixed order, so that both
            // engines draw the same cards.
            let mut ours = State::initial_seeded(&g, seed).unwrap();
            ours.stack(&g, &mut tabula::rng::Rng::new(seed)).unwrap();
            let theirs = n.position(&ours.to_text(&g)).expect("a deal");
            if seed == 0 {
                // Perft from the interpreter's own deal, deeper than the fixed one.
                for d in 1..=4 {
                    assert_eq!(n.perft(&theirs, d), tabula::perft(&g, &ours, d).unwrap());
                }
            }
            let plies = lockstep(&g, &n, ours, theirs, &mut rng, 1000);
            assert!(plies < 1000, "Bug Off! games end at the sixth net");
        }
    }
}

#[test]
fn cli_perft_of_a_stacked_deal_agrees_with_the_native_engine() {
    // `perft --stack --seed S` counts from the deal of seed S with the
    // deck then stacked by S: the native engine, given that position,
    // counts the same; without `--stack` every draw is a chance node and
    // the count is larger.
    let g = game("bug_off.game");
    let n = bug_off::Game::new(2, 10);
    let mut ours = State::initial_seeded(&g, 5).unwrap();
    ours.stack(&g, &mut tabula::rng::Rng::new(5)).unwrap();
    let theirs = n.position(&ours.to_text(&g)).expect("a deal");
    let args = ["perft", "games/bug_off.game", "4", "--reveal", "--seed", "5", "-q"];
    let stacked = crate::tabula(&[&args[..], &["--stack"]].concat(), "");
    let text = String::from_utf8_lossy(&stacked.stdout).to_string();
    assert_eq!(text, format!("perft(4) = {}\n", n.perft(&theirs, 4)), "{stacked:?}");
    // Unstacked, two plies already pass a draw (kept short: every
    // outcome of every draw is counted).
    let args = ["perft", "games/bug_off.game", "2", "--reveal", "--seed", "5", "-q"];
    let drawn = crate::tabula(&args, "");
    let text = String::from_utf8_lossy(&drawn.stdout).to_string();
    let count: u64 = text.trim().trim_start_matches("perft(2) = ").parse().expect("a count");
    assert!(count > n.perft(&theirs, 2), "{text}");
}

#[test]
fn native_playouts_finish() {
    let mut rng = engines::Rng::new(7);
    let b = boop::Game::new();
    let (plies, s) = b.playout(&b.initial(), &mut rng, 1000);
    assert!(plies > 0 && (b.outcome(&s).is_some() || plies == 1000));
    let b = bug::Game::new(3);
    let (_, s) = b.playout(&b.initial(), &mut rng, 1000);
    assert!(b.outcome(&s).is_some());
    let b = snekagon::Game::new(6);
    let (plies, s) = b.playout(&b.initial(), &mut rng, 1000);
    assert!(b.outcome(&s).is_some() && plies <= 30);
    let b = bug_off::Game::new(4, 10);
    let (_, s) = b.playout(&b.deal(3), &mut rng, 1000);
    assert!(b.outcome(&s).is_some());
    assert_eq!(b.deal(3), b.deal(3), "a seed gives one deal");
}

#[test]
fn native_snekagon_drawn_playouts_play_legal_moves() {
    // The like-for-like baseline of the bench draws its moves as tabula's
    // playouts do: cut after `k` turns it spends the same random numbers
    // up to there, so every turn can be checked against the move list.
    let n = snekagon::Game::new(6);
    let mut moves = Vec::new();
    for seed in 0..5 {
        let (plies, last) = n.playout_drawn(&n.initial(), &mut engines::Rng::new(seed), 1000);
        assert!(n.outcome(&last).is_some(), "seed {seed}: the game ends");
        let mut before = n.initial();
        for k in 1..=plies {
            let (_, after) = n.playout_drawn(&n.initial(), &mut engines::Rng::new(seed), k);
            n.legal_moves(&before, &mut moves);
            assert!(moves.iter().any(|m| n.play(&before, m) == after), "seed {seed} turn {k}");
            before = after;
        }
        assert_eq!(before, last, "seed {seed}");
    }
}
