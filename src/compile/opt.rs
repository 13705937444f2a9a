//! The optimisation passes. Each recognises a pattern any game may write
//! and compiles it to cheaper code with the same result; none knows any
//! particular game.
//!
//! 1. **Set forms of cell predicates** ([`Pred`]). A condition about one
//!    cell `x` built from `empty(x)`, `occupied(x)`, `off(x)`,
//!    `owner(x) == E`, `kind(x) == E`, `contains(T, x)`, the same applied
//!    to `step(x, d)` for a constant direction, conditions that do not
//!    mention `x` at all, conditions about `x` alone that do not read the
//!    position (`rank(x) == 1`: computed once, at compile time), and
//!    `and` / `or` / `not` of these, is computed for the whole board at
//!    once from the position's occupancy sets, in a few word operations.
//!    Used by `choose x in S where F` (the options are `S ∩ F`; a filter
//!    whose set-form conjuncts come first is narrowed by them and the rest
//!    asked cell by cell), and by `any`/`all`/`none`/`count`/`collect` over
//!    a set of cells or a line (`S ∩ F ∩ P` is empty / a subset / counted).
//!    Games: all of them (`empty(c)` in every placement game, boop's and
//!    Tic-tac-toe's `owner(x) == me` lines, Connect Four's
//!    `occupied(step(c, s))`, Snekagon's `all x in cover: empty(x)` and
//!    `contains(g, x)` counts, Hex's edge tests).
//! 2. **Lazy tails** ([`lazy_tails`]). When everything after a `choose`
//!    (to the end of the turn) can neither fail nor ask for another
//!    decision — its effects are guaranteed possible by what the `choose`
//!    and the `if`s on the way established (`empty(c)` before `place ... at
//!    c`, `c in pieces(me)` before `move c to ...`) and its expressions
//!    cannot raise an error — then each option of that `choose` is a legal
//!    move. Move generation lists the options without running the rest;
//!    the rest runs once, for the move that is played. Also safe: `take`
//!    of one piece of a kind chosen from that zone (`choose t in
//!    supply(me)` … `take t from supply(me)`), `place K at v` of a set
//!    local whose cells the decision's filter made empty (`where all x
//!    in v: empty(x)`), and a `require` asked as the options are listed
//!    (passes 17 and 19: the search drops the options it rejects before
//!    handing the rest over as moves; a decision lazy only thanks to
//!    those keeps its drawn tail, pass 15, so a playout still draws
//!    without asking every option). Also safe: `change x to ...` of a
//!    cell shown to hold a piece (`owner(x) == P` of a player never
//!    `none`, `kind(x) == K`, `occupied(x)`), and loops of boundedly many
//!    rounds (a `for` whose domain has a size known at load, a constant
//!    `range` among them; a `while` that walks a ray, as pass 15 bounds
//!    it) whose every round is safe from what holds at the start of each
//!    round ([`Facts::loop_invariant`]: nothing of the locals bound or
//!    changed in the body; nothing of cells' contents when a round may
//!    place, remove or move a piece; nothing of zones when it may change
//!    one). A tail's steps are bounded as a quantifier's are; a step
//!    limit, if reached, stops the move as it is played. Games:
//!    Tic-tac-toe, Connect Four, Hex, Breakthrough, Snekagon, Othello
//!    (its flips), and any place-then-check game.
//! 3. **Precomputed relations** ([`Pred::Rel`]). Inside a set form, a
//!    condition that reads no position but the cell, at most one other
//!    cell local and perhaps `me` (`rank(b) == rank(a) + 1`, `file(a) ==
//!    file(b)`, `b in neighbours(a)`, `me == White and ...`) is evaluated
//!    when the game is loaded for every other cell, `none` and every
//!    player: a table of sets, looked up at run time by the other cell and
//!    the mover. A whole `def` of that kind becomes one lookup instead of
//!    a tree of comparisons per cell. Games: Breakthrough (`ahead`,
//!    `straight`: callgrind, 100 playouts, 309.7M → 182.9M instructions),
//!    Nine Men's Morris (`goal in neighbours(man)`), any game whose moves
//!    are geometric relations between a piece and its target. The table
//!    is bounded (`players × (cells + 1)²` evaluations at most 264,196),
//!    so loading stays fast.
//! 4. **Remembered conditions of one set** ([`Compiler::cond_of`]). A
//!    quantifier's condition about its element when the element is a set
//!    (`all g in groups(me): snake(g)`, `count g in groups(p) where ...`)
//!    that reads nothing but that set — no position, no `me`, no other
//!    local — and has a quantifier inside is a function of the set alone:
//!    its values are kept in a small table per condition in the frame,
//!    keyed by the set, and never go stale, so forks do not copy them.
//!    After a placement most groups are the groups of the position
//!    before, and their shape tests are looked up. A value found in a
//!    table counts the steps its computation counted (kept beside it,
//!    [`remembered_steps`]; passes 13, 19 and 23 too), so that the steps
//!    of a run, and where a step limit stops it, do not depend on what
//!    the tables learnt before; a value whose steps would pass the limit
//!    is computed again, which raises the error where the computation
//!    passes it. Games: Snekagon
//!    (`snake(g)`: callgrind, 5 playouts, 203.3M → 183.4M instructions),
//!    any game whose rules test the shape of each group.
//! 5. **Counts of neighbours** ([`Pred::NbrCount`]). Inside a set form,
//!    `count y in neighbours(x) where P(y)` compared with a number that
//!    does not depend on `x` (`links(c, g) <= 2` with `def links(c, g) =
//!    count x in neighbours(c) where contains(g, x)`), with `P` in set
//!    form and not about `x`, computes `P`'s set once; each cell asked
//!    about is then the popcount of its neighbours in that set, with no
//!    closure per cell or per neighbour. A set-form closure is told which
//!    cells its caller will look at (`within`: the quantifier's domain, a
//!    group of a few cells), and only those are counted. Games: Snekagon
//!    (`snake(g)`: callgrind, 5 playouts, 173.0M → 166.0M instructions),
//!    any game that counts a cell's friendly or enemy neighbours (Life-like
//!    rules, surrounded pieces, connection counts).
//! 6. **Values the same for every element** ([`Compiler::hoist`]). In a
//!    quantifier's condition or body, a subexpression that does not read
//!    the element (nor a local bound from it), reads the position, has a
//!    quantifier inside and cannot fail (`prey(a)` in `def freed(x, a) =
//!    empty(x) or contains(prey(a), x)`, asked of each neighbour `x`) is
//!    computed the first time an element asks for it and kept for the rest
//!    of that evaluation of the quantifier. Games: Bug (callgrind, 100
//!    playouts, 183.4M → 179.6M instructions), any rule whose `def`s pass
//!    an outer value into a condition asked element by element.
//! 7. **Quantifiers over groups asked of every cell** ([`Pred::Across`],
//!    [`Pred::Touching`]). Inside a set form, `count b in D where P(b, x)`
//!    compared with a number, or `any` / `none` / `all b in D ...`, where
//!    `D` is a collection of sets (`groups(me)`, placements) that does not
//!    depend on the cell `x` and `P` is a set form of `x` given `b`
//!    (`touches(b, x)` is the cells next to `b`), walks `D` once and
//!    counts every cell together, instead of walking `D` for each cell.
//!    `and` / `or` ask their second operand only about the cells the
//!    first leaves open. Games: Bug (`bugs_touching(c) <= 1` for the
//!    options, `not next_to_another_bug(x, a)` in `bonus`: callgrind, 100
//!    playouts, 179.6M → 151.7M instructions), any rule about the groups
//!    or regions a cell borders. `any` / `none b in D [where C]:
//!    touches(b, x)` of the element itself, `C` not about the cell
//!    ([`Pred::AcrossTouch`]), spreads the union of the elements that
//!    pass `C` once instead of each element (the cells next to a union
//!    are the union of the cells next to each; an element that fails `C`
//!    is not read: Bug 100 playouts 88.5M → 88.0M, `perft 4 -j 1`
//!    918.7M → 908.3M). A `count` compared with a number of at most 2
//!    keeps its counts as three bit-sliced sets (met by more than 0, 1,
//!    2 elements; a count of 3 or more compares with such a number as 3
//!    does) instead of a counter per cell (Bug's `bugs_touching(c) <= 1`:
//!    100 playouts 86.0M → 85.6M, `perft 4 -j 1` 897.0M → 893.5M).
//! 8. **Emptiness of a collected set** ([`Compiler::collect_nonempty`]).
//!    `size(collect b in D where F: B) > 0` (or `>= 1`, `!= 0`, `== 0`,
//!    `< 1`, `<= 0`, either way round), over a collection `D` of sets and
//!    perhaps inside inlined `def`s, walks `D` and stops at the first
//!    element that passes `F` with a non-empty `B`, instead of building the
//!    whole union to count it. Only when nothing in `D`, `F` or `B` can
//!    fail, so stopping early hides no error. Games: Bug (`size(prey(a)) >
//!    0`: callgrind, 100 playouts, 151.4M → 147.8M instructions), any rule
//!    asking whether some group or region gives anything at all.
//! 9. **Guarded rounds** ([`Compiler::guarded_for`]). A `for` without
//!    `where` whose body is `let`s that cannot fail and then one `if`
//!    without `else`, where the first conjunct of the `if` is a set form
//!    of one cell of the round — the element itself, or `let n = step(c,
//!    x)` of a direction `x` from a cell `c` fixed for the round — does
//!    nothing in a round where that conjunct is false. The conjunct's set
//!    is computed when the loop starts and again after every round that
//!    ran (a round's effects may change it), and a round whose cell is
//!    outside the set is skipped with a bit test (its step still counts
//!    against the step limit); a round that runs, runs as written but for
//!    that conjunct, known to hold (the set is current when a round
//!    starts, and the conjunct cannot fail). Games:
//!    boop. (`for d in dirs { let n = step(square, d)  if occupied(n) and
//!    ... }`: callgrind, 20 playouts, 252.4M → 248.0M instructions), any
//!    rule that looks at each neighbour in turn (pushes, flips, captures).
//!    Rounds over `dirs` from a cell, when none of the steps from it in
//!    the directions left ([`super::Tables::stepped`]) is in the set (and
//!    the set says no for `none`), are skipped at once, at the start and
//!    after each round that ran, their steps counted together (past the
//!    step limit the error is the one walking them would raise):
//!    boop. `perft 3` 130.3M → 110.6M, 20 playouts 206.4M → 202.7M (at
//!    the start only), then 201.3M and `perft 3` 108.0M (after rounds too).
//!    Since session 19 the loop over `dirs` from a cell is the pass's own:
//!    it goes from one round that runs to the next (the directions in
//!    between found by that bit test, then one table lookup each) without
//!    a call per round passed over: boop. 20 playouts 179.9M → 166.7M,
//!    `perft 3` 94.4M → 92.1M. Since session 22 a conjunct that is one
//!    occupancy test (`occupied(n)`) is read in place (`Guard`) each
//!    time its set is computed, not through a closure: boop. 20 playouts
//!    141.5M → 139.9M, `perft 3` 78.7M → 78.0M. Since session 24 the loop
//!    over `dirs` from a cell no round assigns is a closure of its own
//!    (`guarded_dirs`), whose first test, when no neighbour is in the
//!    set, passes over every round in a few instructions; the rounds are
//!    `dirs_rounds`, shared with the general closure (which reads the
//!    cell again at every round, as a round may assign it): boop. `perft
//!    4` 1,871.3M → 1,814.6M, 20 playouts 133.5M → 131.3M. Since session
//!    31 a round of `guarded_dirs` writes the cell it found into the
//!    `let n = step(c, d)` local itself, and that `let` is left out of
//!    the round's statements: boop. `perft 4` 1,327.3M → 1,319.9M, 30
//!    playouts 157.2M → 155.7M. Since session 35 `guarded_dirs` is made
//!    for the forms known when the game loads — the cell stepped from (a
//!    word local or a constant) and the guard's set (`GuardSet`:
//!    `occupied(n)` has its own, any other guard reads `Guard`) — so a
//!    call matches neither: boop. `perft 4` 1,199.8M → 1,146.1M, 200
//!    playouts 728.2M → 709.5M. Since session 36 a round with no other
//!    `let` that is one `if` (conjuncts that cannot raise an error) of
//!    one statement has that `if` made in `guarded_dirs`'s closure
//!    (`IfThen`, a `RoundBody`), not a closure of its own: boop. `perft
//!    4` 1,085.1M → 1,066.1M, 200 playouts 647.5M → 628.8M.
//! 10. **Element tests and lines as shifts** ([`ElemTest`]). A condition
//!     `Q c in l: P(c)` about an element `l` (a line, a group, a placement)
//!     of an outer collection, with `P` in set form and independent of `l`,
//!     computes `P`'s set once for the whole collection; each element is
//!     then a bit test of its cells. On boards where every line axis moves
//!     by a fixed cell-id offset (square boards, hex rhombi), `any` / `all`
//!     / `none` / `count` over `lines(k)` go further: the starts of the
//!     accepted lines of an axis are the starts intersected with `k`
//!     shifted copies of that set, a few word operations per axis for all
//!     the lines at once. A decision among lines (`choose l in lines(k)
//!     where Q c in l: P(c)`) lists its options the same way, in the
//!     board's order of lines (by start cell, then axis). Games: boop.
//!     (`three_cats`, `three_of_mine`, and the choice of the line that
//!     graduates: callgrind, 20 playouts, 240.7M → 221.7M instructions for
//!     that choice), Tic-tac-toe, Connect Four, any game of lines. A line
//!     of `k` cells all in `P`'s set needs `k` cells in it: with fewer,
//!     `any` and `count` answer no line and `none` yes before any shift
//!     (session 22: boop. `perft 3` 78.1M → 72.2M, 20 playouts 140.2M →
//!     138.7M — the mover's Cats are fewer than three most of a game;
//!     Tic-tac-toe −2.0%, Connect Four −1.1%). Since session 24 a filter
//!     or body that is one occupancy test, or `and` of two, is read in
//!     place (`CellTest`), with no call: boop. `perft 5` 2% less wall
//!     time, Tic-tac-toe 2% more (its one line test's call was predicted
//!     already; boop. alternates two). Since session 25 `any` line all in
//!     the set, on a board of one word, shifts every axis to the end and
//!     or-s the results, with no branch on where a line lies (which the
//!     processor mispredicts): +1.4% instructions, wall time boop. 600
//!     playouts 0.96, Connect Four 0.92, Tic-tac-toe 0.97. Since session
//!     26 that `any`, when the test is `all` and the set one or two
//!     occupancy sets (the mover's pieces, a fixed player's or kind's:
//!     [`OccBits`]), is a closure of its own per form that reads the
//!     words in place, with no run-time match on which leaves and sets
//!     the test holds (`lines_bits`): boop. `perft 4` −7.8% instructions,
//!     wall `perft 5` 0.92–0.94, Tic-tac-toe 0.84–0.97. An `if` without
//!     `else` of such a test makes it in its own closure ([`if_lines`]),
//!     and the shifts per axis come from the tables
//!     (`LineShifts::words`), with lines of three and four cells written
//!     out: boop. 20 playouts −3.9%, Tic-tac-toe −4.0%, Connect Four
//!     −3.9% instructions, wall 0.86–0.96. Every axis there is a shift
//!     down (one of negative offset is read from its lines' lowest
//!     cells), so a step is one shift: boop. playouts −2.6%,
//!     Tic-tac-toe −1.4%, Connect Four −2.0%.
//! 11. **Placements by cells** ([`super::Tables::covering`]). A decision
//!     among a tile's placements whose filter is an element test
//!     (`choose cover in placements(t) where all x in cover: empty(x)`)
//!     lists its options from a table made when the game is loaded: for
//!     each cell, the placements that cover it, as a bit set of placement
//!     indices. `all` keeps the placements that cover no cell outside its
//!     set (the union of the tables of those cells, complemented), `any`
//!     the ones that cover a cell of its set, `none` the others — a few
//!     word operations per cell instead of a test per placement. The
//!     tables of a game are bounded ([`super::MAX_COVERING`] words).
//!     Games: Snekagon (callgrind, 5 playouts, 149.1M → 140.7M
//!     instructions), any game that places tiles.
//!
//! 12. **A collected set's body shared with its filter**
//!     ([`Compiler::share_body`]). In `collect x in D where F: B`, when the
//!     body `B` (a set with a quantifier inside, that cannot fail) is also
//!     asked inside `F` — the same expression up to the names `def`s give
//!     their parameters, outside any quantifier of `F` — both read one
//!     local, computed at most once for each element and cleared before
//!     the next. Games: Bug (`collect a in groups(me) where candidate(a):
//!     bonus(a)`, where `candidate(a)` asks `size(bonus(a)) > 0`:
//!     callgrind, 100 playouts, 139.3M → 134.2M instructions), any rule
//!     that collects what a test has just computed.
//! 13. **Groups by change** ([`Compiler::groups_by_change`]). `all` /
//!     `any` / `none g in groups(P) where F: C`, with `F` and `C` pure
//!     functions of the group, asks every group of `P`'s pieces; whether
//!     they all pass is a function of that set of pieces. The search
//!     records each player's pieces when the turn began
//!     ([`super::Frame::start`]); the answer for the pieces of that set
//!     still on the board is remembered per set, and when it holds, only
//!     the groups that meet a piece added since are asked (every other
//!     group is a group of the remembered set). Games: Snekagon (`require all g in
//!     groups(me): snake(g)` after every placement:
//!     callgrind, 5 playouts, 140.7M → 129.3M instructions; `perft 2`
//!     498.2M → 483.7M; since pass 19 that `require` is asked as the
//!     placements are listed instead), any rule about the shape of every
//!     group asked where pass 19 cannot ask it.
//! 14. **Chance tails** ([`tails`], [`ChanceTail`]). When everything after
//!     a `choose` up to the reveal of the first or last piece of an
//!     ordered zone (`move first(deck) ...`, `while not bug(first(deck))`)
//!     can neither fail, end the turn nor ask for another decision, takes
//!     a bounded number of steps (no quantifiers; `for` only over players
//!     or kinds) and does not change that zone, then whenever that piece
//!     is face down at the decision every option stops at the reveal, a
//!     chance event. The search then hands the options to the sink as
//!     moves that stop at chance without running them; a playout runs the
//!     one it plays up to the reveal and lets chance decide from there.
//!     Besides the effects of lazy tails, the tail may `move all K` and
//!     `move 1 K` of a kind the decision's zone holds (`choose card in
//!     hand(me)` then `move card from hand(me) to ...`). At run time the
//!     search also requires that no zone can overflow on the way (all
//!     zones together hold at most 65535 pieces: counted once per search,
//!     on the turn's start, when the turn has no `add`, which is the only
//!     statement that puts new pieces into zones) and that the steps so far
//!     plus the tail's bound are within the limit; else it runs the options
//!     as usual. Games: Bug Off! (both plays from the hand, then the draw:
//!     callgrind, 200 playouts, 131.7M → 93.9M instructions; `perft 6
//!     --reveal --sample-chance` 640.9M → 522.4M), any game of play a card,
//!     then draw.
//! 15. **Drawn tails** ([`Tails::drawn`]). When everything after a
//!     `choose` to the end of the turn asks no other decision, meets no
//!     chance event and can raise no rule error but by its steps — it may
//!     fail (`require`, a `place` on an occupied cell, a `take` from an
//!     empty zone) or end the turn, and the most steps it takes are
//!     bounded when the game loads (no `while` but a walk along a ray,
//!     below; loops and quantifiers only
//!     over cells, lines, groups, placements, directions, kinds or
//!     players; no arithmetic, which may overflow, no `first` / `last`,
//!     which may meet a face-down piece; no `move` into a zone, and an
//!     `add` only of a number known at load, so that the most pieces the
//!     rest adds is bounded too) — each option is a move or none. A random
//!     playout then does not run them all: it draws uniformly among the
//!     moves found so far and the options not yet run, runs an option it
//!     draws, and when that fails puts it aside and draws again. The move
//!     played is uniform among the moves, as when they are all listed, and
//!     only the options drawn are run. At run time the search also requires
//!     that the run's steps so far plus the bound stay within the limit,
//!     and, for a rest that adds pieces, that all the zones' pieces plus
//!     the most it adds stay within 65535 (else it lists as usual), so no
//!     option it leaves unrun could have stopped with a rule error. Only
//!     playouts draw ([`crate::eval::search::Successors::drawing`]); move
//!     lists, perft and the engines' trees list every move, and
//!     [`crate::play::playout_listed`] lists in playouts too. Games:
//!     Snekagon (`choose cover in placements(t) ...` then two `require`s:
//!     callgrind, 5 playouts, 126.6M → 21.7M instructions), any game that
//!     places or moves and then checks that the result is legal. Since
//!     session 33 a rest that adds pieces to zones qualifies (bounded as
//!     above): boop.'s piece taken off the bed when all eight are on it
//!     and its graduating line (each returns a Cat to the pool), 300
//!     playouts 1,279.0M → 1,055.9M instructions (−18.7% a turn; the
//!     games differ, as the draws spend other random numbers); any game
//!     that ends a turn by putting pieces into a reserve or a hand.
//!     Since session 53 two more forms are bounded: a quantifier over a
//!     `range` of two constant numbers (its size known), and a `while`
//!     that walks a ray (`ray_walk_rounds`): its body sets a local `x`
//!     once, in the body itself (not inside an `if` or a loop), to
//!     `step(x, d)` with a `d` it does not change, and its test cannot
//!     hold at `none` (`occupied(x)`, or `owner(x)`
//!     equal to a player); its rounds are at most the longest walk in
//!     that direction (any, for a `d` not constant) visits cells
//!     (`Tails::walks`, found when the game loads; a direction in which
//!     some walk goes round a loop has none, and the pass gives up).
//!     Othello (the flips after `choose square`): `tabula bench` 5.6k →
//!     12.0k playouts/s, perft unchanged (perft lists every move).
//! 16. **Touch guards** (`Compiler::touch_guard`). In the emptiness test
//!     of a collection over the groups of a player (`size(collect b in
//!     groups(opponent) where touches(a, b) and ...: b) > 0`), a filter
//!     with a conjunct `touches(X, b)` (or `touches(b, X)`) whose `X` does
//!     not mention the element and cannot fail, on a board whose
//!     neighbours are symmetric: the cells around `X` are computed once;
//!     when none of them holds a piece of that player no group can pass,
//!     so the answer is known without computing the groups. Otherwise
//!     the groups next to `X` are flood-filled from the player's pieces
//!     next to it, one at a time, and each is asked the filter's other
//!     conjuncts only (the flood has decided `touches`); the player's
//!     other groups are neither computed nor looked at. The order is
//!     that of the pieces next to `X`, not the groups' own, which cannot
//!     change the answer: nothing can fail, and whether some group
//!     passes does not depend on the order. The elements not looked at
//!     take no steps (as in every set form). Games: Bug (`prey(a)`, asked
//!     of every group of the mover at every leaf: callgrind, 100
//!     playouts, 121.8M → 118.5M instructions; the decided conjunct left
//!     out, session 16: 105.3M → 104.0M, `perft 4` 1,030.3M → 1,024.4M;
//!     the flood fills instead of a walk of the groups, session 18:
//!     86.9M → 85.9M, `perft 4 -j 1` 901.4M → 895.6M), any game whose
//!     captures need contact between groups.
//! 17. **Neighbourhood requires** ([`Compiler::nbr_require`],
//!     [`NbrRequire`]). `choose v in placements(K) where F`, then in the
//!     same block only `take`s from zones and `place K at v` (for the
//!     mover), then `require C` where `C` is `and` / `or` / `not` of
//!     `any` / `all` / `none x in neighbours(v) [where P]: Q` with `P` and
//!     `Q` predicates of the cell `x` alone (`empty`, `occupied`, `owner(x)
//!     == me`, a constant owner or kind, and combinations). Placing writes
//!     only the cells of `v`, which `neighbours(v)` leaves out, and taking
//!     only zone counters; neither can stop the run with an error, only
//!     fail, which drops the option as a failing `require` does. So `C`
//!     has the same answer before them: it is asked of each placement
//!     (the predicates' sets once per position, then two or three set
//!     operations per placement) and not run after the decision. A search
//!     that runs every option drops the rejected ones after counting them
//!     against its budget of choices (as the written rule counts them); a
//!     playout that draws (pass 15) asks it of the option it draws; a move
//!     played from its choices is checked when the decision is taken, and
//!     a rejected one fails at the `require`. The quantifiers are set
//!     forms either way, so no step is counted differently. The cells
//!     next to each placement are made when the game loads, and the
//!     quantifiers' answers combine through a truth table. Games:
//!     Snekagon (the touch rule, `(none x in neighbours(cover):
//!     occupied(x)) or (any x in neighbours(cover): owner(x) == me)`:
//!     callgrind, `perft 2` 392.5M → 315.4M instructions, 3 playouts
//!     listing every move 80.0M → 64.2M), any game that places a tile
//!     and then checks what it touches.
//! 18. **Lines through a cell** ([`Compiler::lines_through`],
//!     [`LinesThrough`]). `any` / `all` / `none l in lines(N) where c in l
//!     [and ...]: Q` with `c` a cell local or constant that is not `l`
//!     walks only the lines that hold `c` (lists per cell, made when the
//!     game loads), in the same order; the lines passed over fail the
//!     filter's first test, cost no evaluation and are counted against the
//!     step limit in bulk, at the points the walk would have counted them,
//!     so a rule that runs out of steps fails at the same point. Games:
//!     Nine Men's Morris (`in_mill(c)`, asked for the point just filled and
//!     for every man that might be taken), any game that asks about the
//!     lines through a cell (a mill, five in a row through the last
//!     stone).
//! 19. **Group requires** ([`GroupRequire`]). In the same place as pass
//!     17 (after the decision and the mover's `place K at v`, with only
//!     `take`s and other such `require`s between), `require all g in
//!     groups(me): C` with `C` a condition of the group alone (no
//!     position, no `me`, no other local, no error) is asked of each
//!     placement as the options are listed and not run after the
//!     decision. The mover's groups once `v` is placed are their groups
//!     not next to `v`, unchanged, and the groups of their pieces and `v`
//!     that meet `v`: the answer is "every group that fails `C` now is
//!     next to `v`" (the failing groups found once per listing, and
//!     whether there are any remembered per set of pieces) and `C` of
//!     each group meeting `v` (remembered per set, pass 4). A move
//!     played from its choices is checked when the decision is taken and
//!     fails at the first `require` that rejects it, in the written
//!     order. The groups asked are not counted as steps (pass 13 already
//!     counts only the groups it asks), so a later loop of the same turn
//!     reaches the step limit a little later than the written order
//!     would. With pass 17 the whole tail of Snekagon's placement
//!     becomes lazy (pass 2): perft counts the last ply without running
//!     it and a playout that lists its moves runs only the one it plays.
//!     A placement next to none of the mover's pieces whose cells are one
//!     group is answered from bits made at load; one next to them, from
//!     the single group they form together, asked `C` afresh (not through
//!     pass 4's table: that group is almost always new, and a lookup and
//!     an entry evicting a group that will come again cost more than
//!     they save). Games: Snekagon (the snake
//!     rule: callgrind, `perft 2` 296.1M → 51.9M instructions, 3 playouts
//!     listing every move 64.9M → 30.1M), any game whose groups must keep
//!     a shape or a size.
//! 20. **Groups touching a set** ([`Compiler::groups_touching`]).
//!     `collect g in groups(P) where touches(g, X)` (either order) is the
//!     part of `P`'s pieces reachable from the ones around `X`: one flood
//!     fill instead of a `touches` test per group. A set form, so, like
//!     every set form, it counts no steps. Games: Bug (`let eater =
//!     collect a in groups(me) where touches(a, x)`: callgrind, 100
//!     playouts 112.4M → 108.8M instructions, `perft 4` 1,216.5M →
//!     1,164.1M), any capture rule that gathers the groups next to a
//!     stone.
//! 21. **Sets removed at once** ([`Compiler::remove_all`]). `for y in S
//!     { remove y }` over a set of cells checks that every cell of `S`
//!     holds a piece (else the move fails, as the walk would at the first
//!     empty one) and clears them all with set operations, counting a
//!     step per cell; when the steps could reach the limit the cells are
//!     walked, so the error comes at the same round. Games: Bug (the
//!     prey removed when a bug eats: callgrind, 100 playouts 108.8M →
//!     106.4M, `perft 4` 1,164.1M → 1,127.1M), any capture of a group.
//! 22. **Sure tails** ([`SureTail`], module `sure`). A tail that is not
//!     lazy may still complete whatever the option when the position at
//!     the decision allows it, which the search checks there. The walk
//!     accepts what a chance tail accepts, and: reveals and `first` /
//!     `last` of ordered zones, which must then lie face up (no piece face
//!     down: a tail without `shuffle` that moves only known pieces keeps
//!     them so, and a reveal of a known end does nothing); `for` over
//!     players, kinds or a zone, with a filter; `if`; `compare` (which
//!     ends the game); quantifiers; and the **draw until** loop, `while
//!     C(first(z)) { move first(z) from z to T; ... }` where `C` reads
//!     nothing of the position but that end piece (the compiled test is
//!     asked of every kind when the game loads, `Compiler::draw_stops`)
//!     and the rest of the body leaves `z` alone:
//!     each round takes the end piece, so the loop ends at the first piece
//!     whose kind fails `C` if `z` holds one (checked at the decision),
//!     after at most as many rounds as `z` holds pieces, and the `move
//!     first(z)` right after it takes that piece. Steps are bounded by a
//!     polynomial in the pieces all zones hold (a zone walk gives at most
//!     that many, a counted zone at most one per kind; the turn adds no
//!     pieces, else the count is taken at the decision); the search
//!     requires the steps so far plus the bound within the limit, and at
//!     most 65535 pieces in all when the tail moves pieces. Then the
//!     options are the moves: perft counts the last ply without running
//!     it, a playout runs only the move it plays. Arithmetic (which may
//!     overflow) and `sum` other than of counts keep the pass from
//!     firing. Games: Bug Off! from a stacked deal (the deck in a known
//!     order: callgrind, `perft 6 --reveal --stack` 404.2M → 129.0M
//!     instructions, `perft 7` 1,350.9M → 719.1M with the perft change
//!     below), any game that plays, then draws until a kind of card.
//! 23. **Remembered collections over groups** ([`Compiler::collect_memo`]).
//!     `collect b in groups(P) where F: B` whose filter and body read
//!     nothing but the element and one other set local `a` — no position,
//!     no `me` — and cannot raise an error is a function of `a` and the
//!     pieces of `P` (which make its groups): its values are kept in a
//!     table per collection in the frame (1,024 entries), keyed by the
//!     pair, never stale, so forks do not copy them. A value found there
//!     counts the steps it took (as with pass 4). Collections that are the same
//!     but for the names of the element and of `a` (the same `def` called
//!     from several places) share one table. Games: Bug (`prey(a)`, asked by
//!     the eating group's bonus cells and again by each eating move's
//!     `for y in prey(eater)`: callgrind, `perft 4` 1,127.2M → 1,030.3M
//!     instructions, 100 playouts 106.4M → 105.3M), any rule that asks
//!     the same question of a group in several statements.
//! 24. **Largest groups** ([`Compiler::largest_group`]). `max x in S:
//!     size(group(x))` over a set of cells `S` that cannot fail, without a
//!     filter: every cell of a group has that group as its `group` and an
//!     empty cell's is empty, so the answer is the size of the largest
//!     group meeting `S` (0 when none does) — one flood per group instead
//!     of one per cell. The cells count against the step limit together
//!     (the body cannot fail, so a step error is the same). Games: Bug
//!     (`largest`, the growth limit measured before each placement:
//!     callgrind, 100 playouts 104.0M → 101.0M instructions, `perft 4`
//!     1,024.3M → 1,006.0M), any rule about the largest group or region
//!     on the board or among a player's pieces.
//! 25. **Options first** ([`Compiler::while_options`]). `while any a in
//!     D: F(a) { choose x in (collect b in D where F(b): B(b)) ... }`,
//!     the `choose` first in the body and without a filter, where `F`
//!     holds only when `B` is not empty (a conjunct `size(B) > 0`, `>= 1`
//!     or `!= 0`, perhaps inside inlined `def`s) and nothing can fail:
//!     the condition holds exactly when the `choose` has options, so it
//!     computes them and keeps them for the `choose` (a set local and a
//!     word saying it is there, `Compiler::fused`), which reads them
//!     unchanged — nothing runs between the two. The condition's own walk
//!     of `D` is not made, so a run counts fewer steps than the written
//!     order, never more (as with the remembered values of passes 4 and
//!     23); a step error there names the collection. Games: Bug (the eat
//!     loop: callgrind, 100 playouts 100.9M → 94.6M instructions, `perft
//!     4 -j 1` 1,009.0M → 941.4M), any rule that repeats a choice while
//!     it has options (chains of captures, repeated bonus moves).
//! 26. **Leaf lets fused** (`Compiler::push_fused`, [`super::effect::after_lets`]).
//!     A `let` of a word read from locals and the position in a few
//!     instructions (a [`super::expr::Leaf`]: `step(c, d)`, `kind(c)`,
//!     `owner(c)`, a property of either) cannot fail and changes only its
//!     local, so it is computed at the start of the next statement's
//!     closure instead of by a closure of its own: one call and one turn
//!     of the statement loop fewer per `let`, the same order of effects.
//!     A `let` at the end of a block keeps its own closure. Games: boop.
//!     (`let n = step(square, d)`, `let behind = step(n, d)` in every
//!     round of the push loop: callgrind, 20 playouts 149.6M → 147.5M),
//!     any rule that names the cells it steps to.
//! 27. **Arguments read in place** ([`inline_once`]). A `def` called with
//!     an argument that is not a local (`bug(first(draw_pile))`) binds it
//!     to the parameter's slot before the body runs. When the body reads
//!     that parameter once, as the first thing it evaluates (down the
//!     left operands of operators, `not` and properties: `net(k) == 0`),
//!     and everything else it evaluates cannot raise an error, the
//!     argument is put in the parameter's place: the same value, read at
//!     the same point with the same error, without the slot and the
//!     binding's closure. Games: Bug Off! (`not bug(first(draw_pile))`,
//!     asked after every draw), any rule that asks a `def` about a card
//!     read from a zone or a cell stepped to.
//! 28. **A `take` before the decision** (`runs_before`). `choose x in D
//!     where F` followed at once by `take k from Z`, with `k` a kind local
//!     other than `x` that `Z` is known to hold (`choose k in Z` earlier,
//!     as pass 2 knows it: the `take` cannot fail or raise an error), and
//!     `D` and `F` reading no zone (nor `repetitions`, which compares
//!     the whole position): the `take` is compiled before the
//!     decision and runs once, not once per option. The options are the
//!     same before the `take` as after it, and so is a chosen value's
//!     check, so the turn's moves and their results are the same. Only
//!     where the options are run: not after a decision whose options may
//!     be handed over unrun (lazy, sure, chance or drawn tails, a
//!     `require` asked at listing), where it would cost a run per earlier
//!     option instead of saving one. Games: boop. (`take piece from
//!     pool(me)` after `choose square`: callgrind, 20 playouts 134.5M →
//!     132.6M, `perft 3` 70.4M → 68.4M), any game that takes the chosen
//!     kind from a pool after choosing where it goes.
//! 29. **Cell switches** ([`Compiler::cell_switch`]). An `if` / `else if`
//!     chain of two or more tests, each `off(x)`, `empty(x)` or
//!     `occupied(x)` of the same cell local `x`, with or without a final
//!     `else` (`if off(behind) { ... } else if empty(behind) { ... }`):
//!     the cell's state is read once and selects, from a table made at
//!     compile time, the branch the chain would take (the first whose
//!     test holds, else the `else`), which runs as written. One closure
//!     instead of a closure per `if` and per test. A leaf `let` just
//!     before it (pass 26: `let behind = step(n, d)`) is computed in the
//!     same closure (session 31: boop. `perft 4` 1,319.9M → 1,310.9M;
//!     session 35, `step(n, d)` read without a match of the leaf: 1,146.1M
//!     → 1,142.4M). Each branch is one closure (`effect::seq`'s, none for
//!     an empty branch) rather than a statement list (session 35:
//!     1,142.4M → 1,130.1M, 200 playouts 706.1M → 696.0M). Games: boop.
//!     (the push: a piece pushed off the board or onto an empty cell), any
//!     rule that looks at where a piece would land.
//! 30. **Kind sets** (module `kinds`). `any`, `all` or `none` over the
//!     pieces of a zone named in the rule — an ordered zone whose
//!     sequence is known at load, or a counted zone of a constant player,
//!     `me` or a word local — when the filter and the body are built from
//!     comparisons of the piece's kind, or a property of it, with a
//!     constant or with another word local's kind or property (`type(n)
//!     == type(k)`, `n == card`, `rank(n) >= 2`), `def`s of the piece
//!     (`red(n)`), `not`, `and` and `or`: each comparison is a set of
//!     kinds (a word, for at most 64 kinds), made at compile time, per
//!     value of the other local when there is one (a local that holds no
//!     kind reads property 0 and equals no kind, as the closures read
//!     it). The quantifier is then the kinds the zone holds (its known
//!     pieces and the kinds face down in an ordered zone, its non-zero
//!     counters in a counted one) met with those sets: `any` meets the
//!     filter's and the body's, `none` does not, `all` leaves none of
//!     the filter's outside the body's. Like the set forms over cells, it
//!     counts no steps. Games: Bug Off! (`netted(k)`, `any n in row:
//!     type(n) == type(k)`, asked of each bug in each display after a net
//!     is drawn: callgrind, stacked `perft 7` 442.7M → 429.1M
//!     instructions, 200 playouts 47.5M → 46.8M), any card game that
//!     matches a card against the cards of a zone by suit or rank.
//! 31. **Arms alike** (`SiteInfo::counts_like`, made in
//!     `compile::compile` by `counts_alike`). Of the arms of an `either`
//!     that decide at once, one whose `choose` is among the kinds of the
//!     same counted zone and player as an earlier arm's (told in place,
//!     pass-free of `require`s, neither lazy nor chance), both with sure
//!     tails (and chance tails, if any) whose zones are known at load, the sure tails
//!     reading the same zones with the same draw-until stops, overflow
//!     and `add` conditions. A count that found the earlier arm's options
//!     in place (their number from the zone's counters, its sure tail
//!     holding) gives the later arm as many, after spending the listing's
//!     steps and the budget its own count spends and asking its own sure
//!     tail's step bound (`Searcher::count_like`); where the bound does not
//!     hold, the arm is counted as any. The moves, errors and steps are
//!     those of counting the arm itself (the zones' checks it skips are
//!     the earlier arm's, on the same position). Untraced counts only (a
//!     playout's trace marks every arm). Games: Bug Off! (`collect` and
//!     `score`, each a `choose card in hand(me)` before the same draw:
//!     callgrind, stacked `perft 7` 400.9M → 380.3M), any card game whose
//!     arms play a card from the hand in different ways.
//! 32. **Face up** (`Program::face_up`, made in `compile::compile` by
//!     `face_up`). Rules whose play (`turn`, `on no moves`, `at end`)
//!     reads the end of an ordered zone (the checker put a reveal before
//!     it) but never shuffles and has no `random` are compiled a second
//!     time without their reveals. From a position where no piece is
//!     face down (a stacked deal, a referee's position) no piece can be
//!     face down again, so every reveal does nothing: without them a
//!     `while` whose test reads a deck's top card holds no stop and
//!     compiles as one closure (not jumps and reveal ops run by the
//!     machine), and the decisions before a draw have sure tails alone
//!     (no chance tail to ask, and no zone whose face-down pieces a sure
//!     tail must ask about). Perft from such a position counts with it
//!     (`eval::perft_with`, for the whole count: no position below it has
//!     a face-down piece either). Its sites are the same, so its moves
//!     are the same; `check --passes` lists its passes as `face up: ...`.
//!     Games: Bug Off! (the draw loop: callgrind, stacked `perft 7`
//!     381.8M → 358.8M), any card game dealt by a referee.
//! 33. **Leaf counts** (`Program::leaf_count`, made in `compile::compile`
//!     by `leaf_count`; run by `eval::leaf`). A turn that begins with a
//!     `choose` among the kinds of a counted zone (its player a constant
//!     or `me`), or with an `either` whose arms each begin with one, each
//!     told in place (pass-free of `require`s, neither lazy nor chance)
//!     with a sure tail whose zones are known at load, in a program
//!     without remembered values. Perft counts the moves of a position at
//!     its last ply (`perft_w`, `perft_own` at depth 1) by asking what the
//!     search's count asks (`Searcher::count_at`: the arms spent from the
//!     budget; per arm the kinds held, spent, then the sure tail's bounds
//!     and zones, or for an arm alike an earlier one its bounds alone) in
//!     the same order, of the position itself: no searcher, level or
//!     frame. Wherever a question would not hold (the budget or step limit
//!     passed, a tail that does not hold, no move at all) it gives up and
//!     the search counts, so the counts and errors are the search's.
//!     Above the last ply, where every arm with options has its sure
//!     tail holding and the budget allows them all (`leaf::walkable`),
//!     perft walks the plan's moves itself (`eval::perft_planned`): each
//!     arm's held kinds in their listed order, each completed in a copy
//!     of the position as the perft sink completes a lazy decision's
//!     options (the arm's frame as the search leaves it: fresh, the
//!     listing's steps taken), then counted below — without the search's
//!     walk to the arms, their copies and listings.
//!     A playout that counts its moves (`Program::count_playouts`) counts
//!     by the same plan where it answers (`Searcher::count_planned`,
//!     asking each arm what the traced count asks: the chance tail, then
//!     the sure tail) and plays the move it draws from it
//!     (`Searcher::play_planned`: the arm, the steps the traced count
//!     leaves, the kind in listed order), with no trace, list or walk;
//!     else it counts with the trace as before. Games: Bug Off!
//!     (callgrind, `perft 8` from the bench's deal 481.1M → 410.7M for
//!     the last ply, about 750 instructions a counted position before,
//!     300 after; 405.8M → 331.8M for the walk above it; 2,000 playouts
//!     341.2M → 250.7M), any card game whose turn plays a card from a
//!     hand.
//! 34. **End kinds** ([`Compiler::end_kind_test`]). The test of a
//!     `while` that reads only the kind of one zone's end piece (`while
//!     not bug(first(draw_pile))`: no local from outside, no other read of
//!     the position, not even `me` but to name the zone) is asked of every
//!     kind when the game loads; a kind whose test took no step and raised
//!     nothing answers from that table, and an empty or face-down end, or
//!     any other kind, asks the test itself, so steps and errors are the
//!     test's. Both a `while` run as ops after its reveals and one
//!     compiled as a closure (the rules without reveals, pass 32) take it.
//!     Games: Bug Off! (the draw loop: callgrind, `perft 8` from the
//!     bench's deal 335.1M → 328.4M; 2,000 playouts 250.5M → 247.6M), any
//!     card game that draws until a kind of card.
//! 35. **Live locals** (module [`super::live`], `SiteInfo::live` and
//!     `SiteInfo::each`). An option of a decision runs in a copy of the
//!     level the decision was listed in; of the frame, the copy carries
//!     only the locals in scope at the decision (the `let`s, `choose`s,
//!     `for` elements and action arguments whose block encloses it, the
//!     cursors of the `for`s around it that run as ops, and the slots a
//!     pass leaves from one op to another, pass 25's), since a run
//!     resumed there writes every other local before it reads it. Where
//!     the copy level holds the run of the option before (the count and
//!     fork loops over a set's cells), only those of them that such a
//!     run may write are copied again: none unless the decision is in a
//!     loop or a local in scope is assigned after it. Debug builds copy
//!     slot by slot wherever a slot is left out and fill the others with
//!     junk, so every test run checks the reasoning. Games: boop.
//!     (`choose square` carries 2 of 15 words and, for each option after
//!     the first, none: callgrind `perft 4` 1,066.2M → 1,001.6M, 200
//!     playouts 629.3M → 615.6M), any game whose frame holds more locals
//!     than a decision has in scope.
//! 36. **Fused tests** ([`super::stmt::fuse_tests`]). A block's `Run` op
//!     followed by the `JumpUnless` of an `if` or `while` that holds a
//!     decision, where no op jumps to the test, becomes one op: the
//!     statements, then the test (the machine dispatches once, not
//!     twice). Games: boop. (the placement and its pushes, then `if any
//!     l in lines(3): three_of_mine(l)`: callgrind `perft 4` 1,001.6M →
//!     990.9M), Nine Men's Morris (`perft 4` −1.25%), chess.
//! 37. **Kinds by a property** ([`Pred::KindProp`], [`KindProp`]). `p(kind(x))
//!     op E`, a property of the piece on the cell compared with a
//!     constant or with `q(k)` of a kind local `k` not about the cell, is
//!     a set form: the union of the occupancy sets of the kinds whose
//!     `p` passes (a table made when the game loads, per value of `k`),
//!     with the empty cells and `none` when 0 passes (an empty cell's
//!     piece has every property 0). `occupied(x) and p(kind(x)) op E` is
//!     one such set without the empty cells, and pass 9 takes it whole as
//!     its guard: `for d in dirs { let n = step(c, d)  if occupied(n) and
//!     strength(kind(n)) <= strength(piece) { ... } }` skips the rounds
//!     whose neighbour is too strong with the bit test and runs no test
//!     of the property in a round that runs. Where no round assigns `k`,
//!     the kinds are chosen once per loop, not at every evaluation of the
//!     set. Games: boop. (the pushes: callgrind 200 playouts 611.1M →
//!     585.2M, `perft 4` 991.8M → 996.9M — from the start only Kittens
//!     are placed, so no round is skipped, and the table's read costs a
//!     little more than the test it replaces; paired walls 1.065 for
//!     1,000 playouts, 0.98–0.99 for `perft 5`, within a pair of files'
//!     spread), any rule that compares ranks or strengths of pieces
//!     (captures by a stronger piece, pushes, promotions by value).
//! 38. **Stepless rounds** (`stepless`). Pass 9's rounds over the
//!     directions from a fixed cell count a step each, as they go (a
//!     batch of rounds passed over, then the round that runs). Where
//!     nothing in a round counts a step of its own (no loop, no
//!     quantifier, no decision: `stepless`, a short list of forms) and
//!     the loop's steps fit under the limit, the loop takes them all at
//!     once and its rounds count none: no round can then pass the limit,
//!     nothing in a round reads the count, and the loop leaves it as the
//!     rounds would. Where they do not fit, the rounds count as before,
//!     so the error is the same where it is raised. Games: boop. (the
//!     pushes: callgrind `perft 4` 996.9M → 971.9M, 200 playouts 585.2M
//!     → 563.2M), any rule that looks at each neighbour in turn.
//!     The rounds also write the cell they found in the step table's row
//!     into the guard's `let` instead of looking it up again (`perft 4`
//!     971.9M → 966.6M, 200 playouts 563.2M → 556.9M).
//! 39. **Moves into an empty cell** ([`Compiler::cell_switch`]). In a
//!     cell switch on `x`, an `empty(x)` branch that is `move y to x` of
//!     a cell local `y` is reached only where `x` is on the board and
//!     empty, so it moves in the switch's closure, asking only whether
//!     `y` holds a piece (the move fails the same way as before where it
//!     does not), not through a closure of its own. Games: boop. (the
//!     push into an empty square: callgrind `perft 4` 966.6M → 955.4M,
//!     200 playouts 556.9M → 550.8M), any push or slide onto an empty
//!     cell written as an `if` chain.
//! 40. **Stepped switches** (`StepSwitch`, `Compiler::step_switch`).
//!     Pass 9's rounds over the directions from a fixed cell, whose
//!     whole condition is the guard and whose statements are exactly `let
//!     x = step(n, d)` (the round's own cell and direction) and a cell
//!     switch on `x` (pass 29): the round is made in the rounds' closure
//!     (a type of its own, not a boxed closure), `x` read from the step
//!     table with the cell and direction the rounds found, not from their
//!     locals. Where no branch the switch runs as statements reads `x` or
//!     `d` (`stmts_read`; the chain's tests are the switch's, and a pass
//!     39 move reads only the cell it moves from), neither is written at
//!     all: no statement of the round reads them, and they are not seen
//!     after the loop. Games: boop. (the boop: callgrind `perft 4` 950.1M →
//!     909.7M, 200 playouts 527.8M → 501.9M), any push along the
//!     directions written this way.
//! 41. **Kind filters** (`kinds::KindQuant`, `Compiler::kind_filter`,
//!     [`super::effect::RoundFilter`]). `for q in players { for k in Z(q)
//!     where F { ... } }` whose filter `F` is a pass 30 quantifier (`any n
//!     in row: type(n) == type(k)`) over a zone whose identity cannot
//!     change and that no statement of the loop may change (`writes_zone`,
//!     conservative: a change of any zone not named as a zone counts):
//!     the kinds that zone holds are read once, before the first round,
//!     and each round meets them with the kinds that pass for its `k`.
//!     The quantifier counts no steps and raises no error, so reading
//!     its zone once is invisible. Where the quantifier is `any n in Z:
//!     C(n, k)` with `C` a kind set of the loop's own local alone (and at
//!     most a filter on `n` alone), the kinds that pass are found once
//!     too, as the union over the kinds `Z` holds of a table made at load
//!     (`kinds::KindPass`), and a round tests its kind's bit. Games: Bug
//!     Off! (the nets drawn empty the displays of the netted types:
//!     callgrind `perft 7` from the stacked deal 223.2M → 217.9M; the
//!     table, 214.6M → 212.3M), any card game that acts on the cards of
//!     each hand matching what lies on the table.
//! 42. **Rounds apart** (`StepSwitch::apart`, `writes_only`,
//!     `steps_apart`). After a round of pass 9 runs, its guard's set is
//!     asked again, since the round may have changed a cell a later round
//!     tests. It is not asked again after a pass 40 round whose guard
//!     reads only the pieces on cells (`occupied(n)`, or pass 37's kinds
//!     with a kind no round changes), whose switch changes no cell but
//!     its own `n` and `x` (`remove`, `move`, `place`, `change` of those
//!     two and of the `let`s and action parameters bound to them; pieces
//!     added to or taken from zones; tests, wins, losses: anything else,
//!     an assignment or a loop included, keeps the question), on a board
//!     where neither the step from a cell in a direction nor the step
//!     beyond it is the step from that cell in a later direction (every
//!     grid; a graph board with a loop of three, or two directions to one
//!     point, is not). The cells the later rounds test are then as they
//!     were. Games: boop. (callgrind `perft 4` 908.8M → 901.9M, 200
//!     playouts 484.2M → 471.8M, listed 77.1M → 75.9M), any push along
//!     the directions.
//! 43. **Touch bounds** ([`Compiler::touch_bound`]). A `collect a in
//!     groups(P) where F` (or `any` / `none a in groups(P) where F: C`,
//!     `all` with its filter) whose filter (or body) holds only when `a`
//!     touches a group of `Q` — a conjunct `size(collect b in groups(Q) where ...
//!     touches(a, b) ...) > 0` (or `>= 1`, `!= 0`, either way round), or
//!     `any b in groups(Q) where ...` with such a `touches`, perhaps
//!     inside inlined `def`s ([`implied_touch`]) — keeps nothing (no
//!     element passes: `any` is false, `none` true; `all` asks none, so
//!     it is true) when no piece of `P` is next to a piece of `Q`: every
//!     group of `P` is a set of `P`'s pieces and every group of `Q` a set
//!     of `Q`'s. That is one spread of the smaller of the two sets of
//!     pieces, and the walk, its group lists and its filters are left
//!     out. Only where `F` cannot
//!     fail and `P` and `Q` read no local, on boards whose neighbours are
//!     symmetric; the walk's steps are then not counted (a run takes
//!     fewer steps than the written order, never more, as in passes 16
//!     and 25). Games: Bug (the candidates of pass 25's `while`, which
//!     ask for prey: callgrind, `perft 4` 712.8M → 594.2M, the bench's
//!     `perft 3` −16.2%, 100 playouts 75.9M → 72.3M; paired wall `perft
//!     5` 0.874), any rule that looks for captures, contacts or attacks
//!     between groups only where they meet.
//! 44. **Group-size requires** ([`CellRequire`], module `cell_require`).
//!     `choose c in D [where F]` of a cell, then `place K at c` for the
//!     mover (`K` a constant or a local), then one or more `require C`
//!     whose only look at the position is `size(group(c))` (with
//!     constants, locals, `me`, `not`, `and`, `or`, comparisons,
//!     properties of kinds and inlined `def`s around it; no arithmetic,
//!     which may overflow) are asked of every
//!     cell as the options are listed and not run after the decision, as
//!     pass 17's are for placements (`machine::prune`, `admits` for a
//!     drawing playout, `take_choice` for a move played from its
//!     choices, the first failing `require` named, in the written order).
//!     The group of the mover's piece on the empty cell `x` is `x` and the
//!     part of the mover's pieces that `x`'s neighbours reach, whatever
//!     the kind, so its size is one flood from them, with nothing placed;
//!     the conditions read it from a word the compiler substitutes for
//!     `size(group(c))` (`Compiler::group_size`). Where they read `c`
//!     only through that size, a listing asks them once per size. They
//!     count no step and raise no error, so the runs meet the same step
//!     limit without them; a cell where the `place` would not go ahead (no
//!     mover, no kind, the cell not empty) is kept, and its run meets the
//!     `place` as written. A rejected cell counts against the budget of
//!     choices before it is dropped. As with passes 17 and 19, a tail
//!     left with only safe statements becomes lazy (pass 2), and then a
//!     step error later in the tail is met when the move is played, not
//!     when it is listed. Games: Bug (its growth limit, `require
//!     size(group(c)) == 1 or size(group(c)) <= limit`: callgrind, the
//!     bench's `perft 3` 3,980M → 3,586M, −9.9%; `perft 4` 584.5M →
//!     549.3M; 100 playouts 71.3M → 67.7M), any game that limits the
//!     size of the group a stone joins.
//! 45. **Paired statements** (`Compiler::fused_pair`, `effect::piece_home`,
//!     `Arm::Home`). A statement and the one after it run as one closure
//!     where the pair has a form of its own: `add kind(c) to Z(owner(c))`
//!     then `remove c`, a piece leaving the board for its owner's counted
//!     zone, with the `add`'s failure from an empty cell and its error at
//!     65535 pieces kept at the `add`'s span; a cell switch's branch that
//!     is that pair runs in the switch's own closure, taking its cell from
//!     pass 9's rounds where they know it. Games: boop. (its pushes'
//!     `send_home(n)`: `perft 4` −1.53% and −0.59% instructions, paired
//!     wall 0.995 and 0.953), any game whose captured or pushed pieces
//!     return to their owner's reserve.
//! 46. **Fused `else if`** ([`super::stmt::fuse_tests`], `Op::RunElseIf`).
//!     A pass 36 op whose test, where it fails, goes to the test of an
//!     `else if` that nothing else reaches (no other op jumps there, and
//!     the op before it is a jump, so no branch runs on into it and no
//!     run resumes there) takes that test in: the statements and both
//!     tests are one op, and the machine dispatches once where the `if`
//!     fails. An `if` without `else` followed by another `if`, and an
//!     `else` that begins with a `while` (whose test each round comes back
//!     to), are left as they are. Games: boop. (`else if count(pool(me))
//!     == 0`, asked after every placement that makes no line: callgrind
//!     `perft 4` 859.5M → 839.4M, −2.34%; paired wall of `perft 5`
//!     0.951–0.987 in four code layouts), any game whose turn ends in an
//!     `if` / `else if` chain with decisions inside.
//! 47. (Session 50's fusion of a placement, the rounds around it and the
//!     line test after them into one closure: measured and dropped, see
//!     `docs/performance-log.md`.)
//! 48. **First in a range** ([`Compiler::first_in_range`]). `min x in
//!     range(a, b) where F: x` (and `max`), the element itself as the
//!     body, with a filter that can neither fail nor count a step
//!     ([`never_errs`], `stepless_expr`): the numbers are tried from the
//!     end the answer lies at, and the walk stops at the first that
//!     passes (0 when none does), where the fold looked at every number.
//!     The range's numbers are counted against the step limit at once,
//!     as the walk counts them; where they would pass the limit, the walk
//!     runs one number at a time and stops with the error where it did.
//!     Constant bounds are read without a call. Games: Othello (`stop(c,
//!     d)`, the first cell of a ray not holding an opponent's disc; as the
//!     game was first written, asked for every empty cell and direction
//!     as the moves are listed: callgrind `perft 6` 1,406.5M → 281.1M
//!     instructions, 20 playouts 645.7M → 155.6M; paired wall of `perft
//!     7` 5.47× faster), any game that asks for the first or last index
//!     where something holds.
//! 49. **Cell patterns** ([`Compiler::cell_pattern`]). A set of cells
//!     that reads no position, counts no step and cannot fail, and whose
//!     only locals are one cell and at most one player (`knight_squares(x)`,
//!     a list of steps from `x`; `if p == White then [step(x, sw),
//!     step(x, se)] else ...`), is evaluated when the game loads for
//!     every cell and `none` (and every player and `none`), and looked up
//!     at run time. Forms as cheap as the lookup (a local, a constant,
//!     `neighbours(x)`, `[x]`) are left alone; a table holds at most 6 ×
//!     257 sets. Games: Chess (the knights' squares and the pawns'
//!     attackers asked around the king after every candidate move, and
//!     the knights' targets: callgrind `perft 4` 1,443.7M → 1,312.9M
//!     instructions, 10 playouts 531.7M → 486.0M; paired wall of `perft
//!     4` 1.107× and 40 playouts 1.086× faster), any game whose pieces
//!     move or attack in a fixed pattern around a cell.
//! 50. **Ray stops** (`Compiler::ray_stop`, [`super::Tables::first_in_or_last`]).
//!     `last(upto(ray(c, d)))`, the language manual's way to say "the
//!     first piece along a ray, or the ray's last cell", as one closure:
//!     the ray's line scanned for its first occupied cell (a bit scan
//!     where its cell ids run one way, a walk in order where they do
//!     not), where three closures made the ray, then its prefix up to
//!     the first piece (a count of the cells below it and a table
//!     lookup), then read the prefix's last cell. Games: Chess (the
//!     sliding attackers asked around the king after every candidate
//!     move: callgrind `perft 4` 1,313.2M → 1,231.1M instructions, 5
//!     playouts 307.5M → 286.6M; paired wall of `perft 5` 1.059× and 200
//!     playouts 1.071× faster), any game with sliding pieces.
//! 51. **Ray quantifiers** (`Compiler::ray_table`). `any d in dirs: B`
//!     (or `none`, `all`, `count`) where `B` reads the position only as
//!     `owner(R)`, `kind(R)` and `occupied(R)` of the ray stop `R =
//!     last(upto(ray(x, d)))` from a cell local `x`,
//!     its other locals being `d` and at most one player local, cannot
//!     fail and counts no step: `B` is asked when the game loads for
//!     every player (and `none`), direction and piece (and no piece), on
//!     a board empty but for that piece next to a cell whose every step
//!     is on the board, and kept as a word of pieces per player and
//!     direction. A run scans only the rays whose word is neither empty
//!     nor full, for their first piece, and tests its bit; the directions
//!     looked at (up to the first that decides, or all for `count`) are
//!     counted at once. Games: Chess
//!     (`attacked`'s sliders, asked around the king after every
//!     candidate move and for castling: callgrind `perft 4` 1,231.1M →
//!     1,051.0M instructions, 5 playouts 286.6M → 234.8M; paired wall of
//!     `perft 5` 1.17× and 200 playouts 1.22× faster), any game whose
//!     sliding pieces attack or block along rays.
//! 52. **First along a line** (`Compiler::ray_first`, in
//!     `Compiler::first_in_range`). Pass 48's `min k in range(a, b) where
//!     F: k` (or `max`) where every read of `k` in `F` is `L[k]` of one
//!     line `L` that does not read `k` (`owner(ray(c, d)[k]) !=
//!     opponent`, Othello's run of discs to bracket): `L[k]` is put into
//!     `F` as a fresh cell local (`Compiler::fresh_cell_local`, a slot
//!     past the checked game's), and where `F` is then a predicate in set
//!     form that asks only occupancy sets, tables and closures (not a
//!     quantifier over groups or every cell's neighbours), a run computes
//!     that set once, on the line's cells, and walks the line's cells
//!     against it, where the walk computed `L[k]` and `F` for each
//!     number; the numbers below 1 and past the line's end (where `L[k]`
//!     is `none`) pass as `F` does at `none`. The range's numbers are
//!     counted as pass 48 counts them. `L` is read in place when it is
//!     `ray(c, d)` of two locals or a line local. Games: Othello (its
//!     `stop`: callgrind `perft 6` 162.7M → 151.9M instructions, 60
//!     playouts 276.7M → 243.9M; paired wall of 2,000 playouts 1.19×
//!     and `perft 8` 1.14× faster), any game that captures by
//!     bracketing a run of pieces along a line.
//! 53. **Guarded directions** (`Compiler::dirs_guard`). `any d in dirs:
//!     A and B` (or `none`; for `all` too where `A` is the filter's first
//!     conjunct, since an element that fails `all` passes its filter)
//!     where `A` reads `d` only as `step(x, d)` of one cell `x` that does
//!     not read `d`, cannot fail and counts no step: `step(x, d)` is put
//!     into `A` as a fresh cell local, and where `A` is then a plain set
//!     form, a run computes its set once and tests each direction's step
//!     from `x` against it (`none` as `A` holds at `none`), asking `B`
//!     only where it holds, as `and` asks it. The directions are counted
//!     as steps in order, those passed over together, so a limit stops
//!     the run where the walk stops. A `def` whose arguments are all
//!     locals (`brackets(c, d)`) is read through, each parameter read as
//!     its argument. Games: Othello (`legal`'s `any d in dirs:
//!     brackets(c, d)`, where `A` is the neighbour's owner: callgrind
//!     `perft 6` 151.9M → 99.2M instructions, 60 playouts 243.9M →
//!     189.7M; paired wall of 2,000 playouts 1.43× and `perft 8` 1.88×
//!     faster), any rule that asks something of the neighbours that pass
//!     a simple test. The guard is asked of the cell's neighbours only
//!     (`Tables::stepped_from`), and where none of them passes (and `A`
//!     fails at `none`) every direction is counted at once with no loop:
//!     Othello 60 playouts 184.9M → 173.9M, `perft 6` 96.5M → 82.8M,
//!     paired wall 1.02× and 1.08× faster.
//! 54. **Drawn filters** ([`FilterDraw`], `eval::machine::candidates`,
//!     `eval::machine::filter_holds`, `Searcher::filter_drawn`). A
//!     `choose` over cells whose tail is lazy or drawn (pass 15), whose
//!     filter (or the part after its set-form conjuncts) is asked per
//!     cell and can raise no error but by its steps, and which asks no
//!     `require` as it lists: at the first decision of a search for a
//!     playout that draws, the candidates (the domain's cells, or those
//!     of the set-form part) are handed over with the filter unasked, and
//!     the filter is asked only of the candidates drawn, a failing one
//!     put aside and the draw repeated (`Successors::draw`), so the move
//!     is uniform among the moves. Only where the run's steps so far plus
//!     the most one cell's listing takes (a step and the filter's
//!     quiet bound) times the candidates plus the rest's bound fit under
//!     the step limit, and the candidates within the choices left: then
//!     neither way can stop with an error. Games: Othello (`legal`, most
//!     empty cells fail it: callgrind 200 playouts 249.1M → 110.5M with
//!     other games, paired wall of 2,000 playouts 2.40× faster), any game
//!     whose legality is a per-cell rule a set form cannot state.
//!
//! Expressions are pure, so computing a predicate for more cells than the
//! written short-circuit order would ask about is invisible; the passes
//! only do so for expressions that cannot raise an error.

use super::expr::{bits_at, occupied, Compiler};
use super::{Cx, Dom, Frame, Set, Var, B, I, P, S};
use crate::board::{CellId, NO_CELL};
use crate::ir::{self, BinOp, Builtin, Expr, Quant, Slot, Stmt, StmtKind, Ty, UnOp, Value};
use crate::state::State;
use std::collections::BTreeSet;

mod cell_require;
mod kinds;
mod sure;

pub use cell_require::{CellRequire, Placing, SizeAnswers};
pub use sure::{Poly, SureTail};

/// A cell predicate in set form: evaluates to the set of cells where it
/// holds and whether it holds at `none`.
pub enum Pred<const W: usize> {
    /// `true` / `false`.
    Const(bool),
    /// Independent of the position: precomputed.
    Static(Set<W>, bool),
    /// A condition that does not mention the cell: everywhere or nowhere.
    Cond(B<W>),
    /// `empty(x)`
    Empty,
    /// `occupied(x)`
    Occupied,
    /// `off(x)`
    Off,
    /// `owner(x) == me`
    OwnerMe,
    /// `owner(x) == P` for a constant player (or `none`).
    OwnerConst(i64),
    /// `kind(x) == K` for a constant kind (or `none`).
    KindConst(i64),
    /// `owner(x) == E`
    OwnerIs(I<W>),
    /// `kind(x) == E`
    KindIs(I<W>),
    /// `contains(T, x)`
    In(S<W>),
    /// `P(step(x, d))`
    Pre(usize, Box<Pred<W>>),
    /// `a and b`
    And(Box<Pred<W>>, Box<Pred<W>>),
    /// `a or b`
    Or(Box<Pred<W>>, Box<Pred<W>>),
    /// `not a`
    Not(Box<Pred<W>>),
    /// A `def`'s arguments that do not mention the cell, bound first.
    Let(Vec<super::Store<W>>, Box<Pred<W>>),
    /// A relation between the cell and another cell (a local, `other`)
    /// and perhaps `me` that does not read the position, precomputed:
    /// entry `me * (cells + 1) + other` (`cells` standing for `none`) is
    /// the set where it holds and whether it holds at `none`.
    Rel {
        /// The other cell's word slot, if the relation has one.
        other: Option<u16>,
        /// Whether the table is indexed by `me` too.
        by_me: bool,
        /// The precomputed sets.
        table: Box<[(Set<W>, bool)]>,
    },
    /// `touches(S, x)`: the cells next to a cell of `S` (boards whose
    /// neighbours are symmetric).
    Touching(S<W>),
    /// A quantifier over a collection of sets (`groups(me)`) whose
    /// condition is a predicate of the cell: `count b in D where P(b, x)`
    /// compared with a number, or `any` / `none` / `all`. Each element's
    /// set is computed once and the cells are counted together.
    Across {
        /// The element's local.
        var: Var,
        /// The collection.
        dom: super::D<W>,
        /// The condition of element and cell (for `all`: the filter and
        /// the body negated; the cell passes when no element meets it).
        inner: Box<Pred<W>>,
        /// How the per-cell count of elements meeting `inner` decides.
        test: Tally<W>,
    },
    /// `any` / `none b in D [where C]: touches(b, x)` with `C` not about
    /// the cell: the cells next to the union of the elements that pass
    /// `C`, spread once (the same answer as [`Pred::Across`], since the
    /// cells next to a union are the union of the cells next to each).
    AcrossTouch {
        /// The element's local.
        var: Var,
        /// The collection.
        dom: super::D<W>,
        /// `C`, if any.
        cond: Option<B<W>>,
        /// The element's set (`b` in `touches(b, x)`).
        set: S<W>,
        /// `any` (true) or `none` (false).
        some: bool,
    },
    /// A property of the piece on the cell compared with a number that
    /// does not read the cell (`strength(kind(x)) <= strength(piece)`):
    /// the union of the kinds' sets whose property passes (see
    /// [`KindProp`]).
    KindProp(KindProp),
    /// `count y in neighbours(x) where P(y)` compared with a number that
    /// does not depend on the cell: `P`'s set is computed once, and each
    /// cell asked about is a popcount of its neighbours in that set.
    NbrCount {
        /// `P`, about the neighbour.
        inner: Box<Pred<W>>,
        /// The comparison, with the count on its left.
        op: BinOp,
        /// The number compared with.
        k: I<W>,
    },
}

impl<const W: usize> Pred<W> {
    /// Whether the predicate asks only a few occupancy sets, tables and
    /// closures, not a quantifier over groups or the neighbours of every
    /// cell: worth computing for the whole board where only a few cells
    /// are asked about.
    pub fn is_plain(&self) -> bool {
        match self {
            Pred::Across { .. } | Pred::AcrossTouch { .. } | Pred::NbrCount { .. } => false,
            Pred::Pre(_, p) | Pred::Not(p) | Pred::Let(_, p) => p.is_plain(),
            Pred::And(a, b) | Pred::Or(a, b) => a.is_plain() && b.is_plain(),
            _ => true,
        }
    }

    /// The cells where the predicate holds, and whether it holds at `none`:
    /// exact on the cells of `within`, anything outside them.
    pub fn eval(&self, cx: &mut Cx<'_, W>, within: Set<W>) -> (Set<W>, bool) {
        match self {
            Pred::Const(b) => (if *b { cx.t.all } else { Set::EMPTY }, *b),
            Pred::Static(s, n) => (*s, *n),
            Pred::Cond(b) => {
                if b(cx) {
                    (cx.t.all, true)
                } else {
                    (Set::EMPTY, false)
                }
            }
            Pred::Empty => (cx.t.all.minus(occupied(cx)), false),
            Pred::Occupied => (occupied(cx), false),
            Pred::Off => (Set::EMPTY, true),
            Pred::OwnerMe => (bits_at(cx.st, cx.st.current as usize), false),
            Pred::OwnerConst(p) => Self::owner_is(cx, *p),
            Pred::KindConst(k) => Self::kind_is(cx, *k),
            Pred::OwnerIs(p) => {
                let p = p(cx);
                Self::owner_is(cx, p)
            }
            Pred::KindIs(k) => {
                let k = k(cx);
                Self::kind_is(cx, k)
            }
            Pred::In(s) => (s(cx), false),
            Pred::Pre(d, p) => {
                let (x, n) = p.eval(cx, cx.t.all);
                let cells = cx.t.cells;
                let mut out = if n { cx.t.edge[*d] } else { Set::EMPTY };
                for y in x.iter() {
                    let c = cx.t.back[*d * cells + y as usize];
                    if c != NO_CELL {
                        out.insert(c);
                    }
                }
                (out, n)
            }
            // The second operand is asked only about the cells the first
            // leaves open.
            Pred::And(a, b) => {
                let (x, m) = a.eval(cx, within);
                let (y, n) = b.eval(cx, within.and(x));
                (x.and(y), m && n)
            }
            Pred::Or(a, b) => {
                let (x, m) = a.eval(cx, within);
                let (y, n) = b.eval(cx, within.minus(x));
                (x.or(y), m || n)
            }
            Pred::Not(a) => {
                let (x, m) = a.eval(cx, within);
                (cx.t.all.minus(x), !m)
            }
            Pred::Let(binds, p) => {
                for b in binds {
                    b(cx);
                }
                p.eval(cx, within)
            }
            Pred::Rel { other, by_me, table } => {
                let cells = cx.t.cells;
                let a = match other {
                    Some(w) => {
                        usize::try_from(cx.fr.w[*w as usize]).map_or(cells, |a| a.min(cells))
                    }
                    None => 0,
                };
                let me = if *by_me { cx.st.current as usize } else { 0 };
                let at = if other.is_some() { me * (cells + 1) + a } else { me };
                table.get(at).copied().unwrap_or((Set::EMPTY, false))
            }
            Pred::Touching(s) => {
                let s = s(cx);
                (super::expr::around(cx.t, s), false)
            }
            Pred::KindProp(k) => k.eval(cx),
            Pred::Across { var, dom, inner, test } => {
                let within = within.and(cx.t.all);
                let d = dom(cx);
                match test {
                    Tally::Some | Tally::No => {
                        let mut hit = Set::EMPTY;
                        let mut at_none = false;
                        super::expr::each(cx, d, *var, |cx| {
                            let (s, n) = inner.eval(cx, within);
                            hit = hit.or(s);
                            at_none |= n;
                            true
                        });
                        match test {
                            Tally::Some => (hit, at_none),
                            _ => (within.minus(hit), !at_none),
                        }
                    }
                    Tally::Cmp(op, k) => {
                        let k = k(cx);
                        if k <= 2 {
                            return Self::sliced(cx, d, *var, inner, within, *op, k);
                        }
                        let mut counts = [0u16; 256];
                        let mut at_none = 0u16;
                        super::expr::each(cx, d, *var, |cx| {
                            let (s, n) = inner.eval(cx, within);
                            for c in s.and(within).iter() {
                                if let Some(x) = counts.get_mut(c as usize) {
                                    *x = x.saturating_add(1);
                                }
                            }
                            at_none = at_none.saturating_add(u16::from(n));
                            true
                        });
                        let mut out = Set::EMPTY;
                        for c in within.iter() {
                            let n = counts.get(c as usize).copied().unwrap_or(0);
                            if compare(*op, i64::from(n), k) {
                                out.insert(c);
                            }
                        }
                        (out, compare(*op, i64::from(at_none), k))
                    }
                }
            }
            Pred::AcrossTouch { var, dom, cond, set, some } => {
                let within = within.and(cx.t.all);
                let d = dom(cx);
                let mut union = Set::EMPTY;
                super::expr::each(cx, d, *var, |cx| {
                    if cond.as_ref().is_none_or(|c| c(cx)) {
                        union = union.or(set(cx));
                    }
                    true
                });
                // `touches(b, none)` is false: no element meets `none`.
                let hit = super::expr::around(cx.t, union);
                if *some {
                    (hit, false)
                } else {
                    (within.minus(hit), true)
                }
            }
            Pred::NbrCount { inner, op, k } => {
                let (x, _) = inner.eval(cx, cx.t.all);
                let k = k(cx);
                let cells = within.and(cx.t.all);
                let nbr = &cx.t.nbr;
                // The comparison chosen once, outside the loop over cells.
                let out = match op {
                    BinOp::Eq => Self::nbr_counts(nbr, cells, x, |n| n == k),
                    BinOp::Ne => Self::nbr_counts(nbr, cells, x, |n| n != k),
                    BinOp::Lt => Self::nbr_counts(nbr, cells, x, |n| n < k),
                    BinOp::Le => Self::nbr_counts(nbr, cells, x, |n| n <= k),
                    BinOp::Gt => Self::nbr_counts(nbr, cells, x, |n| n > k),
                    BinOp::Ge => Self::nbr_counts(nbr, cells, x, |n| n >= k),
                    _ => Set::EMPTY,
                };
                // `neighbours(none)` is empty: the count there is 0.
                (out, compare(*op, 0, k))
            }
        }
    }

    /// The cells of `cells` whose number of neighbours in `x` passes `keep`
    /// (pass 5).
    #[inline(always)]
    fn nbr_counts(nbr: &[Set<W>], cells: Set<W>, x: Set<W>, keep: impl Fn(i64) -> bool) -> Set<W> {
        let mut out = Set::EMPTY;
        for c in cells.iter() {
            let n = nbr.get(c as usize).map_or(0, |s| s.and(x).len()) as i64;
            if keep(n) {
                out.insert(c);
            }
        }
        out
    }

    /// [`Pred::Across`] with a count compared with `k` of at most 2: the
    /// counts kept as bit-sliced sets saturating at 3 (`ge[j]` holds the
    /// cells met by more than `j` elements), since a count of 3 or more
    /// compares with such a `k` as 3 does; a few set operations per
    /// element instead of a counter per cell.
    #[allow(clippy::too_many_arguments)]
    fn sliced(
        cx: &mut Cx<'_, W>,
        d: Dom<W>,
        var: Var,
        inner: &Pred<W>,
        within: Set<W>,
        op: BinOp,
        k: i64,
    ) -> (Set<W>, bool) {
        let mut ge = [Set::<W>::EMPTY; 3];
        let mut at_none = 0u16;
        super::expr::each(cx, d, var, |cx| {
            let (s, n) = inner.eval(cx, within);
            let s = s.and(within);
            ge[2] = ge[2].or(ge[1].and(s));
            ge[1] = ge[1].or(ge[0].and(s));
            ge[0] = ge[0].or(s);
            at_none = at_none.saturating_add(u16::from(n));
            true
        });
        let exactly = [within.minus(ge[0]), ge[0].minus(ge[1]), ge[1].minus(ge[2]), ge[2]];
        let mut out = Set::EMPTY;
        for (v, cells) in (0i64..).zip(exactly) {
            if compare(op, v, k) {
                out = out.or(cells);
            }
        }
        (out, compare(op, i64::from(at_none), k))
    }

    fn owner_is(cx: &Cx<'_, W>, p: i64) -> (Set<W>, bool) {
        if (p as usize) < cx.t.players {
            (bits_at(cx.st, p as usize), false)
        } else if p == i64::from(ir::NONE8) {
            (cx.t.all.minus(occupied(cx)), true)
        } else {
            (Set::EMPTY, false)
        }
    }

    fn kind_is(cx: &Cx<'_, W>, k: i64) -> (Set<W>, bool) {
        if (k as usize) < cx.t.kinds {
            (bits_at(cx.st, cx.t.players + k as usize), false)
        } else if k == i64::from(ir::NONE16) {
            (cx.t.all.minus(occupied(cx)), true)
        } else {
            (Set::EMPTY, false)
        }
    }

    /// `a and b`; `occupied(x)` and a [`KindProp`] (either order) as one
    /// [`KindProp`] of the occupied cells alone (pass 37).
    pub fn and(a: Pred<W>, b: Pred<W>) -> Pred<W> {
        match (a, b) {
            (Pred::Occupied, Pred::KindProp(k)) | (Pred::KindProp(k), Pred::Occupied) => {
                Pred::KindProp(KindProp { occupied_only: true, ..k })
            }
            (a, b) => Pred::And(Box::new(a), Box::new(b)),
        }
    }

    /// The occupancy test this predicate is, if it is one.
    fn as_leaf(&self) -> Option<Leaf> {
        match self {
            Pred::Empty => Some(Leaf::Empty),
            Pred::Occupied => Some(Leaf::Occupied),
            Pred::OwnerMe => Some(Leaf::OwnerMe),
            Pred::OwnerConst(p) => Some(Leaf::Owner(*p)),
            Pred::KindConst(k) => Some(Leaf::Kind(*k)),
            _ => None,
        }
    }

    /// As a [`Guard`]: one occupancy test read in place, anything else by
    /// its closure ([`Pred::into_fn`]).
    fn into_guard(self) -> Guard<W> {
        match (self.as_leaf(), self) {
            (Some(l), _) => Guard::Leaf(l),
            (None, Pred::KindProp(k)) => Guard::Kinds(k),
            (None, p) => Guard::Fn(p.into_fn()),
        }
    }

    /// As a closure. A predicate of one or two occupancy tests (`owner(x)
    /// == me and kind(x) == Cat`, `not empty(x)`) becomes one closure that
    /// reads the occupancy sets in place, without walking the tree.
    pub fn into_fn(self) -> super::P<W> {
        let leaf = Pred::as_leaf;
        match &self {
            Pred::And(a, b) => {
                if let (Some(x), Some(y)) = (leaf(a), leaf(b)) {
                    return Box::new(move |cx, _| {
                        let ((s, m), (t, n)) = (x.eval(cx), y.eval(cx));
                        (s.and(t), m && n)
                    });
                }
            }
            Pred::Or(a, b) => {
                if let (Some(x), Some(y)) = (leaf(a), leaf(b)) {
                    return Box::new(move |cx, _| {
                        let ((s, m), (t, n)) = (x.eval(cx), y.eval(cx));
                        (s.or(t), m || n)
                    });
                }
            }
            Pred::Not(a) => {
                if let Some(x) = leaf(a) {
                    return Box::new(move |cx, _| {
                        let (s, m) = x.eval(cx);
                        (cx.t.all.minus(s), !m)
                    });
                }
            }
            p => {
                if let Some(x) = leaf(p) {
                    return Box::new(move |cx, _| x.eval(cx));
                }
            }
        }
        // Larger trees: a closure per `and` / `or` / `not`.
        match self {
            Pred::And(a, b) => {
                let (a, b) = (a.into_fn(), b.into_fn());
                Box::new(move |cx, within| {
                    let (x, m) = a(cx, within);
                    let (y, n) = b(cx, within.and(x));
                    (x.and(y), m && n)
                })
            }
            Pred::Or(a, b) => {
                let (a, b) = (a.into_fn(), b.into_fn());
                Box::new(move |cx, within| {
                    let (x, m) = a(cx, within);
                    let (y, n) = b(cx, within.minus(x));
                    (x.or(y), m || n)
                })
            }
            Pred::Not(a) => {
                let a = a.into_fn();
                Box::new(move |cx, within| {
                    let (x, m) = a(cx, within);
                    (cx.t.all.minus(x), !m)
                })
            }
            // A comparison with a number read at run time: that number's
            // closure, then the occupancy sets, without the tree's match.
            Pred::OwnerIs(p) => Box::new(move |cx, _| {
                let p = p(cx);
                Pred::owner_is(cx, p)
            }),
            Pred::KindIs(k) => Box::new(move |cx, _| {
                let k = k(cx);
                Pred::kind_is(cx, k)
            }),
            p => Box::new(move |cx, within| p.eval(cx, within)),
        }
    }
}

/// Where pass 23 remembers a collection: its table, the set local it
/// reads and the player whose groups it walks.
pub struct CollectMemo<const W: usize> {
    id: usize,
    a: usize,
    who: I<W>,
}

impl<const W: usize> CollectMemo<W> {
    /// `walk` (the collection computed), remembered.
    pub fn wrap(self, walk: S<W>) -> S<W> {
        let CollectMemo { id, a, who } = self;
        Box::new(move |cx| {
            let p = who(cx);
            let (x, own) = (cx.fr.s[a], super::expr::pieces(cx, p));
            if let Some((v, n)) = cx.fr.m.pairs.get(id).and_then(|m| m.get(&x, &own)) {
                if remembered_steps(cx, n) {
                    return v;
                }
            }
            let before = cx.fr.steps;
            let v = walk(cx);
            if cx.fr.err.is_none() {
                let n = cx.fr.steps.saturating_sub(before);
                if let Some(m) = cx.fr.m.pairs.get_mut(id) {
                    m.put(x, own, v, n);
                }
            }
            v
        })
    }
}

/// A remembered value's steps: the `n` steps its computation counted are
/// counted again, so that a run counts the same steps whether it finds a
/// value or computes it (and a step limit stops it at the same place
/// whatever was asked before). False, with nothing counted, when they
/// would pass the limit: the caller then computes the value, which
/// raises the limit's error where the computation passes it.
#[inline(always)]
pub fn remembered_steps<const W: usize>(cx: &mut Cx<'_, W>, n: u32) -> bool {
    match cx.fr.steps.checked_add(n) {
        Some(s) if s <= cx.t.max_steps => {
            cx.fr.steps = s;
            true
        }
        _ => false,
    }
}

/// A remembered condition (0 or 1) and the steps its computation counted,
/// as one word of a [`super::Memo`] (never its empty mark).
#[inline(always)]
fn with_steps(v: bool, n: u32) -> u64 {
    u64::from(v) | u64::from(n) << 1
}

/// A predicate computed again and again in one closure (the guard of
/// pass 9, after every round that ran): a single occupancy test is read
/// in place instead of through a closure of its own.
enum Guard<const W: usize> {
    Leaf(Leaf),
    Kinds(KindProp),
    Fn(P<W>),
}

/// A guard's set, as pass 9's rounds compute it: any [`Guard`], or one
/// known when the game loads (the closure then made for it alone).
trait GuardSet<const W: usize> {
    fn eval(&self, cx: &mut Cx<'_, W>, within: Set<W>) -> (Set<W>, bool);
}

impl<const W: usize, G: GuardSet<W>> GuardSet<W> for &G {
    #[inline(always)]
    fn eval(&self, cx: &mut Cx<'_, W>, within: Set<W>) -> (Set<W>, bool) {
        (**self).eval(cx, within)
    }
}

/// A guard as [`guarded_dirs`] holds it: what it reads that no round
/// changes is read once per loop ([`GuardNow::now`]), the rest at every
/// evaluation of the set.
trait GuardNow<const W: usize>: Send + Sync + 'static {
    /// The guard with what no round changes read.
    type Now<'a>: GuardSet<W>
    where
        Self: 'a;
    fn now<'a>(&'a self, cx: &Cx<'_, W>) -> Self::Now<'a>;
}

impl<const W: usize> GuardNow<W> for Guard<W> {
    type Now<'a> = &'a Guard<W>;
    #[inline(always)]
    fn now<'a>(&'a self, _: &Cx<'_, W>) -> &'a Guard<W> {
        self
    }
}

impl<const W: usize> GuardNow<W> for Occupied {
    type Now<'a> = Occupied;
    #[inline(always)]
    fn now(&self, _: &Cx<'_, W>) -> Occupied {
        Occupied
    }
}

impl<const W: usize> GuardSet<W> for Guard<W> {
    #[inline(always)]
    fn eval(&self, cx: &mut Cx<'_, W>, within: Set<W>) -> (Set<W>, bool) {
        match self {
            Guard::Leaf(l) => l.eval(cx),
            Guard::Kinds(k) => k.eval(cx),
            Guard::Fn(f) => f(cx, within),
        }
    }
}

/// The guard `occupied(x)`.
struct Occupied;

impl<const W: usize> GuardSet<W> for Occupied {
    #[inline(always)]
    fn eval(&self, cx: &mut Cx<'_, W>, _: Set<W>) -> (Set<W>, bool) {
        (occupied(cx), false)
    }
}

/// An occupancy test of the cell (see [`Pred::into_fn`]): the same answers
/// as the [`Pred`] of the same name, everywhere.
#[derive(Clone, Copy)]
enum Leaf {
    Empty,
    Occupied,
    OwnerMe,
    Owner(i64),
    Kind(i64),
}

impl Leaf {
    #[inline(always)]
    fn eval<const W: usize>(self, cx: &Cx<'_, W>) -> (Set<W>, bool) {
        match self {
            Leaf::Empty => (cx.t.all.minus(occupied(cx)), false),
            Leaf::Occupied => (occupied(cx), false),
            Leaf::OwnerMe => (bits_at(cx.st, cx.st.current as usize), false),
            Leaf::Owner(p) => Pred::owner_is(cx, p),
            Leaf::Kind(k) => Pred::kind_is(cx, k),
        }
    }
}

/// Pass 37's set form of `p(kind(x)) op E` for a property `p` of the
/// piece on the cell `x` and a number `E` that does not read the cell: a
/// constant, or `q(k)`, property `q` of a kind word local `k`. Made when
/// the game loads: for each value of `k` (the kinds, then one entry for a
/// value that is no kind, whose property reads 0; one entry for a
/// constant), the kinds whose `p` passes, and whether 0 passes — the
/// property of an empty cell's piece and of `none`'s, which hold no
/// piece. The set is the union of those kinds' occupancy sets, and the
/// empty cells when 0 passes; `occupied_only`: made the conjunct of
/// `occupied(x)` (pass 37 folds `occupied(x) and p(kind(x)) op E` into
/// one), the empty cells and `none` are left out.
#[derive(Clone)]
pub struct KindProp {
    /// Per value of the local (one entry for a constant): the kinds whose
    /// property passes, a bit each, and whether 0 passes.
    masks: Box<[(u64, bool)]>,
    /// The kind local's word slot (`None` for a constant).
    k: Option<usize>,
    /// Only occupied cells.
    occupied_only: bool,
}

/// A [`KindProp`] with its local read: the kinds whose property passes,
/// and whether the empty cells and `none` pass.
#[derive(Clone, Copy)]
struct KindSel {
    mask: u64,
    empty: bool,
}

impl KindProp {
    /// The cells where the comparison holds and whether it holds at
    /// `none`.
    #[inline(always)]
    fn eval<const W: usize>(&self, cx: &Cx<'_, W>) -> (Set<W>, bool) {
        self.select(cx).eval(cx)
    }

    /// The kinds that pass for the local's value now.
    #[inline(always)]
    fn select<const W: usize>(&self, cx: &Cx<'_, W>) -> KindSel {
        // A negative value, like one past the kinds, is no kind: the last
        // entry.
        let i = match self.k {
            Some(k) => (cx.fr.w[k] as u64).min(cx.t.kinds as u64) as usize,
            None => 0,
        };
        let (mask, zero) = self.masks.get(i).copied().unwrap_or((0, false));
        KindSel { mask, empty: zero && !self.occupied_only }
    }
}

impl KindSel {
    #[inline(always)]
    fn eval<const W: usize>(self, cx: &Cx<'_, W>) -> (Set<W>, bool) {
        let mut mask = self.mask;
        let mut set = Set::EMPTY;
        let base = cx.t.players;
        while mask != 0 {
            let kind = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            set = set.or(bits_at(cx.st, base + kind));
        }
        if self.empty {
            (set.or(cx.t.all.minus(occupied(cx))), true)
        } else {
            (set, false)
        }
    }
}

impl<const W: usize> GuardSet<W> for KindSel {
    #[inline(always)]
    fn eval(&self, cx: &mut Cx<'_, W>, _: Set<W>) -> (Set<W>, bool) {
        KindSel::eval(*self, cx)
    }
}

/// Where no round assigns the kind local (pass 37's check), the kinds
/// that pass are chosen once per loop.
impl<const W: usize> GuardNow<W> for KindProp {
    type Now<'a> = KindSel;
    #[inline(always)]
    fn now(&self, cx: &Cx<'_, W>) -> KindSel {
        self.select(cx)
    }
}

/// How [`Pred::Across`] turns the number of elements that meet its
/// condition at a cell into an answer.
pub enum Tally<const W: usize> {
    /// Some element does (`any`).
    Some,
    /// None does (`none`, and `all` with its body negated).
    No,
    /// The count compared with a number (`count ... op k`).
    Cmp(BinOp, I<W>),
}

/// The comparison `op` with its operands swapped (`a < b` is `b > a`).
fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        o => o,
    }
}

/// `a op b` for a comparison `op` (false for any other operator).
#[inline(always)]
fn compare(op: BinOp, a: i64, b: i64) -> bool {
    match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        _ => false,
    }
}

/// Whether evaluating `e` may raise a rule error (division by zero, a
/// quantifier over a range of numbers of any size).
pub fn may_fail(e: &Expr) -> bool {
    match e {
        Expr::Binary(BinOp::Div | BinOp::Rem, ..) => true,
        Expr::Builtin(Builtin::Range, ..) => true,
        _ => {
            let mut found = false;
            e.children(&mut |c| found |= may_fail(c));
            found
        }
    }
}

/// [`may_fail`] for a lazy tail, which may take steps but only boundedly
/// many: a quantifier over a `range` of constant bounds is as bounded as
/// one over the cells.
fn tail_may_fail(e: &Expr) -> bool {
    match e {
        e if const_range(e).is_some() => false,
        Expr::Binary(BinOp::Div | BinOp::Rem, ..) | Expr::Builtin(Builtin::Range, ..) => true,
        _ => {
            let mut found = false;
            e.children(&mut |c| found |= tail_may_fail(c));
            found
        }
    }
}

/// Whether evaluating `e` can never raise a rule error of any kind (no
/// arithmetic that may overflow or divide by zero, no quantifier or walk
/// that counts steps, no read of a face-down piece): a short list of
/// forms, everything else counted as able to fail.
pub fn never_errs(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Local(..) | Expr::Me => true,
        Expr::Unary(UnOp::Not, x) => never_errs(x),
        Expr::Binary(op, a, b, _) if logical(*op) => never_errs(a) && never_errs(b),
        Expr::Builtin(
            Builtin::Empty
            | Builtin::Occupied
            | Builtin::Off
            | Builtin::Owner
            | Builtin::KindOf
            | Builtin::Step
            | Builtin::Next
            | Builtin::Ray
            | Builtin::LineFirst
            | Builtin::LineLast
            | Builtin::LineAt,
            args,
            _,
        ) => args.iter().all(never_errs),
        Expr::Prop(_, k, _) => never_errs(k),
        Expr::Inline(binds, body, _) => {
            binds.iter().all(|(_, x)| never_errs(x)) && never_errs(body)
        }
        _ => false,
    }
}

/// Whether `op` is `and`, `or` or a comparison: an operator that never
/// raises an error (no arithmetic, which may overflow or divide by zero).
fn logical(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::And
            | BinOp::Or
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
    )
}

/// Whether `e` reads the position (or `me`) anywhere.
fn reads_state(e: &Expr) -> bool {
    reads_state_or(e, true)
}

/// Whether `e` reads the position anywhere, `me` counting when `me_too`.
fn reads_state_or(e: &Expr, me_too: bool) -> bool {
    reads_state_but(e, me_too, &|_| false)
}

/// [`reads_state_or`], not counting the subexpressions `skip` accepts.
fn reads_state_but(e: &Expr, me_too: bool, skip: &dyn Fn(&Expr) -> bool) -> bool {
    if skip(e) {
        return false;
    }
    match e {
        Expr::Me => me_too,
        Expr::Builtin(
            Builtin::Empty
            | Builtin::Occupied
            | Builtin::Owner
            | Builtin::KindOf
            | Builtin::Pieces
            | Builtin::CountKind
            | Builtin::CountAll
            | Builtin::Group
            | Builtin::Groups
            | Builtin::First
            | Builtin::Last
            | Builtin::Ply
            | Builtin::UpTo
            | Builtin::Before
            | Builtin::Repetitions,
            ..,
        ) => true,
        // Variables are kept in the position.
        Expr::Var(..) => true,
        // Iterating a zone reads its contents.
        Expr::Quant { domain, .. } if matches!(&**domain, Expr::Zone(..)) => true,
        _ => {
            let mut found = false;
            e.children(&mut |c| found |= reads_state_but(c, me_too, skip));
            found
        }
    }
}

/// The locals `e` reads that are not bound inside it, each once.
fn free_locals(e: &Expr, bound: &mut Vec<Slot>, out: &mut Vec<Slot>) {
    free_locals_but(e, &|_| false, bound, out);
}

/// Most evaluations a precomputed relation may cost when a game is
/// loaded (players × (cells + 1)²: a 256-cell board with 4 players).
const REL_BUDGET: usize = 4 * 257 * 257;

/// Whether `e` has a quantifier inside (is worth remembering).
fn has_quant(e: &Expr) -> bool {
    match e {
        Expr::Quant { .. } => true,
        _ => {
            let mut found = false;
            e.children(&mut |c| found |= has_quant(c));
            found
        }
    }
}

/// Whether `e` reads any of `vars`.
fn reads_any(e: &Expr, vars: &[Slot]) -> bool {
    vars.iter().any(|v| e.reads_slot(*v))
}

/// Whether every local `e` reads is one of `vars` or bound inside `e`.
fn reads_only(e: &Expr, vars: &[Slot]) -> bool {
    vars.iter().all(|&v| e.reads_only(v)) || {
        // `reads_only` takes one variable: check with each alias in turn
        // by substituting the rest as bound.
        fn go(e: &Expr, bound: &mut Vec<Slot>) -> bool {
            match e {
                Expr::Local(s, _) => bound.contains(s),
                Expr::Inline(binds, body, _) => {
                    let n = bound.len();
                    let ok = binds.iter().all(|(s, x)| {
                        let ok = go(x, bound);
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
                _ => {
                    let mut ok = true;
                    e.children(&mut |c| ok &= go(c, bound));
                    ok
                }
            }
        }
        go(e, &mut vars.to_vec())
    }
}

/// Whether `e` is the cell itself as a set (`{x}`, as a cell is passed
/// where a set is expected).
fn is_the_cell(e: &Expr, vars: &[Slot]) -> bool {
    match e {
        Expr::Builtin(Builtin::Singleton, args, _) => {
            matches!(&args[0], Expr::Local(s, _) if vars.contains(s))
        }
        _ => false,
    }
}

/// Whether `e` is a quantifier (perhaps inside inlined `def`s) whose
/// collection holds sets of cells (`groups(p)`, placements).
fn is_over_sets(e: &Expr, tys: &[Ty]) -> bool {
    match e {
        Expr::Inline(_, body, _) => is_over_sets(body, tys),
        Expr::Quant { domain, .. } => matches!(domain.ty(tys), Ty::Groups | Ty::Placements),
        _ => false,
    }
}

/// Whether `e` is `count y in neighbours(...) ...`, perhaps inside inlined
/// `def`s.
fn is_nbr_count(e: &Expr) -> bool {
    match e {
        Expr::Inline(_, body, _) => is_nbr_count(body),
        Expr::Quant { quant: Quant::Count, domain, .. } => {
            matches!(&**domain, Expr::Builtin(Builtin::Neighbours, ..))
        }
        _ => false,
    }
}

/// The steps from the cell variable to the cell `e` names: `x` is `[]`,
/// `step(step(x, d1), d2)` is `[d1, d2]`.
fn cell_path(e: &Expr, vars: &[Slot]) -> Option<Vec<usize>> {
    match e {
        Expr::Local(s, _) if vars.contains(s) => Some(Vec::new()),
        Expr::Builtin(Builtin::Step, args, _) => match &args[1] {
            Expr::Const(Value::Dir(d)) => {
                let mut p = cell_path(&args[0], vars)?;
                p.push(*d as usize);
                Some(p)
            }
            _ => None,
        },
        _ => None,
    }
}

fn along<const W: usize>(path: Vec<usize>, p: Pred<W>) -> Pred<W> {
    path.into_iter().rev().fold(p, |p, d| Pred::Pre(d, Box::new(p)))
}

impl<const W: usize> Compiler<'_, W> {
    /// The set form of `e` as a predicate of the cell in `vars[0]` (the
    /// other entries are aliases of it), if it has one.
    pub fn pred(&mut self, e: &Expr, vars: &mut Vec<Slot>) -> Option<Pred<W>> {
        if !reads_any(e, vars) {
            // Not about the cell at all.
            if may_fail(e) {
                return None;
            }
            return Some(match e {
                Expr::Const(Value::Bool(b)) => Pred::Const(*b),
                _ => Pred::Cond(self.bool_(e)),
            });
        }
        if let Some(p) = self.rel_pred(e, vars) {
            return Some(p);
        }
        if let Some(p) = self.nbr_count(e, vars) {
            return Some(p);
        }
        if let Some(p) = self.kind_prop(e, vars) {
            return Some(p);
        }
        if let Some(p) = self.across(e, vars) {
            return Some(p);
        }
        let leaf = |f: Builtin, args: &[Expr], vars: &[Slot]| -> Option<Pred<W>> {
            let path = cell_path(&args[0], vars)?;
            let p = match f {
                Builtin::Empty => Pred::Empty,
                Builtin::Occupied => Pred::Occupied,
                Builtin::Off => Pred::Off,
                _ => return None,
            };
            Some(along(path, p))
        };
        let found = match e {
            Expr::Unary(UnOp::Not, a) => Some(Pred::Not(Box::new(self.pred(a, vars)?))),
            Expr::Binary(BinOp::And, a, b, _) => {
                Some(Pred::and(self.pred(a, vars)?, self.pred(b, vars)?))
            }
            Expr::Binary(BinOp::Or, a, b, _) => {
                Some(Pred::Or(Box::new(self.pred(a, vars)?), Box::new(self.pred(b, vars)?)))
            }
            Expr::Builtin(f @ (Builtin::Empty | Builtin::Occupied | Builtin::Off), args, _) => {
                leaf(*f, args, vars)
            }
            Expr::Builtin(Builtin::Touches, args, _) if self.t.nbr_symmetric => {
                let (other, cell) = match (&args[0], &args[1]) {
                    (a, b) if is_the_cell(b, vars) => (a, b),
                    (a, b) if is_the_cell(a, vars) => (b, a),
                    _ => return self.static_pred(e, vars),
                };
                let _ = cell;
                if reads_any(other, vars) || may_fail(other) {
                    return self.static_pred(e, vars);
                }
                Some(Pred::Touching(self.set(other)))
            }
            Expr::Builtin(Builtin::Contains, args, _)
                if !reads_any(&args[0], vars) && !may_fail(&args[0]) =>
            {
                let path = cell_path(&args[1], vars);
                match path {
                    Some(path) => {
                        let s = self.as_set(&args[0]);
                        Some(along(path, Pred::In(s)))
                    }
                    None => None,
                }
            }
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b, _) => {
                let (f, arg, other) = match (&**a, &**b) {
                    (Expr::Builtin(f @ (Builtin::Owner | Builtin::KindOf), args, _), x)
                        if cell_path(&args[0], vars).is_some() =>
                    {
                        (*f, &args[0], x)
                    }
                    (x, Expr::Builtin(f @ (Builtin::Owner | Builtin::KindOf), args, _))
                        if cell_path(&args[0], vars).is_some() =>
                    {
                        (*f, &args[0], x)
                    }
                    _ => return self.static_pred(e, vars),
                };
                if reads_any(other, vars) || may_fail(other) {
                    return self.static_pred(e, vars);
                }
                let path = cell_path(arg, vars)?;
                let p = match (f, other) {
                    (Builtin::Owner, Expr::Me) => Pred::OwnerMe,
                    (Builtin::Owner, Expr::Const(v)) => {
                        Pred::OwnerConst(super::expr::const_word(v).unwrap_or(-1))
                    }
                    (Builtin::KindOf, Expr::Const(v)) => {
                        Pred::KindConst(super::expr::const_word(v).unwrap_or(-1))
                    }
                    (Builtin::Owner, _) => Pred::OwnerIs(self.word(other)),
                    _ => Pred::KindIs(self.word(other)),
                };
                let p = along(path, p);
                Some(if *op == BinOp::Ne { Pred::Not(Box::new(p)) } else { p })
            }
            Expr::Inline(binds, body, _) => {
                let n = vars.len();
                let mut pre = Vec::new();
                let mut ok = true;
                for (s, x) in binds.iter() {
                    match x {
                        Expr::Local(v, _) if vars.contains(v) => vars.push(*s),
                        x if !reads_any(x, vars) && !may_fail(x) => {
                            pre.push(self.store(self.var(*s), x));
                        }
                        _ => ok = false,
                    }
                }
                let r = if ok { self.pred(body, vars) } else { None };
                vars.truncate(n);
                r.map(|p| if pre.is_empty() { p } else { Pred::Let(pre, Box::new(p)) })
            }
            _ => None,
        };
        found.or_else(|| self.static_pred(e, vars))
    }

    /// Pass 37: `p(kind(x)) op E` (either side) for a property `p` of the
    /// piece on the cell `x` (or a cell a constant step from it) and `E` a
    /// constant or `q(k)` of a word local `k` not about the cell, as a
    /// [`KindProp`]; boards of at most 64 kinds.
    fn kind_prop(&mut self, e: &Expr, vars: &[Slot]) -> Option<Pred<W>> {
        let Expr::Binary(op, a, b, _) = e else { return None };
        if !matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
            return None;
        }
        let of_cell = |x: &Expr| match x {
            Expr::Prop(p, k, _) => match &**k {
                Expr::Builtin(Builtin::KindOf, args, _) => {
                    cell_path(&args[0], vars).map(|path| (*p as usize, path))
                }
                _ => None,
            },
            _ => None,
        };
        let (op, (p, path), other) = match (of_cell(a), of_cell(b)) {
            (Some(l), _) => (*op, l, &**b),
            (None, Some(r)) => (flip(*op), r, &**a),
            (None, None) => return None,
        };
        let kinds = self.t.kinds;
        if kinds > 64 {
            return None;
        }
        let props = &self.t.props;
        let prop = |k: usize, p: usize| props.get(k).and_then(|ps| ps.get(p)).copied().unwrap_or(0);
        // The values `E` may take: one for a constant; per value of the
        // local, the kinds' `q`, then 0 for a value that is no kind.
        let (values, k): (Vec<i64>, _) = match other {
            Expr::Const(v) => (vec![super::expr::const_word(v)?], None),
            Expr::Prop(q, x, _) => match &**x {
                Expr::Local(s, _) if !vars.contains(s) => match self.var(*s) {
                    Var::W(i) => {
                        let q = *q as usize;
                        (
                            (0..=kinds).map(|k| if k < kinds { prop(k, q) } else { 0 }).collect(),
                            Some(i as usize),
                        )
                    }
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        let masks = values
            .iter()
            .map(|&v| {
                let mask = (0..kinds)
                    .filter(|&kind| compare(op, prop(kind, p), v))
                    .fold(0u64, |m, kind| m | 1 << kind);
                (mask, compare(op, 0, v))
            })
            .collect();
        self.notes
            .push("set form: a property of the piece on a cell compared with a number".into());
        Some(along(path, Pred::KindProp(KindProp { masks, k, occupied_only: false })))
    }

    /// `count y in neighbours(x) where P(y)` compared with a number that
    /// does not read the cell `x` (either side; `def`s inlined), where `P`
    /// has a set form and does not read `x` either (see [`Pred::NbrCount`]).
    fn nbr_count(&mut self, e: &Expr, vars: &[Slot]) -> Option<Pred<W>> {
        let Expr::Binary(op, a, b, _) = e else { return None };
        let (op, count, other) = if is_nbr_count(a) {
            (*op, &**a, &**b)
        } else if is_nbr_count(b) {
            (flip(*op), &**b, &**a)
        } else {
            return None;
        };
        if !matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
            || reads_any(other, vars)
            || may_fail(other)
        {
            return None;
        }
        let mut vars = vars.to_vec();
        let mut pre = Vec::new();
        let mut inner = count;
        while let Expr::Inline(binds, body, _) = inner {
            for (s, x) in binds.iter() {
                match x {
                    Expr::Local(v, _) if vars.contains(v) => vars.push(*s),
                    x if !reads_any(x, &vars) && !may_fail(x) => {
                        pre.push(self.store(self.var(*s), x));
                    }
                    _ => return None,
                }
            }
            inner = body;
        }
        let Expr::Quant { quant: Quant::Count, slot, domain, filter, body, .. } = inner else {
            return None;
        };
        let Expr::Builtin(Builtin::Neighbours, args, _) = &**domain else { return None };
        if cell_path(&args[0], &vars).is_none_or(|p| !p.is_empty()) {
            return None;
        }
        let conds: Vec<&Expr> = filter.iter().chain(body.iter()).map(|c| &**c).collect();
        if conds.iter().any(|c| reads_any(c, &vars)) {
            return None;
        }
        let mut p: Option<Pred<W>> = None;
        for c in conds {
            let q = self.pred(c, &mut vec![*slot])?;
            p = Some(match p {
                None => q,
                Some(o) => Pred::And(Box::new(o), Box::new(q)),
            });
        }
        let inner = Box::new(p.unwrap_or(Pred::Const(true)));
        let k = self.word(other);
        self.notes.push("set form: a count of neighbours compared with a number".into());
        let count = Pred::NbrCount { inner, op, k };
        Some(if pre.is_empty() { count } else { Pred::Let(pre, Box::new(count)) })
    }

    /// A quantifier over a collection of sets (see [`Pred::Across`]) whose
    /// condition is a predicate of the cell `x`: `count b in D where P(b,
    /// x)` compared with a number that does not read `x`, or `any` /
    /// `none` / `all b in D where F: B`. `D` must not read `x`.
    fn across(&mut self, e: &Expr, vars: &[Slot]) -> Option<Pred<W>> {
        let tys = &self.g.slot_tys;
        let (quant_e, cmp) = match e {
            Expr::Binary(op, a, b, _) if is_over_sets(a, tys) => (&**a, Some((*op, &**b))),
            Expr::Binary(op, a, b, _) if is_over_sets(b, tys) => (&**b, Some((flip(*op), &**a))),
            e if is_over_sets(e, tys) => (e, None),
            _ => return None,
        };
        if let Some((op, other)) = cmp {
            if !matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
                || reads_any(other, vars)
                || may_fail(other)
            {
                return None;
            }
        }
        let mut vars = vars.to_vec();
        let mut pre = Vec::new();
        let mut inner = quant_e;
        while let Expr::Inline(binds, body, _) = inner {
            for (s, x) in binds.iter() {
                match x {
                    Expr::Local(v, _) if vars.contains(v) => vars.push(*s),
                    x if !reads_any(x, &vars) && !may_fail(x) => {
                        pre.push(self.store(self.var(*s), x));
                    }
                    _ => return None,
                }
            }
            inner = body;
        }
        let Expr::Quant { quant, slot, domain, filter, body, .. } = inner else {
            return None;
        };
        if reads_any(domain, &vars) || may_fail(domain) {
            return None;
        }
        let var = self.var(*slot);
        if !matches!(var, Var::S(_)) {
            return None;
        }
        let quant = *quant;
        let body_pred = match (quant, body) {
            (_, None) => None,
            (Quant::All, Some(b)) => Some(Pred::Not(Box::new(self.pred(b, &mut vars.clone())?))),
            (_, Some(b)) => Some(self.pred(b, &mut vars.clone())?),
        };
        let filter_pred = match filter {
            Some(f) => Some(self.pred(f, &mut vars.clone())?),
            None => None,
        };
        let inner = match (filter_pred, body_pred) {
            (Some(f), Some(b)) => Pred::And(Box::new(f), Box::new(b)),
            (Some(p), None) | (None, Some(p)) => p,
            (None, None) => Pred::Const(true),
        };
        let test = match (quant, cmp) {
            (Quant::Count, Some((op, other))) => Tally::Cmp(op, self.word(other)),
            (Quant::Any, None) => Tally::Some,
            (Quant::None | Quant::All, None) => Tally::No,
            _ => return None,
        };
        let dom = self.dom(domain);
        self.notes.push(format!(
            "set form: `{}` over a collection of sets, counted for every cell at once",
            quant_name(quant)
        ));
        // The body `touches(b, x)` of the element itself: its set is read,
        // not computed (no steps, no error), so an element that fails the
        // filter may go unread.
        let plain = matches!(body.as_deref(), Some(Expr::Builtin(Builtin::Touches, args, _))
            if args.iter().any(|a| matches!(a, Expr::Local(v, _) if v == slot)));
        let p = match (inner, test) {
            (inner, test) if !plain => Pred::Across { var, dom, inner: Box::new(inner), test },
            (Pred::Touching(set), t @ (Tally::Some | Tally::No)) => {
                let some = matches!(t, Tally::Some);
                Pred::AcrossTouch { var, dom, cond: None, set, some }
            }
            (Pred::And(c, t), test @ (Tally::Some | Tally::No))
                if matches!((&*c, &*t), (Pred::Cond(_), Pred::Touching(_))) =>
            {
                let some = matches!(test, Tally::Some);
                match (*c, *t) {
                    (Pred::Cond(c), Pred::Touching(set)) => {
                        Pred::AcrossTouch { var, dom, cond: Some(c), set, some }
                    }
                    (c, t) => Pred::Across {
                        var,
                        dom,
                        inner: Box::new(Pred::And(Box::new(c), Box::new(t))),
                        test,
                    },
                }
            }
            (inner, test) => Pred::Across { var, dom, inner: Box::new(inner), test },
        };
        Some(if pre.is_empty() { p } else { Pred::Let(pre, Box::new(p)) })
    }

    /// A relation between the cell and at most one other cell local, and
    /// perhaps `me`, that does not read the position otherwise (`rank(b)
    /// == rank(a) + 1`, `me == White and file(a) == file(b)`): evaluated
    /// now for every pair of cells (and `none`) and every player.
    fn rel_pred(&mut self, e: &Expr, vars: &[Slot]) -> Option<Pred<W>> {
        if reads_state_or(e, false) || may_fail(e) || self.ty(e) != Ty::Bool {
            return None;
        }
        let mut free = Vec::new();
        free_locals(e, &mut Vec::new(), &mut free);
        free.retain(|s| !vars.contains(s));
        let other = match free[..] {
            [] => None,
            [a] if self.ty(&Expr::Local(a, Default::default())) == Ty::Cell => match self.var(a) {
                Var::W(w) => Some(w),
                _ => return None,
            },
            _ => return None,
        };
        let by_me = reads_state(e);
        if other.is_none() && !by_me {
            return self.static_pred(e, vars);
        }
        let cells = self.t.cells;
        let mes = if by_me { self.t.players } else { 1 };
        let others = if other.is_some() { cells + 1 } else { 1 };
        if mes * others * (cells + 1) > REL_BUDGET {
            return None;
        }
        let f = self.bool_(e);
        let mut st = State::empty(self.g);
        let mut fr = self.scratch_frame();
        let mut table = Vec::with_capacity(mes * others);
        for me in 0..mes {
            st.current = me as u8;
            for a in 0..others {
                if let Some(w) = other {
                    fr.w[w as usize] = if a == cells { i64::from(NO_CELL) } else { a as i64 };
                }
                table.push(self.over_cells(&f, &mut st, &mut fr, vars)?);
            }
        }
        self.notes.push(format!(
            "precomputed relation of two cells{}",
            if by_me { " and the mover" } else { "" }
        ));
        Some(Pred::Rel { other, by_me, table: table.into_boxed_slice() })
    }

    /// Condition `e` about the set in local `slot` (an element of a
    /// quantifier over groups or sets): when it reads nothing but that set
    /// (no position, no `me`, no other local), cannot raise an error and
    /// is worth remembering (it has a quantifier inside), its values are
    /// remembered per set in a memo table of the frame.
    pub fn cond_of(&mut self, slot: Slot, e: &Expr) -> super::B<W> {
        let b = self.bool_(e);
        let Var::S(s) = self.var(slot) else { return b };
        if reads_state(e) || may_fail(e) || !reads_only(e, &[slot]) || !has_quant(e) {
            return b;
        }
        let id = self.memos;
        self.memos += 1;
        self.notes.push("memo: a condition of one set, remembered per set".into());
        Box::new(move |cx| {
            let key = cx.fr.s[s as usize];
            if let Some(v) = cx.fr.m.memo.get(id).and_then(|m| m.get(&key)) {
                if remembered_steps(cx, (v >> 1) as u32) {
                    return v & 1 != 0;
                }
            }
            let before = cx.fr.steps;
            let v = b(cx);
            if cx.fr.err.is_none() {
                let n = cx.fr.steps.saturating_sub(before);
                if let Some(m) = cx.fr.m.memo.get_mut(id) {
                    m.put(key, with_steps(v, n));
                }
            }
            v
        })
    }

    /// Pass 23: `collect b in groups(P) where F: B` whose filter and body
    /// read nothing but the element and one other set local `a` (no
    /// position, no `me`) and cannot raise an error is a function of `a`
    /// and `P`'s pieces (which make the groups): its values are remembered
    /// per pair in a table of the frame, never stale, so forks do not copy
    /// them. A value found there counts the steps it took, as with pass 4.
    pub fn collect_memo(
        &mut self,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Option<CollectMemo<W>> {
        let Expr::Builtin(Builtin::Groups, args, _) = domain else { return None };
        let [who] = &args[..] else { return None };
        if may_fail(who) {
            return None;
        }
        let mut free = Vec::new();
        for e in filter.iter().chain(body.iter()) {
            if reads_state(e) || may_fail(e) {
                return None;
            }
            free_locals(e, &mut Vec::new(), &mut free);
        }
        free.retain(|s| *s != slot);
        let [a_slot] = free[..] else { return None };
        let Var::S(a) = self.var(a_slot) else { return None };
        // The same collection elsewhere (another `def` call, another
        // local for `a`) shares its table: the values depend on `a`'s set
        // and the pieces, not on the names.
        let same = |m: &super::expr::MemoSite| {
            let bound = || vec![(m.slot, slot), (m.a, a_slot)];
            let opt = |x: &Option<Expr>, y: Option<&Expr>| match (x, y) {
                (None, None) => true,
                (Some(x), Some(y)) => same_expr(x, y, &[], &mut bound()),
                _ => false,
            };
            same_expr(&m.parts.0, domain, &[], &mut bound())
                && opt(&m.parts.1, filter)
                && opt(&m.parts.2, body)
        };
        let id = match self.memo_sites.iter().find(|m| same(m)) {
            Some(m) => {
                let id = m.id;
                self.notes
                    .push("memo: a collection over groups, sharing an equal one's table".into());
                id
            }
            None => {
                let id = self.pair_memos;
                self.pair_memos += 1;
                self.memo_sites.push(super::expr::MemoSite {
                    slot,
                    a: a_slot,
                    parts: (domain.clone(), filter.cloned(), body.cloned()),
                    id,
                });
                self.notes
                    .push("memo: a collection over groups, remembered per set and pieces".into());
                id
            }
        };
        Some(CollectMemo { id, a: a as usize, who: self.word(who) })
    }

    /// Pass 22: for a draw-until loop whose test `cond` is about the end
    /// piece of ordered `zone` (its first when `front`) and nothing else of
    /// the position, whether a piece of each kind stops the loop: the test
    /// itself, asked when the game loads of the zone holding only a piece
    /// of that kind. A kind whose test raises an error stops nothing (the
    /// search then never takes the loop's end for granted).
    pub fn draw_stops(&mut self, zone: &Expr, cond: &Expr) -> Vec<bool> {
        let kinds = self.t.kinds;
        let mut st = State::empty(self.g);
        let seq = match stable_zone(zone) {
            Some((z, ZonePlayer::Shared)) => Some(self.t.sequence(z, 0)),
            Some((z, ZonePlayer::Me)) => Some(self.t.sequence(z, st.current)),
            Some((z, ZonePlayer::Const(p))) => Some(self.t.sequence(z, p)),
            None => None,
        };
        let Some(i) = seq.filter(|i| *i < st.seqs.len()) else { return vec![false; kinds] };
        let f = self.bool_(cond);
        let mut fr = self.scratch_frame();
        (0..kinds)
            .map(|k| {
                st.seqs[i] = crate::state::Seq::from_parts(vec![k as u16], Vec::new(), Vec::new());
                fr.err = None;
                let go_on = f(&mut Cx { t: self.t, st: &mut st, fr: &mut fr });
                fr.err.is_none() && !go_on
            })
            .collect()
    }

    /// Pass 34: `cond`, a test of the kind of one zone's end piece alone
    /// (`not bug(first(draw_pile))`: no local from outside, no other read
    /// of the position, not even `me` but to name the zone), as a table of
    /// its value for each kind, made when the game loads: a kind whose test
    /// takes no step and raises nothing reads its value there; an empty or
    /// face-down end, or any other kind, asks the test itself. `None` for
    /// any other condition.
    pub fn end_kind_test(&mut self, cond: &Expr) -> Option<B<W>> {
        let mut ends = Vec::new();
        sure::ends_read(cond, &mut ends);
        let (zone, front) = ends.first()?.clone();
        let here = stable_zone(&zone)?;
        if ends.iter().any(|(z, f)| *f != front || stable_zone(z) != Some(here)) {
            return None;
        }
        let mut free = Vec::new();
        free_locals(cond, &mut Vec::new(), &mut free);
        let is_end = |e: &Expr| {
            sure::zone_end(e).is_some_and(|(z, f)| f == front && stable_zone(z) == Some(here))
        };
        if !free.is_empty() || reads_state_but(cond, true, &is_end) {
            return None;
        }
        let (z, who) = here;
        let mut st = State::empty(self.g);
        if !self.t.zones.get(z as usize).is_some_and(|x| x.1) {
            return None;
        }
        // The zone's sequence: fixed, or `me`'s (`None`).
        let fixed = match who {
            ZonePlayer::Shared => Some(self.t.sequence(z, 0)),
            ZonePlayer::Me => None,
            ZonePlayer::Const(p) => Some(self.t.sequence(z, p)),
        };
        let i = fixed.unwrap_or_else(|| self.t.sequence(z, st.current));
        if i >= st.seqs.len() {
            return None;
        }
        let f = self.bool_(cond);
        let mut fr = self.scratch_frame();
        // 0 false, 1 true, 2 asked at run time.
        let table: Box<[u8]> = (0..self.t.kinds)
            .map(|k| {
                st.seqs[i] = crate::state::Seq::from_parts(vec![k as u16], Vec::new(), Vec::new());
                fr.err = None;
                fr.steps = 0;
                let v = f(&mut Cx { t: self.t, st: &mut st, fr: &mut fr });
                if fr.err.is_none() && fr.steps == 0 {
                    u8::from(v)
                } else {
                    2
                }
            })
            .collect();
        self.notes.push(
            "end kind: a test of a zone's end piece's kind, from a table made at load".into(),
        );
        Some(Box::new(move |cx| {
            let i = fixed.unwrap_or_else(|| cx.t.sequence(z, cx.st.current));
            let end = cx.st.seqs.get(i).map(|q| if front { q.first() } else { q.last() });
            if let Some(crate::state::End::Known(k)) = end {
                match table.get(k as usize) {
                    Some(0) => return false,
                    Some(1) => return true,
                    _ => {}
                }
            }
            f(cx)
        }))
    }

    /// Pass 49: a set of cells that reads no position, counts no step and
    /// cannot fail, and whose only locals are one cell and at most one
    /// player (`knight_squares(x)`, a list of steps from `x`; `if p ==
    /// White then [step(x, sw), step(x, se)] else ...`): evaluated now for
    /// every cell (and `none`) and every player (and `none`), and looked
    /// up at run time. Forms as cheap as a lookup (a local, a constant,
    /// `neighbours(x)`, a list of locals such as `[x]`) are left alone.
    pub fn cell_pattern(&mut self, e: &Expr) -> Option<super::S<W>> {
        if self.in_pattern
            || !matches!(e, Expr::Builtin(..) | Expr::Inline(..))
            || matches!(e, Expr::Builtin(Builtin::Neighbours | Builtin::Pieces, ..))
            || as_cheap(e)
            || self.ty(e) != Ty::Cells
            || reads_state(e)
            || may_fail(e)
            || has_quant(e)
        {
            return None;
        }
        let mut free = Vec::new();
        free_locals(e, &mut Vec::new(), &mut free);
        let (mut cell, mut player) = (None, None);
        for s in free {
            let w = match self.var(s) {
                Var::W(w) => w as usize,
                _ => return None,
            };
            match self.ty(&Expr::Local(s, Default::default())) {
                Ty::Cell if cell.is_none() => cell = Some(w),
                Ty::Player if player.is_none() => player = Some(w),
                _ => return None,
            }
        }
        let cw = cell?;
        let cells = self.t.cells;
        let players = if player.is_some() { self.t.players + 1 } else { 1 };
        if players * (cells + 1) > PATTERN_BUDGET {
            return None;
        }
        self.in_pattern = true;
        let f = self.set(e);
        self.in_pattern = false;
        let mut st = State::empty(self.g);
        let mut fr = self.scratch_frame();
        let mut table = Vec::with_capacity(players * (cells + 1));
        for p in 0..players {
            if let Some(pw) = player {
                fr.w[pw] = if p == players - 1 { i64::from(ir::NONE8) } else { p as i64 };
            }
            for c in 0..=cells {
                fr.w[cw] = if c == cells { i64::from(NO_CELL) } else { c as i64 };
                let s = f(&mut Cx { t: self.t, st: &mut st, fr: &mut fr });
                if fr.err.is_some() {
                    return None;
                }
                table.push(s);
            }
        }
        self.notes.push(PATTERN_NOTE.into());
        let table = table.into_boxed_slice();
        Some(match player {
            None => Box::new(move |cx| {
                let c = cx.fr.w[cw];
                let i = if (0..cells as i64).contains(&c) { c as usize } else { cells };
                table.get(i).copied().unwrap_or(Set::EMPTY)
            }),
            Some(pw) => Box::new(move |cx| {
                let c = cx.fr.w[cw];
                let i = if (0..cells as i64).contains(&c) { c as usize } else { cells };
                let p = cx.fr.w[pw];
                let j = if (0..players as i64 - 1).contains(&p) { p as usize } else { players - 1 };
                table.get(j * (cells + 1) + i).copied().unwrap_or(Set::EMPTY)
            }),
        })
    }

    /// A frame for evaluating expressions when the game is compiled.
    fn scratch_frame(&self) -> Frame<W> {
        let sizes = self.frame_sizes();
        Frame::<W> {
            w: vec![0; sizes.0],
            s: vec![Set::EMPTY; sizes.1],
            d: vec![Dom::Dirs; sizes.2],
            groups: vec![super::GroupCache::default(); self.t.players],
            ..Frame::default()
        }
    }

    /// A predicate about the cell alone that does not read the position:
    /// evaluated now for every cell (and `none`).
    fn static_pred(&mut self, e: &Expr, vars: &[Slot]) -> Option<Pred<W>> {
        if reads_state(e) || may_fail(e) || !reads_only(e, vars) || self.ty(e) != Ty::Bool {
            return None;
        }
        let f = self.bool_(e);
        let mut st = State::empty(self.g);
        let mut fr = self.scratch_frame();
        let (set, at_none) = self.over_cells(&f, &mut st, &mut fr, vars)?;
        Some(Pred::Static(set, at_none))
    }

    /// Condition `f` asked of every cell and `none` (bound to `vars`) in
    /// `st`/`fr`: the cells where it holds and whether it holds at `none`;
    /// `None` if it raised an error.
    fn over_cells(
        &self,
        f: &B<W>,
        st: &mut State,
        fr: &mut Frame<W>,
        vars: &[Slot],
    ) -> Option<(Set<W>, bool)> {
        let mut set = Set::EMPTY;
        let mut at_none = false;
        for c in (0..self.t.cells as u16).chain([NO_CELL]) {
            for v in vars {
                if let Var::W(i) = self.var(*v) {
                    fr.w[i as usize] = i64::from(c);
                }
            }
            let r = f(&mut Cx { t: self.t, st: &mut *st, fr: &mut *fr });
            if fr.err.is_some() {
                return None;
            }
            if c == NO_CELL {
                at_none = r;
            } else if r {
                set.insert(c);
            }
        }
        Some((set, at_none))
    }

    /// A set or a line as a set of cells.
    pub fn as_set(&mut self, e: &Expr) -> S<W> {
        match self.ty(e) {
            Ty::Line => {
                let l = self.word(e);
                Box::new(move |cx| {
                    let l = l(cx);
                    cx.t.lines.get(l as usize).map_or(Set::EMPTY, |x| x.set)
                })
            }
            Ty::Cell => {
                let c = self.word(e);
                Box::new(move |cx| Set::one(c(cx) as u16))
            }
            _ => self.set(e),
        }
    }

    /// A domain of cells in set form (a set of cells or a line), if it is one.
    fn cell_domain(&mut self, domain: &Expr) -> Option<S<W>> {
        match self.ty(domain) {
            Ty::Cells | Ty::Line => Some(self.as_set(domain)),
            _ => None,
        }
    }

    /// The filter and body of a quantifier over cells as one set-form
    /// predicate (`filter and body`), if both have set forms.
    fn filter_body(
        &mut self,
        slot: Slot,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Option<(Option<Pred<W>>, Option<Pred<W>>)> {
        if self.ty(&Expr::Local(slot, Default::default())) != Ty::Cell {
            return None;
        }
        let f = match filter {
            Some(f) => Some(self.pred(f, &mut vec![slot])?),
            None => None,
        };
        let b = match body {
            Some(b) => Some(self.pred(b, &mut vec![slot])?),
            None => None,
        };
        Some((f, b))
    }

    /// `any` / `all` / `none` over cells in set form.
    pub fn set_quant_bool(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Option<B<W>> {
        if !matches!(q, Quant::Any | Quant::All | Quant::None) || may_fail(domain) {
            return None;
        }
        if self.ty(domain) != Ty::Cells && self.ty(domain) != Ty::Line {
            return None;
        }
        let (f, b) = self.filter_body(slot, filter, body)?;
        let d = self.cell_domain(domain)?;
        let f = f.map(Pred::into_fn);
        let b = b.map(Pred::into_fn);
        self.notes.push(format!("set form: `{}` quantifier over cells", quant_name(q)));
        Some(Box::new(move |cx| {
            let mut s = d(cx);
            if let Some(f) = &f {
                s = s.and(f(cx, s).0);
            }
            let hits = match &b {
                Some(b) => s.and(b(cx, s).0),
                None => s,
            };
            match q {
                Quant::Any => !hits.is_empty(),
                Quant::All => hits == s,
                _ => hits.is_empty(),
            }
        }))
    }

    /// `count` over cells in set form.
    pub fn set_quant_count(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Option<I<W>> {
        if q != Quant::Count || may_fail(domain) {
            return None;
        }
        if self.ty(domain) != Ty::Cells && self.ty(domain) != Ty::Line {
            return None;
        }
        let (f, b) = self.filter_body(slot, filter, body)?;
        let d = self.cell_domain(domain)?;
        let f = f.map(Pred::into_fn);
        let b = b.map(Pred::into_fn);
        self.notes.push("set form: `count` over cells".into());
        Some(Box::new(move |cx| {
            let mut s = d(cx);
            if let Some(f) = &f {
                s = s.and(f(cx, s).0);
            }
            if let Some(b) = &b {
                s = s.and(b(cx, s).0);
            }
            s.len() as i64
        }))
    }

    /// `collect x in S where F` (no body but the cell itself) in set form.
    pub fn set_collect(
        &mut self,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Option<S<W>> {
        let own = matches!(body, Some(Expr::Builtin(Builtin::Singleton, args, _))
            if matches!(&args[0], Expr::Local(s, _) if *s == slot));
        if !own || may_fail(domain) {
            return None;
        }
        if self.ty(domain) != Ty::Cells && self.ty(domain) != Ty::Line {
            return None;
        }
        let (f, _) = self.filter_body(slot, filter, None)?;
        let d = self.cell_domain(domain)?;
        let f = f.map(Pred::into_fn);
        self.notes.push("set form: `collect` over cells".into());
        Some(Box::new(move |cx| {
            let s = d(cx);
            match &f {
                Some(f) => s.and(f(cx, s).0),
                None => s,
            }
        }))
    }

    /// Pass 21: `for y in S { remove y }` over a set of cells removes the
    /// pieces of all its cells at once: the same steps (a round per
    /// cell), the same failure when a cell is empty (the walk would fail
    /// there, within the limit); near the step limit the rounds are
    /// walked one by one, so the error comes at the same round.
    pub fn remove_all(
        &mut self,
        slot: Slot,
        domain: &Expr,
        body: &[Stmt],
        span: crate::source::Span,
    ) -> Option<super::effect::StmtFn<W>> {
        use super::effect::{tick, Ctl};
        let [Stmt { kind: StmtKind::Remove(Expr::Local(y, _)), span: rspan, .. }] = body else {
            return None;
        };
        if *y != slot || self.ty(domain) != Ty::Cells || may_fail(domain) {
            return None;
        }
        let Var::W(v) = self.var(slot) else { return None };
        let (v, rspan) = (v as usize, *rspan);
        let set = self.set(domain);
        self.notes.push("remove all: a `for` that removes every cell of a set, at once".into());
        Some(Box::new(move |cx| {
            let s = set(cx);
            if cx.fr.err.is_some() {
                return Ctl::Error;
            }
            let n = s.len() as u32;
            if u64::from(cx.fr.steps) + u64::from(n) > u64::from(cx.t.max_steps) {
                // Walked, so that the step error comes at the same round.
                for c in s.iter() {
                    if !tick(cx, span) {
                        return Ctl::Error;
                    }
                    cx.fr.w[v] = i64::from(c);
                    if super::expr::code_at(cx, c) == 0 {
                        return super::effect::fail(cx, rspan);
                    }
                    super::effect::put(cx, c, 0);
                }
                return Ctl::Next;
            }
            if !s.minus(occupied(cx)).is_empty() {
                // The walk fails at the first empty cell, within the limit
                // (a failed run's steps are never read again).
                return super::effect::fail(cx, rspan);
            }
            cx.fr.steps += n;
            let Cx { st, fr, .. } = cx;
            for c in s.iter() {
                if let Some(x) = st.data.get_mut(c as usize) {
                    *x = 0;
                }
                fr.w[v] = i64::from(c);
            }
            for ws in st.bits.chunks_mut(W) {
                for (x, y) in ws.iter_mut().zip(s.0) {
                    *x &= !y;
                }
            }
            fr.epoch += 1;
            Ctl::Next
        }))
    }

    /// `collect g in groups(P) where touches(g, X)` (or `touches(X, g)`),
    /// the groups themselves: the cells of `P`'s groups next to `X` are
    /// the pieces of `P` reachable from those around `X` — one flood fill
    /// instead of a test per group. A set form: like every set form it
    /// counts no steps.
    pub fn groups_touching(
        &mut self,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
    ) -> Option<S<W>> {
        let Expr::Builtin(Builtin::Groups, args, _) = domain else { return None };
        let [who] = &args[..] else { return None };
        if !matches!(body, Some(Expr::Local(s, _)) if *s == slot) {
            return None;
        }
        // Adjacency must be symmetric, as for the touch guard (pass 16).
        if !self.t.nbr_symmetric || may_fail(who) {
            return None;
        }
        let other = touched(filter?, slot)?;
        let who = self.word(who);
        let x = self.set(other);
        self.notes.push("set form: the groups touching a set, by one flood fill".into());
        Some(Box::new(move |cx| {
            let p = who(cx);
            if p < 0 || p as usize >= cx.t.players {
                return Set::EMPTY;
            }
            let own = bits_at(cx.st, p as usize);
            let xs = x(cx);
            super::expr::flood(cx.t, own, own.and(super::expr::around(cx.t, xs)))
        }))
    }

    /// For `choose x in S where F` over cells: the set-form part of `F`
    /// (its leading conjuncts that have set forms, or all of it) and the
    /// rest, asked cell by cell. `None` when nothing has a set form.
    pub fn split_filter(&mut self, slot: Slot, filter: &Expr) -> Option<(Pred<W>, Option<B<W>>)> {
        if self.ty(&Expr::Local(slot, Default::default())) != Ty::Cell {
            return None;
        }
        let mut conj = Vec::new();
        conjuncts(filter, &mut conj);
        let mut set: Option<Pred<W>> = None;
        let mut i = 0;
        while i < conj.len() {
            match self.pred(conj[i], &mut vec![slot]) {
                Some(p) => {
                    set = Some(match set {
                        None => p,
                        Some(q) => Pred::And(Box::new(q), Box::new(p)),
                    });
                    i += 1;
                }
                None => break,
            }
        }
        let set = set?;
        let rest = &conj[i..];
        if rest.is_empty() {
            return Some((set, None));
        }
        let mut it = rest.iter();
        let first = it.next().map(|e| self.bool_(e))?;
        let rest = it.fold(first, |acc, e| {
            let b = self.bool_(e);
            Box::new(move |cx: &mut Cx<'_, W>| acc(cx) && b(cx)) as B<W>
        });
        Some((set, Some(rest)))
    }
}

/// `X` when `e` is `touches(g, X)` or `touches(X, g)` for the element
/// `slot` (`g`), with `X` not about `g` and unable to fail: on a board
/// with symmetric neighbours, the sets next to `X` are the ones `X` is
/// next to (passes 16 and 20).
fn touched(e: &Expr, slot: Slot) -> Option<&Expr> {
    let Expr::Builtin(Builtin::Touches, args, _) = e else { return None };
    let [a, b] = &args[..] else { return None };
    [(a, b), (b, a)].into_iter().find_map(|(x, g)| {
        (matches!(g, Expr::Local(s, _) if *s == slot) && !reads_any(x, &[slot]) && !may_fail(x))
            .then_some(x)
    })
}

/// The top-level conjuncts of `e` (`a and b and c`).
/// Whether evaluating `e` never counts a step against the step limit: no
/// quantifier, and only builtins that look at a cell, a step, a zone's
/// count or a number (a short list; anything else counts as stepping).
fn stepless_expr(e: &Expr) -> bool {
    let here = match e {
        Expr::Quant { .. } | Expr::Lines(..) => false,
        Expr::Builtin(f, ..) => matches!(
            f,
            Builtin::Empty
                | Builtin::Occupied
                | Builtin::Off
                | Builtin::Owner
                | Builtin::KindOf
                | Builtin::Step
                | Builtin::Next
                | Builtin::Ray
                | Builtin::LineFirst
                | Builtin::LineLast
                | Builtin::LineAt
                | Builtin::CountKind
                | Builtin::CountAll
                | Builtin::File
                | Builtin::Rank
                | Builtin::Abs
        ),
        Expr::Const(_)
        | Expr::Local(..)
        | Expr::Me
        | Expr::Unary(..)
        | Expr::Binary(..)
        | Expr::Prop(..)
        | Expr::Zone(..)
        | Expr::Inline(..)
        | Expr::Var(..) => true,
    };
    let mut all = here;
    if all {
        e.children(&mut |c| all &= stepless_expr(c));
    }
    all
}

/// Whether running `stmts` never counts a step against the step limit
/// (pass 38): no loop, no decision, no chance event, and only
/// [`stepless_expr`] expressions; actions are inlined as blocks.
fn stepless(stmts: &[Stmt]) -> bool {
    !any_stmt(stmts, &|k| {
        let allowed = matches!(
            k,
            StmtKind::Let(..)
                | StmtKind::Require(..)
                | StmtKind::Remove(_)
                | StmtKind::Win(_)
                | StmtKind::Lose(_)
                | StmtKind::NextTurn(_)
                | StmtKind::Assign(..)
                | StmtKind::Draw
                | StmtKind::Pass
                | StmtKind::If { .. }
                | StmtKind::Place { .. }
                | StmtKind::Move { .. }
                | StmtKind::Change { .. }
                | StmtKind::Add { .. }
                | StmtKind::Take { .. }
                | StmtKind::Block(..)
        );
        let mut quiet = allowed;
        if allowed {
            k.exprs(&mut |x| quiet &= stepless_expr(x));
        }
        !quiet
    })
}

fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Binary(BinOp::And, a, b, _) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

fn quant_name(q: Quant) -> &'static str {
    match q {
        Quant::Any => "any",
        Quant::All => "all",
        Quant::None => "none",
        Quant::Count => "count",
        Quant::Sum => "sum",
        Quant::Max => "max",
        Quant::Min => "min",
        Quant::Collect => "collect",
    }
}

// ---------------------------------------------------------------------------
// Lazy tails

/// What is known about one cell local at a point of the turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Known {
    on_board: bool,
    empty: bool,
    occupied: bool,
    not_empty: bool,
    not_occupied: bool,
    /// A kind or player that is not `none`.
    some: bool,
}

impl Known {
    fn is_empty(&self) -> bool {
        self.empty || (self.on_board && self.not_occupied)
    }
    fn is_occupied(&self) -> bool {
        self.occupied || (self.on_board && self.not_empty)
    }
    fn forget_contents(&mut self) {
        self.empty = false;
        self.occupied = false;
        self.not_empty = false;
        self.not_occupied = false;
    }
    fn meet(self, o: Known) -> Known {
        Known {
            on_board: self.on_board && o.on_board,
            empty: self.is_empty() && o.is_empty(),
            occupied: self.is_occupied() && o.is_occupied(),
            not_empty: self.not_empty && o.not_empty,
            not_occupied: self.not_occupied && o.not_occupied,
            some: self.some && o.some,
        }
    }
}

/// Facts along one path of the turn (`None`: the path has ended).
#[derive(Debug, Clone, Default)]
struct Facts {
    known: std::collections::BTreeMap<Slot, Known>,
    distinct: BTreeSet<(Slot, Slot)>,
    alias: std::collections::BTreeMap<Slot, Slot>,
    /// Kind locals known to be held (at least one piece) by a counted
    /// zone: (the local's root, the zone, its player). Forgotten at any
    /// change of any zone.
    held: Vec<(Slot, u16, ZonePlayer)>,
    /// Set locals (roots) whose cells are all known to be empty. Forgotten
    /// at any change of any cell.
    empty_sets: BTreeSet<Slot>,
    /// The `require` statements asked as a decision's options are listed
    /// (passes 17 and 19), by address: a tail passes over them.
    preasked: std::rc::Rc<[usize]>,
}

/// The player part of a zone named in a rule, when it cannot change
/// during a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ZonePlayer {
    /// A shared zone.
    Shared,
    /// `Z(me)`
    Me,
    /// `Z(P)` for a constant player.
    Const(u8),
}

/// `e` as a zone whose identity cannot change during a turn.
fn stable_zone(e: &Expr) -> Option<(u16, ZonePlayer)> {
    let Expr::Zone(z, p) = e else { return None };
    let who = match p.as_deref() {
        None => ZonePlayer::Shared,
        Some(Expr::Me) => ZonePlayer::Me,
        Some(Expr::Const(Value::Player(p))) if *p != ir::NONE8 => ZonePlayer::Const(*p),
        Some(_) => return None,
    };
    Some((*z, who))
}

impl Facts {
    fn root(&self, s: Slot) -> Slot {
        let mut s = s;
        while let Some(&t) = self.alias.get(&s) {
            s = t;
        }
        s
    }
    fn get(&self, s: Slot) -> Known {
        self.known.get(&self.root(s)).copied().unwrap_or_default()
    }
    fn with(&mut self, s: Slot, f: impl FnOnce(&mut Known)) {
        let r = self.root(s);
        f(self.known.entry(r).or_default());
    }
    fn distinct(&self, a: Slot, b: Slot) -> bool {
        let (a, b) = (self.root(a), self.root(b));
        if a == b {
            return false;
        }
        let (ka, kb) = (self.get(a), self.get(b));
        self.distinct.contains(&(a.min(b), a.max(b)))
            || (ka.is_occupied() && kb.is_empty())
            || (ka.is_empty() && kb.is_occupied())
    }
    /// The contents of cell `x` changed: what was known about cells that
    /// may be the same cell is forgotten (after recording what stays
    /// distinct).
    fn touch(&mut self, x: Slot) {
        self.empty_sets.clear();
        let x = self.root(x);
        let slots: Vec<Slot> = self.known.keys().copied().collect();
        for y in slots {
            if y != x {
                if self.distinct(x, y) {
                    self.distinct.insert((x.min(y), x.max(y)));
                } else {
                    self.with(y, Known::forget_contents);
                }
            }
        }
        self.with(x, Known::forget_contents);
    }
    /// Local `x` got a new value: nothing is known about it any more, nor
    /// about the slots that stood for it.
    fn forget_slot(&mut self, x: Slot) {
        let r = self.root(x);
        self.known.remove(&r);
        self.known.remove(&x);
        self.distinct.retain(|&(a, b)| a != r && b != r && a != x && b != x);
        self.alias.retain(|k, v| *k != x && *v != r && *v != x);
        self.held.retain(|h| h.0 != r && h.0 != x);
        self.empty_sets.remove(&r);
        self.empty_sets.remove(&x);
    }

    /// Learns what condition `e` being `truth` says about cells.
    fn learn(&mut self, e: &Expr, truth: bool) {
        match e {
            Expr::Binary(BinOp::And, a, b, _) if truth => {
                self.learn(a, true);
                self.learn(b, true);
            }
            Expr::Binary(BinOp::Or, a, b, _) if !truth => {
                self.learn(a, false);
                self.learn(b, false);
            }
            Expr::Unary(UnOp::Not, a) => self.learn(a, !truth),
            Expr::Builtin(f @ (Builtin::Empty | Builtin::Occupied), args, _) => {
                if let Expr::Local(s, _) = &args[0] {
                    let empty = *f == Builtin::Empty;
                    self.with(*s, |k| match (empty, truth) {
                        (true, true) => {
                            k.empty = true;
                            k.on_board = true;
                        }
                        (false, true) => {
                            k.occupied = true;
                            k.on_board = true;
                        }
                        (true, false) => k.not_empty = true,
                        (false, false) => k.not_occupied = true,
                    });
                }
            }
            Expr::Inline(binds, body, _) => {
                for (s, x) in binds.iter() {
                    if let Expr::Local(v, _) = x {
                        let r = self.root(*v);
                        self.alias.insert(*s, r);
                    }
                }
                self.learn(body, truth);
            }
            // `owner(x) == P` of a player that is never `none`, `kind(x)
            // == K` of a kind: `x` holds a piece.
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b, _) if truth == (*op == BinOp::Eq) => {
                if let Some(s) = holder(a, b).or_else(|| holder(b, a)) {
                    self.with(s, |k| {
                        k.occupied = true;
                        k.on_board = true;
                    });
                }
            }
            // `all x in v: empty(x)` of a set local.
            Expr::Quant {
                quant: Quant::All, slot, domain, filter: None, body: Some(body), ..
            } if truth => {
                if let (Expr::Local(v, _), Expr::Builtin(Builtin::Empty, args, _)) =
                    (&**domain, &**body)
                {
                    if matches!(&args[0], Expr::Local(x, _) if x == slot) {
                        let r = self.root(*v);
                        self.empty_sets.insert(r);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The `choose` sites of the turn whose tails are lazy (see the module docs).
pub fn lazy_tails(g: &ir::Game) -> BTreeSet<u16> {
    tails(g).lazy
}

/// A decision whose tail runs, without failing, into the reveal of the
/// first or last piece of an ordered zone it does not change (see
/// [`tails`]): when that piece is face down at the decision, every option
/// stops at the reveal, a chance event.
#[derive(Debug, Clone)]
pub struct ChanceTail {
    /// The zone revealed (it names no local, so it is the same zone at the
    /// decision and at the reveal).
    pub zone: Expr,
    /// Its first piece (else its last).
    pub front: bool,
    /// The tail moves pieces between zones: it cannot fail only while no
    /// zone can overflow, which holds when all zones together hold at most
    /// 65535 pieces.
    pub moves_pieces: bool,
    /// Most steps (loop rounds) the tail takes before the reveal.
    pub steps: u32,
    /// No `add` anywhere in the turn: the zones never hold more pieces
    /// than when the turn began (moves keep the number, takes lower it),
    /// so the overflow bound may be checked once, on the turn's start.
    pub no_adds: bool,
}

/// The bounds of a drawn tail (pass 15): a playout may leave the options
/// of its decision unrun when the run's steps so far plus `steps` stay
/// within the step limit and the zones' pieces plus `adds` within 65535
/// (then no option can stop with a rule error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnTail {
    /// The most steps the rest of the turn takes.
    pub steps: u32,
    /// The most pieces it adds to zones (`add`).
    pub adds: u32,
}

/// A decision whose filter a playout may ask only of the options it
/// draws (pass 54): the rest of the turn is lazy or drawn, the filter can
/// raise no rule error but by its steps, and nothing is added to zones.
/// A playout may list the domain's elements unfiltered when the run's
/// steps so far, plus `per` for each element, plus `tail`, stay within
/// the step limit (then neither the listing nor any option could stop
/// with a step error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterDraw {
    /// The most steps listing one element takes (its step and its filter).
    pub per: u32,
    /// The most steps the rest of the turn takes.
    pub tail: u32,
}

/// The decisions of the turn whose tails are lazy, and those whose tails
/// run into a chance event (see the module docs, pass 14).
pub struct Tails {
    /// Decisions whose filter a playout may ask of the options it draws
    /// alone (pass 54).
    pub filter_draws: std::collections::BTreeMap<u16, FilterDraw>,
    /// Decisions after which the turn always completes.
    pub lazy: BTreeSet<u16>,
    /// Decisions after which the turn always reaches a reveal.
    pub chance: std::collections::BTreeMap<u16, ChanceTail>,
    /// Decisions after which the turn asks nothing more and meets no
    /// chance, but may fail (pass 15): the most steps the rest takes and
    /// the most pieces it adds.
    pub drawn: std::collections::BTreeMap<u16, DrawnTail>,
    /// Decisions after which the turn completes when the position at the
    /// decision meets the conditions of its [`SureTail`] (pass 22).
    pub sure: std::collections::BTreeMap<u16, SureTail>,
    /// The statements compiled before the decision just before them (pass
    /// 28, `runs_before`), by address.
    pub before_decision: BTreeSet<usize>,
    sizes: Sizes,
    tys: Vec<Ty>,
    players: u32,
    kinds: u32,
    ordered: Vec<bool>,
    no_adds: bool,
    /// Per direction, the most cells a walk from a cell in that direction
    /// visits before it steps off the board (the cell itself counted), or
    /// `None` where some walk goes round for ever (a graph's loop).
    walks: Vec<Option<u64>>,
}

/// Walks the turn for the lazy-tail pass and the chance-tail pass.
pub fn tails(g: &ir::Game) -> Tails {
    tails_with(g, &[])
}

/// [`tails`], told which `require` statements of the turn are asked as
/// the options of their decision are listed (by address; passes 17 and
/// 19): a tail passes over them, and a decision whose tail is lazy only
/// thanks to them keeps its drawn tail (pass 15) as well, so that a
/// playout may draw among its options without asking them all.
pub fn tails_with(g: &ir::Game, preasked: &[usize]) -> Tails {
    let mut out = Tails {
        filter_draws: Default::default(),
        lazy: BTreeSet::new(),
        chance: Default::default(),
        drawn: Default::default(),
        sure: Default::default(),
        before_decision: BTreeSet::new(),
        sizes: Sizes::of(g),
        tys: g.slot_tys.clone(),
        players: g.players.len() as u32,
        kinds: g.kinds.len() as u32,
        ordered: g.zones.iter().map(|z| z.ordered).collect(),
        no_adds: !g.turn.iter().any(adds_pieces),
        walks: walk_lengths(&g.board),
    };
    let mut facts = Facts { preasked: preasked.into(), ..Facts::default() };
    walk(&g.turn, &mut Vec::new(), &mut facts, &mut out);
    out
}

/// Whether a statement of `conts` (or a block inside one) is a `require`
/// asked at listing (`preasked`, by address).
fn holds_preasked(conts: &[&[Stmt]], preasked: &[usize]) -> bool {
    fn any(stmts: &[Stmt], pre: &[usize]) -> bool {
        stmts.iter().any(|s| {
            pre.contains(&(s as *const Stmt as usize))
                || match &s.kind {
                    StmtKind::Block(_, b) => any(b, pre),
                    _ => false,
                }
        })
    }
    !preasked.is_empty() && conts.iter().any(|c| any(c, preasked))
}

/// Whether `s` is or holds an `add` (the one statement that puts new
/// pieces into zones; actions are inlined as blocks).
pub(crate) fn adds_pieces(s: &Stmt) -> bool {
    any_stmt(std::slice::from_ref(s), &|k| matches!(k, StmtKind::Add { .. }))
}

/// Whether `s` (or a statement inside it) shuffles a zone, which turns its
/// pieces face down.
pub(crate) fn shuffles(s: &Stmt) -> bool {
    any_stmt(std::slice::from_ref(s), &|k| matches!(k, StmtKind::Shuffle(_)))
}

/// Whether some statement of `stmts`, or one inside it at any depth,
/// satisfies `f`.
pub(crate) fn any_stmt(stmts: &[Stmt], f: &dyn Fn(&StmtKind) -> bool) -> bool {
    stmts.iter().any(|s| {
        f(&s.kind)
            || match &s.kind {
                StmtKind::Either { branches, .. } => branches.iter().any(|b| any_stmt(b, f)),
                StmtKind::For { body, .. } | StmtKind::Block(_, body) => any_stmt(body, f),
                StmtKind::While { pre, body, .. } => any_stmt(pre, f) || any_stmt(body, f),
                StmtKind::If { then, otherwise, .. } => any_stmt(then, f) || any_stmt(otherwise, f),
                _ => false,
            }
    })
}

/// What the chance-tail pass learns walking a tail.
struct TailWalk {
    facts: Facts,
    /// Zones the tail changes.
    written: BTreeSet<u16>,
    moves_pieces: bool,
    steps: u64,
}

/// Where a walked block ends.
enum Reach {
    /// It runs to its end without failing.
    End,
    /// It reaches this reveal (zone, front) without failing.
    Reveal(Expr, bool),
}

/// The chance tail after a decision: the continuations `conts` (innermost
/// last) walked from `facts` until a reveal they reach whatever the
/// option; `None` when some statement on the way may fail, ask for a
/// decision, end the turn or depend on a quantifier's steps.
fn chance_tail(conts: &[&[Stmt]], facts: Facts, out: &Tails) -> Option<ChanceTail> {
    let mut w = TailWalk { facts, written: BTreeSet::new(), moves_pieces: false, steps: 0 };
    for c in conts.iter().rev() {
        if let Reach::Reveal(zone, front) = tail_block(c, &mut w, out, false)? {
            let (z, _) = stable_zone(&zone)?;
            if w.written.contains(&z) || !out.ordered.get(z as usize).copied().unwrap_or(false) {
                return None;
            }
            let steps = u32::try_from(w.steps).ok()?;
            let (moves_pieces, no_adds) = (w.moves_pieces, out.no_adds);
            return Some(ChanceTail { zone, front, moves_pieces, steps, no_adds });
        }
    }
    None
}

fn tail_block(stmts: &[Stmt], w: &mut TailWalk, out: &Tails, in_loop: bool) -> Option<Reach> {
    for s in stmts {
        if !quant_free(s) {
            return None;
        }
        match &s.kind {
            StmtKind::Reveal { zone, front, .. } if !in_loop => {
                return Some(Reach::Reveal(zone.clone(), *front));
            }
            // The reveals before the first test run whatever the test says.
            StmtKind::While { pre, .. } if !in_loop => {
                return match tail_block(pre, w, out, in_loop)? {
                    Reach::Reveal(z, f) => Some(Reach::Reveal(z, f)),
                    Reach::End => None,
                };
            }
            StmtKind::Block(binds, body) => {
                for (p, e) in binds {
                    match e {
                        Expr::Local(x, _) => {
                            let r = w.facts.root(*x);
                            w.facts.alias.insert(*p, r);
                        }
                        e if !may_fail(e) => {
                            // `me` and the seat after it are players.
                            let next_of_me = matches!(e, Expr::Builtin(Builtin::Next, a, _)
                                if matches!(a.first(), Some(Expr::Me)));
                            if matches!(e, Expr::Me) || next_of_me {
                                w.facts.with(*p, |k| k.some = true);
                            }
                        }
                        _ => return None,
                    }
                }
                if let Reach::Reveal(z, f) = tail_block(body, w, out, in_loop)? {
                    return Some(Reach::Reveal(z, f));
                }
            }
            StmtKind::Transfer { count, kind, from, to } => {
                transfer_safe(count.as_ref(), kind, from, to, w, out)?;
            }
            StmtKind::For { slot, domain, filter: None, body } => {
                let size = match domain {
                    Expr::Const(Value::Players) => out.players,
                    Expr::Const(Value::Kinds) => out.kinds,
                    _ => return None,
                };
                let outer = w.facts.clone();
                let before = w.steps;
                w.steps = 0;
                w.facts.with(*slot, |k| k.some = true);
                if !matches!(tail_block(body, w, out, true)?, Reach::End) {
                    return None;
                }
                w.steps = before + u64::from(size) * (1 + w.steps);
                w.facts = outer;
                w.facts.forget_all();
                w.facts.held.clear();
                let mut changed = vec![*slot];
                assigned(body, &mut changed);
                for x in changed {
                    w.facts.forget_slot(x);
                }
            }
            _ => {
                let mut f = Some(w.facts.clone());
                if !safe_stmt(s, &mut f, None) {
                    return None;
                }
                // A path that ends the turn reaches no reveal.
                w.facts = f?;
            }
        }
    }
    Some(Reach::End)
}

/// `move N K from A to B` that cannot fail while no zone can overflow:
/// `K` is a kind, the zones' players are players, and the count is `all`
/// or one piece of a kind `A` (a counted zone) is known to hold.
fn transfer_safe(
    count: Option<&Expr>,
    kind: &Expr,
    from: &Expr,
    to: &Expr,
    w: &mut TailWalk,
    out: &Tails,
) -> Option<()> {
    if [kind, from, to].into_iter().chain(count).any(may_fail) {
        return None;
    }
    let some = |e: &Expr, f: &Facts| match e {
        Expr::Local(x, _) => f.get(*x).some,
        e => some_player(e),
    };
    let kind_ok = match kind {
        Expr::Const(Value::Kind(k)) => *k != ir::NONE16,
        Expr::Local(k, _) => w.facts.get(*k).some,
        _ => false,
    };
    let zone_id = |e: &Expr, f: &Facts| match e {
        Expr::Zone(z, None) => Some(*z),
        Expr::Zone(z, Some(p)) if some(p, f) => Some(*z),
        _ => None,
    };
    let (a, b) = (zone_id(from, &w.facts)?, zone_id(to, &w.facts)?);
    if !kind_ok || out.ordered.get(a as usize).copied().unwrap_or(true) {
        return None;
    }
    match count {
        None => {}
        Some(Expr::Const(Value::Int(1))) => {
            let Expr::Local(k, _) = kind else { return None };
            let (z, who) = stable_zone(from)?;
            let r = w.facts.root(*k);
            if !w.facts.held.contains(&(r, z, who)) {
                return None;
            }
        }
        Some(_) => return None,
    }
    w.written.insert(a);
    w.written.insert(b);
    w.moves_pieces = true;
    w.facts.held.clear();
    Some(())
}

/// Whether `s` (one the chance-tail pass accepts) ends the turn on no path
/// and no expression of it has a quantifier inside, so it takes no steps;
/// false for other statements. (A tail that may end the turn, with `win`,
/// `draw` or `pass` on some path, may not reach the reveal.)
fn quant_free(s: &Stmt) -> bool {
    let ok = |e: &Expr| !has_quant(e);
    let all = |b: &[Stmt]| b.iter().all(quant_free);
    match &s.kind {
        StmtKind::Let(_, e) | StmtKind::Remove(e) | StmtKind::NextTurn(e) => ok(e),
        StmtKind::Assign(t, e) => ok(e) && !matches!(t, ir::Target::Var(_, Some(p)) if !ok(p)),
        StmtKind::If { cond, then, otherwise } => ok(cond) && all(then) && all(otherwise),
        StmtKind::Place { kind, owner, at, .. } => {
            ok(kind) && ok(at) && owner.as_ref().is_none_or(ok)
        }
        StmtKind::Move { from, to } => ok(from) && ok(to),
        StmtKind::Transfer { count, kind, from, to } => {
            ok(kind) && ok(from) && ok(to) && count.as_ref().is_none_or(ok)
        }
        StmtKind::Block(binds, body) => binds.iter().all(|(_, e)| ok(e)) && all(body),
        StmtKind::For { domain, filter, body, .. } => {
            ok(domain) && filter.as_ref().is_none_or(ok) && all(body)
        }
        StmtKind::While { pre, .. } => all(pre),
        StmtKind::Reveal { zone, .. } => ok(zone),
        _ => false,
    }
}

impl Facts {
    /// Forgets everything known about the contents of cells.
    fn forget_all(&mut self) {
        for k in self.known.values_mut() {
            k.forget_contents();
        }
        self.empty_sets.clear();
    }

    /// What stays known at the start of every round of a loop whose body
    /// is `body` (`slot` the loop's own local), from what is known when
    /// the loop begins: nothing of the locals bound or changed inside;
    /// nothing of the cells' contents when the body may put, take away or
    /// move a piece (the second answer says whether they are kept);
    /// nothing of the zones when it may change one.
    fn loop_invariant(&self, body: &[Stmt], slot: Option<Slot>) -> (Facts, bool) {
        let mut w = self.clone();
        let mut slots: Vec<Slot> = slot.into_iter().collect();
        bound_in(body, &mut slots);
        for x in slots {
            w.forget_slot(x);
        }
        // Statements that change neither cells' contents nor zones.
        let still = |k: &StmtKind| {
            matches!(
                k,
                StmtKind::Let(..)
                    | StmtKind::Assign(..)
                    | StmtKind::If { .. }
                    | StmtKind::For { .. }
                    | StmtKind::While { .. }
                    | StmtKind::Block(..)
                    | StmtKind::Change { .. }
                    | StmtKind::Require(..)
                    | StmtKind::Win(_)
                    | StmtKind::Lose(_)
                    | StmtKind::Draw
                    | StmtKind::Pass
                    | StmtKind::NextTurn(_)
            )
        };
        let cells = |k: &StmtKind| {
            matches!(k, StmtKind::Place { .. } | StmtKind::Remove(_) | StmtKind::Move { .. })
        };
        let kept = !any_stmt(body, &|k| !still(k));
        if !kept {
            w.forget_all();
        }
        if any_stmt(body, &|k| !still(k) && !cells(k)) {
            w.held.clear();
        }
        (w, kept)
    }

    /// Carries what is known past statement `s` (whatever it does).
    fn step(&mut self, s: &Stmt) {
        let local = |e: &Expr| match e {
            Expr::Local(x, _) => Some(*x),
            _ => None,
        };
        match &s.kind {
            StmtKind::Choose { slot, domain, filter, .. } => {
                choose_facts(self, *slot, domain, filter.as_ref())
            }
            StmtKind::Require(c, _) => self.learn(c, true),
            // A local that changes forgets what was known of it.
            StmtKind::Assign(ir::Target::Local(x), _) => self.forget_slot(*x),
            StmtKind::Place { at, many: false, .. } => match local(at) {
                Some(x) => {
                    self.touch(x);
                    self.with(x, |k| {
                        k.occupied = true;
                        k.on_board = true;
                    });
                }
                None => self.forget_all(),
            },
            StmtKind::Remove(e) => match local(e) {
                Some(x) => {
                    self.touch(x);
                    self.with(x, |k| {
                        k.empty = true;
                        k.on_board = true;
                    });
                }
                None => self.forget_all(),
            },
            StmtKind::Move { from, to } => match (local(from), local(to)) {
                (Some(a), Some(b)) => {
                    self.touch(a);
                    self.touch(b);
                    self.with(a, |k| {
                        k.empty = true;
                        k.on_board = true;
                    });
                    self.with(b, |k| {
                        k.occupied = true;
                        k.on_board = true;
                    });
                }
                _ => self.forget_all(),
            },
            // A change of kind or owner leaves cells as empty or occupied
            // as they were; turn control and variables are not about cells.
            StmtKind::Let(..)
            | StmtKind::Change { .. }
            | StmtKind::NextTurn(_)
            | StmtKind::Assign(ir::Target::Var(..), _) => {}
            // Zones changed: what they hold is unknown.
            StmtKind::Add { .. }
            | StmtKind::Take { .. }
            | StmtKind::Transfer { .. }
            | StmtKind::Shuffle(_) => self.held.clear(),
            _ => {
                self.forget_all();
                self.held.clear();
                // Locals changed inside (a loop's, a branch's) are unknown.
                let mut changed = Vec::new();
                assigned(std::slice::from_ref(s), &mut changed);
                for x in changed {
                    self.forget_slot(x);
                }
            }
        }
    }
}

/// Whether some statement of `stmts` (or inside them) reads local
/// `slot` (conservatively: any mention, bound again inside or not).
fn stmts_read(stmts: &[Stmt], slot: Slot) -> bool {
    any_stmt(stmts, &|k| {
        let mut reads = false;
        k.exprs(&mut |x| reads |= x.reads_slot(slot));
        reads
    })
}

/// The `let` locals that statements (and the blocks inside them) change.
fn assigned(stmts: &[Stmt], out: &mut Vec<Slot>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign(ir::Target::Local(x), _) => out.push(*x),
            StmtKind::If { then, otherwise, .. } => {
                assigned(then, out);
                assigned(otherwise, out);
            }
            StmtKind::Either { branches, .. } => branches.iter().for_each(|b| assigned(b, out)),
            StmtKind::For { body, .. } | StmtKind::Block(_, body) => assigned(body, out),
            StmtKind::While { pre, body, .. } => {
                assigned(pre, out);
                assigned(body, out);
            }
            _ => {}
        }
    }
}

/// The locals that statements (and the blocks inside them) bind or
/// change: [`assigned`]'s, and those of `let`, `for`, decisions, chance
/// events, `compare` and inlined actions.
fn bound_in(stmts: &[Stmt], out: &mut Vec<Slot>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Let(x, _)
            | StmtKind::Assign(ir::Target::Local(x), _)
            | StmtKind::Choose { slot: x, .. }
            | StmtKind::Random { slot: x, .. }
            | StmtKind::Compare { slot: x, .. } => out.push(*x),
            StmtKind::For { slot, body, .. } => {
                out.push(*slot);
                bound_in(body, out);
            }
            StmtKind::Block(binds, body) => {
                out.extend(binds.iter().map(|(p, _)| *p));
                bound_in(body, out);
            }
            StmtKind::If { then, otherwise, .. } => {
                bound_in(then, out);
                bound_in(otherwise, out);
            }
            StmtKind::Either { branches, .. } => branches.iter().for_each(|b| bound_in(b, out)),
            StmtKind::While { pre, body, .. } => {
                bound_in(pre, out);
                bound_in(body, out);
            }
            _ => {}
        }
    }
}

/// Walks the turn forwards, carrying what is known about cells, and marks
/// each `choose` whose tail (`conts`, innermost last) is safe.
fn walk<'a>(stmts: &'a [Stmt], conts: &mut Vec<&'a [Stmt]>, facts: &mut Facts, out: &mut Tails) {
    for (i, s) in stmts.iter().enumerate() {
        let rest = &stmts[i + 1..];
        match &s.kind {
            StmtKind::Choose { site, slot, domain, filter } => {
                let before =
                    rest.first().filter(|n| runs_before(n, *slot, domain, filter.as_ref(), facts));
                conts.push(rest);
                let mut f = facts.clone();
                choose_facts(&mut f, *slot, domain, filter.as_ref());
                let mut tail = Some(f.clone());
                if conts.iter().rev().all(|c| safe_block(c, &mut tail, Some(out))) {
                    out.lazy.insert(*site);
                    if holds_preasked(conts, &facts.preasked) {
                        if let Some(t) = drawn_tail(conts, out) {
                            out.drawn.insert(*site, t);
                        }
                    }
                } else {
                    if let Some(t) = sure::sure_tail(conts, f.clone(), out) {
                        out.sure.insert(*site, t);
                    }
                    if let Some(t) = chance_tail(conts, f, out) {
                        out.chance.insert(*site, t);
                    } else if let Some(t) = drawn_tail(conts, out) {
                        out.drawn.insert(*site, t);
                    }
                }
                // Pass 54: the filter asked of the options drawn alone.
                if out.lazy.contains(site) || out.drawn.contains_key(site) {
                    if let Some(d) = filter.as_ref().and_then(|f| filter_draw(f, conts, out)) {
                        out.filter_draws.insert(*site, d);
                    }
                }
                // Pass 28 pays only where the options are run: not where
                // they may be handed over unrun.
                let unrun = out.lazy.contains(site)
                    || out.sure.contains_key(site)
                    || out.chance.contains_key(site)
                    || out.drawn.contains_key(site);
                if let Some(n) = before.filter(|_| !unrun) {
                    out.before_decision.insert(n as *const Stmt as usize);
                }
                conts.pop();
            }
            StmtKind::If { cond, then, otherwise } => {
                conts.push(rest);
                let mut a = facts.clone();
                a.learn(cond, true);
                walk(then, conts, &mut a, out);
                let mut b = facts.clone();
                b.learn(cond, false);
                walk(otherwise, conts, &mut b, out);
                conts.pop();
            }
            StmtKind::Either { branches, .. } => {
                conts.push(rest);
                for b in branches {
                    walk(b, conts, &mut facts.clone(), out);
                }
                conts.pop();
            }
            StmtKind::Block(binds, body) => {
                conts.push(rest);
                let mut f = facts.clone();
                for (p, e) in binds {
                    if let Expr::Local(x, _) = e {
                        let r = f.root(*x);
                        f.alias.insert(*p, r);
                    }
                }
                walk(body, conts, &mut f, out);
                conts.pop();
            }
            _ => {}
        }
        facts.step(s);
    }
}

/// Pass 28: whether statement `next`, just after `choose slot in domain
/// where filter` (with `facts` known before it), may be run before the
/// decision instead of after it, once for all its options: a `take` of
/// one piece of a kind local other than the chosen one, from a zone known
/// to hold that kind (so it cannot fail or raise an error, see
/// [`safe_stmt`]), when the decision's domain and filter read no zone (so
/// the options, and a chosen value's check, are the same before the
/// `take` as after it). The turn's moves are the same, each found with one
/// `take` instead of one per option.
fn runs_before(
    next: &Stmt,
    slot: Slot,
    domain: &Expr,
    filter: Option<&Expr>,
    facts: &Facts,
) -> bool {
    // `repetitions` compares the whole position, zones included.
    fn reads_zones(e: &Expr) -> bool {
        let mut found = matches!(e, Expr::Zone(..) | Expr::Builtin(Builtin::Repetitions, ..));
        e.children(&mut |c| found |= reads_zones(c));
        found
    }
    let StmtKind::Take { kind: Expr::Local(k, _), .. } = &next.kind else { return false };
    *k != slot
        && facts.root(*k) != slot
        && !reads_zones(domain)
        && !filter.is_some_and(reads_zones)
        && safe_stmt(next, &mut Some(facts.clone()), None)
}

/// Upper bounds on the elements of the collections a quantifier or `for`
/// may walk, for the step bound of pass 15.
#[derive(Debug, Clone, Copy, Default)]
struct Sizes {
    cells: u64,
    dirs: u64,
    players: u64,
    kinds: u64,
    lines: u64,
    placements: u64,
    /// The longest list written in the rules (`[e, e, w]` may name a
    /// direction twice and hold more than the board's directions).
    lists: u64,
}

impl Sizes {
    fn of(g: &ir::Game) -> Sizes {
        Sizes {
            cells: g.board.len() as u64,
            dirs: g.board.dirs() as u64,
            players: g.players.len() as u64,
            kinds: g.kinds.len() as u64,
            lines: g.board.line_lengths().map(|(_, (_, end))| u64::from(end)).max().unwrap_or(0),
            placements: g.placements.iter().map(|p| p.len() as u64).max().unwrap_or(0),
            lists: g.lists.iter().map(|l| l.len() as u64).max().unwrap_or(0),
        }
    }
}

/// The most elements walking `domain` looks at; `None` for collections
/// without a bound known when the game loads (zones, ranges but those of
/// constant bounds, lists of numbers). A list of directions, kinds or
/// players may be longer than all of them.
fn domain_size(domain: &Expr, out: &Tails) -> Option<u64> {
    if let Some((a, b)) = const_range(domain) {
        return u64::try_from(i128::from(b) - i128::from(a) + 1).ok().or(Some(0));
    }
    let z = &out.sizes;
    Some(match domain.ty(&out.tys) {
        Ty::Cells | Ty::Line | Ty::Groups => z.cells,
        Ty::Dirs => z.dirs.max(z.lists),
        Ty::Players => z.players.max(z.lists),
        Ty::Kinds => z.kinds.max(z.lists),
        Ty::Lines => z.lines,
        Ty::Placements => z.placements,
        _ => return None,
    })
}

/// The bounds of `range(a, b)` of two constant numbers.
fn const_range(e: &Expr) -> Option<(i64, i64)> {
    match e {
        Expr::Const(Value::Range(a, b)) => Some((*a, *b)),
        Expr::Builtin(Builtin::Range, args, _) => match &args[..] {
            [Expr::Const(Value::Int(a)), Expr::Const(Value::Int(b))] => Some((*a, *b)),
            _ => None,
        },
        _ => None,
    }
}

/// The most steps evaluating `e` takes, when nothing in it can raise a
/// rule error but its steps (no arithmetic, which may overflow, no
/// division, no `range`, no `sum`, no `first` / `last`, which may meet a
/// face-down piece); `None` otherwise.
fn quiet_expr(e: &Expr, out: &Tails) -> Option<u64> {
    match e {
        // A range of constant bounds cannot fail: its size is known.
        e if const_range(e).is_some() => Some(0),
        Expr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, ..)
        | Expr::Unary(UnOp::Neg, _)
        | Expr::Builtin(Builtin::Range | Builtin::Abs | Builtin::First | Builtin::Last, ..) => None,
        Expr::Quant { quant: Quant::Sum, .. } => None,
        Expr::Quant { domain, filter, body, .. } => {
            let n = domain_size(domain, out)?;
            let inner = filter.as_deref().map_or(Some(0), |f| quiet_expr(f, out))?
                + body.as_deref().map_or(Some(0), |b| quiet_expr(b, out))?;
            quiet_expr(domain, out)?.checked_add(n.checked_mul(1 + inner)?)
        }
        _ => {
            let mut total = Some(0u64);
            e.children(&mut |c| {
                total = match (total, quiet_expr(c, out)) {
                    (Some(a), Some(b)) => a.checked_add(b),
                    _ => None,
                }
            });
            total
        }
    }
}

/// What a quiet tail may cost (pass 15): the most steps it takes and the
/// most pieces its `add`s put into zones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Quiet {
    steps: u64,
    adds: u64,
}

impl Quiet {
    fn steps(steps: u64) -> Quiet {
        Quiet { steps, adds: 0 }
    }

    fn plus(self, o: Quiet) -> Option<Quiet> {
        Some(Quiet {
            steps: self.steps.checked_add(o.steps)?,
            adds: self.adds.checked_add(o.adds)?,
        })
    }

    fn plus_steps(self, steps: u64) -> Option<Quiet> {
        self.plus(Quiet::steps(steps))
    }

    fn times(self, n: u64) -> Option<Quiet> {
        Some(Quiet { steps: self.steps.checked_mul(n)?, adds: self.adds.checked_mul(n)? })
    }
}

/// The most steps `stmts` take and the most pieces they add, when they
/// ask no decision, meet no chance event and raise no rule error but by
/// their steps or an `add` past a zone's 65535 pieces (pass 15): they may
/// fail (`require`, a `place` on an occupied cell, a `take` from an empty
/// zone) or end the turn. `None` for anything else: `while` (no bound),
/// an `add` of a number not known when the game loads, `move ... to` a
/// zone, a `none` player where a player must be named.
fn quiet_block(stmts: &[Stmt], out: &Tails) -> Option<Quiet> {
    let mut total = Quiet::default();
    for s in stmts {
        total = total.plus(quiet_stmt(s, out)?)?;
    }
    Some(total)
}

fn quiet_stmt(s: &Stmt, out: &Tails) -> Option<Quiet> {
    let e = |x: &Expr| quiet_expr(x, out);
    let opt = |x: Option<&Expr>| x.map_or(Some(0), |x| quiet_expr(x, out));
    // A player that must not be `none`.
    let player = |p: Option<&Expr>| p.is_none_or(some_player).then_some(());
    Some(Quiet::steps(match &s.kind {
        StmtKind::Let(_, x) | StmtKind::Require(x, _) | StmtKind::Remove(x) => e(x)?,
        StmtKind::Assign(ir::Target::Local(_), x) => e(x)?,
        StmtKind::Assign(ir::Target::Var(_, p), x) => {
            player(p.as_ref())?;
            e(x)?
        }
        StmtKind::If { cond, then, otherwise } => {
            return quiet_block(then, out)?.plus(quiet_block(otherwise, out)?)?.plus_steps(e(cond)?)
        }
        StmtKind::Place { kind, owner, at, .. } => {
            player(owner.as_ref())?;
            e(kind)?.checked_add(e(at)?)?
        }
        StmtKind::Move { from, to } => e(from)?.checked_add(e(to)?)?,
        StmtKind::Change { at, kind, owner } => {
            player(owner.as_ref())?;
            e(at)?.checked_add(opt(kind.as_ref())?)?
        }
        StmtKind::Take { count, kind, zone } => {
            opt(count.as_ref())?.checked_add(e(kind)?)?.checked_add(e(zone)?)?
        }
        StmtKind::Add { count, kind, zone } => {
            // Its one rule error is a zone past 65535 pieces: the number
            // added must be known, for the search's bound on it. A
            // negative number fails the move.
            let adds = match count {
                None => 1,
                Some(Expr::Const(Value::Int(n))) => u64::try_from(*n).unwrap_or(0),
                Some(_) => return None,
            };
            let steps = e(kind)?.checked_add(e(zone)?)?;
            return Some(Quiet { steps, adds });
        }
        StmtKind::Win(p) | StmtKind::Lose(p) | StmtKind::NextTurn(p) => {
            player(Some(p))?;
            0
        }
        StmtKind::Draw | StmtKind::Pass => 0,
        StmtKind::Block(binds, body) => {
            let mut t = quiet_block(body, out)?;
            for (_, x) in binds {
                t = t.plus_steps(e(x)?)?;
            }
            return Some(t);
        }
        StmtKind::For { domain, filter, body, .. } => {
            let n = domain_size(domain, out)?;
            let round =
                quiet_block(body, out)?.plus_steps(1u64.checked_add(opt(filter.as_ref())?)?)?;
            return round.times(n)?.plus_steps(e(domain)?);
        }
        // A walk along a ray: at most as many rounds as the longest walk
        // visits cells, each a step, its test and its body, and the last
        // test besides.
        StmtKind::While { pre, cond, body } if pre.is_empty() => {
            let n = ray_walk_rounds(cond, body, out)?;
            let test = 1u64.checked_add(e(cond)?)?;
            let round = quiet_block(body, out)?.plus_steps(test)?;
            return round.times(n)?.plus_steps(test);
        }
        _ => return None,
    }))
}

/// The most rounds of `while cond { body }` when it walks a ray (pass
/// 15): `body` sets a local `x` once, in itself (not inside an `if` or a
/// loop), to `step(x, d)` with a `d` it does not change, and nowhere
/// else; `cond` cannot hold at
/// `none` (`occupied(x)`, or `owner(x)` compared equal with a player, in
/// a conjunct); and no walk in that direction (in any, when `d` is not
/// a constant) goes round a loop. Each round then moves `x` one cell on,
/// to cells it has not visited, until it steps off the board.
fn ray_walk_rounds(cond: &Expr, body: &[Stmt], out: &Tails) -> Option<u64> {
    let (x, d) = body.iter().find_map(|s| match &s.kind {
        StmtKind::Assign(ir::Target::Local(x), Expr::Builtin(Builtin::Step, a, _))
            if matches!(&a[0], Expr::Local(y, _) if y == x) =>
        {
            Some((*x, &a[1]))
        }
        _ => None,
    })?;
    let mut changed = Vec::new();
    assigned(body, &mut changed);
    if changed.iter().filter(|s| **s == x).count() != 1
        || changed.iter().any(|s| d.reads_slot(*s))
        || !fails_at_none(cond, x)
    {
        return None;
    }
    match d {
        Expr::Const(Value::Dir(k)) => out.walks.get(usize::from(*k)).copied().flatten(),
        _ => out.walks.iter().try_fold(0u64, |m, w| Some(m.max((*w)?))),
    }
}

/// Whether `cond` is false wherever the local `x` is `none`.
fn fails_at_none(cond: &Expr, x: Slot) -> bool {
    match cond {
        Expr::Binary(BinOp::And, a, b, _) => fails_at_none(a, x) || fails_at_none(b, x),
        Expr::Builtin(Builtin::Occupied, a, _) => matches!(&a[0], Expr::Local(y, _) if *y == x),
        Expr::Binary(BinOp::Eq, a, b, _) => holder(a, b).or_else(|| holder(b, a)) == Some(x),
        _ => false,
    }
}

/// A player expression that is never `none`: `me`, a constant player,
/// `opponent` (`next(me)`).
fn sure_player(e: &Expr) -> bool {
    some_player(e) || matches!(e, Expr::Builtin(Builtin::Next, a, _) if matches!(a[0], Expr::Me))
}

/// The local `x` when `a == b` says that `x` holds a piece: `owner(x)`
/// compared with a player that is never `none`, or `kind(x)` with a
/// constant kind.
fn holder(a: &Expr, b: &Expr) -> Option<Slot> {
    let Expr::Builtin(f @ (Builtin::Owner | Builtin::KindOf), args, _) = a else { return None };
    let Expr::Local(x, _) = &args[0] else { return None };
    let sure = match f {
        Builtin::Owner => sure_player(b),
        _ => matches!(b, Expr::Const(Value::Kind(k)) if *k != ir::NONE16),
    };
    sure.then_some(*x)
}

/// [`Tails::walks`] of board `b`: each cell's walk length found once
/// (from the cell it steps to), a walk that meets its own path again
/// making the direction's answer `None`.
fn walk_lengths(b: &crate::board::Board) -> Vec<Option<u64>> {
    let cells = b.len();
    (0..b.dirs())
        .map(|d| {
            // 0: not yet known; u64::MAX: on the path being walked.
            let mut len = vec![0u64; cells];
            let mut path = Vec::new();
            for c in 0..cells {
                let mut at = c as CellId;
                // Walk until a known cell or the board's edge.
                let mut base = 0;
                while at != NO_CELL {
                    match len.get(at as usize).copied() {
                        Some(0) => {
                            len[at as usize] = u64::MAX;
                            path.push(at);
                            at = b.step(at, d);
                        }
                        Some(u64::MAX) => return None,
                        Some(n) => {
                            base = n;
                            break;
                        }
                        None => return None,
                    }
                }
                while let Some(p) = path.pop() {
                    base += 1;
                    len[p as usize] = base;
                }
            }
            Some(len.into_iter().max().unwrap_or(0))
        })
        .collect()
}

/// Pass 15: the most steps the rest of the turn after a decision takes
/// (`conts`, innermost last) and the most pieces it adds to zones, when it
/// asks nothing more, meets no chance event and can raise no rule error
/// but by its steps or by a zone past 65535 pieces; `None` otherwise.
fn drawn_tail(conts: &[&[Stmt]], out: &Tails) -> Option<DrawnTail> {
    let mut total = Quiet::default();
    for c in conts {
        total = total.plus(quiet_block(c, out)?)?;
    }
    Some(DrawnTail {
        steps: u32::try_from(total.steps).ok()?,
        adds: u32::try_from(total.adds).ok()?,
    })
}

/// Pass 54's bounds for a decision with filter `filter` and tail `conts`
/// (see [`FilterDraw`]).
fn filter_draw(filter: &Expr, conts: &[&[Stmt]], out: &Tails) -> Option<FilterDraw> {
    let tail = drawn_tail(conts, out)?;
    if tail.adds != 0 {
        return None;
    }
    let per = u32::try_from(quiet_expr(filter, out)?.checked_add(1)?).ok()?;
    Some(FilterDraw { per, tail: tail.steps })
}

fn choose_facts(f: &mut Facts, slot: Slot, domain: &Expr, filter: Option<&Expr>) {
    match domain {
        Expr::Builtin(Builtin::Pieces, ..) => f.with(slot, |k| {
            k.occupied = true;
            k.on_board = true;
        }),
        Expr::Builtin(Builtin::Neighbours, args, _) => {
            f.with(slot, |k| k.on_board = true);
            if let Expr::Local(y, _) = &args[0] {
                let (a, b) = (f.root(slot), f.root(*y));
                f.distinct.insert((a.min(b), a.max(b)));
            }
        }
        Expr::Zone(..) | Expr::Const(Value::Kinds) | Expr::Const(Value::Players) => {
            f.with(slot, |k| k.some = true);
            // The options of a decision over a counted zone are the kinds
            // it holds.
            if let Some((z, who)) = stable_zone(domain) {
                let r = f.root(slot);
                f.held.push((r, z, who));
            }
        }
        Expr::Builtin(
            Builtin::AllCells
            | Builtin::NeighboursOf
            | Builtin::Group
            | Builtin::Union
            | Builtin::Intersect
            | Builtin::Minus
            | Builtin::LineCells,
            ..,
        ) => f.with(slot, |k| k.on_board = true),
        _ => {}
    }
    if let Some(c) = filter {
        f.learn(c, true);
    }
}

fn safe_block(stmts: &[Stmt], facts: &mut Option<Facts>, loops: Option<&Tails>) -> bool {
    for s in stmts {
        if facts.is_none() {
            return true;
        }
        if !safe_stmt(s, facts, loops) {
            return false;
        }
    }
    true
}

/// A player expression that is never `none`.
fn some_player(e: &Expr) -> bool {
    matches!(e, Expr::Me) || matches!(e, Expr::Const(Value::Player(p)) if *p != ir::NONE8)
}

fn safe_stmt(s: &Stmt, facts: &mut Option<Facts>, loops: Option<&Tails>) -> bool {
    let Some(f) = facts.as_mut() else { return true };
    let fails = |e: &Expr| if loops.is_some() { tail_may_fail(e) } else { may_fail(e) };
    let local = |e: &Expr| match e {
        Expr::Local(x, _) => Some(*x),
        _ => None,
    };
    match &s.kind {
        // Asked as the options were listed: a move here has passed it.
        StmtKind::Require(..) if f.preasked.contains(&(s as *const Stmt as usize)) => true,
        // One piece of a kind the zone is known to hold.
        StmtKind::Take { count, kind: Expr::Local(k, _), zone }
            if count.as_ref().is_none_or(|c| matches!(c, Expr::Const(Value::Int(1)))) =>
        {
            let Some((z, who)) = stable_zone(zone) else { return false };
            let r = f.root(*k);
            if !f.held.contains(&(r, z, who)) {
                return false;
            }
            f.held.clear();
            true
        }
        // A set of cells all known to be empty.
        StmtKind::Place { kind, owner, at: Expr::Local(v, _), many: true } => {
            let kind_ok = match kind {
                Expr::Const(Value::Kind(k)) => *k != ir::NONE16,
                Expr::Local(k, _) => f.get(*k).some,
                _ => false,
            };
            let r = f.root(*v);
            if !kind_ok || !owner.as_ref().is_none_or(some_player) || !f.empty_sets.contains(&r) {
                return false;
            }
            f.forget_all();
            true
        }
        StmtKind::Let(_, e) => !fails(e),
        // A change of kind or owner of a cell known to hold a piece.
        StmtKind::Change { at: Expr::Local(x, _), kind, owner } if loops.is_some() => {
            let kind_ok = match kind {
                None => true,
                Some(Expr::Const(Value::Kind(k))) => *k != ir::NONE16,
                Some(Expr::Local(k, _)) => f.get(*k).some,
                Some(_) => false,
            };
            kind_ok && owner.as_ref().is_none_or(sure_player) && f.get(*x).is_occupied()
        }
        // A loop of boundedly many rounds, each safe from what holds at
        // the start of every round.
        StmtKind::For { slot, domain, filter, body } if loops.is_some() => {
            if fails(domain)
                || filter.as_ref().is_some_and(fails)
                || loops.and_then(|out| domain_size(domain, out)).is_none()
            {
                return false;
            }
            // (A zone, whose kinds are read as the rounds go, has no
            // size here.) What the domain says of its cells is said of
            // the locals it read when the loop began.
            let mut bound = Vec::new();
            bound_in(body, &mut bound);
            if bound.iter().any(|x| domain.reads_slot(*x)) {
                return false;
            }
            let (w, kept) = f.loop_invariant(body, Some(*slot));
            let mut round = w.clone();
            // The domain is found once, before the first round: what it
            // says of the contents of its cells holds only while no round
            // changes them. The filter is asked at each round's start.
            choose_facts(&mut round, *slot, domain, None);
            if !kept {
                round.with(*slot, Known::forget_contents);
            }
            if let Some(c) = filter {
                round.learn(c, true);
            }
            if !safe_block(body, &mut Some(round), loops) {
                return false;
            }
            *f = w;
            true
        }
        StmtKind::While { pre, cond, body } if pre.is_empty() && loops.is_some() => {
            if fails(cond) || loops.and_then(|out| ray_walk_rounds(cond, body, out)).is_none() {
                return false;
            }
            let (mut w, _) = f.loop_invariant(body, None);
            let mut round = w.clone();
            round.learn(cond, true);
            if !safe_block(body, &mut Some(round), loops) {
                return false;
            }
            w.learn(cond, false);
            *f = w;
            true
        }
        StmtKind::Assign(t, e) => {
            let ok = match t {
                ir::Target::Local(x) => {
                    f.forget_slot(*x);
                    true
                }
                ir::Target::Var(_, p) => p.as_ref().is_none_or(some_player),
            };
            ok && !fails(e)
        }
        StmtKind::NextTurn(p) => some_player(p),
        StmtKind::Win(p) | StmtKind::Lose(p) => {
            if !some_player(p) {
                return false;
            }
            *facts = None;
            true
        }
        StmtKind::Draw | StmtKind::Pass => {
            *facts = None;
            true
        }
        StmtKind::If { cond, then, otherwise } => {
            if fails(cond) {
                return false;
            }
            let mut a = Some(f.clone());
            let mut b = Some(f.clone());
            if let Some(x) = a.as_mut() {
                x.learn(cond, true);
            }
            if let Some(x) = b.as_mut() {
                x.learn(cond, false);
            }
            if !safe_block(then, &mut a, loops) || !safe_block(otherwise, &mut b, loops) {
                return false;
            }
            *facts = match (a, b) {
                (None, None) => None,
                (Some(x), None) | (None, Some(x)) => Some(x),
                (Some(x), Some(y)) => {
                    let mut m = x.clone();
                    m.known = x
                        .known
                        .iter()
                        .filter_map(|(s, k)| y.known.get(s).map(|j| (*s, k.meet(*j))))
                        .collect();
                    m.distinct = x.distinct.union(&y.distinct).copied().collect();
                    m.held.retain(|h| y.held.contains(h));
                    // A local changed on either path is unknown after both.
                    let mut changed = Vec::new();
                    assigned(then, &mut changed);
                    assigned(otherwise, &mut changed);
                    for s in changed {
                        m.forget_slot(s);
                    }
                    Some(m)
                }
            };
            true
        }
        StmtKind::Place { kind, owner, at, many: false } => {
            let kind_ok = match kind {
                Expr::Const(Value::Kind(k)) => *k != ir::NONE16,
                Expr::Local(k, _) => f.get(*k).some,
                _ => false,
            };
            let owner_ok = owner.as_ref().is_none_or(some_player);
            let Some(x) = local(at) else { return false };
            if !kind_ok || !owner_ok || !f.get(x).is_empty() {
                return false;
            }
            f.touch(x);
            f.with(x, |k| {
                k.occupied = true;
                k.on_board = true;
            });
            true
        }
        StmtKind::Remove(e) => {
            let Some(x) = local(e) else { return false };
            if !f.get(x).is_occupied() {
                return false;
            }
            f.touch(x);
            f.with(x, |k| {
                k.empty = true;
                k.on_board = true;
            });
            true
        }
        StmtKind::Move { from, to } => {
            let (Some(a), Some(b)) = (local(from), local(to)) else { return false };
            if !f.get(a).is_occupied() || !f.get(b).is_empty() {
                return false;
            }
            f.touch(a);
            f.touch(b);
            f.with(a, |k| {
                k.empty = true;
                k.on_board = true;
            });
            f.with(b, |k| {
                k.occupied = true;
                k.on_board = true;
            });
            true
        }
        StmtKind::Block(binds, body) => {
            for (p, e) in binds {
                match e {
                    Expr::Local(x, _) => {
                        let r = f.root(*x);
                        f.alias.insert(*p, r);
                    }
                    e if !fails(e) => {}
                    _ => return false,
                }
            }
            let mut inner = Some(f.clone());
            if !safe_block(body, &mut inner, loops) {
                return false;
            }
            *facts = inner;
            true
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Invariants of a quantifier's condition, computed once per evaluation

/// The subexpressions of `e` worth computing once per evaluation of a
/// quantifier rather than once per element (see [`Compiler::hoist`]):
/// outermost ones that read none of `variant` (the element and the locals
/// bound from it), read the position, have a quantifier inside and cannot
/// raise an error.
fn invariants(e: &Expr, tys: &[Ty], variant: &mut Vec<Slot>, out: &mut Vec<(*const Expr, Ty)>) {
    if !reads_any(e, variant) && reads_state_or(e, false) && has_quant(e) && !may_fail(e) {
        out.push((e, e.ty(tys)));
        return;
    }
    match e {
        Expr::Inline(binds, body, _) => {
            let n = variant.len();
            for (s, x) in binds.iter() {
                invariants(x, tys, variant, out);
                if reads_any(x, variant) {
                    variant.push(*s);
                }
            }
            invariants(body, tys, variant, out);
            variant.truncate(n);
        }
        Expr::Quant { slot, domain, filter, body, .. } => {
            invariants(domain, tys, variant, out);
            variant.push(*slot);
            if let Some(f) = filter {
                invariants(f, tys, variant, out);
            }
            if let Some(b) = body {
                invariants(b, tys, variant, out);
            }
            variant.pop();
        }
        _ => e.children(&mut |c| invariants(c, tys, variant, out)),
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Loop-invariant values of a quantifier over `slot`. A subexpression
    /// of its condition or body that does not depend on the element (`def
    /// freed(x, a) = empty(x) or contains(prey(a), x)` asked of each
    /// neighbour `x`: `prey(a)` is the same for all of them) is computed
    /// the first time an element needs it and kept in a local for the
    /// rest of this evaluation of the quantifier. Expressions are pure, so
    /// the value cannot change between elements; it is computed at most
    /// once and only if some element asks for it, so nothing runs that
    /// the written order would not run. The quantifier's closure forgets
    /// the values (returned flag words) at its start. Only values that read
    /// the position are hoisted: compile-time evaluations of position-free
    /// conditions (precomputed relations) never see a cached value.
    pub fn hoist(&mut self, slot: Slot, filter: Option<&Expr>, body: Option<&Expr>) -> Vec<u16> {
        let mut found = Vec::new();
        for e in filter.into_iter().chain(body) {
            invariants(e, &self.g.slot_tys, &mut vec![slot], &mut found);
        }
        let mut flags = Vec::new();
        for (e, ty) in found {
            let var = match ty {
                Ty::Cells => Var::S(self.fresh_set()),
                ty if Var::bank(ty) == 0 => Var::W(self.fresh_word()),
                _ => continue,
            };
            let flag = self.fresh_word();
            self.hoisted.push((e, var, flag));
            flags.push(flag);
            self.notes.push("hoisted: a value the same for every element, computed once".into());
        }
        flags
    }

    /// Ends the hoisting of [`Compiler::hoist`] (its flag words).
    pub fn unhoist(&mut self, flags: &[u16]) {
        self.hoisted.retain(|h| !flags.contains(&h.2));
    }

    /// The cache of `e` if it is hoisted (taken out of the list while `e`
    /// itself is compiled; the caller puts it back).
    pub fn take_hoisted(&mut self, e: &Expr) -> Option<(Var, u16)> {
        let i = self.hoisted.iter().position(|h| std::ptr::eq(h.0, e))?;
        let (_, v, f) = self.hoisted.swap_remove(i);
        Some((v, f))
    }
}

// ---------------------------------------------------------------------------
// Hoisted element tests

/// `Q c in E: P(c)` about an element `E` (a line or a set of cells) of an
/// outer collection, with `P` in set form and independent of `E`: `P`'s set
/// is computed once for the whole outer loop, and each element is a bit
/// test against it.
pub struct ElemTest<const W: usize> {
    q: Quant,
    f: Option<CellTest<W>>,
    b: Option<CellTest<W>>,
}

/// An [`ElemTest`]'s filter or body: one occupancy test, or `and` of two,
/// read in place (no call: an element test is asked at every option of
/// boop.'s placements), anything else by its closure.
enum CellTest<const W: usize> {
    Leaves(Leaf, Option<Leaf>),
    Fn(P<W>),
}

impl<const W: usize> CellTest<W> {
    fn of(p: Pred<W>) -> CellTest<W> {
        match &p {
            Pred::And(a, b) => {
                if let (Some(x), Some(y)) = (a.as_leaf(), b.as_leaf()) {
                    return CellTest::Leaves(x, Some(y));
                }
            }
            p => {
                if let Some(x) = p.as_leaf() {
                    return CellTest::Leaves(x, None);
                }
            }
        }
        CellTest::Fn(p.into_fn())
    }

    /// The cells that pass, as [`Pred::into_fn`]'s closure finds them.
    #[inline(always)]
    fn cells(&self, cx: &mut Cx<'_, W>) -> Set<W> {
        match self {
            CellTest::Leaves(x, None) => x.eval(cx).0,
            CellTest::Leaves(x, Some(y)) => x.eval(cx).0.and(y.eval(cx).0),
            CellTest::Fn(f) => f(cx, cx.t.all).0,
        }
    }
}

/// The sets an [`ElemTest`] compares against, computed once.
#[derive(Clone, Copy)]
pub struct ElemSets<const W: usize> {
    /// The inner filter's cells.
    pub f: Option<Set<W>>,
    /// The inner body's cells.
    pub b: Option<Set<W>>,
    /// The inner quantifier.
    pub q: Quant,
}

impl<const W: usize> ElemTest<W> {
    /// Computes the predicate sets.
    #[inline(always)]
    pub fn sets(&self, cx: &mut Cx<'_, W>) -> ElemSets<W> {
        ElemSets {
            f: self.f.as_ref().map(|f| f.cells(cx)),
            b: self.b.as_ref().map(|b| b.cells(cx)),
            q: self.q,
        }
    }
}

impl<const W: usize> ElemSets<W> {
    /// The inner quantifier's answer for an element's cells.
    #[inline(always)]
    pub fn test(&self, e: Set<W>) -> bool {
        let s = match self.f {
            Some(f) => e.and(f),
            None => e,
        };
        let hits = match self.b {
            Some(b) => s.and(b),
            None => s,
        };
        match self.q {
            Quant::Any => !hits.is_empty(),
            Quant::All => hits == s,
            _ => hits.is_empty(),
        }
    }
}

impl<const W: usize> ElemSets<W> {
    /// The cells every cell of an accepted element lies in (the inner
    /// quantifier is `all`), or that some cell of it is in (`any`, `none`):
    /// for lines as shifts and placements by cells.
    #[inline]
    pub fn target(&self, all: Set<W>) -> Set<W> {
        match (self.q == Quant::All, self.f, self.b) {
            (true, Some(f), Some(b)) => all.minus(f).or(b),
            (true, None, Some(b)) => b,
            (true, _, None) => all,
            (false, Some(f), Some(b)) => f.and(b),
            (false, Some(f), None) => f,
            (false, None, Some(b)) => b,
            (false, None, None) => all,
        }
    }

    /// The starts of the lines along `axis` the inner quantifier accepts,
    /// given `s` from [`ElemSets::target`].
    #[inline]
    pub fn line_starts(&self, sh: &super::LineShifts<W>, s: Set<W>, axis: usize) -> Set<W> {
        match self.q {
            Quant::All => sh.all_in(s, axis),
            Quant::Any => sh.any_in(s, axis),
            _ => sh.axes[axis].1.minus(sh.any_in(s, axis)),
        }
    }
}

/// The cells of a collection element held in `var` (a line or a set).
#[inline(always)]
pub fn elem_cells<const W: usize>(cx: &Cx<'_, W>, var: Var) -> Set<W> {
    match var {
        Var::W(i) => cx.t.lines.get(cx.fr.w[i as usize] as usize).map_or(Set::EMPTY, |l| l.set),
        Var::S(i) => cx.fr.s[i as usize],
        Var::D(_) => Set::EMPTY,
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// `e` as an [`ElemTest`] about the element in `var`, if it is one.
    pub fn elem_test(&mut self, var: Slot, e: &Expr) -> Option<ElemTest<W>> {
        if !matches!(self.ty(&Expr::Local(var, Default::default())), Ty::Line | Ty::Cells) {
            return None;
        }
        let mut aliases = vec![var];
        let mut inner = e;
        while let Expr::Inline(binds, body, _) = inner {
            if !binds.iter().all(|(_, x)| matches!(x, Expr::Local(v, _) if aliases.contains(v))) {
                return None;
            }
            aliases.extend(binds.iter().map(|(s, _)| *s));
            inner = body;
        }
        let Expr::Quant {
            quant: q @ (Quant::Any | Quant::All | Quant::None),
            slot,
            domain,
            filter,
            body,
            ..
        } = inner
        else {
            return None;
        };
        let on_elem = match &**domain {
            Expr::Local(v, _) => aliases.contains(v),
            Expr::Builtin(Builtin::LineCells, args, _) => {
                matches!(&args[0], Expr::Local(v, _) if aliases.contains(v))
            }
            _ => false,
        };
        if !on_elem
            || filter.as_deref().is_some_and(|f| reads_any(f, &aliases))
            || body.as_deref().is_some_and(|b| reads_any(b, &aliases))
        {
            return None;
        }
        let (f, b) = self.filter_body(*slot, filter.as_deref(), body.as_deref())?;
        self.notes.push(format!("hoisted: `{}` over each element's cells", quant_name(*q)));
        Some(ElemTest { q: *q, f: f.map(CellTest::of), b: b.map(CellTest::of) })
    }

    /// An element test `all c in l: T(c)` with `T` one occupancy set or
    /// the `and` of two, each the mover's pieces or a fixed player's or
    /// kind's (no filter): the sets' places in the position (see
    /// [`Hoisted::LinesBits`]).
    fn occupancy_words(&self, test: &ElemTest<W>) -> Option<OccBits> {
        let (Quant::All, None, Some(CellTest::Leaves(x, y))) = (test.q, &test.f, &test.b) else {
            return None;
        };
        // A fixed set's place; `None` for the mover's.
        let place = |l: &Leaf| -> Option<Option<usize>> {
            match *l {
                Leaf::OwnerMe => Some(None),
                Leaf::Owner(p) if (0..self.t.players as i64).contains(&p) => Some(Some(p as usize)),
                Leaf::Kind(k) if (0..self.t.kinds as i64).contains(&k) => {
                    Some(Some(self.t.players + k as usize))
                }
                _ => None,
            }
        };
        let a = place(x)?;
        let b = match y {
            Some(y) => Some(place(y)?),
            None => None,
        };
        Some(match (a, b) {
            (None, None) | (None, Some(None)) => OccBits::Me,
            (Some(a), None) => OccBits::One(a),
            (None, Some(Some(b))) | (Some(b), Some(None)) => OccBits::MeAnd(b),
            (Some(a), Some(Some(b))) => OccBits::Two(a, b),
        })
    }

    /// `any`/`all`/`none`/`count` over lines or sets whose body is an
    /// [`ElemTest`] (no filter on the outer collection).
    pub fn hoisted_quant(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: crate::source::Span,
    ) -> Option<Hoisted<W>> {
        if filter.is_some() || !matches!(q, Quant::Any | Quant::All | Quant::None | Quant::Count) {
            return None;
        }
        let test = self.elem_test(slot, body?)?;
        if let Expr::Lines(a, b) = domain {
            if let Some(i) = self.t.shifts.iter().position(|s| s.range == (*a, *b)) {
                self.notes.push(format!("lines as shifts: `{}` over lines", quant_name(q)));
                let code = |q: Quant| match q {
                    Quant::Any => Q_ANY,
                    Quant::All => Q_ALL,
                    Quant::None => Q_NONE,
                    _ => Q_COUNT,
                };
                let inner = code(test.q);
                if let (1, Quant::Any, Some(bits)) = (W, q, self.occupancy_words(&test)) {
                    self.notes
                        .push("lines in place: a line all in one or two occupancy sets".into());
                    return Some(Hoisted::LinesBits(bits, i));
                }
                return Some(Hoisted::Lines(test, i, code(q), inner));
            }
        }
        let var = self.var(slot);
        let d = self.dom(domain);
        Some(Hoisted::Word(Box::new(move |cx| {
            let sets = test.sets(cx);
            let dv = d(cx);
            let mut n = 0i64;
            let stop_on = q != Quant::All;
            let mut decided = false;
            super::expr::each_ticked(cx, dv, var, span, |cx| {
                let t = sets.test(elem_cells(cx, var));
                if q == Quant::Count {
                    n += i64::from(t);
                    return true;
                }
                if t == stop_on {
                    decided = true;
                    return false;
                }
                true
            });
            match q {
                Quant::Count => n,
                Quant::Any => i64::from(decided),
                _ => i64::from(!decided),
            }
        })))
    }
}

/// A quantifier compiled by [`Compiler::hoisted_quant`]: a word (the
/// count, or 0 / 1), or lines as shifts, made into a word or a condition
/// as the caller wants it (a condition without a closure around a word).
pub enum Hoisted<const W: usize> {
    /// The word.
    Word(I<W>),
    /// Lines as shifts: the element test, the line set of the tables, the
    /// outer and the inner quantifier (`Q_*`).
    Lines(ElemTest<W>, usize, u8, u8),
    /// `any l in lines(k): all c in l: T(c)` on a board of one word, `T`
    /// one or two occupancy sets read in place (boop.'s `three_cats`):
    /// the same answers as `Lines`, with no test of which sets at run
    /// time (one closure per form of [`OccBits`]).
    LinesBits(OccBits, usize),
}

/// Which occupancy sets of the position a [`Hoisted::LinesBits`] reads:
/// the mover's pieces, or the set at a fixed place (a player's, a kind's),
/// or the `and` of two.
#[derive(Clone, Copy)]
pub enum OccBits {
    /// The mover's pieces.
    Me,
    /// The mover's pieces and the set at the place.
    MeAnd(usize),
    /// The set at the place.
    One(usize),
    /// Both sets.
    Two(usize, usize),
}

/// `$make::<W, ME, TWO>(a, b, $args...)` for the form of `$bits`: the
/// mover's set (`ME`) or the one at `a`, and-ed (`TWO`) with the one at `b`.
macro_rules! by_occ {
    ($bits:expr, $make:ident, $($arg:expr),*) => {
        match $bits {
            OccBits::Me => $make::<W, true, false>(0, 0, $($arg),*),
            OccBits::MeAnd(b) => $make::<W, true, true>(0, b, $($arg),*),
            OccBits::One(a) => $make::<W, false, false>(a, 0, $($arg),*),
            OccBits::Two(a, b) => $make::<W, false, true>(a, b, $($arg),*),
        }
    };
}

/// [`Hoisted::LinesBits`] (line set `i` of the tables) as a condition:
/// one closure per form of [`OccBits`]. Only for a board of one word.
fn lines_bits<const W: usize>(bits: OccBits, i: usize) -> B<W> {
    fn make<const W: usize, const ME: bool, const TWO: bool>(a: usize, b: usize, i: usize) -> B<W> {
        Box::new(move |cx| lines_bits_test::<W, ME, TWO>(cx, a, b, i))
    }
    by_occ!(bits, make, i)
}

/// The test of [`Hoisted::LinesBits`] for the sets at `a` (the mover's
/// when `ME`) and, when `TWO`, `b`: line set `i` of the tables.
#[inline(always)]
fn lines_bits_test<const W: usize, const ME: bool, const TWO: bool>(
    cx: &Cx<'_, W>,
    a: usize,
    b: usize,
    i: usize,
) -> bool {
    let a = if ME { usize::from(cx.st.current) } else { a };
    let mut w = bits_at::<W>(cx.st, a).0[0];
    if TWO {
        w &= bits_at::<W>(cx.st, b).0[0];
    }
    let Some(sh) = cx.t.shifts.get(i) else { return false };
    // A line of `k` cells needs `k` cells (as in `lines_eval`).
    w.count_ones() as usize >= sh.k && any_line_in_word(sh, w)
}

/// `if` of [`Hoisted::LinesBits`] (line set `i`) without `else`: the test
/// made in the `if`'s own closure, one per form of [`OccBits`], as
/// `effect::if_` runs `then` (the test cannot fail).
pub fn if_lines<const W: usize>(
    bits: OccBits,
    i: usize,
    then: Vec<super::effect::StmtFn<W>>,
) -> super::effect::StmtFn<W> {
    use super::effect::{run_seq, Ctl};
    fn make<const W: usize, const ME: bool, const TWO: bool>(
        a: usize,
        b: usize,
        i: usize,
        mut then: Vec<super::effect::StmtFn<W>>,
    ) -> super::effect::StmtFn<W> {
        match (then.pop(), then.is_empty()) {
            (Some(t), true) => {
                Box::new(
                    move |cx| {
                        if lines_bits_test::<W, ME, TWO>(cx, a, b, i) {
                            t(cx)
                        } else {
                            Ctl::Next
                        }
                    },
                )
            }
            (last, _) => {
                then.extend(last);
                Box::new(move |cx| {
                    if lines_bits_test::<W, ME, TWO>(cx, a, b, i) {
                        run_seq(cx, &then)
                    } else {
                        Ctl::Next
                    }
                })
            }
        }
    }
    by_occ!(bits, make, i, then)
}

/// Whether some line of `sh` lies all in the cells of word `w` (a board
/// of one word): every axis shifted to the end and the results or-ed
/// (which axis holds a line, if any, is not predictable: no branch on
/// it). The shifts per axis come from the tables (`LineShifts::words`),
/// and lines of three and four cells have their steps written out.
#[inline(always)]
fn any_line_in_word<const W: usize>(sh: &super::LineShifts<W>, w: u64) -> bool {
    #[inline(always)]
    fn axes<const K: usize>(words: &[(u32, u64)], k: usize, w: u64) -> u64 {
        let k = if K > 0 { K } else { k };
        let mut any = 0;
        for &(down, starts) in words {
            let mut r = starts & w;
            let mut x = w;
            for _ in 1..k {
                x >>= down;
                r &= x;
            }
            any |= r;
        }
        any
    }
    // Lines of three and four cells (the common games) with the steps
    // written out.
    let any = match sh.k {
        3 => axes::<3>(&sh.words, 3, w),
        4 => axes::<4>(&sh.words, 4, w),
        k => axes::<0>(&sh.words, k, w),
    };
    any != 0
}

/// [`lines_word`] or [`lines_cond`] for the quantifiers `$out`, `$inq` (`Q_*` values), so
/// that neither is looked at again per axis: one closure per pair.
macro_rules! by_quants {
    ($out:expr, $inq:expr, $f:ident, $($arg:expr),*) => {
        match ($out, $inq) {
            (Q_ANY, Q_ANY) => $f::<W, Q_ANY, Q_ANY>($($arg),*),
            (Q_ANY, Q_ALL) => $f::<W, Q_ANY, Q_ALL>($($arg),*),
            (Q_ANY, _) => $f::<W, Q_ANY, Q_NONE>($($arg),*),
            (Q_ALL, Q_ANY) => $f::<W, Q_ALL, Q_ANY>($($arg),*),
            (Q_ALL, Q_ALL) => $f::<W, Q_ALL, Q_ALL>($($arg),*),
            (Q_ALL, _) => $f::<W, Q_ALL, Q_NONE>($($arg),*),
            (Q_NONE, Q_ANY) => $f::<W, Q_NONE, Q_ANY>($($arg),*),
            (Q_NONE, Q_ALL) => $f::<W, Q_NONE, Q_ALL>($($arg),*),
            (Q_NONE, _) => $f::<W, Q_NONE, Q_NONE>($($arg),*),
            (_, Q_ANY) => $f::<W, Q_COUNT, Q_ANY>($($arg),*),
            (_, Q_ALL) => $f::<W, Q_COUNT, Q_ALL>($($arg),*),
            (_, _) => $f::<W, Q_COUNT, Q_NONE>($($arg),*),
        }
    };
}

impl<const W: usize> Hoisted<W> {
    /// As a word.
    pub fn word(self) -> I<W> {
        match self {
            Hoisted::Word(q) => q,
            Hoisted::Lines(test, i, out, inq) => by_quants!(out, inq, lines_word, test, i),
            Hoisted::LinesBits(bits, i) => {
                let c = lines_bits(bits, i);
                Box::new(move |cx| i64::from(c(cx)))
            }
        }
    }

    /// As a condition (the word is not 0).
    pub fn cond(self) -> B<W> {
        match self {
            Hoisted::Word(q) => Box::new(move |cx| q(cx) != 0),
            Hoisted::Lines(test, i, out, inq) => by_quants!(out, inq, lines_cond, test, i),
            Hoisted::LinesBits(bits, i) => lines_bits(bits, i),
        }
    }
}

/// Quantifiers as constants, for [`lines_word`].
const Q_ANY: u8 = 0;
const Q_ALL: u8 = 1;
const Q_NONE: u8 = 2;
const Q_COUNT: u8 = 3;

/// `OUT l in lines(k): IN c in l: P(c)` by shifts (line set `i` of the
/// tables), the quantifiers fixed at compile time: per axis, the starts
/// of the accepted lines, as [`ElemSets::line_starts`] computes them.
fn lines_word<const W: usize, const OUT: u8, const IN: u8>(test: ElemTest<W>, i: usize) -> I<W> {
    Box::new(move |cx| lines_eval::<W, OUT, IN>(&test, i, cx))
}

/// [`lines_word`] as a condition.
fn lines_cond<const W: usize, const OUT: u8, const IN: u8>(test: ElemTest<W>, i: usize) -> B<W> {
    Box::new(move |cx| lines_eval::<W, OUT, IN>(&test, i, cx) != 0)
}

/// The answer of [`lines_word`]'s quantifiers (`count`: a number; the
/// others 0 or 1).
#[inline(always)]
fn lines_eval<const W: usize, const OUT: u8, const IN: u8>(
    test: &ElemTest<W>,
    i: usize,
    cx: &mut Cx<'_, W>,
) -> i64 {
    let sets = test.sets(cx);
    let s = sets.target(cx.t.all);
    let Some(sh) = cx.t.shifts.get(i) else { return 0 };
    let k = sh.k as i32;
    if IN == Q_ALL && OUT != Q_ALL && s.len() < sh.k {
        // A line of `k` cells all in `s` needs `k` cells of `s`: none is
        // (boop.'s three Cats of the mover, most of a game).
        return i64::from(OUT == Q_NONE);
    }
    if W == 1 && IN == Q_ALL && OUT == Q_ANY {
        // One word, some line all in `s`: the shifts on the word itself.
        return i64::from(any_line_in_word(sh, s.0[0]));
    }
    let mut count = 0i64;
    for &(d, starts) in &sh.axes {
        let r = if IN == Q_ALL {
            let mut r = starts.and(s);
            let mut j = 1;
            while j < k && !r.is_empty() {
                r = r.and(s.shift_down(j * d));
                j += 1;
            }
            r
        } else {
            let mut any = s;
            for j in 1..k {
                any = any.or(s.shift_down(j * d));
            }
            if IN == Q_ANY {
                any.and(starts)
            } else {
                starts.minus(any)
            }
        };
        match OUT {
            Q_ANY if !r.is_empty() => return 1,
            Q_ALL if r != starts => return 0,
            Q_NONE if !r.is_empty() => return 0,
            Q_COUNT => count += r.len() as i64,
            _ => {}
        }
    }
    match OUT {
        Q_ANY => 0,
        Q_ALL | Q_NONE => 1,
        _ => count,
    }
}

// ---------------------------------------------------------------------------
// Emptiness of a collected set

impl<const W: usize> Compiler<'_, W> {
    /// `size(collect b in D where F: B) > 0` (and `>= 1`, `!= 0`, `== 0`,
    /// `< 1`, `<= 0`, either way round), over a collection `D` of sets:
    /// whether some element passing `F` has a non-empty `B`, which stops at
    /// the first one instead of building the union. Only when nothing in
    /// `D`, `F` or `B` can fail, so stopping early hides no error.
    pub fn collect_nonempty(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<B<W>> {
        let flip = |op| match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            op => op,
        };
        let (size, op, k) = match (a, b) {
            (Expr::Builtin(Builtin::Size, ..), Expr::Const(Value::Int(k))) => (a, op, *k),
            (Expr::Const(Value::Int(k)), Expr::Builtin(Builtin::Size, ..)) => (b, flip(op), *k),
            _ => return None,
        };
        let want = match (op, k) {
            (BinOp::Gt, 0) | (BinOp::Ge, 1) | (BinOp::Ne, 0) => true,
            (BinOp::Eq, 0) | (BinOp::Lt, 1) | (BinOp::Le, 0) => false,
            _ => return None,
        };
        let Expr::Builtin(_, args, _) = size else { return None };
        let set = args.first()?;
        if self.is_hoisted(size) || !self.nonempty_shape(set) {
            return None;
        }
        self.notes
            .push("emptiness of a collected set: stops at the first non-empty element".into());
        Some(self.nonempty(set, want))
    }

    /// Whether `e` is a `collect` [`Compiler::nonempty`] compiles: over a
    /// collection of sets (not cells: those have set forms), nothing able
    /// to fail, perhaps inside inlined `def`s, none of it hoisted.
    fn nonempty_shape(&self, e: &Expr) -> bool {
        if self.is_hoisted(e) {
            return false;
        }
        match e {
            Expr::Inline(binds, body, _) => {
                binds.iter().all(|(_, x)| !may_fail(x)) && self.nonempty_shape(body)
            }
            Expr::Quant { quant: Quant::Collect, domain, filter, body: Some(body), .. } => {
                !matches!(self.ty(domain), Ty::Cells | Ty::Line)
                    && !may_fail(domain)
                    && !filter.as_deref().is_some_and(may_fail)
                    && !may_fail(body)
            }
            _ => false,
        }
    }

    /// Whether `e` is a value hoisted out of a quantifier (computed once
    /// per evaluation into a slot, see [`Compiler::take_hoisted`]).
    pub fn is_hoisted(&self, e: &Expr) -> bool {
        self.hoisted.iter().any(|h| std::ptr::eq(h.0, e))
    }

    /// Whether the set `e` (of [`Compiler::nonempty_shape`]) is non-empty
    /// (`want`) or empty (not `want`).
    fn nonempty(&mut self, e: &Expr, want: bool) -> B<W> {
        match e {
            Expr::Inline(binds, body, _) => {
                let binds = self.binds(binds);
                let inner = self.nonempty(body, want);
                Box::new(move |cx| {
                    for b in &binds {
                        b(cx);
                    }
                    inner(cx)
                })
            }
            Expr::Quant { slot, domain, filter, body: Some(body), span, .. } => {
                let (slot, span) = (*slot, *span);
                let var = self.var(slot);
                let d = self.dom(domain);
                // The conjunct the touch guard (pass 16) decides, if any: the
                // guard passes only the elements next to `X`, for which it
                // holds, so the filter is asked without it.
                let mut conj = Vec::new();
                if let (Some(f), Var::S(_), true) = (filter.as_deref(), var, self.t.nbr_symmetric) {
                    conjuncts(f, &mut conj);
                }
                let guard = conj.iter().position(|c| touched(c, slot).is_some());
                let flags = self.hoist(slot, filter.as_deref(), Some(body));
                let f = match guard {
                    Some(i) => {
                        conj.remove(i);
                        let fs: Vec<B<W>> = conj.iter().map(|c| self.bool_(c)).collect();
                        (!fs.is_empty()).then(|| {
                            Box::new(move |cx: &mut Cx<'_, W>| fs.iter().all(|f| f(cx))) as B<W>
                        })
                    }
                    None => filter.as_deref().map(|f| self.cond_of(slot, f)),
                };
                let b = self.set(body);
                self.unhoist(&flags);
                if let (Some(touch), Var::S(v)) =
                    (filter.as_deref().and_then(|f| self.touch_guard(slot, f)), var)
                {
                    return self.nonempty_touching(d, touch, v, flags, f, b, span, want);
                }
                Box::new(move |cx| {
                    let dv = d(cx);
                    super::expr::forget(cx, &flags);
                    let mut hit = false;
                    super::expr::each_ticked(cx, dv, var, span, |cx| {
                        if let Some(f) = &f {
                            if !f(cx) {
                                return true;
                            }
                        }
                        if b(cx).is_empty() {
                            return true;
                        }
                        hit = true;
                        false
                    });
                    hit == want
                })
            }
            // `nonempty_shape` admits nothing else.
            _ => Box::new(|_| false),
        }
    }

    /// Pass 16: a set `X` such that the filter of a quantifier over
    /// element `slot` (a set) holds only when `touches(X, slot)`: a
    /// top-level conjunct `touches(X, e)` or `touches(e, X)` whose `X`
    /// does not mention the element and cannot fail (boards whose
    /// neighbours are symmetric, where `touches` is "some cell of one is
    /// next to some cell of the other", either way round).
    fn touch_guard(&mut self, slot: Slot, filter: &Expr) -> Option<S<W>> {
        if !self.t.nbr_symmetric {
            return None;
        }
        let mut conj = Vec::new();
        conjuncts(filter, &mut conj);
        let x = conj.into_iter().find_map(|c| touched(c, slot))?;
        self.notes.push(
            "touch guard: a quantifier over groups looks only at the groups next to a set".into(),
        );
        Some(self.set(x))
    }

    /// [`Compiler::nonempty`] of a collect whose filter holds only for
    /// elements touching the set `touch` (pass 16): over the groups of a
    /// player, only the groups next to the set are looked at, flood-filled
    /// from the player's pieces next to it (the player's groups are not
    /// computed).
    #[allow(clippy::too_many_arguments)]
    fn nonempty_touching(
        &mut self,
        d: super::D<W>,
        touch: S<W>,
        v: u16,
        flags: Vec<u16>,
        f: Option<B<W>>,
        b: S<W>,
        span: crate::source::Span,
        want: bool,
    ) -> B<W> {
        Box::new(move |cx| {
            let dv = d(cx);
            super::expr::forget(cx, &flags);
            let near = super::expr::around(cx.t, touch(cx));
            if let Dom::Groups(p) = dv {
                // Only the groups next to `X` can pass: each is flooded
                // from a piece next to `X` (in the order of those pieces,
                // not of the groups: whether one passes does not depend on
                // the order, and nothing here can fail). The groups not
                // next to `X` are not looked at and take no steps.
                let own = super::expr::pieces(cx, i64::from(p));
                let mut seeds = near.and(own);
                let mut hit = false;
                while let Some(c) = seeds.first() {
                    let g = super::expr::flood(cx.t, own, Set::one(c));
                    seeds = seeds.minus(g);
                    if !super::effect::tick(cx, span) {
                        break;
                    }
                    cx.fr.s[v as usize] = g;
                    if f.as_ref().is_some_and(|f| !f(cx)) || b(cx).is_empty() {
                        continue;
                    }
                    hit = true;
                    break;
                }
                return hit == want;
            }
            let mut hit = false;
            super::expr::each_ticked(cx, dv, Var::S(v), span, |cx| {
                if !near.meets(cx.fr.s[v as usize]) {
                    return true;
                }
                if let Some(f) = &f {
                    if !f(cx) {
                        return true;
                    }
                }
                if b(cx).is_empty() {
                    return true;
                }
                hit = true;
                false
            });
            hit == want
        })
    }
}

// ---------------------------------------------------------------------------
// Touch bounds

impl<const W: usize> Compiler<'_, W> {
    /// Pass 43: a `collect` over `groups(P)` whose filter holds only when
    /// the element touches a group of `Q` ([`implied_touch`]) passes no
    /// element when no piece of `P` is next to a piece of `Q` (every
    /// element is a set of `P`'s pieces, every group of `Q` a set of
    /// `Q`'s): the walk is then not made. `conds` are what an element
    /// must pass (a `collect`'s or `all`'s filter; an `any`'s or `none`'s
    /// filter and body); the touch may be implied by any of them. Only
    /// where none of them can fail, so the walk left out hides no error,
    /// and on boards whose neighbours are symmetric. The walk's steps are
    /// not counted then: a run takes fewer steps than the written order,
    /// never more (as in passes 16 and 25). Returns the test that says
    /// the walk may find something.
    pub fn touch_bound(
        &mut self,
        slot: Slot,
        domain: &Expr,
        conds: &[Option<&Expr>],
    ) -> Option<TouchBound<W>> {
        if !self.t.nbr_symmetric {
            return None;
        }
        let Expr::Builtin(Builtin::Groups, args, _) = domain else { return None };
        let [p] = &args[..] else { return None };
        let conds: Vec<&Expr> = conds.iter().flatten().copied().collect();
        let q = conds.iter().find_map(|f| implied_touch(f, slot, &mut Vec::new()))?;
        let fixed = |e: &Expr| {
            let mut free = Vec::new();
            free_locals(e, &mut Vec::new(), &mut free);
            free.is_empty() && !may_fail(e)
        };
        if !fixed(p) || !fixed(q) || conds.iter().any(|f| may_fail(f)) {
            return None;
        }
        let (p, q) = (self.seat(p), self.seat(q));
        self.notes.push(
            "touch bound: a collection over groups that must touch another player's groups, \
             skipped when no pieces touch"
                .into(),
        );
        Some(TouchBound { p, q })
    }

    /// A player expression as [`Seat`]: `me` and `opponent` read in
    /// place.
    fn seat(&mut self, e: &Expr) -> Seat<W> {
        match e {
            Expr::Me => Seat::Me,
            Expr::Builtin(Builtin::Next, a, _) if matches!(a[..], [Expr::Me]) => Seat::Next,
            e => Seat::Fn(self.word(e)),
        }
    }
}

/// Pass 43's test: whether a piece of `p` is next to a piece of `q`.
pub struct TouchBound<const W: usize> {
    p: Seat<W>,
    q: Seat<W>,
}

impl<const W: usize> TouchBound<W> {
    /// Whether the walk may find something: a piece of one player is
    /// next to a piece of the other.
    #[inline(always)]
    pub fn holds(&self, cx: &mut Cx<'_, W>) -> bool {
        let (mine, theirs) = (self.p.pieces(cx), self.q.pieces(cx));
        // Spread the smaller set: on symmetric boards either way round
        // gives the same answer.
        let (a, b) = if mine.len() <= theirs.len() { (mine, theirs) } else { (theirs, mine) };
        super::expr::around(cx.t, a).meets(b)
    }
}

/// A player whose pieces pass 43 reads.
enum Seat<const W: usize> {
    /// The mover.
    Me,
    /// The seat after the mover's (`opponent`, `next(me)`).
    Next,
    /// Any other player expression.
    Fn(I<W>),
}

impl<const W: usize> Seat<W> {
    /// The player's pieces.
    #[inline(always)]
    fn pieces(&self, cx: &mut Cx<'_, W>) -> Set<W> {
        let p = match self {
            Seat::Me => usize::from(cx.st.current),
            Seat::Next => super::expr::next_seat(cx),
            Seat::Fn(f) => match usize::try_from(f(cx)) {
                Ok(p) => p,
                Err(_) => return Set::EMPTY,
            },
        };
        if p < cx.t.players {
            bits_at(cx.st, p)
        } else {
            Set::EMPTY
        }
    }
}

/// The player `Q` when a filter `f` about element `elem` (a set) holds
/// only if the element touches a group of `Q`: a conjunct, perhaps inside
/// inlined `def`s (whose parameters bound to locals are followed),
/// `size(collect b in groups(Q) where G ...) > 0` (or `>= 1`, `!= 0`,
/// either way round) or `any b in groups(Q) where G: H`, with a conjunct
/// `touches(b, e)` or `touches(e, b)` of `G` (or `H`) whose `e` is the
/// element.
fn implied_touch<'e>(f: &'e Expr, elem: Slot, alias: &mut Vec<(Slot, Slot)>) -> Option<&'e Expr> {
    match f {
        Expr::Inline(binds, body, _) => {
            under_binds(binds, alias, |alias| implied_touch(body, elem, alias))
        }
        Expr::Binary(BinOp::And, x, y, _) => {
            implied_touch(x, elem, alias).or_else(|| implied_touch(y, elem, alias))
        }
        Expr::Quant { quant: Quant::Any, .. } => touched_groups(f, elem, alias),
        _ => touched_groups(nonempty_of(f)?, elem, alias),
    }
}

/// [`implied_touch`] of a set that is not empty (a `collect`) or a
/// condition that holds (an `any`): the `Q` of `groups(Q)` it walks when
/// each element it keeps touches the element `elem`.
fn touched_groups<'e>(e: &'e Expr, elem: Slot, alias: &mut Vec<(Slot, Slot)>) -> Option<&'e Expr> {
    match e {
        Expr::Inline(binds, body, _) => {
            under_binds(binds, alias, |alias| touched_groups(body, elem, alias))
        }
        Expr::Quant { quant, slot, domain, filter, body, .. } => {
            let Expr::Builtin(Builtin::Groups, args, _) = &**domain else { return None };
            let [q] = &args[..] else { return None };
            let mut conj = Vec::new();
            if let Some(f) = filter.as_deref() {
                conjuncts(f, &mut conj);
            }
            match (quant, body.as_deref()) {
                (Quant::Collect, _) => {}
                (Quant::Any, Some(b)) => conjuncts(b, &mut conj),
                (Quant::Any, None) => {}
                _ => return None,
            }
            let root = |s| alias_root(alias, s);
            conj.iter()
                .any(|c| matches!(touched(c, *slot), Some(Expr::Local(s, _)) if root(*s) == elem))
                .then_some(q)
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// A `while` that asks whether its `choose` has options

/// Whether `f` holds only when `b` is not empty: `f` is `size(b) > 0` (or
/// `>= 1`, `!= 0`, either way round: [`nonempty_of`]), or an `and` with
/// such a conjunct, perhaps inside inlined `def`s (whose parameters bound
/// to locals are followed).
fn implies_nonempty(f: &Expr, b: &Expr, alias: &mut Vec<(Slot, Slot)>) -> bool {
    match f {
        Expr::Inline(binds, body, _) => {
            under_binds(binds, alias, |alias| implies_nonempty(body, b, alias))
        }
        Expr::Binary(BinOp::And, x, y, _) => {
            implies_nonempty(x, b, alias) || implies_nonempty(y, b, alias)
        }
        _ => nonempty_of(f).is_some_and(|x| same_expr(x, b, alias, &mut Vec::new())),
    }
}

/// The local a `def`'s parameter `s` stands for, following `alias`
/// (parameter, local) from the innermost inlining out.
fn alias_root(alias: &[(Slot, Slot)], mut s: Slot) -> Slot {
    while let Some(&(_, t)) = alias.iter().rev().find(|(x, _)| *x == s) {
        s = t;
    }
    s
}

/// `f(alias)` with the parameters of an inlined `def` that are bound to
/// locals (`binds`) added to `alias` (parameter, local) for the call.
fn under_binds<R>(
    binds: &[(Slot, Expr)],
    alias: &mut Vec<(Slot, Slot)>,
    f: impl FnOnce(&mut Vec<(Slot, Slot)>) -> R,
) -> R {
    let n = alias.len();
    for (s, x) in binds {
        if let Expr::Local(t, _) = x {
            alias.push((*s, *t));
        }
    }
    let r = f(alias);
    alias.truncate(n);
    r
}

/// The set `X` when `e` says it is not empty: `size(X) > 0`, `>= 1` or
/// `!= 0`, either way round.
fn nonempty_of(e: &Expr) -> Option<&Expr> {
    let Expr::Binary(op, x, y, _) = e else { return None };
    let xs = match (op, &**x, &**y) {
        (
            BinOp::Gt | BinOp::Ne,
            Expr::Builtin(Builtin::Size, xs, _),
            Expr::Const(Value::Int(0)),
        )
        | (BinOp::Ge, Expr::Builtin(Builtin::Size, xs, _), Expr::Const(Value::Int(1)))
        | (
            BinOp::Lt | BinOp::Ne,
            Expr::Const(Value::Int(0)),
            Expr::Builtin(Builtin::Size, xs, _),
        )
        | (BinOp::Le, Expr::Const(Value::Int(1)), Expr::Builtin(Builtin::Size, xs, _)) => xs,
        _ => return None,
    };
    match &xs[..] {
        [x] => Some(x),
        _ => None,
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 25: `while any a in D: F(a) { choose x in (collect b in D where
    /// F(b): B(b)) ... }`, the `choose` first in the body and without a
    /// filter, where `F` holds only when `B` is not empty (a conjunct
    /// `size(B) > 0`): the condition holds exactly when the `choose` has
    /// options. The condition computes the options and keeps them for the
    /// `choose` right after it (the position has not changed), instead of
    /// walking `D` once for the condition and again for the options.
    /// Nothing may fail. Returns the condition and what the `choose` reads
    /// ([`Compiler::fused`]). The walk of `D` for the condition is not
    /// made, so its steps are not counted: a run takes fewer steps than
    /// the written order, never more.
    pub fn while_options(&mut self, cond: &Expr, body: &[Stmt]) -> Option<(B<W>, (u16, u16, u16))> {
        let [Stmt { kind: StmtKind::Choose { site, domain, filter: None, .. }, .. }, ..] = body
        else {
            return None;
        };
        let Expr::Quant {
            quant: Quant::Any,
            slot: a,
            domain: d1,
            filter: None,
            body: Some(f1),
            ..
        } = cond
        else {
            return None;
        };
        let Expr::Quant {
            quant: Quant::Collect,
            slot: b,
            domain: d2,
            filter: Some(f2),
            body: Some(b2),
            ..
        } = domain
        else {
            return None;
        };
        if may_fail(cond)
            || may_fail(domain)
            || self.ty(domain) != Ty::Cells
            || !same_expr(d1, d2, &[], &mut Vec::new())
            || !same_expr(f1, f2, &[], &mut vec![(*a, *b)])
            || !implies_nonempty(f2, b2, &mut Vec::new())
        {
            return None;
        }
        let set = self.set(domain);
        let (k, flag) = (self.fresh_set(), self.fresh_word());
        // Left by the `while`'s test for the `choose`: kept at decisions.
        self.kept.extend([Var::S(k), Var::W(flag)]);
        let (ku, fu) = (k as usize, flag as usize);
        self.notes
            .push("options first: a `while` that asks whether its `choose` has options".into());
        let c: B<W> = Box::new(move |cx| {
            let d = set(cx);
            cx.fr.s[ku] = d;
            cx.fr.w[fu] = 1;
            !d.is_empty()
        });
        Some((c, (*site, k, flag)))
    }
}

// ---------------------------------------------------------------------------
// Largest groups

impl<const W: usize> Compiler<'_, W> {
    /// Pass 24: `max x in S: size(group(x))` over a set of cells `S` that
    /// cannot fail, without a filter. Every cell of a group has that
    /// group as its `group`, and an empty cell's is empty (size 0), so
    /// the answer is the size of the largest group meeting `S` (0 when
    /// none does, as for an empty `S`): one flood per such group instead
    /// of one per cell. The cells are counted against the step limit
    /// together, as the walk counts them (the body cannot fail, so the
    /// error is the same).
    pub fn largest_group(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: crate::source::Span,
    ) -> Option<I<W>> {
        if q != Quant::Max || filter.is_some() || may_fail(domain) {
            return None;
        }
        let Some(Expr::Builtin(Builtin::Size, args, _)) = body else { return None };
        let [Expr::Builtin(Builtin::Group, g, _)] = &args[..] else { return None };
        if !matches!(&g[..], [Expr::Local(s, _)] if *s == slot) {
            return None;
        }
        let d = self.cell_domain(domain)?;
        self.notes
            .push("largest group: `max x in S: size(group(x))` by the groups meeting S".into());
        Some(Box::new(move |cx| {
            let s = d(cx);
            let n = u32::try_from(s.len()).unwrap_or(u32::MAX);
            if cx.fr.err.is_some() || !super::effect::tick_n(cx, n, span) {
                return 0;
            }
            let mut rest = s.and(occupied(cx));
            let mut best = 0;
            while let Some(c) = rest.first() {
                let g = super::expr::group_of(cx, c);
                best = best.max(g.len() as i64);
                rest = rest.minus(g.or(Set::one(c)));
            }
            best
        }))
    }

    /// Pass 48: `min x in range(a, b) where F: x` (or `max`), the element
    /// itself as the body, with a filter that can neither fail nor count
    /// a step: the range walked from the end the answer lies at (upwards
    /// for `min`, downwards for `max`), stopping at the first number that
    /// passes, 0 when none does. The range's numbers are counted against
    /// the step limit together, as the walk counts them; where they would
    /// pass the limit the walk runs as written, so the error is raised at
    /// the same element.
    pub fn first_in_range(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: crate::source::Span,
    ) -> Option<I<W>> {
        let down = match q {
            Quant::Min => false,
            Quant::Max => true,
            _ => return None,
        };
        if !matches!(domain, Expr::Builtin(Builtin::Range, ..) | Expr::Const(Value::Range(..)))
            || !matches!(body, Some(Expr::Local(s, _)) if *s == slot)
            || !filter.is_none_or(|f| never_errs(f) && stepless_expr(f))
        {
            return None;
        }
        let Var::W(i) = self.var(slot) else { return None };
        let i = i as usize;
        // A range of constant bounds is read without a call.
        let fixed = match domain {
            Expr::Const(Value::Range(a, b)) => Some((*a, *b)),
            Expr::Builtin(Builtin::Range, args, _) => match &args[..] {
                [Expr::Const(Value::Int(a)), Expr::Const(Value::Int(b))] => Some((*a, *b)),
                _ => None,
            },
            _ => None,
        };
        let d = self.dom(domain);
        if let Some((line, pred)) = filter.and_then(|f| self.ray_first(slot, f)) {
            self.notes.push(RAY_FIRST_NOTE.into());
            return Some(Box::new(move |cx| {
                let Some((a, b)) = counted_range(cx, fixed, &d, i, span) else { return 0 };
                let t = cx.t;
                let l = t.lines.get(line.eval(cx) as usize);
                let (cells, within) = l.map_or((&[][..], Set::EMPTY), |l| (&l.cells[..], l.set));
                let (s, at_none) = pred.eval(cx, within);
                first_index(cells, s, at_none, (a, b), down)
            }));
        }
        let flags = self.hoist(slot, filter, None);
        let f = filter.map(|f| self.cond_of(slot, f));
        self.unhoist(&flags);
        self.notes.push(FIRST_IN_RANGE_NOTE.into());
        Some(Box::new(move |cx| {
            let Some((a, b)) = counted_range(cx, fixed, &d, i, span) else { return 0 };
            super::expr::forget(cx, &flags);
            let passes = |cx: &mut Cx<'_, W>, x: i64| {
                cx.fr.w[i] = x;
                f.as_ref().is_none_or(|f| f(cx))
            };
            if down {
                (a..=b).rev().find(|&x| passes(cx, x)).unwrap_or(0)
            } else {
                (a..=b).find(|&x| passes(cx, x)).unwrap_or(0)
            }
        }))
    }

    /// Pass 52: the filter `F` of a first-in-range quantifier over `k`
    /// whose every read of `k` is `L[k]` of one line `L` that does not read
    /// `k` (`owner(ray(c, d)[k]) != opponent`), with `L[k]` put as a fresh
    /// cell local `x` into `F` a predicate of `x` in set form, one that
    /// asks a few occupancy sets (no quantifier over groups or
    /// neighbours): `L`, and that predicate as a closure.
    fn ray_first(&mut self, k: Slot, f: &Expr) -> Option<(LineOf<W>, Guard<W>)> {
        let (line, pred) = self.plain_pred_at(f, Builtin::LineAt, k)?;
        let line = match &line {
            Expr::Builtin(Builtin::Ray, a, _) => {
                match (self.word_slot(&a[0]), self.word_slot(&a[1])) {
                    (Some(c), Some(d)) => LineOf::Ray(c, d),
                    _ => LineOf::Fn(self.word(&line)),
                }
            }
            l => self.word_slot(l).map_or_else(|| LineOf::Fn(self.word(l)), LineOf::Slot),
        };
        Some((line, pred.into_guard()))
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 53: `any d in dirs: A and B` (or `none`; or the same `A` first
    /// in the filter, for `all` too) where `A` reads `d` only as `step(x,
    /// d)` of one cell `x` that does not read `d`, cannot fail and counts
    /// no step, and with `step(x, d)` put into it as a fresh cell local
    /// is a plain set form: the set is computed once per evaluation and
    /// each direction's step from `x` tested against it; a direction
    /// outside it fails `A`, so its `B` is not asked (as `and` would not
    /// ask it), and the directions are counted as steps in order, as the
    /// walk counts them, those passed over together. A `def` whose
    /// arguments are locals (`brackets(c, d)`) is read through.
    pub fn dirs_guard(
        &mut self,
        q: Quant,
        slot: Slot,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: crate::source::Span,
    ) -> Option<B<W>> {
        if !matches!(q, Quant::Any | Quant::None | Quant::All) {
            return None;
        }
        let Var::W(dv) = self.var(slot) else { return None };
        // The guard's conjunct: the filter's first, else (not for `all`,
        // where failing the body decides) the body's.
        let in_filter = filter.is_some();
        let cond = match (filter, body) {
            (Some(f), _) => f,
            (None, Some(b)) if q != Quant::All => b,
            _ => return None,
        };
        let mut parts = Vec::new();
        conjuncts_through(&unalias(cond), &mut parts);
        let first = parts.first()?;
        if !never_errs(first) || !stepless_expr(first) {
            return None;
        }
        let (from, guard) = self.plain_pred_at(first, Builtin::Step, slot)?;
        let guard = guard.into_guard();
        let rest = parts.get(1..).and_then(|r| {
            r.iter()
                .cloned()
                .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b), span))
        });
        let (f, b) = if in_filter { (rest.as_ref(), body) } else { (None, rest.as_ref()) };
        let from = self.word_slot(&from).ok_or_else(|| self.word(&from));
        let (flags, f, b) = self.quant_conds(slot, f, b);
        self.notes.push(DIRS_GUARD_NOTE.into());
        let want = q != Quant::All;
        Some(Box::new(move |cx| {
            let c = match &from {
                Ok(w) => cx.fr.w[*w],
                Err(f) => f(cx),
            } as CellId;
            // The guard is asked only of the cell's neighbours; where none
            // passes, neither does any direction (all counted at once).
            let around = cx.t.stepped_from(c, 0);
            let (s, at_none) = guard.eval(cx, around);
            let dirs = cx.t.dirs as u32;
            if !at_none && !around.meets(s) {
                super::effect::tick_n(cx, dirs, span);
                return q != Quant::Any;
            }
            super::expr::forget(cx, &flags);
            let mut done = 0;
            let mut hit = false;
            for d in 0..dirs {
                let n = cx.t.step(c, d as usize);
                if !(if n == NO_CELL { at_none } else { s.contains(n) }) {
                    continue;
                }
                if !super::effect::tick_n(cx, d + 1 - done, span) {
                    return q != Quant::Any;
                }
                done = d + 1;
                cx.fr.w[dv as usize] = i64::from(d);
                if f.as_ref().is_some_and(|f| !f(cx)) {
                    continue;
                }
                if b.as_ref().is_none_or(|b| b(cx)) == want {
                    hit = true;
                    break;
                }
            }
            if !hit {
                super::effect::tick_n(cx, dirs - done, span);
            }
            match q {
                Quant::Any => hit,
                _ => !hit,
            }
        }))
    }
}

/// `e` with the `def`s at its top whose arguments are all locals read
/// through: each parameter replaced by its argument's local (expressions
/// cannot assign, so the argument holds the parameter's value throughout).
fn unalias(e: &Expr) -> Expr {
    match e {
        Expr::Inline(binds, body, _) if binds.iter().all(|(_, x)| matches!(x, Expr::Local(..))) => {
            let mut out = unalias(body);
            for (p, x) in binds.iter() {
                if let Expr::Local(a, _) = x {
                    rename_local(&mut out, *p, *a);
                }
            }
            out
        }
        e => e.clone(),
    }
}

/// `e` with every read of the local `from` made a read of `to`.
fn rename_local(e: &mut Expr, from: Slot, to: Slot) {
    match e {
        Expr::Local(s, _) if *s == from => *s = to,
        _ => e.children_mut(&mut |c| rename_local(c, from, to)),
    }
}

/// The conjuncts of `e`, left to right (`a and b and c`: `a`, `b`, `c`),
/// the `def`s at the top of each read through (see [`unalias`]).
fn conjuncts_through(e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Binary(BinOp::And, a, b, _) => {
            conjuncts_through(&unalias(a), out);
            conjuncts_through(&unalias(b), out);
        }
        e => out.push(e.clone()),
    }
}

/// Pass 53's note.
const DIRS_GUARD_NOTE: &str = "guarded directions: `any d in dirs: A and B` tests `A` of `step(x, d)` against one set, asking `B` only where it holds";

/// Pass 52's line: `ray(c, d)` of two word locals, a line local, or any
/// other line expression.
enum LineOf<const W: usize> {
    Ray(usize, usize),
    Slot(usize),
    Fn(I<W>),
}

impl<const W: usize> LineOf<W> {
    #[inline(always)]
    fn eval(&self, cx: &mut Cx<'_, W>) -> i64 {
        match self {
            LineOf::Ray(c, d) => i64::from(cx.t.ray(cx.fr.w[*c] as CellId, cx.fr.w[*d] as usize)),
            LineOf::Slot(l) => cx.fr.w[*l],
            LineOf::Fn(f) => f(cx),
        }
    }
}

/// Pass 48's range of a first-in-range quantifier (constant bounds
/// `fixed`, else the domain `d`), its numbers counted as steps at once
/// (the walk's count); `None` for no range or an error, and where the
/// numbers would pass the step limit, after walking the range as written
/// so that the error is raised at the element past the limit (the filter
/// raises none). Its local is word `i`.
#[inline(always)]
fn counted_range<const W: usize>(
    cx: &mut Cx<'_, W>,
    fixed: Option<(i64, i64)>,
    d: &super::D<W>,
    i: usize,
    span: crate::source::Span,
) -> Option<(i64, i64)> {
    let (a, b) = match fixed {
        Some(r) => r,
        None => match d(cx) {
            Dom::Range(a, b) => (a, b),
            _ => return None,
        },
    };
    if cx.fr.err.is_some() {
        return None;
    }
    let n = (i128::from(b) - i128::from(a) + 1).max(0);
    let within = u64::try_from(n).ok().and_then(|n| {
        let steps = u64::from(cx.fr.steps).checked_add(n)?;
        (steps <= u64::from(cx.t.max_steps)).then_some(steps as u32)
    });
    let Some(steps) = within else {
        super::expr::each_ticked(cx, Dom::Range(a, b), Var::W(i as u16), span, |_| true);
        return None;
    };
    cx.fr.steps = steps;
    Some((a, b))
}

/// Pass 52's answer: the first `k` of `a..=b` (the last for `down`) whose
/// cell `cells[k - 1]` is in `s`, or where there is no such cell (`k`
/// below 1 or past the line's end: `L[k]` is `none`) that passes when
/// `at_none`; 0 when none does, as the walk answers.
fn first_index<const W: usize>(
    cells: &[CellId],
    s: Set<W>,
    at_none: bool,
    (a, b): (i64, i64),
    down: bool,
) -> i64 {
    if a > b {
        return 0;
    }
    let len = cells.len() as i64;
    // The numbers that name cells: the first (or last) whose cell is in `s`.
    let (lo, hi) = (a.max(1), b.min(len));
    let inside = || {
        let run = cells.get(usize::try_from(lo - 1).ok()?..usize::try_from(hi).ok()?)?;
        let at = if down {
            run.iter().rposition(|&c| s.contains(c))
        } else {
            run.iter().position(|&c| s.contains(c))
        };
        at.map(|i| lo + i as i64)
    };
    if !at_none {
        return inside().unwrap_or(0);
    }
    // The numbers that name `none`, below and above those: the first of
    // each going up, the last going down.
    let below = (a <= 0).then(|| if down { b.min(0) } else { a });
    let above = (b > len).then(|| if down { b } else { a.max(len + 1) });
    let found =
        if down { above.or_else(inside).or(below) } else { below.or_else(inside).or(above) };
    found.unwrap_or(0)
}

impl<const W: usize> Compiler<'_, W> {
    /// `e` as a plain set form of the cell `f(a, k)` (passes 52 and 53):
    /// where every read of `k` in `e` is `f(a, k)` of one argument `a`
    /// ([`read_only_in`]), that cell made a fresh cell local and `e` asked
    /// of it; `a` and the predicate.
    fn plain_pred_at(&mut self, e: &Expr, f: Builtin, k: Slot) -> Option<(Expr, Pred<W>)> {
        let mut arg = None;
        if !read_only_in(e, f, k, &mut arg) {
            return None;
        }
        let arg = arg?;
        let x = self.fresh_cell_local()?;
        let mut g = e.clone();
        put_local(&mut g, f, k, x);
        let pred = self.pred(&g, &mut vec![x]).filter(Pred::is_plain)?;
        Some((arg, pred))
    }
}

/// Whether every read of the local `k` in `e` is `f(a, k)` of one
/// argument `a` (into `arg`) that does not read `k`: `L[k]` of one line
/// for pass 52 (`f` is `LineAt`), `step(x, d)` of one cell for pass 53.
fn read_only_in(e: &Expr, f: Builtin, k: Slot, arg: &mut Option<Expr>) -> bool {
    match e {
        Expr::Builtin(g, a, _) if *g == f && matches!(&a[1], Expr::Local(s, _) if *s == k) => {
            if a[0].reads_slot(k) {
                return false;
            }
            match arg {
                Some(x) => same_expr(x, &a[0], &[], &mut Vec::new()),
                None => {
                    *arg = Some(a[0].clone());
                    true
                }
            }
        }
        Expr::Local(s, _) => *s != k,
        _ => {
            let mut ok = true;
            e.children(&mut |c| ok = ok && read_only_in(c, f, k, arg));
            ok
        }
    }
}

/// `e` with every `f(a, k)` of the local `k` replaced by the local `x`
/// (see [`read_only_in`]).
fn put_local(e: &mut Expr, f: Builtin, k: Slot, x: Slot) {
    if let Expr::Builtin(g, a, span) = e {
        if *g == f && matches!(&a[1], Expr::Local(s, _) if *s == k) {
            *e = Expr::Local(x, *span);
            return;
        }
    }
    e.children_mut(&mut |c| put_local(c, f, k, x));
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 51: `any d in dirs: B` (or `none`, `all`, `count`), where `B`
    /// reads the position only as `owner(R)`, `kind(R)` and `occupied(R)` of `R =
    /// last(upto(ray(x, d)))` (the first piece along the ray from the
    /// cell local `x`), its other locals being `d` and at most one player
    /// local `p`, and cannot count a step: `B` depends only on `p`, `d`
    /// and the piece on `R` (none for an empty cell or `none`), so it is
    /// asked when the game loads for every player (and `none`), direction
    /// and piece, and kept as one word of pieces per player and direction
    /// ([`RayTable`]). The directions looked at are counted as steps at
    /// once (the walk's count: up to the first that decides `any`, `none`
    /// or `all`, every one for `count`), the error past the limit raised
    /// at the quantifier as the walk raises it. Asking `B` at load needs
    /// a cell with a neighbour in every direction (where the first piece
    /// is put) and at most 64 pieces; an error there, or any other form,
    /// gives up.
    fn ray_table(&mut self, slot: Slot, body: &Expr) -> Option<RayTable> {
        let Var::W(dw) = self.var(slot) else { return None };
        // `R`: the one ray stop `B` reads, from a cell local.
        let mut xs = None;
        find_ray_stop(body, slot, &mut xs);
        let xs = xs?;
        let is_r = |e: &Expr| ray_stop_of(e, slot) == Some(xs);
        let at_r = |e: &Expr| matches!(e, Expr::Builtin(Builtin::Owner | Builtin::KindOf | Builtin::Occupied, a, _) if is_r(&a[0]));
        if reads_state_but(body, true, &at_r) || has_quant(body) || may_fail(body) {
            return None;
        }
        let mut free = Vec::new();
        free_locals_but(body, &is_r, &mut Vec::new(), &mut free);
        let mut player = None;
        for s in free {
            if s == slot {
                continue;
            }
            match (self.var(s), self.ty(&Expr::Local(s, Default::default()))) {
                (Var::W(w), Ty::Player) if player.is_none() => player = Some(w as usize),
                _ => return None,
            }
        }
        let Var::W(xw) = self.var(xs) else { return None };
        let (xw, dw) = (xw as usize, dw as usize);
        let (dirs, cells, players) = (self.t.dirs, self.t.cells, self.t.players);
        let codes = 1 + players * self.t.kinds;
        if dirs == 0 || codes > 64 {
            return None;
        }
        // A cell whose every step is on the board: its rays' first cells
        // hold the piece each entry is asked about.
        let x0 = (0..cells as CellId).find(|&c| (0..dirs).all(|d| self.t.step(c, d) != NO_CELL))?;
        // The closure for the table only: its notes are not the game's.
        let noted = self.notes.len();
        let f = self.bool_(body);
        self.notes.truncate(noted);
        let rows = if player.is_some() { players + 1 } else { 1 };
        let mut table = vec![0u64; rows * dirs];
        let mut fr = self.scratch_frame();
        let mut st = State::empty(self.g);
        fr.w[xw] = i64::from(x0);
        for (row, p) in table.chunks_mut(dirs).zip(0..) {
            if let Some(pw) = player {
                fr.w[pw] = if p == players { i64::from(ir::NONE8) } else { p as i64 };
            }
            for (d, word) in row.iter_mut().enumerate() {
                fr.w[dw] = d as i64;
                let first = self.t.step(x0, d);
                for code in 0..codes {
                    // The board empty but for this piece (none: empty).
                    st.put(self.g, first, code as u16);
                    let holds = f(&mut Cx { t: self.t, st: &mut st, fr: &mut fr });
                    st.put(self.g, first, 0);
                    if fr.err.is_some() {
                        return None;
                    }
                    *word |= u64::from(holds) << code;
                }
            }
        }
        self.notes.push(RAY_QUANT_NOTE.into());
        let full = if codes == 64 { u64::MAX } else { (1u64 << codes) - 1 };
        Some(RayTable { xw, player, players, dirs, cells, full, table: table.into_boxed_slice() })
    }

    /// Pass 51 for `any`, `none` and `all` (see [`Compiler::ray_table`]).
    pub fn ray_quant(
        &mut self,
        q: Quant,
        slot: Slot,
        body: &Expr,
        span: crate::source::Span,
    ) -> Option<B<W>> {
        if !matches!(q, Quant::Any | Quant::None | Quant::All) {
            return None;
        }
        let t = self.ray_table(slot, body)?;
        // `any` and `none` stop at the first direction where `B` holds,
        // `all` at the first where it does not.
        let want = q != Quant::All;
        Some(Box::new(move |cx| {
            let (looked, found) = t.first(cx, want);
            super::effect::tick_n(cx, looked as u32, span) && found == (q == Quant::Any)
        }))
    }

    /// Pass 51 for `count` (see [`Compiler::ray_table`]).
    pub fn ray_count(
        &mut self,
        slot: Slot,
        body: &Expr,
        span: crate::source::Span,
    ) -> Option<I<W>> {
        let t = self.ray_table(slot, body)?;
        Some(Box::new(move |cx| {
            let n = t.count(cx);
            if super::effect::tick_n(cx, t.dirs as u32, span) {
                n as i64
            } else {
                0
            }
        }))
    }
}

/// Pass 51's table: for each player row (the player local's value, or
/// `none`; one row without a player local) and direction, the pieces
/// (codes, 0 for none) on whose ray stop the condition holds.
struct RayTable {
    /// The word slot of the cell the rays start from.
    xw: usize,
    /// The word slot of the player local, if the condition has one.
    player: Option<usize>,
    players: usize,
    dirs: usize,
    cells: usize,
    /// Every code's bit: a word that holds for any piece.
    full: u64,
    table: Box<[u64]>,
}

impl RayTable {
    /// The row's words, one per direction.
    #[inline(always)]
    fn words<const W: usize>(&self, cx: &Cx<'_, W>) -> &[u64] {
        let row = match self.player {
            Some(pw) => {
                let p = cx.fr.w[pw];
                if (0..self.players as i64).contains(&p) {
                    p as usize
                } else {
                    self.players
                }
            }
            None => 0,
        };
        self.table.get(row * self.dirs..(row + 1) * self.dirs).unwrap_or(&[])
    }

    /// Whether the condition holds in direction `d` whose word is `word`:
    /// the ray scanned for its first piece only when the word depends on it.
    #[inline(always)]
    fn holds<const W: usize>(
        &self,
        cx: &Cx<'_, W>,
        x: CellId,
        d: usize,
        word: u64,
        occ: Set<W>,
    ) -> bool {
        if word == 0 || word == self.full {
            return word != 0;
        }
        let r = cx.t.first_in_or_last(cx.t.ray(x, d), occ);
        let code = if (r as usize) < self.cells {
            cx.st.data.get(r as usize).copied().unwrap_or(0)
        } else {
            0
        };
        word >> (code & 63) & 1 != 0
    }

    /// The directions looked at up to the first where the condition is
    /// `want` (all of them when there is none), and whether there is one.
    #[inline(always)]
    fn first<const W: usize>(&self, cx: &Cx<'_, W>, want: bool) -> (usize, bool) {
        let x = cx.fr.w[self.xw] as CellId;
        let occ = occupied(cx);
        for (d, &word) in self.words(cx).iter().enumerate() {
            if self.holds(cx, x, d, word, occ) == want {
                return (d + 1, true);
            }
        }
        (self.dirs, false)
    }

    /// The directions where the condition holds.
    #[inline(always)]
    fn count<const W: usize>(&self, cx: &Cx<'_, W>) -> usize {
        let x = cx.fr.w[self.xw] as CellId;
        let occ = occupied(cx);
        let words = self.words(cx);
        words.iter().enumerate().filter(|&(d, &word)| self.holds(cx, x, d, word, occ)).count()
    }
}

/// The cell local `x` of `e` if it is `last(upto(ray(x, d)))` with `d`
/// the local `slot`.
fn ray_stop_of(e: &Expr, slot: Slot) -> Option<Slot> {
    let Expr::Builtin(Builtin::LineLast, a, _) = e else { return None };
    match upto_ray(&a[0])? {
        (Expr::Local(x, _), Expr::Local(d, _)) if *d == slot && *x != slot => Some(*x),
        _ => None,
    }
}

/// The cell and direction of `e` if it is `upto(ray(c, d))`: the line
/// whose `last` is the ray stop of passes 50 and 51.
pub fn upto_ray(e: &Expr) -> Option<(&Expr, &Expr)> {
    let Expr::Builtin(Builtin::UpTo, a, _) = e else { return None };
    let Expr::Builtin(Builtin::Ray, a, _) = &a[0] else { return None };
    Some((&a[0], &a[1]))
}

/// The cell local of the first ray stop from `slot` (see [`ray_stop_of`])
/// in `e`, into `found` (left as it is when there is none).
fn find_ray_stop(e: &Expr, slot: Slot, found: &mut Option<Slot>) {
    if found.is_some() {
        return;
    }
    if let Some(x) = ray_stop_of(e, slot) {
        *found = Some(x);
        return;
    }
    e.children(&mut |c| find_ray_stop(c, slot, found));
}

/// [`free_locals`], not looking inside the subexpressions `skip` accepts.
fn free_locals_but(
    e: &Expr,
    skip: &dyn Fn(&Expr) -> bool,
    bound: &mut Vec<Slot>,
    out: &mut Vec<Slot>,
) {
    if skip(e) {
        return;
    }
    match e {
        Expr::Local(s, _) => {
            if !bound.contains(s) && !out.contains(s) {
                out.push(*s);
            }
        }
        Expr::Inline(binds, body, _) => {
            let n = bound.len();
            for (s, x) in binds.iter() {
                free_locals_but(x, skip, bound, out);
                bound.push(*s);
            }
            free_locals_but(body, skip, bound, out);
            bound.truncate(n);
        }
        Expr::Quant { slot, domain, filter, body, .. } => {
            free_locals_but(domain, skip, bound, out);
            bound.push(*slot);
            if let Some(f) = filter {
                free_locals_but(f, skip, bound, out);
            }
            if let Some(b) = body {
                free_locals_but(b, skip, bound, out);
            }
            bound.pop();
        }
        _ => e.children(&mut |c| free_locals_but(c, skip, bound, out)),
    }
}

/// What `check --passes` says of pass 51.
const RAY_QUANT_NOTE: &str =
    "ray quantifier: `any`, `none`, `all` or `count` over `dirs` of the first piece along each ray, from a table made at load";

/// What `check --passes` says of pass 50.
pub(super) const RAY_STOP_NOTE: &str = "ray stop: `last(upto(ray(c, d)))` as one scan of the ray";

/// What `check --passes` says of pass 49.
const PATTERN_NOTE: &str =
    "cell pattern: a set of cells made from one cell (and a player) alone, from a table made at load";

/// Most sets in a pass 49 table (players and `none`, times cells and
/// `none`).
const PATTERN_BUDGET: usize = 6 * 257;

/// Whether `e` is a local, a constant, or a singleton or list of them
/// (`[x]`): as cheap to compute as a table lookup (pass 49 leaves it).
fn as_cheap(e: &Expr) -> bool {
    match e {
        Expr::Local(..) | Expr::Const(_) => true,
        Expr::Builtin(Builtin::Singleton | Builtin::SetOf, args, _) => args.iter().all(as_cheap),
        _ => false,
    }
}

/// What `check --passes` says of pass 48.
/// Pass 52's note.
const RAY_FIRST_NOTE: &str = "first along a line: `min k in range(a, b) where F(L[k]): k` as one walk of `L` against the set where `F` holds";

const FIRST_IN_RANGE_NOTE: &str =
    "first in a range: `min x in range(a, b) where F: x` stops at the first number that passes";

// ---------------------------------------------------------------------------
// Guarded rounds

/// What `check --passes` says of rounds over the directions that count
/// no step of their own (pass 38).
const STILL_NOTE: &str = "stepless rounds: a `for` over the directions takes its steps at once";

/// What `check --passes` says of a guard that pass 37 made one set.
const FOLDED_NOTE: &str =
    "guarded rounds: the guard `occupied(n) and p(kind(n)) op E` as one set of kinds";

/// Where the cell a guarded round tests comes from (see
/// [`Compiler::guarded_for`]).
#[derive(Clone, Copy)]
enum GuardCell {
    /// The element itself (a loop over cells).
    Elem,
    /// `step(c, x)` of the element `x` (a direction) from a cell word slot.
    StepFromSlot(usize),
    /// `step(c, x)` from a constant cell.
    StepFromConst(crate::board::CellId),
}

impl GuardCell {
    /// The cell the rounds step from, if they step from one.
    #[inline]
    fn origin<const W: usize>(self, cx: &Cx<'_, W>) -> Option<crate::board::CellId> {
        match self {
            GuardCell::Elem => None,
            GuardCell::StepFromSlot(i) => Some(cx.fr.w[i] as crate::board::CellId),
            GuardCell::StepFromConst(c) => Some(c),
        }
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// `for x in D { let ... ; if G and ... { ... } }` whose rounds do
    /// nothing unless `G`, a set form of one cell (the element, or `let n =
    /// step(c, x)`), holds: `G`'s set is computed once, and again after
    /// every round that ran, so a round whose cell is outside it is skipped
    /// with a bit test instead of running its `let`s and condition (see
    /// pass 9 at the top of this module).
    pub fn guarded_for(
        &mut self,
        slot: Slot,
        domain: &Expr,
        body: &[Stmt],
        span: crate::source::Span,
    ) -> Option<super::effect::StmtFn<W>> {
        use super::effect::{run_seq, tick, Ctl};
        let (last, lets) = body.split_last()?;
        let StmtKind::If { cond, then, otherwise } = &last.kind else { return None };
        if !otherwise.is_empty() {
            return None;
        }
        let Var::W(x) = self.var(slot) else { return None };
        let mut bound = vec![slot];
        for s in lets {
            match &s.kind {
                StmtKind::Let(y, e) if matches!(self.var(*y), Var::W(_)) && !may_fail(e) => {
                    bound.push(*y);
                }
                _ => return None,
            }
        }
        // The guard: the first conjunct of the condition.
        let mut g: &Expr = cond;
        while let Expr::Binary(BinOp::And, a, _, _) = g {
            g = a;
        }
        if may_fail(g) {
            return None;
        }
        let mut free = Vec::new();
        free_locals(g, &mut Vec::new(), &mut free);
        // Exactly one local of the round: the cell the guard is about.
        let mut round = free.iter().filter(|s| bound.contains(s));
        let cell = *round.next()?;
        if round.next().is_some() {
            return None;
        }
        // The locals a round assigns.
        let mut changed = Vec::new();
        assigned(body, &mut changed);
        // Whether the rounds leave the cell they step from as it is (a
        // constant, or a local no round assigns).
        let mut fixed_origin = true;
        let from = if cell == slot {
            if self.ty(&Expr::Local(slot, span)) != Ty::Cell {
                return None;
            }
            GuardCell::Elem
        } else {
            if self.ty(&Expr::Local(slot, span)) != Ty::Dir {
                return None;
            }
            let e = lets.iter().find_map(|s| match &s.kind {
                StmtKind::Let(y, e) if *y == cell => Some(e),
                _ => None,
            })?;
            let Expr::Builtin(Builtin::Step, args, _) = e else { return None };
            if !matches!(&args[1], Expr::Local(d, _) if *d == slot) {
                return None;
            }
            match &args[0] {
                Expr::Const(Value::Cell(c)) => GuardCell::StepFromConst(*c),
                Expr::Local(c, _) if !bound.contains(c) => match self.var(*c) {
                    Var::W(i) => {
                        fixed_origin = !changed.contains(c);
                        GuardCell::StepFromSlot(i as usize)
                    }
                    _ => return None,
                },
                _ => return None,
            }
        };
        let mut pred = self.pred(g, &mut vec![cell])?;
        let mut conj = Vec::new();
        conjuncts(cond, &mut conj);
        // Pass 37: `occupied(n) and p(kind(n)) op E` as one guard, when the
        // second conjunct cannot fail and reads no other local of the round.
        let mut taken = 1;
        if let (Pred::Occupied, Some(&c)) = (&pred, conj.get(1)) {
            let mut free = Vec::new();
            free_locals(c, &mut Vec::new(), &mut free);
            if !may_fail(c) && free.iter().all(|s| *s == cell || !bound.contains(s)) {
                let n = self.notes.len();
                match self.kind_prop(c, &[cell]) {
                    Some(k @ Pred::KindProp(_)) => {
                        pred = Pred::and(pred, k);
                        taken = 2;
                        self.notes.push(FOLDED_NOTE.into());
                    }
                    _ => self.notes.truncate(n),
                }
            }
        }
        let pred = pred.into_guard();
        // Whether no round assigns the kind local of a pass 37 guard: its
        // kinds are then chosen once per loop.
        let kinds_fixed = match &pred {
            Guard::Kinds(KindProp { k: Some(w), .. }) => {
                !changed.iter().any(|s| matches!(self.var(*s), Var::W(i) if i as usize == *w))
            }
            _ => true,
        };
        self.notes.push("guarded rounds: a `for` whose rounds test a set form first".into());
        // Pass 38: rounds that count no step of their own.
        let still = stepless(body);
        if still && matches!(domain, Expr::Const(Value::Dirs)) && fixed_origin {
            self.notes.push(STILL_NOTE.into());
        }
        let coll = self.dom(domain);
        // `for d in dirs`: the collection is known without a call.
        let over_dirs = matches!(domain, Expr::Const(Value::Dirs));
        let var = Var::W(x);
        let x = x as usize;
        // The cell the rounds step from: a word local's (`Ok`) or a
        // constant (`Err`).
        let origin = match from {
            GuardCell::StepFromSlot(i) => Some(Ok(i)),
            GuardCell::StepFromConst(c) => Some(Err(c)),
            GuardCell::Elem => None,
        };
        let cell_word = match self.var(cell) {
            Var::W(i) => Some(i as usize),
            _ => None,
        };
        // Pass 40: a round that is only `let x = step(n, d)` of its own
        // cell and direction and a cell switch on `x`, the whole condition
        // the guard's.
        if let (true, true, Some(origin), Some(_), true, true) = (
            over_dirs,
            fixed_origin,
            origin,
            cell_word,
            conj.len() == taken,
            lets.iter().all(|s| matches!(s.kind, StmtKind::Let(y, _) if y == cell)),
        ) {
            // Pass 42: a guard that reads only the cells' pieces (and a
            // kind no round changes).
            let cells_only = match &pred {
                Guard::Leaf(Leaf::Occupied) => true,
                Guard::Kinds(_) => kinds_fixed,
                _ => false,
            };
            if let Some(round) = self.step_switch(then, (cell, slot), cells_only) {
                self.notes.push(STEP_SWITCH_NOTE.into());
                return Some(match round {
                    Round::Keep(r) => {
                        dirs_from(pred, origin, kinds_fixed, (x, cell_word, r, (span, still)))
                    }
                    Round::Lean(r) => {
                        dirs_from(pred, origin, kinds_fixed, (x, cell_word, r, (span, still)))
                    }
                });
            }
        }
        // The body: the `let`s, then the `if` without the conjuncts of the
        // guard, which hold in every round that runs (the guard's set is
        // current when a round starts, and they cannot fail).
        let rest = conj[taken..]
            .iter()
            .map(|e| self.bool_(e))
            .reduce(|acc, b| Box::new(move |cx: &mut Cx<'_, W>| acc(cx) && b(cx)) as B<W>);
        let mut then = self.stmt_fns(then);
        let sure = conj[taken..].iter().all(|e| never_errs(e));
        // The commonest round of `guarded_dirs` (from a word local, the
        // guard `occupied(n)`, no other `let`, a condition that cannot
        // raise an error and one statement): its `if` made in the rounds'
        // own closure (see `IfThen`), not a closure of its own.
        let if_then = over_dirs
            && fixed_origin
            && lets.len() == 1
            && sure
            && then.len() == 1
            && cell_word.is_some()
            && matches!(pred, Guard::Leaf(Leaf::Occupied));
        let rest = match (if_then, origin, rest, then.pop()) {
            (true, Some(Ok(i)), Some(r), Some(t)) => {
                let parts = (x, cell_word, IfThen(r, t), (span, still));
                return Some(guarded_dirs(move |cx| cx.fr.w[i] as CellId, Occupied, parts));
            }
            (_, _, r, t) => {
                then.extend(t);
                r
            }
        };
        let test: super::effect::StmtFn<W> = match (rest, then.len()) {
            (Some(r), _) => super::effect::if_(r, then, Vec::new(), sure),
            // The whole condition is the guard's: the one statement is
            // the test's closure itself.
            (None, 1) => then.remove(0),
            (None, _) => Box::new(move |cx| run_seq(cx, &then)),
        };
        if over_dirs && fixed_origin {
            if let Some(origin) = origin {
                // The rounds find the cell stepped to: they write it into
                // the guard's `let` local themselves, and the other `let`s
                // are computed in the test's closure (pass 26).
                let others: Vec<Stmt> = lets
                    .iter()
                    .filter(|s| !matches!(s.kind, StmtKind::Let(y, _) if y == cell))
                    .cloned()
                    .collect();
                let body = match cell_word {
                    Some(_) => self.stmt_fns_then(&others, Some(test)),
                    None => self.stmt_fns_then(lets, Some(test)),
                };
                // The cell stepped from and the guard's set, each read
                // without a match (the commonest guard, `occupied(n)`,
                // by a closure of its own).
                let parts = (x, cell_word, body, (span, still));
                return Some(dirs_from(pred, origin, kinds_fixed, parts));
            }
        }
        // The leaf `let`s computed in the test's closure (pass 26).
        let body = self.stmt_fns_then(lets, Some(test));
        Some(Box::new(move |cx| {
            let d: Dom<W> = if over_dirs { Dom::Dirs } else { coll(cx) };
            if cx.fr.err.is_some() {
                return Ctl::Error;
            }
            let (mut set, mut at_none) = pred.eval(cx, cx.t.all);
            if matches!(d, Dom::Dirs) && from.origin(cx).is_some() {
                let origin = |cx: &Cx<'_, W>| from.origin(cx);
                return dirs_rounds::<W, _, _, true>(
                    cx,
                    origin,
                    (set, at_none),
                    &pred,
                    x,
                    None,
                    &body,
                    span,
                );
            }
            let mut ctl = Ctl::Next;
            super::expr::each(cx, d, var, |cx| {
                if !tick(cx, span) {
                    ctl = Ctl::Error;
                    return false;
                }
                let n = match from {
                    GuardCell::Elem => cx.fr.w[x] as crate::board::CellId,
                    GuardCell::StepFromSlot(i) => {
                        cx.t.step(cx.fr.w[i] as crate::board::CellId, cx.fr.w[x] as usize)
                    }
                    GuardCell::StepFromConst(c) => cx.t.step(c, cx.fr.w[x] as usize),
                };
                if !(if (n as usize) < cx.t.cells { set.contains(n) } else { at_none }) {
                    return true;
                }
                match run_seq(cx, &body) {
                    Ctl::Next => {
                        // The round may have changed what the guard reads.
                        (set, at_none) = pred.eval(cx, cx.t.all);
                        true
                    }
                    other => {
                        ctl = other;
                        false
                    }
                }
            });
            if ctl == Ctl::Next && cx.fr.err.is_some() {
                return Ctl::Error;
            }
            ctl
        }))
    }
}

/// Pass 9's `for d in dirs` from a cell no round assigns (`let n = step(c,
/// d)`, the guard about `n`) as a closure of its own, not a branch of the
/// general one ([`dirs_rounds`]): where no cell around the origin is in
/// the guard's set, the rounds are passed over at once, in a few
/// instructions. `from` reads the cell stepped from and `pred` is the
/// guard's set, each chosen when the game loads (a word local or a
/// constant; `occupied(n)` or any guard), so that a call matches
/// neither; `x` is the loop's local, `cell_word` the guard's `let`'s.
fn guarded_dirs<const W: usize, G: GuardNow<W>, R: RoundBody<W>>(
    from: impl Fn(&Cx<'_, W>) -> CellId + Send + Sync + 'static,
    pred: G,
    (x, cell_word, body, (span, still)): (usize, Option<usize>, R, (crate::source::Span, bool)),
) -> super::effect::StmtFn<W> {
    use super::effect::{tick_n, Ctl};
    Box::new(move |cx| {
        let c = from(cx);
        let dirs = cx.t.dirs;
        let pred = pred.now(cx);
        let (set, at_none) = pred.eval(cx, cx.t.all);
        if dirs > 0 && !at_none && !cx.t.stepped_from(c, 0).meets(set) {
            // No round runs: all are passed over at once.
            if !tick_n(cx, dirs as u32, span) {
                return Ctl::Error;
            }
            if R::DIR_READ {
                cx.fr.w[x] = dirs as i64 - 1;
            }
            return if cx.fr.err.is_some() { Ctl::Error } else { Ctl::Next };
        }
        let origin = |_: &Cx<'_, W>| Some(c);
        let guard = (set, at_none);
        // Pass 38: rounds that count no step of their own take the loop's
        // steps at once where they stay within the limit (no round can
        // then pass it, and nothing in a round reads the count).
        let steps = u64::from(cx.fr.steps) + dirs as u64;
        if still && steps <= u64::from(cx.t.max_steps) {
            cx.fr.steps = steps as u32;
            return dirs_rounds::<W, _, _, false>(
                cx, origin, guard, &pred, x, cell_word, &body, span,
            );
        }
        dirs_rounds::<W, _, _, true>(cx, origin, guard, &pred, x, cell_word, &body, span)
    })
}

/// [`guarded_dirs`] from the cell in word local `origin` (`Ok`) or a
/// constant cell (`Err`), the guard's set read without a match (the
/// commonest guard, `occupied(n)`, by a closure of its own; a pass 37
/// guard's kinds chosen once per loop where `kinds_fixed`).
fn dirs_from<const W: usize, R: RoundBody<W>>(
    pred: Guard<W>,
    origin: Result<usize, CellId>,
    kinds_fixed: bool,
    parts: (usize, Option<usize>, R, (crate::source::Span, bool)),
) -> super::effect::StmtFn<W> {
    match (pred, origin) {
        (Guard::Leaf(Leaf::Occupied), Ok(i)) => {
            guarded_dirs(move |cx| cx.fr.w[i] as CellId, Occupied, parts)
        }
        (Guard::Kinds(k), Ok(i)) if kinds_fixed => {
            guarded_dirs(move |cx| cx.fr.w[i] as CellId, k, parts)
        }
        (pred, Ok(i)) => guarded_dirs(move |cx| cx.fr.w[i] as CellId, pred, parts),
        (pred, Err(c)) => guarded_dirs(move |_| c, pred, parts),
    }
}

/// Pass 9's rounds over the directions from the cell `origin` reads (again
/// at every round, when a round may assign it), from the first direction:
/// `guard` is the guard's set as the rounds begin. The rounds whose cell
/// the guard does not let in are passed over together (the same steps
/// counted, the loop's local left as the last round leaves it), found by
/// a bit test of the cells stepped to from the next direction on, then
/// one direction at a time. Past the step limit the error is the same as
/// walking them would raise. `cell_word`: the word of the guard's `let n
/// = step(c, d)`, which a round that runs writes (its `let` is left out of
/// `body`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn dirs_rounds<const W: usize, G: GuardSet<W>, R: RoundBody<W>, const TICK: bool>(
    cx: &mut Cx<'_, W>,
    origin: impl Fn(&Cx<'_, W>) -> Option<crate::board::CellId>,
    guard: (Set<W>, bool),
    pred: &G,
    x: usize,
    cell_word: Option<usize>,
    body: &R,
    span: crate::source::Span,
) -> super::effect::Ctl {
    use super::effect::{tick_n, Ctl};
    let (mut set, mut at_none) = guard;
    let dirs = cx.t.dirs;
    let mut d0 = 0usize;
    while d0 < dirs {
        let Some(c) = origin(cx) else { break };
        // The round that runs next and its cell, `step(c, dn)` (`none`
        // unless found in the row).
        let mut dn = dirs;
        let mut n = NO_CELL;
        if at_none || cx.t.stepped_from(c, d0).meets(set) {
            // The cell's row of the step table (none for `none`, whose
            // every step is `none`).
            let cells = cx.t.cells;
            let row = cx.t.step.get(c as usize * dirs..(c as usize + 1) * dirs);
            dn = match row {
                Some(row) => {
                    let mut k = d0;
                    while k < dirs {
                        let m = row[k];
                        // A step off the board is `NO_CELL`, in no set
                        // (`W` is at most 4 words): `at_none` answers it.
                        if set.contains(m) || (at_none && m as usize >= cells) {
                            n = m;
                            break;
                        }
                        k += 1;
                    }
                    k
                }
                None if at_none => d0,
                None => dirs,
            };
        }
        // Rounds `d0..dn` are passed over, round `dn` runs (their steps
        // taken already unless `TICK`).
        let rounds = dn.min(dirs - 1) + 1 - d0;
        if TICK && !tick_n(cx, rounds as u32, span) {
            return Ctl::Error;
        }
        if dn == dirs {
            if R::DIR_READ {
                cx.fr.w[x] = dirs as i64 - 1;
            }
            break;
        }
        if R::DIR_READ {
            cx.fr.w[x] = dn as i64;
        }
        if let Some(w) = cell_word {
            cx.fr.w[w] = i64::from(n);
        }
        match body.run(cx, dn, n) {
            Ctl::Next => {
                // The round may have changed what the guard reads (pass 42:
                // not on the cells still to come).
                if at_none || !body.keeps_guard() {
                    (set, at_none) = pred.eval(cx, cx.t.all);
                }
                d0 = dn + 1;
            }
            other => return other,
        }
    }
    if cx.fr.err.is_some() {
        Ctl::Error
    } else {
        Ctl::Next
    }
}

/// What one round of pass 9's rounds runs once its cell is in the
/// guard's set.
trait RoundBody<const W: usize>: Send + Sync + 'static {
    /// Whether the round may read the loop's local: else the rounds do
    /// not write it.
    const DIR_READ: bool = true;

    /// Runs the round of direction `d`, whose cell `n` the rounds found
    /// (both already written into their locals).
    fn run(&self, cx: &mut Cx<'_, W>, d: usize, n: CellId) -> super::effect::Ctl;

    /// Whether a round that ran leaves the guard's set as it was on the
    /// cells of the later directions (pass 42), so that it is not asked
    /// again.
    #[inline(always)]
    fn keeps_guard(&self) -> bool {
        false
    }
}

impl<const W: usize> RoundBody<W> for Vec<super::effect::StmtFn<W>> {
    #[inline(always)]
    fn run(&self, cx: &mut Cx<'_, W>, _: usize, _: CellId) -> super::effect::Ctl {
        // One statement (the `let`s computed in the test's closure, pass
        // 26): called without the statement loop.
        match self.as_slice() {
            [one] => one(cx),
            body => super::effect::run_seq(cx, body),
        }
    }
}

/// A round that is `if C { S }` (the guard's other conjuncts `C`, which
/// cannot raise an error, and one statement `S`), the `if` made in the
/// rounds' closure: as `effect::if_` runs it, without a closure of its
/// own.
struct IfThen<const W: usize>(B<W>, super::effect::StmtFn<W>);

impl<const W: usize> RoundBody<W> for IfThen<W> {
    #[inline(always)]
    fn run(&self, cx: &mut Cx<'_, W>, _: usize, _: CellId) -> super::effect::Ctl {
        if (self.0)(cx) {
            (self.1)(cx)
        } else {
            super::effect::Ctl::Next
        }
    }
}

/// Pass 40: a round that is `let x = step(n, d)` of the rounds' own cell
/// `n` and direction `d`, then a cell switch on `x`: the step read from
/// the table with the cell and direction the rounds found (not from
/// their locals), and the switch run in the rounds' closure.
/// `KEEP`: whether the switch's branches read `x` or `d`, which are then
/// written into their locals (else neither is: nothing else reads them).
struct StepSwitch<const W: usize, const KEEP: bool> {
    /// The word of `x`.
    j: usize,
    /// The word of the round's cell `n`: a `move n to x` or send-home arm
    /// takes `n` from the rounds (the value they wrote there, still in a
    /// register), not from the frame, whose read cost far more wall time
    /// than its instructions (boop. `perft 4`, docs/performance.md).
    n: usize,
    switch: Switch<W>,
    /// Pass 42: the round changes no cell a later round's guard reads.
    apart: bool,
}

/// A [`StepSwitch`] of either kind.
enum Round<const W: usize> {
    Keep(StepSwitch<W, true>),
    Lean(StepSwitch<W, false>),
}

/// What `check --passes` says of pass 42.
const APART_NOTE: &str =
    "rounds apart: a stepped switch's writes leave the later rounds' cells, whose guard is not asked again";

/// Pass 42: whether statements `stmts` change no cell but those of the
/// locals `cells` (a round's cell and `x`, and the `let`s and action
/// parameters bound to them), assign nothing and decide nothing: pieces
/// removed, moved, placed or changed on those cells, pieces added to or
/// taken from zones, and tests, wins and losses.
fn writes_only(stmts: &[Stmt], cells: &mut Vec<Slot>) -> bool {
    let is = |e: &Expr, cells: &[Slot]| matches!(e, Expr::Local(x, _) if cells.contains(x));
    stmts.iter().all(|s| match &s.kind {
        StmtKind::Let(x, e) => {
            if is(e, cells) {
                cells.push(*x);
            }
            true
        }
        StmtKind::Block(binds, body) => {
            for (x, e) in binds {
                if is(e, cells) {
                    cells.push(*x);
                }
            }
            writes_only(body, cells)
        }
        StmtKind::If { then, otherwise, .. } => {
            writes_only(then, cells) && writes_only(otherwise, cells)
        }
        StmtKind::Remove(e) => is(e, cells),
        StmtKind::Move { from, to } => is(from, cells) && is(to, cells),
        StmtKind::Place { at, many: false, .. } => is(at, cells),
        StmtKind::Change { at, .. } => is(at, cells),
        StmtKind::Add { .. }
        | StmtKind::Take { .. }
        | StmtKind::Require(..)
        | StmtKind::Pass
        | StmtKind::Win(_)
        | StmtKind::Lose(_)
        | StmtKind::Draw => true,
        _ => false,
    })
}

/// Pass 42: whether on this board neither the step from a cell in a
/// direction nor the step beyond it in the same direction is the step
/// from that cell in a later direction.
fn steps_apart<const W: usize>(t: &super::Tables<W>) -> bool {
    (0..t.cells).all(|c| {
        (0..t.dirs).all(|d| {
            let n = t.step(c as CellId, d);
            let x = t.step(n, d);
            n == NO_CELL
                || (d + 1..t.dirs).all(|e| {
                    let m = t.step(c as CellId, e);
                    m == NO_CELL || (m != n && m != x)
                })
        })
    })
}

/// What `check --passes` says of a [`StepSwitch`].
const STEP_SWITCH_NOTE: &str =
    "stepped switch: a round's `let x = step(n, d)` and cell switch made in the rounds' closure";

impl<const W: usize, const KEEP: bool> RoundBody<W> for StepSwitch<W, KEEP> {
    const DIR_READ: bool = KEEP;

    #[inline(always)]
    fn run(&self, cx: &mut Cx<'_, W>, d: usize, n: CellId) -> super::effect::Ctl {
        let x = i64::from(cx.t.step(n, d));
        if KEEP {
            cx.fr.w[self.j] = x;
        }
        self.switch.run_at_known(cx, x, (self.n, n))
    }

    #[inline(always)]
    fn keeps_guard(&self) -> bool {
        self.apart
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 40's round for statements `then` of a round whose cell is
    /// local `cell` and direction local `dir`: exactly `let x = step(cell,
    /// dir)` and an `if` chain that is a cell switch on `x`.
    fn step_switch(
        &mut self,
        then: &[Stmt],
        (cell, dir): (Slot, Slot),
        guard_cells_only: bool,
    ) -> Option<Round<W>> {
        let [Stmt { kind: StmtKind::Let(x, e), .. }, switch @ Stmt { kind: StmtKind::If { cond, then, otherwise }, .. }] =
            then
        else {
            return None;
        };
        let Expr::Builtin(Builtin::Step, args, _) = e else { return None };
        match (args.first(), args.get(1), self.var(*x)) {
            (Some(Expr::Local(c, _)), Some(Expr::Local(d, _)), Var::W(j))
                if *c == cell && *d == dir =>
            {
                // The switch must be on `x` itself.
                match cell_test(cond) {
                    Some((_, s)) if s == *x => {}
                    _ => return None,
                }
                // Pass 42: the switch writes only the round's cell and
                // `x`, on a board where neither is a later round's cell.
                let apart = guard_cells_only
                    && writes_only(std::slice::from_ref(switch), &mut vec![cell, *x])
                    && steps_apart(self.t);
                if apart {
                    self.notes.push(APART_NOTE.into());
                }
                let (switch, keep) = self.switch_of(cond, then, otherwise, &[*x, dir])?;
                let Var::W(n) = self.var(cell) else { return None };
                let (j, n) = (j as usize, n as usize);
                Some(if keep {
                    Round::Keep(StepSwitch { j, n, switch, apart })
                } else {
                    Round::Lean(StepSwitch { j, n, switch, apart })
                })
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Cell switches (pass 29)

/// A branch of a cell switch.
enum Arm<const W: usize> {
    /// Nothing to run.
    Skip,
    /// Its statements.
    Run(super::effect::StmtFn<W>),
    /// `move y to x` from the cell in word slot `y` into the switch's
    /// cell, reached only where that cell is on the board and empty (pass
    /// 39): the move without the questions the switch answered.
    MoveIn(usize, crate::source::Span),
    /// Pass 45's `add kind(y) to Z(owner(y))` and `remove y` of the cell
    /// in word slot `y` (an action's body alone, or the branch's two
    /// statements), run in the switch's closure: the cell taken from the
    /// rounds where they know it ([`Switch::run_at_known`]).
    Home(usize, u16, crate::source::Span),
}

/// What `check --passes` says of a [`Arm::MoveIn`].
const MOVE_IN_NOTE: &str = "cell switch: `move y to x` where `x` is empty, made in place";

/// `off(x)`, `empty(x)` or `occupied(x)` of a local `x`: the test and the
/// local.
fn cell_test(e: &Expr) -> Option<(Builtin, Slot)> {
    match e {
        Expr::Builtin(f @ (Builtin::Off | Builtin::Empty | Builtin::Occupied), args, _) => {
            match args.first() {
                Some(Expr::Local(s, _)) => Some((*f, *s)),
                _ => None,
            }
        }
        _ => None,
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 29: `if T1(x) { A } else if T2(x) { B } ... [else { C }]`, each
    /// `Ti` one of `off`, `empty`, `occupied` of the same cell local `x`,
    /// as one closure (see the module's list).
    ///
    /// `lets`: at most one leaf `let` computed first, in the same closure
    /// (pass 26; `let behind = step(n, d)` before a switch on `behind`).
    pub fn cell_switch(
        &mut self,
        cond: &Expr,
        then: &[Stmt],
        otherwise: &[Stmt],
        lets: &[(usize, super::expr::Leaf)],
    ) -> Option<super::effect::StmtFn<W>> {
        if lets.len() > 1 {
            return None;
        }
        let (switch, _) = self.switch_of(cond, then, otherwise, &[])?;
        Some(match *lets {
            // `let behind = step(n, d)`, the commonest, read without a
            // match of the leaf.
            [(j, super::expr::Leaf::StepSlot(c, d))] => Box::new(move |cx| {
                cx.fr.w[j] = super::expr::Leaf::step_slot(cx, c, d);
                switch.run(cx)
            }),
            [(j, l)] => Box::new(move |cx| {
                cx.fr.w[j] = l.eval(cx);
                switch.run(cx)
            }),
            _ => Box::new(move |cx| switch.run(cx)),
        })
    }

    /// Pass 29's switch of [`Compiler::cell_switch`], not yet in a
    /// closure (with its notes), and whether a branch it runs as
    /// statements reads one of the locals `reads` (the chain's tests,
    /// which the switch answers, and a branch it makes in place, which
    /// reads only the cell it moves from, are not asked).
    fn switch_of(
        &mut self,
        cond: &Expr,
        then: &[Stmt],
        otherwise: &[Stmt],
        reads: &[Slot],
    ) -> Option<(Switch<W>, bool)> {
        let (f, slot) = cell_test(cond)?;
        if self.is_hoisted(cond) {
            return None;
        }
        let Var::W(i) = self.var(slot) else { return None };
        let mut arms: Vec<(Builtin, &[Stmt])> = vec![(f, then)];
        let mut rest = otherwise;
        while let [Stmt { kind: StmtKind::If { cond, then, otherwise }, .. }] = rest {
            match cell_test(cond) {
                Some((f, s)) if s == slot && !self.is_hoisted(cond) => {
                    arms.push((f, then));
                    rest = otherwise;
                }
                _ => break,
            }
        }
        if arms.len() < 2 {
            return None;
        }
        // The cell's state as three bits (off, empty, occupied, as the
        // tests compute them): the branch for each, the first arm whose
        // test holds, else the `else` (the last branch).
        let mut table = [0u8; 8];
        for (bits, entry) in table.iter_mut().enumerate() {
            let holds = |f: Builtin| match f {
                Builtin::Off => bits & 1 != 0,
                Builtin::Empty => bits & 2 != 0,
                _ => bits & 4 != 0,
            };
            *entry = arms.iter().position(|&(f, _)| holds(f)).unwrap_or(arms.len()) as u8;
        }
        // Each branch one closure (none for an empty one): a branch of one
        // statement is that statement's, a longer one `effect::seq`'s; an
        // `empty(x)` branch that is `move y to x` moves in place (pass 39:
        // `x` is on the board and empty there).
        let mut branches: Vec<Arm<W>> = Vec::new();
        let mut read = false;
        // The `else` (`rest`) goes last, under a test that is never
        // `empty(x)`: it may be reached where `x` is occupied.
        for (f, body) in arms.iter().copied().chain([(Builtin::Off, rest)]) {
            let into = match (f, body) {
                (
                    Builtin::Empty,
                    [Stmt {
                        kind: StmtKind::Move { from: Expr::Local(a, _), to: Expr::Local(b, _) },
                        span,
                    }],
                ) if *b == slot => {
                    // It reads the cell it moves from in its local.
                    read |= reads.contains(a);
                    match self.var(*a) {
                        Var::W(a) => Some(Arm::MoveIn(a as usize, *span)),
                        _ => None,
                    }
                }
                (_, [Stmt { kind: StmtKind::Block(binds, inner), .. }]) if binds.is_empty() => {
                    self.home_arm(inner, reads, &mut read)
                }
                _ => self.home_arm(body, reads, &mut read),
            };
            branches.push(match into {
                Some(arm) => {
                    self.notes.push(MOVE_IN_NOTE.into());
                    arm
                }
                None => {
                    read |= reads.iter().any(|r| stmts_read(body, *r));
                    match self.stmt_fns(body) {
                        b if b.is_empty() => Arm::Skip,
                        b => Arm::Run(super::effect::seq(b)),
                    }
                }
            });
        }
        self.notes.push("cell switch: an `if` chain over one cell's state".into());
        Some((Switch { i: i as usize, table, branches }, read))
    }

    /// A branch that is exactly pass 45's pair, as [`Arm::Home`] (`read`:
    /// whether its cell is one of `reads`).
    fn home_arm(&mut self, body: &[Stmt], reads: &[Slot], read: &mut bool) -> Option<Arm<W>> {
        let [s, next] = body else { return None };
        let (z, y, span) = self.home_pair(s, Some(next))?;
        if let StmtKind::Remove(Expr::Local(a, _)) = &next.kind {
            *read |= reads.contains(a);
        }
        self.notes.push(HOME_ARM_NOTE.into());
        Some(Arm::Home(y, z, span))
    }
}

/// What `check --passes` says of an [`Arm::Home`].
const HOME_ARM_NOTE: &str = "cell switch: a piece sent home (pass 45) made in place";

/// Pass 29's switch: the cell in word slot `i`, the branch for each of
/// its states (see [`Compiler::cell_switch`]), run in the closure that
/// holds it (not a call of its own after the `let` before it).
struct Switch<const W: usize> {
    i: usize,
    table: [u8; 8],
    branches: Vec<Arm<W>>,
}

impl<const W: usize> Switch<W> {
    #[inline(always)]
    fn run(&self, cx: &mut Cx<'_, W>) -> super::effect::Ctl {
        self.run_at(cx, cx.fr.w[self.i])
    }

    /// [`Switch::run`] where the switched local holds `c`.
    #[inline(always)]
    fn run_at(&self, cx: &mut Cx<'_, W>, c: i64) -> super::effect::Ctl {
        self.run_at_known(cx, c, (usize::MAX, NO_CELL))
    }

    /// [`Switch::run_at`] where word local `known.0` is known to hold the
    /// cell `known.1`: a `move` or send-home arm of that local takes it
    /// from there.
    #[inline(always)]
    fn run_at_known(
        &self,
        cx: &mut Cx<'_, W>,
        c: i64,
        known: (usize, CellId),
    ) -> super::effect::Ctl {
        let off = c == i64::from(NO_CELL);
        let on = (c as usize) < cx.t.cells;
        let code = if on { cx.st.data.get(c as usize).copied().unwrap_or(0) } else { 0 };
        let bits = usize::from(off)
            | usize::from(on && code == 0) << 1
            | usize::from(on && code != 0) << 2;
        match self.branches.get(usize::from(self.table[bits])) {
            Some(Arm::Run(b)) => b(cx),
            Some(Arm::MoveIn(a, span)) => {
                let a = if *a == known.0 { known.1 } else { cx.fr.w[*a] as CellId };
                super::effect::move_into_empty(cx, a, c as CellId, *span)
            }
            Some(Arm::Home(y, z, span)) => {
                let y = if *y == known.0 { known.1 } else { cx.fr.w[*y] as CellId };
                super::effect::piece_home_at(cx, y, *z, *span)
            }
            _ => super::effect::Ctl::Next,
        }
    }
}

// ---------------------------------------------------------------------------
// A collected set's body, shared with its filter

/// Whether `a` (inside a filter, where `alias` maps a `def`'s parameter
/// bound to a plain local onto that local) and `b` are the same
/// expression: the same form, with the locals bound inside each paired
/// up (`bound`), and the same free locals.
fn same_expr(a: &Expr, b: &Expr, alias: &[(Slot, Slot)], bound: &mut Vec<(Slot, Slot)>) -> bool {
    let root = |s| alias_root(alias, s);
    match (a, b) {
        (Expr::Const(x), Expr::Const(y)) => x == y,
        (Expr::Local(x, _), Expr::Local(y, _)) => {
            match bound.iter().rev().find(|(p, q)| p == x || q == y) {
                Some(&(p, q)) => p == *x && q == *y,
                None => root(*x) == *y,
            }
        }
        (Expr::Me, Expr::Me) => true,
        (Expr::Unary(o, x), Expr::Unary(p, y)) => o == p && same_expr(x, y, alias, bound),
        (Expr::Binary(o, x1, x2, _), Expr::Binary(p, y1, y2, _)) => {
            o == p && same_expr(x1, y1, alias, bound) && same_expr(x2, y2, alias, bound)
        }
        (Expr::Builtin(f, xs, _), Expr::Builtin(g, ys, _)) => {
            f == g
                && xs.len() == ys.len()
                && xs.iter().zip(ys.iter()).all(|(x, y)| same_expr(x, y, alias, bound))
        }
        (Expr::Prop(p, x, _), Expr::Prop(q, y, _)) => p == q && same_expr(x, y, alias, bound),
        (Expr::Zone(z, x), Expr::Zone(w, y)) => {
            z == w
                && match (x, y) {
                    (None, None) => true,
                    (Some(x), Some(y)) => same_expr(x, y, alias, bound),
                    _ => false,
                }
        }
        (Expr::Lines(a1, b1), Expr::Lines(a2, b2)) => a1 == a2 && b1 == b2,
        (Expr::Var(v, _, x), Expr::Var(w, _, y)) => {
            v == w
                && match (x, y) {
                    (None, None) => true,
                    (Some(x), Some(y)) => same_expr(x, y, alias, bound),
                    _ => false,
                }
        }
        (Expr::Inline(xb, xe, _), Expr::Inline(yb, ye, _)) => {
            let n = bound.len();
            let ok = xb.len() == yb.len()
                && xb.iter().zip(yb.iter()).all(|((s, x), (t, y))| {
                    let ok = same_expr(x, y, alias, bound);
                    bound.push((*s, *t));
                    ok
                })
                && same_expr(xe, ye, alias, bound);
            bound.truncate(n);
            ok
        }
        (
            Expr::Quant { quant: q1, slot: s1, domain: d1, filter: f1, body: b1, .. },
            Expr::Quant { quant: q2, slot: s2, domain: d2, filter: f2, body: b2, .. },
        ) => {
            let opt =
                |x: &Option<Box<Expr>>, y: &Option<Box<Expr>>, bound: &mut Vec<_>| match (x, y) {
                    (None, None) => true,
                    (Some(x), Some(y)) => same_expr(x, y, alias, bound),
                    _ => false,
                };
            if q1 != q2 || !same_expr(d1, d2, alias, bound) {
                return false;
            }
            bound.push((*s1, *s2));
            let ok = opt(f1, f2, bound) && opt(b1, b2, bound);
            bound.pop();
            ok
        }
        _ => false,
    }
}

/// An occurrence of `b` inside `e` (see [`same_expr`]), outside any
/// quantifier of `e` (whose elements would give it other values).
fn find_same<'e>(e: &'e Expr, b: &Expr, alias: &mut Vec<(Slot, Slot)>) -> Option<&'e Expr> {
    if same_expr(e, b, alias, &mut Vec::new()) {
        return Some(e);
    }
    match e {
        Expr::Inline(binds, body, _) => {
            let n = alias.len();
            for (s, x) in binds.iter() {
                if let Some(hit) = find_same(x, b, alias) {
                    alias.truncate(n);
                    return Some(hit);
                }
                if let Expr::Local(t, _) = x {
                    alias.push((*s, *t));
                }
            }
            let hit = find_same(body, b, alias);
            alias.truncate(n);
            hit
        }
        Expr::Quant { .. } => None,
        Expr::Unary(_, x) | Expr::Prop(_, x, _) => find_same(x, b, alias),
        Expr::Binary(_, x, y, _) => find_same(x, b, alias).or_else(|| find_same(y, b, alias)),
        Expr::Builtin(_, xs, _) => xs.iter().find_map(|x| find_same(x, b, alias)),
        Expr::Zone(_, Some(x)) | Expr::Var(_, _, Some(x)) => find_same(x, b, alias),
        Expr::Const(_)
        | Expr::Local(..)
        | Expr::Me
        | Expr::Lines(..)
        | Expr::Zone(_, None)
        | Expr::Var(_, _, None) => None,
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// `collect x in D where F: B` whose body `B`, a set that cannot fail,
    /// also appears in the filter `F` (`collect a in groups(me) where
    /// candidate(a): bonus(a)` with `candidate(a)` asking `size(bonus(a)) >
    /// 0`): both occurrences share a local, computed at most once for each
    /// element (pass 12). Returns the flag word to clear before each
    /// element; the occurrences are registered as hoisted values.
    pub fn share_body(&mut self, filter: Option<&Expr>, body: Option<&Expr>) -> Option<u16> {
        let (f, b) = (filter?, body?);
        if may_fail(b) || b.ty(&self.g.slot_tys) != Ty::Cells || !has_quant(b) {
            return None;
        }
        let inner = find_same(f, b, &mut Vec::new())?;
        let v = Var::S(self.fresh_set());
        let flag = self.fresh_word();
        self.hoisted.push((inner, v, flag));
        self.hoisted.push((b, v, flag));
        self.notes.push("shared: a collected set's body computed once with its filter".into());
        Some(flag)
    }
}

/// The groups (connected parts) of `x` that meet `from`, by first cell.
#[inline]
fn components<const W: usize>(
    t: &super::Tables<W>,
    x: Set<W>,
    from: Set<W>,
) -> impl Iterator<Item = Set<W>> + '_ {
    let mut rest = from;
    std::iter::from_fn(move || {
        let c = rest.first()?;
        let g = super::expr::flood(t, x, Set::one(c));
        rest = rest.minus(g);
        Some(g)
    })
}

/// Whether every group of `x` that meets `from` passes `ok` (the group is
/// bound to set local `s`). Each group looked at is a step.
#[inline]
fn groups_pass<const W: usize>(
    cx: &mut Cx<'_, W>,
    x: Set<W>,
    from: Set<W>,
    s: usize,
    span: crate::source::Span,
    ok: &impl Fn(&mut Cx<'_, W>) -> bool,
) -> bool {
    let t = cx.t;
    for g in components(t, x, from) {
        if !super::effect::tick(cx, span) {
            return false;
        }
        cx.fr.s[s] = g;
        if !ok(cx) {
            return false;
        }
    }
    true
}

impl<const W: usize> Compiler<'_, W> {
    /// `all` / `any` / `none g in groups(P) where F: C`, with `F` and `C`
    /// functions of the group alone (pass 13). Whether every group of a
    /// set of pieces passes is a function of that set. It is computed (and
    /// remembered) for `base`, the player's pieces at the start of the turn
    /// that are still there; when it holds there, only the groups that
    /// meet the pieces added since are asked: every other group is a group
    /// of `base`.
    pub fn groups_by_change(
        &mut self,
        q: Quant,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
        body: Option<&Expr>,
        span: crate::source::Span,
    ) -> Option<B<W>> {
        let Expr::Builtin(Builtin::Groups, args, _) = domain else { return None };
        let [who] = &args[..] else { return None };
        let of_group = |e: &Expr| !reads_state(e) && !may_fail(e) && reads_only(e, &[slot]);
        if q == Quant::Count
            || (filter.is_none() && body.is_none())
            || !filter.is_none_or(of_group)
            || !body.is_none_or(of_group)
        {
            return None;
        }
        let Var::S(s) = self.var(slot) else { return None };
        let s = s as usize;
        let who = self.word(who);
        let f = filter.map(|f| self.cond_of(slot, f));
        let b = body.map(|b| self.cond_of(slot, b));
        let id = self.memos;
        self.memos += 1;
        self.reads_start = true;
        self.notes.push("groups by change: only the groups new pieces meet are asked".into());
        // A group decides `all` when it passes the filter and fails the
        // body, `any` / `none` when it passes both; `ok` says it does not.
        let want = q != Quant::All;
        let ok = move |cx: &mut Cx<'_, W>| {
            f.as_ref().is_some_and(|f| !f(cx)) || b.as_ref().is_none_or(|b| b(cx)) != want
        };
        let any = q == Quant::Any;
        Some(Box::new(move |cx| {
            let p = who(cx);
            if p < 0 || p as usize >= cx.t.players {
                return !any;
            }
            let a = bits_at(cx.st, p as usize);
            let base = a.and(cx.fr.start.get(p as usize).copied().unwrap_or(Set::EMPTY));
            if base.is_empty() {
                return groups_pass(cx, a, a, s, span, &ok) != any;
            }
            let found = cx.fr.m.memo.get(id).and_then(|m| m.get(&base));
            let known = match found {
                Some(v) if remembered_steps(cx, (v >> 1) as u32) => v & 1 != 0,
                _ => {
                    let before = cx.fr.steps;
                    let v = groups_pass(cx, base, base, s, span, &ok);
                    if cx.fr.err.is_none() {
                        let n = cx.fr.steps.saturating_sub(before);
                        if let Some(m) = cx.fr.m.memo.get_mut(id) {
                            m.put(base, with_steps(v, n));
                        }
                    }
                    v
                }
            };
            let v = if base == a {
                known
            } else {
                groups_pass(cx, a, if known { a.minus(base) } else { a }, s, span, &ok)
            };
            v != any
        }))
    }
}

// ---------------------------------------------------------------------------
// Neighbourhood requires (pass 17)

/// A `require` about the cells around a chosen placement, asked of every
/// placement when the options are listed (pass 17): a boolean
/// combination (`table`) of quantifiers over `neighbours(cover)` whose
/// filter and body are predicates of the cell alone (`atoms`).
pub struct NbrRequire<const W: usize> {
    /// Each quantifier: `any` / `all` / `none`, its filter and its body.
    pub atoms: Vec<(Quant, Option<Pred<W>>, Option<Pred<W>>)>,
    /// How their answers combine: bit `m` is the answer when quantifier
    /// `i` answers bit `i` of `m`.
    pub table: [u64; 4],
    /// The `require` statement (where a move it rejects fails).
    pub span: crate::source::Span,
    /// For each kind, the cells next to each of its placements (in the
    /// order of `Tables::placements`).
    pub nbrs: Vec<Box<[Set<W>]>>,
    /// A `require` over the mover's groups asked with it (pass 19).
    pub groups: Option<GroupRequire<W>>,
}

/// `require all g in groups(me): C(g)` with `C` a condition of the group
/// alone, asked of each placement as the options are listed (pass 19):
/// the groups after the placement are the mover's groups not next to it,
/// unchanged, and the groups of the mover's pieces and the placement that
/// meet the placement.
pub struct GroupRequire<const W: usize> {
    /// `C`, reading the group from set local `slot`.
    pub cond: B<W>,
    /// `C` without pass 4's memo, for a joined group, almost always new.
    pub fresh: B<W>,
    /// The set local the condition reads.
    pub slot: usize,
    /// The `require` statement (where a move it rejects fails).
    pub span: crate::source::Span,
    /// Written before the neighbourhood `require` (so asked first).
    pub first: bool,
    /// The frame's memo table remembering, per set of the mover's pieces,
    /// whether all its groups pass.
    pub memo: usize,
    /// For each kind, a bit per placement (in the order of
    /// `Tables::placements`): set when the placement's cells are one
    /// group and pass `C` (made at load). Asked of a placement next to
    /// none of the mover's pieces, which then is a group of its own.
    pub alone: Vec<Bits>,
    /// The same bits for "its cells are one group" (else `alone` says
    /// nothing and the placement is asked as any other).
    pub connected: Vec<Bits>,
}

/// A bit per element of a list.
pub type Bits = Box<[u64]>;

/// The boolean combination of a [`NbrRequire`]'s quantifiers.
pub enum NbrForm {
    /// The answer of quantifier `i`.
    Atom(usize),
    /// `a and b`
    And(Box<NbrForm>, Box<NbrForm>),
    /// `a or b`
    Or(Box<NbrForm>, Box<NbrForm>),
    /// `not a`
    Not(Box<NbrForm>),
}

/// Most quantifiers a [`NbrRequire`] may hold (their sets live on the
/// stack while options are listed).
pub const NBR_ATOMS: usize = 8;

/// A [`NbrRequire`]'s predicates evaluated at a position: for each
/// quantifier the cells passing its filter and its body (every cell when
/// it has none).
pub struct NbrSets<const W: usize> {
    sets: [(Set<W>, Set<W>); NBR_ATOMS],
    /// The mover's pieces (pass 19).
    own: Set<W>,
    /// The cells of the mover's groups that fail the group condition now
    /// (pass 19): each must join the placement for it to be admitted.
    bad: Set<W>,
}

impl<const W: usize> Pred<W> {
    /// Whether the predicate reads the cell it is asked about and nothing
    /// else (neither another cell, nor a local, nor a zone).
    fn is_local(&self) -> bool {
        match self {
            Pred::Const(_)
            | Pred::Static(..)
            | Pred::Empty
            | Pred::Occupied
            | Pred::Off
            | Pred::OwnerMe
            | Pred::OwnerConst(_)
            | Pred::KindConst(_) => true,
            Pred::And(a, b) | Pred::Or(a, b) => a.is_local() && b.is_local(),
            Pred::Not(a) => a.is_local(),
            _ => false,
        }
    }
}

impl<const W: usize> NbrRequire<W> {
    /// The predicates' sets at the position of `cx`.
    #[inline]
    pub fn sets(&self, cx: &mut Cx<'_, W>) -> NbrSets<W> {
        let all = cx.t.all;
        let mut sets = [(all, all); NBR_ATOMS];
        for (s, (_, f, b)) in sets.iter_mut().zip(&self.atoms) {
            if let Some(f) = f {
                s.0 = f.eval(cx, all).0;
            }
            if let Some(b) = b {
                s.1 = b.eval(cx, all).0;
            }
        }
        let (mut own, mut bad) = (Set::EMPTY, Set::EMPTY);
        if let Some(g) = &self.groups {
            own = bits_at(cx.st, cx.st.current as usize);
            // Whether every group passes is remembered per set of pieces;
            // the failing groups are found only when some fail.
            let known = cx.fr.m.memo.get(g.memo).and_then(|m| m.get(&own));
            let pass = known.is_some_and(|v| v & 1 == 1 && remembered_steps(cx, (v >> 1) as u32));
            if !pass {
                let t = cx.t;
                let before = cx.fr.steps;
                for grp in components(t, own, own) {
                    if !g.asks(cx, grp) {
                        bad = bad.or(grp);
                    }
                }
                if known.is_none() && cx.fr.err.is_none() {
                    let n = cx.fr.steps.saturating_sub(before);
                    if let Some(m) = cx.fr.m.memo.get_mut(g.memo) {
                        m.put(own, with_steps(bad.is_empty(), n));
                    }
                }
            }
        }
        NbrSets { sets, own, bad }
    }

    /// Whether the `require`s hold once placement `e` is placed, at the
    /// position of `cx` (for one placement; a listing computes
    /// [`NbrRequire::sets`] once and asks [`NbrRequire::holds`]).
    pub fn admits(&self, cx: &mut Cx<'_, W>, e: Set<W>) -> bool {
        self.first_failure(cx, e).is_none()
    }

    /// The `require` that rejects placement `e` first, in the written
    /// order (`None`: both hold).
    pub fn first_failure(&self, cx: &mut Cx<'_, W>, e: Set<W>) -> Option<crate::source::Span> {
        let ns = self.sets(cx);
        let nb = super::expr::around(cx.t, e).minus(e);
        let nbr = (!self.atoms.is_empty() && !self.holds_around(&ns, nb)).then_some(self.span);
        let grp = self
            .groups
            .as_ref()
            .and_then(|g| (!self.groups_hold(cx, &ns, e, nb)).then_some(g.span));
        match &self.groups {
            Some(g) if g.first => grp.or(nbr),
            _ => nbr.or(grp),
        }
    }

    /// Whether the `require`s hold once placement `e` is placed.
    #[inline]
    pub fn holds(&self, cx: &mut Cx<'_, W>, sets: &NbrSets<W>, e: Set<W>) -> bool {
        let nb = super::expr::around(cx.t, e).minus(e);
        self.holds_around(sets, nb) && self.groups_hold(cx, sets, e, nb)
    }

    /// Whether the group `require` (if any) holds once placement `e`,
    /// whose neighbours are `nb`, is placed: every failing group must
    /// join the placement, and each group that meets the placement must
    /// pass.
    #[inline]
    pub fn groups_hold(
        &self,
        cx: &mut Cx<'_, W>,
        sets: &NbrSets<W>,
        e: Set<W>,
        nb: Set<W>,
    ) -> bool {
        let Some(g) = &self.groups else { return true };
        let t = cx.t;
        // The mover's groups next to the placement.
        let joined = super::expr::flood(t, sets.own, sets.own.and(nb));
        if !sets.bad.minus(joined).is_empty() {
            return false;
        }
        components(t, sets.own.or(e), joined.or(e)).all(|grp| g.asks(cx, grp))
    }

    /// [`NbrRequire::groups_hold`] for placement `i` of the kind whose
    /// placements are `Tables::placements[k]`: a placement next to none
    /// of the mover's pieces whose cells are one group is answered from
    /// the bits made at load.
    #[inline]
    pub fn groups_hold_at(
        &self,
        cx: &mut Cx<'_, W>,
        sets: &NbrSets<W>,
        (k, i): (usize, usize),
        e: Set<W>,
        nb: Set<W>,
    ) -> bool {
        let Some(g) = &self.groups else { return true };
        let bit = |v: &[Bits]| {
            v.get(k).and_then(|b| b.get(i / 64)).is_some_and(|w| w >> (i % 64) & 1 == 1)
        };
        let one = bit(&g.connected);
        if one && !sets.own.meets(nb) {
            return sets.bad.is_empty() && bit(&g.alone);
        }
        self.groups_joined(cx, sets, e, nb, one)
    }

    /// [`NbrRequire::groups_hold`] of a placement next to some of the
    /// mover's pieces; `one` when its cells are one group. Out of line,
    /// to keep the listing's loop small.
    #[inline(never)]
    fn groups_joined(
        &self,
        cx: &mut Cx<'_, W>,
        sets: &NbrSets<W>,
        e: Set<W>,
        nb: Set<W>,
        one: bool,
    ) -> bool {
        let Some(g) = &self.groups else { return true };
        if !one {
            return self.groups_hold(cx, sets, e, nb);
        }
        // The placement is one group and each of the mover's groups next
        // to it touches it: together they are one group, the only new one.
        let joined = super::expr::flood(cx.t, sets.own, sets.own.and(nb));
        if !sets.bad.minus(joined).is_empty() {
            return false;
        }
        if let Some(x) = cx.fr.s.get_mut(g.slot) {
            *x = joined.or(e);
        }
        (g.fresh)(cx)
    }

    /// Whether the neighbourhood `require` holds once a placement whose
    /// neighbours are `nb` is placed (always, when there is none).
    #[inline]
    pub fn holds_around(&self, sets: &NbrSets<W>, nb: Set<W>) -> bool {
        let mut m = 0usize;
        for (i, ((q, ..), (fs, bs))) in self.atoms.iter().zip(&sets.sets).enumerate() {
            let s = nb.and(*fs);
            let hits = s.and(*bs);
            let yes = match q {
                Quant::Any => !hits.is_empty(),
                Quant::All => hits == s,
                _ => hits.is_empty(),
            };
            m |= usize::from(yes) << i;
        }
        self.table[m / 64] >> (m % 64) & 1 == 1
    }
}

impl<const W: usize> GroupRequire<W> {
    /// The condition of group `g`.
    #[inline]
    fn asks(&self, cx: &mut Cx<'_, W>, g: Set<W>) -> bool {
        if let Some(x) = cx.fr.s.get_mut(self.slot) {
            *x = g;
        }
        (self.cond)(cx)
    }
}

impl NbrForm {
    /// The answer when quantifier `i` answers bit `i` of `m`.
    fn eval(&self, m: usize) -> bool {
        match self {
            NbrForm::Atom(i) => m >> i & 1 == 1,
            NbrForm::And(a, b) => a.eval(m) && b.eval(m),
            NbrForm::Or(a, b) => a.eval(m) || b.eval(m),
            NbrForm::Not(a) => !a.eval(m),
        }
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Passes 17 and 19: `choose v in placements(K) where F` followed, in
    /// the same block, by statements that only take pieces from zones or
    /// place the chosen placement for the mover, then `require C` with
    /// `C` about the cells around `v` alone (pass 17) and/or, once placed,
    /// `require all g in groups(me): D` with `D` about the group alone
    /// (pass 19), one of each at most, in either order. Returns the
    /// indices in `stmts` of those `require`s and the form the listing
    /// asks of each placement. Exact: placing writes only the cells of
    /// `v` and taking only zone counters, neither can stop the run with
    /// an error (only fail, which drops the option as a `require` would),
    /// `C` reads only cells next to `v`, each through a predicate of that
    /// cell, and `me`, and `D` reads only the group, whose sets after the
    /// placement follow from the mover's pieces before it and `v`.
    pub fn nbr_require(&mut self, stmts: &[Stmt], i: usize) -> Option<(Vec<usize>, NbrRequire<W>)> {
        let StmtKind::Choose { slot, domain, .. } = &stmts.get(i)?.kind else { return None };
        if self.ty(domain) != Ty::Placements || !matches!(self.var(*slot), Var::S(_)) {
            return None;
        }
        let is_v = |e: &Expr| matches!(e, Expr::Local(s, _) if s == slot);
        let mut asked = Vec::new();
        let mut nbr: Option<(Vec<_>, NbrForm, crate::source::Span)> = None;
        let mut groups: Option<GroupRequire<W>> = None;
        let mut placed = false;
        for (j, s) in stmts.iter().enumerate().skip(i + 1) {
            match &s.kind {
                StmtKind::Take { count, kind, zone } if asked.is_empty() => {
                    if [count.as_ref(), Some(kind), Some(zone)].into_iter().flatten().any(may_fail)
                    {
                        return None;
                    }
                }
                StmtKind::Place { kind, owner: None, at, many: true }
                    if asked.is_empty() && !placed && is_v(at) && !may_fail(kind) =>
                {
                    placed = true;
                }
                StmtKind::Require(c, _) => {
                    let mut atoms = Vec::new();
                    if nbr.is_none() {
                        if let Some(form) = self.nbr_form(*slot, c, &mut atoms) {
                            nbr = Some((atoms, form, s.span));
                            asked.push(j);
                            continue;
                        }
                    }
                    // The groups after the placement (so only once it is
                    // placed), on a board whose neighbours are symmetric:
                    // a group not next to the placement is then unchanged.
                    if groups.is_none() && placed && self.t.nbr_symmetric {
                        if let Some((cond, gs, fresh)) = self.group_require(c) {
                            let first = nbr.is_none();
                            let memo = self.memos;
                            self.memos += 1;
                            let (alone, connected) = self.alone_placements(&cond, gs);
                            groups = Some(GroupRequire {
                                cond,
                                fresh,
                                slot: gs,
                                span: s.span,
                                first,
                                memo,
                                alone,
                                connected,
                            });
                            asked.push(j);
                            continue;
                        }
                    }
                    break;
                }
                _ => break,
            }
        }
        if asked.is_empty() {
            return None;
        }
        let t = self.t;
        let nbrs = t
            .placements
            .iter()
            .map(|ps| ps.iter().map(|&e| super::expr::around(t, e).minus(e)).collect())
            .collect();
        let (atoms, table, span) = match nbr {
            Some((atoms, form, span)) => {
                self.notes.push(
                    "neighbourhood require: asked of each placement as the options are listed"
                        .into(),
                );
                let mut table = [0u64; 4];
                for m in 0..1usize << atoms.len() {
                    table[m / 64] |= u64::from(form.eval(m)) << (m % 64);
                }
                (atoms, table, span)
            }
            // No quantifier: the answer is `true`.
            None => (Vec::new(), [1, 0, 0, 0], Default::default()),
        };
        if groups.is_some() {
            self.notes
                .push("group require: asked of each placement as the options are listed".into());
        }
        Some((asked, NbrRequire { atoms, table, span, nbrs, groups }))
    }

    /// Pass 19: for each kind and placement, whether its cells are one
    /// group (`connected`) and whether that group passes `cond` (`alone`),
    /// evaluated now (`cond` reads the set local `slot` and nothing of
    /// the position).
    fn alone_placements(&self, cond: &B<W>, slot: usize) -> (Vec<Bits>, Vec<Bits>) {
        let t = self.t;
        let mut st = State::empty(self.g);
        let mut fr = self.scratch_frame();
        let mut alone = Vec::with_capacity(t.placements.len());
        let mut connected = Vec::with_capacity(t.placements.len());
        for ps in &t.placements {
            let words = ps.len().div_ceil(64);
            let (mut a, mut c) = (vec![0u64; words], vec![0u64; words]);
            for (i, &e) in ps.iter().enumerate() {
                let one = e.first().is_some_and(|x| super::expr::flood(t, e, Set::one(x)) == e);
                if !one {
                    continue;
                }
                c[i / 64] |= 1 << (i % 64);
                if let Some(x) = fr.s.get_mut(slot) {
                    *x = e;
                }
                fr.steps = 0;
                let mut cx = Cx { t, st: &mut st, fr: &mut fr };
                let ok = cond(&mut cx) && fr.err.is_none();
                fr.err = None;
                if ok {
                    a[i / 64] |= 1 << (i % 64);
                }
            }
            alone.push(a.into_boxed_slice());
            connected.push(c.into_boxed_slice());
        }
        (alone, connected)
    }

    /// Pass 19: `all g in groups(me): C` with `C` a condition of the group
    /// alone (no position, no `me`, no other local, cannot fail), compiled
    /// with the set local it reads.
    fn group_require(&mut self, c: &Expr) -> Option<(B<W>, usize, B<W>)> {
        let Expr::Quant { quant: Quant::All, slot, domain, filter: None, body: Some(body), .. } = c
        else {
            return None;
        };
        let Expr::Builtin(Builtin::Groups, args, _) = &**domain else { return None };
        if !matches!(&args[..], [Expr::Me]) {
            return None;
        }
        if reads_state(body) || may_fail(body) || !reads_only(body, &[*slot]) {
            return None;
        }
        let Var::S(gs) = self.var(*slot) else { return None };
        Some((self.cond_of(*slot, body), gs as usize, self.bool_(body)))
    }

    fn nbr_form(
        &mut self,
        v: Slot,
        e: &Expr,
        atoms: &mut Vec<(Quant, Option<Pred<W>>, Option<Pred<W>>)>,
    ) -> Option<NbrForm> {
        match e {
            Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b, _) => {
                let a = Box::new(self.nbr_form(v, a, atoms)?);
                let b = Box::new(self.nbr_form(v, b, atoms)?);
                Some(if *op == BinOp::And { NbrForm::And(a, b) } else { NbrForm::Or(a, b) })
            }
            Expr::Unary(UnOp::Not, a) => Some(NbrForm::Not(Box::new(self.nbr_form(v, a, atoms)?))),
            Expr::Quant {
                quant: q @ (Quant::Any | Quant::All | Quant::None),
                slot,
                domain,
                filter,
                body,
                ..
            } => {
                let Expr::Builtin(Builtin::NeighboursOf, args, _) = &**domain else { return None };
                if !matches!(&args[..], [Expr::Local(s, _)] if *s == v) || atoms.len() >= NBR_ATOMS
                {
                    return None;
                }
                let (f, b) = self.filter_body(*slot, filter.as_deref(), body.as_deref())?;
                if !f.as_ref().is_none_or(Pred::is_local) || !b.as_ref().is_none_or(Pred::is_local)
                {
                    return None;
                }
                atoms.push((*q, f, b));
                Some(NbrForm::Atom(atoms.len() - 1))
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Lines through a cell (pass 18)

/// The lines of one family (`lines(N)`, line ids `first..end`) through
/// each cell, and where the quantifier reads its cell.
pub struct LinesThrough {
    /// The family's first line id.
    pub first: u32,
    /// One past its last.
    pub end: u32,
    /// The cell: a word local, or a constant.
    cell: Result<usize, u16>,
    /// `ids[starts[c]..starts[c + 1]]`: the lines through cell `c`, ascending.
    starts: Box<[u32]>,
    ids: Box<[u32]>,
}

impl LinesThrough {
    /// The lines through the cell the quantifier asks about (none when it
    /// is `none` or off the board).
    #[inline(always)]
    pub fn lines<const W: usize>(&self, cx: &Cx<'_, W>) -> &[u32] {
        let c = match self.cell {
            Ok(i) => cx.fr.w[i],
            Err(c) => i64::from(c),
        };
        let Ok(c) = usize::try_from(c) else { return &[] };
        match (self.starts.get(c), self.starts.get(c + 1)) {
            (Some(&a), Some(&b)) => self.ids.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

impl<const W: usize> Compiler<'_, W> {
    /// Pass 18: for a quantifier `Q l in lines(N) where c in l [and ...]`,
    /// the lines through each cell (see the module docs), when `c` is a
    /// cell local other than `l` or a constant cell.
    pub fn lines_through(
        &mut self,
        slot: Slot,
        domain: &Expr,
        filter: Option<&Expr>,
    ) -> Option<LinesThrough> {
        let (first, end) = match domain {
            Expr::Lines(a, b) | Expr::Const(Value::Lines(a, b)) => (*a, *b),
            _ => return None,
        };
        if !matches!(self.var(slot), Var::W(_)) {
            return None;
        }
        let mut conj = Vec::new();
        conjuncts(filter?, &mut conj);
        let Expr::Builtin(Builtin::Contains, args, _) = conj.first()? else { return None };
        let Expr::Builtin(Builtin::LineCells, l, _) = &args[0] else { return None };
        if !matches!(&l[0], Expr::Local(s, _) if *s == slot) {
            return None;
        }
        let cell = match &args[1] {
            Expr::Local(s, _) if *s != slot => match self.var(*s) {
                Var::W(i) => Ok(i as usize),
                _ => return None,
            },
            Expr::Const(Value::Cell(c)) => Err(*c),
            _ => return None,
        };
        if self.ty(&args[1]) != Ty::Cell {
            return None;
        }
        let lines = self.t.lines.get(first as usize..end as usize)?;
        let cells = self.t.cells;
        let mut starts = Vec::with_capacity(cells + 1);
        let mut ids = Vec::new();
        for c in 0..cells {
            starts.push(ids.len() as u32);
            for (i, line) in lines.iter().enumerate() {
                if line.cells.contains(&(c as crate::board::CellId)) {
                    ids.push(first + i as u32);
                }
            }
        }
        starts.push(ids.len() as u32);
        self.notes
            .push("lines through a cell: a quantifier over the lines that hold a cell".into());
        Some(LinesThrough {
            first,
            end,
            cell,
            starts: starts.into_boxed_slice(),
            ids: ids.into_boxed_slice(),
        })
    }
}

// ---------------------------------------------------------------------------
// Arguments read in place

/// Pass 27: the body of `Inline(binds, body)` with its one binding put in
/// the place of the parameter, when the parameter is read once, as the
/// first thing the body evaluates (down the left operands of operators,
/// `not`/`-` and properties), and nothing else the body evaluates can
/// raise an error (so no error can come before the argument's, nor
/// instead of it). `None` otherwise. `hoisted` are expressions other
/// passes have claimed by address: a body holding one is left alone.
pub fn inline_once(
    binds: &[(Slot, Expr)],
    body: &Expr,
    hoisted: &[(*const Expr, Var, u16)],
) -> Option<Expr> {
    let [(slot, arg)] = binds else { return None };
    let mut uses = 0;
    count_reads(body, *slot, &mut uses);
    if uses != 1 || claims(body, hoisted) {
        return None;
    }
    put_first(body, *slot, arg)
}

/// How many times `e` reads local `slot`.
fn count_reads(e: &Expr, slot: Slot, n: &mut usize) {
    match e {
        Expr::Local(s, _) => *n += usize::from(*s == slot),
        _ => e.children(&mut |c| count_reads(c, slot, n)),
    }
}

/// Whether `e` or a part of it is one of the `hoisted` expressions.
fn claims(e: &Expr, hoisted: &[(*const Expr, Var, u16)]) -> bool {
    if hoisted.iter().any(|h| std::ptr::eq(h.0, e)) {
        return true;
    }
    let mut found = false;
    e.children(&mut |c| found |= claims(c, hoisted));
    found
}

/// `e` with `arg` in the place of its first-evaluated read of `slot` (see
/// [`inline_once`]).
fn put_first(e: &Expr, slot: Slot, arg: &Expr) -> Option<Expr> {
    Some(match e {
        Expr::Local(s, _) if *s == slot => arg.clone(),
        Expr::Unary(op, a) => Expr::Unary(*op, Box::new(put_first(a, slot, arg)?)),
        Expr::Prop(k, a, span) => Expr::Prop(*k, Box::new(put_first(a, slot, arg)?), *span),
        Expr::Binary(op, a, b, span) if never_errs(b) => {
            Expr::Binary(*op, Box::new(put_first(a, slot, arg)?), b.clone(), *span)
        }
        _ => return None,
    })
}
