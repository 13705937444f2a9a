//! Language features on small inline games (each independent of the four
//! designed games).

use crate::{game_text, moves, play, position, start};
use tabula::State;

const HEADER: &str = "players A, B\npiece Stone \"s\"\n";

fn g(board: &str, rest: &str) -> tabula::Game {
    game_text(&format!("{HEADER}board {board}\n{rest}")).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn square_cell_names_and_order() {
    let g = g("square 3 by 2", "turn { choose c in cells  place Stone at c }");
    assert_eq!(moves(&g, &start(&g)), ["a1", "b1", "c1", "a2", "b2", "c2"]);
}

#[test]
fn hexhex_cells_are_named_by_row_and_position() {
    let g = g("hexhex 2", "turn { choose c in cells  place Stone at c }");
    assert_eq!(moves(&g, &start(&g)), ["a1", "a2", "b1", "b2", "b3", "c1", "c2"]);
}

#[test]
fn neighbourhoods() {
    // The cells with the most neighbours.
    let busiest = |board: &str| {
        let g = g(
            board,
            "turn { choose c in cells where size(neighbours(c)) == max x in cells: size(neighbours(x))  place Stone at c }",
        );
        moves(&g, &start(&g))
    };
    assert_eq!(busiest("square 4 by 4 with 8 neighbours"), ["b2", "c2", "b3", "c3"]);
    assert_eq!(busiest("square 3 by 3 with 4 neighbours"), ["b2"]);
    assert_eq!(busiest("hexhex 2"), ["b2"]);
}

#[test]
fn lines_count_every_window() {
    let count = |board: &str, k: u32| {
        let g = g(board, &format!("turn {{ choose l in lines({k})  pass }}"));
        moves(&g, &start(&g)).len()
    };
    // 4×4 with diagonals, lines of 3: rows 2×4, columns 2×4, diagonals 2×2×2.
    assert_eq!(count("square 4 by 4 with 8 neighbours", 3), 24);
    assert_eq!(count("square 4 by 4 with 4 neighbours", 3), 16);
    // 6×6: rows and columns 2×6×4, diagonals 2×4×4.
    assert_eq!(count("square 6 by 6 with 8 neighbours", 3), 80);
    // hexhex 2 (7 cells): one line of 3 per axis, through the centre.
    assert_eq!(count("hexhex 2", 3), 3);
}

#[test]
fn step_and_off_board() {
    let g = g(
        "square 3 by 3 with 8 neighbours",
        "turn { choose c in cells where off(step(c, n)) and not off(step(c, e))  place Stone at c }",
    );
    assert_eq!(moves(&g, &start(&g)), ["a3", "b3"]);
}

#[test]
fn quantifiers() {
    let g = g(
        "square 3 by 3",
        "param k = 2\n\
         turn {\n\
           require (count x in cells: occupied(x)) < k\n\
           require (sum x in cells: 1) == 9 and (min x in cells: 4) == 4\n\
           require none x in cells: owner(x) == B\n\
           choose c in cells where empty(c)\n\
           place Stone at c\n\
         }",
    );
    let s = start(&g);
    assert_eq!(moves(&g, &s).len(), 9);
    let s = play(&g, &play(&g, &s, "a1"), "b1");
    // Two stones on the board: `count < 2` fails, and B owns one.
    assert!(moves(&g, &s).is_empty());
}

#[test]
fn defs_are_generic_and_actions_run_effects() {
    let g = g(
        "square 3 by 1",
        "def same(a, b) = a == b\n\
         action put(c) { place Stone at c }\n\
         turn { choose c in cells where same(c, c) and same(me, A)  put(c) }",
    );
    let s = start(&g);
    assert_eq!(moves(&g, &s).len(), 3);
    // B never satisfies `same(me, A)`: no move; by default that is a draw.
    let s = play(&g, &s, "a1");
    assert!(moves(&g, &s).is_empty());
    assert_eq!(crate::outcome(&g, &s), "draw");
}

#[test]
fn forced_pass_and_no_move_endings() {
    let text = "turn { require me == A  choose c in cells where empty(c)  place Stone at c }\n\
                on no moves { pass }";
    let g1 = g("square 2 by 1", text);
    let s = start(&g1);
    let s = play(&g1, &s, "a1");
    // B cannot move but A can: B passes.
    assert_eq!(moves(&g1, &s), ["pass"]);
    let s = play(&g1, &s, "pass");
    let s = play(&g1, &s, "b1");
    // Nobody can move: the game is over, a draw without `at end`.
    assert!(moves(&g1, &s).is_empty());
    assert_eq!(crate::outcome(&g1, &s), "draw");
    // `at end` decides the result.
    let g2 = g("square 2 by 1", &format!("{text}\nat end {{ win B }}"));
    let s = play(&g2, &play(&g2, &play(&g2, &start(&g2), "a1"), "pass"), "b1");
    assert_eq!(crate::outcome(&g2, &s), "B wins");
    // `on no moves` may end the game itself.
    let g3 = g("square 2 by 1", "turn { require me == A  choose c in cells where empty(c)  place Stone at c }\non no moves { lose me }");
    let s = play(&g3, &start(&g3), "a1");
    assert_eq!(crate::outcome(&g3, &s), "A wins");
}

#[test]
fn labels_and_multi_step_notation() {
    let g = g(
        "square 2 by 1",
        "turn { choose c in cells where empty(c) as \"at\"  choose d in dirs where off(step(c, d)) as \"toward\"  place Stone at c }",
    );
    // 4-neighbour directions in order n, e, s, w.
    let m = moves(&g, &start(&g));
    assert_eq!(
        m,
        [
            "at a1 toward n",
            "at a1 toward s",
            "at a1 toward w",
            "at b1 toward n",
            "at b1 toward e",
            "at b1 toward s"
        ]
    );
    let s = start(&g);
    match s.parse_move(&g, "at a1") {
        Err(tabula::MoveError::Incomplete { next, .. }) => {
            assert!(next.contains(&"toward".to_string()))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn runaway_loops_stop_with_an_error_naming_the_rule() {
    let g = g("square 2 by 1", "turn { while true { require true }  pass }");
    let err = start(&g).legal_moves(&g).expect_err("endless loop");
    assert!(err.message.contains("steps"), "{}", err.message);
    let src = &g.source.text[err.span.start as usize..err.span.end as usize];
    assert!(src.starts_with("while true"), "{src}");
}

#[test]
fn parameters_are_overridable_and_range_checked() {
    let text = format!("{HEADER}param side = 3 in 2..5\nboard square side by side\nturn {{ choose c in cells  place Stone at c }}");
    let src = tabula::Source::new("p.game", text);
    let g = tabula::Game::load(&src, &[("side".into(), 4)]).expect("valid");
    assert_eq!(moves(&g, &start(&g)).len(), 16);
    let err = tabula::Game::load(&src, &[("side".into(), 9)]).expect_err("out of range");
    assert!(err.problems[0].message.contains("outside 2..5"));
    let err = tabula::Game::load(&src, &[("sides".into(), 3)]).expect_err("unknown");
    assert!(err.problems[0].help.as_deref().unwrap_or("").contains("side"));
}

#[test]
fn position_text_round_trip() {
    let g = crate::game("boop.game");
    let s =
        position(&g, "turn Gray\nply 5\nOrange Kitten a1 b2\nGray Cat c3\npool Orange Kitten 6");
    let again = position(&g, &s.to_text(&g));
    assert_eq!(s, again);
    assert!(tabula::State::from_text(&g, "Orange Kitten z9").is_err());
    assert!(tabula::State::from_text(&g, "pool Nobody Kitten 1").is_err());
}

#[test]
fn exploding_choice_trees_stop_with_an_error_naming_the_decision() {
    let g = g(
        "square 16 by 16",
        "turn { choose a in cells  choose b in cells  choose c in cells  place Stone at a }",
    );
    let err = start(&g).legal_moves(&g).expect_err("too many moves");
    assert!(err.message.contains("more than"), "{}", err.message);
    let src = &g.source.text[err.span.start as usize..err.span.end as usize];
    assert!(src.starts_with("choose"), "{src}");
}

#[test]
fn counting_members_of_a_set_or_line() {
    // `count x in S where contains(T, x)`, with T a set or a line.
    let g = g(
        "square 4 by 1",
        "turn {\n\
           choose l in lines(3)\n\
           require (count x in cells where contains(l, x)) == 3\n\
           require (count x in neighbours(b1) where contains(collect y in l: y, x)) >= 1\n\
           pass\n\
         }",
    );
    assert_eq!(moves(&g, &start(&g)), ["a1-c1", "b1-d1"]);
}

#[test]
fn cell_names_are_values() {
    let g = g("square 3 by 3 with 8 neighbours", "setup { place Stone at b2 }\nturn { choose c in neighbours(b2) where empty(step(c, n))  place Stone at c }");
    assert_eq!(moves(&g, &start(&g)), ["a1", "c1", "a2", "c2"]);
}

/// A game that uses the newer features together (also in the cross-check):
/// phases, variables of the game and of each player, a clock, assignable
/// locals carried through `while` and `for`, rays with `upto`/`before`,
/// `first`/`last` and indexing, lists of cells, kinds, players and numbers
/// (also in `place`), `in`, change in place, `again` and `next turn`,
/// `require ... else`, `if ... then ... else`, `repetitions`.
pub const FEATURES: &str = r#"
game "features"
players A, B, C
board square 5 by 5 with 8 neighbours
piece Stone "s"
piece Crown "c"
var score per player = 0
var moved: cell
clock calm

setup {
    place Crown of C at [c1, c5]
}

def reach(y, c) = empty(y) and (count z in pieces(me) where file(z) == file(c)) >= rank(y) - 1
def open(g) = collect y in neighbours(g) where empty(y)
def roomy(g) = size(open(g)) >= 2

turn opening {
    choose c in [a1, e1, a5, e5, c3, b2] where empty(c)
    place Stone at c
    moved = c
    if (count x in cells: occupied(x)) >= 6 {
        phase middle
    }
}

turn middle {
    choose c in pieces(me) where c != moved or me in [C]
    choose d in dirs where size(before(ray(c, d))) > 0
    // Slide as far as the pieces let, counting the cells crossed.
    let n = 0
    let x = c
    while empty(step(x, d)) {
        x = step(x, d)
        n += 1
    }
    require x == last(before(ray(c, d))) and n == size(before(ray(c, d))) else "slides to the first piece"
    move c to x
    moved = x
    let free = 0
    for y in ray(x, d) where empty(y) {
        free += 1
    }
    // Rounds that test their cell first, skipped by a set test; a round
    // that places stones changes what the later rounds test.
    let grown = 0
    for e in dirs {
        let m = step(x, e)
        if occupied(m) and grown < 2 {
            place Stone at collect y in neighbours(x) where empty(y) and file(y) == file(m)
            grown += 1
        }
    }
    // Relations of two cells (and the mover), precomputed by the compiler.
    let lined = count y in pieces(next(me)) where rank(y) == rank(x) and (me == A or file(y) > file(c))
    // A condition of one group alone, remembered per group by the compiler.
    let thin = count g in groups(me) where all y in g: (count z in neighbours(y) where contains(g, z)) <= 2
    // A count of neighbours asked of each cell, in set form.
    let crowd = count y in cells where empty(y) and 2 < (count z in neighbours(y) where occupied(z) and owner(z) != me)
    // A value the same for every group, computed once per count.
    let big = count g in groups(me) where size(g) + 1 >= (count z in pieces(me) where rank(z) == rank(x))
    // The same through a `def`: its argument `c` is the same for every cell.
    let far = count y in cells where reach(step(y, d), x)
    // Quantifiers over groups, asked of every cell at once.
    let edge = count y in cells where empty(y) and (count g in groups(me) where touches(g, y)) == 1
    let lone = count y in cells where all g in groups(next(me)) where size(g) > 1: not touches(g, y)
    let near = count y in cells where any g in groups(me): touches(y, g) and size(g) >= 2
    // Whether a collected set is empty, asked without building it.
    let deep = count g in groups(me) where 0 < size(collect h in groups(next(me)) where touches(g, h): minus(h, neighbours(g)))
    let bare = count y in pieces(me) where size(collect g in groups(next(me)) where touches(g, y)) == 0
    // A collected set's body that its filter asks too, computed once.
    let room = size(collect g in groups(me) where roomy(g): open(g))
    score(me) += n + free % 2 + lined + thin % 2 + crowd % 2 + big % 2 + far % 2 + edge % 2 + lone % 2 + near % 2 + deep % 2 + bare % 2 + room % 2
    let hit = last(upto(ray(x, d)))
    if occupied(hit) and owner(hit) != me and kind(hit) in [Stone] {
        change hit to me
    }
    if kind(x) == Stone and (rank(x) in [1, 5] or ray(c, d)[2] == x) {
        change x to Crown of me
    }
    calm += 1
    if score(me) >= if me == A then 14 else 12 {
        win me
    }
    if repetitions >= 3 or calm >= 60 {
        draw
    }
    if n == 1 {
        again
    } else if n >= 3 {
        next turn next(next(me))
    }
}
"#;

#[test]
fn locals_change_and_carry_state_through_a_loop() {
    // The cells a slide crosses, counted in a `while`.
    let game = g(
        "square 5 by 1 with 4 neighbours",
        "var crossed = 0\n\
         setup { place Stone of A at a1  place Stone of B at e1 }\n\
         turn { choose c in pieces(me)\n let x = c\n let n = 0\n\
         while empty(step(x, e)) { x = step(x, e)  n += 1 }\n\
         require n > 0\n move c to x\n crossed = n }",
    );
    let s = start(&game);
    assert_eq!(moves(&game, &s), vec!["a1"]);
    let s = play(&game, &s, "a1");
    assert_eq!(crate::at(&game, &s, "d1"), "A Stone");
    assert!(s.to_text(&game).contains("crossed 3"));
}

#[test]
fn variables_of_each_player_are_part_of_the_position() {
    let game = g(
        "square 3 by 1",
        "var score per player = 0\n\
         turn { choose c in cells where empty(c)\n place Stone at c\n score(me) += file(c)\n\
         if score(me) >= 3 { win me } }",
    );
    let s = play(&game, &start(&game), "c1");
    assert!(s.to_text(&game).contains("score A 3"));
    assert_eq!(crate::outcome(&game, &s), "A wins");
    let t = position(&game, "score B 2\n");
    assert_ne!(t, start(&game));
    assert!(tabula::render(&game, &t).contains("score: A 0, B 2"));
    // JSON names the variable, its player and its value; it reads back.
    let json = serde_json::to_value(tabula::wire::StateRepr::new(&game, &t)).unwrap();
    assert_eq!(json["vars"], serde_json::json!([{"name": "score", "player": "B", "value": "2"}]));
    let back: tabula::wire::StateRepr = serde_json::from_value(json).unwrap();
    assert_eq!(back.to_state(&game).unwrap(), t);
}

#[test]
fn a_for_loop_carries_a_local_from_round_to_round() {
    // The mover scores the number of its pieces in the column it plays:
    // counted by a local that each round of the `for` adds to.
    let game = g(
        "square 2 by 3",
        "var last = 0
         setup { place Stone of A at [a1, a2]  place Stone of B at b1 }
         turn { choose c in cells where empty(c)
 place Stone at c
         let n = 0
 for x in cells where file(x) == file(c) and owner(x) == me { n += 1 }
         last = n }",
    );
    let s = play(&game, &start(&game), "a3");
    assert!(s.to_text(&game).contains("last 3"), "{}", s.to_text(&game));
    let s = play(&game, &start(&game), "b2");
    assert!(s.to_text(&game).contains("last 1"), "{}", s.to_text(&game));
}

#[test]
fn a_graph_board_without_a_layout() {
    // A triangle with a tail; directions on two links only.
    let game = g(
        "graph {\n points top left right tail\n links cw/ccw: top-right-left-top\n links left-tail\n lines top right left\n }",
        "setup { place Stone of B at right }\n\
         turn { choose c in [first(ray(top, cw)), last(ray(top, cw)), ray(top, ccw)[1]] where empty(c)\n\
         place Stone at c }",
    );
    let b = &game.board;
    let c = |n: &str| b.cell(n).unwrap();
    assert_eq!(b.neighbours(c("left")).len(), 3);
    assert_eq!(b.neighbours(c("tail")).len(), 1);
    assert_eq!(b.dir_names, vec!["cw", "ccw"]);
    // The cw ray from top is right, left (a ray stops before it comes
    // back to a cell it has passed); the ccw ray starts at left. Right
    // is taken: left is the one move.
    assert_eq!(moves(&game, &start(&game)), vec!["left"]);
    // Drawn in a row, in point order.
    let pic = tabula::render::render(&game, &start(&game));
    assert!(pic.contains("top") && pic.contains("tail"), "{pic}");
    // The one declared line of three points has two windows of two.
    let game = g(
        "graph {\n points top left right tail\n links top-right-left-top\n links left-tail\n lines top right left\n }",
        "turn { choose l in lines(2)\n pass }",
    );
    assert_eq!(moves(&game, &start(&game)), vec!["top-right", "right-left"]);
}

#[test]
fn rays_upto_before_first_last_and_index() {
    let game = g(
        "square 6 by 1 with 4 neighbours",
        "setup { place Stone of B at e1 }\n\
         turn { choose c in before(ray(a1, e))\n place Stone at c }",
    );
    let s = start(&game);
    assert_eq!(moves(&game, &s), vec!["b1", "c1", "d1"]);
    let game = g(
        "square 6 by 1 with 4 neighbours",
        "setup { place Stone of B at [b1, d1, e1] }\n\
         turn { choose c in [last(upto(ray(a1, e))), first(ray(a1, e)), ray(a1, e)[3], ray(f1, e)[1]]\n\
         remove c }",
    );
    let s = start(&game);
    // last(upto(...)) is the first piece, b1; ray(a1, e)[3] is d1; off the edge is none.
    assert_eq!(moves(&game, &s), vec!["b1", "d1"]);
}

#[test]
fn lists_of_cells_kinds_and_players() {
    let game = game_text(
        "players A, B\npiece Stone \"s\"\npiece Gem \"g\"\nboard square 4 by 4\n\
         setup { place Gem of B at [a4, d1] }\n\
         turn { choose k in [Gem, Stone]\n choose c in [a1, b1, d1] where empty(c)\n place k at c\n\
         if k in [Gem] and me in [A] { pass } }",
    )
    .unwrap();
    let s = start(&game);
    assert_eq!(crate::at(&game, &s, "a4"), "B Gem");
    assert_eq!(moves(&game, &s), vec!["g a1", "g b1", "s a1", "s b1"]);
}

#[test]
fn change_in_place() {
    let game = game_text(
        "players A, B\npiece Man \"m\"\npiece King \"k\"\nboard square 3 by 3\n\
         turn { choose c in pieces(opponent)\n change c to me\n\
         for x in pieces(me) where rank(x) == 3 { change x to King } }",
    )
    .unwrap();
    let s = position(&game, "B Man a3 b1\n");
    let s = play(&game, &s, "a3");
    assert_eq!(crate::at(&game, &s, "a3"), "A King");
    assert_eq!(crate::at(&game, &s, "b1"), "B Man");
}

#[test]
fn again_and_next_turn() {
    let game = game_text(
        "players A, B, C\npiece Stone \"s\"\nboard square 4 by 1\n\
         turn { choose c in cells where empty(c)\n place Stone at c\n\
         if c == a1 { again } else if c == b1 { next turn C } }",
    )
    .unwrap();
    let s = play(&game, &start(&game), "a1");
    assert_eq!(s.current(), 0, "A moves again");
    let s = play(&game, &s, "b1");
    assert_eq!(s.current(), 2, "then C");
    let s = play(&game, &s, "c1");
    assert_eq!(s.current(), 0, "then the next seat");
}

#[test]
fn phases_placing_then_moving() {
    let game = game_text(
        "players A, B\npiece Stone \"s\"\nboard square 4 by 1 with 4 neighbours\n\
         turn placing { choose c in cells where empty(c)\n place Stone at c\n\
         if (count x in cells: occupied(x)) == 2 { phase moving } }\n\
         turn moving { choose c in pieces(me)\n choose d in neighbours(c) where empty(d)\n move c to d }",
    )
    .unwrap();
    let s = play(&game, &start(&game), "a1");
    assert_eq!(moves(&game, &s).len(), 3);
    let s = play(&game, &s, "d1");
    assert!(s.to_text(&game).contains("phase moving"));
    assert_eq!(moves(&game, &s), vec!["a1 b1"]);
    assert!(tabula::render(&game, &s).contains("phase: moving"));
}

#[test]
fn require_else_message_explains() {
    let game = g(
        "square 3 by 1",
        "turn { choose c in cells where empty(c)\n require c != b1 else \"the middle is not allowed\"\n place Stone at c }",
    );
    let s = start(&game);
    let tabula::interp::Verdict::Illegal { attempts } =
        tabula::interp::explain(&game, &s, "b1").expect("explain")
    else {
        panic!("b1 is illegal")
    };
    let text = crate::render_problems(
        &attempts.iter().map(|a| a.to_problem(&game, "b1")).collect::<Vec<_>>(),
    );
    assert!(text.contains("the middle is not allowed"), "{text}");
}

#[test]
fn if_then_else_expressions() {
    let game = g(
        "square 3 by 3 with 8 neighbours",
        "def home = if me == A then 1 else 3\n\
         turn { choose c in cells where empty(c) and rank(c) == home\n place Stone at c }",
    );
    assert_eq!(moves(&game, &start(&game)), vec!["a1", "b1", "c1"]);
    let s = play(&game, &start(&game), "a1");
    assert_eq!(moves(&game, &s), vec!["a3", "b3", "c3"]);
}

/// The cross-check runs random games of [`FEATURES`]; this shows those
/// games reach what they are meant to exercise: the second phase, a player
/// moving again, a seat skipped, a piece crowned in place, a flipped
/// stone, and an end.
#[test]
fn random_feature_games_reach_every_feature() {
    let game = game_text(FEATURES).unwrap();
    let crown = game.kinds.iter().position(|k| k.name == "Crown").unwrap() as u16;
    let (mut middle, mut again, mut skip, mut crowned, mut flipped, mut ended) =
        (false, false, false, false, false, false);
    for seed in 0..6 {
        let mut rng = tabula::rng::Rng::new(seed);
        let mut s = start(&game);
        for _ in 0..400 {
            let ms = s.legal_moves(&game).unwrap();
            if ms.is_empty() {
                ended = true;
                break;
            }
            let mover = s.current();
            let stones = |s: &tabula::State, p: u8| {
                (0..game.board.len() as u16)
                    .filter(|&c| s.piece(&game, c).is_some_and(|(q, k)| q == p && k != crown))
                    .count()
            };
            let before: Vec<usize> = (0..3).map(|p| stones(&s, p)).collect();
            let crowns = |s: &tabula::State| {
                (0..game.board.len() as u16)
                    .filter(|&c| s.piece(&game, c).is_some_and(|(_, k)| k == crown))
                    .count()
            };
            let c0 = crowns(&s);
            let t = s.play(&game, &ms[rng.below(ms.len())]).unwrap();
            middle |= t.to_text(&game).contains("phase middle");
            if t.ended().is_none() {
                again |= t.current() == mover;
                skip |= t.current() == (mover + 2) % 3;
            }
            crowned |= crowns(&t) > c0;
            // No rule removes a piece: another player has fewer stones only
            // when one of them changed hands.
            let after: Vec<usize> = (0..3).map(|p| stones(&t, p)).collect();
            flipped |= (0..3u8).any(|p| p != mover && after[p as usize] < before[p as usize]);
            s = t;
        }
    }
    assert!(
        middle && again && skip && crowned && flipped && ended,
        "phase {middle}, again {again}, skip {skip}, crown {crowned}, flip {flipped}, end {ended}"
    );
}

#[test]
fn a_name_may_start_with_in_after_none() {
    // `none` then `def in_...`: no quantifier `none def in ...` is read.
    let game = g(
        "square 2 by 1",
        "def nobody = none\ndef in_corner(c) = file(c) == 1\n\
         turn { choose c in cells where in_corner(c) and owner(c) == nobody\n place Stone at c }",
    );
    assert_eq!(moves(&game, &start(&game)), vec!["a1"]);
}

/// A 3×3 placement game whose cell choice may be typed short or not.
fn short_game(short: bool) -> tabula::Game {
    let clause = if short { " as short" } else { "" };
    game_text(&format!(
        "game \"Fill\"\nplayers A, B\nboard square 3 by 3\npiece Stone \"o\"\n\
         turn {{\n    choose c in cells where empty(c){clause}\n    place Stone at c\n}}\n"
    ))
    .unwrap()
}

#[test]
fn a_short_choice_may_be_typed_by_the_start_of_its_value() {
    use tabula::notation::MoveError;
    let g = short_game(true);
    let s = start(&g);
    // `a` fits a1, a2 and a3: not a move, and the three are offered.
    match s.parse_move(&g, "a") {
        Err(MoveError::Incomplete { next, .. }) => assert_eq!(next, ["a1", "a2", "a3"]),
        other => panic!("{other:?}"),
    }
    // Once a1 and a2 are taken, `a` names a3 alone; exact names still work.
    let s = play(&g, &play(&g, &s, "a1"), "a2");
    assert_eq!(State::move_text(&g, &s.parse_move(&g, "A").unwrap()), "a3");
    assert_eq!(State::move_text(&g, &s.parse_move(&g, "b2").unwrap()), "b2");
    // In a sequence too.
    let t = tabula::notation::play_sequence(&g, &start(&g), "a1 a2 a").unwrap();
    assert_eq!(moves(&g, &t), ["b1", "c1", "b2", "c2", "b3", "c3"]);
    // Without `as short` the start of a name is not a move.
    let plain = short_game(false);
    let s = play(&plain, &play(&plain, &start(&plain), "a1"), "a2");
    assert!(s.parse_move(&plain, "a").is_err());
}

#[test]
fn connect_four_takes_a_column_letter_and_never_misreads_a_cell() {
    let g = crate::game("connect4.game");
    let s = tabula::notation::play_sequence(&g, &start(&g), "d d e").unwrap();
    assert_eq!(crate::at(&g, &s, "d1"), "Red Disc");
    assert_eq!(crate::at(&g, &s, "d2"), "Yellow Disc");
    assert_eq!(crate::at(&g, &s, "e1"), "Red Disc");
    // On a taller board `a1` stays the cell a1 (taken, so illegal) and is
    // never read as the start of `a11`.
    let tall = crate::game_with("connect4.game", &[("rows", 12)]);
    let s = tabula::notation::play_sequence(&tall, &start(&tall), &"a ".repeat(10)).unwrap();
    assert!(moves(&tall, &s).contains(&"a11".to_string()));
    assert!(s.parse_move(&tall, "a1").is_err());
    assert_eq!(State::move_text(&tall, &s.parse_move(&tall, "a").unwrap()), "a11");
}

/// The compile passes that docs/performance.md and `compile/opt.rs` credit
/// with each bundled game's speed still fire on it: a pass that stops
/// matching its pattern leaves every answer the same (the crosscheck
/// cannot see it) and only makes the game slower.
#[test]
fn bundled_games_use_their_compile_passes() {
    let expect: &[(&str, &[&str])] = &[
        (
            "boop.game",
            &[
                "lines as shifts: `any` over lines",
                "hoisted: `all` over each element's cells",
                "guarded rounds: a `for` whose rounds test a set form first",
                "guarded rounds: the guard `occupied(n) and p(kind(n)) op E` as one set of kinds",
                "stepless rounds: a `for` over the directions takes its steps at once",
                "lines as shifts: options of `choose l`",
                "before a decision: a `take` run once for all its options",
                "cell switch: an `if` chain over one cell's state",
                "cell switch: `move y to x` where `x` is empty, made in place",
                "stepped switch: a round's `let x = step(n, d)` and cell switch made in the rounds' closure",
                "count in place: a zone's count compared with a constant",
                "lines in place: a line all in one or two occupancy sets",
                "if of a line test: the test made in the `if`'s closure",
                "kinds in place: options of `choose piece`, the zone's counters read directly",
                "live locals: an option of decision 1 (`square`) carries 2 of 15 words, 0 of 1 sets, 0 of 1 collections; again for each option 0 of 15, 0 of 1, 0 of 1",
                "fused test: statements and the test after them as one op",
                "fused test: an `else if`'s test where the fused test fails, in the same op",
                "cell switch: a piece sent home (pass 45) made in place",
            ],
        ),
        (
            "breakthrough.game",
            &[
                "precomputed relation of two cells and the mover",
                "lazy tail after decision 1",
                "next decides: decision 0 (`pawn`) is followed at once by another",
                "counted playouts: a playout plays the move it draws among those counted",
            ],
        ),
        (
            "bug.game",
            &[
                "set form: `count` over a collection of sets, counted for every cell at once",
                "set form: `any` over a collection of sets, counted for every cell at once",
                "emptiness of a collected set: stops at the first non-empty element",
                "shared: a collected set's body computed once with its filter",
                "touch guard: a quantifier over groups looks only at the groups next to a set",
                "set form: the groups touching a set, by one flood fill",
                "remove all: a `for` that removes every cell of a set, at once",
                "memo: a collection over groups, remembered per set and pieces",
                "largest group: `max x in S: size(group(x))` by the groups meeting S",
                "options first: a `while` that asks whether its `choose` has options",
                "touch bound: a collection over groups that must touch another player's groups",
                "group-size require: asked of each cell as the options are listed",
            ],
        ),
        (
            "bug_off.game",
            &[
                "chance tail: the options of decision 5 (`card`) run into a chance event",
                "chance tail: the options of decision 6 (`card`) run into a chance event",
                "sure tail: the options of decision 5 (`card`) are moves when the position allows",
                "sure tail: the options of decision 6 (`card`) are moves when the position allows",
                "argument read in place: a `def`'s one parameter",
                "arms that decide: each arm of `either` 4 begins with a decision",
                "kinds in place: options of `choose card`, the zone's counters read directly",
                "kind sets: `any` over a zone's pieces",
                "kind filter: a `for` over kinds whose filter is a kind set over a zone the loop leaves alone, that zone read once per loop",
                "kinds in place: a `for` over a zone's kinds, its counters read directly",
                "arms alike: decision 6 (`card`) counts as the `choose` of arm 0",
                "counted playouts: a playout plays the move it draws among those counted",
                "owned search: the position searched is held, not copied",
                "face up: the rules without their reveals, for perft",
                "face up: sure tail: the options of decision 5 (`card`) are moves",
                "face up: arms alike: decision 6 (`card`) counts as the `choose` of arm 0",
                "leaf count: perft counts the moves at its last ply",
                "face up: leaf count: perft counts the moves at its last ply",
                "face up: end kind: a test of a zone's end piece's kind, from a table",
            ],
        ),
        (
            "chess.game",
            &[
                "cell pattern: a set of cells made from one cell (and a player) alone, from a table made at load",
                "ray quantifier: `any`, `none`, `all` or `count` over `dirs` of the first piece along each ray, from a table made at load",
            ],
        ),
        (
            "othello.game",
            &[
                "first along a line: `min k in range(a, b) where F(L[k]): k` as one walk of `L` against the set where `F` holds",
                "guarded directions: `any d in dirs: A and B` tests `A` of `step(x, d)` against one set, asking `B` only where it holds",
                "lazy tail after decision 0 (`square`)",
                "drawn filter: a playout asks the filter of decision 0 (`square`) only of the options it draws",
            ],
        ),
        (
            "connect4.game",
            &[
                "lines as shifts: `any` over lines",
                "lines in place: a line all in one or two occupancy sets",
                "if of a line test: the test made in the `if`'s closure",
                "lazy tail after decision 0",
                "owned search: the position searched is held, not copied",
            ],
        ),
        ("hex.game", &["set form: options of `choose c`", "lazy tail after decision 1"]),
        (
            "morris.game",
            &[
                "precomputed relation of two cells",
                "lazy tail after decision 4",
                "lines through a cell: a quantifier over the lines that hold a cell",
                "fused test: statements and the test after them as one op",
            ],
        ),
        (
            "snekagon.game",
            &[
                "memo: a condition of one set, remembered per set",
                "set form: a count of neighbours compared with a number",
                "placements by cells: options of `choose cover`",
                "drawn tail: a playout draws among the options of decision 1 (`cover`)",
                "neighbourhood require: asked of each placement as the options are listed",
                "group require: asked of each placement as the options are listed",
                "lazy tail after decision 1 (`cover`)",
                "counted playouts: a playout plays the move it draws among those counted",
            ],
        ),
        (
            "tictactoe.game",
            &[
                "lines as shifts: `any` over lines",
                "lazy tail after decision 0",
                "owned search: the position searched is held, not copied",
            ],
        ),
    ];
    for (name, passes) in expect {
        let g = crate::game(name);
        let notes = g.program().notes();
        for p in *passes {
            assert!(
                notes.iter().any(|n| n.starts_with(p)),
                "{name}: the pass `{p}` no longer fires; notes: {notes:#?}"
            );
        }
    }
}

#[test]
fn a_chance_tail_is_marked_only_where_every_option_reaches_the_draw() {
    // Pass 14 marks the play from the hand when whatever card is chosen
    // the turn runs, without failing or ending, into the draw from a pile
    // it leaves alone; a tail that may fail, may end the turn, asks a
    // quantifier, changes the pile or asks for another decision first is
    // not marked (that other decision is).
    let game = |tail: &str| {
        let text = format!(
            "players A, B\npiece Red\npiece Blue\n\
             zone deck shared ordered hidden\nzone hand per player owner\n\
             zone table per player\nzone heap shared\nvar score per player = 0\n\
             setup {{ add 5 Red to deck  add 5 Blue to deck  shuffle deck\n\
               for p in players {{ move first(deck) from deck to hand(p) }} }}\n\
             turn {{\n choose c in hand(me)\n {tail}\n\
               move last(deck) from deck to hand(next(me))\n}}\non no moves {{ pass }}\n"
        );
        let g = game_text(&text).unwrap_or_else(|e| panic!("{tail}: {e}"));
        g.program()
            .notes()
            .iter()
            .any(|n| n.starts_with("chance tail: the options of decision") && n.contains("(`c`)"))
    };
    for tail in [
        "move c from hand(me) to table(me)",
        "move 1 c from hand(me) to heap",
        "move c from hand(me) to table(me)  for q in players { move all Red from table(q) to heap }",
        "move c from hand(me) to table(me)  if count(table(me)) == 2 { score(me) += 1 }",
        "let n = count(table(me))  score(me) += n",
    ] {
        assert!(game(tail), "not marked: {tail}");
    }
    for tail in [
        "move 2 c from hand(me) to heap",
        "move 1 Red from hand(me) to heap",
        "move c from hand(me) to table(me)  if count(table(me)) == 2 { draw }",
        "move c from hand(me) to table(me)  if count(table(me)) == 3 { win me }",
        "move c from hand(me) to table(me)  require count(table(me)) < 3",
        "move c from hand(me) to deck",
        "move c from hand(me) to table(me)  score(me) += count k in kinds where count(table(me), k) > 1",
        "move c from hand(me) to table(me)  choose d in table(me) as \"again\"",
        "move c from hand(me) to table(me)  shuffle deck",
    ] {
        assert!(!game(tail), "marked: {tail}");
    }
}

#[test]
fn a_collected_body_is_shared_only_with_the_same_expression_in_its_filter() {
    // Pass 12 shares `open(g)` between a collect's filter and body only
    // when both ask it of the element, outside any quantifier of the
    // filter: `open(h)` of another local and an `open(g)` inside `any`
    // are other values.
    let shared = |filter: &str| {
        let game = game_text(&format!(
            "players A, B\nboard square 4 by 4\npiece Stone\n\
             def open(g) = collect y in neighbours(g) where empty(y)\n\
             turn {{ choose c in cells where empty(c)\n place Stone at c\n let h = group(c)\n\
             let x = size(collect g in groups(me) where {filter}: open(g))\n\
             if x > 30 {{ win me }} }}"
        ))
        .unwrap();
        game.program().notes().iter().filter(|n| n.starts_with("shared:")).count()
    };
    assert_eq!(shared("size(open(g)) >= 2"), 1);
    assert_eq!(shared("size(h) > 1 and size(open(g)) >= 2"), 1);
    assert_eq!(shared("size(open(h)) >= 2"), 0);
    assert_eq!(shared("any k in groups(me): size(open(g)) > 1"), 0);
}
