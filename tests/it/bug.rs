//! Bug: every rule and worked check of rules/bug.md on concrete positions,
//! and the shape primitive behind it.

use crate::{game_with, moves, outcome, play, position};
use tabula::board::{Board, CellSet, Shape};
use tabula::{Game, State};

/// The name of the cell at axial `(q, r)`.
fn at(g: &Game, q: i32, r: i32) -> String {
    let i = g.board.coords.iter().position(|&c| c == (q, r)).unwrap_or_else(|| panic!("({q},{r})"));
    g.board.names[i].clone()
}

/// A position from `(player, [(q, r)...])` lists.
fn setup(g: &Game, to_move: &str, stones: &[(&str, &[(i32, i32)])]) -> State {
    let mut text = format!("turn {to_move}\n");
    for (p, cells) in stones {
        let names: Vec<String> = cells.iter().map(|&(q, r)| at(g, q, r)).collect();
        text.push_str(&format!("{p} Stone {}\n", names.join(" ")));
    }
    position(g, &text)
}

fn side(n: i64) -> Game {
    game_with("bug.game", &[("side", n)])
}

/// Stones of a player as axial coordinates, sorted.
fn stones(g: &Game, s: &State, p: u8) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = (0..g.board.len() as u16)
        .filter(|&c| s.piece(g, c).is_some_and(|x| x.0 == p))
        .map(|c| g.board.coords[c as usize])
        .collect();
    v.sort();
    v
}

fn starting_with(m: &[String], prefix: &str) -> Vec<String> {
    m.iter().filter(|x| *x == prefix || x.starts_with(&format!("{prefix} "))).cloned().collect()
}

#[test]
fn worked_check_bent_trihex_eats_bent_trihex() {
    let g = side(3);
    let s = setup(
        &g,
        "White",
        &[("Black", &[(-2, 0), (-1, 0), (-1, 1)]), ("White", &[(1, 0), (0, 1)])],
    );
    let grow = at(&g, 1, -1);
    let ms = starting_with(&moves(&g, &s), &grow);
    assert!(!ms.is_empty());
    // Exactly one bonus placement after eating.
    assert!(ms.iter().all(|m| m.matches('+').count() == 1), "{ms:?}");
    let t = play(&g, &s, &ms[0]);
    assert!(stones(&g, &t, 0).is_empty(), "Black's bug was eaten");
    // Bonus growth has no size limit: White's bug now has 4 stones, more
    // than any bug had before.
    assert_eq!(stones(&g, &t, 1).len(), 4);
}

#[test]
fn worked_check_different_shapes_do_not_eat() {
    let g = side(3);
    let s = setup(
        &g,
        "White",
        &[("White", &[(2, -2), (2, -1)]), ("Black", &[(-2, 0), (-1, 0), (0, 0)])],
    );
    let grow = at(&g, 1, 0);
    assert_eq!(starting_with(&moves(&g, &s), &grow), vec![grow]);
}

#[test]
fn worked_check_blocked_eat_passes_to_the_other_player() {
    let g = side(4);
    let s = setup(
        &g,
        "Black",
        &[("White", &[(-1, -2), (-2, 0), (-3, 2)]), ("Black", &[(-1, -1), (-1, 0), (-2, 1)])],
    );
    // Black's new singleton next to White's singleton cannot eat: every
    // bonus cell would merge Black's bugs.
    let grow = at(&g, -3, 0);
    assert_eq!(starting_with(&moves(&g, &s), &grow), vec![grow.clone()]);
    let t = play(&g, &s, &grow);
    // Only the mover eats: White's singleton is still there, and so is Black's.
    assert!(stones(&g, &t, 0).contains(&(-3, 0)));
    assert!(stones(&g, &t, 1).contains(&(-2, 0)));
    // White grows far away; then (-2,0) eats (-3,0), and the only bonus cell is (-3,0).
    let far = at(&g, 3, -3);
    let wm = starting_with(&moves(&g, &t), &far);
    assert_eq!(wm, [format!("{far} +{}", at(&g, -3, 0))]);
}

#[test]
fn worked_check_two_identical_prey_are_eaten_at_once() {
    let g = side(3);
    let s = setup(&g, "Black", &[("White", &[(1, 0), (-1, 0)])]);
    let grow = at(&g, 0, 0);
    let ms = starting_with(&moves(&g, &s), &grow);
    assert_eq!(ms.len(), 6, "any of the six cells around, two of them freed: {ms:?}");
    let t = play(&g, &s, &ms[0]);
    assert!(stones(&g, &t, 1).is_empty());
    assert_eq!(stones(&g, &t, 0).len(), 2, "grows by exactly one");
}

#[test]
fn worked_check_size_limit() {
    let g = side(3);
    // Black's domino is the unique largest bug: it cannot grow.
    let s = setup(&g, "Black", &[("Black", &[(0, 0), (1, 0)]), ("White", &[(-2, 2)])]);
    let m = moves(&g, &s);
    assert!(!m.contains(&at(&g, 2, 0)), "growing the unique largest bug is illegal");
    assert!(m.contains(&at(&g, 0, -2)), "a new bug is always fine");
    // Tied for largest: still cannot grow.
    let s = setup(&g, "Black", &[("Black", &[(0, 0), (1, 0)]), ("White", &[(-2, 2), (-1, 2)])]);
    assert!(!moves(&g, &s).contains(&at(&g, 2, 0)));
    // Growing to equal the largest (of the other colour) is legal.
    let s = setup(&g, "Black", &[("Black", &[(0, 0)]), ("White", &[(-2, 2), (-1, 2)])]);
    assert!(moves(&g, &s).contains(&at(&g, 1, 0)));
}

#[test]
fn no_merging() {
    let g = side(3);
    let s = setup(
        &g,
        "Black",
        &[("Black", &[(-1, 0), (1, 0)]), ("White", &[(2, -2), (2, -1), (1, -1)])],
    );
    // (0,0) touches both Black singletons.
    assert!(!moves(&g, &s).contains(&at(&g, 0, 0)));
}

#[test]
fn chains_eat_again_after_a_bonus_growth() {
    let g = side(4);
    // Black grows (0,0) next to White's singleton; a bonus stone on (-1,1)
    // makes a domino next to White's domino, which is eaten in turn.
    let s = setup(&g, "Black", &[("White", &[(1, 0), (-2, 2), (-1, 2)])]);
    let first = format!("{} +{}", at(&g, 0, 0), at(&g, -1, 1));
    let ms = starting_with(&moves(&g, &s), &first);
    assert!(!ms.is_empty());
    assert!(ms.iter().all(|m| m.matches('+').count() == 2), "{ms:?}");
    let t = play(&g, &s, &ms[0]);
    assert!(stones(&g, &t, 1).is_empty());
    assert_eq!(stones(&g, &t, 0).len(), 3);
}

#[test]
fn the_mover_chooses_among_several_eaters() {
    let g = side(4);
    // Black's (2,-2) already touches White's (3,-3); Black grows (-2,0)
    // next to White's (-1,0). Both singletons are candidates.
    let s = setup(&g, "Black", &[("Black", &[(2, -2)]), ("White", &[(3, -3), (-1, 0)])]);
    let grow = at(&g, -2, 0);
    let ms = starting_with(&moves(&g, &s), &grow);
    let firsts: Vec<&str> = ms.iter().map(|m| m.split(' ').nth(1).unwrap_or("")).collect();
    assert!(firsts.contains(&format!("+{}", at(&g, -1, 0)).as_str()), "{ms:?}");
    assert!(firsts.contains(&format!("+{}", at(&g, 3, -3)).as_str()), "{ms:?}");
    // Both eat in the end, in either order.
    assert!(ms.iter().all(|m| m.matches('+').count() == 2), "{ms:?}");
}

#[test]
fn a_player_without_a_legal_grow_wins() {
    let g = side(2);
    // The only empty cell touches three separate Black bugs.
    let s = setup(
        &g,
        "Black",
        &[("Black", &[(1, -1), (-1, 0), (0, 1)]), ("White", &[(1, 0), (0, -1), (-1, 1)])],
    );
    assert!(moves(&g, &s).is_empty());
    assert_eq!(outcome(&g, &s), "Black wins");
}

#[test]
fn opening_black_first_then_white() {
    let g = side(3);
    let s = crate::start(&g);
    assert_eq!(moves(&g, &s).len(), 19);
    let t = play(&g, &s, "b2");
    assert_eq!(g.players[t.current() as usize], "White");
}

#[test]
fn variants_bigger_boards() {
    for (n, cells) in [(4, 37), (5, 61)] {
        let g = side(n);
        assert_eq!(moves(&g, &crate::start(&g)).len(), cells);
    }
}

// ---- shapes -------------------------------------------------------------

/// The connected sets of `size` cells that hold the board's centre.
fn connected_sets(board: &Board, size: usize) -> Vec<CellSet> {
    let centre = (board.len() / 2) as u16;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    let mut start = CellSet::EMPTY;
    start.insert(centre);
    let mut frontier = vec![start];
    seen.insert(start);
    while let Some(s) = frontier.pop() {
        if s.len() == size {
            out.push(s);
            continue;
        }
        for c in s.iter().collect::<Vec<_>>() {
            for n in board.neighbours(c).iter() {
                let mut t = s;
                t.insert(n);
                if t.len() > s.len() && seen.insert(t) {
                    frontier.push(t);
                }
            }
        }
    }
    out
}

/// Shape codes (what `same_shape` compares for small shapes) count the
/// free polyhexes and polyominoes right (OEIS A000228: 1, 1, 3, 7, 22;
/// A000105: 1, 1, 2, 5, 12), and agree with `same_shape` on pairs.
#[test]
fn shape_codes_tell_shapes_apart_like_same_shape() {
    let hex = Board::new(Shape::HexHex { side: 6 }).expect("board");
    let square = Board::new(Shape::Square { width: 11, height: 11, neighbours: 4 }).expect("board");
    for (board, counts) in [(&hex, [1, 1, 3, 7, 22]), (&square, [1, 1, 2, 5, 12])] {
        for (k, &count) in (1..=5).zip(counts.iter()) {
            let sets = connected_sets(board, k);
            let code = |s: &CellSet| board.shape_code(&s.iter().collect::<Vec<_>>()).expect("fits");
            let codes: std::collections::BTreeSet<u64> = sets.iter().map(code).collect();
            assert_eq!(codes.len(), count, "size {k}");
            for a in sets.iter().step_by(7) {
                for b in sets.iter().step_by(5) {
                    assert_eq!(code(a) == code(b), board.same_shape(a, b), "{a:?} {b:?}");
                }
            }
        }
    }
    // Nine cells have no code; neither has a set wider than the box.
    let row: Vec<u16> = (0..9).collect();
    assert_eq!(square.shape_code(&row), None);
    assert_eq!(square.shape_code(&[0, 9]), None);
}

/// The number of distinct free shapes of `size` connected cells.
fn free_shapes(board: &Board, size: usize) -> usize {
    let forms: std::collections::BTreeSet<_> =
        connected_sets(board, size).iter().map(|s| board.canonical(s)).collect();
    forms.len()
}

#[test]
fn free_polyhexes_and_polyominoes_are_counted_right() {
    let hex = Board::new(Shape::HexHex { side: 6 }).expect("board");
    let counts: Vec<usize> = (1..=5).map(|k| free_shapes(&hex, k)).collect();
    assert_eq!(counts, [1, 1, 3, 7, 22]);
    let square = Board::new(Shape::Square { width: 11, height: 11, neighbours: 4 }).expect("board");
    let counts: Vec<usize> = (1..=5).map(|k| free_shapes(&square, k)).collect();
    assert_eq!(counts, [1, 1, 2, 5, 12]);
}

fn set(board: &Board, cells: &[(i32, i32)]) -> CellSet {
    let mut s = CellSet::EMPTY;
    for c in cells {
        let i = board.coords.iter().position(|x| x == c).expect("cell");
        s.insert(i as u16);
    }
    s
}

#[test]
fn shapes_equal_their_mirror_images_and_trihexes_differ() {
    let b = Board::new(Shape::HexHex { side: 5 }).expect("board");
    // A chiral-looking tetrahex and its reflection (q, r) -> (r, q).
    let s1 = set(&b, &[(0, 0), (1, 0), (1, 1), (2, 1)]);
    let s2 = set(&b, &[(0, 0), (0, 1), (1, 1), (1, 2)]);
    assert!(b.same_shape(&s1, &s2));
    // Translated and rotated copies.
    let s3 = set(&b, &[(-2, 0), (-2, 1), (-3, 2), (-3, 3)]);
    assert!(b.same_shape(&s1, &s3));
    let straight = set(&b, &[(0, 0), (1, 0), (2, 0)]);
    let bent = set(&b, &[(0, 0), (1, 0), (1, 1)]);
    let triangle = set(&b, &[(0, 0), (1, 0), (0, 1)]);
    assert!(!b.same_shape(&straight, &bent));
    assert!(!b.same_shape(&straight, &triangle));
    assert!(!b.same_shape(&bent, &triangle));
}

// ---- cross-check against the hand-written reference -----------------------

#[test]
fn perft_and_move_lists_match_the_reference() {
    use crate::native::{bug, Engine};
    let g = side(3);
    let native = bug::Game::new(3);
    for d in 1..=3 {
        assert_eq!(
            tabula::perft(&g, &crate::start(&g), d).unwrap(),
            native.perft(&native.initial(), d),
            "depth {d}"
        );
    }
    // Whole random games on side 4, comparing every move list.
    let g = side(4);
    let native = bug::Game::new(4);
    let mut rng = tabula::rng::Rng::new(29);
    let mut rm = Vec::new();
    for _ in 0..4 {
        let mut ours = crate::start(&g);
        let mut theirs = native.initial();
        loop {
            native.legal_moves(&theirs, &mut rm);
            let b: Vec<String> = rm.iter().map(|m| native.text(&g, m)).collect();
            crate::same_moves(moves(&g, &ours), b, &ours.to_text(&g));
            if rm.is_empty() {
                assert_eq!(
                    outcome(&g, &ours),
                    format!("{} wins", g.players[ours.current() as usize])
                );
                break;
            }
            let m = &rm[rng.below(rm.len())];
            ours = play(&g, &ours, &native.text(&g, m));
            theirs = native.play(&theirs, m);
        }
    }
}
