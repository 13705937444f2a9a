//! Monte Carlo tree search over complete-turn moves, for any game.
//!
//! # The search
//! UCT: every iteration walks down the tree from the position to search,
//! choosing at each node of a player `p` the child with the best
//! `mean reward of p + c * sqrt(ln visits / child visits)`, tries each
//! move once before any twice (in an order shuffled by the tree's random
//! source), adds one node, finishes the game with a random playout
//! ([`crate::playout`]) and adds the result to every node on the way.
//! A result is a **reward per player** (in [`UNITS`] of 1/840): a win is
//! worth 1 to the winner, a win shared by `k` players `1/k` to each of
//! them, a draw (or a playout cut at its length cap) `1/n` to each of the
//! `n` players. Each player maximises its own reward (the max^n rule), so
//! games of three to eight players and shared wins need nothing special.
//! Rewards are exact integers, so sums do not depend on the order of
//! additions.
//!
//! Chance nodes ([`Turn::Chance`]) are not decisions: an iteration draws
//! an outcome with its weight. The move finally played is the most
//! visited one (ties: the better mean, then the first in move order).
//!
//! Before searching, every move is tried once: a move after which a rule
//! has declared the mover the winner (`win`, a `compare` the mover wins,
//! the next player's `on no moves`), after any chance events with a single
//! outcome, is played at once, whatever the budget.
//!
//! # Hidden information
//! In a game with zones some player may not see, the search is
//! information-set MCTS (single observer): each iteration starts from a
//! position drawn by [`super::sample`] from what the searching player sees,
//! a node is a sequence of moves from the root (not a position), chance
//! outcomes do not branch the tree, and a move's exploration term counts
//! the visits in which it was available rather than the parent's visits.
//! The real position is read only through the sampler, and the moves are
//! those the mover is offered (public to the mover), so the decision is the
//! same for any two positions the player cannot tell apart.
//!
//! # Reuse, parallelism, determinism
//! A search keeps its tree. Asked again from a position found in that tree
//! (after the engine's move and the replies, in a game without hidden
//! zones), it continues from that node's subtree; its statistics count.
//!
//! `trees` independent trees (root parallelism) each get the full budget;
//! their root statistics are summed in tree order. Tree `i` uses a random
//! source seeded from the caller's random source and `i` alone, and
//! threads (`jobs`) only decide which trees run at the same time: for a
//! playout budget, the move and every figure of the [`Report`] are the same
//! whatever the number of threads. A time budget depends on the machine's
//! speed and load, so it is reproducible only in the sense that each run
//! is a correct search.

use super::sample::sample;
use crate::rng::Rng;
use crate::state::{spawn_search, Move, Outcome, RunError, State, Turn};
use crate::Game;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A reward of 1 in integer units: divisible by 1..=8 (the most players).
pub const UNITS: u64 = 840;

/// No child yet.
const NONE: u32 = u32::MAX;

/// Most nodes of one tree; beyond it, iterations still play out but add no node.
const MAX_NODES: usize = 1_000_000;

/// Most nodes looked at when searching the old tree for the new position.
const REUSE_LOOK: usize = 200_000;

/// How long a search may go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations (playouts) per tree.
    Playouts(u64),
    /// This long per tree.
    Time(Duration),
}

/// The settings of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// How long each tree searches.
    pub budget: Budget,
    /// Independent trees whose root statistics are summed.
    pub trees: u32,
    /// The exploration constant `c` of UCT (rewards run from 0 to 1).
    pub exploration: f64,
    /// Turns after which a playout stops and counts as a draw.
    pub max_plies: u32,
}

impl Config {
    /// A search of `playouts` iterations in one tree.
    pub fn playouts(playouts: u64) -> Config {
        Config { budget: Budget::Playouts(playouts), trees: 1, exploration: 0.7, max_plies: 400 }
    }
}

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.budget {
            Budget::Playouts(n) => write!(f, "mcts:{n}")?,
            Budget::Time(d) => write!(f, "mcts:{}ms", d.as_millis())?,
        }
        if self.trees > 1 {
            write!(f, "x{}", self.trees)?;
        }
        Ok(())
    }
}

/// What the search found for one move of the root.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStat {
    /// The move.
    pub mv: Move,
    /// Iterations that went through it (all trees).
    pub visits: u64,
    /// The mover's mean reward after it, from 0 to 1 (0 when unvisited).
    pub value: f64,
}

/// Why the move was played, with the figures behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The move chosen.
    pub mv: Move,
    /// How it was found.
    pub reason: Reason,
    /// Every legal move with its statistics, in move order.
    pub moves: Vec<MoveStat>,
    /// Iterations run by this search (all trees).
    pub playouts: u64,
    /// Iterations inherited from the previous search's tree.
    pub reused: u64,
    /// Nodes in the trees.
    pub nodes: u64,
}

/// How a move was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The only legal move.
    Only,
    /// A rule declares the mover the winner at once.
    WinsAtOnce,
    /// The most visited move of the search.
    Search,
}

impl Report {
    /// The chosen move's statistics.
    pub fn chosen(&self) -> Option<&MoveStat> {
        self.moves.iter().find(|m| m.mv == self.mv)
    }

    /// The explanation in one line, e.g. `412 of 1000 playouts, wins 71%`.
    pub fn summary(&self) -> String {
        match self.reason {
            Reason::Only => "the only legal move".into(),
            Reason::WinsAtOnce => "wins at once".into(),
            Reason::Search => {
                let (v, w) = self.chosen().map_or((0, 0.0), |m| (m.visits, m.value));
                let total: u64 = self.moves.iter().map(|m| m.visits).sum();
                let mut s = format!("{v} of {total} playouts, wins {:.0}%", w * 100.0);
                if self.reused > 0 {
                    s.push_str(&format!(" ({} kept from the last search)", self.reused));
                }
                s
            }
        }
    }
}

/// The search engine: settings and the trees kept between moves.
#[derive(Debug)]
pub struct Mcts {
    /// The settings.
    pub config: Config,
    /// Threads running trees at the same time.
    pub jobs: usize,
    trees: Vec<Tree>,
}

impl Mcts {
    /// A search engine with these settings, running `jobs` trees at a time.
    pub fn new(config: Config, jobs: usize) -> Mcts {
        Mcts { config, jobs: jobs.max(1), trees: Vec::new() }
    }

    /// Chooses among `moves` (the legal moves of `s`, not empty, in move
    /// order). Draws one number from `rng`. `progress`, if given, counts
    /// the iterations as they run (for a display).
    pub fn choose(
        &mut self,
        g: &Game,
        s: &State,
        moves: &[Move],
        rng: &mut Rng,
        progress: Option<&AtomicU64>,
    ) -> Result<Report, RunError> {
        let base = rng.next_u64();
        let me = s.current();
        let quick = |mv: &Move, reason| Report {
            mv: mv.clone(),
            reason,
            moves: moves
                .iter()
                .map(|m| MoveStat { mv: m.clone(), visits: 0, value: 0.0 })
                .collect(),
            playouts: 0,
            reused: 0,
            nodes: 0,
        };
        if let [only] = moves {
            return Ok(quick(only, Reason::Only));
        }
        let hidden = g.has_hidden_information();
        if let Some(m) = win_at_once(g, s, moves, me, hidden, base)? {
            return Ok(quick(m, Reason::WinsAtOnce));
        }
        let n = self.config.trees.max(1) as usize;
        let old = std::mem::take(&mut self.trees);
        let mut old: Vec<Option<Tree>> = old.into_iter().map(Some).collect();
        old.resize_with(n, || None);
        let cfg = &self.config;
        let work = |i: usize, prev: Option<Tree>| -> Searched {
            let mut rng = Rng::new(seed_of(base, i as u64));
            let mut tree = match prev.and_then(|t| t.reroot(s)) {
                Some(t) if !hidden => t,
                _ => Tree::new(g, s, hidden),
            };
            let reused = u64::from(tree.nodes[0].n);
            let done = tree.search(g, s, me, cfg, &mut rng, progress)?;
            Ok((tree, done, reused))
        };
        let results: Vec<Searched> = if self.jobs <= 1 || n == 1 {
            old.into_iter().enumerate().map(|(i, t)| work(i, t)).collect()
        } else {
            run_threads(old, self.jobs, &work)
        };
        let mut stats: Vec<MoveStat> =
            moves.iter().map(|m| MoveStat { mv: m.clone(), visits: 0, value: 0.0 }).collect();
        let mut sums = vec![0u64; moves.len()];
        let (mut playouts, mut reused, mut nodes) = (0, 0, 0);
        for r in results {
            let (tree, done, kept) = r?;
            playouts += done;
            reused += kept;
            nodes += tree.nodes.len() as u64;
            for (k, m) in moves.iter().enumerate() {
                if let Some(e) = tree.nodes[0].edges.iter().find(|e| e.mv == *m) {
                    if e.child != NONE {
                        let c = &tree.nodes[e.child as usize];
                        stats[k].visits += u64::from(c.n);
                        sums[k] += c.sum.get(me as usize).copied().unwrap_or(0);
                    }
                }
            }
            self.trees.push(tree);
        }
        for (st, sum) in stats.iter_mut().zip(&sums) {
            if st.visits > 0 {
                st.value = *sum as f64 / (st.visits * UNITS) as f64;
            }
        }
        let mut best = 0;
        for k in 1..stats.len() {
            let (a, b) = (&stats[k], &stats[best]);
            if a.visits > b.visits
                || (a.visits == b.visits && sums[k] * b.visits > sums[best] * a.visits)
            {
                best = k;
            }
        }
        Ok(Report {
            mv: moves[best].clone(),
            reason: Reason::Search,
            moves: stats,
            playouts,
            reused,
            nodes,
        })
    }

    /// Forgets the trees (a new game, or a position not reached by play).
    pub fn clear(&mut self) {
        self.trees.clear();
    }
}

/// A searched tree, the iterations it ran and those it inherited.
type Searched = Result<(Tree, u64, u64), RunError>;

/// Runs `work` on every tree, `jobs` at a time; results in tree order.
fn run_threads<W>(old: Vec<Option<Tree>>, jobs: usize, work: &W) -> Vec<Searched>
where
    W: Fn(usize, Option<Tree>) -> Searched + Sync,
{
    let n = old.len();
    let slots: Vec<std::sync::Mutex<Option<Tree>>> =
        old.into_iter().map(std::sync::Mutex::new).collect();
    let next = AtomicU64::new(0);
    let worker = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed) as usize;
            if i >= n {
                break;
            }
            let prev = slots[i].lock().map(|mut t| t.take()).unwrap_or(None);
            mine.push((i, work(i, prev)));
        }
        mine
    };
    let mut out: Vec<(usize, Searched)> = std::thread::scope(|sc| {
        let handles: Vec<_> =
            (0..jobs.min(n)).filter_map(|_| spawn_search(sc, worker).ok()).collect();
        if handles.is_empty() {
            // No thread could be started: the work is done here.
            return worker();
        }
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// The seed of tree `i` from the search's base number.
fn seed_of(base: u64, i: u64) -> u64 {
    let mut r = Rng::new(base ^ i.wrapping_mul(0xA076_1D64_78BD_642F));
    r.next_u64()
}

/// A move among `moves` after which a rule declares `me` the winner
/// (chance events with one outcome played out): a `win`, a `compare`, or
/// the next player's `on no moves`. With hidden zones the test
/// is made on 8 positions drawn from what `me` sees, and the move must win
/// in each.
fn win_at_once<'a>(
    g: &Game,
    s: &State,
    moves: &'a [Move],
    me: u8,
    hidden: bool,
    base: u64,
) -> Result<Option<&'a Move>, RunError> {
    let positions = if hidden {
        let mut rng = Rng::new(seed_of(base, u64::MAX));
        let mut v = Vec::new();
        for _ in 0..8 {
            v.push(sample(g, s, me, &mut rng)?);
        }
        v
    } else {
        vec![s.clone()]
    };
    'moves: for m in moves {
        for p in &positions {
            let mut t = p.clone();
            if t.play_unchecked(g, m).is_err() {
                continue 'moves;
            }
            while t.turn() == Turn::Chance {
                let outs = t.chance_outcomes(g)?;
                let [(o, _)] = outs.as_slice() else { break };
                t.play_unchecked(g, o)?;
            }
            let o = if t.turn() == Turn::Chance { None } else { t.outcome(g)? };
            if o != Some(Outcome::Win(me)) {
                continue 'moves;
            }
        }
        return Ok(Some(m));
    }
    Ok(None)
}

/// The reward vector of a result, in [`UNITS`].
fn rewards(o: Option<Outcome>, players: usize, out: &mut [u64]) {
    let n = players as u64;
    match o {
        Some(Outcome::Win(w)) => {
            out.fill(0);
            if let Some(r) = out.get_mut(w as usize) {
                *r = UNITS;
            }
        }
        Some(Outcome::Shared(mask)) => {
            let k = u64::from(mask.count_ones().max(1));
            for (p, r) in out.iter_mut().enumerate() {
                *r = if mask & (1 << p) != 0 { UNITS / k } else { 0 };
            }
        }
        Some(Outcome::Draw) | None => out.fill(UNITS / n),
    }
}

/// A move from a node.
#[derive(Debug, Clone)]
struct Edge {
    mv: Move,
    /// The node it leads to, or [`NONE`] before it is tried.
    child: u32,
    /// Iterations in which it was available (hidden information only).
    avail: u32,
    /// The weight of a chance outcome.
    weight: u32,
}

/// What stands at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Moves not listed yet (a leaf with a known position).
    Leaf,
    /// This player chooses.
    Player(u8),
    /// Chance draws an outcome (positions known only).
    Chance,
    /// The game is over.
    Over,
}

#[derive(Debug, Clone)]
struct Node {
    /// The position (games without hidden zones).
    state: Option<State>,
    kind: Kind,
    /// Iterations through this node.
    n: u32,
    /// Reward sums per player, in [`UNITS`].
    sum: Box<[u64]>,
    edges: Vec<Edge>,
    /// The next untried edge (positions known: edges are tried in order).
    next: u32,
    /// The result, once the node is known to be over.
    result: Option<Box<[u64]>>,
}

#[derive(Debug)]
struct Tree {
    nodes: Vec<Node>,
    players: usize,
}

impl Tree {
    fn new(g: &Game, s: &State, hidden: bool) -> Tree {
        let players = g.players.len();
        let mut t = Tree { nodes: Vec::new(), players };
        t.add(if hidden { None } else { Some(s.clone()) });
        t
    }

    fn add(&mut self, state: Option<State>) -> u32 {
        self.nodes.push(Node {
            state,
            kind: Kind::Leaf,
            n: 0,
            sum: vec![0; self.players].into_boxed_slice(),
            edges: Vec::new(),
            next: 0,
            result: None,
        });
        (self.nodes.len() - 1) as u32
    }

    /// This tree re-rooted at the node whose position is `s`, if there is one.
    fn reroot(self, s: &State) -> Option<Tree> {
        let mut queue = std::collections::VecDeque::from([0u32]);
        let mut looked = 0;
        let mut found = None;
        while let Some(i) = queue.pop_front() {
            looked += 1;
            if looked > REUSE_LOOK {
                return None;
            }
            let nd = &self.nodes[i as usize];
            let st = nd.state.as_ref()?;
            if st == s {
                found = Some(i);
                break;
            }
            if st.ply() > s.ply() {
                continue;
            }
            queue.extend(nd.edges.iter().map(|e| e.child).filter(|&c| c != NONE));
        }
        let root = found?;
        // Copy the subtree into a new arena, renumbering its nodes.
        let mut old = self.nodes;
        let mut nodes = Vec::new();
        let mut map = vec![NONE; old.len()];
        let mut stack = vec![root];
        while let Some(i) = stack.pop() {
            map[i as usize] = nodes.len() as u32;
            let nd = std::mem::replace(
                &mut old[i as usize],
                Node {
                    state: None,
                    kind: Kind::Leaf,
                    n: 0,
                    sum: Box::new([]),
                    edges: Vec::new(),
                    next: 0,
                    result: None,
                },
            );
            stack.extend(nd.edges.iter().rev().map(|e| e.child).filter(|&c| c != NONE));
            nodes.push(nd);
        }
        for nd in &mut nodes {
            for e in &mut nd.edges {
                if e.child != NONE {
                    e.child = map[e.child as usize];
                }
            }
        }
        Some(Tree { nodes, players: self.players })
    }

    /// Runs the iterations of the budget; returns how many ran.
    fn search(
        &mut self,
        g: &Game,
        s: &State,
        me: u8,
        cfg: &Config,
        rng: &mut Rng,
        progress: Option<&AtomicU64>,
    ) -> Result<u64, RunError> {
        let start = Instant::now();
        let mut done = 0u64;
        let mut path = Vec::new();
        let mut reward = vec![0u64; self.players];
        let mut unsent = 0;
        loop {
            match cfg.budget {
                Budget::Playouts(n) if done >= n => break,
                Budget::Time(d) if done.is_multiple_of(16) && start.elapsed() >= d => break,
                _ => {}
            }
            path.clear();
            let ok = if self.nodes[0].state.is_some() {
                self.iterate_known(g, cfg, rng, &mut path, &mut reward)?
            } else {
                self.iterate_hidden(g, s, me, cfg, rng, &mut path, &mut reward)?
            };
            if ok {
                for &i in &path {
                    let nd = &mut self.nodes[i as usize];
                    nd.n += 1;
                    for (a, b) in nd.sum.iter_mut().zip(&reward) {
                        *a += b;
                    }
                }
            }
            done += 1;
            unsent += 1;
            if unsent == 32 {
                if let Some(p) = progress {
                    p.fetch_add(unsent, Ordering::Relaxed);
                }
                unsent = 0;
            }
        }
        if let Some(p) = progress {
            p.fetch_add(unsent, Ordering::Relaxed);
        }
        Ok(done)
    }

    /// Lists the moves (or chance outcomes) of a leaf whose position is known.
    fn expand(&mut self, g: &Game, i: u32, rng: &mut Rng) -> Result<(), RunError> {
        let nd = &mut self.nodes[i as usize];
        let Some(s) = nd.state.as_ref() else { return Ok(()) };
        if s.ended().is_some() {
            nd.kind = Kind::Over;
            let mut r = vec![0; self.players];
            rewards(s.ended(), self.players, &mut r);
            nd.result = Some(r.into_boxed_slice());
            return Ok(());
        }
        if s.turn() == Turn::Chance {
            nd.kind = Kind::Chance;
            nd.edges = s
                .chance_outcomes(g)?
                .into_iter()
                .map(|(mv, weight)| Edge { mv, child: NONE, avail: 0, weight })
                .collect();
            if nd.edges.is_empty() {
                nd.kind = Kind::Over;
                nd.result = Some(vec![UNITS / self.players as u64; self.players].into());
            }
            return Ok(());
        }
        let moves = s.legal_moves(g)?;
        if moves.is_empty() {
            let o = s.outcome(g)?;
            nd.kind = Kind::Over;
            let mut r = vec![0; self.players];
            rewards(o, self.players, &mut r);
            nd.result = Some(r.into_boxed_slice());
            return Ok(());
        }
        nd.kind = Kind::Player(s.current());
        let mut edges: Vec<Edge> =
            moves.into_iter().map(|mv| Edge { mv, child: NONE, avail: 0, weight: 1 }).collect();
        for j in (1..edges.len()).rev() {
            edges.swap(j, rng.below(j + 1));
        }
        nd.edges = edges;
        Ok(())
    }

    /// The child of edge `e` of node `i`, made if needed (positions known).
    fn child(&mut self, g: &Game, i: u32, e: usize) -> Result<u32, RunError> {
        let c = self.nodes[i as usize].edges[e].child;
        if c != NONE {
            return Ok(c);
        }
        let nd = &self.nodes[i as usize];
        let mut t = nd.state.clone().ok_or_else(no_state)?;
        t.play_unchecked(g, &nd.edges[e].mv)?;
        let c = self.add(Some(t));
        self.nodes[i as usize].edges[e].child = c;
        Ok(c)
    }

    /// One iteration in a tree of known positions; the path and the reward.
    fn iterate_known(
        &mut self,
        g: &Game,
        cfg: &Config,
        rng: &mut Rng,
        path: &mut Vec<u32>,
        reward: &mut [u64],
    ) -> Result<bool, RunError> {
        let mut i = 0u32;
        loop {
            path.push(i);
            if self.nodes[i as usize].kind == Kind::Leaf && (self.nodes[i as usize].n > 0 || i == 0)
            {
                self.expand(g, i, rng)?;
            }
            let nd = &self.nodes[i as usize];
            match nd.kind {
                Kind::Over => {
                    reward.copy_from_slice(nd.result.as_deref().unwrap_or(&[]));
                    return Ok(true);
                }
                Kind::Leaf => {
                    let s = nd.state.clone().ok_or_else(no_state)?;
                    let p = crate::playout(g, &s, rng, cfg.max_plies)?;
                    rewards(p.outcome, self.players, reward);
                    return Ok(true);
                }
                Kind::Chance => {
                    let weights: Vec<u32> = nd.edges.iter().map(|e| e.weight).collect();
                    let e = crate::rng::pick_weighted(&weights, weights.len(), rng).unwrap_or(0);
                    if self.nodes.len() >= MAX_NODES && nd.edges[e].child == NONE {
                        return self.rollout_from(g, i, e, cfg, rng, reward);
                    }
                    i = self.child(g, i, e)?;
                }
                Kind::Player(p) => {
                    let e = if (nd.next as usize) < nd.edges.len() {
                        let e = nd.next as usize;
                        if self.nodes.len() >= MAX_NODES {
                            return self.rollout_from(g, i, e, cfg, rng, reward);
                        }
                        self.nodes[i as usize].next += 1;
                        e
                    } else {
                        self.select(i, p, cfg.exploration, |_| true)
                    };
                    i = self.child(g, i, e)?;
                }
            }
        }
    }

    /// A playout after edge `e` of node `i`, adding no node (the tree is full).
    fn rollout_from(
        &mut self,
        g: &Game,
        i: u32,
        e: usize,
        cfg: &Config,
        rng: &mut Rng,
        reward: &mut [u64],
    ) -> Result<bool, RunError> {
        let nd = &self.nodes[i as usize];
        let mut t = nd.state.clone().ok_or_else(no_state)?;
        t.play_unchecked(g, &nd.edges[e].mv)?;
        let p = crate::playout(g, &t, rng, cfg.max_plies)?;
        rewards(p.outcome, self.players, reward);
        Ok(true)
    }

    /// The UCT choice among the tried edges of node `i` for player `p`
    /// (those `open` allows).
    fn select(&self, i: u32, p: u8, c: f64, open: impl Fn(usize) -> bool) -> usize {
        let nd = &self.nodes[i as usize];
        let hidden = nd.state.is_none();
        let ln_parent = f64::from(nd.n.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, 0);
        for (k, e) in nd.edges.iter().enumerate() {
            if e.child == NONE || !open(k) {
                continue;
            }
            let ch = &self.nodes[e.child as usize];
            let n = f64::from(ch.n.max(1));
            let mean = ch.sum.get(p as usize).copied().unwrap_or(0) as f64 / (n * UNITS as f64);
            let ln = if hidden { f64::from(e.avail.max(1)).ln() } else { ln_parent };
            let score = mean + c * (ln / n).sqrt();
            if score > best.0 {
                best = (score, k);
            }
        }
        best.1
    }

    /// One iteration of information-set search from a position drawn from
    /// what `me` sees of `s`. A drawn position may contradict what the rules
    /// imply but the zones do not say (a card the rules never put in a hand
    /// dealt into one): a rule that fails there ends the iteration, which
    /// then counts for nothing (false).
    #[allow(clippy::too_many_arguments)]
    fn iterate_hidden(
        &mut self,
        g: &Game,
        s: &State,
        me: u8,
        cfg: &Config,
        rng: &mut Rng,
        path: &mut Vec<u32>,
        reward: &mut [u64],
    ) -> Result<bool, RunError> {
        let mut det = sample(g, s, me, rng)?;
        path.push(0);
        Ok(self.descend_hidden(g, &mut det, cfg, rng, path, reward).is_ok())
    }

    fn descend_hidden(
        &mut self,
        g: &Game,
        det: &mut State,
        cfg: &Config,
        rng: &mut Rng,
        path: &mut Vec<u32>,
        reward: &mut [u64],
    ) -> Result<(), RunError> {
        let mut i = 0u32;
        let mut legal = Vec::new();
        loop {
            if det.ended().is_some() {
                rewards(det.ended(), self.players, reward);
                return Ok(());
            }
            if det.turn() == Turn::Chance {
                // Chance does not branch the tree: draw and go on.
                let outs = det.chance_outcomes(g)?;
                let weights: Vec<u32> = outs.iter().map(|o| o.1).collect();
                let Some(k) = crate::rng::pick_weighted(&weights, outs.len(), rng) else {
                    rewards(None, self.players, reward);
                    return Ok(());
                };
                det.play_unchecked(g, &outs[k].0)?;
                continue;
            }
            det.legal_moves_into(g, &mut legal)?;
            if legal.is_empty() {
                rewards(det.outcome(g)?, self.players, reward);
                return Ok(());
            }
            let p = det.current();
            // Which edges are available in this draw; the untried moves.
            let nd = &mut self.nodes[i as usize];
            nd.kind = Kind::Player(p);
            let mut open = vec![false; nd.edges.len()];
            let mut untried = Vec::new();
            for (k, m) in legal.iter().enumerate() {
                match nd.edges.iter().position(|e| e.mv == *m) {
                    Some(j) => {
                        nd.edges[j].avail += 1;
                        open[j] = true;
                    }
                    None => untried.push(k),
                }
            }
            if !untried.is_empty() && self.nodes.len() < MAX_NODES {
                let m = legal.swap_remove(untried[rng.below(untried.len())]);
                det.play_unchecked(g, &m)?;
                let playout = crate::playout(g, det, rng, cfg.max_plies)?;
                let c = self.add(None);
                self.nodes[i as usize].edges.push(Edge { mv: m, child: c, avail: 1, weight: 1 });
                path.push(c);
                rewards(playout.outcome, self.players, reward);
                return Ok(());
            }
            if !open.iter().any(|&o| o) {
                // The tree is full and no tried move is available: play out.
                let playout = crate::playout(g, det, rng, cfg.max_plies)?;
                rewards(playout.outcome, self.players, reward);
                return Ok(());
            }
            let e = self.select(i, p, cfg.exploration, |k| open[k]);
            let edge = &self.nodes[i as usize].edges[e];
            det.play_unchecked(g, &edge.mv)?;
            i = edge.child;
            path.push(i);
        }
    }
}

/// A node of a tree of known positions always holds its position: a node
/// without one is a bug of the search, reported as an error.
#[cold]
fn no_state() -> RunError {
    RunError::new("internal error: a search node has no position", Default::default())
}
