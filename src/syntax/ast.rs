//! The unchecked syntax tree. Every node is spanned; names are strings.
//! Nothing here is known to be meaningful: that is `check`'s job.

#![allow(missing_docs)] // variant fields are named for their surface syntax

use crate::source::Span;

/// A whole game file.
#[derive(Debug, Clone)]
pub struct File {
    /// Declarations in source order.
    pub items: Vec<Item>,
}

/// A name as written, with its span.
#[derive(Debug, Clone)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A string literal (quotes removed).
#[derive(Debug, Clone)]
pub struct Str {
    /// The text between the quotes.
    pub text: String,
    /// The span including the quotes.
    pub span: Span,
}

/// A top-level declaration.
#[derive(Debug, Clone)]
pub enum Item {
    /// `game "Name"`
    Game(Str),
    /// `players A, B [count N]`
    Players(Vec<Ident>, Option<Expr>, Span),
    /// `param name = value [in lo..hi]`
    Param { name: Ident, value: Expr, range: Option<(Expr, Expr)>, span: Span },
    /// `board square W by H [with N neighbours]` or `board hexhex N`
    Board(BoardShape, Span),
    /// `piece Name ["S"] [{ prop: value, ... }] [covers (q, r) ...]`
    Piece {
        name: Ident,
        symbol: Option<Str>,
        props: Vec<(Ident, Expr)>,
        covers: Option<(Vec<(i32, i32)>, Span)>,
        span: Span,
    },
    /// `zone name (per player | shared) [ordered] [owner | hidden]`
    Zone { name: Ident, per_player: bool, ordered: bool, visibility: Visibility, span: Span },
    /// `def name(params) = expr`
    Def { name: Ident, params: Vec<Ident>, body: Expr, span: Span },
    /// `action name(params) { ... }`
    Action { name: Ident, params: Vec<Ident>, body: Block, span: Span },
    /// `setup { ... }`
    Setup(Block, Span),
    /// `turn [phase] { ... }`
    Turn(Option<Ident>, Block, Span),
    /// `on no moves { ... }`
    NoMoves(Block, Span),
    /// `at end { ... }`
    AtEnd(Block, Span),
    /// `var name [per player] [: type] [= value]`, or `clock name [per
    /// player] [= value]` (a number not compared by `repetitions`)
    Var {
        name: Ident,
        per_player: bool,
        ty: Option<Ident>,
        value: Option<Expr>,
        clock: bool,
        span: Span,
    },
}

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

/// The shape of the board.
#[derive(Debug, Clone)]
pub enum BoardShape {
    /// `square W by H [with N neighbours]`
    Square { width: Expr, height: Expr, neighbours: Option<Expr> },
    /// `hexhex N`
    HexHex { side: Expr },
    /// `hex W by H`: a rhombus of hexagons
    Rhombus { width: Expr, height: Expr },
    /// `graph { points ... links ... lines ... }`
    Graph(Graph),
}

/// A graph board as declared.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// `points a1 [at (x, y)], ...`
    pub points: Vec<(Ident, Option<(i32, i32)>)>,
    /// `links [d[/e]:] a-b-c, ...`: each chain with its direction names
    /// (forward, backward).
    pub links: Vec<(Option<Ident>, Option<Ident>, Vec<Ident>)>,
    /// `lines a b c, ...`
    pub lines: Vec<Vec<Ident>>,
}

/// `{ stmt* }`
#[derive(Debug, Clone)]
pub struct Block {
    /// Statements in order.
    pub stmts: Vec<Stmt>,
    /// The braces and everything between.
    pub span: Span,
}

/// A statement with its span.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// Statements of turn, setup and action bodies.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `let x = e`
    Let(Ident, Expr),
    /// `choose x in D [where C] [as "label"]`
    /// `as short`: the value may be typed by the start of its name alone.
    Choose { var: Ident, domain: Expr, filter: Option<Expr>, label: Option<Str>, short: bool },
    /// `random x in D [where C] [as "label"]`
    Random { var: Ident, domain: Expr, filter: Option<Expr>, label: Option<Str>, short: bool },
    /// `either ["label"] { ... } or ["label"] { ... } ...`: the player picks a branch
    Either(Vec<(Option<Str>, Block)>),
    /// `for x in D [where C] { ... }`
    For { var: Ident, domain: Expr, filter: Option<Expr>, body: Block },
    /// `while C { ... }`
    While { cond: Expr, body: Block },
    /// `if C { ... } [else ...]`
    If { cond: Expr, then: Block, otherwise: Option<Block> },
    /// `require C [else "message"]`
    Require { cond: Expr, message: Option<Str> },
    /// `win P`
    Win(Expr),
    /// `lose P`
    Lose(Expr),
    /// `compare p in D by key, key, ... [ties share]`
    Compare { var: Ident, domain: Expr, keys: Vec<Key>, share: bool },
    /// `draw`
    Draw,
    /// `pass`
    Pass,
    /// `place K [of P] at C`
    Place { kind: Expr, owner: Option<Expr>, at: Expr },
    /// `remove C`
    Remove(Expr),
    /// `move C to C`
    Move { from: Expr, to: Expr },
    /// `move [N | all] K from Z to Z`: pieces or cards between zones
    Transfer { count: Count, kind: Expr, from: Expr, to: Expr },
    /// `shuffle Z`
    Shuffle(Expr),
    /// `add [N] K to Z`
    Add { count: Option<Expr>, kind: Expr, zone: Expr },
    /// `take [N] K from Z`
    Take { count: Option<Expr>, kind: Expr, zone: Expr },
    /// `name(args)`: run an action
    Call(Ident, Vec<Expr>),
    /// `change C to K [of P]`, `change C to P`: the piece on C changes
    /// kind and/or owner where it stands
    Change { at: Expr, to: Expr, of: Option<Expr> },
    /// `x = e`, `x += e`, `score(p) -= e`
    Assign { name: Ident, player: Option<Expr>, op: AssignOp, value: Expr },
    /// `next turn P`
    NextTurn(Expr),
    /// `again`: the same player moves next
    Again,
    /// `phase name`
    Phase(Ident),
}

/// `=`, `+=` or `-=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
}

/// How many pieces a `move ... from` moves.
#[derive(Debug, Clone)]
pub enum Count {
    /// One (nothing written).
    One,
    /// `N`
    Number(Expr),
    /// `all`
    All,
}

/// A ranking key of `compare`.
#[derive(Debug, Clone)]
pub enum Key {
    /// A number: higher is better.
    Value(Expr),
    /// `descending x in D [where C]: E`: the values sorted from highest,
    /// compared one by one (a missing value counts 0).
    Descending { var: Ident, domain: Expr, filter: Option<Expr>, body: Expr },
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
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
    /// `in`
    In,
}

/// Quantifiers: `any x in D: P` and friends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quant {
    /// `any x in D: P` — some element satisfies P
    Any,
    /// `all x in D: P` — every element satisfies P
    All,
    /// `none x in D: P` — no element satisfies P
    None,
    /// `count x in D[: P]` — how many elements (satisfy P)
    Count,
    /// `sum x in D: E`
    Sum,
    /// `max x in D: E` (0 for an empty domain)
    Max,
    /// `min x in D: E` (0 for an empty domain)
    Min,
    /// `collect x in D[: E]` — the set of all cells (or union of sets)
    Collect,
}

/// Expression forms.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// `42`
    Int(i64),
    /// `name`
    Name(String),
    /// `f(a, b)`
    Call(Ident, Vec<Expr>),
    /// `not e`, `-e`
    Unary(UnOp, Box<Expr>),
    /// `a + b`, `a and b`, ...
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `[a, b, c]`
    List(Vec<Expr>),
    /// `if C then A else B`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `any x in D [where C]: P`
    Quant {
        quant: Quant,
        var: Ident,
        domain: Box<Expr>,
        filter: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
}
