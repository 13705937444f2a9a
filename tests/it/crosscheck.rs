//! The compiled evaluator against the reference interpreter, on the
//! positions of seeded random games of every bundled game (and variants):
//! the same moves in the same order, the same resulting positions, the
//! same outcomes and scores, the same starting positions, and random
//! playouts that take the same course.

use tabula::interp::reference;
use tabula::rng::Rng;
use tabula::{Game, State};

/// Every bundled game, and variants that exercise other code paths.
pub fn cases() -> Vec<(String, Game)> {
    let mut out = Vec::new();
    for path in crate::files(&crate::root().join("games"), "game") {
        let name = path.file_name().expect("name").to_string_lossy().to_string();
        out.push((name.clone(), crate::game(&name)));
    }
    for (name, set) in [
        ("bug_off.game", &[("players", 3)][..]),
        ("bug_off.game", &[("players", 5)][..]),
        ("hex.game", &[("swap", 1), ("size", 5)][..]),
        ("boop.game", &[("size", 4), ("kittens", 3)][..]),
        ("bug.game", &[("side", 4)][..]),
        // Two words a set (91 cells): pass 43's spread and test across words.
        ("bug.game", &[("side", 6)][..]),
        ("snekagon.game", &[("side", 3)][..]),
        ("connect4.game", &[("columns", 5), ("rows", 4)][..]),
        ("breakthrough.game", &[("size", 5)][..]),
        ("othello.game", &[("half", 3)][..]),
    ] {
        out.push((format!("{name} {set:?}"), crate::game_with(name, set)));
    }
    // Chance in the middle of a turn, decisions after it, a face-down bag.
    let dice = "players A, B\npiece Point\npiece Red\npiece Blue\nzone score per player\n\
                zone bag shared ordered hidden\n\
                setup { add 2 Red to bag  add 2 Blue to bag  shuffle bag }\n\
                turn {\n\
                  random d in range(1, 3) as \"roll\"\n\
                  either \"take\" { add d Point to score(me) } or \"draw\" {\n\
                    if count(bag) > 0 { move first(bag) from bag to score(me) }\n\
                    random e in range(0, 1)\n\
                    if e == 1 { add 1 Point to score(me) }\n\
                  }\n\
                  if count(score(me), Point) >= 5 { win me }\n\
                }";
    out.push(("dice".into(), crate::game_text(dice).expect("dice game")));
    // Draws (`move first(Z) from Z to Y`) from the ordered zones of
    // constant players and a shared one, to counted and ordered zones,
    // from decks that run empty (those options are not moves).
    let draws = "players A, B\npiece Red\npiece Blue\n\
                 zone deck per player ordered\nzone line shared ordered\nzone hand per player\n\
                 setup { add 2 Red to deck(A)  add 1 Blue to deck(A)  add 1 Blue to deck(B)  add 2 Red to deck(B) }\n\
                 turn {\n\
                   either \"hand\" { move first(deck(A)) from deck(A) to hand(me) }\n\
                   or \"line\" { move first(deck(B)) from deck(B) to line }\n\
                   or \"back\" { move first(line) from line to deck(me) }\n\
                   if count(hand(me), Blue) >= 1 and count(hand(me)) >= 2 { win me }\n\
                 }\n\
                 on no moves { draw }";
    out.push(("draws".into(), crate::game_text(draws).expect("draws game")));
    // Quantifiers over an ordered zone named in the rule, read in place:
    // known pieces at its start (peeked) and end (added after the
    // shuffle), face-down ones between, filters and every quantifier.
    let peeks = "players A, B\npiece Red\npiece Blue\n\
                 zone bag shared ordered hidden\nzone pile per player\n\
                 setup { add 2 Red to bag  add 2 Blue to bag  shuffle bag }\n\
                 turn {\n\
                   either \"peek\" { if first(bag) == Red { add Red to pile(me) } }\n\
                   or \"add\" { add Blue to bag }\n\
                   or \"draw\" { move first(bag) from bag to pile(me) }\n\
                   if any k in bag where k == Blue: count(pile(me), Blue) > 0 { add Red to pile(me) }\n\
                   if count(bag) > 0 and (all k in bag: k == Red) { win me }\n\
                   if (none k in bag: k == Blue) and count(pile(me)) > 3 { win me }\n\
                   if count(pile(me)) >= 6 { win me }\n\
                 }\n\
                 on no moves { draw }";
    out.push(("peeks".into(), crate::game_text(peeks).expect("peeks game")));
    // `either`s whose arms each begin with a decision (a `choose` whose
    // options run or are handed over unrun, a nested `either`, a
    // `random`): the search goes to the arm's decision without a run.
    let arms = "players A, B\nboard square 3 by 3\npiece Stone\npiece Red\nzone hand per player\n\
                setup { add 2 Red to hand(A)  add 1 Red to hand(B) }\n\
                turn {\n\
                  either \"place\" { choose c in cells where empty(c)  place Stone at c }\n\
                  or \"cards\" {\n\
                    either \"give\" { choose k in hand(me)  take k from hand(me)  add k to hand(next(me)) }\n\
                    or \"roll\" { random r in range(1, 2)  if r == 2 { add Red to hand(me) } }\n\
                  }\n\
                  or \"lift\" { choose d in pieces(me)  remove d }\n\
                  if size(pieces(me)) >= 3 { win me }\n\
                  if count(hand(me)) >= 4 { win me }\n\
                }\n\
                on no moves { draw }";
    out.push(("arms".into(), crate::game_text(arms).expect("arms game")));
    // `def`s called with an argument that is not a local, read once as
    // the first thing their body evaluates (under `not`, `-`, a property,
    // the left operands of operators: put in the parameter's place), or
    // twice (bound to the parameter); a face-down argument is a chance
    // event before the test.
    let arguments = "players A, B\npiece Red { v: 1 }\npiece Blue { v: 2 }\n\
                 zone bag shared ordered hidden\nzone pile per player\n\
                 def red(k) = not (v(k) == 2)\n\
                 def low(k) = -v(k) + 3 == 2\n\
                 def twice(k) = v(k) + v(k) == 4\n\
                 def big(n) = n * 2 > 3\n\
                 setup { add 2 Red to bag  add 2 Blue to bag  shuffle bag }\n\
                 turn {\n\
                   either \"peek\" { if count(bag) > 0 and red(first(bag)) { add Red to pile(me) } }\n\
                   or \"sum\" { if count(bag) > 0 and low(first(bag)) { add Blue to pile(me) } }\n\
                   or \"twice\" { if count(bag) > 0 and twice(first(bag)) { add Blue to pile(me) } }\n\
                   or \"draw\" { if count(bag) > 0 { move first(bag) from bag to pile(me) } }\n\
                   or \"count\" { if big(count(pile(me))) { add Red to pile(me) } }\n\
                   if count(pile(me)) >= 5 { win me }\n\
                 }\n\
                 on no moves { draw }";
    out.push(("arguments".into(), crate::game_text(arguments).expect("arguments game")));
    // A move of all pieces of a kind from a counted zone to itself, the
    // zone near the limit of 65535: taken before they are added, so it
    // cannot overflow.
    let onto_itself = "players A, B\npiece Stone\nzone bag per player\n\
                setup { add 40000 Stone to bag(A)  add 40000 Stone to bag(B) }\n\
                turn {\n\
                  move all Stone from bag(me) to bag(me)\n\
                  add 1 Stone to bag(me)\n\
                  if count(bag(me)) >= 40002 { win me }\n\
                }";
    out.push(("onto itself".into(), crate::game_text(onto_itself).expect("onto-itself game")));
    // A decision after a chance event that follows a decision: a playout
    // goes on from the chance stop, and the turn under way becomes a
    // position whose events the next search replays.
    let coin = "players A, B\nboard square 4 by 4\npiece Stone\n\
                turn {\n\
                  choose c in cells where empty(c)\n\
                  place Stone at c\n\
                  random d in range(0, 1) as \"coin\"\n\
                  if d == 1 and (count x in cells: empty(x)) > 0 {\n\
                    choose e in cells where empty(e) as \"extra\"\n\
                    place Stone at e\n\
                  }\n\
                  if size(pieces(me)) >= 6 { win me }\n\
                }";
    out.push(("coin".into(), crate::game_text(coin).expect("coin game")));
    // The same with options that run after the chance event (their tail
    // may meet a decision): a search of a turn under way runs them in
    // copies of levels that may hold such positions of earlier searches.
    let coin_runs = "players A, B\nboard square 4 by 4\npiece Stone\n\
                turn {\n\
                  choose c in cells where empty(c)\n\
                  place Stone at c\n\
                  random d in range(0, 1) as \"coin\"\n\
                  if d == 1 and (count x in cells: empty(x)) > 0 {\n\
                    choose e in cells where empty(e) as \"extra\"\n\
                    place Stone at e\n\
                    if size(pieces(me)) % 2 == 0 { choose f in range(0, 1) as \"f\" }\n\
                  }\n\
                  if size(pieces(me)) >= 6 { win me }\n\
                }";
    out.push(("coin runs".into(), crate::game_text(coin_runs).expect("coin runs game")));
    // Quantifiers over a zone's pieces whose conditions compare the
    // piece's kind or properties with constants and other locals (pass
    // 30's kind sets): ordered zones with face-down pieces between known
    // ones, counted zones of `me`, of a constant player and of a loop's
    // player, filters, `def`s of the piece, `not`, `and`, `or`; a local
    // that holds no kind (`last` of the empty table).
    let suits = "players A, B\n\
                 piece R1 { suit: 1, rank: 1 }\n\
                 piece R2 { suit: 1, rank: 2 }\n\
                 piece B1 { suit: 2, rank: 1 }\n\
                 piece B2 { suit: 2, rank: 2 }\n\
                 zone deck shared ordered hidden\n\
                 zone hand per player\n\
                 zone table shared ordered\n\
                 zone won per player\n\
                 def red(k) = suit(k) == 1\n\
                 def matches(k) = any n in table: suit(n) == suit(k)\n\
                 def beats(k) = all n in table where suit(n) == suit(k): rank(n) < rank(k)\n\
                 setup {\n\
                   add 3 R1 to deck  add 3 R2 to deck  add 3 B1 to deck  add 3 B2 to deck\n\
                   shuffle deck\n\
                   for p in players { for i in range(1, 3) { move first(deck) from deck to hand(p) } }\n\
                 }\n\
                 turn {\n\
                   let top = last(table)\n\
                   if any n in hand(me): suit(n) == suit(top) and n != top { add B2 to won(next(me)) }\n\
                   if any n in hand(me): n == top or rank(n) > 2 { add R1 to won(next(me)) }\n\
                   choose card in hand(me) where beats(card) or not matches(card) or count(table) % 2 == 1 or count(hand(me)) > 2\n\
                   move card from hand(me) to table\n\
                   if count(deck) > 0 { move first(deck) from deck to hand(me) }\n\
                   for q in players {\n\
                     for k in hand(q) where any n in table: n == k and not red(n) and rank(n) == 2 { move k from hand(q) to won(q) }\n\
                   }\n\
                   if none n in hand(A): rank(n) >= 2 or n == card { add R1 to won(A) }\n\
                   if any n in deck where red(n): n != card { add B1 to won(me) }\n\
                   if all n in hand(me): suit(card) < suit(n) { add R2 to won(me) }\n\
                   if count(won(me)) >= 6 { win me }\n\
                 }\n\
                 on no moves { draw }";
    out.push(("suits".into(), crate::game_text(suits).expect("suits game")));
    out.push(("largest".into(), crate::game_text(LARGEST).expect("largest game")));
    out.push(("shared memo".into(), crate::game_text(SHARED).expect("shared memo game")));
    // `take k from pool(me)` of a kind chosen elsewhere: the take fails
    // when the pool has none of it (Blue never; Red after two turns).
    let take = "players A, B\nboard square 3 by 3\npiece Red\npiece Blue\nzone pool per player\n\
                setup { for p in players { add 2 Red to pool(p) } }\n\
                turn {\n\
                  choose k in kinds\n\
                  choose c in cells where empty(c)\n\
                  take k from pool(me)\n\
                  place k at c\n\
                }\n\
                on no moves { pass }";
    out.push(("take".into(), crate::game_text(take).expect("take game")));
    // Repetitions without variables, ordered zones or chance: each
    // option's run asks the position's history, which a copy of the
    // level must carry (the search's levels hold other positions too).
    let repeats = "players A, B\nboard square 2 by 2\npiece Stone\n\
                   setup { place Stone of A at a1  place Stone of B at b2 }\n\
                   turn {\n\
                     choose a in pieces(me)\n\
                     choose b in cells where empty(b)\n\
                     move a to b\n\
                     if repetitions >= 2 {\n\
                       choose r in range(0, 2) as \"r\"\n\
                       if r == 2 { draw }\n\
                     }\n\
                   }\n\
                   on no moves { pass }";
    out.push(("repeats".into(), crate::game_text(repeats).expect("repeats game")));
    // Pass 28: the first `take` runs before `choose c` (whose filter reads
    // no zone); the second may not run before `choose e`, whose filter
    // counts the pool it takes from.
    let take_first = "players A, B\nboard square 3 by 3\npiece Red\npiece Blue\n\
                zone pool per player\n\
                setup { for p in players { add 2 Red to pool(p)  add 3 Blue to pool(p) } }\n\
                turn {\n\
                  choose k in pool(me)\n\
                  choose c in cells where empty(c) and rank(c) + file(c) >= ply % 3\n\
                  take k from pool(me)\n\
                  place k at c\n\
                  if count(pool(me)) > 0 {\n\
                    choose j in pool(me)\n\
                    choose e in cells where empty(e) and (count(pool(me), j) > 1 or rank(e) == 1)\n\
                    take j from pool(me)\n\
                    place j at e\n\
                    choose r in range(0, 1) as \"r\"\n\
                    if r == 1 { pass }\n\
                  }\n\
                  if size(pieces(me)) >= 4 { win me }\n\
                }\n\
                on no moves { pass }";
    out.push(("take first".into(), crate::game_text(take_first).expect("take-first game")));
    // A first decision whose options run into a draw (a chance tail), and
    // a decision of the mover after the draw: a move played may leave the
    // turn under way, made from the position searched, so the search
    // copies that position (no owned search).
    let draw_then_place = "players A, B\nboard square 3 by 3\npiece Stone\npiece Red\npiece Blue\n\
                zone bag shared ordered hidden\nzone pile per player\n\
                setup { add 6 Red to bag  add 6 Blue to bag  shuffle bag }\n\
                turn {\n\
                  choose c in cells where empty(c)\n\
                  place Stone at c\n\
                  move first(bag) from bag to pile(me)\n\
                  if count(pile(me), Red) >= 2 and (count x in cells: empty(x)) > 0 {\n\
                    choose e in cells where empty(e) as \"extra\"\n\
                    place Stone at e\n\
                  }\n\
                  if size(pieces(me)) >= 4 { win me }\n\
                }\n\
                on no moves { draw }";
    out.push((
        "draw then place".into(),
        crate::game_text(draw_then_place).expect("draw-then-place game"),
    ));
    // The piece on a cell to or from its owner's zone (`add kind(c) to
    // pool(owner(c))`, and `take`, which fails when that pool has none of
    // the kind): either player's pieces, either kind.
    let home = "players A, B\nboard square 3 by 3\npiece Red\npiece Blue\nzone pool per player\n\
                setup { for p in players { add 2 Red to pool(p)  add 1 Blue to pool(p) } }\n\
                turn {\n\
                  either {\n\
                    choose k in kinds\n\
                    choose c in cells where empty(c)\n\
                    take k from pool(me)\n\
                    place k at c\n\
                  } or \"home\" {\n\
                    choose c in cells where occupied(c)\n\
                    add kind(c) to pool(owner(c))\n\
                    remove c\n\
                  } or \"burn\" {\n\
                    choose c in cells where occupied(c) as \"burn\"\n\
                    take kind(c) from pool(owner(c))\n\
                  }\n\
                }\n\
                on no moves { pass }";
    out.push(("home".into(), crate::game_text(home).expect("home game")));
    // Pass 9's rounds over the directions from a cell: from the placed
    // stone (no round assigns it: the rounds are skipped at once when no
    // neighbour is taken), and from a local a round moves on to the
    // stone it captured (read again at every round).
    let rounds = "players A, B\nboard square 4 by 4 with 8 neighbours\npiece Stone\n\
                  turn {\n\
                    choose c in cells where empty(c)\n\
                    place Stone at c\n\
                    for d in dirs {\n\
                      let n = step(c, d)\n\
                      if occupied(n) and owner(n) != me and d == se { remove n }\n\
                    }\n\
                    let o = c\n\
                    for d in dirs {\n\
                      let n = step(o, d)\n\
                      if occupied(n) and owner(n) != me {\n\
                        remove n\n\
                        o = n\n\
                      }\n\
                    }\n\
                    if size(pieces(me)) >= 5 { win me }\n\
                  }\n\
                  on no moves { pass }";
    out.push(("rounds".into(), crate::game_text(rounds).expect("rounds game")));
    // Pushes whose switch sends a piece home (pass 45's pair as a switch
    // arm, `Arm::Home`): the round's own cell (taken from the rounds), the
    // cell behind it (read from its local), and, after the loop, a plain
    // switch whose `empty(z)` arm sends home another cell, `w`, which may
    // be empty or off the board (the turn then fails). Two kinds, so that
    // the counter found is not always the first.
    let home_arms = "players A, B\nboard square 4 by 4 with 8 neighbours\npiece Red\npiece Blue\n\
                     zone pool per player\n\
                     setup { for p in players { add 4 Red to pool(p)  add 3 Blue to pool(p) } }\n\
                     action home(y) {\n add kind(y) to pool(owner(y))\n remove y\n}\n\
                     turn {\n\
                       choose k in pool(me)\n\
                       choose c in cells where empty(c)\n\
                       take k from pool(me)\n\
                       place k at c\n\
                       for d in dirs {\n\
                         let n = step(c, d)\n\
                         if occupied(n) {\n\
                           let x = step(n, d)\n\
                           if off(x) { home(n) } else if empty(x) { move n to x } else { home(x) }\n\
                         }\n\
                       }\n\
                       let z = step(c, se)\n\
                       let w = step(c, nw)\n\
                       if off(z) { } else if empty(z) { home(w) } else { home(z) }\n\
                       if count(pool(me)) == 0 { win me }\n\
                     }\n\
                     on no moves { pass }";
    out.push(("home arms".into(), crate::game_text(home_arms).expect("home arms game")));
    // Statements, then `if` / `else if` chains with decisions inside
    // (passes 36 and 46: the statements and the first two tests as one
    // op): a chain of three tests without an `else`, so the third stays a
    // test of its own; a chain of two with an `else`; tests that read the
    // position the statements just changed. And two shapes pass 46 must
    // leave alone: an `if` without `else` followed by another `if` (the
    // first's branch runs on into the second test), and an `else` that
    // begins with a `while` (its test is also where each round goes back).
    let else_ifs = "players A, B\nboard square 3 by 3\npiece Stone\npiece Mark\n\
                    var score per player = 0\n\
                    turn {\n\
                      choose c in cells where empty(c)\n\
                      place Stone at c\n\
                      score(me) += 1\n\
                      if size(pieces(me)) >= 4 { choose d in pieces(me) as \"lift\"\n remove d }\n\
                      else if rank(c) == 2 { choose e in cells where empty(e) as \"mark\"\n place Mark at e }\n\
                      else if file(c) == 3 { either \"up\" { score(me) += 2 } or \"down\" { score(me) -= 1 } }\n\
                      score(me) += 1\n\
                      if rank(c) == 1 { choose f in cells where empty(f) as \"more\"\n place Stone at f }\n\
                      else if score(me) >= 9 { choose g in pieces(opponent) as \"take\"\n remove g }\n\
                      else { choose h in cells where empty(h) as \"else\" }\n\
                      if score(me) >= 12 { win me }\n\
                      score(me) += 1\n\
                      if file(c) == 1 { choose k in cells where empty(k) as \"left\"\n place Mark at k }\n\
                      if rank(c) == 3 { choose m in pieces(me) as \"top\"\n remove m }\n\
                      score(me) -= 1\n\
                      if file(c) == 2 { choose n in cells where empty(n) as \"mid\"\n place Mark at n }\n\
                      else { while score(me) < 6 { choose q in cells where empty(q) as \"pad\"\n place Mark at q\n score(me) += 3 } }\n\
                    }\n\
                    on no moves { pass }";
    out.push(("else ifs".into(), crate::game_text(else_ifs).expect("else ifs game")));
    // Runs of three and of four statements (`effect::seq` writes them
    // out) whose first statement may end the run: a `require` that
    // fails, a `win` after which nothing else runs.
    let sequences = "players A, B\nboard square 3 by 3\npiece Stone\npiece Mark\n\
                     turn {\n\
                       choose c in cells where empty(c)\n\
                       require file(c) != 2\n\
                       place Stone at c\n\
                       if size(pieces(me)) >= 4 { win me }\n\
                       choose d in cells where empty(d) as \"mark\"\n\
                       if size(pieces(opponent)) >= 3 { win me }\n\
                       place Mark at d\n\
                       remove d\n\
                       place Stone at d\n\
                     }\n\
                     on no moves { pass }";
    out.push(("sequences".into(), crate::game_text(sequences).expect("sequences game")));
    // `if` / `else if` chains over one cell's state (pass 29) in three
    // orders, with and without a final `else`, about cells off the board,
    // empty and taken.
    let switches = "players A, B\nboard square 3 by 3\npiece Stone\nvar score per player = 0\n\
                    turn {\n\
                      choose c in cells where empty(c)\n\
                      place Stone at c\n\
                      let b = step(c, n)\n\
                      if off(b) { score(me) += 1 } else if empty(b) { score(me) += 2 } else { score(me) += 4 }\n\
                      let e = step(c, e)\n\
                      if occupied(e) { score(me) += 8 } else if off(e) { score(me) += 16 }\n\
                      if empty(b) { place Stone at b } else if occupied(b) { remove b } else if off(b) { score(me) += 32 }\n\
                      if score(me) >= 60 { win me }\n\
                    }\n\
                    on no moves { pass }";
    out.push(("switches".into(), crate::game_text(switches).expect("switches game")));
    // Counts of zones (the mover's, a shared one) compared with constants
    // on either side and read as words: read in place (`expr::Counted`);
    // an ordered zone's count, its sequence's length read in place.
    let counts = "players A, B\nboard square 3 by 3\npiece Stone\npiece Pebble\n\
                  zone pool per player\nzone bag shared\nzone deck shared ordered\n\
                  setup { for p in players { add 3 Stone to pool(p)\n add 2 Pebble to pool(p) }\n add 3 Stone to deck }\n\
                  turn {\n\
                    choose k in pool(me)\n\
                    choose c in cells where empty(c)\n\
                    take k from pool(me)\n\
                    place k at c\n\
                    if 1 < count(deck) and k == Stone { move first(deck) from deck to bag }\n\
                    if count(deck) == 1 and k == Pebble { add Pebble to deck }\n\
                    if k == Pebble and count(pool(me)) >= 3 { add Stone to bag }\n\
                    if 1 < count(bag) { take Stone from bag }\n\
                    let n = count(pool(me)) + count(bag)\n\
                    if 0 == count(bag) and count(pool(me)) == 2 { win me }\n\
                    if n == 3 { win opponent }\n\
                    if count(deck) + count(bag) == 6 { win me }\n\
                  }\n\
                  on no moves { pass }";
    out.push(("counts".into(), crate::game_text(counts).expect("counts game")));
    // `any` line all in one or two occupancy sets (`opt::OccBits`): a
    // fixed player's, a kind's, both, the mover's and a kind's (either
    // order), the mover's alone; as `if`s of one and of two statements
    // (`opt::if_lines`).
    let line_sets = "players A, B\nboard square 4 by 4\npiece Stone\npiece Mark\n\
                     var score per player = 0\n\
                     turn {\n\
                       choose k in [Stone, Mark]\n\
                       choose c in cells where empty(c)\n\
                       place k at c\n\
                       if any l in lines(3): all y in l: owner(y) == A { score(me) += 1\n score(opponent) += 1 }\n\
                       if any l in lines(3): all y in l: kind(y) == Mark { score(me) += 2 }\n\
                       if any l in lines(3): all y in l: owner(y) == B and kind(y) == Stone { score(me) += 4 }\n\
                       if any l in lines(3): all y in l: kind(y) == Stone and owner(y) == me { win me }\n\
                       if any l in lines(4): all y in l: owner(y) == me { win me }\n\
                       if score(me) >= 9 { win opponent }\n\
                     }\n\
                     on no moves { pass }";
    out.push(("line sets".into(), crate::game_text(line_sets).expect("line sets game")));
    // A property of the piece on a cell against a kind's, either way round
    // (`expr::Compiler::compare_words` reads both in place, a table by
    // board code and kind): also of an empty cell, a cell off the board
    // and a kind local holding `none` (each property reading 0), and two
    // different properties.
    let props = "players A, B\nboard square 3 by 3 with 8 neighbours\n\
                 piece Low \"L\" { rank: 1, power: 3 }\npiece Mid \"M\" { rank: 2, power: 1 }\npiece High \"H\" { rank: 3, power: 2 }\n\
                 var score per player = 0\n\
                 turn {\n\
                   choose piece in [Low, Mid, High]\n\
                   choose c in cells where empty(c)\n\
                   place piece at c\n\
                   for d in dirs {\n\
                     let n = step(c, d)\n\
                     let k = kind(step(n, d))\n\
                     if occupied(n) and rank(piece) > rank(kind(n)) { score(me) += 1 }\n\
                     if occupied(n) and rank(kind(n)) >= rank(piece) { score(me) += 3 }\n\
                     if rank(kind(n)) < power(piece) { score(me) += 1 }\n\
                     if power(k) <= rank(kind(n)) { score(me) -= 1 }\n\
                   }\n\
                   if score(me) >= 10 { win me }\n\
                 }\n\
                 on no moves { pass }";
    out.push(("props".into(), crate::game_text(props).expect("props game")));
    // `move a to b` of two cell locals onto any cell: onto a taken one
    // (or its own) the option is not a move (`effect::move_piece`); then
    // `remove e` of any cell: of an empty one, not a move
    // (`effect::remove`).
    let moves = "players A, B\nboard square 3 by 3\npiece Stone\n\
                 turn {\n\
                   choose c in cells where empty(c)\n\
                   place Stone at c\n\
                   choose a in pieces(me) as \"from\"\n\
                   choose b in cells as \"to\"\n\
                   move a to b\n\
                   if size(pieces(me)) >= 4 { win me }\n\
                   choose e in cells as \"lift\"\n\
                   remove e\n\
                 }\n\
                 on no moves { pass }";
    out.push(("moves".into(), crate::game_text(moves).expect("moves game")));
    // `place K at x` of a cell local that may be taken or off the board
    // (the step north of the top row): those options are not moves.
    let place = "players A, B\nboard square 3 by 3\npiece Stone\n\
                 turn {\n\
                   choose c in cells\n\
                   let d = step(c, n)\n\
                   either \"here\" { place Stone at c } or \"north\" { place Stone at d }\n\
                   if size(pieces(me)) >= 3 { win me }\n\
                 }\n\
                 on no moves { pass }";
    out.push(("place".into(), crate::game_text(place).expect("place game")));
    out.push(("touching".into(), crate::game_text(TOUCHING).expect("touching game")));
    out.push(("chain".into(), crate::game_text(&chain("can(a)", "can(a)")).expect("chain game")));
    // The same loop whose condition does not ask for options (pass 25
    // must not fire): a group of two with no empty cell next to it makes
    // the turn fail, it does not end the loop.
    out.push((
        "chain (no options asked)".into(),
        crate::game_text(&chain("size(a) == 2", "size(a) == 2")).expect("chain game"),
    ));
    // A graph board whose links are partly without a direction and
    // partly one-way: `touches`, `neighbours` and groups follow every
    // link, `step` only the named ones.
    let graph = "players A, B\nboard graph {\n\
                   points p1 p2 p3 p4 p5 p6 p7\n\
                   links e: p1-p2-p3\n\
                   links p3-p4-p5\n\
                   links n/s: p5-p6-p7-p1\n\
                   lines p1 p2 p3, p5 p6 p7\n\
                 }\npiece Stone\nvar score per player = 0\n\
                 turn {\n\
                   choose c in cells where empty(c) and (count g in groups(next(me)) where touches(g, c)) <= 1\n\
                   place Stone at c\n\
                   score(me) += count g in groups(me) where any h in groups(next(me)): touches(g, h)\n\
                   score(me) += count x in neighbours(c) where occupied(x)\n\
                   if occupied(step(c, e)) { score(me) += 1 }\n\
                   score(me) += size(group(c)) + size(neighbours(group(c))) % 2\n\
                   score(me) += count x in ray(c, n) where occupied(x)\n\
                   if any l in lines(3): all y in l: owner(y) == me { score(me) += 2 }\n\
                   if (count x in cells: empty(x)) <= 1 {\n\
                     if score(me) > score(next(me)) { win me } else { draw }\n\
                   }\n\
                 }";
    out.push(("graph".into(), crate::game_text(graph).expect("graph game")));
    // Groups, shapes and lines on boards of other kinds and of more than
    // 64 cells (two words per set).
    let shapes = "players A, B\nboard BOARD\npiece Stone\npiece Rock\nvar score per player = 0\n\
                  turn {\n\
                    choose c in cells where empty(c) and (count g in groups(me) where touches(g, c)) <= 2\n\
                    either \"stone\" { place Stone at c } or \"rock\" { place Rock at c }\n\
                    let g = group(c)\n\
                    score(me) += count h in groups(next(me)) where touches(g, h) and same_shape(g, h)\n\
                    score(me) += size(collect h in groups(next(me)) where touches(g, h): h) % 3\n\
                    score(me) += count y in g where kind(y) == Rock\n\
                    if any l in lines(3): all y in l: owner(y) == me { score(me) += 1 }\n\
                    score(me) += (count x in neighbours(g) where empty(x)) % 2\n\
                    if size(g) >= 5 { win me }\n\
                    if (count x in cells: empty(x)) == 0 { draw }\n\
                  }";
    for board in ["square 9 by 8 with 8 neighbours", "square 6 by 5", "hex 5 by 4", "hexhex 6"] {
        let text = shapes.replace("BOARD", board);
        out.push((format!("shapes on {board}"), crate::game_text(&text).expect("shapes game")));
    }
    // Every quantifier over lines with every inner quantifier, with and
    // without a filter, and decisions among lines (lines as shifts on a
    // square board).
    let lines = "players A, B\nboard square 5 by 4 with 8 neighbours\npiece Stone\npiece Rock\n\
                 var score per player = 0\n\
                 turn {\n\
                   choose c in cells where empty(c)\n\
                   either \"stone\" { place Stone at c } or \"rock\" { place Rock at c }\n\
                   score(me) += (count l in lines(3): all y in l: owner(y) == me) % 3\n\
                   score(me) += (count l in lines(3): any y in l where occupied(y): kind(y) == Rock) % 2\n\
                   score(me) += (count l in lines(2): none y in l: owner(y) == me) % 2\n\
                   if none l in lines(4): all y in l where occupied(y): owner(y) != me { score(me) += 1 }\n\
                   if all l in lines(2): any y in l: empty(y) { score(me) += 1 }\n\
                   if any l in lines(3): none y in l where empty(y): kind(y) == Stone { score(me) += 1 }\n\
                   if all l in lines(3): all y in l where occupied(y): kind(y) == Rock { score(me) += 1 }\n\
                   if all l in lines(2): none y in l: kind(y) == Rock { score(me) += 1 }\n\
                   if none l in lines(3): any y in l where occupied(y): owner(y) == me { score(me) += 1 }\n\
                   if none l in lines(4): none y in l: empty(y) { score(me) += 1 }\n\
                   if any l in lines(2): all y in l: owner(y) == me {\n\
                     choose l in lines(2) where all y in l: owner(y) == me as \"pair\"\n\
                     score(me) += 1\n\
                   }\n\
                   if any l in lines(3): any y in l where occupied(y): kind(y) == Rock and owner(y) == me {\n\
                     choose m in lines(3) where any y in m where occupied(y): kind(y) == Rock and owner(y) == me as \"rocks\"\n\
                     if none y in m: empty(y) { score(me) += 2 }\n\
                   }\n\
                   if score(me) >= 30 { win me }\n\
                   if (count x in cells: empty(x)) == 0 { draw }\n\
                 }";
    out.push(("lines".into(), crate::game_text(lines).expect("lines game")));
    // Decisions among placements with `all`, `any` and `none` over their
    // cells, with and without a filter (listed from the cells' tables).
    let tiles = "players A, B\nboard square 5 by 4\n\
                 piece Dom \"d\" covers (0, 0) (1, 0)\n\
                 piece Tri \"t\" covers (0, 0) (1, 0) (1, 1)\n\
                 zone supply per player\n\
                 setup { for p in players { add 3 Dom to supply(p)  add 2 Tri to supply(p) } }\n\
                 turn {\n\
                   choose t in supply(me)\n\
                   either \"a\" {\n\
                     choose p in placements(t) where all x in p: empty(x)\n\
                     take t from supply(me)\n\
                     place t at p\n\
                   } or \"b\" {\n\
                     choose p in placements(t) where any x in p where empty(x): rank(x) == 1\n\
                     take t from supply(me)\n\
                     place t at p\n\
                   } or \"c\" {\n\
                     choose p in placements(t) where none x in p: occupied(x) and owner(x) != me\n\
                     take t from supply(me)\n\
                     place t at p\n\
                   }\n\
                   if count(supply(me)) == 0 { win me }\n\
                 }\n\
                 on no moves { pass }";
    out.push(("tiles".into(), crate::game_text(tiles).expect("tiles game")));
    // Questions about every group that only the groups new pieces meet
    // can change (pass 13): `all`, `any` and `none`, with and without a
    // filter, after one or two placements and after a piece of the
    // mover's is lifted (the turn's first pieces are then not all there),
    // of the mover's groups and the other player's. A lift that leaves a
    // pair is illegal, and so is a placement that makes one.
    let snakes = "players A, B\nboard BOARD\npiece Stone\nvar score per player = 0\n\
                  def links(c, g) = count x in neighbours(c) where contains(g, x)\n\
                  def path(g) = all c in g: links(c, g) <= 2\n\
                  turn {\n\
                    either \"place\" {\n\
                      choose c in cells where empty(c)\n\
                      place Stone at c\n\
                      if ply % 3 == 1 and any x in neighbours(c): empty(x) {\n\
                        choose e in neighbours(c) where empty(e) as \"again\"\n\
                        place Stone at e\n\
                      }\n\
                    } or \"lift\" {\n\
                      require size(pieces(me)) > 3\n\
                      choose r in pieces(me)\n\
                      remove r\n\
                    }\n\
                    require all g in groups(me) where size(g) > 2: path(g)\n\
                    require none g in groups(me): size(g) == 2\n\
                    if all g in groups(me): size(g) <= 3 { score(me) += 1 }\n\
                    if any g in groups(me) where size(g) >= 3: path(g) { score(me) += 2 }\n\
                    if none g in groups(me): size(g) == 4 { score(me) += 4 }\n\
                    if any g in groups(next(me)): size(g) >= 3 { score(me) += 8 }\n\
                    if none g in groups(next(me)) where path(g): size(g) == 3 { score(me) += 16 }\n\
                    if ply >= 80 or (count x in cells: empty(x)) == 0 {\n\
                      if score(me) > score(next(me)) { win me } else { draw }\n\
                    }\n\
                  }\n\
                  on no moves { pass }";
    for board in ["hexhex 4", "square 9 by 8"] {
        let text = snakes.replace("BOARD", board);
        out.push((format!("snakes on {board}"), crate::game_text(&text).expect("snakes game")));
    }
    // Plays that end in a draw from a face-down pile (pass 14): options
    // that stop at the draw unrun while the drawn end is face down, and
    // run when it is known (a buried card) or the pile is empty; one kind
    // known to be in the hand moved out; pieces moved between zones.
    let draw = "players A, B, C\npiece Red\npiece Blue\npiece Green\n\
                zone deck shared ordered hidden\nzone hand per player owner\n\
                zone table per player\nzone heap shared\nvar score per player = 0\n\
                setup {\n\
                  add 4 Red to deck  add 4 Blue to deck  add 3 Green to deck\n\
                  add 40000 Red to heap  shuffle deck\n\
                  for p in players { move first(deck) from deck to hand(p) }\n\
                }\n\
                turn {\n\
                  either \"table\" {\n\
                    choose c in hand(me)\n\
                    move c from hand(me) to table(me)\n\
                  } or \"bury\" {\n\
                    choose c in hand(me)\n\
                    move c from hand(me) to deck\n\
                  } or \"trade\" {\n\
                    choose c in hand(me)\n\
                    move 1 c from hand(me) to heap\n\
                    score(me) += 1\n\
                  }\n\
                  for q in players { move all Green from table(q) to heap }\n\
                  if count(table(me)) == 2 { score(me) += 1 }\n\
                  move last(deck) from deck to hand(next(me))\n\
                  if count(table(me)) >= 4 or score(me) >= 3 { win me }\n\
                }\n\
                on no moves { pass }";
    out.push(("draw".into(), crate::game_text(draw).expect("draw game")));
    // Moves between counted zones whose operands are read in place (a
    // kind local; players constant, `me` or locals; all pieces or a
    // constant count): more pieces than the zone holds, a player local
    // holding `none` (an empty cell's owner), a constant player.
    let transfers = "players A, B\nboard square 2 by 2\npiece Red\npiece Blue\n\
                zone hand per player\nzone pile per player\n\
                setup { add 2 Red to hand(A)  add 1 Blue to hand(A)  add 1 Red to hand(B)  add 2 Blue to hand(B) }\n\
                turn {\n\
                  either \"two\" { choose k in hand(me)  move 2 k from hand(me) to pile(me) }\n\
                  or \"give\" { choose k in hand(me)  move all k from hand(me) to hand(A) }\n\
                  or \"owner\" {\n\
                    choose c in cells\n\
                    choose k in hand(me)\n\
                    let q = owner(c)\n\
                    move 1 k from hand(me) to pile(q)\n\
                    if empty(c) { place Red at c }\n\
                  }\n\
                  or \"back\" { choose k in pile(me)  for q in players { move 1 k from pile(me) to hand(q) } }\n\
                  if count(pile(me)) >= 3 { win me }\n\
                }\n\
                on no moves { draw }";
    out.push(("transfers".into(), crate::game_text(transfers).expect("transfers game")));
    out.push(("drawn".into(), crate::game_text(DRAWN).expect("drawn game")));
    out.push(("touch".into(), crate::game_text(TOUCH).expect("touch game")));
    out.push(("bounded".into(), crate::game_text(BOUNDED).expect("bounded game")));
    out.push(("sizes".into(), crate::game_text(SIZES).expect("sizes game")));
    out.push(("around".into(), crate::game_text(AROUND).expect("around game")));
    out.push(("through".into(), crate::game_text(THROUGH).expect("through game")));
    out.push(("snakes".into(), crate::game_text(SNAKES).expect("snakes game")));
    out.push(("growth".into(), crate::game_text(GROWTH).expect("growth game")));
    // The groups touching a set, by one flood fill (both orders of
    // `touches`, a cell and a set, the mover's and the opponent's groups).
    let touching = "players A, B\nboard square 5 by 5\npiece Stone\n\
                    turn {\n\
                      choose c in cells where empty(c)\n\
                      place Stone at c\n\
                      let mine = collect g in groups(me) where touches(g, c)\n\
                      let theirs = collect g in groups(opponent) where touches(mine, g)\n\
                      if size(theirs) >= 2 and size(theirs) < size(mine) { for y in theirs { remove y } }\n\
                      if size(mine) == 0 and ply % 3 == 0 { remove c }\n\
                      if size(pieces(me)) >= 8 { win me }\n\
                    }\n\
                    on no moves { pass }";
    out.push(("touching".into(), crate::game_text(touching).expect("touching game")));
    out.push(("features".into(), crate::game_text(crate::language::FEATURES).expect("features")));
    out.push(("counted".into(), crate::game_text(COUNTED).expect("counted game")));
    out.push(("locals".into(), crate::game_text(LOCALS).expect("locals game")));
    out.push(("props".into(), crate::game_text(PROPS).expect("props game")));
    out.push(("stepped".into(), crate::game_text(STEPPED).expect("stepped game")));
    out.push(("kind filter".into(), crate::game_text(KIND_FILTER).expect("kind filter game")));
    out.push(("zone walk".into(), crate::game_text(ZONE_WALK).expect("zone walk game")));
    out.push(("ranges".into(), crate::game_text(RANGES).expect("ranges game")));
    out.push(("patterns".into(), crate::game_text(PATTERNS).expect("patterns game")));
    out.push(("solo".into(), crate::game_text(SOLO).expect("solo game")));
    for (name, board, d) in RAY_BOARDS {
        out.push((name.into(), crate::game_text(&rays_on(board, d)).expect("rays game")));
    }
    for (name, board, straight) in ATTACK_BOARDS {
        let g = crate::game_text(&attacks_on(board, straight)).expect("attacks game");
        out.push((name.into(), g));
    }
    for (name, board, d) in FIRST_BOARDS {
        out.push((name.into(), crate::game_text(&firsts_on(board, d)).expect("firsts game")));
    }
    for (name, board, d) in FIRST_BOARDS {
        let name = name.replace("firsts", "guards");
        out.push((name, crate::game_text(&guards_on(board, d)).expect("guards game")));
    }
    for (name, links) in [("looped", LOOPED), ("linked", LINKED)] {
        out.push((name.into(), crate::game_text(&pushed_on_graph(links)).expect("pushed game")));
    }
    out.push((
        "roll again".into(),
        crate::game_text(crate::chance::ROLL_AGAIN).expect("roll again"),
    ));
    out
}

/// Moves counted without a run (`Searcher::counted`): an `either` whose
/// arms begin with a lazy `choose`, a `random` (a chance event, one
/// move), a `choose` followed by a `random` (each option a move that
/// stops at chance) and a `choose` followed by a lazy `choose` (the sum
/// over the first's options); a decision after chance, so the search is
/// not an owned one.
pub const COUNTED: &str = "players A, B\nboard square 3 by 3\npiece Stone\n\
    turn {\n\
      either \"place\" { choose c in cells where empty(c)  place Stone at c }\n\
      or \"roll\" { random r in range(1, 2)\n\
        if r == 2 and (count x in cells: empty(x)) > 0 { choose e in cells where empty(e) as \"extra\"  place Stone at e } }\n\
      or \"pick\" { choose a in cells where empty(a)  random d in range(1, 3)  if d == 3 { place Stone at a } }\n\
      or \"move\" { choose s in pieces(me)  choose t in cells where empty(t)  move s to t }\n\
      if size(pieces(me)) >= 4 { win me }\n\
    }\n\
    on no moves { draw }";

/// Decisions whose options may fail and ask nothing more (pass 15: a
/// playout draws among them), in the same position as options that are
/// moves for certain (the lazy `edge`): a `require`, a `take` from a zone
/// that runs empty, a `for` in the rest of the turn, and `on no moves`.
pub const DRAWN: &str = "players A, B\nboard square 4 by 4\npiece Stone\npiece Wall\n\
    zone hand per player\n\
    setup { for p in players { add 2 Wall to hand(p) } }\n\
    turn {\n\
      either \"stone\" {\n\
        choose c in cells where empty(c)\n\
        place Stone at c\n\
        require (count x in neighbours(c) where owner(x) == me) <= 1\n\
        for d in dirs {\n\
          if owner(step(c, d)) == next(me) and kind(step(c, d)) == Stone { remove step(c, d) }\n\
        }\n\
      } or \"wall\" {\n\
        choose w in cells where empty(w) and rank(w) == 1\n\
        take Wall from hand(me)\n\
        place Wall at w\n\
      } or \"edge\" {\n\
        choose e in cells where empty(e) and file(e) == 1\n\
        place Stone at e\n\
      }\n\
      if size(pieces(me)) >= 7 { win me }\n\
    }\n\
    on no moves { pass }";

/// Quantifiers over groups whose filter asks `touches` (pass 16, the
/// touch guard), both ways round, wanting a non-empty and an empty
/// collection, on a board of four neighbours.
pub const TOUCH: &str = "players A, B\nboard square 5 by 5\npiece Stone\n\
    def near(s) = collect b in groups(opponent) where touches(s, b) and size(b) >= 2: b\n\
    turn {\n\
      choose c in cells where empty(c)\n\
      place Stone at c\n\
      if size(near(group(c))) > 0 {\n\
        for y in near(group(c)) { remove y }\n\
      }\n\
      if size(collect b in groups(me) where size(b) >= 3 and touches(b, pieces(opponent)): b) == 0\n\
         and size(pieces(me)) >= 7 { win me }\n\
    }\n\
    on no moves { pass }";

/// Collections over groups whose filter holds only when the element
/// touches a group of another player (pass 43, the touch bound: the walk
/// is left out when no pieces of the two players touch), in the forms the
/// pass takes — `size(...) > 0`, `1 <= size(...)` and `0 != size(...)`
/// of a collection inside `def`s, an `any` whose body asks `touches` —
/// over the mover's, the opponent's and a fixed player's groups, in a
/// `collect` and in `any`, `none` and `all` (whose filter, not body, may
/// bound it), on a board of four neighbours. What they find removes
/// pieces, wins or loses, so a walk left out where it would have found
/// something changes the moves.
pub const BOUNDED: &str = "players A, B\nboard square 5 by 5\npiece Stone\n\
    def foes(a) = collect b in groups(opponent) where touches(a, b) and size(b) <= size(a): b\n\
    def big(a) = any b in groups(opponent) where size(b) >= 2: touches(b, a)\n\
    turn {\n\
      choose c in cells where empty(c)\n\
      place Stone at c\n\
      let eat = collect a in groups(me) where size(foes(a)) > 0: foes(a)\n\
      for y in eat { remove y }\n\
      if size(collect a in groups(me) where 1 <= size(foes(a)) or big(a): a) >= 5 { win me }\n\
      if size(collect a in groups(opponent) where 0 != size(collect b in groups(A) where touches(b, a): b): a) >= 6 { lose me }\n\
      if ply % 4 == 1 and (any a in groups(me) where size(a) >= 2: size(foes(a)) > 0) { remove c }\n\
      if ply % 4 == 2 and (none a in groups(opponent): any b in groups(me): touches(b, a)) { remove c }\n\
      if all a in groups(me) where size(foes(a)) > 0: size(a) >= 2 { if ply % 4 == 3 { remove c } }\n\
      if size(pieces(me)) >= 8 { win me }\n\
    }\n\
    on no moves { pass }";

/// A set's size compared with a constant or a word local, read in the
/// comparison's closure (`group(c)` of a cell local in place): either way
/// round, with `==`, `<`, `<=`, `>`, `>=`, of a group, of an empty cell's
/// group (size 0) and of other sets, on a board of four neighbours.
pub const SIZES: &str = "players A, B\nboard square 4 by 4\npiece Stone\n\
    turn {\n\
      let k = 2 + ply % 3\n\
      choose c in cells where empty(c)\n\
      place Stone at c\n\
      if size(group(c)) > k { remove c }\n\
      if 3 <= size(group(c)) and size(neighbours(c)) < 4 { remove c }\n\
      if size(group(c)) == 0 and k >= size(pieces(opponent)) { place Stone at c }\n\
      if k < size(pieces(me)) and 2 == size(group(c)) { win me }\n\
      if size(pieces(me)) >= 6 { win me }\n\
    }\n\
    on no moves { pass }";

/// A `require` about the cells around a chosen placement, after a `take`
/// and the placement (pass 17, asked as the options are listed): `any`,
/// `none` and `all` with filters and bodies, `not`, `and`, `or`, a free
/// cell next to the tile, on a board of four neighbours; and a count of the cells where one of two
/// occupancy tests holds (one closure for both, `Pred::into_fn`).
pub const AROUND: &str = "players A, B\nboard square 5 by 5\n\
    piece Dot covers (0, 0)\npiece Bar covers (0, 0) (1, 0)\npiece Ell covers (0, 0) (1, 0) (0, 1)\n\
    zone supply per player\n\
    setup { for p in players { add 4 Dot to supply(p)  add 3 Bar to supply(p)  add 2 Ell to supply(p) } }\n\
    turn {\n\
      choose t in supply(me)\n\
      choose cover in placements(t) where all x in cover: empty(x)\n\
      take t from supply(me)\n\
      place t at cover\n\
      require ((none x in neighbours(cover): occupied(x))\n\
               or (any x in neighbours(cover) where owner(x) == me: kind(x) != Dot))\n\
          and not (any x in neighbours(cover): occupied(x) and owner(x) != me and kind(x) == Ell)\n\
          and (all x in neighbours(cover) where occupied(x): owner(x) == me or kind(x) != Bar)\n\
          and (any x in neighbours(cover): empty(x))\n\
      if size(pieces(me)) >= 9 or (count x in cells where empty(x) or kind(x) == Ell) <= 8 { win me }\n\
    }\n\
    on no moves { pass }";

/// Locals read after a decision (pass 35 copies for each option only the
/// locals in scope there, and again for each option only those a run may
/// write; debug builds fill the others with junk): a `let` before the
/// first decision and one assigned after it (`t`, which the `lose` reads:
/// it holds only if `t` kept the value of another option's run), a
/// decision in an action, which reads the action's arguments after it
/// (`k`, `c`), decisions in `for`s that run as ops (their cursors and
/// elements; after `e` the loop goes on to rounds that read `i`), and a
/// decision in a `while` with a `let` in its body (`u`).
pub const LOCALS: &str =
    "players A, B\nboard square 3 by 3\npiece Stone\npiece Ring\nzone hand per player\n\
    setup { add 4 Stone to hand(A)  add 4 Stone to hand(B) }\n\
    action put(k, c) {\n\
      choose d in cells where empty(d) and d != c as \"+{}\"\n\
      if k == Ring and rank(d) != rank(c) { place k at d } else { place Stone at d }\n\
    }\n\
    turn {\n\
      let h = count(hand(me))\n\
      let t = 0\n\
      choose a in cells where empty(a)\n\
      t = t + 1\n\
      place Stone at a\n\
      take Stone from hand(me)\n\
      for k in kinds where h % 2 == 0 and rank(a) == 2 {\n\
        put(k, step(a, n))\n\
        take Stone from hand(me)\n\
      }\n\
      for i in range(1, 3) where rank(a) == 3 {\n\
        if i == 1 {\n\
          choose e in cells where empty(e) as \"/{}\"\n\
          place Ring at e\n\
        }\n\
        if i == 2 and h > 2 { take Stone from hand(me) }\n\
      }\n\
      while t < 3 and rank(a) == 1 {\n\
        let u = t\n\
        either \"more\" { t = u + 1 } or \"stop\" { t = u + 5 }\n\
      }\n\
      if t == 6 and h == 1 { win me }\n\
      if t > 1 and rank(a) == 3 { lose me }\n\
      if size(pieces(me)) >= 5 { win me }\n\
    }\n\
    on no moves { draw }";

/// A property of the piece on a cell compared with a number (pass 37):
/// in a `choose`'s filter, where 0 — an empty cell's — passes (`<= 1`),
/// so that occupied options fail at the `place`, and of the cell a step
/// away, which is `none` on the top row (its piece's property is 0 too);
/// folded into the guard of
/// `for d in dirs` with `occupied(n)`, against a kind local a round
/// assigns (`k`, read again after every round that ran: after a push it
/// is `Odd`, lighter than every piece, and no later round pushes), against one no
/// round assigns, operands swapped (`piece`), and against a constant with
/// more of the condition after it; in an `all` over cells; a kind whose
/// property is 0 (`Odd`), like an empty cell's. Then a cell switch whose
/// `empty(far)` arm moves from a cell that may be empty or off the board
/// (pass 39: the move fails there, and the option is no move).
pub const PROPS: &str = "players A, B\nboard square 4 by 4 with 8 neighbours\n\
    piece Small \"s\" { weight: 1 }\npiece Big \"b\" { weight: 3 }\npiece Odd \"o\" { weight: 0 }\n\
    zone pool per player\n\
    setup { for p in players { add 3 Small to pool(p)  add 2 Big to pool(p)  add 2 Odd to pool(p) } }\n\
    turn {\n\
      choose piece in pool(me)\n\
      choose c in cells where weight(kind(c)) <= 1 and (weight(piece) != 0 or rank(c) < 3 or weight(kind(step(c, n))) == 0)\n\
      take piece from pool(me)\n\
      if occupied(c) { remove c }\n\
      place piece at c\n\
      let k = piece\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if occupied(n) and weight(kind(n)) < weight(k) {\n\
          let b = step(n, d)\n\
          if off(b) { add kind(n) to pool(owner(n))  remove n } else if empty(b) { move n to b }\n\
          k = Odd\n\
        }\n\
      }\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if occupied(n) and weight(piece) >= weight(kind(n)) and owner(n) != me {\n\
          if weight(kind(n)) == 0 { remove n }\n\
        }\n\
      }\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if occupied(n) and weight(kind(n)) == 3 and rank(n) > 1 {\n\
          if owner(n) != me { add Small to pool(me) }\n\
        }\n\
      }\n\
      let y = step(c, e)\n\
      let far = step(step(c, n), n)\n\
      if off(far) { pass } else if empty(far) { move y to far }\n\
      if size(pieces(me)) >= 5 and all x in pieces(me): weight(kind(x)) > 0 { win me }\n\
    }\n\
    on no moves { draw }";

/// Rounds over the directions that are `let b = step(n, d)` and a cell
/// switch on `b` (pass 40): a push whose branches read neither `b` nor
/// `d` (they are then not written), one whose branch reads `b` (placing
/// there), and one whose guard lets `none` in (`not occupied(n)`: `b` is
/// then `none`, off the board) and whose branch reads `d`. Before them, a
/// loop that may remove the piece of another neighbour, after which the
/// guard must be asked again (else the round of `nw`, the last
/// direction, would move from an emptied cell); the two pushes after it
/// write only `n` and `b`, so their guard is not asked again after a
/// round (pass 42).
pub const STEPPED: &str = "players A, B\nboard square 4 by 4 with 8 neighbours\n\
    piece Stone \"s\" { weight: 1 }\npiece Rock \"r\" { weight: 2 }\n\
    zone pool per player\n\
    setup { for p in players { add 4 Stone to pool(p)  add 3 Rock to pool(p) } }\n\
    turn {\n\
      choose piece in pool(me)\n\
      choose c in cells where empty(c)\n\
      take piece from pool(me)\n\
      place piece at c\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if occupied(n) and weight(kind(n)) == 1 {\n\
          let b = step(n, d)\n\
          if off(b) { pass } else if empty(b) { move n to b } else if occupied(step(c, nw)) { remove step(c, nw) }\n\
        }\n\
      }\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if occupied(n) and weight(kind(n)) <= weight(piece) {\n\
          let b = step(n, d)\n\
          if off(b) { add kind(n) to pool(owner(n))  remove n } else if empty(b) { move n to b }\n\
        }\n\
      }\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if occupied(n) and weight(kind(n)) == 2 {\n\
          let b = step(n, d)\n\
          if empty(b) { place Stone of owner(n) at b } else if off(b) { pass }\n\
        }\n\
      }\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if not occupied(n) {\n\
          let b = step(n, d)\n\
          if off(b) { if d == ne or d == w { add Stone to pool(me) } } else if occupied(b) { pass }\n\
        }\n\
      }\n\
      if size(pieces(me)) >= 7 { win me }\n\
    }\n\
    on no moves { draw }";

/// A `for` over the players of a `for` over each one's zone's kinds
/// whose filter is a quantifier over a zone's pieces in kind-set form
/// (pass 41): where the loop moves pieces into the zone the filter reads
/// (`row`), every round reads it again (a `Green` passes once a `Red` has
/// joined the row in the same loop); where it does not (a `def` called
/// with two locals, the loop's and the chosen kind, both compared with
/// the row's pieces), the zone is read once per loop; where the filter is
/// `any` with a condition of the loop's local alone (the third loop: an
/// order, not a symmetric relation, and a filter on the row's pieces),
/// the kinds that pass are found once per loop from the row's kinds.
pub const KIND_FILTER: &str = "players A, B\n\
    piece Red \"r\" { t: 1 }\n\
    piece Blue \"b\" { t: 2 }\n\
    piece Green \"g\" { t: 3 }\n\
    piece Pink \"p\" { t: 1 }\n\
    zone hand per player\n\
    zone row shared ordered\n\
    zone out shared\n\
    def matched(a, b) = any n in row: t(n) == t(a) and t(n) != t(b)\n\
    setup {\n\
      for p in players { add 4 Red to hand(p)  add 3 Blue to hand(p)  add 2 Green to hand(p)  add 4 Pink to hand(p) }\n\
      add Green to row\n\
    }\n\
    turn {\n\
      choose k in hand(me)\n\
      move k from hand(me) to out\n\
      for q in players {\n\
        for j in hand(q) where any n in row: t(n) != t(j) {\n\
          move j from hand(q) to row\n\
        }\n\
      }\n\
      for q in players {\n\
        for j in hand(q) where matched(j, k) {\n\
          move j from hand(q) to out\n\
        }\n\
      }\n\
      for q in players {\n\
        for j in hand(q) where any n in row where t(n) != 1: t(n) < t(j) {\n\
          move j from hand(q) to out\n\
        }\n\
      }\n\
      add Blue to hand(next(me))\n\
      add Pink to hand(next(me))\n\
      if count(out) >= 30 { win me }\n\
    }\n\
    on no moves { draw }";

/// Pass 48's first number of a range: `min` (answers at the low end and
/// in the middle) and `max` (at the top end, or 0 where the bounds read
/// from the position make the range empty), in a `choose`'s filter, a
/// `for`'s filter and an index; and an empty range without a filter.
/// (A filter that fails everywhere: `robust`'s step-limit test.)
pub const RANGES: &str = "players A, B\n\
    board square 5 by 5 with 8 neighbours\n\
    piece Stone\n\
    def reach(c, d) = min k in range(1, 6) where owner(ray(c, d)[k]) != opponent: k\n\
    def far(c) = max k in range(rank(c), file(c) + 2) where empty(ray(c, n)[k]) or off(ray(c, n)[k]): k\n\
    turn {\n\
      choose c in cells where empty(c) and reach(c, ne) + far(c) != 4\n\
      place Stone at c\n\
      for d in dirs where reach(c, d) >= 2 and owner(ray(c, d)[reach(c, d)]) == me {\n\
        change ray(c, d)[1] to me\n\
      }\n\
      if (max k in range(1, 0): k) == 0 and size(pieces(me)) >= 9 { win me }\n\
    }\n\
    on no moves { draw }";

/// Pass 49's cell patterns: sets made from one cell local alone (a
/// `def` of steps, asked of the chosen cell and of a cell stepped to,
/// which may be `none`) and from a cell and a player local (an `if` on
/// the player), as a quantifier's domain, a `for`'s collection and an
/// argument of `minus`.
pub const PATTERNS: &str = "players A, B\n\
    board square 5 by 5 with 8 neighbours\n\
    piece Stone\n\
    def jumps(x) = [step(step(x, n), ne), step(step(x, e), se), step(x, sw)]\n\
    def guard(x, p) = if p == A then [step(x, n), step(x, s)] else [step(x, e), step(x, w)]\n\
    turn {\n\
      choose c in cells where empty(c) and (count y in jumps(c): occupied(y)) <= 1\n\
      place Stone at c\n\
      for p in players {\n\
        for y in guard(step(c, n), p) where occupied(y) and owner(y) != me { change y to me }\n\
      }\n\
      if size(minus(jumps(step(c, s)), pieces(opponent))) == 0 and size(pieces(me)) > 6 { win me }\n\
    }\n\
    on no moves { draw }";

/// A `for` over a counted zone's kinds with a decision inside (the
/// machine's own walk, `machine::next_elem`): the kinds the zone holds
/// in order, some of them with more than one piece, and the rounds after
/// a kind has left the zone.
pub const ZONE_WALK: &str = "players A, B\n\
    piece Red \"r\"\n\
    piece Blue \"b\"\n\
    piece Green \"g\"\n\
    zone hand per player\n\
    zone out shared\n\
    setup { for p in players { add 2 Red to hand(p)  add Blue to hand(p)  add 3 Green to hand(p) } }\n\
    turn {\n\
      for k in hand(me) {\n\
        choose n in range(0, 1)\n\
        if n == 1 { move k from hand(me) to out }\n\
      }\n\
      if count(out) >= 8 { win me }\n\
    }\n\
    on no moves { draw }";

/// Pass 42's boards where the guard must still be asked after every
/// round: a push (pass 40) on a graph board of four points, its links
/// `links`. [`LOOPED`]: the cell beyond a neighbour is another neighbour
/// (from `c1`, `e` then `e` again is `c3`, `w` of `c1`, a later
/// direction: a push east onto `c3` makes the `w` round find a piece
/// there). [`LINKED`]: two directions lead to one point (from `c1`, `e`
/// and `n` are both `c2`: a push east empties the `n` round's cell).
fn pushed_on_graph(links: &str) -> String {
    format!("players A, B\nboard graph {{\n points c1, c2, c3, c4\n {links}\n}}\n{PUSH_TURN}")
}

/// Pass 50's `last(upto(ray(c, d)))` (the first piece along a ray, or its
/// last cell, or `none` for the empty ray of `none`): with the direction
/// a quantifier's or a loop's local and a constant `d`, from a cell and
/// from `none` (a step off the board), on boards whose rays run up or
/// down the cell ids (square, hexhex) and on a graph board whose `e`/`w`
/// line does not (`c3-c1-c4-c2-c5`: the scan walks it in order).
fn rays_on(board: &str, d: &str) -> String {
    format!(
        "players A, B\n{board}\npiece Stone\n\
         def stop(c, d) = last(upto(ray(c, d)))\n\
         turn {{\n\
           choose c in cells where empty(c) and (count d in dirs: occupied(stop(c, d))) <= 2\n\
           place Stone at c\n\
           for d in dirs {{\n\
             let x = stop(c, d)\n\
             if occupied(x) and owner(x) != me and stop(step(c, d), d) != none {{ change x to me }}\n\
           }}\n\
           if owner(stop(c, {d})) == opponent {{ remove c }}\n\
           if size(pieces(me)) >= 6 {{ win me }}\n\
         }}\n\
         on no moves {{ draw }}"
    )
}

/// The boards of [`rays_on`]: a name, the board and a direction.
const RAY_BOARDS: [(&str, &str, &str); 4] = [
    ("rays square", "board square 4 by 4 with 8 neighbours", "n"),
    // 100 cells: sets of two words.
    ("rays large", "board square 10 by 10 with 8 neighbours", "s"),
    ("rays hexhex", "board hexhex 3", "w"),
    ("rays graph", "board graph {\n points c1, c2, c3, c4, c5\n links e/w: c3-c1-c4-c2-c5\n links n/s: c1-c2\n}", "e"),
];

/// Pass 51 is used on the attack boards with a cell whose every step is
/// on the board (the squares' centres, the hexhex's): eight times, for
/// `sees` in the `choose`'s filter (compiled twice there, as the filter's
/// set form and as its walk) and after the placement, `open`, `rooky`,
/// `quiet`, `walled` and `rooks`; the graph board has no such cell and
/// keeps the walk.
#[test]
fn the_attack_boards_use_the_ray_quantifier_where_they_can() {
    for (name, board, straight) in ATTACK_BOARDS {
        let g = crate::game_text(&attacks_on(board, straight)).expect("attacks game");
        let n = g.program().notes().iter().filter(|n| n.starts_with("ray quantifier")).count();
        assert_eq!(n, if name.ends_with("graph") { 0 } else { 8 }, "{name}");
    }
}

/// Pass 51's quantifier over the first piece along each ray: with a
/// player local (`sees`, asked of the opponent in a `choose`'s filter and
/// of the mover after the placement, its rays' pieces either side's,
/// either kind, in a straight direction or not), one that holds where a
/// ray ends empty or at `none` (`open`, the piece `none`), one without a
/// player (`rooky`), and the other quantifiers: `none` with a filter
/// (`quiet`), `all` (`walled`, which holds for a whole word of pieces in
/// some directions) and `count` (`rooks`). On a graph board no cell has a neighbour
/// in every direction, so the pass gives up and the walk runs
/// ([`the_attack_boards_use_the_ray_quantifier_where_they_can`] says
/// which boards use it).
pub fn attacks_on(board: &str, straight: &str) -> String {
    format!(
        "players A, B\n{board}\npiece Rook \"R\"\npiece Bishop \"B\"\n\
         def stop(c, d) = last(upto(ray(c, d)))\n\
         def straight = [{straight}]\n\
         def sees(x, p) = any d in dirs: owner(stop(x, d)) == p\n\
           and ((kind(stop(x, d)) == Rook and d in straight) or (kind(stop(x, d)) == Bishop and not (d in straight)))\n\
         def open(x) = any d in dirs: owner(stop(x, d)) == none\n\
         def rooky(x) = any d in dirs: kind(stop(x, d)) == Rook\n\
         def quiet(x, p) = none d in dirs where owner(stop(x, d)) == p\n\
         def walled(x) = all d in dirs: occupied(stop(x, d)) or kind(stop(x, d)) == Bishop\n\
         def rooks(x, p) = count d in dirs: owner(stop(x, d)) == p and kind(stop(x, d)) == Rook\n\
         turn {{\n\
           choose c in cells where empty(c) and not sees(c, opponent)\n\
           choose k in kinds\n\
           place k at c\n\
           if sees(c, me) {{ remove c }}\n\
           if occupied(c) and not open(c) {{ win me }}\n\
           if rooky(c) and size(pieces(me)) >= 4 {{ win me }}\n\
           if occupied(c) and quiet(c, opponent) and walled(c) {{ change c to Rook }}\n\
           if rooks(c, opponent) >= 2 {{ lose me }}\n\
         }}\n\
         on no moves {{ draw }}"
    )
}

/// The boards of [`attacks_on`]: a name, the board and its straight
/// directions.
pub const ATTACK_BOARDS: [(&str, &str, &str); 4] = [
    ("attacks square", "board square 5 by 5 with 8 neighbours", "n, e, s, w"),
    // 81 cells: sets of two words.
    ("attacks large", "board square 9 by 9 with 8 neighbours", "n, e, s, w"),
    ("attacks hexhex", "board hexhex 3", "e, w"),
    ("attacks graph", "board graph {\n points c1, c2, c3, c4, c5\n links e/w: c3-c1-c4-c2-c5\n links n/s: c1-c2\n}", "e, w"),
];

/// Pass 52's first number along a line, `min k in range(a, b) where
/// F(L[k]): k` (or `max`): going up from 1 where `F` holds at `none` (past
/// the ray's end: `run`, Othello's bracket), down from past the end to
/// below 1 (`back`, `edge`), up from below 1 (`up`), where `F` does not
/// hold at `none` (`low`), over a line local (`gap`, each line of three);
/// the bounds constant or read from the position. `mixed` reads `k`
/// outside `L[k]` and keeps pass 48's walk. On a square board, a 10 by 10
/// one (sets of two words), a hexhex board and a graph board whose `e`/`w`
/// line runs against the cell ids.
fn firsts_on(board: &str, d: &str) -> String {
    format!(
        "players A, B\n{board}\npiece Stone \"S\"\npiece Rock \"R\"\n\
         def run(c, d) = min k in range(1, 12) where owner(ray(c, d)[k]) != opponent: k\n\
         def back(c, d) = max k in range(-1, 4) where not occupied(ray(c, d)[k]): k\n\
         def edge(c, d) = max k in range(-2, ply % 4 - 1) where empty(ray(c, d)[k]) or off(ray(c, d)[k]): k\n\
         def up(c, d) = min k in range(ply % 3 - 1, 4) where off(ray(c, d)[k]) or owner(ray(c, d)[k]) == opponent: k\n\
         def low(c, d) = min k in range(1 - ply % 3, 3) where kind(ray(c, d)[k]) == Rock or owner(ray(c, d)[k]) == me: k\n\
         def mixed(c, d) = min k in range(1, 6) where owner(ray(c, d)[k]) == me and k > 1: k\n\
         def gap(l) = min i in range(1, 3) where empty(l[i]): i\n\
         turn {{\n\
           choose c in cells where empty(c) and back(c, {d}) != 2\n\
           choose k in kinds\n\
           place k at c\n\
           for d in dirs where run(c, d) >= 2 and owner(ray(c, d)[run(c, d)]) == me {{\n\
             let x = step(c, d)\n\
             while owner(x) == opponent {{\n\
               change x to me\n\
               x = step(x, d)\n\
             }}\n\
           }}\n\
           if low(c, {d}) < 1 and mixed(c, {d}) > 0 {{ remove c }}\n\
           if occupied(c) and edge(c, {d}) + up(c, {d}) == 1 {{ change c to Rock }}\n\
           if any l in lines(3): gap(l) == 3 and owner(l[1]) == me {{ win me }}\n\
           if size(pieces(me)) >= 8 {{ win me }}\n\
         }}\n\
         on no moves {{ draw }}"
    )
}

/// The boards of [`firsts_on`]: a name, the board and a direction.
const FIRST_BOARDS: [(&str, &str, &str); 4] = [
    ("firsts square", "board square 5 by 5 with 8 neighbours", "n"),
    // 100 cells: sets of two words.
    ("firsts large", "board square 10 by 10 with 8 neighbours", "s"),
    ("firsts hexhex", "board hexhex 3", "w"),
    ("firsts graph", "board graph {\n points c1, c2, c3, c4, c5\n links e/w: c3-c1-c4-c2-c5\n links n/s: c1-c2\n}", "e"),
];

/// Pass 52 walks the line of every first-along-a-line quantifier of the
/// firsts games but `mixed`'s, which reads its number outside the line
/// and keeps pass 48's walk: `run` (twice), `back` (compiled twice, as
/// the `choose` filter's set form and as its walk), `edge`, `up`, `low`
/// and `gap` on every board.
#[test]
fn the_firsts_games_walk_their_lines() {
    for (name, board, d) in FIRST_BOARDS {
        let g = crate::game_text(&firsts_on(board, d)).expect("firsts game");
        let notes = g.program().notes();
        let count = |p: &str| notes.iter().filter(|n| n.starts_with(p)).count();
        assert_eq!(count("first along a line"), 8, "{name}: {notes:?}");
        assert_eq!(count("first in a range"), 1, "{name}: {notes:?}");
    }
}

/// Pass 53's guarded directions: `any d in dirs: A and B` with `A` about
/// `step(x, d)` alone — Othello's form, through a `def` whose arguments
/// are locals (`flank`, whose `B` counts steps of its own), `A` alone
/// and true at `none` (`open`), `none` (`guarded`), `all` with `A` as the
/// filter (`ringed`), `x` not a local (`away`), `A` a kind compared
/// with a local (the `choose` of the kind, which may not match an
/// opponent's neighbour) — and `bare`, whose first
/// conjunct reads `d` itself, and `walled`, an `all` whose body's first
/// conjunct does not skip the rest (failing it decides), which keep the
/// walk. On the boards of
/// [`firsts_on`] (the graph's points lack most directions).
fn guards_on(board: &str, d: &str) -> String {
    format!(
        "players A, B\n{board}\npiece Stone \"S\"\npiece Rock \"R\"\n\
         def flank(c, d) = owner(step(c, d)) == opponent and (min k in range(1, 6) where owner(ray(c, d)[k]) != opponent: k) > 1\n\
         def open(c) = any d in dirs: empty(step(c, d)) or off(step(c, d))\n\
         def guarded(c) = none d in dirs: owner(step(c, d)) == me and kind(step(c, d)) == Rock\n\
         def ringed(c) = all d in dirs where occupied(step(c, d)): owner(step(c, d)) == opponent\n\
         def away(c) = any d in dirs: owner(step(step(c, {d}), d)) == me and kind(step(step(c, {d}), d)) != Rock\n\
         def bare(c) = any d in dirs: d == {d} and empty(step(c, d))\n\
         def walled(c) = all d in dirs: occupied(step(c, d)) and owner(step(c, d)) != opponent\n\
         turn {{\n\
           choose c in cells where empty(c) and guarded(c)\n\
           choose k in kinds where ply % 3 == 0 or not (any d in dirs: kind(step(c, d)) == k and owner(step(c, d)) == opponent)\n\
           place k at c\n\
           for d in dirs where flank(c, d) {{\n\
             let x = step(c, d)\n\
             while owner(x) == opponent {{\n\
               change x to me\n\
               x = step(x, d)\n\
             }}\n\
           }}\n\
           if (any d in dirs: flank(c, d)) and ringed(c) {{ change c to Rock }}\n\
           if not open(c) and away(c) {{ remove c }}\n\
           if bare(c) and size(pieces(me)) >= 5 {{ win me }}\n\
           if walled(step(c, {d})) {{ remove c }}\n\
           if size(pieces(me)) >= 8 {{ win me }}\n\
         }}\n\
         on no moves {{ draw }}"
    )
}

/// Pass 53 guards every quantifier over `dirs` of the guards games but
/// `bare`'s: `guarded` (compiled twice, as the `choose` filter's set form
/// and as its walk), the `any` over `flank`, `open`, `ringed`, `away` and
/// the `any` in the kind's `choose`.
#[test]
fn the_guards_games_guard_their_directions() {
    for (name, board, d) in FIRST_BOARDS {
        let g = crate::game_text(&guards_on(board, d)).expect("guards game");
        let notes = g.program().notes();
        let count = notes.iter().filter(|n| n.starts_with("guarded directions")).count();
        assert_eq!(count, 7, "{name}: {notes:?}");
    }
}

/// A turn whose rest after its decisions is lazy only through loops: a
/// `for` over `dirs` whose filter asks a first-along-a-line of a
/// constant `range`, with a `while` that walks a ray flipping the
/// opponent's pieces (`change x to me` of a cell the test shows held);
/// a `for` changing a kind where `kind(y) == Rock` and an owner hold;
/// a `for` over a constant `range` changing to a chosen kind and the
/// opponent; a `change` after the loops of the cell placed on (which no
/// round empties); a `for` over the players that may end the game.
const LAZY_LOOPS: &str = "players A, B\n\
    board square 5 by 5 with 8 neighbours\n\
    piece Stone \"S\"\n\
    piece Rock \"R\"\n\
    def run(c, d) = min k in range(1, 6) where owner(ray(c, d)[k]) != opponent: k\n\
    turn {\n\
      choose c in cells where empty(c)\n\
      choose k in kinds\n\
      place k at c\n\
      for d in dirs where run(c, d) >= 2 and owner(ray(c, d)[run(c, d)]) == me {\n\
        let x = step(c, d)\n\
        while owner(x) == opponent {\n\
          change x to me\n\
          x = step(x, d)\n\
        }\n\
      }\n\
      for d in dirs {\n\
        let y = step(c, d)\n\
        if kind(y) == Rock and owner(y) == opponent { change y to Stone }\n\
      }\n\
      for i in range(1, 2) {\n\
        let z = step(c, n)\n\
        if owner(z) == me and i == 2 { change z to k of opponent }\n\
      }\n\
      if size(pieces(me)) > 8 { change c to Rock }\n\
      for p in players {\n\
        if p == me and size(pieces(p)) >= 12 { win me }\n\
      }\n\
    }\n\
    on no moves { draw }";

/// The variants of [`LAZY_LOOPS`] that must not be lazy: a name, the
/// text replaced and its replacement, and whether some of its options
/// fail in the loop (a round that may fail after an earlier round
/// changed what the loop began with, a change of a cell that may be
/// empty, a walk that runs off the board), which a lazy tail would list
/// as moves.
const NOT_LAZY_LOOPS: [(&str, &str, &str, bool); 10] = [
    ("a local changed in the loop", "place k at c\n",
     "place k at c\n let w = step(c, e)\n if owner(w) == opponent {\n for i in range(1, 2) { change w to me\n w = step(w, s) }\n }\n", true),
    ("a piece of the domain taken away", "for p in players {",
     "for y in pieces(opponent) {\n if rank(y) == 1 {\n change y to Stone\n let u = step(y, e)\n if owner(u) == opponent and kind(u) == Stone { remove u }\n }\n }\n for p in players {", true),
    ("a cell emptied by an earlier round", "let z = step(c, n)\n",
     "let z = step(c, n)\n if (i == 1 and owner(step(c, e)) == me) or (i == 2 and owner(step(c, w)) == me) { remove c }\n", true),
    ("a cell emptied in the loop, changed after it", "let z = step(c, n)\n",
     "let z = step(c, n)\n if i == 2 and owner(step(c, e)) == me and occupied(c) { remove c }\n", true),
    ("a cell emptied by a walk, changed after it", "if size(pieces(me)) > 8",
     "let f = step(c, e)\n if owner(f) == opponent {\n let x = f\n while owner(x) == opponent {\n remove x\n x = step(x, e)\n }\n change f to me\n }\n if size(pieces(me)) > 8",
     true),
    // What the domain says of its cells (here: none is the cell it is
    // around) is not said of the local it read once the loop changes it.
    ("a domain read from a local changed in the loop", "for p in players {",
     "let v = c\n for z in neighbours(v) where occupied(z) {\n v = z\n }\n for p in players {", false),
    ("a change of a cell not known held", "if kind(y) == Rock and owner(y) == opponent { change y to Stone }",
     "change y to Stone", true),
    // Every round steps on, but inside an `if`: the pass finds no bound.
    ("a walk without a bound", "x = step(x, d)\n", "if occupied(x) { x = step(x, d) }\n", false),
    ("a walk off the board",
     "for d in dirs where run(c, d) >= 2 and owner(ray(c, d)[run(c, d)]) == me {\n\
        let x = step(c, d)\n\
        while owner(x) == opponent",
     "for d in dirs where owner(step(c, d)) == opponent {\n let x = step(c, d)\n while owner(x) != me",
     true),
    // Nothing fails, but the bound is not known when the game loads.
    ("a range not constant", "for i in range(1, 2)", "for i in range(1, ply % 2 + 1)", false),
];

/// The lazy-tail pass follows a turn through bounded loops and `change`:
/// [`LAZY_LOOPS`] is lazy (move lists, counts and perft leave the rest
/// of the turn unrun) and plays as the reference does; each variant of
/// [`NOT_LAZY_LOOPS`] is not lazy and plays as the reference does too,
/// and those whose options may fail leave some out of their lists
/// (fewer moves than [`LAZY_LOOPS`] lists in the same position).
#[test]
fn a_tail_of_bounded_loops_is_lazy() {
    let lazy = |g: &Game| g.program().notes().iter().any(|n| n.starts_with("lazy tail"));
    let all = crate::game_text(LAZY_LOOPS).expect("lazy loops");
    assert!(lazy(&all), "{:?}", all.program().notes());
    // Random games of `g` against the reference; the options its lists
    // left out.
    let play = |g: &Game, name: &str| {
        let mut left_out = 0;
        for seed in 0..3 {
            let mut s = State::initial_seeded(g, seed).expect("setup");
            let mut rng = Rng::new(seed);
            for ply in 0..40 {
                let moves = agree(g, &s, &format!("{name} seed {seed} ply {ply}"), true);
                left_out += s.legal_moves(&all).expect("options").len() - moves.len();
                if moves.is_empty() {
                    break;
                }
                s.play_unchecked(g, &moves[rng.below(moves.len())]).expect("play");
            }
        }
        left_out
    };
    assert_eq!(play(&all, "lazy loops"), 0);
    for (name, from, to, fails) in NOT_LAZY_LOOPS {
        assert!(LAZY_LOOPS.contains(from), "{name}");
        let g = crate::game_text(&LAZY_LOOPS.replacen(from, to, 1)).expect(name);
        assert!(!lazy(&g), "{name}: {:?}", g.program().notes());
        let left_out = play(&g, name);
        assert_eq!(left_out > 0, fails, "{name}: {left_out} options left out");
    }
}

/// The links of [`pushed_on_graph`]'s loop of three.
pub const LOOPED: &str = "links e/w: c1-c2-c3-c1\n links n/s: c4-c1";

/// The links of [`pushed_on_graph`]'s two directions to one point.
pub const LINKED: &str = "links e/w: c1-c2-c3-c4\n links n/s: c1-c2";

/// The pieces and turn of [`pushed_on_graph`].
const PUSH_TURN: &str = "\
    piece Stone\npiece Rock\n\
    zone pool per player\n\
    setup { for p in players { add 9 Stone to pool(p)  add 2 Rock to pool(p) } }\n\
    turn {\n\
      choose piece in pool(me)\n\
      choose c in cells where empty(c)\n\
      take piece from pool(me)\n\
      place piece at c\n\
      for d in dirs {\n\
        let n = step(c, d)\n\
        if occupied(n) {\n\
          let x = step(n, d)\n\
          if off(x) { add kind(n) to pool(owner(n))  remove n } else if empty(x) { move n to x }\n\
        }\n\
      }\n\
      if size(pieces(me)) >= 3 { win me }\n\
    }\n\
    on no moves { draw }";

/// One player (the occupied cells are the union of the players' sets,
/// which the compiled evaluator folds two at a time: with one player, the
/// second is the first kind's), pieces of two kinds on the board, cells
/// asked empty or occupied as sets and one by one.
pub const SOLO: &str = "players Solo\nboard square 3 by 3\n\
    piece Stone\n\
    piece Ring\n\
    turn {\n\
      either \"stone\" { choose c in cells where empty(c)  place Stone at c }\n\
      or \"ring\" { choose c in cells where empty(c) and any n in neighbours(c): occupied(n)  place Ring at c }\n\
      or \"lift\" { choose c in cells where occupied(c) and size(pieces(me)) >= 5  remove c }\n\
      if size(pieces(me)) == 7 { win me }\n\
    }\n\
    on no moves { draw }";

/// Quantifiers over the lines through a cell (pass 18): `any`, `all` and
/// `none`, with more filter after the first test (one of them a
/// quantifier over numbers, which counts steps), a cell that may be `none`
/// (off the board), and a constant cell.
pub const THROUGH: &str = "players A, B\nboard square 4 by 4\npiece Man\n\
    def mine(l) = all x in l: owner(x) == me\n\
    turn {\n\
      choose c in cells where empty(c)\n\
      place Man at c\n\
      let up = step(c, n)\n\
      if any l in lines(3) where c in l: mine(l) { win me }\n\
      if all l in lines(4) where c in l and occupied(last(l)): owner(first(l)) != me { pass } else { place Man at step(c, s) }\n\
      if none l in lines(2) where up in l and (any i in range(1, 2): i == 2): mine(l) { pass } else { win me }\n\
      if any l in lines(2) where b2 in l: mine(l) and occupied(c) { lose me }\n\
    }\n\
    on no moves { pass }";

/// A `require` over the mover's groups asked as the placements are listed
/// (pass 19), before a neighbourhood `require` (pass 17): a condition of
/// the group with a quantifier in it, a group made in the setup that fails
/// it (so that a placement must join it), and a tile whose cells do not
/// touch each other (it may join groups that stay apart).
pub const SNAKES: &str = "players A, B\nboard square 5 by 5\n\
    piece Dot covers (0, 0)\npiece Bar covers (0, 0) (1, 0)\npiece Gap covers (0, 0) (2, 0)\n\
    zone supply per player\n\
    setup { for p in players { add 5 Dot to supply(p)  add 3 Bar to supply(p)  add 2 Gap to supply(p) }\n\
      place Dot of A at [b2, c2] }\n\
    def links(c, g) = count x in neighbours(c) where contains(g, x)\n\
    turn {\n\
      choose t in supply(me)\n\
      choose cover in placements(t) where all x in cover: empty(x)\n\
      take t from supply(me)\n\
      place t at cover\n\
      require all g in groups(me): size(g) != 2 and (all c in g: links(c, g) <= 2)\n\
      require (none x in neighbours(cover): occupied(x)) or (any x in neighbours(cover): owner(x) == me)\n\
      if size(pieces(me)) >= 9 { win me }\n\
    }\n\
    on no moves { pass }";

/// Group-size requires asked as the cells are listed (pass 44): on a
/// board of two words, a kind chosen first, two `require`s (the first
/// fails on a size, the second on a limit the cell itself may lift), a
/// lazy tail after them (so playouts draw among the cells).
pub const GROWTH: &str = "players A, B\nboard square 9 by 9\npiece Stone\npiece Big\n\
    zone pool per player\n\
    setup { for p in players { add 20 Stone to pool(p)  add 4 Big to pool(p) } }\n\
    turn {\n\
      let cap = count(pool(me), Big) + 1\n\
      let centre = e5\n\
      choose k in pool(me)\n\
      choose c in cells where empty(c)\n\
      place k at c\n\
      require size(group(c)) != 3\n\
      require size(group(c)) <= cap or c == centre\n\
      take k from pool(me)\n\
      if size(pieces(me)) >= 14 { win me }\n\
    }\n\
    on no moves { pass }";

/// The largest group meeting a set of cells (pass 24): over every cell
/// (empty ones count 0), over the mover's pieces (empty at first), over
/// the cells next to the placement (both players' groups), as a limit
/// measured before the placement and as a score.
pub const LARGEST: &str = "players A, B\nboard square 5 by 5\npiece Stone\n\
    var score per player = 0\n\
    def largest = max x in cells: size(group(x))\n\
    turn {\n\
      let limit = largest\n\
      choose c in cells where empty(c)\n\
      place Stone at c\n\
      require size(group(c)) == 1 or size(group(c)) <= limit\n\
      score(me) = max x in pieces(next(me)): size(group(x))\n\
      if (max x in neighbours(c): size(group(x))) >= 3 { score(me) += 1 }\n\
      if (max x in pieces(me): size(group(x))) >= 5 { win me }\n\
    }\n\
    on no moves { pass }";

/// `any` / `none` over groups of `touches(b, x)` (pass 7 as one spread of
/// the union of the groups that pass the filter): with and without a
/// filter, `any` and `none`, a filter about another group (`b != g`) and
/// one about the group's size; and counts of the groups next to a cell
/// compared with 1 and 2 (bit-sliced counts) and with 3 (a counter per
/// cell).
pub const TOUCHING: &str = "players A, B\n\
    board hexhex 3\n\
    piece Stone\n\
    def near_mine(x) = any b in groups(me): touches(b, x)\n\
    def near_other(x, g) = any b in groups(me) where b != g: touches(b, x)\n\
    def clear_of_big(x) = none b in groups(next(me)) where size(b) >= 2: touches(b, x)\n\
    def one_of_mine(x) = (count b in groups(me) where touches(b, x)) == 1\n\
    def crowded(x) = (count b in groups(next(me)) where touches(b, x)) >= 2\n\
    def few(x) = (count b in groups(me) where touches(b, x)) < 3\n\
    turn {\n\
      choose c in cells where empty(c) and (size(pieces(me)) < 2 or near_mine(c) or clear_of_big(c))\n\
        and (one_of_mine(c) or crowded(c) or not few(c) or size(pieces(me)) < 4)\n\
      place Stone at c\n\
      let g = group(c)\n\
      if size(g) >= 2 {\n\
        choose x in (collect y in neighbours(g) where empty(y) and not near_other(y, g)) as \"+{}\"\n\
        place Stone at x\n\
      }\n\
      if size(pieces(me)) >= 9 { win me }\n\
    }\n\
    on no moves { pass }";

/// Collections over the other player's groups remembered by pass 23:
/// `small` and `lone` are the same but for their names (one table),
/// `big` differs only in its filter's number (a table of its own; a
/// shared one would answer it with `small`'s values).
pub const SHARED: &str = "players A, B\nboard square 4 by 4\npiece Stone\n\
    var score per player = 0\n\
    def small(a) = collect b in groups(next(me)) where touches(a, b) and size(b) == 1\n\
    def big(a) = collect b in groups(next(me)) where touches(a, b) and size(b) == 2\n\
    def lone(g) = collect h in groups(next(me)) where touches(g, h) and size(h) == 1\n\
    turn {\n\
      choose c in cells where empty(c)\n\
      place Stone at c\n\
      let mine = group(c)\n\
      score(me) += size(small(mine)) * 3 + size(big(mine))\n\
      if size(big(mine)) > 0 { score(me) += 10 }\n\
      for y in lone(mine) { remove y }\n\
      if score(me) >= 40 { win me }\n\
    }\n\
    on no moves { pass }";

/// A capture-like chain (pass 25): after the placement, while some group
/// of two of the mover's may grow (`cond`, about the group `a`), the mover
/// picks a cell next to such a group (`filter`, the same question in the
/// collection) and places there. `targets` counts steps (a `count` over
/// the other player's groups).
pub fn chain(cond: &str, filter: &str) -> String {
    format!(
        "players A, B\nboard square 4 by 4\npiece Stone\n\
         def targets(a) = collect x in neighbours(a) where empty(x) and (count g in groups(next(me)): size(g) > 0) >= 0\n\
         def can(a) = size(a) == 2 and size(targets(a)) > 0\n\
         turn {{\n\
           choose c in cells where empty(c)\n\
           place Stone at c\n\
           while any a in groups(me): {cond} {{\n\
             choose x in (collect a in groups(me) where {filter}: targets(a)) as \"+{{}}\"\n\
             place Stone at x\n\
           }}\n\
         }}\n\
         on no moves {{ pass }}"
    )
}

/// Compares both evaluators on `s`; returns the legal moves.
fn agree(g: &Game, s: &State, ctx: &str, every_move: bool) -> Vec<tabula::Move> {
    let ours = s.legal_moves(g).expect("moves");
    let theirs = reference::legal_moves(g, s).expect("reference moves");
    assert_eq!(ours, theirs, "{ctx}: move lists differ\n{}", s.to_text(g));
    assert_eq!(
        s.outcome(g).expect("outcome"),
        reference::outcome(g, s).expect("reference outcome"),
        "{ctx}: outcomes differ\n{}",
        s.to_text(g)
    );
    assert_eq!(s.count_moves(g).expect("count"), ours.len() as u64, "{ctx}: count");
    for p in 0..g.players.len() as u8 {
        assert_eq!(s.score(g, p).expect("score"), reference::score(g, s, p).expect("score"));
    }
    let step = if every_move { 1 } else { (ours.len() / 12).max(1) };
    for m in ours.iter().step_by(step) {
        let mut t = s.clone();
        t.play_unchecked(g, m).expect("play");
        let r = reference::play(g, s, m).expect("reference play");
        assert_eq!(t, r, "{ctx}: {} leads elsewhere", State::move_text(g, m));
    }
    ours
}

#[test]
fn compiled_and_reference_agree_on_random_games() {
    let slow = std::env::var("RUN_SLOW_TESTS").is_ok();
    for (name, g) in cases() {
        let seeds = if slow { 12 } else { 3 };
        for seed in 0..seeds {
            let s0 = State::initial_seeded(&g, seed).expect("setup");
            assert_eq!(s0, reference::initial(&g, seed).expect("setup"), "{name}: setup");
            let mut s = s0;
            let mut rng = Rng::new(seed * 7 + 1);
            for ply in 0..400 {
                let ctx = format!("{name} seed {seed} ply {ply}");
                let moves = agree(&g, &s, &ctx, slow || ply < 4);
                if moves.is_empty() {
                    break;
                }
                let m = &moves[rng.below(moves.len())];
                s.play_unchecked(&g, m).expect("play");
            }
        }
    }
}

/// Playouts that list every move take the course of the reference's
/// move lists exactly.
#[test]
fn playouts_take_the_same_course_as_the_reference() {
    for (name, g) in cases() {
        for seed in 0..3 {
            let s0 = State::initial_seeded(&g, seed).expect("setup");
            let mut rng = Rng::new(seed);
            let p = tabula::playout_listed(&g, &s0, &mut rng, 300).expect("playout");
            // The same course by the reference: list, pick, play.
            let mut rng = Rng::new(seed);
            let mut s = s0.clone();
            // A ply: a player's move, or a turn chance alone played.
            let mut plies = 0;
            let (mut turn_ply, mut moved) = (s.ply(), false);
            loop {
                if s.turn() == tabula::Turn::Chance {
                    // Chance decides, with its weights; not a ply.
                    let outcomes = reference::chance_outcomes(&g, &s).expect("outcomes");
                    let w: Vec<u32> = outcomes.iter().map(|o| o.1).collect();
                    let i = tabula::rng::pick_weighted(&w, w.len(), &mut rng).expect("an outcome");
                    let m = tabula::Move { choices: vec![outcomes[i].0], stuck: false };
                    s = reference::play(&g, &s, &m).expect("chance");
                    if s.ply() != turn_ply {
                        plies += u32::from(!moved);
                        (turn_ply, moved) = (s.ply(), false);
                    }
                    if plies >= 300 {
                        break;
                    }
                    continue;
                }
                let moves = reference::legal_moves(&g, &s).expect("moves");
                if moves.is_empty() || plies >= 300 {
                    break;
                }
                let m = &moves[rng.below(moves.len())];
                s = reference::play(&g, &s, m).expect("play");
                plies += 1;
                (turn_ply, moved) = (s.ply(), s.ply() == turn_ply);
            }
            assert_eq!(p.plies, plies, "{name} seed {seed}: length");
            assert_eq!(p.last, s, "{name} seed {seed}: final position");
        }
    }
}

/// The successors of `s` by the reference: each legal move played.
fn successors(g: &Game, s: &State) -> Vec<State> {
    let moves = reference::legal_moves(g, s).expect("reference moves");
    moves.iter().map(|m| reference::play(g, s, m).expect("reference play")).collect()
}

/// The positions a playout may reach from `s` in one turn by the
/// reference: each legal move played, and a move that stops at a chance
/// event followed by each of its outcomes (again, while chance decides).
fn turn_results(g: &Game, s: &State) -> Vec<State> {
    let mut out = Vec::new();
    let mut todo = successors(g, s);
    while let Some(t) = todo.pop() {
        if t.turn() != tabula::Turn::Chance {
            out.push(t);
            continue;
        }
        for (c, _) in reference::chance_outcomes(g, &t).expect("outcomes") {
            let m = tabula::Move { choices: vec![c], stuck: false };
            todo.push(reference::play(g, &t, &m).expect("chance"));
        }
    }
    out
}

/// Playouts that draw their moves (pass 15) play, at every turn, one of
/// the reference's moves (or a move that stops at chance and one of the
/// chance event's outcomes): the playout cut after `k` turns spends the
/// same random numbers up to there, so it gives the course turn by turn.
#[test]
fn drawn_playouts_play_legal_moves() {
    let mut drawn = 0;
    for (name, g) in cases() {
        'seeds: for seed in 0..3 {
            let s0 = State::initial_seeded(&g, seed).expect("setup");
            let full = tabula::playout(&g, &s0, &mut Rng::new(seed), 300).expect("playout");
            if full.drawn == 0 {
                continue;
            }
            drawn += full.drawn;
            let mut before = s0.clone();
            for k in 1..=full.plies {
                if before.turn() == tabula::Turn::Chance {
                    continue 'seeds;
                }
                let p = tabula::playout(&g, &s0, &mut Rng::new(seed), k).expect("playout");
                assert!(
                    turn_results(&g, &before).contains(&p.last),
                    "{name} seed {seed}: turn {k} is no move of the reference\n{}",
                    before.to_text(&g)
                );
                before = p.last;
            }
            assert_eq!(before, full.last, "{name} seed {seed}: final position");
        }
    }
    assert!(drawn > 100, "too few drawn moves to check: {drawn}");
}

/// A decision whose filter is a set form (`empty(c)`, the east
/// neighbour empty) and a rest pass 54 asks of the options drawn alone (a
/// count of the opponent's stones but the cell, or the first turn).
const FILTERED: &str = "players A, B\nboard square 4 by 4\npiece Stone\n\
    setup { place Stone of B at [a1, b2, c3] }\n\
    turn {\n\
      choose c in cells where empty(c) and not occupied(step(c, e)) and \
        ((count x in cells: owner(x) == opponent and x != c and rank(x) != rank(c)) >= 1 or ply == 0)\n\
      place Stone at c\n\
    }\n\
    on no moves { draw }";

/// Pass 54 asks a filter of the options drawn alone only where listing
/// every option could be told to stay within the step limit and the
/// rest of the turn never asks again: not for a filter with arithmetic
/// (which may raise an error), nor for a decision followed by another.
#[test]
fn a_filter_is_asked_as_drawn_only_where_it_can_be() {
    let asked = |text: &str| {
        let g = crate::game_text(text).expect("game");
        g.program().notes().iter().any(|n| n.starts_with("drawn filter"))
    };
    assert!(asked(FILTERED));
    for (name, from, to) in [
        ("arithmetic", ">= 1 or", "+ 1 >= 2 or"),
        ("a decision after it", "place Stone at c", "choose k in kinds\n place k at c"),
    ] {
        assert!(FILTERED.contains(from), "{name}");
        assert!(!asked(&FILTERED.replacen(from, to, 1)), "{name}");
    }
}

/// A drawn move is uniform among the moves: from positions where some
/// options fail, moves for certain and candidates mixed, many one-turn
/// playouts hit every successor about equally often (a chi-square test
/// with fixed seeds, so it cannot flake; a sampler that favoured the
/// options after a failing one, or the moves for certain, fails it).
#[test]
fn drawn_moves_are_uniform() {
    let cases = [
        ("drawn", crate::game_text(DRAWN).expect("drawn game"), 7),
        ("snekagon side 3", crate::game_with("snekagon.game", &[("side", 3)]), 3),
        ("snakes", crate::game_text(SNAKES).expect("snakes game"), 2),
        // Eleven turns in, 13 of the 70 placements are rejected.
        ("growth", crate::game_text(GROWTH).expect("growth game"), 11),
        // The third Kitten placed empties the pool: a piece to take off
        // the bed is drawn after each square (a drawn decision met in the
        // runs of a decision listed in full).
        ("boop 4x4, 3 kittens", crate::game_with("boop.game", &[("size", 4), ("kittens", 3)]), 4),
        // Pass 54: every cell a candidate, the filter (`legal`) asked of
        // those drawn; most fail it.
        ("othello 6x6", crate::game_with("othello.game", &[("half", 3)]), 6),
        // Pass 54 after a set form: the candidates are the cells of the
        // filter's set-form part, the rest asked of those drawn.
        ("filtered", crate::game_text(FILTERED).expect("filtered game"), 3),
    ];
    for (name, g, plies) in cases {
        let s0 = State::initial_seeded(&g, 0).expect("setup");
        let s = tabula::playout_listed(&g, &s0, &mut Rng::new(11), plies).expect("playout").last;
        let succ = successors(&g, &s);
        let n = succ.len();
        assert!(n > 3, "{name}: {n} moves");
        // Some options fail here (else there is nothing to reject).
        let first = tabula::playout(&g, &s, &mut Rng::new(0), 1).expect("playout");
        assert_eq!(first.drawn, 1, "{name}: the move is drawn");
        // Two moves may lead to the same position (a stone on the edge
        // by `stone` or by `edge`): each position is expected as often as
        // the moves that lead there.
        let mut distinct: Vec<(State, u64)> = Vec::new();
        for t in succ {
            match distinct.iter_mut().find(|(x, _)| *x == t) {
                Some((_, k)) => *k += 1,
                None => distinct.push((t, 1)),
            }
        }
        let per = 200;
        let mut hits = vec![0u64; distinct.len()];
        for seed in 0..(per * n) as u64 {
            let t = tabula::playout(&g, &s, &mut Rng::new(seed), 1).expect("playout").last;
            let i = distinct.iter().position(|x| x.0 == t).expect("a move of the reference");
            hits[i] += 1;
        }
        let chi2: f64 = hits
            .iter()
            .zip(&distinct)
            .map(|(&h, (_, k))| {
                let e = (per as u64 * k) as f64;
                (h as f64 - e).powi(2) / e
            })
            .sum();
        let df = (distinct.len() - 1) as f64;
        assert!(hits.iter().all(|&h| h > 0), "{name}: a move never drawn: {hits:?}");
        assert!(
            chi2 < df + 6.0 * (2.0 * df).sqrt(),
            "{name}: chi2 {chi2:.1} for {df} df: {hits:?}"
        );
    }
}

#[test]
fn a_require_around_a_placement_is_asked_as_the_options_are_listed() {
    // Pass 17 fires on AROUND (the crosscheck above keeps its move lists
    // equal to the reference's) and on nothing that could change the
    // answer or hide an error: an `add` (which may overflow) or a `let`
    // before the `require`, a placement for another player, a predicate
    // that reads another cell.
    let fired = |g: &Game| g.program().notes().iter().any(|n| n.starts_with("neighbourhood"));
    let g = crate::game_text(AROUND).expect("around game");
    assert!(fired(&g));
    let variants = [
        ("take t from supply(me)", "take t from supply(me)\n add Dot to supply(me)"),
        ("take t from supply(me)", "take t from supply(me)\n let n = 1"),
        ("place t at cover", "place t of next(me) at cover"),
        ("where owner(x) == me:", "where owner(step(x, e)) == me:"),
    ];
    for (from, to) in variants {
        assert!(AROUND.contains(from), "{from}");
        let v = crate::game_text(&AROUND.replacen(from, to, 1)).expect("variant");
        assert!(!fired(&v), "{to}");
    }
    // A move the `require` rejects, played as if it were legal, fails at
    // the `require`, as it does in the reference: one legal once the rule
    // is gone, somewhere in a game.
    let free = crate::game_text(&AROUND.replacen("require (", "if (", 1).replacen(
        "neighbours(cover): empty(x))\n",
        "neighbours(cover): empty(x)) { pass }\n",
        1,
    ))
    .expect("without the rule");
    let mut s = crate::start(&g);
    let mut rng = Rng::new(3);
    let mut rejected = 0;
    for _ in 0..12 {
        let ours = s.legal_moves(&g).expect("moves");
        for m in free_moves(&free, &s) {
            if ours.contains(&m) {
                continue;
            }
            rejected += 1;
            let mut t = s.clone();
            let e = t.play_unchecked(&g, &m).expect_err("rejected");
            assert!(e.message.contains("not legal"), "{}", e.message);
            assert!(AROUND[e.span.start as usize..].starts_with("require"), "{:?}", e.span);
            assert!(reference::play(&g, &s, &m).is_err());
        }
        if ours.is_empty() || s.outcome(&g).expect("outcome").is_some() {
            break;
        }
        let m = &ours[rng.below(ours.len())];
        s = s.play(&g, m).expect("play");
    }
    assert!(rejected > 0, "no move was rejected");
}

/// A game's text with two `require`s, the same game without either
/// (`free`, each turned into an `if`), and with only the first
/// (`with_kept`).
struct Rules<'a> {
    text: &'a str,
    free: &'a Game,
    with_kept: &'a Game,
}

/// Along `turns` random turns of `g` (from `seed`), each move of
/// `rules.free` that `g` does not list, played as if it were legal, fails
/// as "not legal" at the first `require` that rejects it, in the written
/// order (at `other` where the game with only `kept` lists it, else at
/// `kept`), and the reference rejects it too. How many failed at `kept`
/// and at `other`.
fn rejected_at(
    g: &Game,
    rules: &Rules,
    (kept, other): (&str, &str),
    seed: u64,
    turns: usize,
) -> (u32, u32) {
    let mut s = crate::start(g);
    let mut rng = Rng::new(seed);
    let (mut at_kept, mut at_other) = (0, 0);
    for _ in 0..turns {
        let ours = s.legal_moves(g).expect("moves");
        let kept_only = free_moves(rules.with_kept, &s);
        for m in free_moves(rules.free, &s) {
            if ours.contains(&m) {
                continue;
            }
            let mut t = s.clone();
            let e = t.play_unchecked(g, &m).expect_err("rejected");
            assert!(e.message.contains("not legal"), "{}", e.message);
            let at = &rules.text[e.span.start as usize..];
            if kept_only.contains(&m) {
                at_other += 1;
                assert!(at.starts_with(other), "{at:.40}");
            } else {
                at_kept += 1;
                assert!(at.starts_with(kept), "{at:.40}");
            }
            assert!(reference::play(g, &s, &m).is_err());
        }
        if ours.is_empty() || s.outcome(g).expect("outcome").is_some() {
            break;
        }
        let m = &ours[rng.below(ours.len())];
        s = s.play(g, m).expect("play");
    }
    (at_kept, at_other)
}

/// The moves of `free` (a game whose moves are written the same) at `s`.
fn free_moves(free: &Game, s: &State) -> Vec<tabula::Move> {
    let t = State::from_text(free, &s.to_text(free)).expect("the same position");
    t.legal_moves(free).expect("moves")
}

#[test]
fn a_require_over_the_groups_is_asked_as_the_placements_are_listed() {
    // Pass 19 fires on SNAKES (the crosscheck above keeps its move lists
    // equal to the reference's) and makes the decision a lazy tail; it
    // does not fire on a `require` asked before the placement, over the
    // opponent's groups, with `any`, with a condition that reads the
    // position, or after a `let`.
    let notes = |g: &Game| g.program().notes().to_vec();
    let fired = |g: &Game| notes(g).iter().any(|n| n.starts_with("group require"));
    let g = crate::game_text(SNAKES).expect("snakes game");
    assert!(fired(&g), "{:?}", notes(&g));
    assert!(notes(&g).iter().any(|n| n.starts_with("lazy tail after decision 1")));
    let group = "require all g in groups(me): size(g) != 2 and (all c in g: links(c, g) <= 2)\n";
    let variants = [
        (format!("place t at cover\n{group}"), format!("{group}place t at cover\n")),
        ("groups(me)".to_string(), "groups(opponent)".to_string()),
        ("require all g".to_string(), "require any g".to_string()),
        ("size(g) != 2".to_string(), "size(g) != count(supply(me))".to_string()),
        ("place t at cover\n".to_string(), "place t at cover\n let n = 1\n".to_string()),
    ];
    for (from, to) in &variants {
        assert!(SNAKES.contains(from.as_str()), "{from}");
        let v = crate::game_text(&SNAKES.replacen(from.as_str(), to, 1)).expect("variant");
        assert!(!fired(&v), "{to}");
    }
    // Not lazy when the `take` or the `place` could fail: a kind the zone
    // is not known to hold, cells not known to be empty.
    let lazy = |g: &Game| notes(g).iter().any(|n| n.starts_with("lazy tail after decision 1"));
    for (from, to) in [
        ("take t from supply(me)", "take Gap from supply(me)"),
        ("where all x in cover: empty(x)", "where all x in cover: off(x) or true"),
        ("take t from supply(me)", "take 2 t from supply(me)"),
        ("take t from supply(me)", "take t from supply(opponent)"),
        ("choose t in supply(me)", "choose t in kinds"),
    ] {
        assert!(SNAKES.contains(from), "{from}");
        let v = crate::game_text(&SNAKES.replacen(from, to, 1)).expect("variant");
        assert!(!lazy(&v), "{to}");
    }
    // A move a `require` rejects, played as if it were legal, fails at the
    // first `require` (in the written order) that rejects it, as in the
    // reference: the moves of the game without either rule, and of the
    // game with only the group rule, tell which.
    let nbr = "require (none x in neighbours(cover)";
    let free = crate::game_text(
        &SNAKES
            .replacen("require all g", "if all g", 1)
            .replacen("links(c, g) <= 2)\n", "links(c, g) <= 2) { pass }\n", 1)
            .replacen("require (none", "if (none", 1)
            .replacen("owner(x) == me)\n", "owner(x) == me) { pass }\n", 1),
    )
    .expect("without the rules");
    let only_groups = crate::game_text(&SNAKES.replacen("require (none", "if (none", 1).replacen(
        "owner(x) == me)\n",
        "owner(x) == me) { pass }\n",
        1,
    ))
    .expect("only the group rule");
    let rules = Rules { text: SNAKES, free: &free, with_kept: &only_groups };
    let (by_groups, by_nbr) = rejected_at(&g, &rules, ("require all g", nbr), 5, 12);
    assert!(by_groups > 0 && by_nbr > 0, "{by_groups} by the groups, {by_nbr} by the neighbours");
}

#[test]
fn a_group_size_require_is_asked_as_the_cells_are_listed() {
    // Pass 44 fires on GROWTH, LARGEST and Bug (the crosscheck above keeps
    // their move lists equal to the reference's) and makes GROWTH's cell
    // decision a lazy tail; it does not fire on a `require` that reads the
    // position otherwise, computes with the size, comes before the
    // placement or after a `let`, or on a placement for another player.
    let notes = |g: &Game| g.program().notes().to_vec();
    let fired = |g: &Game| notes(g).iter().any(|n| n.starts_with("group-size require"));
    let g = crate::game_text(GROWTH).expect("growth game");
    assert!(fired(&g), "{:?}", notes(&g));
    assert!(notes(&g).iter().any(|n| n.starts_with("lazy tail after decision 1")));
    assert!(fired(&crate::game_text(LARGEST).expect("largest game")));
    assert!(fired(&crate::game("bug.game")));
    let first = "require size(group(c)) != 3\n";
    let placed = format!("place k at c\n{first}");
    let variants = [
        ("!= 3\n".to_string(), "!= count(pool(me))\n".to_string()),
        ("!= 3\n".to_string(), "!= size(pieces(me))\n".to_string()),
        ("size(group(c)) != 3".to_string(), "size(group(c)) * 1 != 3".to_string()),
        (placed.clone(), format!("{first}place k at c\n")),
        ("place k at c\n".to_string(), "place k at c\nlet n = 1\n".to_string()),
        ("place k at c".to_string(), "place k of next(me) at c".to_string()),
    ];
    for (from, to) in &variants {
        assert!(GROWTH.contains(from.as_str()), "{from}");
        let v = crate::game_text(&GROWTH.replacen(from.as_str(), to, 1)).expect("variant");
        assert!(!fired(&v), "{to}");
    }
    // A move a `require` rejects, played as if it were legal, fails at the
    // first `require` that rejects it, as in the reference: the moves of
    // the game without the rules, and with only the first, tell which.
    let second = "require size(group(c)) <= cap or c == centre\n";
    let unruled =
        |r: &str, t: &str| t.replacen(r, &format!("if {} {{ pass }}\n", &r[8..r.len() - 1]), 1);
    let free = crate::game_text(&unruled(first, &unruled(second, GROWTH))).expect("no rules");
    let only_first = crate::game_text(&unruled(second, GROWTH)).expect("the first rule");
    let rules = Rules { text: GROWTH, free: &free, with_kept: &only_first };
    let (by_first, by_second) = rejected_at(&g, &rules, (first, second), 11, 40);
    assert!(by_first > 0 && by_second > 0, "{by_first} by the first, {by_second} by the second");
}

#[test]
fn stacked_decks_agree_with_the_reference() {
    // From a referee's deal (the deck in a known order) Bug Off!'s plays
    // are listed without running their draws (pass 22: the deck lies face
    // up and holds a bug card); both evaluators list the same moves, lead
    // to the same positions and count the same, to the end of the game.
    for players in [2, 3, 5] {
        let g = crate::game_with("bug_off.game", &[("players", players)]);
        assert!(g.program().notes().iter().any(|n| n.starts_with("sure tail")));
        for seed in 0..3 {
            let mut s = State::initial_seeded(&g, seed).expect("setup");
            s.stack(&g, &mut Rng::new(seed)).expect("stacked");
            let mut rng = Rng::new(seed + 11);
            for ply in 0..400 {
                let ctx = format!("{players} players, seed {seed}, ply {ply}");
                let moves = agree(&g, &s, &ctx, true);
                if moves.is_empty() {
                    break;
                }
                assert_eq!(
                    tabula::perft(&g, &s, 2).expect("perft"),
                    moves
                        .iter()
                        .map(|m| {
                            let t = reference::play(&g, &s, m).expect("play");
                            reference::legal_moves(&g, &t).expect("moves").len() as u64
                        })
                        .sum::<u64>(),
                    "{ctx}"
                );
                s.play_unchecked(&g, &moves[rng.below(moves.len())]).expect("play");
            }
            assert!(s.outcome(&g).expect("outcome").is_some(), "the sixth net ends the game");
        }
    }
}

/// Playouts from a referee's deal take the reference's course to the end
/// of the game: the mover's `either` of two `choose`s, each a sure tail
/// there (pass 22), is taken by the playout's move list as one group
/// sharing the `either`'s level (`Sink::groups`), the move played by
/// binding its arm again in that level.
#[test]
fn playouts_from_stacked_decks_take_the_reference_course() {
    for players in [2, 3] {
        let g = crate::game_with("bug_off.game", &[("players", players)]);
        for seed in 0..3 {
            let mut s0 = State::initial_seeded(&g, seed).expect("setup");
            s0.stack(&g, &mut Rng::new(seed)).expect("stacked");
            let p = tabula::playout_listed(&g, &s0, &mut Rng::new(seed), 400).expect("playout");
            let (mut s, mut rng, mut plies) = (s0.clone(), Rng::new(seed), 0);
            loop {
                let moves = reference::legal_moves(&g, &s).expect("moves");
                if moves.is_empty() || plies >= 400 {
                    break;
                }
                s = reference::play(&g, &s, &moves[rng.below(moves.len())]).expect("play");
                plies += 1;
            }
            let ctx = format!("{players} players, seed {seed}");
            assert!(plies > 10, "{ctx}: {plies} plies");
            assert_eq!(p.plies, plies, "{ctx}: length");
            assert_eq!(p.last, s, "{ctx}: final position");
        }
    }
}

#[test]
fn a_collection_over_groups_is_skipped_only_when_its_filter_needs_a_touch() {
    // Pass 43 fires on Bug's candidates (the crosscheck above keeps Bug's
    // moves and positions equal to the reference's, and BOUNDED's), and
    // on each form BOUNDED writes; not where the filter can hold without
    // the element touching a group of the other player.
    let fired =
        |g: &Game| g.program().notes().iter().filter(|n| n.starts_with("touch bound")).count();
    assert!(
        fired(&crate::game("bug.game")) > 0,
        "{:#?}",
        crate::game("bug.game").program().notes()
    );
    // `eat`'s `> 0`, `0 != size` over a fixed player's groups, the `any`,
    // the `none` and the `all`; the `or` of the win test is not a bound.
    assert_eq!(fired(&crate::game_text(BOUNDED).expect("bounded game")), 5);
    let game = |filter: &str| {
        let text = format!(
            "players A, B\nboard square 4 by 4\npiece Stone\n\
             def foes(a) = collect b in groups(opponent) where touches(a, b): b\n\
             turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
               if size(collect a in groups(me) where ({filter}): a) > 2 {{ win me }}\n}}\n\
             on no moves {{ pass }}\n"
        );
        fired(&crate::game_text(&text).unwrap_or_else(|e| panic!("{filter}: {e}")))
    };
    for filter in [
        "size(foes(a)) > 0",
        "size(foes(a)) >= 1 and size(a) > 1",
        "size(a) > 1 and 0 < size(foes(a))",
        "any b in groups(opponent): touches(a, b)",
        "any b in groups(B) where touches(b, a)",
    ] {
        assert_eq!(game(filter), 1, "not bounded: {filter}");
    }
    // `any` and `none` are bounded by their filter or their body, `all`
    // by its filter only (an element that fails the body fails `all`).
    let quant = |test: &str| {
        let text = format!(
            "players A, B\nboard square 4 by 4\npiece Stone\n\
             def foes(a) = collect b in groups(opponent) where touches(a, b): b\n\
             turn {{\n choose c in cells where empty(c)\n place Stone at c\n\
               if {test} {{ win me }}\n}}\n\
             on no moves {{ pass }}\n"
        );
        fired(&crate::game_text(&text).unwrap_or_else(|e| panic!("{test}: {e}")))
    };
    for (test, bounded) in [
        ("any a in groups(me) where size(foes(a)) > 0: size(a) > 2", 1),
        ("any a in groups(me) where size(a) > 2: size(foes(a)) > 0", 1),
        ("none a in groups(me): size(foes(a)) > 0", 1),
        ("all a in groups(me) where size(foes(a)) > 0: size(a) > 2", 1),
        ("all a in groups(me): size(foes(a)) > 0", 0),
        ("any a in groups(me): size(foes(a)) > 0 or size(a) > 2", 0),
    ] {
        assert_eq!(quant(test), bounded, "{test}");
    }
    for filter in [
        "size(foes(a)) >= 0",
        "size(foes(a)) == 0",
        "size(foes(a)) > 0 or size(a) > 1",
        "not (size(foes(a)) > 0)",
        "any b in groups(opponent): touches(pieces(me), b)",
        "any b in groups(opponent): size(b) > size(a)",
        "all b in groups(opponent): touches(a, b)",
    ] {
        assert_eq!(game(filter), 0, "bounded: {filter}");
    }
}

#[test]
fn a_collection_over_groups_is_remembered_only_when_it_reads_no_position() {
    // Pass 23 fires on Bug's `prey(a)` (the crosscheck above keeps Bug's
    // move lists and positions equal to the reference's; a table keyed by
    // the set alone, without the opponent's pieces, fails it), and not
    // when the filter also reads the position or the mover.
    let fired = |g: &Game| {
        g.program().notes().iter().any(|n| n.starts_with("memo: a collection over groups"))
    };
    let g = crate::game("bug.game");
    assert!(fired(&g), "{:#?}", g.program().notes());
    let text = std::fs::read_to_string(crate::root().join("games/bug.game")).expect("bug.game");
    let from = "where touches(a, b) and same_shape(a, b)";
    assert!(text.contains(from));
    for to in [
        "where touches(a, b) and same_shape(a, b) and (count x in cells: empty(x)) > 0",
        "where touches(a, b) and same_shape(a, b) and me == Black",
    ] {
        let v = crate::game_text(&text.replacen(from, to, 1)).expect("variant");
        assert!(!fired(&v), "{to}");
    }
    // Equal collections share a table, different ones do not (SHARED's
    // random games above agree with the reference).
    let g = crate::game_text(SHARED).expect("shared memo game");
    let count = |s: &str| g.program().notes().iter().filter(|n| n.starts_with(s)).count();
    assert_eq!(
        (
            count("memo: a collection over groups, remembered"),
            count("memo: a collection over groups, sharing")
        ),
        (2, 1),
        "{:#?}",
        g.program().notes()
    );
}
