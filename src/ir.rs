//! The checked, resolved game: what `check` produces and `eval` runs.
//!
//! Names are gone: locals are slots in one flat frame, pieces, players,
//! zones and properties are small integers, `def`s and `action`s are
//! inlined at their call sites (so they may be used at any argument types,
//! and recursion is rejected by the checker). A value of [`Game`] can only be
//! built by `check`, which guarantees that every id is in range and every
//! expression is well typed.

#![allow(missing_docs)] // variant fields are named for their surface syntax

use crate::board::{Board, CellId, CellSet};
use crate::source::{Source, Span};

/// Who may see the contents of a zone (everybody always sees its size).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// Everybody (the default).
    Public,
    /// `owner`: only the player it belongs to.
    Owner,
    /// `hidden`: nobody (e.g. a face-down deck).
    Hidden,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `not`
    Not,
    /// `-`
    Neg,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

/// Quantifiers: `any x in D: P` and friends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quant {
    /// `any x in D: P`
    Any,
    /// `all x in D: P`
    All,
    /// `none x in D: P`
    None,
    /// `count x in D[: P]`
    Count,
    /// `sum x in D: E`
    Sum,
    /// `max x in D: E` (0 for an empty domain)
    Max,
    /// `min x in D: E` (0 for an empty domain)
    Min,
    /// `collect x in D[: E]`
    Collect,
}

/// A local variable's index in the evaluation frame.
pub type Slot = u16;

/// Types of the expression language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// Whole numbers.
    Int,
    /// `true` / `false`.
    Bool,
    /// A board cell, or `none` (off the board).
    Cell,
    /// A player, or `none`.
    Player,
    /// A piece kind, or `none`.
    Kind,
    /// A direction.
    Dir,
    /// A straight line of cells.
    Line,
    /// A set of cells.
    Cells,
    /// A zone of one player (or a shared zone).
    Zone,
    /// All directions.
    Dirs,
    /// All piece kinds.
    Kinds,
    /// All players.
    Players,
    /// All lines of one length.
    Lines,
    /// The groups of one player (each a set of cells).
    Groups,
    /// The placements of a tile (each a set of cells).
    Placements,
    /// A range of numbers.
    Ints,
    /// The `none` literal before it meets a type.
    None,
    /// After an error (suppresses follow-up errors).
    Error,
}

impl Ty {
    /// The type of the elements when iterating a value of this type.
    pub fn elem(self) -> Option<Ty> {
        match self {
            Ty::Cells | Ty::Line => Some(Ty::Cell),
            Ty::Dirs => Some(Ty::Dir),
            Ty::Kinds | Ty::Zone => Some(Ty::Kind),
            Ty::Players => Some(Ty::Player),
            Ty::Lines => Some(Ty::Line),
            Ty::Groups | Ty::Placements => Some(Ty::Cells),
            Ty::Ints => Some(Ty::Int),
            Ty::Error => Some(Ty::Error),
            _ => None,
        }
    }

    /// The name users see.
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "number",
            Ty::Bool => "condition",
            Ty::Cell => "cell",
            Ty::Player => "player",
            Ty::Kind => "piece kind",
            Ty::Dir => "direction",
            Ty::Line => "line",
            Ty::Cells => "set of cells",
            Ty::Zone => "zone",
            Ty::Dirs => "set of directions",
            Ty::Kinds => "set of piece kinds",
            Ty::Players => "set of players",
            Ty::Lines => "set of lines",
            Ty::Groups => "set of groups",
            Ty::Placements => "set of placements",
            Ty::Ints => "range of numbers",
            Ty::None => "`none`",
            Ty::Error => "unknown",
        }
    }
}

/// The "no player" / "no kind" sentinel.
pub const NONE8: u8 = u8::MAX;
/// The "no kind" sentinel.
pub const NONE16: u16 = u16::MAX;

/// A run-time value. `Copy`, no heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// A number.
    Int(i64),
    /// A condition.
    Bool(bool),
    /// A cell ([`crate::board::NO_CELL`] for `none`).
    Cell(CellId),
    /// A player ([`NONE8`] for `none`).
    Player(u8),
    /// A piece kind ([`NONE16`] for `none`).
    Kind(u16),
    /// A direction.
    Dir(u8),
    /// A line id.
    Line(u32),
    /// A set of cells.
    Cells(CellSet),
    /// A zone and its player (0 for shared zones).
    Zone(u16, u8),
    /// All directions.
    Dirs,
    /// All piece kinds.
    Kinds,
    /// All players.
    Players,
    /// Line ids `start..end`.
    Lines(u32, u32),
    /// The groups of a player.
    Groups(u8),
    /// Every placement of a tile kind.
    Placements(u16),
    /// The numbers `a..=b`.
    Range(i64, i64),
    /// A literal list of kinds (`Game::lists`).
    KindList(u32),
    /// A literal list of players.
    PlayerList(u32),
    /// A literal list of directions.
    DirList(u32),
    /// A literal list of numbers.
    IntList(u32),
}

/// Built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// `empty(c)`: on the board and no piece there.
    Empty,
    /// `occupied(c)`: on the board and holding a piece.
    Occupied,
    /// `off(c)`: `c` is `none`.
    Off,
    /// `owner(c)`: the player owning the piece on `c`, or `none`.
    Owner,
    /// `kind(c)`: the kind of the piece on `c`, or `none`.
    KindOf,
    /// `step(c, d)`: the neighbour of `c` in direction `d`, or `none`.
    Step,
    /// `neighbours(c)`: the cells next to `c`.
    Neighbours,
    /// `pieces(p)`: the cells holding `p`'s pieces.
    Pieces,
    /// `count(z, k)`: pieces of kind `k` in zone `z`.
    CountKind,
    /// `count(z)`: all pieces in zone `z`.
    CountAll,
    /// `size(s)`: number of cells in a set or line.
    Size,
    /// `contains(s, c)`: whether the set or line holds `c`.
    Contains,
    /// `next(p)`: the player after `p` in seat order.
    Next,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `abs(a)`
    Abs,
    /// `cells`: every cell.
    AllCells,
    /// `neighbours(s)` of a set: cells next to some cell of `s`, outside `s`.
    NeighboursOf,
    /// A cell as a one-cell set (implicit).
    Singleton,
    /// A line as a set of cells (implicit).
    LineCells,
    /// `group(c)`: the connected group of same-owner pieces containing `c`.
    Group,
    /// `groups(p)`: every group of `p`'s pieces.
    Groups,
    /// `touches(a, b)`: some cell of `a` is next to some cell of `b`.
    Touches,
    /// `same_shape(a, b)`: equal up to translation, rotation and reflection.
    SameShape,
    /// `union(a, b)`
    Union,
    /// `intersect(a, b)`
    Intersect,
    /// `minus(a, b)`
    Minus,
    /// `file(c)`: the column of `c`, from 1.
    File,
    /// `rank(c)`: the row of `c`, from 1.
    Rank,
    /// `cell(file, rank)`: the cell at that column and row, or `none`.
    CellAt,
    /// `placements(t)`: every way tile kind `t` fits on the board.
    Placements,
    /// `first(z)`: the first piece of an ordered zone, or `none`.
    First,
    /// `last(z)`: the last piece of an ordered zone, or `none`.
    Last,
    /// `range(a, b)`: the numbers from `a` to `b`.
    Range,
    /// `ply`: the number of turns played so far.
    Ply,
    /// `ray(c, d)`: the cells from `c`'s neighbour in direction `d` on.
    Ray,
    /// `upto(l)`: `l` up to and including its first occupied cell.
    UpTo,
    /// `before(l)`: `l` up to its first occupied cell (not included).
    Before,
    /// `first(l)` of a line: its first cell, or `none`.
    LineFirst,
    /// `last(l)` of a line: its last cell, or `none`.
    LineLast,
    /// `l[i]`: the `i`-th cell of a line (from 1), or `none`.
    LineAt,
    /// `first(s)` of a set: its first cell in cell order, or `none`.
    SetFirst,
    /// `last(s)` of a set: its last cell in cell order, or `none`.
    SetLast,
    /// `[a, b, ...]` of cells, lines and sets: their cells (none left out).
    SetOf,
    /// `x in D` for a collection of words (kinds, players, ...).
    In,
    /// `repetitions`: how often the position as it stands (the turn
    /// passed on) has begun a turn, counting this time.
    Repetitions,
    /// `if C then A else B`: only the branch taken is evaluated; its type
    /// is the branches' type.
    Cond,
}

/// A checked expression.
#[derive(Debug, Clone)]
pub enum Expr {
    /// A constant.
    Const(Value),
    /// A local (the span is where it is used, for explanations).
    Local(Slot, Span),
    /// `me`: the player whose turn it is.
    Me,
    /// `not e`, `-e`
    Unary(UnOp, Box<Expr>),
    /// Binary operators.
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
    /// A built-in function.
    Builtin(Builtin, Box<[Expr]>, Span),
    /// A piece property: `strength(k)`.
    Prop(u16, Box<Expr>, Span),
    /// A zone: `pool(p)` or a shared `discard`.
    Zone(u16, Option<Box<Expr>>),
    /// `lines(k)` with a constant `k`.
    Lines(u32, u32),
    /// An inlined `def`: bind the arguments, then evaluate the body.
    Inline(Box<[(Slot, Expr)]>, Box<Expr>, Span),
    /// `any x in D where C: P` and friends.
    Quant {
        quant: Quant,
        slot: Slot,
        domain: Box<Expr>,
        filter: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
        span: Span,
    },
    /// A variable kept in the position (`Game::vars`), of a player when
    /// it is per player.
    Var(u16, Ty, Option<Box<Expr>>),
}

impl Builtin {
    /// The type of the result (given the types of the arguments where it
    /// depends on them: `none` of them does today).
    pub fn ty(self) -> Ty {
        use Builtin as B;
        match self {
            B::Empty | B::Occupied | B::Off | B::Contains | B::Touches | B::SameShape => Ty::Bool,
            B::Owner | B::Next => Ty::Player,
            B::KindOf | B::First | B::Last => Ty::Kind,
            B::Step
            | B::CellAt
            | B::LineFirst
            | B::LineLast
            | B::LineAt
            | B::SetFirst
            | B::SetLast => Ty::Cell,
            B::Ray | B::UpTo | B::Before => Ty::Line,
            // The branches' type: see `Expr::ty`.
            B::Cond => Ty::Error,
            B::In => Ty::Bool,
            B::Repetitions => Ty::Int,
            B::SetOf => Ty::Cells,
            B::Neighbours
            | B::Pieces
            | B::AllCells
            | B::NeighboursOf
            | B::Singleton
            | B::LineCells
            | B::Group
            | B::Union
            | B::Intersect
            | B::Minus => Ty::Cells,
            B::CountKind
            | B::CountAll
            | B::Size
            | B::Min
            | B::Max
            | B::Abs
            | B::File
            | B::Rank
            | B::Ply => Ty::Int,
            B::Groups => Ty::Groups,
            B::Placements => Ty::Placements,
            B::Range => Ty::Ints,
        }
    }
}

impl Value {
    /// The type of a value.
    pub fn ty(&self) -> Ty {
        match self {
            Value::Int(_) => Ty::Int,
            Value::Bool(_) => Ty::Bool,
            Value::Cell(_) => Ty::Cell,
            Value::Player(_) => Ty::Player,
            Value::Kind(_) => Ty::Kind,
            Value::Dir(_) => Ty::Dir,
            Value::Line(_) => Ty::Line,
            Value::Cells(_) => Ty::Cells,
            Value::Zone(..) => Ty::Zone,
            Value::Dirs => Ty::Dirs,
            Value::Kinds => Ty::Kinds,
            Value::Players => Ty::Players,
            Value::Lines(..) => Ty::Lines,
            Value::Groups(_) => Ty::Groups,
            Value::Placements(_) => Ty::Placements,
            Value::Range(..) | Value::IntList(_) => Ty::Ints,
            Value::KindList(_) => Ty::Kinds,
            Value::PlayerList(_) => Ty::Players,
            Value::DirList(_) => Ty::Dirs,
        }
    }
}

impl Expr {
    /// The type of this expression; `slot_tys` is [`Game::slot_tys`].
    /// Every node's type follows from its form and its children, so the
    /// checked IR carries types without storing them in each node.
    pub fn ty(&self, slot_tys: &[Ty]) -> Ty {
        match self {
            Expr::Const(v) => v.ty(),
            Expr::Local(s, _) => slot_tys.get(*s as usize).copied().unwrap_or(Ty::Error),
            Expr::Me => Ty::Player,
            Expr::Unary(UnOp::Not, _) => Ty::Bool,
            Expr::Unary(UnOp::Neg, _) => Ty::Int,
            Expr::Binary(op, ..) => match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => Ty::Int,
                _ => Ty::Bool,
            },
            Expr::Builtin(Builtin::Cond, args, _) => args[1].ty(slot_tys),
            Expr::Builtin(f, ..) => f.ty(),
            Expr::Prop(..) => Ty::Int,
            Expr::Zone(..) => Ty::Zone,
            Expr::Lines(..) => Ty::Lines,
            Expr::Var(_, ty, _) => *ty,
            Expr::Inline(_, body, _) => body.ty(slot_tys),
            Expr::Quant { quant, .. } => match quant {
                Quant::Any | Quant::All | Quant::None => Ty::Bool,
                Quant::Count | Quant::Sum | Quant::Max | Quant::Min => Ty::Int,
                Quant::Collect => Ty::Cells,
            },
        }
    }
    /// Calls `f` on each expression directly inside this one.
    pub fn children(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Expr::Const(_) | Expr::Me | Expr::Lines(..) | Expr::Local(..) => {}
            Expr::Unary(_, a) | Expr::Prop(_, a, _) => f(a),
            Expr::Var(_, _, p) => {
                if let Some(p) = p {
                    f(p);
                }
            }
            Expr::Binary(_, a, b, _) => {
                f(a);
                f(b);
            }
            Expr::Builtin(_, args, _) => args.iter().for_each(f),
            Expr::Zone(_, p) => {
                if let Some(p) = p {
                    f(p);
                }
            }
            Expr::Inline(binds, body, _) => {
                binds.iter().for_each(|(_, e)| f(e));
                f(body);
            }
            Expr::Quant { domain, filter, body, .. } => {
                f(domain);
                if let Some(x) = filter {
                    f(x);
                }
                if let Some(x) = body {
                    f(x);
                }
            }
        }
    }

    /// Calls `f` on each expression directly inside this one, mutably
    /// (the same order as [`Expr::children`]).
    pub fn children_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        match self {
            Expr::Const(_) | Expr::Me | Expr::Lines(..) | Expr::Local(..) => {}
            Expr::Unary(_, a) | Expr::Prop(_, a, _) => f(a),
            Expr::Var(_, _, p) | Expr::Zone(_, p) => {
                if let Some(p) = p {
                    f(p);
                }
            }
            Expr::Binary(_, a, b, _) => {
                f(a);
                f(b);
            }
            Expr::Builtin(_, args, _) => args.iter_mut().for_each(f),
            Expr::Inline(binds, body, _) => {
                binds.iter_mut().for_each(|(_, e)| f(e));
                f(body);
            }
            Expr::Quant { domain, filter, body, .. } => {
                f(domain);
                if let Some(x) = filter {
                    f(x);
                }
                if let Some(x) = body {
                    f(x);
                }
            }
        }
    }

    /// Whether this expression reads the local `slot` anywhere.
    pub fn reads_slot(&self, slot: Slot) -> bool {
        match self {
            Expr::Local(s, _) => *s == slot,
            _ => {
                let mut found = false;
                self.children(&mut |c| found |= c.reads_slot(slot));
                found
            }
        }
    }

    /// Whether every local this expression reads is `var` or bound inside it.
    pub fn reads_only(&self, var: Slot) -> bool {
        fn go(e: &Expr, bound: &mut Vec<Slot>) -> bool {
            match e {
                Expr::Const(_) | Expr::Me | Expr::Lines(..) => true,
                Expr::Local(s, _) => bound.contains(s),
                Expr::Unary(_, a) | Expr::Prop(_, a, _) => go(a, bound),
                Expr::Binary(_, a, b, _) => go(a, bound) && go(b, bound),
                Expr::Builtin(_, args, _) => args.iter().all(|a| go(a, bound)),
                Expr::Zone(_, p) | Expr::Var(_, _, p) => p.as_deref().is_none_or(|p| go(p, bound)),
                Expr::Inline(binds, body, _) => {
                    let n = bound.len();
                    let ok = binds.iter().all(|(s, e)| {
                        let ok = go(e, bound);
                        bound.push(*s);
                        ok
                    }) && go(body, bound);
                    bound.truncate(n);
                    ok
                }
                Expr::Quant { slot, domain, filter, body, .. } => {
                    if !go(domain, bound) {
                        return false;
                    }
                    bound.push(*slot);
                    let ok = filter.as_deref().is_none_or(|f| go(f, bound))
                        && body.as_deref().is_none_or(|b| go(b, bound));
                    bound.pop();
                    ok
                }
            }
        }
        go(self, &mut vec![var])
    }

    /// The source span, for the forms that keep one (default otherwise).
    pub fn span(&self) -> Span {
        match self {
            Expr::Local(_, s)
            | Expr::Builtin(_, _, s)
            | Expr::Prop(_, _, s)
            | Expr::Inline(_, _, s)
            | Expr::Binary(_, _, _, s)
            | Expr::Quant { span: s, .. } => *s,
            _ => Span::default(),
        }
    }

    /// Records where this expression was written (if its form keeps spans).
    pub fn with_span(mut self, at: Span) -> Expr {
        match &mut self {
            Expr::Local(_, s)
            | Expr::Builtin(_, _, s)
            | Expr::Prop(_, _, s)
            | Expr::Inline(_, _, s)
            | Expr::Binary(_, _, _, s)
            | Expr::Quant { span: s, .. } => *s = at,
            _ => {}
        }
        self
    }
}

/// A checked statement with its span (for run-time errors and explanations).
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Where it is written.
    pub span: Span,
}

/// Checked statements.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `let x = e`
    Let(Slot, Expr),
    /// `choose x in D [where C]`: `site` indexes [`Game::sites`].
    Choose { site: u16, slot: Slot, domain: Expr, filter: Option<Expr> },
    /// `either { ... } or { ... }`: the chosen branch index is the decision at `site`.
    Either { site: u16, branches: Vec<Vec<Stmt>> },
    /// `random x in D [where C]`: a chance event at `site`, each element
    /// equally likely (each piece of a zone equally likely).
    Random { site: u16, slot: Slot, domain: Expr, filter: Option<Expr> },
    /// Inserted by the checker before a statement that reads the first
    /// (`front`) or last piece of an ordered zone: if that piece is face
    /// down, a chance event at `site` decides it (otherwise nothing happens).
    Reveal { site: u16, zone: Expr, front: bool },
    /// `for x in D [where C] { ... }`
    For { slot: Slot, domain: Expr, filter: Option<Expr>, body: Vec<Stmt> },
    /// `while C { ... }`; `pre` runs before each test of `C` (the reveals
    /// `C` needs).
    While { pre: Vec<Stmt>, cond: Expr, body: Vec<Stmt> },
    /// `if C { ... } else { ... }`
    If { cond: Expr, then: Vec<Stmt>, otherwise: Vec<Stmt> },
    /// `require C [else "message"]`
    Require(Expr, Option<String>),
    /// `win P`
    Win(Expr),
    /// `lose P`
    Lose(Expr),
    /// `draw`
    Draw,
    /// `pass`
    Pass,
    /// `place K of P at C` (`C` a cell, or a set of cells when `many`)
    Place { kind: Expr, owner: Option<Expr>, at: Expr, many: bool },
    /// `compare p in D by keys [ties share]`: the best player(s) win.
    Compare { slot: Slot, domain: Expr, keys: Vec<Key>, share: bool },
    /// `move N K from Z to Y` (`None` = all)
    Transfer { count: Option<Expr>, kind: Expr, from: Expr, to: Expr },
    /// `shuffle Z`
    Shuffle(Expr),
    /// `remove C`
    Remove(Expr),
    /// `move C to C`
    Move { from: Expr, to: Expr },
    /// `add N K to Z`
    Add { count: Option<Expr>, kind: Expr, zone: Expr },
    /// `take N K from Z`
    Take { count: Option<Expr>, kind: Expr, zone: Expr },
    /// An inlined action: bind the arguments, then run the body.
    Block(Vec<(Slot, Expr)>, Vec<Stmt>),
    /// `x = e`: a `let` local or a variable kept in the position gets a
    /// new value (`+=` and `-=` are written out as `x = x + e`).
    Assign(Target, Expr),
    /// `change C to K of P`: the piece on `C` becomes kind `K` and/or
    /// belongs to `P`, where it stands.
    Change { at: Expr, kind: Option<Expr>, owner: Option<Expr> },
    /// `next turn P` (and `again`, which is `next turn me`): `P` moves
    /// after this turn.
    NextTurn(Expr),
}

impl StmtKind {
    /// Calls `f` on each expression of this statement itself, not on
    /// those of the statements inside it (a loop's or a branch's body).
    pub fn exprs(&self, f: &mut dyn FnMut(&Expr)) {
        let opt = |x: &Option<Expr>, f: &mut dyn FnMut(&Expr)| {
            if let Some(x) = x {
                f(x);
            }
        };
        match self {
            StmtKind::Let(_, x)
            | StmtKind::Require(x, _)
            | StmtKind::Win(x)
            | StmtKind::Lose(x)
            | StmtKind::Shuffle(x)
            | StmtKind::Remove(x)
            | StmtKind::NextTurn(x)
            | StmtKind::Assign(Target::Local(_), x)
            | StmtKind::If { cond: x, .. }
            | StmtKind::While { cond: x, .. }
            | StmtKind::Reveal { zone: x, .. } => f(x),
            StmtKind::Assign(Target::Var(_, p), x) => {
                opt(p, f);
                f(x);
            }
            StmtKind::Choose { domain, filter, .. }
            | StmtKind::Random { domain, filter, .. }
            | StmtKind::For { domain, filter, .. } => {
                f(domain);
                opt(filter, f);
            }
            StmtKind::Either { .. } | StmtKind::Draw | StmtKind::Pass => {}
            StmtKind::Place { kind, owner, at, .. } => {
                f(kind);
                opt(owner, f);
                f(at);
            }
            StmtKind::Compare { domain, keys, .. } => {
                f(domain);
                for k in keys {
                    match k {
                        Key::Value(x) => f(x),
                        Key::Descending { domain, filter, body, .. } => {
                            f(domain);
                            opt(filter, f);
                            f(body);
                        }
                    }
                }
            }
            StmtKind::Transfer { count, kind, from, to } => {
                opt(count, f);
                f(kind);
                f(from);
                f(to);
            }
            StmtKind::Move { from, to } => {
                f(from);
                f(to);
            }
            StmtKind::Add { count, kind, zone } | StmtKind::Take { count, kind, zone } => {
                opt(count, f);
                f(kind);
                f(zone);
            }
            StmtKind::Block(binds, _) => binds.iter().for_each(|(_, x)| f(x)),
            StmtKind::Change { at, kind, owner } => {
                f(at);
                opt(kind, f);
                opt(owner, f);
            }
        }
    }
}

/// What an assignment writes.
#[derive(Debug, Clone)]
pub enum Target {
    /// A `let` local.
    Local(Slot),
    /// A variable of the position (`Game::vars`), of a player when per player.
    Var(u16, Option<Expr>),
}

/// A variable kept in the position: `var` or `clock`.
#[derive(Debug, Clone)]
pub struct VarDecl {
    /// Its name.
    pub name: String,
    /// One per player.
    pub per_player: bool,
    /// Its type (a word type: number, condition, cell, player, kind, direction).
    pub ty: Ty,
    /// Its value at the start, as a word.
    pub init: i64,
    /// A `clock`: not part of the position when positions are compared
    /// for repetitions.
    pub clock: bool,
    /// Its first slot in the state's `vars` (or `clocks` for a clock).
    pub base: usize,
    /// The hidden variable of turn phases: its value names a phase.
    pub phase: bool,
}

/// A checked ranking key of `compare`.
#[derive(Debug, Clone)]
pub enum Key {
    /// A number, higher is better.
    Value(Expr),
    /// The values of `body` over `domain`, sorted from highest.
    Descending { slot: Slot, domain: Expr, filter: Option<Expr>, body: Expr },
}

/// A piece kind.
#[derive(Debug, Clone)]
pub struct Kind {
    /// Its name, e.g. `Stone`.
    pub name: String,
    /// Its symbol in notation and on the board, e.g. `K`.
    pub symbol: String,
    /// Values of every declared property (0 where not given).
    pub props: Vec<i64>,
    /// For a tile: the cells it covers in its declared orientation.
    pub shape: Option<Vec<(i32, i32)>>,
}

/// A zone declaration.
#[derive(Debug, Clone)]
pub struct Zone {
    /// Its name.
    pub name: String,
    /// One per player, or one shared.
    pub per_player: bool,
    /// A sequence (first to last) rather than counts per kind.
    pub ordered: bool,
    /// Who sees the contents.
    pub visibility: Visibility,
    /// For ordered zones: the index of its first sequence in a state.
    pub seq_base: usize,
}

/// A decision point of the turn.
#[derive(Debug, Clone)]
pub struct Site {
    /// `as "label"`: printed before the chosen value.
    pub label: Option<String>,
    /// For `either`: each branch's label (the value printed is the label).
    pub branches: Option<Vec<Option<String>>>,
    /// The chosen value's type.
    pub ty: Ty,
    /// The `choose` statement.
    pub span: Span,
    /// The variable a `choose` binds (empty for `either`).
    pub var: String,
    /// The domain expression's span (for explanations).
    pub domain_span: Span,
    /// The `where` expression's span, if any.
    pub filter_span: Option<Span>,
    /// A chance event (`random`, or a face-down piece revealed), decided
    /// by the engine's random source rather than by the player.
    pub chance: bool,
    /// `as short`: a move may name this choice by the start of its value
    /// alone (`d` for `d4`), when exactly one legal move fits.
    pub short: bool,
}

/// A checked game, ready to run.
#[derive(Debug, Clone)]
pub struct Game {
    /// The source it came from (for run-time reports).
    pub source: Source,
    /// `game "..."`
    pub name: String,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Parameters with their final values, in declaration order.
    pub params: Vec<(String, i64)>,
    /// The board.
    pub board: Board,
    /// Piece kinds.
    pub kinds: Vec<Kind>,
    /// Property names.
    pub props: Vec<String>,
    /// Zones.
    pub zones: Vec<Zone>,
    /// `setup { ... }`
    pub setup: Vec<Stmt>,
    /// `turn { ... }`
    pub turn: Vec<Stmt>,
    /// `turn { ... }` span.
    pub turn_span: Span,
    /// `on no moves { ... }`, if declared.
    pub no_moves: Option<Vec<Stmt>>,
    /// `at end { ... }`: decides the result when no player can move.
    pub at_end: Option<Vec<Stmt>>,
    /// For each kind: its placements on the board (empty unless a tile).
    pub placements: Vec<Vec<CellSet>>,
    /// Number of sequences (instances of ordered zones) a state holds.
    pub sequences: usize,
    /// `def score(p)`, if the game has one: its parameter slot and body.
    pub score: Option<(Slot, Expr)>,
    /// Warnings found while checking (e.g. a def that is never used).
    pub warnings: Vec<crate::diag::Problem>,
    /// The owner and kind of each board code (`1 + owner * kinds + kind`).
    pub piece_codes: Vec<(u8, u16)>,
    /// Every `choose` of the turn, indexed by site id.
    pub sites: Vec<Site>,
    /// Size of the evaluation frame.
    pub slots: usize,
    /// The type of every local slot (each slot is bound once, to one type).
    pub slot_tys: Vec<Ty>,
    /// Variables kept in the position, in declaration order (the phase
    /// variable last, when the turn has phases).
    pub vars: Vec<VarDecl>,
    /// Literal lists of kinds, players, directions and numbers, as words.
    pub lists: Vec<Vec<i64>>,
    /// The names of the turn's phases (empty without phases).
    pub phases: Vec<String>,
    /// Whether the rules ask for `repetitions`: positions keep their history.
    pub history: bool,
    /// The work limits runs keep to, in both evaluators (the defaults
    /// unless set with [`crate::Game::with_limits`]).
    pub limits: crate::state::Limits,
}

impl Game {
    /// Index of the count of `kind` in `zone` of `player` in a state's counter array.
    #[inline]
    pub fn counter(&self, zone: u16, player: u8, kind: u16) -> usize {
        (zone as usize * self.players.len() + player as usize) * self.kinds.len() + kind as usize
    }

    /// The sequence index of an ordered zone instance.
    #[inline]
    pub fn sequence(&self, zone: u16, player: u8) -> usize {
        let z = &self.zones[zone as usize];
        z.seq_base + if z.per_player { player as usize } else { 0 }
    }

    /// Whether the rules have chance events.
    pub fn has_chance(&self) -> bool {
        self.sites.iter().any(|s| s.chance)
    }

    /// Whether any zone hides its contents from some player.
    pub fn has_hidden_information(&self) -> bool {
        self.zones.iter().any(|z| z.visibility != Visibility::Public)
    }

    /// Number of counters a state holds.
    pub fn counters(&self) -> usize {
        self.zones.len() * self.players.len() * self.kinds.len()
    }

    /// Words of (non-clock) variables and of clocks a state holds.
    pub fn var_words(&self) -> (usize, usize) {
        let mut n = (0, 0);
        for v in &self.vars {
            let k = if v.per_player { self.players.len() } else { 1 };
            if v.clock {
                n.1 += k;
            } else {
                n.0 += k;
            }
        }
        n
    }
}
