//! The compile stage: checked IR → [`Program`], the form the fast evaluator
//! runs.
//!
//! # What a program is
//! Every rule block (`turn`, `setup`, `on no moves`, `at end`) becomes a
//! flat sequence of [`stmt::Op`]s with an explicit program counter: `if`, `for`
//! and `while` become jumps, and a loop keeps its position (a *cursor*) in
//! the frame rather than on the Rust stack. So a run can stop anywhere —
//! at a `choose` or an `either` — and be resumed later from a copy of its
//! state and frame: a decision is a **fork**, not a replay (see
//! `eval::search`).
//!
//! Expressions become typed closures: conditions return `bool`, numbers and
//! every small value (cell, player, kind, direction, line, zone) return one
//! `i64` word, sets of cells return a [`Set<W>`] of `W` machine words, and
//! collections return a [`Dom<W>`] to iterate. No tagged value is built on
//! the hot path. Locals live in three banks of the [`Frame`]: words, sets
//! and collections; the compiler maps every IR slot to its bank.
//!
//! A program is generic over `W`, the number of words of a cell set, and
//! [`Compiled`] holds the instance for the game's board (1, 2 or 4 words).
//!
//! # Errors
//! Closures return plain values. A rule error (division by zero, a runaway
//! loop) is recorded in the frame (`Frame::err`, first error wins) and the
//! closure returns a harmless value (0, `none`, the empty set); the machine
//! checks the frame after every op and stops the run with that error. No
//! expression has an effect, so the values computed after an error are
//! never seen.
//!
//! # Passes
//! The optimisations are compile passes over patterns any game may use,
//! documented one by one in [`opt`]: whole-board set forms of cell
//! predicates, line quantifiers as bit tests, set algebra for quantifiers
//! over cells, and lazily completed turn tails.

pub mod effect;
pub mod expr;
pub mod live;
pub mod opt;
pub mod set;
pub mod stmt;

use crate::board::{CellId, NO_CELL};
use crate::ir::{self, Ty};
use crate::source::Span;
use crate::state::{RunError, State};
pub use set::Set;

/// Everything a closure may read or write while it runs.
pub struct Cx<'a, const W: usize> {
    /// The game's tables.
    pub t: &'a Tables<W>,
    /// The position being changed by the run.
    pub st: &'a mut State,
    /// Locals, loop cursors, caches, the step counter and the error.
    pub fr: &'a mut Frame<W>,
}

/// A compiled condition.
pub type B<const W: usize> = Box<dyn Fn(&mut Cx<'_, W>) -> bool + Send + Sync>;
/// A compiled number or small value, as one word (see [`word`]).
pub type I<const W: usize> = Box<dyn Fn(&mut Cx<'_, W>) -> i64 + Send + Sync>;
/// A compiled set of cells.
pub type S<const W: usize> = Box<dyn Fn(&mut Cx<'_, W>) -> Set<W> + Send + Sync>;
/// A compiled collection.
pub type D<const W: usize> = Box<dyn Fn(&mut Cx<'_, W>) -> Dom<W> + Send + Sync>;
/// A compiled store into the frame (a `let`, a parameter binding).
pub type Store<const W: usize> = Box<dyn Fn(&mut Cx<'_, W>) + Send + Sync>;
/// A compiled set-form predicate: its cells, and whether it holds at `none`.
/// The second argument (`within`) is the set of cells the caller will
/// look at: the answer is exact on those cells and may be anything
/// outside them (a predicate asked cell by cell, such as a count of
/// neighbours, asks only those).
pub type P<const W: usize> = Box<dyn Fn(&mut Cx<'_, W>, Set<W>) -> (Set<W>, bool) + Send + Sync>;

/// How small values are held in one `i64` word.
pub mod word {
    /// A zone of a player: zone id and player in one word.
    #[inline(always)]
    pub fn zone(z: u16, p: u8) -> i64 {
        (i64::from(z) << 8) | i64::from(p)
    }

    /// The zone id and player of a zone word.
    #[inline(always)]
    pub fn unzone(w: i64) -> (u16, u8) {
        ((w >> 8) as u16, (w & 0xff) as u8)
    }
}

/// A collection to iterate, evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dom<const W: usize> {
    /// A set of cells (a snapshot): its cells in order.
    Set(Set<W>),
    /// A line: its cells from one end.
    Line(u32),
    /// Every direction.
    Dirs,
    /// Every kind.
    Kinds,
    /// Every player.
    Players,
    /// Line ids `start..end`.
    Lines(u32, u32),
    /// A player's groups (read live, as the position changes).
    Groups(u8),
    /// A tile kind's placements.
    Placements(u16),
    /// The numbers `a..=b`.
    Range(i64, i64),
    /// A zone (read live).
    Zone(u16, u8),
    /// A literal list (`Tables::lists`).
    List(u32),
}

/// Where a local lives in the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Var {
    /// A word slot.
    W(u16),
    /// A set slot.
    S(u16),
    /// A collection slot.
    D(u16),
}

impl Var {
    /// The bank of a value of type `ty`.
    pub fn bank(ty: Ty) -> u8 {
        match ty {
            Ty::Cells => 1,
            Ty::Dirs
            | Ty::Kinds
            | Ty::Players
            | Ty::Lines
            | Ty::Groups
            | Ty::Placements
            | Ty::Ints => 2,
            _ => 0,
        }
    }
}

/// A line of the board, as the evaluator reads it.
#[derive(Debug, Clone)]
pub struct LineT<const W: usize> {
    /// Its cells in order.
    pub cells: Vec<CellId>,
    /// The same cells as a set.
    pub set: Set<W>,
    /// Its prefixes of 1 to `len - 1` cells, as lines.
    pub prefixes: Vec<u32>,
    /// 1: cell ids increase along it, 2: they decrease, 0: neither.
    pub order: u8,
}

/// Per-game tables: the board's geometry and the game's constants, in the
/// shapes the closures read.
#[derive(Debug, Clone)]
pub struct Tables<const W: usize> {
    /// Number of cells.
    pub cells: usize,
    /// Number of directions.
    pub dirs: usize,
    /// `step[c * dirs + d]`: the neighbour of `c` in direction `d`, or `NO_CELL`.
    pub step: Vec<CellId>,
    /// `back[d * cells + x]`: the cell whose `d`-neighbour is `x`, or `NO_CELL`.
    pub back: Vec<CellId>,
    /// The cells with no neighbour in direction `d`.
    pub edge: Vec<Set<W>>,
    /// The neighbours of each cell.
    pub nbr: Vec<Set<W>>,
    /// `stepped[c * (dirs + 1) + d]`: the cells one step away from `c` in
    /// direction `d` or a later one (`step(c, e)` for `e >= d`, the ones on
    /// the board); entry `d = dirs` is empty.
    pub stepped: Vec<Set<W>>,
    /// Whether every cell is a neighbour of its neighbours (then the cells
    /// touching a set are the neighbours of its cells).
    pub nbr_symmetric: bool,
    /// Every cell.
    pub all: Set<W>,
    /// Every line the game uses.
    pub lines: Vec<LineT<W>>,
    /// Owner and kind of each board code.
    pub codes: Vec<(u8, u16)>,
    /// Number of players.
    pub players: usize,
    /// Number of kinds.
    pub kinds: usize,
    /// `props[k][p]`: property `p` of kind `k`.
    pub props: Vec<Vec<i64>>,
    /// `(file, rank)` of each cell.
    pub file_rank: Vec<(i64, i64)>,
    /// `cell(file, rank)`: dense table from `(fmin, rmin)` with `fw` columns.
    pub at: (i64, i64, i64, i64, Vec<CellId>),
    /// The placements of each kind (shared with the options of decisions
    /// among them, which name them by index).
    pub placements: Vec<std::sync::Arc<[Set<W>]>>,
    /// Per kind, by cell: the placements that cover the cell, as a bit set
    /// of placement indices (`words` words a cell, see
    /// [`Tables::covering`]); empty for a kind whose table would be too
    /// large ([`MAX_COVERING`]).
    pub covering: Vec<Vec<u64>>,
    /// Zones: (per player, ordered) for each zone id.
    pub zones: Vec<(bool, bool)>,
    /// Index of the first zone counter in a state's data.
    pub counter_base: usize,
    /// For ordered zones: the first sequence index.
    pub seq_base: Vec<usize>,
    /// The board, for shapes.
    pub board: crate::board::Board,
    /// Lines of each length as shifts, where every axis moves by a fixed
    /// cell-id offset (see [`LineShifts`]).
    pub shifts: Vec<LineShifts<W>>,
    /// Most steps (loop rounds and elements looked at) one run may take.
    pub max_steps: u32,
    /// Most options one turn's search may explore.
    pub max_choices: u32,
    /// `rays[c * dirs + d]`: the line from `c` in direction `d` to the edge.
    pub rays: Vec<u32>,
    /// The line of no cells.
    pub empty_line: u32,
    /// Literal lists, as words.
    pub lists: Vec<Vec<i64>>,
    /// Each variable of the position: (per player, a clock, first slot).
    pub vars: Vec<(bool, bool, usize)>,
}

pub use crate::state::Limits;

/// Most words of all the [`Tables::covering`] tables of a game (2 MiB).
pub const MAX_COVERING: usize = 1 << 18;

/// Most line axes of a board whose decisions among lines are listed by
/// shifts (square boards have 4, hex boards 3).
pub const MAX_LINE_AXES: usize = 8;

/// The lines of one length on a board where each axis is a fixed offset
/// in cell ids (square boards, `hex` rhombi): a line along axis `a` starts
/// at each cell of `starts[a]` and runs `c, c + d, ..., c + (k-1) d`.
#[derive(Debug, Clone)]
pub struct LineShifts<const W: usize> {
    /// The line ids of this length.
    pub range: (u32, u32),
    /// Cells per line.
    pub k: usize,
    /// Per axis: the id offset and the cells where a line starts.
    pub axes: Vec<(i32, Set<W>)>,
    /// Per axis, by start cell: the line's id (the lines of a length are
    /// numbered by start cell, then axis); empty when the numbering is
    /// not that one.
    pub ids: Vec<Vec<u32>>,
    /// For a board of one word, per axis: the shift down that moves a
    /// word one step along the axis (under 64, as cell ids are), and the
    /// word of the lines' lowest cells, so that testing a word needs no
    /// sign or range test per axis. An axis whose offset is negative is
    /// read from each line's other end (its lowest cell, the offset
    /// turned positive): the same lines. Empty on larger boards.
    pub words: Vec<(u32, u64)>,
}

impl<const W: usize> LineShifts<W> {
    /// Per axis, the starts of the lines whose cells all lie in `s`.
    #[inline]
    pub fn all_in(&self, s: Set<W>, axis: usize) -> Set<W> {
        let (d, starts) = self.axes[axis];
        let mut r = starts.and(s);
        for j in 1..self.k as i32 {
            if r.is_empty() {
                break;
            }
            r = r.and(s.shift_down(j * d));
        }
        r
    }

    /// Per axis, the starts of the lines with some cell in `s`.
    #[inline]
    pub fn any_in(&self, s: Set<W>, axis: usize) -> Set<W> {
        let (d, starts) = self.axes[axis];
        let mut r = Set::EMPTY;
        for j in 0..self.k as i32 {
            r = r.or(s.shift_down(j * d));
        }
        r.and(starts)
    }
}

impl<const W: usize> Tables<W> {
    fn new(g: &ir::Game) -> Tables<W> {
        let b = &g.board;
        let cells = b.len();
        let dirs = b.dirs();
        let mut step = Vec::with_capacity(cells * dirs);
        let mut back = vec![NO_CELL; cells * dirs];
        let mut edge = vec![Set::EMPTY; dirs];
        let mut nbr = vec![Set::EMPTY; cells];
        for c in 0..cells as CellId {
            for d in 0..dirs {
                let n = b.step(c, d);
                step.push(n);
                if n == NO_CELL {
                    edge[d].insert(c);
                } else {
                    back[d * cells + n as usize] = c;
                }
            }
            nbr[c as usize] = Set::from_cells(&b.neighbours(c));
        }
        let mut all = Set::EMPTY;
        for c in 0..cells as CellId {
            all.insert(c);
        }
        let lines = b
            .lines
            .iter()
            .map(|l| LineT {
                cells: l.cells.clone(),
                set: Set::from_cells(&l.set),
                prefixes: l.prefixes.clone(),
                order: l.order,
            })
            .collect();
        let file_rank: Vec<(i64, i64)> = (0..cells as CellId).map(|c| b.file_rank(c)).collect();
        let fmin = file_rank.iter().map(|x| x.0).min().unwrap_or(0);
        let fmax = file_rank.iter().map(|x| x.0).max().unwrap_or(-1);
        let rmin = file_rank.iter().map(|x| x.1).min().unwrap_or(0);
        let rmax = file_rank.iter().map(|x| x.1).max().unwrap_or(-1);
        let (fw, rh) = (fmax - fmin + 1, rmax - rmin + 1);
        let mut at = vec![NO_CELL; (fw.max(0) * rh.max(0)) as usize];
        for (c, &(f, r)) in file_rank.iter().enumerate() {
            at[((r - rmin) * fw + (f - fmin)) as usize] = c as CellId;
        }
        let nk = g.kinds.len();
        let mut shifts = Vec::new();
        'len: for (k, range) in b.line_lengths().filter(|_| !b.axes().is_empty()) {
            let mut axes = Vec::new();
            for &a in b.axes() {
                let mut delta = None;
                let mut starts = Set::EMPTY;
                for c in 0..cells as CellId {
                    let n = b.step(c, a);
                    if n != NO_CELL {
                        let d = i32::from(n) - i32::from(c);
                        if delta.is_some_and(|x| x != d) {
                            continue 'len;
                        }
                        delta = Some(d);
                    }
                    let mut x = c;
                    let mut ok = true;
                    for _ in 1..k {
                        x = b.step(x, a);
                        if x == NO_CELL {
                            ok = false;
                            break;
                        }
                    }
                    if ok {
                        starts.insert(c);
                    }
                }
                axes.push((delta.unwrap_or(0), starts));
            }
            // The line ids by axis and start cell, as the board numbers them.
            let mut ids = vec![vec![u32::MAX; cells]; axes.len()];
            let mut next = range.0;
            for c in 0..cells as CellId {
                for (a, (_, starts)) in axes.iter().enumerate() {
                    if starts.contains(c) {
                        ids[a][c as usize] = next;
                        next += 1;
                    }
                }
            }
            let numbered = next == range.1
                && ids.iter().enumerate().all(|(a, by)| {
                    by.iter().enumerate().all(|(c, &id)| {
                        id == u32::MAX
                            || b.lines.get(id as usize).is_some_and(|l| {
                                l.cells.first() == Some(&(c as CellId))
                                    && l.cells.get(1) == Some(&b.step(c as CellId, b.axes()[a]))
                            })
                    })
                });
            if !numbered {
                ids.clear();
            }
            let words = if W == 1 {
                axes.iter()
                    .map(|&(d, starts)| {
                        // A line from `c` with offset `-s` is the line
                        // from `c - (k-1) s` with offset `s`.
                        let s = d.unsigned_abs();
                        let lowest = if d >= 0 { 0 } else { s * k.saturating_sub(1) };
                        (s, starts.0[0].checked_shr(lowest).unwrap_or(0))
                    })
                    .collect()
            } else {
                Vec::new()
            };
            shifts.push(LineShifts { range, k: k as usize, axes, ids, words });
        }
        let mut stepped = vec![Set::EMPTY; cells * (dirs + 1)];
        for c in 0..cells {
            for d in (0..dirs).rev() {
                let n = step.get(c * dirs + d).copied().unwrap_or(NO_CELL);
                stepped[c * (dirs + 1) + d] = stepped[c * (dirs + 1) + d + 1].or(Set::one(n));
            }
        }
        Tables {
            rays: b.rays.clone(),
            empty_line: b.empty_line.unwrap_or(0),
            lists: g.lists.clone(),
            vars: g.vars.iter().map(|v| (v.per_player, v.clock, v.base)).collect(),
            max_steps: effect::STEP_LIMIT,
            max_choices: crate::state::NODE_LIMIT,
            shifts,
            cells,
            dirs,
            step,
            back,
            edge,
            nbr_symmetric: (0..cells)
                .all(|c| nbr[c].iter().all(|n| nbr[n as usize].contains(c as CellId))),
            stepped,
            nbr,
            all,
            lines,
            codes: g.piece_codes.clone(),
            players: g.players.len(),
            kinds: nk,
            props: g.kinds.iter().map(|k| k.props.clone()).collect(),
            file_rank,
            at: (fmin, rmin, fw, rh, at),
            placements: g
                .placements
                .iter()
                .map(|ps| ps.iter().map(Set::from_cells).collect::<Vec<_>>().into())
                .collect(),
            covering: {
                let mut budget = MAX_COVERING;
                g.placements
                    .iter()
                    .map(|ps| {
                        let words = ps.len().div_ceil(64);
                        if words * cells > budget {
                            return Vec::new();
                        }
                        budget -= words * cells;
                        let mut t = vec![0u64; words * cells];
                        for (i, p) in ps.iter().enumerate() {
                            for c in p.iter() {
                                if let Some(x) = t.get_mut(c as usize * words + i / 64) {
                                    *x |= 1 << (i % 64);
                                }
                            }
                        }
                        t
                    })
                    .collect()
            },
            zones: g.zones.iter().map(|z| (z.per_player, z.ordered)).collect(),
            counter_base: cells,
            seq_base: g.zones.iter().map(|z| z.seq_base).collect(),
            board: b.clone(),
        }
    }

    /// The cells one step from `c` in direction `d` or a later one (none
    /// for a cell off the board).
    #[inline(always)]
    pub fn stepped_from(&self, c: CellId, d: usize) -> Set<W> {
        // A cell id is 16 bits and `d` at most the number of directions.
        let i = c as usize * (self.dirs + 1) + d;
        self.stepped.get(i).copied().unwrap_or(Set::EMPTY)
    }

    /// The neighbour of `c` in direction `d`, or `NO_CELL`.
    #[inline(always)]
    pub fn step(&self, c: CellId, d: usize) -> CellId {
        if c == NO_CELL {
            return NO_CELL;
        }
        self.step.get(c as usize * self.dirs + d).copied().unwrap_or(NO_CELL)
    }

    /// The ray from `c` in direction `d` (the empty line from `none`).
    #[inline(always)]
    pub fn ray(&self, c: CellId, d: usize) -> u32 {
        if c == NO_CELL {
            return self.empty_line;
        }
        self.rays.get(c as usize * self.dirs + d).copied().unwrap_or(self.empty_line)
    }

    /// The first `k` cells of line `l`, as a line.
    #[inline(always)]
    pub fn prefix(&self, l: u32, k: usize) -> u32 {
        match self.lines.get(l as usize) {
            Some(line) if k < line.cells.len() => {
                if k == 0 {
                    self.empty_line
                } else {
                    line.prefixes.get(k - 1).copied().unwrap_or(l)
                }
            }
            _ => l,
        }
    }

    /// How many cells of line `l` come before its first cell in `s`
    /// (its length when there is none): a bit scan on lines whose cell ids
    /// run one way.
    #[inline(always)]
    pub fn before_first(&self, l: u32, s: Set<W>) -> usize {
        let Some(line) = self.lines.get(l as usize) else { return 0 };
        let hit = line.set.and(s);
        match (hit.is_empty(), line.order) {
            (true, _) => line.cells.len(),
            (false, 1) => {
                let c = hit.first().unwrap_or(0);
                line.set.below(c).len()
            }
            (false, 2) => {
                let c = hit.last().unwrap_or(0);
                line.set.above(c).len()
            }
            _ => line.cells.iter().position(|&c| s.contains(c)).unwrap_or(line.cells.len()),
        }
    }

    /// `last(upto(l))`: the first cell of line `l` in `s`, else its last
    /// cell (`NO_CELL` for the empty line), by [`Tables::before_first`]'s
    /// bit scan without making the prefix line.
    #[inline(always)]
    pub fn first_in_or_last(&self, l: u32, s: Set<W>) -> CellId {
        let Some(line) = self.lines.get(l as usize) else { return NO_CELL };
        let hit = line.set.and(s);
        let last = line.cells.last().copied().unwrap_or(NO_CELL);
        match (hit.is_empty(), line.order) {
            (true, _) => last,
            (false, 1) => hit.first().unwrap_or(last),
            (false, 2) => hit.last().unwrap_or(last),
            _ => line.cells.iter().copied().find(|&c| s.contains(c)).unwrap_or(last),
        }
    }

    /// Index of a zone counter in a state's data.
    #[inline(always)]
    pub fn counter(&self, z: u16, p: u8, k: u16) -> usize {
        self.counter_base + (z as usize * self.players + p as usize) * self.kinds + k as usize
    }

    /// The counters, one per kind, of counted zone `z` of player `p` in
    /// `data` (a state's): `None` for no player or an ordered zone.
    #[inline(always)]
    pub fn kind_counts<'d>(&self, data: &'d [u16], z: u16, p: u8) -> Option<&'d [u16]> {
        if p == crate::ir::NONE8 || self.zones.get(z as usize).is_none_or(|x| x.1) {
            return None;
        }
        let base = self.counter(z, p, 0);
        data.get(base..base + self.kinds)
    }

    /// Index of an ordered zone's sequence in a state.
    #[inline(always)]
    pub fn sequence(&self, z: u16, p: u8) -> usize {
        let per = self.zones[z as usize].0;
        self.seq_base[z as usize] + if per { p as usize } else { 0 }
    }
}

/// The evaluator's working memory for one run: locals in three banks,
/// loop cursors, per-position caches, the step count and the first error.
/// Copied (with `clone_from`, reusing its buffers) at every fork.
#[derive(Debug, Clone, Default)]
pub struct Frame<const W: usize> {
    /// Word locals and loop indices.
    pub w: Vec<i64>,
    /// Set locals.
    pub s: Vec<Set<W>>,
    /// Collection locals and the collections loops walk.
    pub d: Vec<Dom<W>>,
    /// Bumped by every effect: caches keyed by an older value are stale.
    pub epoch: u64,
    /// Loop iterations so far in this run (for the runaway limit).
    pub steps: u32,
    /// Where the rule that failed is (see [`effect::fail`]): read when a
    /// statement returns `Ctl::Fail`, at once.
    pub failed: crate::source::Span,
    /// The first rule error of this run.
    pub err: Option<RunError>,
    /// Each player's groups (none when the program compiles no
    /// `groups(P)`: [`Program::group_lists`]).
    pub groups: Vec<GroupCache<W>>,
    /// The remembered values (see [`Memos`]); never stale, so never
    /// copied at a fork. A search moves one set of tables from level to
    /// level (see `eval::search`), so what one level learns serves all.
    pub m: Box<Memos<W>>,
    /// Each player's pieces when the turn began, set by the search for
    /// every level (not copied at a fork) when a pass reads them
    /// ([`Program::reads_start`]). Only a hint for questions asked by
    /// change (pass 13): any value gives the same answers.
    pub start: Vec<Set<W>>,
    /// The keys of the position's history, counted for `repetitions`;
    /// never stale (it follows the history asked about), never copied at
    /// a fork.
    pub reps: crate::state::RepCount,
}

/// The remembered values of a frame: facts about sets (and the pieces a
/// collection's groups are made from), true whatever the position, so a
/// table may move from one frame to another of the same program.
#[derive(Debug, Clone, Default)]
pub struct Memos<const W: usize> {
    /// The remembered values of conditions that depend on one set alone
    /// (see `opt::memo_cond`), one table per condition.
    pub memo: Vec<Memo<W>>,
    /// Shape codes of sets (see `Board::shape_code`), remembered per set
    /// for `same_shape`.
    pub shapes: Memo<W>,
    /// The remembered collections of pass 23, one table per collection.
    pub pairs: Vec<PairMemo<W>>,
}

/// A player's groups, by first cell: `list` is always the groups of the
/// pieces `own` (a fact about two sets, true whatever the position), and
/// they are the player's groups now while `epoch` is the frame's.
#[derive(Debug, Clone)]
pub struct GroupCache<const W: usize> {
    /// The frame's epoch when `list` was last known to be current.
    pub epoch: u64,
    /// The pieces `list` is the groups of.
    pub own: Set<W>,
    /// The groups of `own`, by first cell.
    pub list: Vec<Set<W>>,
}

impl<const W: usize> Default for GroupCache<W> {
    /// No pieces, no groups; stale.
    fn default() -> Self {
        GroupCache { epoch: 0, own: Set::EMPTY, list: Vec::new() }
    }
}

/// Remembered values of a condition of one set: a direct-mapped table, a
/// later set taking the place of an earlier one with the same hash. It
/// starts at [`Memo::SIZE`] entries and doubles (forgetting what it held)
/// each time it has taken twice as many values as it has entries, up to
/// [`Memo::MAX_BITS`]: a working set larger than the table evicts its own
/// entries over and over.
#[derive(Debug, Clone)]
pub struct Memo<const W: usize> {
    keys: Box<[Set<W>]>,
    /// The remembered values; [`Memo::EMPTY`] marks an unused entry.
    vals: Box<[u64]>,
    /// Bits of a table index.
    bits: u32,
    /// Values taken since the table was made at this size.
    puts: usize,
}

impl<const W: usize> Default for Memo<W> {
    /// An empty table: its entries are allocated when the first value is
    /// remembered (frames are made in many places that never use them).
    fn default() -> Self {
        Memo { keys: Box::default(), vals: Box::default(), bits: Self::BITS, puts: 0 }
    }
}

impl<const W: usize> Memo<W> {
    /// Bits of a table index at first.
    const BITS: u32 = 12;
    /// Entries per table at first: 4096, enough for the groups a game's
    /// positions go through in a playout (Snekagon, callgrind, 5 playouts:
    /// 160.1M instructions with 256 entries, 149.1M with 4096; memory is
    /// only allocated for a condition that is asked).
    pub const SIZE: usize = 1 << Self::BITS;
    /// Most bits of a table index: 32768 entries (Snekagon's `perft 2`
    /// asks about 2,600 groups over and over, which evict one another in
    /// 4096 entries 42% of the time).
    pub const MAX_BITS: u32 = 15;
    /// The value of an unused entry (never remembered).
    pub const EMPTY: u64 = u64::MAX;

    #[inline]
    fn slot(&self, key: &Set<W>) -> usize {
        let mut h = 0u64;
        for w in key.0 {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        (h >> (64 - self.bits)) as usize
    }

    /// The remembered value for `key`, if any.
    #[inline]
    pub fn get(&self, key: &Set<W>) -> Option<u64> {
        let i = self.slot(key);
        match self.vals.get(i) {
            Some(&v) if v != Self::EMPTY && self.keys.get(i) == Some(key) => Some(v),
            _ => None,
        }
    }

    /// Remembers `v` (not [`Memo::EMPTY`]) for `key`.
    #[inline]
    pub fn put(&mut self, key: Set<W>, v: u64) {
        self.puts += 1;
        if self.keys.is_empty() || (self.puts > 2 * self.keys.len() && self.bits < Self::MAX_BITS) {
            if !self.keys.is_empty() {
                self.bits += 1;
            }
            self.puts = 0;
            self.keys = vec![Set::EMPTY; 1 << self.bits].into_boxed_slice();
            self.vals = vec![Self::EMPTY; 1 << self.bits].into_boxed_slice();
        }
        let i = self.slot(&key);
        if let (Some(k), Some(x)) = (self.keys.get_mut(i), self.vals.get_mut(i)) {
            *k = key;
            *x = v;
        }
    }
}

/// Remembered sets of a pair of sets (pass 23, see
/// `opt::Compiler::collect_memo`), each with the steps its computation
/// counted: a direct-mapped table, made at the first value remembered, a
/// later pair taking the place of an earlier one with the same hash.
#[derive(Debug, Clone, Default)]
pub struct PairMemo<const W: usize> {
    /// Keys, value and steps of each entry.
    entries: Box<[(Set<W>, Set<W>, Set<W>, u32)]>,
    /// Which entries hold a value.
    used: Box<[bool]>,
}

impl<const W: usize> PairMemo<W> {
    /// Bits of a table index: 1024 entries.
    const BITS: u32 = 10;

    #[inline]
    fn slot(a: &Set<W>, b: &Set<W>) -> usize {
        let mut h = 0u64;
        for w in a.0.iter().chain(b.0.iter()) {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        (h >> (64 - Self::BITS)) as usize
    }

    /// The remembered value for the pair and its steps, if any.
    #[inline]
    pub fn get(&self, a: &Set<W>, b: &Set<W>) -> Option<(Set<W>, u32)> {
        let i = Self::slot(a, b);
        match (self.used.get(i), self.entries.get(i)) {
            (Some(true), Some((x, y, v, n))) if x == a && y == b => Some((*v, *n)),
            _ => None,
        }
    }

    /// Remembers `v` for the pair, computed in `steps` steps.
    #[inline]
    pub fn put(&mut self, a: Set<W>, b: Set<W>, v: Set<W>, steps: u32) {
        if self.entries.is_empty() {
            let n = 1 << Self::BITS;
            self.entries = vec![(Set::EMPTY, Set::EMPTY, Set::EMPTY, 0); n].into_boxed_slice();
            self.used = vec![false; n].into_boxed_slice();
        }
        let i = Self::slot(&a, &b);
        if let (Some(e), Some(u)) = (self.entries.get_mut(i), self.used.get_mut(i)) {
            *e = (a, b, v, steps);
            *u = true;
        }
    }
}

impl<const W: usize> Frame<W> {
    /// Records a rule error (the first one wins).
    #[cold]
    pub fn fail(&mut self, message: String, span: Span) {
        if self.err.is_none() {
            self.err = Some(RunError::new(message, span));
        }
    }
}

/// One block of a program: its ops, in order.
pub struct Block<const W: usize> {
    /// The ops; running past the last one finishes the block.
    pub ops: Vec<stmt::Op<W>>,
}

/// What a decision point of the turn offers, for turning options into moves.
#[derive(Debug, Clone)]
pub struct SiteInfo {
    /// The chosen value's type (`Int` for `either`).
    pub ty: Ty,
    /// The decision's statement.
    pub span: Span,
    /// Set by the lazy-tail pass: after this decision the turn always
    /// completes, so its options are the moves (see [`opt::lazy_tails`]).
    pub lazy: bool,
    /// A chance event, not a decision of the mover.
    pub chance: bool,
    /// Set by the chance-tail pass: [`Program::chance_tails`] holds the
    /// conditions under which its options stop at chance unrun.
    pub chance_tail: bool,
    /// Set by the drawn-tail pass (pass 15): after this decision the turn
    /// asks nothing more and meets no chance event, but may fail; at most
    /// this many steps and this many pieces added to zones. A playout may
    /// then draw its move among the options without running them all.
    pub drawn: Option<opt::DrawnTail>,
    /// Set by pass 54: a playout may list this decision's candidates
    /// (`eval::machine::candidates`) and ask the filter of the ones it
    /// draws alone (`eval::machine::filter_holds`), within these bounds.
    pub filter_draw: Option<opt::FilterDraw>,
    /// Set by the neighbourhood-require pass (pass 17): the options of
    /// this decision are asked a `require` (`stmt::ChooseOp::nbr`).
    pub nbr: bool,
    /// Set by the sure-tail pass (pass 22): [`Program::sure_tails`] holds
    /// the conditions under which its options are the moves.
    pub sure: bool,
    /// Every option's run meets, at once, a `choose` whose options may be
    /// handed over unrun (a lazy, chance or sure tail; neither chance nor
    /// drawn): a sink that keeps levels may take the options as one group
    /// sharing this decision's level (see `eval::search::Sink::groups`).
    pub groups: bool,
    /// An `either` each of whose arms begins with a decision (a `choose`,
    /// an `either`, a `random`): an arm's run stops at that decision at
    /// once, having done nothing, so the search goes to it without
    /// running the arm. Never set for an `either` whose own options are
    /// handed over unrun (lazy, chance, sure or drawn tails).
    pub arms_decide: bool,
    /// A `choose` followed at once by another decision (`choose pawn`
    /// then `choose target`): an option's run stops there having done
    /// nothing but bind the chosen value, so the search goes to it
    /// without a run.
    pub next_decides: bool,
    /// A `choose` among the kinds of a counted zone named in the rule
    /// (`stmt::ChooseOp::kinds`) whose options, where they need not be
    /// listed (chance, a lazy, chance or sure tail), a count may tell
    /// from the zone's counters without listing them
    /// (`eval::machine::count_options`).
    pub counted_in_place: bool,
    /// A sure tail, and maybe a chance tail, whose zones are all known at
    /// load ([`ZoneRef::Seq`]): their checks read the position and
    /// nothing else, so a count that needs only whether either holds may
    /// ask the sure tail first (and pass 31 may compare two arms' tails,
    /// see `counts_alike`).
    pub tails_in_place: bool,
    /// For the `choose` an arm of an `either` begins with (arms that
    /// decide at once): an earlier arm (its index, below [`ALIKE_ARMS`])
    /// whose `choose` counts alike — the kinds of the same counted zone
    /// and player, both sure tails read the same zones (known at load)
    /// the same way — so that where that arm's options were counted in
    /// place, these are as many, once this tail's own step bound holds.
    pub counts_like: Option<u8>,
    /// The frame slots an option's run may read before writing them
    /// (pass 35, [`live`]): what a copy of a level for an option carries.
    pub live: live::Live,
    /// Those of them that such a run may write (pass 35): what a copy for
    /// an option carries into a level that holds the run of the option
    /// before.
    pub each: live::Live,
}

/// The arms of an `either` that [`SiteInfo::counts_like`] looks among.
pub const ALIKE_ARMS: usize = 8;

/// How perft counts the moves of a position at its last ply without a
/// search (pass 33, see `eval::leaf`): the turn begins with a `choose`
/// among the kinds of a counted zone, or with an `either` whose arms each
/// begin with one, each told in place with a sure tail whose zones are
/// known at load. The count walks these and nothing else; wherever a
/// check does not hold it gives up and the search counts.
#[derive(Debug)]
pub struct LeafCount {
    /// The `either` the turn begins with (its arms are spent from the
    /// budget first), if it does.
    pub either: bool,
    /// The `choose`s, in the order of the arms.
    pub arms: Vec<LeafArm>,
}

/// One `choose` of a [`LeafCount`].
#[derive(Debug)]
pub struct LeafArm {
    /// Its op in the turn.
    pub pc: u32,
    /// Its site (and sure tail's index).
    pub site: u16,
    /// The counted zone whose kinds are the options.
    pub zone: u16,
    /// Its player: a constant, or `me` (`None`).
    pub player: Option<u8>,
    /// An earlier arm that counts alike ([`SiteInfo::counts_like`]).
    pub like: Option<u8>,
}

impl LeafArm {
    /// The counters of this arm's zone in position `s` (its player, or
    /// the mover's), one per kind.
    #[inline(always)]
    pub fn counts<'s, const W: usize>(&self, t: &Tables<W>, s: &'s State) -> Option<&'s [u16]> {
        t.kind_counts(&s.data, self.zone, self.player.unwrap_or(s.current))
    }
}

/// How many kinds the counters `counts` hold: the options of a `choose`
/// among them.
#[inline(always)]
pub fn kinds_held(counts: &[u16]) -> u32 {
    counts.iter().map(|&n| u32::from(n != 0)).sum()
}

/// Pass 33: the [`LeafCount`] of a turn, where it has one (see there).
fn leaf_count<const W: usize>(
    turn: &Block<W>,
    sites: &[SiteInfo],
    sure: &[Option<SureTail<W>>],
) -> Option<LeafCount> {
    let (either, pcs) = match turn.ops.first()? {
        stmt::Op::Either { site, arms, .. } if sites.get(*site as usize)?.arms_decide => {
            (true, arms.clone())
        }
        stmt::Op::Choose(_) => (false, vec![0]),
        _ => return None,
    };
    let arm = |pc: u32| {
        let stmt::Op::Choose(c) = turn.ops.get(pc as usize)? else { return None };
        let s = sites.get(c.site as usize)?;
        let fit = s.counted_in_place
            && s.tails_in_place
            && s.sure
            && !(s.lazy || s.chance || s.nbr)
            && c.fast.is_none()
            && sure.get(c.site as usize).is_some_and(Option::is_some);
        let player = match c.kinds.as_ref()? {
            (_, effect::Arg::Const(k)) => Some(*k as u8),
            (_, effect::Arg::Me) => None,
            _ => return None,
        };
        let zone = c.kinds.as_ref()?.0;
        fit.then_some(LeafArm { pc, site: c.site, zone, player, like: s.counts_like })
    };
    let arms = pcs.into_iter().map(arm).collect::<Option<Vec<_>>>()?;
    Some(LeafCount { either, arms })
}

/// Whether the `choose`s at ops `a` and `b` of `turn` count alike (see
/// [`SiteInfo::counts_like`]): each among the kinds of a counted zone
/// told in place, the same zone and player; neither lazy, chance, nor
/// pruned by a `require`; both with sure and chance tails whose zones are
/// known at load (so that the sure tail is asked first), the sure tails'
/// zones and draw-until stops the same, as their overflow and `add`
/// conditions. Their step bounds may differ: each is asked.
fn counts_alike<const W: usize>(
    turn: &Block<W>,
    sites: &[SiteInfo],
    sure: &[Option<SureTail<W>>],
    a: u32,
    b: u32,
) -> bool {
    let (Some(stmt::Op::Choose(x)), Some(stmt::Op::Choose(y))) =
        (turn.ops.get(a as usize), turn.ops.get(b as usize))
    else {
        return false;
    };
    let same_arg = |p: &effect::Arg<W>, q: &effect::Arg<W>| match (p, q) {
        (effect::Arg::Const(i), effect::Arg::Const(j)) => i == j,
        (effect::Arg::Me, effect::Arg::Me) => true,
        (effect::Arg::Slot(i), effect::Arg::Slot(j)) => i == j,
        _ => false,
    };
    let kinds = match (&x.kinds, &y.kinds) {
        (Some((z1, p1)), Some((z2, p2))) => z1 == z2 && same_arg(p1, p2),
        _ => false,
    };
    let info = |c: &stmt::ChooseOp<W>| {
        sites.get(c.site as usize).filter(|s| {
            s.counted_in_place && s.sure && s.tails_in_place && !s.lazy && !s.chance && !s.nbr
        })
    };
    let zone = |p: &ZoneRef<W>, q: &ZoneRef<W>| matches!((p, q), (ZoneRef::Seq(i), ZoneRef::Seq(j)) if i == j);
    let tails = match (sure.get(x.site as usize), sure.get(y.site as usize)) {
        (Some(Some(s)), Some(Some(t))) => {
            s.moves_pieces == t.moves_pieces
                && s.no_adds == t.no_adds
                && s.face_up.len() == t.face_up.len()
                && s.face_up.iter().zip(&t.face_up).all(|(p, q)| zone(p, q))
                && s.until.len() == t.until.len()
                && s.until.iter().zip(&t.until).all(|((p, u), (q, v))| zone(p, q) && u == v)
        }
        _ => false,
    };
    kinds && x.fast.is_none() && y.fast.is_none() && info(x).is_some() && info(y).is_some() && tails
}

/// A decision whose tail completes, whatever the option, when the
/// position at the decision meets the conditions below (pass 22, see
/// [`opt::SureTail`]): the search then lists its options as moves
/// without running them.
pub struct SureTail<const W: usize> {
    /// Ordered zones that must hold no face-down piece.
    pub face_up: Vec<ZoneRef<W>>,
    /// Draw-until loops: the zone must hold a piece of a kind marked here.
    pub until: Vec<(ZoneRef<W>, Vec<bool>)>,
    /// Most steps the tail takes, by the pieces all zones hold: the run's
    /// steps so far plus these must stay within the limit.
    pub steps: opt::Poly,
    /// The tail moves pieces between zones: all zones together must hold
    /// at most 65535 pieces.
    pub moves_pieces: bool,
    /// The turn has no `add`: the pieces at the turn's start bound those
    /// at the decision.
    pub no_adds: bool,
    /// The last bound computed, with its number of pieces (see
    /// [`SureTail::bound`]); 0 before.
    pub last: std::sync::atomic::AtomicU64,
}

impl<const W: usize> SureTail<W> {
    /// [`SureTail::steps`] when the zones hold `pieces`: the polynomial,
    /// or the value last computed for as many pieces (a search asks with
    /// the same number again and again, the pieces at the start of its
    /// turn). The two are kept in one word (the pieces plus one above bit
    /// 40, the bound below), so that threads sharing the program read a
    /// pair that belongs together; values too large to pack are computed
    /// each time.
    #[inline]
    pub fn bound(&self, pieces: u64) -> Option<u64> {
        use std::sync::atomic::Ordering::Relaxed;
        const LOW: u64 = (1 << 40) - 1;
        let last = self.last.load(Relaxed);
        if last != 0 && last >> 40 == pieces.wrapping_add(1) {
            return Some(last & LOW);
        }
        let b = self.steps.at(pieces)?;
        if pieces < (1 << 23) && b <= LOW {
            self.last.store(((pieces + 1) << 40) | b, Relaxed);
        }
        Some(b)
    }
}

/// A decision whose options all run, without failing, into the reveal of
/// a zone's first or last piece while that piece is face down and the
/// conditions below hold (pass 14): the search then lists its options as
/// moves that stop at chance without running them.
pub struct ChanceTail<const W: usize> {
    /// The zone.
    pub zone: ZoneRef<W>,
    /// Its first piece (else its last).
    pub front: bool,
    /// The tail moves pieces between zones: all zones together must hold
    /// at most 65535 pieces (so that none can overflow).
    pub moves_pieces: bool,
    /// Most steps the tail takes: the run's steps so far plus these must
    /// stay within the limit.
    pub steps: u32,
    /// The turn has no `add`: the bound of `moves_pieces` holds at the
    /// decision when it holds at the turn's start.
    pub no_adds: bool,
}

/// An ordered zone named in a rule: its sequence in the position when
/// that is known at load (a shared zone, or one of a constant player),
/// else the zone word to compute.
pub enum ZoneRef<const W: usize> {
    /// The index of its sequence (`State::seqs`).
    Seq(usize),
    /// Its zone word, computed in the run.
    Word(I<W>),
}

/// A compiled game for cell sets of `W` words.
pub struct Program<const W: usize> {
    /// Board tables and constants.
    pub t: Tables<W>,
    /// `turn`
    pub turn: Block<W>,
    /// `setup`
    pub setup: Block<W>,
    /// `on no moves`
    pub no_moves: Option<Block<W>>,
    /// `at end`
    pub at_end: Option<Block<W>>,
    /// `def score(p)`: the parameter's word slot and the body.
    pub score: Option<(u16, I<W>)>,
    /// Whether the rules have chance events.
    pub has_chance: bool,
    /// Whether a turn may meet a chance event before its first decision
    /// (then a position at the start of a turn may be a chance node).
    pub chance_first: bool,
    /// Frame sizes: words, sets, collections.
    pub frame: (usize, usize, usize),
    /// Number of remembered conditions (memo tables of a frame).
    pub memos: usize,
    /// Number of remembered collections (pass 23: tables of a frame).
    pub pair_memos: usize,
    /// Whether a frame's memo tables are ever asked (some remembered
    /// condition or collection, or `same_shape`): only then does the
    /// search move them from level to level.
    pub uses_memos: bool,
    /// Whether some collection `groups(P)` is compiled: only then does a
    /// frame keep each player's list of groups (else it holds none, and a
    /// fork has none to copy).
    pub group_lists: bool,
    /// Whether the turn begins with a decision: a count of a position's
    /// moves (`Searcher::counted`) then walks from it without running the
    /// position counted (the options that run, run in copies), and may
    /// count in an owned search.
    pub decides_first: bool,
    /// Whether a search may hold the position it searches in its first
    /// level instead of a copy (`Searcher::search_owned`): the turn
    /// begins with a decision, and the decisions met without a run (that
    /// one, the arms of an `either` that decide at once, the decision
    /// after a `choose` followed by one) hand their options over unrun
    /// (lazy, sure or chance tails, chance itself), so that no option
    /// runs in that level; and
    /// the mover decides nothing after a chance event (so a move played
    /// never leaves the turn under way, which is made from the position
    /// searched).
    pub owned_search: bool,
    /// Whether a playout counts the moves and plays only the one it draws
    /// (`Searcher::count_owned`, `Searcher::play_counted`) instead of
    /// listing them: an owned search whose first decision's options each
    /// meet another decision at once (an `either` whose arms decide at
    /// once, a `choose` followed by a decision), which a list keeps as
    /// groups. Where the first decision's options are the moves, the
    /// search hands them over as one list already.
    pub count_playouts: bool,
    /// Whether every level of a search is plain (`LevelData::plain`,
    /// whatever a sink swapped into it): no chance, so no turn under way;
    /// no history, ordered zones, variables, clocks or group lists.
    pub plain_levels: bool,
    /// Whether some decision's filter a playout may ask of the options it
    /// draws alone (pass 54, `SiteInfo::filter_draw`).
    pub filter_draws: bool,
    /// Whether, besides, no chance event can stop a search of a position
    /// without face-down pieces: the turn has no `random` and shuffles
    /// nothing (only a shuffle turns pieces face down). Perft's sink then
    /// never makes a position from the start of the turn, which an owned
    /// search does not keep beside its first level.
    pub owned_perft: bool,
    /// Whether the search must record each player's pieces at the start
    /// of a turn ([`Frame::start`]): some pass reads them.
    pub reads_start: bool,
    /// Every decision point, by site id.
    pub sites: Vec<SiteInfo>,
    /// For each site, whether its tail runs into a chance event (pass 14,
    /// see [`opt::tails`]).
    pub chance_tails: Vec<Option<ChanceTail<W>>>,
    /// For each site, the conditions of its sure tail (pass 22).
    pub sure_tails: Vec<Option<SureTail<W>>>,
    /// No statement that runs during play (`turn`, `on no moves`, `at
    /// end`) has an `add`, and some chance or sure tail moves pieces
    /// between zones (passes 14 and 22): the pieces all zones hold never
    /// grow after setup, so a caller searching many positions of one game
    /// (a playout, perft) may
    /// count them once, at its first position, for the overflow bound
    /// ([`crate::eval::search::Searcher::search_within`]).
    pub fixed_pieces: bool,
    /// How perft counts a position's moves at its last ply without a
    /// search (pass 33), where the turn allows it.
    pub leaf_count: Option<LeafCount>,
    /// What each pass did, one line per use (for `tabula check --passes`
    /// style reports and tests).
    pub notes: Vec<String>,
    /// The same rules compiled for positions where no piece is face down,
    /// when the turn reads the end of an ordered zone (a reveal) and no
    /// rule run in play can turn a piece face down or call a chance event
    /// (no `shuffle` or `random` in `turn`, `on no moves` or `at end`):
    /// from such a position no chance event can happen, so the reveals
    /// are left out and the statements around them compile as closures
    /// (a `while` whose test reads the first piece of a deck becomes one
    /// closure instead of ops). Perft from such a position runs it
    /// ([`crate::eval::perft`]). Its sites are the same; it has no
    /// `face_up` of its own.
    pub face_up: Option<Box<Program<W>>>,
    /// A number no other program of this process has: buffers sized for
    /// one program (see `play::playout`) know whether they fit another.
    pub id: u64,
    /// The run of `setup` from the empty position up to its first chance
    /// event (or its end), made the first time a game is dealt: no random
    /// number is drawn before that point, so every deal starts from
    /// there (see `State::initial_seeded`). `None` when that run fails:
    /// deals then run `setup` from the start and report the error.
    pub setup_prefix: std::sync::OnceLock<Option<SetupPrefix<W>>>,
}

/// Where every run of `setup` stands at its first chance event: the
/// position, the frame and the chance event's op (`None`: `setup` has no
/// chance event and is finished).
#[derive(Debug)]
pub struct SetupPrefix<const W: usize> {
    /// The position there.
    pub st: State,
    /// The frame there.
    pub fr: Frame<W>,
    /// The op of the chance event, if the run stopped at one.
    pub at: Option<u32>,
    /// Frames the deals go on in from there, kept from one deal to the
    /// next (a deal takes one and gives it back; one per thread dealing at
    /// once), so that a deal allocates no frame of its own.
    pub frames: std::sync::Mutex<Vec<Frame<W>>>,
}

impl<const W: usize> Program<W> {
    /// Empty memo tables, one for each of the program's remembered values.
    pub fn new_memos(&self) -> Memos<W> {
        Memos {
            memo: vec![Memo::default(); self.memos],
            shapes: Memo::default(),
            pairs: vec![PairMemo::default(); self.pair_memos],
        }
    }

    /// A fresh frame of the right sizes.
    pub fn new_frame(&self) -> Frame<W> {
        Frame {
            w: vec![0; self.frame.0],
            s: vec![Set::EMPTY; self.frame.1],
            d: vec![Dom::Dirs; self.frame.2],
            epoch: 1,
            steps: 0,
            failed: Default::default(),
            err: None,
            groups: vec![GroupCache::default(); if self.group_lists { self.t.players } else { 0 }],
            m: Box::new(self.new_memos()),
            start: vec![Set::EMPTY; self.t.players],
            reps: Default::default(),
        }
    }
}

/// A compiled game at the width its board needs.
pub enum Compiled {
    /// Up to 64 cells.
    W1(Box<Program<1>>),
    /// Up to 128 cells.
    W2(Box<Program<2>>),
    /// Up to 256 cells.
    W4(Box<Program<4>>),
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, notes) = match self {
            Compiled::W1(p) => (1, &p.notes),
            Compiled::W2(p) => (2, &p.notes),
            Compiled::W4(p) => (4, &p.notes),
        };
        write!(f, "Compiled {{ words: {w}, passes: {notes:?} }}")
    }
}

impl Compiled {
    /// What the optimisation passes did.
    pub fn notes(&self) -> &[String] {
        match self {
            Compiled::W1(p) => &p.notes,
            Compiled::W2(p) => &p.notes,
            Compiled::W4(p) => &p.notes,
        }
    }

    /// Whether playouts and perft count the pieces in zones once, at the
    /// position they start from ([`Program::fixed_pieces`]).
    pub fn fixed_pieces(&self) -> bool {
        match self {
            Compiled::W1(p) => p.fixed_pieces,
            Compiled::W2(p) => p.fixed_pieces,
            Compiled::W4(p) => p.fixed_pieces,
        }
    }
}

/// An ordered zone of a rule as a [`ZoneRef`].
fn zone_ref<const W: usize>(c: &mut expr::Compiler<'_, W>, e: &ir::Expr) -> ZoneRef<W> {
    match c.fixed_seq(e) {
        Some(i) => ZoneRef::Seq(i),
        None => ZoneRef::Word(c.word(e)),
    }
}

/// Compiles a checked game.
pub fn compile(g: &ir::Game, limits: Limits) -> Compiled {
    match g.board.set_words() {
        0 | 1 => Compiled::W1(Box::new(program::<1>(g, limits, false))),
        2 => Compiled::W2(Box::new(program::<2>(g, limits, false))),
        _ => Compiled::W4(Box::new(program::<4>(g, limits, false))),
    }
}

/// `stmts` without their reveals (see [`Program::face_up`]).
fn without_reveals(stmts: &[ir::Stmt]) -> Vec<ir::Stmt> {
    use ir::StmtKind as K;
    let block = |b: &[ir::Stmt]| without_reveals(b);
    stmts
        .iter()
        .filter(|s| !matches!(s.kind, K::Reveal { .. }))
        .map(|s| {
            let kind = match &s.kind {
                K::Either { site, branches } => {
                    K::Either { site: *site, branches: branches.iter().map(|b| block(b)).collect() }
                }
                K::For { slot, domain, filter, body } => K::For {
                    slot: *slot,
                    domain: domain.clone(),
                    filter: filter.clone(),
                    body: block(body),
                },
                K::While { pre, cond, body } => {
                    K::While { pre: block(pre), cond: cond.clone(), body: block(body) }
                }
                K::If { cond, then, otherwise } => {
                    K::If { cond: cond.clone(), then: block(then), otherwise: block(otherwise) }
                }
                K::Block(binds, body) => K::Block(binds.clone(), block(body)),
                other => other.clone(),
            };
            ir::Stmt { kind, span: s.span }
        })
        .collect()
}

/// [`Program::face_up`] of game `g`, where it has one.
fn face_up<const W: usize>(g: &ir::Game, limits: Limits) -> Option<Box<Program<W>>> {
    use ir::StmtKind as K;
    let play = [Some(&g.turn), g.no_moves.as_ref(), g.at_end.as_ref()];
    let blocks = play.iter().flatten();
    let chance = |k: &K| matches!(k, K::Shuffle(_) | K::Random { .. });
    let reveal = |k: &K| matches!(k, K::Reveal { .. });
    if blocks.clone().any(|b| opt::any_stmt(b, &chance))
        || !blocks.clone().any(|b| opt::any_stmt(b, &reveal))
    {
        return None;
    }
    let mut up = g.clone();
    up.turn = without_reveals(&g.turn);
    up.no_moves = g.no_moves.as_deref().map(without_reveals);
    up.at_end = g.at_end.as_deref().map(without_reveals);
    Some(Box::new(program::<W>(&up, limits, true)))
}

/// The program of `g`; `face_up`: the one of [`Program::face_up`] (whose
/// rules have no chance event).
fn program<const W: usize>(g: &ir::Game, limits: Limits, face_up: bool) -> Program<W> {
    let mut t = Tables::<W>::new(g);
    t.max_steps = limits.steps;
    t.max_choices = limits.choices;
    let mut c = expr::Compiler::<W>::new(g, &t);
    // Pass 28: the statements compiled before the decision before them.
    c.before_decision = std::mem::take(&mut opt::tails(g).before_decision);
    let turn = c.block(&g.turn);
    let tails = opt::tails_with(g, &c.preasked);
    let lazy = &tails.lazy;
    let setup = c.block(&g.setup);
    let no_moves = g.no_moves.as_ref().map(|b| c.block(b));
    let at_end = g.at_end.as_ref().map(|b| c.block(b));
    let score = g.score.as_ref().map(|(slot, e)| {
        let w = match c.var(*slot) {
            Var::W(w) => w,
            _ => 0,
        };
        (w, c.word(e))
    });
    // A sure tail whose draw-until loop no kind stops could never be
    // taken for granted: left out.
    let sure_tails = (0..g.sites.len())
        .map(|i| {
            let t = tails.sure.get(&(i as u16))?;
            let until = t
                .until
                .iter()
                .map(|(z, cond)| (zone_ref(&mut c, z), c.draw_stops(z, cond)))
                .collect::<Vec<_>>();
            until.iter().all(|(_, stops)| stops.contains(&true)).then(|| SureTail {
                // A face-up program runs on positions where nothing is
                // face down: no zone to ask.
                face_up: match face_up {
                    true => Vec::new(),
                    false => t.face_up.iter().map(|z| zone_ref(&mut c, z)).collect(),
                },
                until,
                steps: t.steps.clone(),
                moves_pieces: t.moves_pieces,
                no_adds: t.no_adds,
                last: std::sync::atomic::AtomicU64::new(0),
            })
        })
        .collect::<Vec<_>>();
    let sites = g
        .sites
        .iter()
        .enumerate()
        .map(|(i, s)| SiteInfo {
            ty: if s.branches.is_some() { Ty::Int } else { s.ty },
            span: s.span,
            lazy: lazy.contains(&(i as u16)),
            chance: s.chance,
            // A decision whose options the listing asks `require`s of
            // (passes 17, 19 and 44) hands them over only once asked:
            // never as a chance or sure tail, which hand them over as
            // they are listed.
            chance_tail: tails.chance.contains_key(&(i as u16))
                && !c.nbr_sites.contains(&(i as u16)),
            drawn: tails.drawn.get(&(i as u16)).copied(),
            filter_draw: None,
            nbr: c.nbr_sites.contains(&(i as u16)),
            sure: sure_tails[i].is_some() && !c.nbr_sites.contains(&(i as u16)),
            groups: false,
            arms_decide: false,
            next_decides: false,
            counted_in_place: false,
            tails_in_place: false,
            counts_like: None,
            live: live::Live::ALL,
            each: live::Live::ALL,
        })
        .collect::<Vec<_>>();
    let mut sites = sites;
    // Pass 35: what an option's copy of the frame carries.
    let frame = c.frame_sizes();
    let blocks: Vec<&[ir::Stmt]> = [Some(&g.turn[..]), g.no_moves.as_deref(), g.at_end.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let var = |s: ir::Slot| c.var(s);
    let scopes = live::at_sites(&blocks, sites.len(), &var, &c.cursors, &c.kept);
    for (i, (s, at)) in sites.iter_mut().zip(scopes).enumerate() {
        s.live = live::Live::of(&at.live, frame);
        s.each = live::Live::of(&at.each, frame);
        if !s.chance && s.live != live::Live::ALL {
            let of = |k: Option<usize>, n: usize| match k {
                Some(k) => format!("{k} of {n}"),
                None => format!("all {n}"),
            };
            let [w, ss, d] = s.live.counts();
            let [ew, es, ed] = s.each.counts();
            c.notes.push(format!(
                "live locals: an option of decision {i} (`{}`) carries {} words, {} sets, {} collections; again for each option {}, {}, {}",
                g.sites[i].var,
                of(w, frame.0),
                of(ss, frame.1),
                of(d, frame.2),
                of(ew, frame.0),
                of(es, frame.1),
                of(ed, frame.2),
            ));
        }
    }
    let decides = |&a: &u32| turn.ops.get(a as usize).is_some_and(stmt::Op::is_decision);
    for (pc, op) in turn.ops.iter().enumerate() {
        if let stmt::Op::Choose(ch) = op {
            if let Some(s) = sites.get_mut(ch.site as usize) {
                // Pass 54: a filter asked per element, after the set form's
                // part or over a set of cells, of a lazy or drawn decision
                // without listing-time requires.
                let per_element = match &ch.fast {
                    Some((_, _, rest)) => rest.is_some(),
                    None => {
                        ch.filter.is_some()
                            && ch.elems.is_none()
                            && ch.kinds.is_none()
                            && matches!(ch.var, Var::W(_))
                            && ch.dom_is_set
                    }
                };
                if per_element && ch.nbr.is_none() && ch.cell.is_none() && !s.nbr && !s.chance {
                    s.filter_draw = tails.filter_draws.get(&ch.site).copied();
                    if s.filter_draw.is_some() {
                        c.notes.push(format!(
                            "drawn filter: a playout asks the filter of decision {} (`{}`) only of the options it draws",
                            ch.site, g.sites[ch.site as usize].var
                        ));
                    }
                }
                s.next_decides = decides(&(pc as u32 + 1));
                s.counted_in_place = ch.fast.is_none()
                    && matches!(ch.kinds, Some((_, ref a)) if !matches!(a, effect::Arg::Fn(_)))
                    && (s.chance || s.lazy && !s.nbr || s.chance_tail || s.sure);
            }
        }
        if let stmt::Op::Either { site, arms, .. } = op {
            if let Some(s) = sites.get_mut(*site as usize) {
                s.arms_decide = !arms.is_empty()
                    && arms.iter().all(decides)
                    && !(s.lazy || s.chance || s.chance_tail || s.sure || s.nbr)
                    && s.drawn.is_none();
            }
        }
    }
    // When the decisions met without a run (the first, the arms of an
    // `either` that decide at once, the decision after a `choose`
    // followed by one) hand their options over unrun, no option runs in
    // the first level, and a search may hold the position searched there
    // (`Program::owned_search`) when the mover decides nothing after a
    // chance event.
    let unrun = {
        let mut todo = vec![0u32];
        let mut unrun = turn.ops.first().is_some_and(stmt::Op::is_decision);
        let mut seen = Vec::new();
        while let Some(pc) = todo.pop() {
            if seen.contains(&pc) {
                continue;
            }
            seen.push(pc);
            let info = |site: u16| sites.get(site as usize);
            let handed = |s: &SiteInfo| s.lazy || s.chance || s.chance_tail || s.sure;
            match turn.ops.get(pc as usize) {
                Some(stmt::Op::Either { site, arms, .. })
                    if info(*site).is_some_and(|s| s.arms_decide) =>
                {
                    todo.extend(arms.iter().copied());
                }
                Some(stmt::Op::Choose(c)) if info(c.site).is_some_and(|s| s.next_decides) => {
                    todo.push(pc + 1);
                }
                Some(stmt::Op::Choose(c) | stmt::Op::Random(c)) => {
                    unrun &= info(c.site).is_some_and(handed);
                }
                Some(stmt::Op::Either { site, .. }) => unrun &= info(*site).is_some_and(handed),
                _ => unrun = false,
            }
        }
        unrun
    };
    // A count walks from the first decision without running the
    // position counted (the options that run, run in copies).
    let decides_first = turn.ops.first().is_some_and(stmt::Op::is_decision);
    let owned_search = unrun
        && !stmt::decides_after_chance(&turn, |site| {
            sites.get(site as usize).is_some_and(|s| s.chance)
        });
    for (pc, op) in turn.ops.iter().enumerate() {
        // Where each option's run goes on.
        let (site, mut resumes) = match op {
            stmt::Op::Choose(ch) => (ch.site, vec![pc as u32 + 1]),
            stmt::Op::Either { site, arms, .. } => (*site, arms.clone()),
            _ => continue,
        };
        resumes.dedup();
        let kept = |pc: u32| match turn.ops.get(pc as usize) {
            Some(stmt::Op::Choose(ch)) => sites.get(ch.site as usize).is_some_and(|s| {
                (s.lazy || s.chance_tail || s.sure) && !s.chance && s.drawn.is_none()
            }),
            _ => false,
        };
        let groups = !resumes.is_empty() && resumes.iter().all(|&r| kept(r));
        if let Some(s) = sites.get_mut(site as usize) {
            s.groups = groups && !s.chance;
        }
    }
    let chance_tails = (0..g.sites.len())
        .map(|i| {
            tails.chance.get(&(i as u16)).map(|t| ChanceTail {
                zone: zone_ref(&mut c, &t.zone),
                front: t.front,
                moves_pieces: t.moves_pieces,
                steps: t.steps,
                no_adds: t.no_adds,
            })
        })
        .collect::<Vec<_>>();
    for (s, (ct, st)) in sites.iter_mut().zip(chance_tails.iter().zip(&sure_tails)) {
        let seq = |z: &ZoneRef<W>| matches!(z, ZoneRef::Seq(_));
        s.tails_in_place = match (ct, st) {
            (ct, Some(t)) => {
                ct.as_ref().is_none_or(|c| seq(&c.zone))
                    && t.face_up.iter().all(seq)
                    && t.until.iter().all(|(z, _)| seq(z))
            }
            _ => false,
        };
    }
    for op in &turn.ops {
        let stmt::Op::Either { site, arms, .. } = op else { continue };
        if !sites.get(*site as usize).is_some_and(|s| s.arms_decide) {
            continue;
        }
        for j in 1..arms.len().min(ALIKE_ARMS) {
            let like = (0..j).find(|&i| counts_alike(&turn, &sites, &sure_tails, arms[i], arms[j]));
            if let (Some(i), Some(stmt::Op::Choose(ch))) = (like, turn.ops.get(arms[j] as usize)) {
                if let Some(s) = sites.get_mut(ch.site as usize) {
                    s.counts_like = Some(i as u8);
                }
            }
        }
    }
    let mut notes = std::mem::take(&mut c.notes);
    for (i, s) in sites.iter().enumerate() {
        if let Some(a) = s.counts_like {
            notes.push(format!(
                "arms alike: decision {i} (`{}`) counts as the `choose` of arm {a} when that one's options are counted in place",
                g.sites[i].var
            ));
        }
        if s.arms_decide {
            notes.push(format!(
                "arms that decide: each arm of `either` {i} begins with a decision, met without a run"
            ));
        }
        if s.next_decides && !(s.lazy || s.chance) {
            notes.push(format!(
                "next decides: decision {i} (`{}`) is followed at once by another, met without a run",
                g.sites[i].var
            ));
        }
        if s.lazy {
            notes.push(format!("lazy tail after decision {i} (`{}`)", g.sites[i].var));
        }
        if s.drawn.is_some() {
            notes.push(format!(
                "drawn tail: a playout draws among the options of decision {i} (`{}`)",
                g.sites[i].var
            ));
        }
        if s.sure {
            notes.push(format!(
                "sure tail: the options of decision {i} (`{}`) are moves when the position allows",
                g.sites[i].var
            ));
        }
        if chance_tails[i].is_some() {
            notes.push(format!(
                "chance tail: the options of decision {i} (`{}`) run into a chance event",
                g.sites[i].var
            ));
        }
    }
    let frame = c.frame_sizes();
    let memos = c.memos;
    let pair_memos = c.pair_memos;
    let uses_memos = memos > 0 || pair_memos > 0 || c.shapes;
    let reads_start = c.reads_start;
    let group_lists = c.group_lists;
    notes.push(format!(
        "frame: {} words, {} sets, {} collections; {} ops in the turn",
        frame.0,
        frame.1,
        frame.2,
        turn.ops.len()
    ));
    if owned_search {
        notes.push("owned search: the position searched is held, not copied".into());
    }
    let count_playouts = owned_search
        && match turn.ops.first() {
            Some(stmt::Op::Either { site, .. }) => {
                sites.get(*site as usize).is_some_and(|s| s.arms_decide)
            }
            Some(stmt::Op::Choose(c)) => sites.get(c.site as usize).is_some_and(|s| s.next_decides),
            _ => false,
        };
    if count_playouts {
        notes
            .push("counted playouts: a playout plays the move it draws among those counted".into());
    }
    let plain_levels = !has_chance_of(g, face_up)
        && !g.history
        && g.sequences == 0
        && g.vars.is_empty()
        && !group_lists;
    let owned_perft = owned_search
        && !turn.ops.iter().any(|op| matches!(op, stmt::Op::Random(_)))
        && !g.turn.iter().any(opt::shuffles);
    let has_chance = has_chance_of(g, face_up);
    let chance_first = has_chance && stmt::chance_before_decision(&turn);
    let adds = |b: &[ir::Stmt]| b.iter().any(opt::adds_pieces);
    let fixed_pieces = !adds(&g.turn)
        && !g.no_moves.as_deref().is_some_and(adds)
        && !g.at_end.as_deref().is_some_and(adds)
        && (chance_tails.iter().flatten().any(|t| t.moves_pieces)
            || sure_tails.iter().flatten().any(|t| t.moves_pieces));
    let leaf_count = if uses_memos { None } else { leaf_count(&turn, &sites, &sure_tails) };
    if leaf_count.is_some() {
        notes.push(
            "leaf count: perft counts the moves at its last ply from the zone's counters and the sure tails, without a search"
                .into(),
        );
    }
    let up = if face_up { None } else { self::face_up::<W>(g, limits) };
    if let Some(up) = &up {
        notes.push(
            "face up: the rules without their reveals, for perft from a position where nothing is face down"
                .into(),
        );
        notes.extend(up.notes.iter().map(|n| format!("face up: {n}")));
    }
    Program {
        t,
        turn,
        setup,
        no_moves,
        at_end,
        score,
        has_chance,
        chance_first,
        frame,
        memos,
        pair_memos,
        uses_memos,
        group_lists,
        decides_first,
        owned_search,
        count_playouts,
        plain_levels,
        filter_draws: sites.iter().any(|s| s.filter_draw.is_some()),
        owned_perft,
        reads_start,
        sites,
        chance_tails,
        sure_tails,
        fixed_pieces,
        leaf_count,
        notes,
        id: {
            static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        },
        setup_prefix: std::sync::OnceLock::new(),
        face_up: up,
    }
}

/// Whether the rules of program `g` have chance events (none in a
/// [`Program::face_up`]).
fn has_chance_of(g: &ir::Game, face_up: bool) -> bool {
    g.has_chance() && !face_up
}
