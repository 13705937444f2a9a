//! Move generation over the compiled program: the choice tree of one turn,
//! explored depth first by forking.
//!
//! The turn runs from its start on a copy of the position (or, for a
//! playout, on its own position, when no run changes it: see
//! [`Searcher::search_owned`]). At a decision
//! the run stops ([`Stop::Fork`]); its options are listed, and each option
//! continues from a copy of the position and frame at the fork (the last
//! option continues in place, without a copy). A run that finishes is a
//! move, and its resulting position is handed to the caller (a [`Sink`])
//! at once: move lists, perft and playouts never run a turn twice. A
//! decision whose tail is lazy (see `compile::opt`) hands its options to
//! the sink as moves without running them; the sink completes only the
//! ones it needs.
//!
//! Copies go into buffers indexed by the depth of the choice path, reused
//! from one search to the next, so a search allocates nothing once its
//! buffers have grown.

use super::machine::{
    admits, bind, bind_in, candidates, count_options, filter_holds, options, prune, run,
    sample_reveal, site_at, take_choice, word_of, Options, Pick, PlacedWalk, Stop,
};
use super::{Choice, Move, RunError, State, DECISION_LIMIT, LIST_LIMIT, NODE_LIMIT};
use crate::compile::expr::bits_at;
use crate::compile::live::Live;
use crate::compile::stmt::Op;
use crate::compile::{Block, Frame, Program, Set};
use crate::state::Pending;

/// [`Searcher::start_pieces`] not counted yet (or, in an owned search,
/// unknown: as many as fail every overflow bound).
const UNCOUNTED: u64 = u64::MAX;

/// One level of the search's copies, boxed: a sink that keeps a level
/// swaps two pointers, not two positions and frames.
pub type Level<const W: usize> = Box<LevelData<W>>;

/// A position and a frame: one level of the search's copies.
pub struct LevelData<const W: usize> {
    /// The position, boxed: a sink that keeps a finished run's position
    /// swaps two pointers, not two positions.
    pub st: Box<State>,
    /// The frame.
    pub fr: Frame<W>,
}

impl<const W: usize> LevelData<W> {
    fn copy_from(&mut self, o: &LevelData<W>) {
        self.st.copy_from(&o.st);
        self.fr.copy_from(&o.fr);
    }

    /// [`LevelData::copy_from`] of a level `o` whose position is plain
    /// ([`State::plain`]) into a level of the same program, for a run
    /// resumed at a decision whose live locals are `live`: the position
    /// without the tests of what a plain one cannot hold, and of the
    /// frame only what that run may read before writing it (pass 35).
    ///
    /// `again`: the level holds a copy of `o`'s live locals already, and
    /// a run since, and `live` is what such a run may have written
    /// ([`Live::copy_again`]). `groups`: whether the frames hold group
    /// lists (the same for every level of a program; told by the caller,
    /// once per loop).
    #[inline(always)]
    fn copy_plain(&mut self, o: &LevelData<W>, (live, again): (Live, bool), groups: bool) {
        self.st.copy_plain(&o.st);
        let (a, b) = (&mut self.fr, &o.fr);
        // The two differ only in what a debug build fills with junk.
        if cfg!(debug_assertions) && again {
            live.copy_again(a, b);
        } else {
            live.copy(a, b);
        }
        a.epoch = b.epoch;
        a.steps = b.steps;
        a.err = None;
        // The group lists, as `Frame::copy_from` keeps them (a level of
        // the same program has as many).
        if groups {
            keep_groups(a, b);
        }
    }

    /// Whether `o` is a level of the same program (so the two may be swapped).
    fn same_shape(&self, o: &LevelData<W>) -> bool {
        self.st.same_shape(&o.st)
            && self.fr.w.len() == o.fr.w.len()
            && self.fr.s.len() == o.fr.s.len()
            && self.fr.d.len() == o.fr.d.len()
            && self.fr.groups.len() == o.fr.groups.len()
            && self.fr.m.memo.len() == o.fr.m.memo.len()
    }
}

impl<const W: usize> Clone for LevelData<W> {
    fn clone(&self) -> Self {
        LevelData { st: self.st.clone(), fr: self.fr.clone() }
    }
}

/// Where the finished turns of a search go.
pub trait Sink<const W: usize> {
    /// A finished turn; `st` is its resulting position before the turn
    /// passes (the sink may change it, or swap it for another position of
    /// the same game: the search does not read it again). `false` stops
    /// the search.
    fn done(
        &mut self,
        p: &Program<W>,
        st: &mut Box<State>,
        path: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError>;

    /// A run that stops at a chance event: a move, after which chance
    /// decides. `stop` is the run at the stop (position, frame: the sink
    /// may swap it for another level of the same program, the search does
    /// not read it again) and `pc` the chance event; `at` builds the
    /// move's resulting position (the turn's start with its events so
    /// far). `false` stops the search.
    fn chance(
        &mut self,
        p: &Program<W>,
        stop: &mut Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        at: &ChanceAt<'_>,
    ) -> Result<bool, RunError>;

    /// A decision whose options all stop at a chance event (pass 14):
    /// option `i` is the move `path` + `(site, opts.get(i))`, not run.
    /// `fork` is the position and frame at the decision (the sink may swap
    /// it for another level of the same program), `pc` the decision, `at`
    /// where the turn began. `false` stops the search.
    ///
    /// By default the options are taken as a lazy decision's ([`Sink::lazy`]),
    /// which is right for a sink that only counts or lists them; a sink
    /// that plays a move or builds its position must override this (an
    /// option here does not finish its turn).
    fn lazy_chance(
        &mut self,
        p: &Program<W>,
        fork: &mut Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
        _at: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        self.lazy(p, fork, pc, path, opts)
    }

    /// A decision after which the turn asks nothing more and meets no
    /// chance event, but may fail (pass 15): option `i`, run, is a move or
    /// no move. A sink that draws one move at random may keep `fork` (the
    /// position and frame at the decision, which it may swap for another
    /// level of the same program) and the options unrun (swapping them
    /// out too) and answer `Some(go_on)`; by default (`None`, the options
    /// left as they were) the search runs every option.
    fn drawn(
        &mut self,
        _p: &Program<W>,
        _fork: &mut Level<W>,
        _pc: u32,
        _opts: &mut Box<Options<W>>,
    ) -> Result<Option<bool>, RunError> {
        Ok(None)
    }

    /// Whether the sink draws one move among candidates ([`Sink::drawn`]
    /// and [`Sink::drawn_filtered`] may keep them): the search may then
    /// list a pass 54 decision's candidates without its filter.
    fn draws(&self) -> bool {
        false
    }

    /// Pass 54: a lazy or drawn decision whose options are its candidates
    /// (`machine::candidates`: the filter not asked of them), at depth 0:
    /// as [`Sink::drawn`], but an option drawn must pass the filter
    /// (`machine::filter_holds`) before it runs. Asked only of a sink that
    /// [`Sink::draws`]; `None` (the default) makes the search list the
    /// options as usual.
    fn drawn_filtered(
        &mut self,
        _p: &Program<W>,
        _fork: &mut Level<W>,
        _pc: u32,
        _opts: &mut Box<Options<W>>,
    ) -> Result<Option<bool>, RunError> {
        Ok(None)
    }

    /// Whether the sink only reads the positions and levels it is handed
    /// (never changes, keeps or swaps them). The search may then explore
    /// an option whose run meets the next decision at once in the
    /// decision's own level instead of a copy.
    fn reads_only(&self) -> bool {
        false
    }

    /// Whether [`Sink::done`] reads its `path`: where it does not, a
    /// search may leave an option's pick off the path while its run does
    /// not stop at a decision.
    fn done_reads_path(&self) -> bool {
        true
    }

    /// Whether only the number of moves matters to the sink, not which
    /// they are: the search may then count them without handing any
    /// over (`Searcher::counted`) and tell the sink the number through
    /// [`Sink::counted`] instead.
    fn counts(&self) -> bool {
        false
    }

    /// `n` more moves, counted without being handed over (asked only of
    /// a sink that [`Sink::counts`]): the moves a search would have handed
    /// to [`Sink::done`], [`Sink::chance`], [`Sink::lazy`] and
    /// [`Sink::lazy_chance`].
    fn counted(&mut self, _n: u64) {}

    /// Whether the sink keeps the levels it is handed but can take the
    /// options of a decision whose runs meet a lazy decision at once as a
    /// group sharing one level (a playout's successor list): the search
    /// then explores each such option in the decision's own level (lent:
    /// the sink gets the lazy decisions met there through
    /// [`Sink::lazy_lent`] and [`Sink::lazy_chance_lent`], which must not
    /// keep it), and hands the level over afterwards through
    /// [`Sink::group_end`]. The level's position is the same for every
    /// option of the group, as their runs change nothing before the lazy
    /// decision; an option is played by binding its pick again.
    fn groups(&self) -> bool {
        false
    }

    /// A lazy decision (as [`Sink::lazy`]) met in a lent level, whose
    /// position is the lending decision's: the last pick of `path` is the
    /// lending decision's option. The level comes later, through
    /// [`Sink::group_end`]. Only asked of a sink that [`Sink::groups`].
    fn lazy_lent(
        &mut self,
        _p: &Program<W>,
        _pc: u32,
        _path: &[(u16, Pick<W>)],
        _opts: &mut Box<Options<W>>,
    ) -> Result<bool, RunError> {
        Err(internal("a lent level was handed to a sink that does not group"))
    }

    /// A decision whose options all stop at chance (as
    /// [`Sink::lazy_chance`]) met in a lent level, as [`Sink::lazy_lent`].
    fn lazy_chance_lent(
        &mut self,
        _p: &Program<W>,
        _pc: u32,
        _path: &[(u16, Pick<W>)],
        _opts: &mut Box<Options<W>>,
        _at: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        Err(internal("a lent level was handed to a sink that does not group"))
    }

    /// The level of decision `pc` that was lent to all its options, for
    /// the lazy decisions handed over lent since the last call: the sink
    /// may keep it (swap it out), as the search does not read it again.
    /// Only asked of a sink that [`Sink::groups`].
    fn group_end(&mut self, _p: &Program<W>, _lv: &mut Level<W>, _pc: u32) -> Result<(), RunError> {
        Ok(())
    }

    /// A lazy decision: every option is a finished turn. `fork` is the
    /// position and frame at the decision (the sink may swap it for
    /// another level of the same program: the search does not read it
    /// again), `pc` the decision, `opts` its options (which the sink may
    /// swap for another list too: the search lists afresh into whatever it
    /// gets back). `false` stops the search.
    fn lazy(
        &mut self,
        p: &Program<W>,
        fork: &mut Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
    ) -> Result<bool, RunError>;
}

/// Where the turn a search explores began: what a move that stops at a
/// chance event needs to become a position.
pub struct ChanceAt<'a> {
    /// The ply and mover of the position searched.
    pub searched: (u32, u8),
    /// The position when the turn began (its `pending`, the events of a
    /// turn resumed after a chance event, is to be ignored: they are in
    /// `prefix`); `None` in a search that holds it in its first level
    /// ([`Searcher::search_owned`]), for a sink that needs no position.
    pub start: Option<&'a State>,
    /// The turn's events before the search began (a turn resumed after a
    /// chance event).
    pub prefix: &'a [Choice],
}

impl ChanceAt<'_> {
    /// The turn's start, for a sink that makes positions from it.
    pub fn start(&self) -> Result<&State, RunError> {
        self.start.ok_or_else(|| internal("a chance stop without the position searched"))
    }

    /// The position after the move `path` that stops at a chance event:
    /// the turn's start with its events so far.
    pub fn state<const W: usize>(
        &self,
        p: &Program<W>,
        path: &[(u16, Pick<W>)],
    ) -> Result<State, RunError> {
        let mut out = self.start()?.clone();
        self.state_into(p, path, &mut out)?;
        Ok(out)
    }

    /// [`ChanceAt::state`] into `out` (a position of the same game),
    /// reusing its buffers.
    pub fn state_into<const W: usize>(
        &self,
        p: &Program<W>,
        path: &[(u16, Pick<W>)],
        out: &mut State,
    ) -> Result<(), RunError> {
        let start = self.start()?;
        if out.same_shape(start) {
            out.copy_unpending(start);
        } else {
            out.clone_from(start);
        }
        let pd = out.pending.get_or_insert_with(|| {
            Box::new(Pending {
                events: Vec::with_capacity(self.prefix.len() + path.len()),
                chance: true,
            })
        });
        pd.chance = true;
        pd.events.clear();
        pd.events.extend_from_slice(self.prefix);
        pd.events.extend(path.iter().map(|&(site, pick)| super::machine::choice_of(p, site, pick)));
        Ok(())
    }
}

/// The reusable memory of move generation.
pub struct Searcher<const W: usize> {
    levels: Vec<Level<W>>,
    /// The options of the decision at each depth, boxed: a sink that
    /// keeps a lazy decision's options trades two pointers.
    opts: Vec<Box<Options<W>>>,
    path: Vec<(u16, Pick<W>)>,
    budget: u32,
    /// The turn's events so far, for moves that stop at chance.
    prefix: Vec<Choice>,
    /// How many pieces the zones held when the turn began, once asked,
    /// or a bound the caller gave (pass 14's overflow bound, for turns
    /// without `add`); [`UNCOUNTED`] before. Not an `Option`: the
    /// searcher, which perft moves by value at every node, stays within
    /// 128 bytes, which a move copies without a call.
    start_pieces: u64,
    /// The level whose frame holds the memo tables the levels share (see
    /// [`Searcher::memos_to`]); a `u32` beside `budget`, so that the
    /// searcher, which perft moves by value at every node, stays small.
    memo_at: u32,
    /// A scratch run for chance nodes (see [`fresh`]) and its listing,
    /// and a playout's trace of its count ([`Searcher::count_owned`]);
    /// made when first asked (a searcher is moved by value, and most
    /// never need them).
    extra: Option<Box<Extra<W>>>,
    /// In an owned search ([`Searcher::search_owned`]): the address of the
    /// first level's position, which the search may hand to its sink but
    /// never changes (0 otherwise).
    root: usize,
}

impl<const W: usize> Default for Searcher<W> {
    fn default() -> Self {
        Searcher {
            levels: Vec::new(),
            opts: Vec::new(),
            path: Vec::new(),
            budget: NODE_LIMIT,
            prefix: Vec::new(),
            start_pieces: UNCOUNTED,
            memo_at: 0,
            extra: None,
            root: 0,
        }
    }
}

/// What a searcher makes only when first asked (see `Searcher::extra`).
#[derive(Default)]
struct Extra<const W: usize> {
    /// The scratch run for chance nodes (see [`fresh`]).
    run: Option<Level<W>>,
    /// Its listing.
    opts: Options<W>,
    /// A playout's count (see [`Searcher::count_owned`]).
    trace: Trace<W>,
    /// A playout's count by pass 33's plan (see
    /// [`Searcher::count_planned`]): each arm's moves and how they are.
    planned: Vec<(u64, How)>,
}

/// What a playout's count ([`Searcher::count_owned`]) keeps of each
/// decision it meets, in the count's order (a decision, then the ones its
/// options meet, option by option), so that a move can be played without
/// counting again ([`Searcher::play_counted`]).
#[derive(Default)]
struct Trace<const W: usize> {
    marks: Vec<Mark>,
    /// The options of the decisions that listed them (`Mark::list`).
    lists: Vec<Box<Options<W>>>,
    /// Lists of `lists` in use.
    n_lists: usize,
}

/// A decision met by a playout's count.
#[derive(Clone, Copy)]
struct Mark {
    /// The decision.
    pc: u32,
    /// Its moves.
    n: u64,
    /// Its marks and those of the decisions its options meet.
    len: u32,
    /// The run's steps before its listing and after.
    steps: (u32, u32),
    /// How its options are moves.
    how: How,
    /// Its options in `Trace::lists` (none for an `either` whose arms
    /// decide at once, which lists none).
    list: u32,
}

/// How the options of a decision met by a count are moves (see
/// [`Searcher::counted`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum How {
    /// The arms of an `either` that decide at once (which lists no
    /// options): each meets the next decision at once.
    Arms,
    /// Each option meets the next decision at once.
    Meet,
    /// Each option runs to the end of the turn (a lazy decision, a sure
    /// tail that holds).
    Run,
    /// Each option runs to a chance event (a chance tail that holds).
    ToChance,
    /// The decision is a chance event: one move, that stops there.
    Stop,
    /// An untraced count's `Run` told in place ([`Searcher::count_unlisted`]):
    /// its options counted from the zone's counters, none, or a sure
    /// tail's that held (see `SiteInfo::counts_like`).
    Unlisted,
}

impl<const W: usize> Frame<W> {
    /// Copies `o` into `self`, reusing `self`'s buffers.
    #[inline]
    pub fn copy_from(&mut self, o: &Frame<W>) {
        // Frames of one program have the same sizes: plain copies.
        if self.w.len() == o.w.len() && self.s.len() == o.s.len() && self.d.len() == o.d.len() {
            Live::ALL.copy(self, o);
        } else {
            self.w.clone_from(&o.w);
            self.s.clone_from(&o.s);
            self.d.clone_from(&o.d);
        }
        self.epoch = o.epoch;
        self.steps = o.steps;
        self.err = None;
        if self.groups.len() != o.groups.len() {
            self.groups.clone_from(&o.groups);
        } else {
            keep_groups(self, o);
        }
    }
}

/// After a copy of frame `o` into `a` (whose epoch is now `o`'s), with as
/// many group lists: `a`'s own pieces-and-groups pair stays true, current
/// when `o`'s is and the pieces are the same; else it is marked stale
/// (made again when asked, which a fork that goes on to change the
/// pieces never does).
#[inline(always)]
fn keep_groups<const W: usize>(a: &mut Frame<W>, o: &Frame<W>) {
    for (x, y) in a.groups.iter_mut().zip(&o.groups) {
        x.epoch = if y.epoch == o.epoch && x.own == y.own { y.epoch } else { 0 };
    }
}

/// Level `b` and the later level `to` of `levels` (the one copied into
/// the other), the levels themselves rather than their boxes: a loop
/// holds them across its options instead of finding them per option.
#[inline(always)]
fn two_levels<const W: usize>(
    levels: &mut [Level<W>],
    b: usize,
    to: usize,
) -> Result<(&LevelData<W>, &mut LevelData<W>), RunError> {
    match levels.split_at_mut_checked(to).map(|(lo, hi)| (lo.get(b), hi.first_mut())) {
        Some((Some(src), Some(dst))) => Ok((&**src, &mut **dst)),
        _ => Err(internal("a level to copy is missing")),
    }
}

/// An error that a correct search never raises.
#[cold]
fn internal(what: &str) -> RunError {
    RunError::new(format!("internal error: {what}"), Default::default())
}

/// The turn finished: the next player (the next seat, or the one a rule
/// named) moves, unless the game ended.
#[inline]
pub fn advance(st: &mut State, players: usize) {
    if st.outcome.is_none() {
        st.advance(players);
    }
}

impl<const W: usize> Searcher<W> {
    /// The scratch run for chance nodes and its listing (see [`fresh`]).
    pub fn chance_run(&mut self) -> (&mut Option<Level<W>>, &mut Options<W>) {
        let x = self.extra.get_or_insert_with(Box::default);
        (&mut x.run, &mut x.opts)
    }

    /// Moves the memo tables the levels share into level `b`'s frame (a
    /// trade with the tables it held). Called before a level runs, so
    /// that what one level learns serves the others. The tables hold
    /// facts true in every position (see [`crate::compile::Memos`]), so whichever frame
    /// holds which tables, every answer is the same; only how often one
    /// is found changes.
    #[inline(always)]
    fn memos_to(&mut self, b: usize) {
        if self.memo_at as usize != b {
            self.move_memos(b);
        }
    }

    /// [`Searcher::memos_to`] when they are elsewhere.
    #[inline(never)]
    fn move_memos(&mut self, b: usize) {
        let at = self.memo_at as usize;
        if let Some([lo, .., hi]) = self.levels.get_mut(at.min(b)..=at.max(b)) {
            std::mem::swap(&mut lo.fr.m, &mut hi.fr.m);
        }
        // Levels are far fewer than 2^32 (a choice path as deep).
        self.memo_at = u32::try_from(b).unwrap_or(0);
    }

    /// Level `to` (made if there is none yet) becomes a copy of level
    /// `b`, an earlier one.
    #[inline(always)]
    fn copy_level(&mut self, b: usize, to: usize) {
        if self.levels.len() <= to {
            let like = self.levels[b].clone();
            self.level(to, &like);
        }
        let (lo, hi) = self.levels.split_at_mut(to);
        hi[0].copy_from(&lo[b]);
    }

    fn level(&mut self, i: usize, like: &Level<W>) {
        while self.levels.len() <= i {
            self.levels.push(like.clone());
        }
    }

    /// Explores the turn from position `st` (the mover's decision; a turn
    /// resumed after a chance event goes on from there), handing finished
    /// turns to `sink`.
    pub fn search(
        &mut self,
        p: &Program<W>,
        st: &State,
        sink: &mut impl Sink<W>,
    ) -> Result<(), RunError> {
        self.search_within(p, st, sink, None)
    }

    /// [`Searcher::search`], told that all zones of `st` together hold at
    /// most `pieces` pieces (when known: the count of a position this one
    /// descends from, in a game whose play adds none,
    /// [`Program::fixed_pieces`]), so that the overflow bound of pass 14
    /// is not counted again.
    pub fn search_within(
        &mut self,
        p: &Program<W>,
        st: &State,
        sink: &mut impl Sink<W>,
        pieces: Option<u64>,
    ) -> Result<(), RunError> {
        let prefix = st.pending.as_deref().map_or(&[][..], |pd| &pd.events[..]);
        if self.levels.is_empty() {
            self.levels.push(Box::new(LevelData { st: Box::new(st.clone()), fr: p.new_frame() }));
        } else {
            self.levels[0].st.copy_from(st);
        }
        self.levels[0].st.pending = None;
        let start = st;
        self.root = 0;
        self.begin(p);
        self.start_pieces = pieces.unwrap_or(UNCOUNTED);
        if prefix.is_empty() && self.count_into(p, Some(start), sink)? {
            return Ok(());
        }
        let mut pc = 0;
        // The turn's events so far (none in a program without chance):
        // the first choices of the turn's limit.
        self.prefix.clear();
        if p.has_chance {
            self.prefix.extend_from_slice(prefix);
            // A turn resumed after a chance event: replay its events.
            let lv = &mut self.levels[0];
            pc = replay_events(p, &mut lv.st, &mut lv.fr, prefix)?;
        }
        self.explore(p, Some(start), 0, pc, sink, true)?;
        Ok(())
    }

    /// [`Searcher::search_within`] of the position in `st`, moved into the
    /// search's first level instead of copied there (`st` holds a spare
    /// position meanwhile): for a turn that begins with a decision, of a
    /// program whose mover decides nothing after a chance event
    /// ([`Program::owned_search`]), and a position not under way. The
    /// search never changes that position (no option runs in the first
    /// level); its sink may keep it, with a level, as it keeps any.
    /// Afterwards [`Searcher::give_back`] moves it back when the sink did
    /// not keep it — always when the search found no move. A caller plays
    /// a move found into `st` (which [`Successors::play_out`] writes
    /// whole), and never reads `st` before that or a give-back.
    pub fn search_owned(
        &mut self,
        p: &Program<W>,
        st: &mut Box<State>,
        sink: &mut impl Sink<W>,
        pieces: Option<u64>,
    ) -> Result<(), RunError> {
        if !p.owned_search || st.pending.is_some() {
            return Err(internal("an owned search of a turn that does not allow it"));
        }
        self.hold(p, st, pieces);
        if self.count_into(p, None, sink)? {
            return Ok(());
        }
        self.explore(p, None, 0, 0, sink, true).map(|_| ())
    }

    /// Moves the position in `st` into the first level (made if there is
    /// none), a spare into `st`, and starts an owned search there
    /// ([`Searcher::own_start`]).
    #[inline(always)]
    fn hold(&mut self, p: &Program<W>, st: &mut Box<State>, pieces: Option<u64>) {
        if self.levels.is_empty() {
            self.levels.push(Box::new(LevelData { st: st.clone(), fr: p.new_frame() }));
        }
        std::mem::swap(&mut self.levels[0].st, st);
        self.own_start(p, pieces);
    }

    /// The start of an owned search, its position in the first level:
    /// the overflow bounds read the pieces at the turn's start, which the
    /// search does not keep beside its first level, so they are counted
    /// now (unless the caller told them, `pieces`); no events before.
    #[inline(always)]
    fn own_start(&mut self, p: &Program<W>, pieces: Option<u64>) {
        self.root = &*self.levels[0].st as *const State as usize;
        self.begin(p);
        let tails = |p: &Program<W>| {
            p.chance_tails.iter().any(Option::is_some) || p.sure_tails.iter().any(Option::is_some)
        };
        self.start_pieces = match pieces {
            Some(n) => n,
            None if tails(p) => self.levels[0].st.zone_pieces(p.t.counter_base),
            None => UNCOUNTED,
        };
        self.prefix.clear();
    }

    /// A playout's count of the moves of the position in `st`, moved into
    /// the first level as [`Searcher::search_owned`] moves it (for the
    /// programs of [`Program::count_playouts`], a position not under way;
    /// `pieces` as there), each decision met
    /// marked in the trace (`Trace`) for [`Searcher::play_counted`].
    /// `None` when the moves cannot be counted so (a tail that does not
    /// hold) or there is none: the position is then back in `st`, to be
    /// searched as usual.
    pub fn count_owned(
        &mut self,
        p: &Program<W>,
        st: &mut Box<State>,
        pieces: Option<u64>,
    ) -> Result<Option<u64>, RunError> {
        if !p.count_playouts || st.pending.is_some() {
            return Ok(None);
        }
        self.hold(p, st, pieces);
        if p.uses_memos {
            self.memos_to(0);
        }
        let t = &mut self.extra.get_or_insert_with(Box::default).trace;
        t.marks.clear();
        t.n_lists = 0;
        let n = self.counted::<true>(p, None, 0, 0, 0, false);
        if matches!(n, Ok(Some(n)) if n > 0) {
            return n;
        }
        if !self.give_back(st) {
            return Err(internal("a count kept the position it was to give back"));
        }
        n.map(|_| None)
    }

    /// [`Searcher::count_owned`] by pass 33's plan (`Program::leaf_count`)
    /// where the program has one: the same count, with the same budget
    /// and steps, asking each arm what the traced count asks (the kinds
    /// held, as its listing counts them, spent, then the chance tail, then
    /// the sure tail), without the trace, the lists or the walk. `None`
    /// where a question does not hold (a limit passed, neither tail
    /// holding, no move), the position back in `st`: the playout then
    /// counts as before. [`Searcher::play_planned`] plays a move of it.
    pub fn count_planned(
        &mut self,
        p: &Program<W>,
        st: &mut Box<State>,
        pieces: Option<u64>,
    ) -> Result<Option<u64>, RunError> {
        let Some(plan) = p.leaf_count.as_ref() else { return Ok(None) };
        if !p.count_playouts || st.pending.is_some() {
            return Ok(None);
        }
        self.hold(p, st, pieces);
        let mut planned = self.extra.as_mut().map(|x| std::mem::take(&mut x.planned));
        let found = self.count_plan(p, plan, planned.get_or_insert_with(Vec::new));
        if let Some(x) = planned {
            self.extra.get_or_insert_with(Box::default).planned = x;
        }
        match found {
            Some(n) if n > 0 => Ok(Some(n)),
            _ => {
                if !self.give_back(st) {
                    return Err(internal("a count kept the position it was to give back"));
                }
                Ok(None)
            }
        }
    }

    /// The walk of [`Searcher::count_planned`] in the first level, each
    /// arm's moves and how into `out`.
    fn count_plan(
        &mut self,
        p: &Program<W>,
        plan: &crate::compile::LeafCount,
        out: &mut Vec<(u64, How)>,
    ) -> Option<u64> {
        out.clear();
        let mut budget = self.budget;
        let mut spend = |n: u64| {
            budget = budget.checked_sub(u32::try_from(n).ok()?)?;
            Some(())
        };
        if plan.either {
            spend(plan.arms.len() as u64)?;
        }
        let mut total = 0;
        for arm in &plan.arms {
            let counts = arm.counts(&p.t, &self.levels[0].st)?;
            // As many options as kinds held, each a step of the listing
            // (which the tails' step bounds below cover).
            let n = crate::compile::kinds_held(counts);
            let how = if n == 0 {
                How::Run
            } else {
                spend(u64::from(n))?;
                let s = p.sites.get(arm.site as usize)?;
                self.levels[0].fr.steps = n;
                let how = if s.chance_tail && self.chance_tail_ready(p, None, 0, arm.pc) {
                    Some(How::ToChance)
                } else if self.sure_tail_holds(p, None, 0, arm.site) {
                    Some(How::Run)
                } else {
                    None
                };
                self.levels[0].fr.steps = 0;
                how?
            };
            out.push((u64::from(n), how));
            total += u64::from(n);
        }
        Some(total)
    }

    /// Plays move `i` of the count just made by [`Searcher::count_planned`]
    /// (which found more than `i` moves) on the position it holds, as
    /// [`Searcher::play_counted`] plays it from the traced count: the arm
    /// that holds move `i` bound, the steps as that count leaves them for
    /// it (the listing's, but after an `either` whose level a group would
    /// lend its arms, `SiteInfo::groups`), then the kind, the zone's held
    /// kinds in their listed order, run to the end of the turn or to
    /// chance, which `rng` decides. The position after the move goes to
    /// `out`, which held a spare.
    pub fn play_planned(
        &mut self,
        p: &Program<W>,
        i: u64,
        rng: &mut crate::rng::Rng,
        out: &mut Box<State>,
    ) -> Result<(), RunError> {
        self.root = 0;
        let Searcher { levels, extra, path, .. } = self;
        let (Some(lv), Some(x), Some(plan)) =
            (levels.first_mut(), extra.as_deref_mut(), p.leaf_count.as_ref())
        else {
            return Err(internal("a move played without a count"));
        };
        let searched = (lv.st.ply, lv.st.current);
        path.clear();
        let (mut a, mut i) = (0, i);
        while let Some(&(n, _)) = x.planned.get(a) {
            if i < n {
                break;
            }
            i -= n;
            a += 1;
        }
        let (Some(arm), Some(&(n, how))) = (plan.arms.get(a), x.planned.get(a)) else {
            return Err(internal("a move counted was not found"));
        };
        let mut owned = true;
        if plan.either {
            let site = site_at(&p.turn, 0);
            push_pick(path, site, Pick::W(a as i64));
            bind(p, &p.turn, 0, &mut lv.st, &mut lv.fr, Pick::W(a as i64));
            owned = !p.sites.get(site as usize).is_some_and(|s| s.groups);
        }
        lv.fr.steps = if owned { n as u32 } else { 0 };
        let kind = arm
            .counts(&p.t, &lv.st)
            .and_then(|c| c.iter().enumerate().filter(|(_, &c)| c != 0).nth(i as usize))
            .map(|(k, _)| k as i64);
        let Some(kind) = kind else { return Err(internal("a move counted was not found")) };
        let turn = (p.t.players, searched, &[][..]);
        match how {
            How::ToChance => {
                let pc = to_chance(p, lv, arm.pc, Pick::W(kind), path)?;
                chance_to_end(p, lv, pc, path, &mut x.opts, rng, turn, out)
            }
            _ => finish_into(p, lv, arm.pc, Pick::W(kind), p.t.players, out),
        }
    }

    /// Plays move `i` of the count just made ([`Searcher::count_owned`],
    /// which found more than `i` moves) on the position it holds, as a
    /// search's list would play it ([`Successors::play_out`]): the options
    /// on the way to it bound again, each where the count found its move
    /// `i`, then the last one run to the end of the turn, or to chance,
    /// which `rng` decides as there. The run's steps are the search's: a
    /// decision's listing counts for its options' runs unless its level
    /// was lent to it by a group ([`Sink::groups`], whose options' runs
    /// begin where the group's decision left them). The position after
    /// the move goes to `out`, which held a spare.
    pub fn play_counted(
        &mut self,
        p: &Program<W>,
        i: u64,
        rng: &mut crate::rng::Rng,
        out: &mut Box<State>,
    ) -> Result<(), RunError> {
        self.root = 0;
        let Searcher { levels, extra, path, .. } = self;
        let (Some(lv), Some(x)) = (levels.first_mut(), extra.as_deref_mut()) else {
            return Err(internal("a move played without a count"));
        };
        let Extra { trace: t, opts, .. } = x;
        let searched = (lv.st.ply, lv.st.current);
        let players = p.t.players;
        path.clear();
        let (mut pos, mut i, mut owned) = (0, i, true);
        while let Some(&m) = t.marks.get(pos) {
            let site = site_at(&p.turn, m.pc);
            let list = t.lists.get(m.list as usize);
            if matches!(m.how, How::Arms | How::Meet) {
                // The option whose moves hold move `i`: its marks follow
                // this one's, option by option.
                let (mut c, mut k) = (pos + 1, 0);
                while let Some(cm) = t.marks.get(c) {
                    if i < cm.n {
                        break;
                    }
                    i -= cm.n;
                    c += cm.len as usize;
                    k += 1;
                }
                let pick = match list {
                    Some(l) if k < l.len() => l.get(k),
                    Some(_) => break,
                    None => Pick::W(k as i64),
                };
                push_pick(path, site, pick);
                bind(p, &p.turn, m.pc, &mut lv.st, &mut lv.fr, pick);
                owned = !(owned && p.sites.get(site as usize).is_some_and(|s| s.groups));
                pos = c;
                continue;
            }
            lv.fr.steps = if owned { m.steps.1 } else { m.steps.0 };
            let turn = (players, searched, &[][..]);
            return match (m.how, list) {
                (How::Stop, _) => chance_to_end(p, lv, m.pc, path, opts, rng, turn, out),
                (_, Some(l)) if i as usize >= l.len() => break,
                (How::Run, Some(l)) => finish_into(p, lv, m.pc, l.get(i as usize), players, out),
                (How::ToChance, Some(l)) => {
                    let pc = to_chance(p, lv, m.pc, l.get(i as usize), path)?;
                    chance_to_end(p, lv, pc, path, opts, rng, turn, out)
                }
                _ => break,
            };
        }
        Err(internal("a move counted was not found"))
    }

    /// For a sink that [`Sink::counts`]: counts the moves of the position
    /// in the first level (a search just begun at the turn's start) and
    /// tells the sink. A turn that begins with a decision is walked from
    /// it ([`Searcher::counted`]); one that begins with statements runs
    /// them first in the first level, when it is a copy (`start`, the
    /// position itself, is known), as `explore` runs them. `false` when
    /// the moves were not counted (an owned search of such a turn, or an
    /// internal give-up before anything ran), the search then begun
    /// afresh.
    #[inline(always)]
    fn count_into(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        sink: &mut impl Sink<W>,
    ) -> Result<bool, RunError> {
        if !sink.counts() {
            return Ok(false);
        }
        if !p.decides_first {
            // The turn begins with statements: run in the first level,
            // a copy of the position (`start`), as `explore` runs them.
            if start.is_none() {
                return Ok(false);
            }
            if p.uses_memos {
                self.memos_to(0);
            }
            let lv = &mut self.levels[0];
            let n = match run(p, &p.turn, &mut lv.st, &mut lv.fr, 0)? {
                Stop::Done => 1,
                Stop::Fail(_) => 0,
                Stop::Fork(at) => match self.count_at::<false>(p, start, 0, at, 0, true)? {
                    Some((n, _)) => n,
                    None => return Err(internal("a count of runs gave up")),
                },
            };
            sink.counted(n);
            return Ok(true);
        }
        match self.counted::<false>(p, start, 0, 0, 0, false)? {
            Some(n) => {
                sink.counted(n);
                Ok(true)
            }
            None => {
                self.begin(p);
                Ok(false)
            }
        }
    }

    /// A search's start, its position in the first level: each level's
    /// record of each player's pieces now (for the questions asked by
    /// change), the first frame fresh, no path, the whole budget.
    #[inline(always)]
    fn begin(&mut self, p: &Program<W>) {
        let (first, rest) = self.levels.split_at_mut(1);
        let Some(f) = first.first_mut() else { return };
        if p.reads_start {
            for lv in rest.iter_mut() {
                for (i, x) in lv.fr.start.iter_mut().enumerate() {
                    *x = bits_at(&f.st, i);
                }
            }
            let LevelData { st, fr } = &mut **f;
            for (i, x) in fr.start.iter_mut().enumerate() {
                *x = bits_at(st, i);
            }
        }
        let fr = &mut f.fr;
        fr.epoch += 1;
        fr.steps = 0;
        fr.err = None;
        self.path.clear();
        self.budget = p.t.max_choices;
    }

    /// After [`Searcher::search_owned`]: moves the position searched back
    /// into `st` if the search still holds it (its sink kept no level
    /// with it); false (`st` unchanged) otherwise.
    pub fn give_back(&mut self, st: &mut Box<State>) -> bool {
        let root = std::mem::take(&mut self.root);
        match self.levels.first_mut() {
            Some(lv) if root != 0 && &*lv.st as *const State as usize == root => {
                std::mem::swap(&mut lv.st, st);
                true
            }
            _ => false,
        }
    }

    /// Explores from level `b` at op `pc`; `start` is the position where
    /// the turn began (its `pending` is not read). With `owned` false the
    /// level is a decision's own, lent to one of its options: every option
    /// here is then explored in a copy (or, again, lent), so that the level
    /// stays as it was for the decision's later options.
    #[inline(always)]
    fn explore(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        pc: u32,
        sink: &mut impl Sink<W>,
        owned: bool,
    ) -> Result<bool, RunError> {
        if p.uses_memos {
            self.memos_to(b);
        }
        let stop = if p.turn.ops.get(pc as usize).is_some_and(Op::is_decision) {
            // A run from a decision stops there at once.
            Stop::Fork(pc)
        } else {
            let lv = &mut self.levels[b];
            run(p, &p.turn, &mut lv.st, &mut lv.fr, pc)?
        };
        match stop {
            Stop::Done => sink.done(p, &mut self.levels[b].st, &self.path),
            Stop::Fail(_) => Ok(true),
            Stop::Fork(at) => self.forked(p, start, b, at, sink, owned),
        }
    }

    /// [`Searcher::explore`] once the run at level `b` stopped at the
    /// decision at op `at`. An option's run is made here, in the loop over
    /// the options, and only a run that stops at a decision again comes
    /// back here: a run that finishes the turn (most of them, at the last
    /// decision of a turn) costs no call of its own.
    fn forked(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        sink: &mut impl Sink<W>,
        owned: bool,
    ) -> Result<bool, RunError> {
        let depth = self.path.len();
        let block = &p.turn;
        let site = site_at(block, at);
        if matches!(block.ops.get(at as usize), Some(Op::Reveal { .. })) {
            // A face-down piece: the run stops here only when the end is
            // face down, so chance has outcomes. The move ends here.
            let chance_at =
                ChanceAt { searched: self.searched(start), start, prefix: &self.prefix };
            return sink.chance(p, &mut self.levels[b], at, &self.path, &chance_at);
        }
        while self.opts.len() <= depth {
            self.opts.push(Box::default());
        }
        // An `either` whose arms each begin with a decision: an arm's run
        // would stop there at once, so the search goes to it directly.
        let arms = match block.ops.get(at as usize) {
            Some(Op::Either { arms, .. })
                if p.sites.get(site as usize).is_some_and(|s| s.arms_decide) =>
            {
                Some(arms)
            }
            _ => None,
        };
        match arms {
            Some(a) => self.opts[depth].branches(a.len()),
            None => {
                if p.filter_draws && depth == 0 && sink.draws() {
                    if let Some(go_on) = self.filter_drawn(p, (b, at, site), sink, owned)? {
                        return Ok(go_on);
                    }
                }
                let lv = &mut self.levels[b];
                options(p, block, at, &mut lv.st, &mut lv.fr, &mut self.opts[depth])?;
            }
        }
        let n = self.opts[depth].len();
        if n == 0 {
            return Ok(true);
        }
        // A lazy decision whose options the listing asks `require`s of
        // (passes 17 and 19) hands them over after they are asked, below.
        let (chance, lazy, chance_tail, sure, drawn, groups) =
            p.sites.get(site as usize).map_or((false, false, false, false, None, false), |s| {
                (s.chance, s.lazy && !s.nbr, s.chance_tail, s.sure, s.drawn, s.groups)
            });
        // This level was lent to this decision by the one before it, for a
        // sink that keeps levels ([`Sink::groups`]): it may not be kept.
        // Such a decision is neither chance nor drawn (`SiteInfo::groups`).
        let lent = !owned && sink.groups();
        if chance {
            // The move ends here: chance decides what comes next.
            let chance_at =
                ChanceAt { searched: self.searched(start), start, prefix: &self.prefix };
            return sink.chance(p, &mut self.levels[b], at, &self.path, &chance_at);
        }
        // The turn's choices before this decision: its events before the
        // search, and the path.
        if depth + self.prefix.len() >= DECISION_LIMIT {
            return Err(too_deep(p, site));
        }
        self.spend(p, site, n)?;
        if lazy {
            return self.hand_lazy(p, b, at, sink, lent);
        }
        if chance_tail {
            if let Some(go_on) = self.chance_tail(p, start, b, at, sink, lent)? {
                return Ok(go_on);
            }
        }
        if sure && self.sure_tail_holds(p, start, b, site) {
            // Pass 22: the position allows every option to complete.
            return self.hand_lazy(p, b, at, sink, lent);
        }
        if let Some(t) = drawn.filter(|_| !lent) {
            // Pass 15: a sink that draws one move may take the options
            // unrun, when the rest of the turn stays within the step limit
            // and no zone can pass 65535 pieces (all of them together
            // stay within it).
            let lv = &mut self.levels[b];
            if u64::from(lv.fr.steps) + u64::from(t.steps) <= u64::from(p.t.max_steps)
                && (t.adds == 0
                    || lv.st.zone_pieces(p.t.counter_base) + u64::from(t.adds)
                        <= u64::from(u16::MAX))
            {
                if let Some(go_on) = sink.drawn(p, lv, at, &mut self.opts[depth])? {
                    return Ok(go_on);
                }
            }
        }
        if let Some(s) = p.sites.get(site as usize).filter(|s| s.nbr) {
            if let Some(go_on) = self.pruned(p, b, at, s.lazy, sink, lent)? {
                return Ok(go_on);
            }
        }
        let n = self.opts[depth].len();
        // A `choose` followed at once by a decision: an option's run would
        // stop there having bound the value, so the search goes on there.
        let at_once = arms.is_some() || p.sites.get(site as usize).is_some_and(|s| s.next_decides);
        // Options whose runs meet a decision at once may borrow this level
        // (binding one changes only the frame; not a reveal's), for a sink
        // that only reads; or, for a sink that takes such options as a
        // group, when every option does so (then no option needs a copy)
        // and the level is this decision's own (one level deep).
        let lend = sink.reads_only()
            && match block.ops.get(at as usize) {
                Some(Op::Choose(_)) => lends(p, at + 1),
                Some(Op::Either { arms, .. }) => arms.iter().any(|&a| lends(p, a)),
                _ => false,
            };
        let group = groups && owned && !sink.reads_only() && sink.groups();
        // The last option runs in this level, but in the first level of an
        // owned search, whose position is the caller's (`search_owned`).
        let in_place = owned && !group && !(b == 0 && self.root != 0);
        // Options that are the cells of a set, or placements, are taken in
        // order.
        let mut cells = self.opts[depth].cells;
        let mut placed = PlacedWalk::default();
        let word = word_of(block, at);
        if let (Some(set), Some(x), false, false, false, true, false) =
            (cells, word, arms.is_some(), at_once, group || lend, p.plain_levels, p.uses_memos)
        {
            if self.levels.len() > depth + 1 {
                return self.forked_cells(p, start, (b, at, site), sink, (set, x), in_place);
            }
        }
        for i in 0..n {
            let pick = nth_pick(&self.opts[depth], arms.is_some(), &mut cells, &mut placed, i);
            let mut shared = None;
            let lends_here =
                group || (lend && lends(p, super::machine::resume_of(block, at, pick)));
            // For a grouping sink the last option too is explored lent, so
            // that the level goes to the group whole.
            let (nb, resume) = if i + 1 == n && in_place {
                let lv = &mut self.levels[b];
                (b, bind_in(word, p, block, at, &mut lv.st, &mut lv.fr, pick))
            } else {
                // An option whose run meets the next decision at once,
                // for a sink that only reads or groups: explored in this
                // level (its listing changes nothing the later options
                // read; its steps are put back), not in a copy.
                if lends_here {
                    let lv = &mut self.levels[b];
                    let resume = bind_in(word, p, block, at, &mut lv.st, &mut lv.fr, pick);
                    shared = Some((resume, lv.fr.steps));
                }
                match shared {
                    Some((resume, _)) => (b, resume),
                    None => {
                        if p.plain_levels && self.levels.len() > depth + 1 {
                            // Every level of the program is plain.
                            let (lo, hi) = self.levels.split_at_mut(depth + 1);
                            // No group lists: `plain_levels` says so.
                            hi[0].copy_plain(&lo[b], (live_of(p, site), false), false);
                        } else {
                            self.copy_level(b, depth + 1);
                        }
                        let lv = &mut self.levels[depth + 1];
                        (depth + 1, bind_in(word, p, block, at, &mut lv.st, &mut lv.fr, pick))
                    }
                }
            };
            // The pick goes on the path only where something reads it
            // (as in `forked_cells`).
            let mut on_path = sink.done_reads_path();
            if on_path {
                push_pick(&mut self.path, site, pick);
            }
            if p.uses_memos {
                self.memos_to(nb);
            }
            let stop = if at_once {
                // The option's run begins with a decision (see `arms` and
                // `at_once` above).
                Ok(Stop::Fork(resume))
            } else {
                let lv = &mut self.levels[nb];
                run(p, block, &mut lv.st, &mut lv.fr, resume)
            };
            let go = match stop {
                Ok(Stop::Done) => sink.done(p, &mut self.levels[nb].st, &self.path),
                Ok(Stop::Fail(_)) => Ok(true),
                Ok(Stop::Fork(at)) => {
                    if !on_path {
                        push_pick(&mut self.path, site, pick);
                        on_path = true;
                    }
                    self.forked(p, start, nb, at, sink, shared.is_none())
                }
                Err(e) => Err(e),
            };
            if let Some((_, steps)) = shared {
                self.levels[b].fr.steps = steps;
            }
            let go = go?;
            if on_path {
                self.path.pop();
            }
            if !go {
                return Ok(false);
            }
        }
        if group {
            // The level is this decision's own, not read again: the
            // group's.
            sink.group_end(p, &mut self.levels[b], at)?;
        }
        Ok(true)
    }

    /// [`Searcher::forked`]'s loop over the options of decision `at` at
    /// level `b` (site `site`) when they are the cells of `set`, each
    /// written into word `x`, in a program whose levels are all plain
    /// and without memos, for a sink that neither lends nor groups, and
    /// no option's run begins with a decision: the same options in the
    /// same order, each bound, run and handed on as there, without the
    /// general loop's questions per option. The last runs in level `b`
    /// when `in_place`.
    #[inline(always)]
    fn forked_cells(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        (b, at, site): (usize, u32, u16),
        sink: &mut impl Sink<W>,
        (mut set, x): (Set<W>, usize),
        in_place: bool,
    ) -> Result<bool, RunError> {
        let depth = self.path.len();
        let n = self.opts[depth].len();
        // Every option but an in-place last runs in the copy level: the
        // two levels are found once, not per option, and again only after
        // an option whose run stopped at a decision (explored below,
        // which needs the whole searcher).
        let in_copy = if in_place { n.saturating_sub(1) } else { n };
        // The first option of each pass of the inner loop is given every
        // live local (the copy level holds another run's frame, or one a
        // sink left); the others only those a run may have written since
        // (pass 35).
        let (live, each) = lives_of(p, site);
        let mut i = 0;
        while i < in_copy {
            let fork = {
                let (src, dst) = two_levels(&mut self.levels, b, depth + 1)?;
                let mut fork = None;
                let mut carry = (live, false);
                while i < in_copy {
                    let pick = set.pop().map_or(i64::MIN, i64::from);
                    dst.copy_plain(src, carry, false);
                    carry = (each, true);
                    i += 1;
                    dst.fr.w[x] = pick;
                    // The pick goes on the path only where something reads
                    // it: a sink's `done`, or the decision the run stops at.
                    let on_path = sink.done_reads_path();
                    if on_path {
                        push_pick(&mut self.path, site, Pick::W(pick));
                    }
                    let go = match run(p, &p.turn, &mut dst.st, &mut dst.fr, at + 1)? {
                        Stop::Done => sink.done(p, &mut dst.st, &self.path)?,
                        Stop::Fail(_) => true,
                        Stop::Fork(next) => {
                            if !on_path {
                                push_pick(&mut self.path, site, Pick::W(pick));
                            }
                            fork = Some(next);
                            break;
                        }
                    };
                    if on_path {
                        self.path.pop();
                    }
                    if !go {
                        return Ok(false);
                    }
                }
                fork
            };
            if let Some(next) = fork {
                let go = self.forked(p, start, depth + 1, next, sink, true)?;
                self.path.pop();
                if !go {
                    return Ok(false);
                }
            }
        }
        if in_place && n > 0 {
            let pick = set.pop().map_or(i64::MIN, i64::from);
            let lv = &mut self.levels[b];
            lv.fr.w[x] = pick;
            // As above: on the path only where something reads it.
            let mut on_path = sink.done_reads_path();
            if on_path {
                push_pick(&mut self.path, site, Pick::W(pick));
            }
            let go = match run(p, &p.turn, &mut lv.st, &mut lv.fr, at + 1)? {
                Stop::Done => sink.done(p, &mut self.levels[b].st, &self.path)?,
                Stop::Fail(_) => true,
                Stop::Fork(next) => {
                    if !on_path {
                        push_pick(&mut self.path, site, Pick::W(pick));
                        on_path = true;
                    }
                    self.forked(p, start, b, next, sink, true)?
                }
            };
            if on_path {
                self.path.pop();
            }
            return Ok(go);
        }
        Ok(true)
    }

    /// Hands the options of lazy decision `pc` at level `b` to the sink,
    /// with the level, or without it when it is lent (see [`Sink::groups`]).
    #[inline(always)]
    fn hand_lazy(
        &mut self,
        p: &Program<W>,
        b: usize,
        pc: u32,
        sink: &mut impl Sink<W>,
        lent: bool,
    ) -> Result<bool, RunError> {
        let depth = self.path.len();
        if lent {
            sink.lazy_lent(p, pc, &self.path, &mut self.opts[depth])
        } else {
            sink.lazy(p, &mut self.levels[b], pc, &self.path, &mut self.opts[depth])
        }
    }
}

impl<const W: usize> Searcher<W> {
    /// Pass 54: at the first decision of a search for a sink that draws,
    /// a decision whose filter may be asked of the options drawn alone
    /// (`SiteInfo::filter_draw`) hands its candidates over, unfiltered
    /// (`Some`: the sink's answer), when listing every option and running
    /// the rest of the turn would stay within the step limit and the
    /// candidates within the choices left: then neither way can stop with
    /// an error, and the move drawn is uniform among the moves either
    /// way. Else `None`, with nothing changed: the search lists them.
    #[inline(never)]
    fn filter_drawn(
        &mut self,
        p: &Program<W>,
        (b, at, site): (usize, u32, u16),
        sink: &mut impl Sink<W>,
        owned: bool,
    ) -> Result<Option<bool>, RunError> {
        let Some(fd) = p.sites.get(site as usize).and_then(|s| s.filter_draw) else {
            return Ok(None);
        };
        // A level lent to the decision may not be kept (as for pass 15).
        if (!owned && sink.groups()) || self.prefix.len() >= DECISION_LIMIT {
            return Ok(None);
        }
        let depth = self.path.len();
        let lv = &mut self.levels[b];
        let steps = lv.fr.steps;
        if !candidates(p, &p.turn, at, &mut lv.st, &mut lv.fr, &mut self.opts[depth]) {
            return Ok(None);
        }
        let n = self.opts[depth].len();
        let most = u64::from(lv.fr.steps) + n as u64 * u64::from(fd.per) + u64::from(fd.tail);
        if most > u64::from(p.t.max_steps) || n as u32 > self.budget {
            lv.fr.steps = steps;
            return Ok(None);
        }
        if n == 0 {
            return Ok(Some(true));
        }
        self.spend(p, site, n)?;
        let lv = &mut self.levels[b];
        match sink.drawn_filtered(p, lv, at, &mut self.opts[depth])? {
            Some(go_on) => Ok(Some(go_on)),
            None => {
                let lv = &mut self.levels[b];
                lv.fr.steps = steps;
                self.budget += n as u32;
                Ok(None)
            }
        }
    }

    /// Passes 17 and 19: the `require`s asked of each option of the
    /// decision at op `pc` of level `b` (options listed), the rejected
    /// ones dropped; a lazy decision then hands the rest to the sink
    /// (`Some`: its answer). Out of line, to keep `explore` small.
    #[inline(never)]
    fn pruned(
        &mut self,
        p: &Program<W>,
        b: usize,
        pc: u32,
        lazy: bool,
        sink: &mut impl Sink<W>,
        lent: bool,
    ) -> Result<Option<bool>, RunError> {
        let depth = self.path.len();
        let lv = &mut self.levels[b];
        prune(p, &p.turn, pc, &mut lv.st, &mut lv.fr, &mut self.opts[depth]);
        if !lazy {
            return Ok(None);
        }
        self.hand_lazy(p, b, pc, sink, lent).map(Some)
    }

    /// A chance-tail decision at op `pc` of level `b` (options listed):
    /// hands its options to the sink as moves that stop at chance when
    /// they all do now (`Some`: the sink's answer), else `None` (the
    /// search runs them). Out of line, to keep `explore` small.
    #[inline(never)]
    fn chance_tail(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        pc: u32,
        sink: &mut impl Sink<W>,
        lent: bool,
    ) -> Result<Option<bool>, RunError> {
        if !self.chance_tail_ready(p, start, b, pc) {
            return Ok(None);
        }
        let chance_at = ChanceAt { searched: self.searched(start), start, prefix: &self.prefix };
        let (lv, opts) = (&mut self.levels[b], &mut self.opts[self.path.len()]);
        if lent {
            return sink.lazy_chance_lent(p, pc, &self.path, opts, &chance_at).map(Some);
        }
        sink.lazy_chance(p, lv, pc, &self.path, opts, &chance_at).map(Some)
    }
}

impl<const W: usize> Searcher<W> {
    /// Whether every option of chance-tail decision `pc` (pass 14) at
    /// level `b` now stops at its reveal, the overflow bound included.
    fn chance_tail_ready(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        pc: u32,
    ) -> bool {
        let site = site_at(&p.turn, pc);
        let Some(ct) = p.chance_tails.get(site as usize).and_then(Option::as_ref) else {
            return false;
        };
        if !chance_tail_holds(p, ct, &mut self.levels[b]) {
            return false;
        }
        if ct.moves_pieces {
            // No zone can overflow on the way: all zones together hold at
            // most 65535 pieces, now or (a turn without `add`) at its start.
            let pieces = if ct.no_adds {
                self.pieces_at_start(p, start)
            } else {
                self.levels[b].st.zone_pieces(p.t.counter_base)
            };
            if pieces > u64::from(u16::MAX) {
                return false;
            }
        }
        true
    }

    /// Takes the `n` options of the decision of `site` from the turn's
    /// budget of choices; an error past it.
    #[inline(always)]
    fn spend(&mut self, p: &Program<W>, site: u16, n: usize) -> Result<(), RunError> {
        if n as u32 > self.budget {
            return Err(over_budget(p, site));
        }
        self.budget -= n as u32;
        Ok(())
    }

    /// The moves from decision `at` at level `b` (its options listed at
    /// `depth`), counted as [`Searcher::forked`] hands them to a sink that
    /// only counts, with nothing handed over: a lazy decision's options, a
    /// chance or sure tail's when it holds now, one move for a chance
    /// event; for a decision whose options meet the next decision at once
    /// (the arms of an `either` that decide at once, a `choose` followed
    /// by a decision), the sum over its options, each bound in this level
    /// in turn (binding changes only the frame; the steps a listing counts
    /// are put back, as `forked` puts them back for an option it lends
    /// the level to). The decisions are asked in `forked`'s order, and
    /// spend the same budget, so that an error is the same. Where
    /// `forked` would run the options (a tail that does not hold now),
    /// they run ([`Searcher::count_runs`]), but in a traced count, which
    /// gives up there (`None`). `own`: the level is the walk's own copy,
    /// which the last option may run in.
    /// With `TRACE`, each decision met is marked in the trace (see
    /// [`Trace`]) and keeps its options there.
    #[inline(always)]
    fn counted<const TRACE: bool>(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        depth: usize,
        own: bool,
    ) -> Result<Option<u64>, RunError> {
        if TRACE {
            return self.counted_traced(p, start, b, at, depth);
        }
        Ok(self.count_at::<false>(p, start, b, at, depth, own)?.map(|(n, _)| n))
    }

    /// [`Searcher::counted`] with its trace.
    #[inline(never)]
    fn counted_traced(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        depth: usize,
    ) -> Result<Option<u64>, RunError> {
        let before = self.levels[b].fr.steps;
        let Some(x) = self.extra.as_deref_mut() else {
            return Err(internal("a count traced without a trace"));
        };
        let m = x.trace.marks.len();
        x.trace.marks.push(Mark {
            pc: at,
            n: 0,
            len: 0,
            steps: (before, before),
            how: How::Arms,
            list: u32::MAX,
        });
        let Some((n, how)) = self.count_at::<true>(p, start, b, at, depth, false)? else {
            // The count is given up: its trace is not read.
            return Ok(None);
        };
        let after = self.levels[b].fr.steps;
        let Searcher { extra, opts, .. } = self;
        let (Some(x), Some(opts)) = (extra.as_deref_mut(), opts.get_mut(depth)) else {
            return Err(internal("a count traced without a trace"));
        };
        let t = &mut x.trace;
        let len = (t.marks.len() - m) as u32;
        // Every decision lists its options but an `either` whose arms
        // decide at once; they are kept for playing one, traded for a
        // spare list.
        let list = if how == How::Arms {
            u32::MAX
        } else {
            if t.n_lists == t.lists.len() {
                t.lists.push(Box::default());
            }
            std::mem::swap(&mut t.lists[t.n_lists], opts);
            t.n_lists += 1;
            (t.n_lists - 1) as u32
        };
        if let Some(mk) = t.marks.get_mut(m) {
            *mk = Mark { pc: at, n, len, steps: (before, after), how, list };
        }
        Ok(Some(n))
    }

    /// [`Searcher::counted`] of decision `at`, with how its options are
    /// moves.
    fn count_at<const TRACE: bool>(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        depth: usize,
        own: bool,
    ) -> Result<Option<(u64, How)>, RunError> {
        // The decision limit below counts on it.
        debug_assert!(self.prefix.is_empty(), "a count of a turn under way");
        let block = &p.turn;
        let site = site_at(block, at);
        let Some(s) = p.sites.get(site as usize) else { return Ok(None) };
        match block.ops.get(at as usize) {
            // A run stopped at a face-down piece: one move, after which
            // chance decides (as `forked` hands it over).
            Some(Op::Reveal { .. }) if !TRACE => return Ok(Some((1, How::Stop))),
            Some(Op::Either { arms, .. }) if s.arms_decide => {
                // Nothing is handed over at an `either` whose arms decide
                // at once (`SiteInfo::arms_decide`): the sum over its arms,
                // each met without a run (`bind` changes nothing); the
                // last may have the level when it is the walk's own.
                if depth >= DECISION_LIMIT {
                    return Err(too_deep(p, site));
                }
                self.spend(p, site, arms.len())?;
                // Arms past the limit are not counted in place, but by
                // `count_at`, which refuses them (so no arm is held for
                // an alike one either).
                let near = depth + 1 >= DECISION_LIMIT;
                let mut total = 0;
                // The options of the arms counted in place, by arm (an
                // arm whose count is alike reads them: `counts_like`).
                let mut held = [None::<u64>; crate::compile::ALIKE_ARMS];
                for (i, &arm) in arms.iter().enumerate() {
                    let steps = self.levels[b].fr.steps;
                    let last = own && i + 1 == arms.len();
                    let arm_site = site_at(block, arm);
                    let arm_info = p.sites.get(arm_site as usize);
                    let like = arm_info
                        .and_then(|s| s.counts_like)
                        .and_then(|l| held.get(l as usize).copied().flatten())
                        .filter(|_| !TRACE);
                    let k = match like {
                        Some(n) => match self.count_like(p, start, b, arm, n)? {
                            Some(k) => Some(k),
                            None => self.counted::<TRACE>(p, start, b, arm, depth + 1, last)?,
                        },
                        None if !TRACE => {
                            // An arm whose `choose` is counted in place: that
                            // count first, as `count_at` would begin it (it
                            // changes nothing when it does not answer).
                            let quick = match arm_info {
                                Some(a) if a.counted_in_place && !p.uses_memos && !near => {
                                    self.count_unlisted(p, start, b, arm, arm_site)?
                                }
                                _ => None,
                            };
                            let k = match quick {
                                Some(found) => Some(found),
                                None => {
                                    self.count_at::<false>(p, start, b, arm, depth + 1, last)?
                                }
                            };
                            if let (Some((n, How::Unlisted)), Some(h)) = (k, held.get_mut(i)) {
                                *h = Some(n);
                            }
                            k.map(|(n, _)| n)
                        }
                        None => self.counted::<TRACE>(p, start, b, arm, depth + 1, last)?,
                    };
                    self.levels[b].fr.steps = steps;
                    match k {
                        Some(k) => total += k,
                        None => return Ok(None),
                    }
                }
                return Ok(Some((total, How::Arms)));
            }
            Some(Op::Choose(_) | Op::Random(_) | Op::Either { .. }) => {}
            _ => return Ok(None),
        }
        while self.opts.len() <= depth {
            self.opts.push(Box::default());
        }
        if p.uses_memos {
            self.memos_to(b);
        }
        if !TRACE && s.counted_in_place && depth < DECISION_LIMIT {
            if let Some(found) = self.count_unlisted(p, start, b, at, site)? {
                return Ok(Some(found));
            }
        }
        let lv = &mut self.levels[b];
        options(p, block, at, &mut lv.st, &mut lv.fr, &mut self.opts[depth])?;
        let n = self.opts[depth].len();
        // One decision too many, as `forked` refuses it (a decision
        // without options fails the run, and a chance event is a move,
        // whatever their depth). A count begins at the turn's start, with
        // no events before (`count_into` and the owned counts), so the
        // depth is the turn's choices.
        if depth >= DECISION_LIMIT && n > 0 && !s.chance {
            return Err(too_deep(p, site));
        }
        // A traced count keeps how the options are moves: the chance tail
        // first, as `forked` asks.
        if let Some(found) = self.as_they_stand(p, start, b, at, site, n, !TRACE)? {
            return Ok(Some(found));
        }
        // A sink that counts draws nothing (`Sink::drawn`).
        if s.nbr {
            let lv = &mut self.levels[b];
            prune(p, block, at, &mut lv.st, &mut lv.fr, &mut self.opts[depth]);
            if s.lazy {
                return Ok(Some((self.opts[depth].len() as u64, How::Run)));
            }
        }
        if !s.next_decides {
            // The options run. A trace has no mark for a run that meets
            // a decision: a traced count gives up.
            if TRACE {
                return Ok(None);
            }
            return self.count_runs(p, start, b, at, depth, own).map(|n| Some((n, How::Run)));
        }
        let n = self.opts[depth].len();
        let mut cells = self.opts[depth].cells;
        let mut placed = PlacedWalk::default();
        let mut total = 0;
        let word = word_of(block, at);
        for i in 0..n {
            let pick = nth_pick(&self.opts[depth], false, &mut cells, &mut placed, i);
            let lv = &mut self.levels[b];
            let resume = bind_in(word, p, block, at, &mut lv.st, &mut lv.fr, pick);
            let steps = lv.fr.steps;
            let last = own && i + 1 == n;
            let k = self.counted::<TRACE>(p, start, b, resume, depth + 1, last)?;
            self.levels[b].fr.steps = steps;
            match k {
                Some(k) => total += k,
                None => return Ok(None),
            }
        }
        Ok(Some((total, How::Meet)))
    }

    /// How the `n` options of decision `at` (site `site`) at level `b`
    /// are moves as they stand, asked in `forked`'s order with its
    /// budget: none (`n == 0`), one move for a chance event, a lazy
    /// decision's options, a chance or sure tail's when it holds now.
    /// `None` where they must run or be looked at further. `any_first`:
    /// only whether some tail holds matters (an untraced count), so where
    /// both tails only read zones known at load
    /// (`SiteInfo::tails_in_place`) the sure tail is asked first: in a
    /// position without face-down pieces only it can hold.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn as_they_stand(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        site: u16,
        n: usize,
        any_first: bool,
    ) -> Result<Option<(u64, How)>, RunError> {
        let Some(s) = p.sites.get(site as usize) else { return Ok(None) };
        if n == 0 {
            return Ok(Some((0, How::Run)));
        }
        if s.chance {
            return Ok(Some((1, How::Stop)));
        }
        self.spend(p, site, n)?;
        if s.lazy && !s.nbr {
            return Ok(Some((n as u64, How::Run)));
        }
        let sure_first = any_first && s.tails_in_place;
        if sure_first && self.sure_tail_holds(p, start, b, site) {
            return Ok(Some((n as u64, How::Run)));
        }
        if s.chance_tail && self.chance_tail_ready(p, start, b, at) {
            return Ok(Some((n as u64, How::ToChance)));
        }
        if s.sure && !sure_first && self.sure_tail_holds(p, start, b, site) {
            return Ok(Some((n as u64, How::Run)));
        }
        Ok(None)
    }

    /// [`Searcher::count_at`]'s answer where the options need not be
    /// listed: their number told in place ([`count_options`]), and they
    /// are moves as they stand (chance itself, a lazy decision, a chance
    /// or sure tail that holds now), asked in `count_at`'s order with the
    /// same steps and budget. `None`, with the level's steps, its error
    /// and the budget as they were, where the options must be listed
    /// (`count_at` then asks again from the listing).
    #[inline(always)]
    fn count_unlisted(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        site: u16,
    ) -> Result<Option<(u64, How)>, RunError> {
        let lv = &mut self.levels[b];
        if lv.fr.err.is_some() {
            return Ok(None);
        }
        let (before, budget) = (lv.fr.steps, self.budget);
        let Some(n) = count_options(p, &p.turn, at, &lv.st, &mut lv.fr) else { return Ok(None) };
        if let Some(found) = self.as_they_stand(p, start, b, at, site, n, true)? {
            return Ok(Some(match found {
                (n, How::Run) => (n, How::Unlisted),
                other => other,
            }));
        }
        let fr = &mut self.levels[b].fr;
        fr.steps = before;
        fr.err = None;
        self.budget = budget;
        Ok(None)
    }

    /// The count of decision `at` at level `b`, an arm's `choose` whose
    /// count is alike an earlier arm's (`SiteInfo::counts_like`), where
    /// that one's was told in place with `n` options (`How::Unlisted`,
    /// from the same position and steps): `n` again, with the steps and
    /// budget its own count spends, once its sure tail's own step bound
    /// holds (its zones' checks are the earlier arm's, which held).
    /// `None`, with the steps and budget put back, where the bound does
    /// not hold: the arm is then counted as any.
    fn count_like(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        n: u64,
    ) -> Result<Option<u64>, RunError> {
        if n == 0 {
            return Ok(Some(0));
        }
        let site = site_at(&p.turn, at);
        let (before, budget) = (self.levels[b].fr.steps, self.budget);
        // The listing's steps, as `count_options` counts them (they stayed
        // within the limit for the earlier arm, from these same steps).
        let Some(steps) = u32::try_from(n).ok().and_then(|n| before.checked_add(n)) else {
            return Ok(None);
        };
        self.levels[b].fr.steps = steps;
        self.spend(p, site, n as usize)?;
        if self.sure_bound_holds(p, start, b, site) {
            return Ok(Some(n));
        }
        self.levels[b].fr.steps = before;
        self.budget = budget;
        Ok(None)
    }

    /// The moves of decision `at` at level `b` whose options run (listed
    /// at `depth`), as [`Searcher::forked`] hands them to a sink that only
    /// counts: each option bound in a copy of the level (the last in the
    /// level itself when it is the walk's own, `own`: a copy made by the
    /// walk, not one bound again for a later option), then run: one move
    /// for a run that finishes the turn, none for one that fails, the
    /// count of the decision a run stops at ([`Searcher::count_at`]).
    /// A copy has the level's steps, as `forked`'s copy or lent level has.
    #[inline(always)]
    fn count_runs(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        depth: usize,
        own: bool,
    ) -> Result<u64, RunError> {
        // After the first option's copy, the copy level changes only by
        // runs: of a plain level, what a run may change is copied alone
        // (a loop of its own, so that the others' is as it was).
        let lv = &self.levels[b];
        match (lv.st.plain(), lv.fr.groups.is_empty()) {
            (true, true) => self.count_runs_in::<true, false>(p, start, b, at, depth, own),
            // Group lists are kept as `Frame::copy_from` keeps them.
            (true, false) => self.count_runs_in::<true, true>(p, start, b, at, depth, own),
            _ => self.count_runs_in::<false, false>(p, start, b, at, depth, own),
        }
    }

    /// [`Searcher::count_runs`], the options after the first copied by
    /// [`LevelData::copy_plain`] when `PLAIN` (a plain position), with
    /// the frames' group lists kept when `GROUPS`.
    #[inline(never)]
    fn count_runs_in<const PLAIN: bool, const GROUPS: bool>(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        at: u32,
        depth: usize,
        own: bool,
    ) -> Result<u64, RunError> {
        let block = &p.turn;
        let n = self.opts[depth].len();
        let mut cells = self.opts[depth].cells;
        let mut placed = PlacedWalk::default();
        let mut total = 0;
        let word = word_of(block, at);
        if let (true, false, Some(set), Some(x)) = (PLAIN, p.uses_memos, cells, word) {
            return self.count_cells::<GROUPS>(p, start, (b, at, depth, own), set, x);
        }
        // Every option but the walk's own level's last runs in the copy
        // level (see `count_in_copy`).
        let in_copy = if own { n.saturating_sub(1) } else { n };
        let pick = |opts: &Options<W>, i: usize| nth_pick(opts, false, &mut cells, &mut placed, i);
        let bind = |dst: &mut LevelData<W>, pick: Pick<W>| {
            bind_in(word, p, block, at, &mut dst.st, &mut dst.fr, pick)
        };
        self.count_in_copy::<PLAIN, GROUPS, _>(
            p,
            start,
            (b, at, depth, in_copy),
            (pick, bind),
            &mut total,
        )?;
        if own && n > 0 {
            let pick = nth_pick(&self.opts[depth], false, &mut cells, &mut placed, n - 1);
            if p.uses_memos {
                self.memos_to(b);
            }
            let lv = &mut self.levels[b];
            let resume = bind_in(word, p, block, at, &mut lv.st, &mut lv.fr, pick);
            self.run_counted(p, start, (b, resume, depth), None, &mut total)?;
        }
        Ok(total)
    }

    /// Adds to `total` the moves of an option in level `nb` (bound there,
    /// or by writing `w` into word `x` first for `pick` `Some((x, w))`),
    /// its run going on at `resume`: one for a run that finishes the turn,
    /// none for one that fails, the count of the decision it stops at
    /// (listed at `depth + 1`).
    #[inline(always)]
    fn run_counted(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        (nb, resume, depth): (usize, u32, usize),
        pick: Option<(usize, i64)>,
        total: &mut u64,
    ) -> Result<(), RunError> {
        let lv = &mut self.levels[nb];
        if let Some((x, w)) = pick {
            lv.fr.w[x] = w;
        }
        match run(p, &p.turn, &mut lv.st, &mut lv.fr, resume)? {
            Stop::Done => *total += 1,
            Stop::Fail(_) => {}
            Stop::Fork(next) => {
                match self.count_at::<false>(p, start, nb, next, depth + 1, true)? {
                    Some((k, _)) => *total += k,
                    None => return Err(internal("a count of runs gave up")),
                }
            }
        }
        Ok(())
    }
}

impl<const W: usize> Searcher<W> {
    /// [`Searcher::count_runs_in`] of a plain level whose options are the
    /// cells of `set`, each written into word `x` (a `choose` of a cell
    /// with a set form): the same options in the same order, each bound
    /// and run as there, without the general walk's questions per option.
    #[inline(always)]
    fn count_cells<const GROUPS: bool>(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        (b, at, depth, own): (usize, u32, usize, bool),
        mut set: Set<W>,
        x: usize,
    ) -> Result<u64, RunError> {
        let n = self.opts[depth].len();
        let mut total = 0;
        // Every option but the walk's own level's last runs in the copy
        // level (see `count_in_copy`).
        let in_copy = if own { n.saturating_sub(1) } else { n };
        let pick = |_: &Options<W>, _: usize| set.pop().map_or(i64::MIN, i64::from);
        let bind = |dst: &mut LevelData<W>, pick: i64| {
            dst.fr.w[x] = pick;
            at + 1
        };
        let parts = (b, at, depth, in_copy);
        self.count_in_copy::<true, GROUPS, _>(p, start, parts, (pick, bind), &mut total)?;
        if own && n > 0 {
            let pick = set.pop().map_or(i64::MIN, i64::from);
            self.run_counted(p, start, (b, at + 1, depth), Some((x, pick)), &mut total)?;
        }
        Ok(total)
    }
}

impl<const W: usize> Searcher<W> {
    /// Adds to `total` the moves of the first `in_copy` options of the
    /// decision listed at `depth`, counted from level `b`: each run in the
    /// copy level (`depth + 1`), made a copy of `b` for the first and,
    /// when `PLAIN`, given back only what a run may change for the others
    /// (with the group lists kept when `GROUPS`; copied whole otherwise).
    /// `pick` takes option `i` from the listing, `bind` binds it in the
    /// copy level and says where its run goes on.
    /// The two levels are found once, not per option, and again only
    /// after an option whose run stopped at a decision (counted with the
    /// whole searcher).
    #[inline(always)]
    fn count_in_copy<const PLAIN: bool, const GROUPS: bool, T>(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        (b, at, depth, in_copy): (usize, u32, usize, usize),
        (mut pick, bind): (
            impl FnMut(&Options<W>, usize) -> T,
            impl Fn(&mut LevelData<W>, T) -> u32,
        ),
        total: &mut u64,
    ) -> Result<(), RunError> {
        let copy = depth + 1;
        // As in `forked_cells`: every live local for the first option of
        // each pass of the inner loop, then those a run may have written.
        let (live, each) = lives_at(p, &p.turn, at);
        let mut i = 0;
        while i < in_copy {
            if i == 0 {
                self.copy_level(b, copy);
            }
            if p.uses_memos {
                self.memos_to(copy);
            }
            let fork = {
                let (src, dst) = two_levels(&mut self.levels, b, copy)?;
                let opts = &self.opts[depth];
                let mut fork = None;
                let mut carry = (live, false);
                while i < in_copy {
                    let option = pick(opts, i);
                    match (i, PLAIN) {
                        (0, _) => {}
                        (_, true) => dst.copy_plain(src, carry, GROUPS),
                        (_, false) => dst.copy_from(src),
                    }
                    carry = (each, true);
                    i += 1;
                    let resume = bind(dst, option);
                    match run(p, &p.turn, &mut dst.st, &mut dst.fr, resume)? {
                        Stop::Done => *total += 1,
                        Stop::Fail(_) => {}
                        Stop::Fork(next) => {
                            fork = Some(next);
                            break;
                        }
                    }
                }
                fork
            };
            if let Some(next) = fork {
                match self.count_at::<false>(p, start, copy, next, depth + 1, true)? {
                    Some((k, _)) => *total += k,
                    None => return Err(internal("a count of runs gave up")),
                }
            }
        }
        Ok(())
    }
}

/// The live locals of decision `site` (pass 35): what a copy of a level
/// for one of its options carries of the frame.
#[inline(always)]
fn live_of<const W: usize>(p: &Program<W>, site: u16) -> Live {
    p.sites.get(usize::from(site)).map_or(Live::ALL, |s| s.live)
}

/// [`live_of`] and, second, those of the live locals that a run resumed
/// at the decision may write (`SiteInfo::each`).
#[inline(always)]
fn lives_of<const W: usize>(p: &Program<W>, site: u16) -> (Live, Live) {
    p.sites.get(usize::from(site)).map_or((Live::ALL, Live::ALL), |s| (s.live, s.each))
}

/// [`lives_of`] the decision at op `at` of `block`.
#[inline(always)]
fn lives_at<const W: usize>(p: &Program<W>, block: &Block<W>, at: u32) -> (Live, Live) {
    match block.ops.get(at as usize) {
        Some(Op::Choose(c) | Op::Random(c)) => lives_of(p, c.site),
        Some(Op::Either { site, .. } | Op::Reveal { site, .. }) => lives_of(p, *site),
        _ => (Live::ALL, Live::ALL),
    }
}

/// The error of a turn that explores more choices than the limit, at the
/// decision of `site`.
#[cold]
#[inline(never)]
fn over_budget<const W: usize>(p: &Program<W>, site: u16) -> RunError {
    let message = format!(
        "one turn explores more than {} choices; are its decisions meant to multiply like this? (`--max-choices` raises the limit)",
        p.t.max_choices
    );
    RunError::new(message, site_span(p, site))
}

/// The span of decision or chance event `site` (an empty one for a site
/// the program does not have, which the checker never makes).
fn site_span<const W: usize>(p: &Program<W>, site: u16) -> crate::source::Span {
    p.sites.get(site as usize).map_or_else(Default::default, |s| s.span)
}

/// The error of a turn that meets the decision or chance event of `site`
/// after [`DECISION_LIMIT`] decisions and chance events.
#[cold]
#[inline(never)]
fn too_deep<const W: usize>(p: &Program<W>, site: u16) -> RunError {
    RunError::too_deep(site_span(p, site))
}

/// Option `i` of a decision's options `opts` as [`Searcher::forked`]
/// walks them: an `either`'s arm (`arms`), the cells of a set in order
/// (`cells`, the ones not yet taken), placements in order (`placed`, the
/// walk), else the `i`-th listed.
#[inline(always)]
fn nth_pick<const W: usize>(
    opts: &Options<W>,
    arms: bool,
    cells: &mut Option<Set<W>>,
    placed: &mut PlacedWalk,
    i: usize,
) -> Pick<W> {
    match (cells, arms) {
        (_, true) => Pick::W(i as i64),
        (Some(c), false) => Pick::W(c.pop().map_or(i64::MIN, i64::from)),
        (None, false) => match opts.next_placed(placed) {
            Some(pick) => pick,
            None => opts.get(i),
        },
    }
}

/// Whether every option of a chance-tail decision now stops at its
/// reveal, but for the overflow bound (checked by the caller): the zone's
/// end is face down (the tail does not change the zone) and the run's
/// steps stay within the limit.
fn chance_tail_holds<const W: usize>(
    p: &Program<W>,
    ct: &crate::compile::ChanceTail<W>,
    lv: &mut Level<W>,
) -> bool {
    let LevelData { st, fr } = &mut **lv;
    if u64::from(fr.steps) + u64::from(ct.steps) > u64::from(p.t.max_steps) {
        return false;
    }
    match &ct.zone {
        // A zone named in the rule: its sequence read in place.
        crate::compile::ZoneRef::Seq(i) => st.seqs.get(*i).is_some_and(|q| {
            (if ct.front { q.first() } else { q.last() }) == crate::state::End::Unknown
        }),
        crate::compile::ZoneRef::Word(z) => {
            let mut cx = crate::compile::Cx { t: &p.t, st, fr };
            let w = z(&mut cx);
            cx.fr.err.is_none() && super::machine::face_down_end(cx.t, cx.st, w, ct.front).is_some()
        }
    }
}

impl<const W: usize> Searcher<W> {
    /// How many pieces the zones held when the turn began (remembered
    /// once asked); unknown without the position (an owned search that
    /// was not told), as many as would fail every overflow bound.
    fn pieces_at_start(&mut self, p: &Program<W>, start: Option<&State>) -> u64 {
        match (self.start_pieces, start) {
            (UNCOUNTED, Some(s)) => {
                self.start_pieces = s.zone_pieces(p.t.counter_base);
                self.start_pieces
            }
            (n, _) => n,
        }
    }

    /// The ply and mover of the position searched: `start`'s, or in an
    /// owned search the first level's, which holds it until the search
    /// hands it over with the first level's decision, its last.
    fn searched(&self, start: Option<&State>) -> (u32, u8) {
        match (start, self.levels.first()) {
            (Some(s), _) => (s.ply, s.current),
            (None, Some(lv)) => (lv.st.ply, lv.st.current),
            (None, None) => (0, 0),
        }
    }

    /// Whether every option of sure-tail decision `site` (pass 22) at
    /// level `b` now completes (see [`sure_tail_holds`]). Out of line, to
    /// keep `explore` small.
    #[inline(never)]
    fn sure_tail_holds(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        site: u16,
    ) -> bool {
        let Some(Some(t)) = p.sure_tails.get(site as usize) else { return false };
        let pieces = self.sure_pieces(p, start, b, t);
        sure_tail_holds(p, t, pieces, &mut self.levels[b])
    }

    /// [`Searcher::sure_tail_holds`] but for its zones' checks: the
    /// overflow bound and the steps.
    fn sure_bound_holds(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        site: u16,
    ) -> bool {
        let Some(Some(t)) = p.sure_tails.get(site as usize) else { return false };
        let pieces = self.sure_pieces(p, start, b, t);
        sure_bound(p, t, pieces, self.levels[b].fr.steps)
    }

    /// The pieces a sure tail's bounds are asked with at level `b`: a
    /// turn without `add` never holds more pieces than at its start.
    #[inline(always)]
    fn sure_pieces(
        &mut self,
        p: &Program<W>,
        start: Option<&State>,
        b: usize,
        t: &crate::compile::SureTail<W>,
    ) -> u64 {
        if t.no_adds {
            self.pieces_at_start(p, start)
        } else {
            self.levels[b].st.zone_pieces(p.t.counter_base)
        }
    }
}

/// The bounds of a sure tail (see [`sure_tail_holds`]): no zone can
/// overflow, and the steps stay within the limit.
#[inline(always)]
pub(super) fn sure_bound<const W: usize>(
    p: &Program<W>,
    t: &crate::compile::SureTail<W>,
    pieces: u64,
    steps: u32,
) -> bool {
    if t.moves_pieces && pieces > u64::from(u16::MAX) {
        return false;
    }
    t.bound(pieces)
        .is_some_and(|bound| u64::from(steps).saturating_add(bound) <= u64::from(p.t.max_steps))
}

/// Whether every option of a sure-tail decision now completes: the zones
/// whose ends the tail reads lie face up, each draw-until loop's zone
/// holds a piece that stops it, no zone can overflow and the steps stay
/// within the limit (`pieces`: at least as many as all zones hold).
fn sure_tail_holds<const W: usize>(
    p: &Program<W>,
    t: &crate::compile::SureTail<W>,
    pieces: u64,
    lv: &mut Level<W>,
) -> bool {
    let LevelData { st, fr } = &mut **lv;
    if !sure_bound(p, t, pieces, fr.steps) {
        return false;
    }
    let mut cx = crate::compile::Cx { t: &p.t, st, fr };
    for z in &t.face_up {
        let i = seq_of(&mut cx, z);
        if !face_up_holds(i.and_then(|i| cx.st.seqs.get(i))) {
            return false;
        }
    }
    for (z, stops) in &t.until {
        let i = seq_of(&mut cx, z);
        if !until_holds(i.and_then(|i| cx.st.seqs.get(i)), stops) {
            return false;
        }
    }
    true
}

/// A zone that a sure tail reads the ends of (`None`: not an ordered
/// zone) lies face up.
#[inline(always)]
pub(super) fn face_up_holds(q: Option<&crate::state::Seq>) -> bool {
    q.is_some_and(|q| !q.any_hidden())
}

/// The zone of a sure tail's draw-until loop (`None`: not an ordered
/// zone) holds a piece of a kind that stops it. Face up (the zone is one
/// of the tail's `face_up`): its pieces are the known ones at either end.
#[inline(always)]
pub(super) fn until_holds(q: Option<&crate::state::Seq>, stops: &[bool]) -> bool {
    let Some(q) = q else { return false };
    let stop = |k: &u16| stops.get(*k as usize).copied().unwrap_or(false);
    q.front().any(|k| stop(&k)) || q.back.iter().any(stop)
}

/// The sequence of an ordered zone of a rule in the run's position.
#[inline(always)]
fn seq_of<const W: usize>(
    cx: &mut crate::compile::Cx<'_, W>,
    z: &crate::compile::ZoneRef<W>,
) -> Option<usize> {
    match z {
        crate::compile::ZoneRef::Seq(i) => Some(*i),
        crate::compile::ZoneRef::Word(z) => {
            let (z, pl) = crate::compile::word::unzone(z(cx));
            let ordered = cx.t.zones.get(z as usize).is_some_and(|x| x.1);
            if cx.fr.err.take().is_some() || pl == crate::ir::NONE8 || !ordered {
                return None;
            }
            Some(cx.t.sequence(z, pl))
        }
    }
}

/// Whether a run that goes on at op `pc` stops there at once, at a
/// decision (a `choose`, a `random`, an `either`) whose options may be
/// handed over unrun (lazy, chance or sure tails, chance itself): only
/// then is a level worth lending to it, as its options need no level of
/// their own.
fn lends<const W: usize>(p: &Program<W>, pc: u32) -> bool {
    p.turn.ops.get(pc as usize).is_some_and(Op::is_decision)
        && p.sites
            .get(site_at(&p.turn, pc) as usize)
            .is_some_and(|s| s.chance || s.lazy || s.chance_tail || s.sure)
}

/// Runs the tail of lazy decision `pc` with `pick` from `fork` into `out`;
/// `Ok(false)` if the tail failed after all (never for a correct pass).
pub fn complete<const W: usize>(
    p: &Program<W>,
    fork: &Level<W>,
    pc: u32,
    pick: Pick<W>,
    out: &mut Level<W>,
) -> Result<bool, RunError> {
    out.copy_from(fork);
    finish(p, pc, pick, out)
}

/// Runs the tail of lazy decision `pc` with `pick` in `lv` itself (the
/// run at the decision, which is not needed again); `Ok(false)` if the
/// tail failed after all (never for a correct pass).
pub fn finish<const W: usize>(
    p: &Program<W>,
    pc: u32,
    pick: Pick<W>,
    lv: &mut Level<W>,
) -> Result<bool, RunError> {
    let resume = bind(p, &p.turn, pc, &mut lv.st, &mut lv.fr, pick);
    match run(p, &p.turn, &mut lv.st, &mut lv.fr, resume)? {
        Stop::Done => Ok(true),
        Stop::Fail(_) => Ok(false),
        Stop::Fork(_) => Err(RunError::new(
            "internal error: a lazy decision was followed by another",
            Default::default(),
        )),
    }
}

/// A move from a choice path.
pub fn path_move<const W: usize>(p: &Program<W>, path: &[(u16, Pick<W>)]) -> Move {
    Move {
        choices: path
            .iter()
            .map(|&(site, pick)| super::machine::choice_of(p, site, pick))
            .collect(),
        stuck: false,
    }
}

/// Collects moves.
pub struct MovesSink<'a> {
    /// The moves found.
    pub out: &'a mut Vec<Move>,
    /// The choices they hold, all together (at most [`LIST_LIMIT`]).
    pub held: usize,
}

/// Adds a move of `n` choices, the last made at `site`, to the `held`
/// choices of a list: an error where they would pass [`LIST_LIMIT`].
#[inline(always)]
fn hold<const W: usize>(
    held: &mut usize,
    p: &Program<W>,
    site: u16,
    n: usize,
) -> Result<(), RunError> {
    *held += n;
    if *held > LIST_LIMIT {
        return Err(RunError::list_too_long(site_span(p, site)));
    }
    Ok(())
}

/// [`hold`] of the move `path`.
#[inline(always)]
fn hold_path<const W: usize>(
    held: &mut usize,
    p: &Program<W>,
    path: &[(u16, Pick<W>)],
) -> Result<(), RunError> {
    hold(held, p, last_site(path), path.len())
}

/// The site of the last decision on `path` (0 for none).
#[inline(always)]
fn last_site<const W: usize>(path: &[(u16, Pick<W>)]) -> u16 {
    path.last().map_or(0, |&(site, _)| site)
}

impl<const W: usize> Sink<W> for MovesSink<'_> {
    fn reads_only(&self) -> bool {
        true
    }

    fn chance(
        &mut self,
        p: &Program<W>,
        _: &mut Level<W>,
        _: u32,
        path: &[(u16, Pick<W>)],
        _: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        hold_path(&mut self.held, p, path)?;
        self.out.push(path_move(p, path));
        Ok(true)
    }

    fn done(
        &mut self,
        p: &Program<W>,
        _: &mut Box<State>,
        path: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        hold_path(&mut self.held, p, path)?;
        self.out.push(path_move(p, path));
        Ok(true)
    }

    fn lazy(
        &mut self,
        p: &Program<W>,
        _: &mut Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
    ) -> Result<bool, RunError> {
        let site = site_at(&p.turn, pc);
        for i in 0..opts.len() {
            hold(&mut self.held, p, site, path.len() + 1)?;
            let mut m = path_move(p, path);
            m.choices.push(super::machine::choice_of(p, site, opts.get(i)));
            self.out.push(m);
        }
        Ok(true)
    }
}

/// Counts moves.
pub struct CountSink(pub u64);

impl<const W: usize> Sink<W> for CountSink {
    fn done_reads_path(&self) -> bool {
        false
    }

    fn reads_only(&self) -> bool {
        true
    }

    fn counts(&self) -> bool {
        true
    }

    fn counted(&mut self, n: u64) {
        self.0 += n;
    }

    fn chance(
        &mut self,
        _: &Program<W>,
        _: &mut Level<W>,
        _: u32,
        _: &[(u16, Pick<W>)],
        _: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        self.0 += 1;
        Ok(true)
    }

    fn done(
        &mut self,
        _: &Program<W>,
        _: &mut Box<State>,
        _: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        self.0 += 1;
        Ok(true)
    }

    fn lazy(
        &mut self,
        _: &Program<W>,
        _: &mut Level<W>,
        _: u32,
        _: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
    ) -> Result<bool, RunError> {
        self.0 += opts.len() as u64;
        Ok(true)
    }
}

/// Stops at the first move.
pub struct AnySink(pub bool);

impl<const W: usize> Sink<W> for AnySink {
    fn done_reads_path(&self) -> bool {
        false
    }

    fn reads_only(&self) -> bool {
        true
    }

    fn chance(
        &mut self,
        _: &Program<W>,
        _: &mut Level<W>,
        _: u32,
        _: &[(u16, Pick<W>)],
        _: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        self.0 = true;
        Ok(false)
    }

    fn done(
        &mut self,
        _: &Program<W>,
        _: &mut Box<State>,
        _: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        self.0 = true;
        Ok(false)
    }

    fn lazy(
        &mut self,
        _: &Program<W>,
        _: &mut Level<W>,
        _: u32,
        _: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
    ) -> Result<bool, RunError> {
        self.0 |= !opts.is_empty();
        Ok(!self.0)
    }
}

/// A move stopped at a chance event: the run at the stop, its resume
/// point and the search's picks so far.
type ChanceStop<const W: usize> = (Level<W>, u32, Vec<(u16, Pick<W>)>);

/// A decision whose options stop at chance, kept unrun: the fork, the
/// decision, its options and the picks before it.
type LazyChance<const W: usize> = (Level<W>, u32, Box<Options<W>>, Vec<(u16, Pick<W>)>);

/// Every move of a position with its resulting position, kept for
/// choosing one (playouts): finished turns are stored as positions (in a
/// game whose turns cannot begin with chance, before the turn passes:
/// only the position played passes it, in [`Successors::result`]), lazy
/// decisions as their fork and options, the options of a group as the
/// group's one level and each lent decision's options.
#[derive(Default)]
pub struct Successors<const W: usize> {
    /// Boxed on purpose: a finished run's position is swapped in by its
    /// pointer (see [`Sink::done`]).
    #[allow(clippy::vec_box)]
    states: Vec<Box<State>>,
    /// Lazy decisions met in a lent level (see [`Sink::groups`]), each
    /// with the level it shares with the others of its group (an index
    /// into `shared`, given by [`Sink::group_end`]).
    grouped: Vec<Grouped<W>>,
    n_grouped: usize,
    /// The first entry of `grouped` still waiting for its level.
    waiting: usize,
    /// The levels of the groups: the position and frame at the decision
    /// that lent them.
    shared: Vec<Level<W>>,
    n_shared: usize,
    /// Whether the turn's events before the search were kept (see
    /// [`Successors::keep_start`]).
    kept_start: bool,
    forks: Vec<(Level<W>, u32, Box<Options<W>>)>,
    /// Moves that stop at a chance event: the run at the stop (swapped
    /// out of the search, not copied), the chance event and the picks of
    /// the search so far (made into events only for a move that needs
    /// them: see [`events`]).
    chances: Vec<ChanceStop<W>>,
    /// Decisions whose options all stop at a chance event (pass 14): the
    /// position and frame at the decision, the decision, its options and
    /// the picks of the search before it. An option runs only when it is
    /// played.
    lazy_chances: Vec<LazyChance<W>>,
    /// The ply and mover of the position searched: a move that stops at
    /// chance becomes that position with its events, and is played on it
    /// (see [`Successors::play_out`]), so it is not copied; this tells a
    /// different position.
    searched: (u32, u8),
    /// The turn's events before the search began (for moves that stop at
    /// chance).
    prefix: Vec<Choice>,
    /// In search order: (kind, index into `states`, `forks` or `chances`,
    /// number of moves).
    segments: Vec<(Seg, usize, usize)>,
    n_states: usize,
    n_forks: usize,
    n_chances: usize,
    n_lazy_chances: usize,
    /// Number of moves (but for the candidates of drawn decisions).
    pub total: usize,
    /// The picks kept with moves that stop at chance, all together: a
    /// move's in `chances`, a decision's (once for all its options) in
    /// `lazy_chances` and `grouped`. They count against [`LIST_LIMIT`]
    /// as the choices of a list do, since they are what grows with a
    /// move's choices (a finished move is kept as its position, a lazy
    /// decision as its level and options).
    held: usize,
    /// Past the limit: the last decision of the move whose picks passed
    /// it (nothing more is kept; see [`Successors::within_limit`]).
    over: Option<u16>,
    players: usize,
    opts: Options<W>,
    /// Whether decisions of pass 15 are kept unrun (see
    /// [`Successors::drawing`]).
    draw: bool,
    /// Decisions of pass 15 kept unrun: the position and frame at the
    /// decision, the decision and its options, each a move or none.
    drawn: Vec<(Level<W>, u32, Box<Options<W>>)>,
    /// Per kept decision: its options are pass 54's candidates, whose
    /// filter is asked as each is drawn.
    unfiltered: Vec<bool>,
    n_drawn: usize,
    /// The options of the drawn decisions, all together.
    pub candidates: usize,
    /// The candidates not yet found to fail, while drawing.
    order: Vec<u32>,
    /// Where a candidate runs.
    scratch: Option<Level<W>>,
}

/// A move's events: the turn's events before the search, then its picks.
fn events<const W: usize>(
    p: &Program<W>,
    prefix: &[Choice],
    picks: &[(u16, Pick<W>)],
) -> Vec<Choice> {
    let mut events = prefix.to_vec();
    events.extend(picks.iter().map(|&(site, pick)| super::machine::choice_of(p, site, pick)));
    events
}

/// A lazy decision met in a lent level: its options are moves played in
/// the group's level by binding the lending decision's option again, then
/// one of this decision's.
struct Grouped<const W: usize> {
    /// The group's level, in `Successors::shared`.
    shared: usize,
    /// The lending decision (set by `group_end`) and its option.
    outer: (u32, Pick<W>),
    /// The decision.
    pc: u32,
    opts: Box<Options<W>>,
    /// Whether every option stops at chance (a chance tail).
    chance: bool,
    /// The picks of the search up to the decision (kept for a chance
    /// tail's events).
    picks: Vec<(u16, Pick<W>)>,
}

/// What a run of moves in [`Successors`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seg {
    /// Finished turns, kept as positions.
    Done,
    /// A lazy decision's options.
    Lazy,
    /// A move that stops at a chance event.
    Chance,
    /// The options of a decision that all stop at a chance event.
    LazyChance,
    /// A lazy decision's options, in a group's level (either kind).
    Grouped,
}

impl<const W: usize> Successors<W> {
    /// Counts the `n` picks of a move that stops at chance, its last
    /// decision `site()`, before they are kept: false, and the move not
    /// kept, once they pass [`LIST_LIMIT`]. The search goes on (it stays
    /// within its budget of choices) and the error is raised when it
    /// ends ([`Successors::within_limit`]): a sink's `chance` that always
    /// goes on leaves the search's code as it was.
    #[inline(always)]
    fn keep_picks(&mut self, site: impl FnOnce() -> u16, n: usize) -> bool {
        self.held += n;
        if self.held > LIST_LIMIT {
            self.over.get_or_insert_with(site);
            return false;
        }
        true
    }

    /// The error of a search whose moves that stop at chance kept more
    /// than [`LIST_LIMIT`] picks, at the last decision of the move that
    /// passed it; to be asked when a search into this list has ended.
    pub fn within_limit(&self, p: &Program<W>) -> Result<(), RunError> {
        match self.over {
            Some(site) => Err(RunError::list_too_long(site_span(p, site))),
            None => Ok(()),
        }
    }

    /// Empties the list, keeping its buffers.
    pub fn clear(&mut self, players: usize) {
        self.segments.clear();
        self.n_states = 0;
        self.n_forks = 0;
        self.n_chances = 0;
        self.n_lazy_chances = 0;
        self.n_grouped = 0;
        self.waiting = 0;
        self.n_shared = 0;
        self.kept_start = false;
        self.total = 0;
        self.held = 0;
        self.over = None;
        self.n_drawn = 0;
        self.candidates = 0;
        self.players = players;
    }

    /// Keeps the options of decisions after which the turn can only fail
    /// or finish (pass 15) unrun, as candidates, for [`Successors::draw`]:
    /// for a sink that plays one move drawn at random. Off by default.
    pub fn drawing(&mut self, on: bool) {
        self.draw = on;
    }

    /// Draws one move uniformly among all the moves of the search and
    /// plays it (into `out`, as [`Successors::play_out`]); false when the
    /// position has no move. Each draw is uniform among the moves and the
    /// candidates not yet found to fail; a candidate drawn is run, and
    /// when it fails it is put aside and the draw repeated, so the move
    /// played is uniform among the moves, and only the candidates drawn
    /// are run.
    pub fn draw(
        &mut self,
        p: &Program<W>,
        rng: &mut crate::rng::Rng,
        out: &mut Box<State>,
    ) -> Result<bool, RunError> {
        self.order.clear();
        self.order.extend(0..self.candidates as u32);
        loop {
            let m = self.total + self.order.len();
            if m == 0 {
                return Ok(false);
            }
            let r = rng.below(m);
            if r < self.total {
                self.play_out(p, r, rng, out)?;
                return Ok(true);
            }
            let j = r - self.total;
            if self.run_candidate(p, self.order[j] as usize)? {
                let Some(lv) = self.scratch.as_mut() else { return Ok(false) };
                advance(&mut lv.st, self.players);
                settle(p, &mut lv.st)?;
                if lv.st.same_shape(out) {
                    std::mem::swap(&mut lv.st, out);
                } else {
                    out.clone_from(&lv.st);
                }
                return Ok(true);
            }
            self.order.swap_remove(j);
        }
    }

    /// Whether the position has a move, running candidates in order until
    /// one is.
    pub fn any_move(&mut self, p: &Program<W>) -> Result<bool, RunError> {
        if self.total > 0 {
            return Ok(true);
        }
        for c in 0..self.candidates {
            if self.run_candidate(p, c)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Runs candidate `c` in the scratch level: whether it is a move.
    fn run_candidate(&mut self, p: &Program<W>, c: usize) -> Result<bool, RunError> {
        let mut at = c;
        let mut k = 0;
        while k < self.n_drawn && at >= self.drawn[k].2.len() {
            at -= self.drawn[k].2.len();
            k += 1;
        }
        let Some((fork, pc, opts)) = self.drawn[..self.n_drawn].get(k) else {
            return Err(RunError::new("internal error: no such candidate", Default::default()));
        };
        let unfiltered = self.unfiltered.get(k).copied().unwrap_or(false);
        let lv = match &mut self.scratch {
            Some(lv) if lv.same_shape(fork) => {
                lv.copy_from(fork);
                lv
            }
            slot => slot.insert(fork.clone()),
        };
        let pick = opts.get(at);
        if unfiltered && !filter_holds(p, &p.turn, *pc, &mut lv.st, &mut lv.fr, pick)? {
            return Ok(false);
        }
        if !admits(p, &p.turn, *pc, &mut lv.st, &mut lv.fr, pick) {
            return Ok(false);
        }
        let resume = bind(p, &p.turn, *pc, &mut lv.st, &mut lv.fr, pick);
        match run(p, &p.turn, &mut lv.st, &mut lv.fr, resume)? {
            Stop::Done => Ok(true),
            Stop::Fail(_) => Ok(false),
            Stop::Fork(_) => Err(RunError::new(
                "internal error: a drawn decision was followed by another",
                Default::default(),
            )),
        }
    }

    /// Whether move `i` stops at a chance event.
    pub fn is_chance(&self, i: usize) -> bool {
        let mut at = i;
        for &(seg, j, n) in &self.segments {
            if at < n {
                return match seg {
                    Seg::Chance | Seg::LazyChance => true,
                    Seg::Grouped => self.grouped[j].chance,
                    Seg::Done | Seg::Lazy => false,
                };
            }
            at -= n;
        }
        false
    }

    /// Plays move `i` and, when it stops at a chance event, lets chance
    /// decide with `rng` (each outcome with its weight) and goes on from
    /// the stop without replaying the turn, until the turn ends or the
    /// mover decides again: the position afterwards goes into `out`. At
    /// most once per search: a move that stops at chance is played in the
    /// run the search kept for it, which is spent afterwards. `out` must
    /// hold the position searched (a playout plays on its own position):
    /// a move whose turn is still under way becomes that position with
    /// the move's events.
    pub fn play_out(
        &mut self,
        p: &Program<W>,
        i: usize,
        rng: &mut crate::rng::Rng,
        out: &mut Box<State>,
    ) -> Result<(), RunError> {
        let mut at = i;
        let mut found = None;
        for &(seg, j, n) in &self.segments {
            if at < n {
                found = match seg {
                    Seg::Chance | Seg::LazyChance => Some((seg, j)),
                    Seg::Grouped if self.grouped[j].chance => Some((seg, j)),
                    _ => None,
                };
                break;
            }
            at -= n;
        }
        let Some((seg, idx)) = found else { return self.result(p, i, out) };
        let (lv, pc, picks) = match seg {
            Seg::Chance => {
                // The run at the stop, kept by the sink: chance decides from there.
                let (lv, pc, picks) = &mut self.chances[idx];
                (lv, *pc, picks)
            }
            Seg::Grouped => {
                // An option of a decision met in a group's level: the
                // lending decision's option bound again, then as below.
                let g = &mut self.grouped[idx];
                let lv = self
                    .shared
                    .get_mut(g.shared)
                    .ok_or_else(|| internal("a group without a level"))?;
                rebind(p, lv, g)?;
                let pc = to_chance(p, lv, g.pc, g.opts.get(at), &mut g.picks)?;
                (lv, pc, &mut g.picks)
            }
            _ => {
                // An option of a decision whose options stop at chance: run
                // it to its stop now (the decision's copy is spent).
                let (lv, fork, opts, picks) = &mut self.lazy_chances[idx];
                let pc = to_chance(p, lv, *fork, opts.get(at), picks)?;
                (lv, pc, picks)
            }
        };
        let turn = (self.players, self.searched, &self.prefix[..]);
        chance_to_end(p, lv, pc, picks, &mut self.opts, rng, turn, out)
    }

    /// Move `i`'s resulting position (after the turn passes), written into
    /// `out`, which holds the position searched (as for
    /// [`Successors::play_out`]). The list is spent afterwards (the
    /// position is moved out of it, a lazy decision's fork is run in
    /// place): once per search.
    pub fn result(
        &mut self,
        p: &Program<W>,
        i: usize,
        out: &mut Box<State>,
    ) -> Result<(), RunError> {
        let mut at = i;
        for &(seg, idx, n) in &self.segments {
            if at >= n {
                at -= n;
                continue;
            }
            if seg == Seg::Done {
                let s = &mut self.states[idx + at];
                if s.same_shape(out) {
                    std::mem::swap(s, out);
                } else {
                    out.clone_from(s);
                }
                if !p.chance_first {
                    // The turn passes (see `done`).
                    advance(out, self.players);
                }
                return Ok(());
            }
            if seg == Seg::LazyChance {
                let (_, fork, opts, picks) = &self.lazy_chances[idx];
                let mut events = events(p, &self.prefix, picks);
                events.push(super::machine::choice_of(p, site_at(&p.turn, *fork), opts.get(at)));
                return under_way(self.searched, out, events, true);
            }
            if seg == Seg::Chance {
                let events = events(p, &self.prefix, &self.chances[idx].2);
                return under_way(self.searched, out, events, true);
            }
            if seg == Seg::Grouped {
                let g = &self.grouped[idx];
                if g.chance {
                    let mut events = events(p, &self.prefix, &g.picks);
                    events.push(super::machine::choice_of(
                        p,
                        site_at(&p.turn, g.pc),
                        g.opts.get(at),
                    ));
                    return under_way(self.searched, out, events, true);
                }
                let lv = self
                    .shared
                    .get_mut(g.shared)
                    .ok_or_else(|| internal("a group without a level"))?;
                rebind(p, lv, g)?;
                return finish_into(p, lv, g.pc, g.opts.get(at), self.players, out);
            }
            let (fork, pc, opts) = &mut self.forks[idx];
            return finish_into(p, fork, *pc, opts.get(at), self.players, out);
        }
        Ok(())
    }
}

/// A move that stops at chance event `pc` of run `lv` (`picks`: the
/// search's picks so far), played on: chance decides with `rng`, at this
/// event and every chance event the run meets next, to the end of the
/// turn, whose position (the turn passed) is moved into `out`; if the
/// mover decides next, `out` (the position searched) becomes the turn
/// under way. `turn`: the number of players, the ply and mover of the
/// position searched and the turn's events before the search.
#[allow(clippy::too_many_arguments)]
fn chance_to_end<const W: usize>(
    p: &Program<W>,
    lv: &mut Level<W>,
    mut pc: u32,
    picks: &mut Vec<(u16, Pick<W>)>,
    opts: &mut Options<W>,
    rng: &mut crate::rng::Rng,
    (players, searched, prefix): (usize, (u32, u8), &[Choice]),
    out: &mut Box<State>,
) -> Result<(), RunError> {
    loop {
        let site = site_at(&p.turn, pc);
        if prefix.len() + picks.len() >= DECISION_LIMIT {
            // One choice too many, as `chance_outcomes_in` refuses it.
            return Err(too_deep(p, site));
        }
        let Some(pick) = sample(p, &p.turn, pc, &mut lv.st, &mut lv.fr, opts, rng)? else {
            return Err(RunError::new("a chance event has no outcome", site_span(p, site)));
        };
        push_pick(picks, site, pick);
        let resume = bind(p, &p.turn, pc, &mut lv.st, &mut lv.fr, pick);
        match run(p, &p.turn, &mut lv.st, &mut lv.fr, resume)? {
            Stop::Done => {
                // The run is spent: its position is moved out, not copied.
                if lv.st.same_shape(out) {
                    std::mem::swap(&mut lv.st, out);
                } else {
                    out.copy_from(&lv.st);
                }
                advance(out, players);
                return settle(p, out);
            }
            Stop::Fork(next) => {
                if p.sites.get(site_at(&p.turn, next) as usize).is_some_and(|s| s.chance) {
                    pc = next;
                    continue;
                }
                // The mover decides next: the turn under way, as a position.
                let events = events(p, prefix, picks);
                return under_way(searched, out, events, false);
            }
            Stop::Fail(span) => {
                return Err(RunError::new(
                    "after this chance event the turn cannot go on: a rule fails",
                    span,
                ))
            }
        }
    }
}

/// Runs option `pick` of lazy decision `pc` in `lv` to the end of the
/// turn, and moves the position after it (the turn passed) into `out`.
#[inline]
fn finish_into<const W: usize>(
    p: &Program<W>,
    lv: &mut Level<W>,
    pc: u32,
    pick: Pick<W>,
    players: usize,
    out: &mut Box<State>,
) -> Result<(), RunError> {
    let resume = bind(p, &p.turn, pc, &mut lv.st, &mut lv.fr, pick);
    match run(p, &p.turn, &mut lv.st, &mut lv.fr, resume)? {
        Stop::Done => {}
        Stop::Fail(span) => {
            return Err(RunError::new("internal error: an option of a lazy decision failed", span))
        }
        Stop::Fork(_) => return Err(internal("a lazy decision was followed by another")),
    }
    advance(&mut lv.st, players);
    settle(p, &mut lv.st)?;
    if lv.st.same_shape(out) {
        std::mem::swap(&mut lv.st, out);
    } else {
        out.clone_from(&lv.st);
    }
    Ok(())
}

impl<const W: usize> Successors<W> {
    /// Keeps lazy decision `pc`, met in a lent level, as a member of the
    /// group waiting for its level; `chance`: its options stop at chance.
    fn group_member(
        &mut self,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
        chance: bool,
    ) {
        if self.n_grouped == self.grouped.len() {
            self.grouped.push(Grouped {
                shared: usize::MAX,
                outer: (0, Pick::W(0)),
                pc: 0,
                opts: Box::default(),
                chance: false,
                picks: Vec::new(),
            });
        }
        let g = &mut self.grouped[self.n_grouped];
        g.shared = usize::MAX;
        g.pc = pc;
        g.chance = chance;
        // The lending decision's option: the last pick before this decision.
        g.outer.1 = path.last().map_or(Pick::W(0), |&(_, pick)| pick);
        // The search does not read the options again: traded for this
        // entry's old buffers.
        std::mem::swap(&mut g.opts, opts);
        g.picks.clear();
        if chance {
            g.picks.extend_from_slice(path);
        }
        let n = g.opts.len();
        self.segments.push((Seg::Grouped, self.n_grouped, n));
        self.n_grouped += 1;
        self.total += n;
    }
}

/// Binds the option of the decision that lent grouped decision `g`'s level
/// again (the level holds the last option of that decision explored).
#[inline]
fn rebind<const W: usize>(
    p: &Program<W>,
    lv: &mut Level<W>,
    g: &Grouped<W>,
) -> Result<(), RunError> {
    let (outer, pick) = g.outer;
    // The run from there meets the decision at once (`SiteInfo::groups`).
    if bind(p, &p.turn, outer, &mut lv.st, &mut lv.fr, pick) != g.pc {
        return Err(internal("a grouped decision is not where its group's option leads"));
    }
    Ok(())
}

/// Appends a decision's pick to a choice path. The pick is written on
/// its own, over a constant pushed first: the pair built on the stack and
/// copied whole was read back in two loads that each straddle the wider
/// store that wrote the pick (a stalled store forwarding, at every option
/// of every search; 3-4% of Bug Off!'s playouts).
#[inline(always)]
pub(crate) fn push_pick<const W: usize>(path: &mut Vec<(u16, Pick<W>)>, site: u16, pick: Pick<W>) {
    path.push((site, Pick::W(0)));
    if let Some(last) = path.last_mut() {
        last.1 = pick;
    }
}

/// Runs option `pick` of decision `fork`, all of whose options stop at
/// chance, in `lv` to its chance event (returned), the pick added to
/// `picks`.
#[inline]
fn to_chance<const W: usize>(
    p: &Program<W>,
    lv: &mut Level<W>,
    fork: u32,
    pick: Pick<W>,
    picks: &mut Vec<(u16, Pick<W>)>,
) -> Result<u32, RunError> {
    push_pick(picks, site_at(&p.turn, fork), pick);
    let resume = bind(p, &p.turn, fork, &mut lv.st, &mut lv.fr, pick);
    match run(p, &p.turn, &mut lv.st, &mut lv.fr, resume)? {
        Stop::Fork(next) if matches!(p.turn.ops.get(next as usize), Some(Op::Reveal { .. })) => {
            Ok(next)
        }
        Stop::Fail(span) => {
            Err(RunError::new("internal error: an option that stops at chance failed", span))
        }
        _ => Err(internal("an option that stops at chance did not")),
    }
}

impl<const W: usize> Successors<W> {
    /// Keeps the turn's events so far and which position was searched,
    /// once per search (the same for every move of the search that stops
    /// at chance).
    fn keep_start(&mut self, at: &ChanceAt<'_>) {
        if self.kept_start {
            return;
        }
        self.kept_start = true;
        self.prefix.clear();
        self.prefix.extend_from_slice(at.prefix);
        self.searched = at.searched;
    }
}

/// `out`, the position searched, as the turn under way after `events`.
fn under_way(
    searched: (u32, u8),
    out: &mut State,
    events: Vec<Choice>,
    chance: bool,
) -> Result<(), RunError> {
    if (out.ply, out.current) != searched {
        return Err(RunError::new(
            "internal error: a move was played on another position than the one searched",
            Default::default(),
        ));
    }
    out.pending = Some(Box::new(Pending { events, chance }));
    Ok(())
}

impl<const W: usize> Successors<W> {
    /// Keeps a decision's options unrun for [`Successors::draw`] (`None`
    /// when not drawing): a drawn decision's (pass 15), or pass 54's
    /// candidates (`unfiltered`), whose filter is asked as each is drawn.
    fn keep_drawn(
        &mut self,
        fork: &mut Level<W>,
        pc: u32,
        opts: &mut Box<Options<W>>,
        unfiltered: bool,
    ) -> Result<Option<bool>, RunError> {
        if !self.draw {
            return Ok(None);
        }
        // The fork is swapped out of the search, as for a lazy decision.
        if self.n_drawn < self.drawn.len() {
            let f = &mut self.drawn[self.n_drawn];
            if f.0.same_shape(fork) {
                std::mem::swap(&mut f.0, fork);
            } else {
                f.0.copy_from(fork);
            }
            f.1 = pc;
            // The search does not read the options again either: they
            // are traded for this entry's old buffers.
            std::mem::swap(&mut f.2, opts);
        } else {
            self.drawn.push((fork.clone(), pc, std::mem::take(opts)));
        }
        match self.unfiltered.get_mut(self.n_drawn) {
            Some(u) => *u = unfiltered,
            None => self.unfiltered.push(unfiltered),
        }
        self.candidates += self.drawn[self.n_drawn].2.len();
        self.n_drawn += 1;
        Ok(Some(true))
    }
}

impl<const W: usize> Sink<W> for Successors<W> {
    fn done_reads_path(&self) -> bool {
        false
    }

    fn groups(&self) -> bool {
        true
    }

    fn lazy_lent(
        &mut self,
        _: &Program<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
    ) -> Result<bool, RunError> {
        self.group_member(pc, path, opts, false);
        Ok(true)
    }

    fn lazy_chance_lent(
        &mut self,
        p: &Program<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
        at: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        if !self.keep_picks(|| site_at(&p.turn, pc), path.len()) {
            return Ok(true);
        }
        self.keep_start(at);
        self.group_member(pc, path, opts, true);
        Ok(true)
    }

    fn group_end(&mut self, _: &Program<W>, lv: &mut Level<W>, pc: u32) -> Result<(), RunError> {
        if self.waiting == self.n_grouped {
            return Ok(());
        }
        let k = self.n_shared;
        match self.shared.get_mut(k) {
            Some(s) if s.same_shape(lv) => std::mem::swap(s, lv),
            Some(s) => **s = (**lv).clone(),
            None => self.shared.push(lv.clone()),
        }
        self.n_shared += 1;
        for g in &mut self.grouped[self.waiting..self.n_grouped] {
            g.shared = k;
            g.outer.0 = pc;
        }
        self.waiting = self.n_grouped;
        Ok(())
    }

    fn drawn(
        &mut self,
        _: &Program<W>,
        fork: &mut Level<W>,
        pc: u32,
        opts: &mut Box<Options<W>>,
    ) -> Result<Option<bool>, RunError> {
        self.keep_drawn(fork, pc, opts, false)
    }

    fn draws(&self) -> bool {
        self.draw
    }

    fn drawn_filtered(
        &mut self,
        _: &Program<W>,
        fork: &mut Level<W>,
        pc: u32,
        opts: &mut Box<Options<W>>,
    ) -> Result<Option<bool>, RunError> {
        self.keep_drawn(fork, pc, opts, true)
    }

    fn lazy_chance(
        &mut self,
        p: &Program<W>,
        fork: &mut Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
        at: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        if !self.keep_picks(|| site_at(&p.turn, pc), path.len()) {
            return Ok(true);
        }
        self.keep_start(at);
        // The fork is swapped out of the search (which does not read it
        // again), as for a lazy decision.
        let n = opts.len();
        if self.n_lazy_chances == self.lazy_chances.len() {
            self.lazy_chances.push((fork.clone(), pc, std::mem::take(opts), path.to_vec()));
        } else {
            let f = &mut self.lazy_chances[self.n_lazy_chances];
            if f.0.same_shape(fork) {
                std::mem::swap(&mut f.0, fork);
            } else {
                f.0.copy_from(fork);
            }
            f.1 = pc;
            // The options too: traded for this entry's old buffers.
            std::mem::swap(&mut f.2, opts);
            f.3.clear();
            f.3.extend_from_slice(path);
        }
        self.segments.push((Seg::LazyChance, self.n_lazy_chances, n));
        self.n_lazy_chances += 1;
        self.total += n;
        Ok(true)
    }

    fn chance(
        &mut self,
        _: &Program<W>,
        stop: &mut Level<W>,
        pc: u32,
        path: &[(u16, Pick<W>)],
        at: &ChanceAt<'_>,
    ) -> Result<bool, RunError> {
        if !self.keep_picks(|| last_site(path), path.len()) {
            return Ok(true);
        }
        // Keep the run itself, to go on from the stop without a replay: it
        // is swapped out of the search (which does not read it again).
        if self.n_chances == self.chances.len() {
            self.chances.push((stop.clone(), pc, Vec::new()));
        } else if self.chances[self.n_chances].0.same_shape(stop) {
            std::mem::swap(&mut self.chances[self.n_chances].0, stop);
        } else {
            self.chances[self.n_chances].0.copy_from(stop);
        }
        let c = &mut self.chances[self.n_chances];
        c.1 = pc;
        c.2.clear();
        c.2.extend_from_slice(path);
        self.keep_start(at);
        self.segments.push((Seg::Chance, self.n_chances, 1));
        self.n_chances += 1;
        self.total += 1;
        Ok(true)
    }

    fn done(
        &mut self,
        p: &Program<W>,
        st: &mut Box<State>,
        _: &[(u16, Pick<W>)],
    ) -> Result<bool, RunError> {
        // A game whose turns may begin with chance passes the turn and
        // settles here (settling may raise the next turn's error, as
        // before a move is offered); in the others only the position
        // played passes the turn, in `result`.
        if p.chance_first {
            return self.done_settled(p, st);
        }
        // The search does not read a finished run's position again (the
        // next option is copied over it), so it is swapped out, not copied:
        // the common case, in line; the others out of it.
        match (self.states.get_mut(self.n_states), self.segments.last_mut()) {
            (Some(s), Some((Seg::Done, _, n))) if s.same_shape(st) => {
                std::mem::swap(s, st);
                *n += 1;
                self.n_states += 1;
                self.total += 1;
                Ok(true)
            }
            _ => self.done_kept(st),
        }
    }

    fn lazy(
        &mut self,
        _: &Program<W>,
        fork: &mut Level<W>,
        pc: u32,
        _: &[(u16, Pick<W>)],
        opts: &mut Box<Options<W>>,
    ) -> Result<bool, RunError> {
        if self.n_forks < self.forks.len() {
            let f = &mut self.forks[self.n_forks];
            if f.0.same_shape(fork) {
                std::mem::swap(&mut f.0, fork);
            } else {
                f.0.copy_from(fork);
            }
            f.1 = pc;
            // The options too: traded for this entry's old buffers.
            std::mem::swap(&mut f.2, opts);
        } else {
            self.forks.push((fork.clone(), pc, std::mem::take(opts)));
        }
        let n = self.forks[self.n_forks].2.len();
        self.segments.push((Seg::Lazy, self.n_forks, n));
        self.n_forks += 1;
        self.total += n;
        Ok(true)
    }
}

impl<const W: usize> Successors<W> {
    /// [`Sink::done`] of a game whose turns may begin with chance: the
    /// turn passed and the position settled first.
    #[inline(never)]
    fn done_settled(&mut self, p: &Program<W>, st: &mut Box<State>) -> Result<bool, RunError> {
        advance(st, self.players);
        settle(p, st)?;
        self.done_kept(st)
    }

    /// [`Sink::done`]'s keeping of the finished position `st` (swapped
    /// out where an entry of the same shape is free), and its count.
    #[inline(never)]
    fn done_kept(&mut self, st: &mut Box<State>) -> Result<bool, RunError> {
        match self.states.get_mut(self.n_states) {
            Some(s) if s.same_shape(st) => std::mem::swap(s, st),
            Some(s) => s.as_mut().clone_from(st),
            None => self.states.push(st.clone()),
        }
        match self.segments.last_mut() {
            Some((Seg::Done, _, n)) => *n += 1,
            _ => self.segments.push((Seg::Done, self.n_states, 1)),
        }
        self.n_states += 1;
        self.total += 1;
        Ok(true)
    }
}

/// Runs a block that may not ask for decisions (`setup`, `on no moves`,
/// `at end`) on `st`.
pub fn run_plain<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    st: &mut State,
    what: &str,
) -> Result<(), RunError> {
    let mut fr = p.new_frame();
    match run(p, block, st, &mut fr, 0)? {
        Stop::Done => Ok(()),
        Stop::Fail(span) => Err(RunError::new(format!("{what} could not be carried out"), span)),
        Stop::Fork(_) => {
            Err(RunError::new(format!("{what} cannot ask for decisions"), Default::default()))
        }
    }
}

/// Plays the move with `choices` from `st` (a turn under way goes on from
/// its events): the turn runs to its end, or to a chance event right after
/// the move's last decision. A move that fails, or stops before the turn
/// is complete, is an error at the failing rule (or at `turn_span`).
pub fn play<const W: usize>(
    p: &Program<W>,
    st: &mut State,
    choices: &[Choice],
    turn_span: crate::source::Span,
) -> Result<(), RunError> {
    let mut fr = p.new_frame();
    let illegal = |span| RunError::new("this move is not legal in this position", span);
    let events = st.pending.take().map_or_else(Vec::new, |pd| pd.events);
    let start = p.has_chance.then(|| st.clone());
    let mut pc = replay_events(p, st, &mut fr, &events)?;
    let mut i = 0;
    loop {
        match run(p, &p.turn, st, &mut fr, pc)? {
            Stop::Done => {
                advance(st, p.t.players);
                return settle(p, st);
            }
            Stop::Fail(span) => return Err(illegal(span)),
            Stop::Fork(at) => {
                let chance = p.sites.get(site_at(&p.turn, at) as usize).is_some_and(|s| s.chance);
                let Some(c) = choices.get(i) else {
                    if chance {
                        let mut all = events;
                        all.extend_from_slice(choices);
                        if let Some(start) = start {
                            *st = start;
                        }
                        st.pending = Some(Box::new(Pending { events: all, chance: true }));
                        return Ok(());
                    }
                    return Err(RunError::new(
                        "the move stops before the turn is complete",
                        turn_span,
                    ));
                };
                if chance {
                    return Err(RunError::new(
                        "the move goes on past a chance event",
                        p.sites.get(site_at(&p.turn, at) as usize).map_or(turn_span, |s| s.span),
                    ));
                }
                i += 1;
                match take_choice(p, &p.turn, at, st, &mut fr, c)? {
                    Ok(next) => pc = next,
                    Err(span) => return Err(illegal(span)),
                }
            }
        }
    }
}

/// Replays a turn's events (decisions and chance outcomes) from its start
/// in `st`/`fr`; returns the op where the run stands after the last one.
pub fn replay_events<const W: usize>(
    p: &Program<W>,
    st: &mut State,
    fr: &mut Frame<W>,
    events: &[Choice],
) -> Result<u32, RunError> {
    let mut pc = 0;
    for c in events {
        match run(p, &p.turn, st, fr, pc)? {
            Stop::Fork(at) => match take_choice(p, &p.turn, at, st, fr, c)? {
                Ok(next) => pc = next,
                Err(span) => {
                    return Err(RunError::new(
                        "the turn under way does not replay (an event does not fit)",
                        span,
                    ))
                }
            },
            Stop::Done | Stop::Fail(_) => {
                return Err(RunError::new(
                    "the turn under way ended before its last event",
                    Default::default(),
                ))
            }
        }
    }
    Ok(pc)
}

/// Settles a position at the start of a turn: if the turn begins with a
/// chance event (before any decision), the position becomes that chance
/// node, with the turn's effects so far applied.
#[inline]
pub fn settle<const W: usize>(p: &Program<W>, st: &mut State) -> Result<(), RunError> {
    if !p.chance_first {
        return Ok(());
    }
    settle_in(p, st, &mut None)
}

/// [`settle`], running in `scratch` (see [`fresh`]).
pub fn settle_in<const W: usize>(
    p: &Program<W>,
    st: &mut State,
    scratch: &mut Option<Level<W>>,
) -> Result<(), RunError> {
    if !p.chance_first || st.outcome.is_some() || st.pending.is_some() {
        return Ok(());
    }
    let LevelData { st: t, fr } = &mut **fresh(p, scratch, st);
    if let Stop::Fork(at) = run(p, &p.turn, t, fr, 0)? {
        if p.sites.get(site_at(&p.turn, at) as usize).is_some_and(|s| s.chance) {
            st.pending = Some(Box::new(Pending { events: Vec::new(), chance: true }));
        }
    }
    Ok(())
}

/// A position (a copy of `st`) and a frame to run a turn in, in `slot`:
/// made on first use and kept by the caller from one run to the next
/// (perft over chance nodes asks for their outcomes and resolves them at
/// every node), so that a run makes no new frame or position.
pub fn fresh<'a, const W: usize>(
    p: &Program<W>,
    slot: &'a mut Option<Level<W>>,
    st: &State,
) -> &'a mut Level<W> {
    let lv = match slot {
        Some(lv) => {
            if lv.st.same_shape(st) {
                lv.st.copy_unpending(st);
            } else {
                lv.st.as_mut().clone_from(st);
            }
            let fr = &mut lv.fr;
            fr.epoch += 1;
            fr.steps = 0;
            fr.err = None;
            lv
        }
        None => slot.insert(Box::new(LevelData { st: Box::new(st.clone()), fr: p.new_frame() })),
    };
    lv.st.pending = None;
    lv
}

/// The outcomes of the chance event a chance node waits for, with weights
/// (the probability of each is its weight over the sum).
pub fn chance_outcomes<const W: usize>(
    p: &Program<W>,
    st: &State,
) -> Result<Vec<(Choice, u32)>, RunError> {
    let mut out = Vec::new();
    chance_outcomes_in(p, st, &mut None, &mut Options::default(), &mut out)?;
    Ok(out)
}

/// [`chance_outcomes`] into `out` (cleared first), running in `scratch`
/// (see [`fresh`]) and listing into `opts`.
pub fn chance_outcomes_in<const W: usize>(
    p: &Program<W>,
    st: &State,
    scratch: &mut Option<Level<W>>,
    opts: &mut Options<W>,
    out: &mut Vec<(Choice, u32)>,
) -> Result<(), RunError> {
    out.clear();
    let Some(pd) = st.pending.as_deref().filter(|pd| pd.chance) else { return Ok(()) };
    let LevelData { st: t, fr } = &mut **fresh(p, scratch, st);
    let pc = replay_events(p, t, fr, &pd.events)?;
    let Stop::Fork(at) = run(p, &p.turn, t, fr, pc)? else { return Ok(()) };
    let site = site_at(&p.turn, at);
    if pd.events.len() >= DECISION_LIMIT {
        // A chance event after as many as a turn may meet.
        return Err(too_deep(p, site));
    }
    options(p, &p.turn, at, t, fr, opts)?;
    out.extend((0..opts.len()).map(|i| {
        let w = opts.weights.get(i).copied().unwrap_or(1);
        (super::machine::choice_of(p, site, opts.get(i)), w)
    }));
    Ok(())
}

/// Resolves the chance event of chance node `st` with `outcome`: the turn
/// goes on to its next chance event, the mover's next decision, or its
/// end (then the next turn begins, settled).
pub fn resolve<const W: usize>(
    p: &Program<W>,
    st: &mut State,
    outcome: &Choice,
) -> Result<(), RunError> {
    resolve_in(p, st, outcome, &mut None)
}

/// [`resolve`], running in `scratch` (see [`fresh`]).
pub fn resolve_in<const W: usize>(
    p: &Program<W>,
    st: &mut State,
    outcome: &Choice,
    scratch: &mut Option<Level<W>>,
) -> Result<(), RunError> {
    if st.pending.as_ref().is_some_and(|pd| pd.events.len() >= DECISION_LIMIT) {
        // As `chance_outcomes_in` refuses it.
        return Err(too_deep(p, outcome.site));
    }
    let Some(mut pd) = st.pending.take() else { return Ok(()) };
    pd.events.push(*outcome);
    let lv = fresh(p, scratch, st);
    let pc = replay_events(p, &mut lv.st, &mut lv.fr, &pd.events)?;
    match run(p, &p.turn, &mut lv.st, &mut lv.fr, pc)? {
        Stop::Done => {
            // The scratch position keeps the old one (not read again).
            std::mem::swap(st, &mut lv.st);
            advance(st, p.t.players);
            settle_in(p, st, scratch)
        }
        Stop::Fork(at) => {
            pd.chance = p.sites.get(site_at(&p.turn, at) as usize).is_some_and(|s| s.chance);
            st.pending = Some(pd);
            Ok(())
        }
        Stop::Fail(span) => {
            Err(RunError::new("after this chance event the turn cannot go on: a rule fails", span))
        }
    }
}

/// Runs a block that may have chance events but no decisions (`setup`),
/// deciding each chance event with `rng` (each outcome with its weight).
pub fn run_sampled<const W: usize>(
    p: &Program<W>,
    block: &crate::compile::Block<W>,
    st: &mut State,
    rng: &mut crate::rng::Rng,
    what: &str,
) -> Result<(), RunError> {
    let mut fr = p.new_frame();
    let stop = run(p, block, st, &mut fr, 0)?;
    sample_on(p, block, st, &mut fr, stop, rng, what)
}

/// The run of `setup` from `st` (the empty position) up to its first
/// chance event, or to its end: what every deal has in common. `None`
/// when that run fails.
pub fn setup_prefix<const W: usize>(
    p: &Program<W>,
    mut st: State,
) -> Option<crate::compile::SetupPrefix<W>> {
    let mut fr = p.new_frame();
    let at = match run(p, &p.setup, &mut st, &mut fr, 0) {
        Ok(Stop::Done) => None,
        Ok(Stop::Fork(at)) => Some(at),
        Ok(Stop::Fail(_)) | Err(_) => return None,
    };
    Some(crate::compile::SetupPrefix { st, fr, at, frames: Default::default() })
}

/// Goes on with a run of `block` (without decisions) that stopped with
/// `stop`, deciding each chance event with `rng` (see [`sample`]).
pub fn sample_on<const W: usize>(
    p: &Program<W>,
    block: &crate::compile::Block<W>,
    st: &mut State,
    fr: &mut crate::compile::Frame<W>,
    mut stop: Stop,
    rng: &mut crate::rng::Rng,
    what: &str,
) -> Result<(), RunError> {
    let mut opts = Options::default();
    loop {
        let at = match stop {
            Stop::Done => return Ok(()),
            Stop::Fail(span) => {
                return Err(RunError::new(format!("{what} could not be carried out"), span))
            }
            Stop::Fork(at) => at,
        };
        let site = site_at(block, at);
        if !p.sites.get(site as usize).is_some_and(|s| s.chance) {
            return Err(RunError::new(
                format!("{what} cannot ask for decisions"),
                Default::default(),
            ));
        }
        let Some(pick) = sample(p, block, at, st, fr, &mut opts, rng)? else {
            return Err(RunError::new(
                format!("{what}: a chance event has no outcome"),
                site_span(p, site),
            ));
        };
        let pc = bind(p, block, at, st, fr, pick);
        stop = run(p, block, st, fr, pc)?;
    }
}

/// Decides the chance event at op `at` with `rng`: a face-down piece is
/// drawn directly ([`sample_reveal`]), other events list their outcomes
/// (into `opts`) and pick one by its weight — the same outcome from the
/// same random number either way. `None` when the event has no outcome.
#[inline]
pub fn sample<const W: usize>(
    p: &Program<W>,
    block: &Block<W>,
    at: u32,
    st: &mut State,
    fr: &mut Frame<W>,
    opts: &mut Options<W>,
    rng: &mut crate::rng::Rng,
) -> Result<Option<Pick<W>>, RunError> {
    if let Some(k) = sample_reveal(p, block, at, st, fr, rng)? {
        return Ok(Some(Pick::W(k)));
    }
    options(p, block, at, st, fr, opts)?;
    Ok(crate::rng::pick_weighted(&opts.weights, opts.len(), rng).map(|i| opts.get(i)))
}

/// Searchers per board width, per thread, kept from one question to the
/// next (move lists, whether the game is over, perft): a new searcher
/// makes new frames, and with them the tables of remembered conditions,
/// which cost more to make than a small search and start empty.
#[derive(Default)]
pub struct Searchers {
    w1: Option<(u64, Vec<Searcher<1>>)>,
    w2: Option<(u64, Vec<Searcher<2>>)>,
    w4: Option<(u64, Vec<Searcher<4>>)>,
}

/// The slot of [`Searchers`] for a board width.
pub trait SearcherSlot: Sized {
    /// The slot for this width.
    fn slot(c: &mut Searchers) -> &mut Option<(u64, Vec<Self>)>;
}

impl SearcherSlot for Searcher<1> {
    fn slot(c: &mut Searchers) -> &mut Option<(u64, Vec<Self>)> {
        &mut c.w1
    }
}

impl SearcherSlot for Searcher<2> {
    fn slot(c: &mut Searchers) -> &mut Option<(u64, Vec<Self>)> {
        &mut c.w2
    }
}

impl SearcherSlot for Searcher<4> {
    fn slot(c: &mut Searchers) -> &mut Option<(u64, Vec<Self>)> {
        &mut c.w4
    }
}

thread_local! {
    static SEARCHERS: std::cell::RefCell<Searchers> = std::cell::RefCell::default();
}

/// Calls `f` with this thread's stack of searchers for program `p` (kept
/// from one call to the next; an empty one for another program, or when
/// `f` asks again from inside).
pub fn with_searchers<const W: usize, R>(
    p: &Program<W>,
    f: impl FnOnce(&mut Vec<Searcher<W>>) -> R,
) -> R
where
    Searcher<W>: SearcherSlot,
{
    SEARCHERS.with(|c| match c.try_borrow_mut() {
        Ok(mut c) => {
            let slot = <Searcher<W> as SearcherSlot>::slot(&mut c);
            if slot.as_ref().is_none_or(|(id, _)| *id != p.id) {
                *slot = Some((p.id, Vec::new()));
            }
            match slot {
                Some((_, v)) => f(v),
                None => f(&mut Vec::new()),
            }
        }
        Err(_) => f(&mut Vec::new()),
    })
}

/// Calls `f` with this thread's first searcher for program `p` (see
/// [`with_searchers`]).
pub fn with_searcher<const W: usize, R>(p: &Program<W>, f: impl FnOnce(&mut Searcher<W>) -> R) -> R
where
    Searcher<W>: SearcherSlot,
{
    with_searchers(p, |v| {
        if v.is_empty() {
            v.push(Searcher::default());
        }
        match v.first_mut() {
            Some(s) => f(s),
            None => f(&mut Searcher::default()),
        }
    })
}
