//! boop.: every rule and every worked check of rules/boop.md on a concrete
//! position. Positions use the position text format (docs/language.md).

use crate::{at, game, moves, outcome, play, position, start, text};

/// Both players with full pools and stocks, except what the test adds.
const POOLS: &str = "
pool Orange Kitten 8
pool Gray Kitten 8
stock Orange Cat 8
stock Gray Cat 8
";

fn with_pools(extra: &str) -> String {
    format!("{POOLS}\n{extra}")
}

#[test]
fn opening_moves_are_kittens_on_every_square() {
    let g = game("boop.game");
    let m = moves(&g, &start(&g));
    assert_eq!(m.len(), 36);
    assert_eq!(m[0], "K a1");
    assert_eq!(m[35], "K f6");
}

#[test]
fn worked_check_kitten_does_not_boop_a_cat() {
    // A Kitten placed next to a Cat leaves the Cat in place.
    let g = game("boop.game");
    let s = position(&g, &with_pools("Gray Cat c3\npool Gray Cat 1"));
    let t = play(&g, &s, "K d3");
    assert!(text(&g, &t).contains("Gray Cat c3"), "{}", text(&g, &t));
}

#[test]
fn worked_check_cat_boops_kittens_and_cats() {
    // A Cat placed next to a Kitten or Cat pushes it if the square behind is empty.
    let g = game("boop.game");
    let s = position(&g, "pool Orange Cat 1\nGray Kitten c3\nGray Cat d4");
    let t = play(&g, &s, "C d3");
    let tt = text(&g, &t);
    assert!(tt.contains("Gray Kitten b3"), "{tt}");
    assert!(tt.contains("Gray Cat d5"), "{tt}");
    assert!(tt.contains("Orange Cat d3"), "{tt}");
}

#[test]
fn worked_check_blocked_boop() {
    // Pieces on b2 and c3, a Kitten placed on a1: the b2 piece does not move.
    let g = game("boop.game");
    let s = position(&g, &with_pools("Gray Kitten b2 c3"));
    let t = play(&g, &s, "K a1");
    let tt = text(&g, &t);
    assert!(tt.contains("Gray Kitten b2 c3"), "{tt}");
}

#[test]
fn boop_moves_a_piece_whose_square_behind_is_empty() {
    let g = game("boop.game");
    let s = position(&g, &with_pools("Gray Kitten b2"));
    let t = play(&g, &s, "K a1");
    assert!(text(&g, &t).contains("Gray Kitten c3"), "{}", text(&g, &t));
}

#[test]
fn worked_check_off_board_returns_to_owners_pool() {
    // A Kitten on a3 booped by a piece placed on b3 leaves the board and
    // returns to its owner's pool.
    let g = game("boop.game");
    let s = position(&g, "pool Orange Kitten 2\npool Gray Kitten 7\nGray Kitten a3");
    let t = play(&g, &s, "K b3");
    let tt = text(&g, &t);
    assert!(!tt.contains("a3"), "{tt}");
    assert!(tt.contains("pool Gray Kitten 8"), "{tt}");
    assert!(tt.contains("pool Orange Kitten 1\n"), "the booper's pool does not gain it: {tt}");
}

#[test]
fn the_mover_chooses_kitten_or_cat() {
    let g = game("boop.game");
    let s = position(&g, "pool Orange Kitten 1\npool Orange Cat 1");
    let m = moves(&g, &s);
    assert_eq!(m.len(), 72);
    assert!(m.contains(&"K a1".to_string()) && m.contains(&"C a1".to_string()));
}

#[test]
fn no_cat_from_an_empty_pool() {
    let g = game("boop.game");
    let s = position(&g, "pool Orange Kitten 3\nstock Orange Cat 8");
    assert!(moves(&g, &s).iter().all(|m| m.starts_with('K')));
    assert!(s.parse_move(&g, "C a1").is_err());
}

#[test]
fn placing_needs_an_empty_square() {
    let g = game("boop.game");
    let s = position(&g, &with_pools("Gray Kitten c3"));
    assert!(!moves(&g, &s).iter().any(|m| m == "K c3"));
    assert!(s.parse_move(&g, "K c3").is_err());
}

#[test]
fn worked_check_graduation_kitten_cat_kitten() {
    // Kitten–Cat–Kitten in a line of the mover: the pool gains 3 Cats,
    // 3 pieces leave the board, 2 Cats come from out of play.
    let g = game("boop.game");
    let s =
        position(&g, "Orange Kitten a1\nOrange Cat b1\npool Orange Kitten 6\nstock Orange Cat 7");
    let m = moves(&g, &s);
    assert!(m.contains(&"K c1 grad a1-c1".to_string()), "{m:?}");
    assert!(!m.contains(&"K c1".to_string()), "graduation is compulsory");
    let t = play(&g, &s, "K c1 grad a1-c1");
    let tt = text(&g, &t);
    for c in ["a1", "b1", "c1"] {
        assert_eq!(at(&g, &t, c), "-", "{tt}");
    }
    assert!(tt.contains("pool Orange Kitten 5"), "{tt}");
    assert!(tt.contains("pool Orange Cat 3"), "{tt}");
    assert!(tt.contains("stock Orange Cat 5"), "{tt}");
}

#[test]
fn graduation_in_a_line_of_four_offers_each_three() {
    let g = game("boop.game");
    // K C _ C on the first rank; a Kitten on c1 boops neither Cat.
    let s = position(
        &g,
        "Orange Kitten a1\nOrange Cat b1 d1\npool Orange Kitten 5\nstock Orange Cat 6",
    );
    let c1: Vec<String> = moves(&g, &s).into_iter().filter(|m| m.starts_with("K c1")).collect();
    assert_eq!(c1, ["K c1 grad a1-c1", "K c1 grad b1-d1"]);
}

#[test]
fn only_one_of_two_lines_graduates() {
    let g = game("boop.game");
    // Placing on c3 completes a1-b2-c3 (diagonal) and c1-c2-c3 (file).
    let s = position(&g, "Orange Kitten a1 b2 c1 c2\npool Orange Kitten 4\nstock Orange Cat 8");
    let c3: Vec<String> = moves(&g, &s).into_iter().filter(|m| m.starts_with("K c3")).collect();
    // Lines are listed by their first cell (a1 before c1).
    assert_eq!(c3, ["K c3 grad a1-c3", "K c3 grad c1-c3"]);
    let t = play(&g, &s, "K c3 grad c1-c3");
    let tt = text(&g, &t);
    assert!(tt.contains("Orange Kitten a1 b2"), "the other line stays: {tt}");
}

#[test]
fn three_cats_in_a_line_win_at_once() {
    let g = game("boop.game");
    let s = position(
        &g,
        "Orange Cat a1 b1\nOrange Kitten a2 b2\npool Orange Cat 1\npool Orange Kitten 4",
    );
    let m = moves(&g, &s);
    // The winning placement has no graduation choice even though kitten lines may exist.
    assert!(m.contains(&"C c1".to_string()), "{m:?}");
    let t = play(&g, &s, "C c1");
    assert_eq!(outcome(&g, &t), "Orange wins");
    assert!(moves(&g, &t).is_empty());
}

#[test]
fn worked_check_all_eight_on_the_bed_removes_one() {
    // 8 pieces on the board, 5 Cats and 3 Kittens, no line: the mover
    // removes one piece of their choice; either way the pool then holds 1 Cat.
    let g = game("boop.game");
    let s = position(
        &g,
        "Orange Cat a1 c1 e1 a3 c3\nOrange Kitten e3 a5\npool Orange Kitten 1\nstock Orange Cat 3\n\
         pool Gray Kitten 8\nstock Gray Cat 8",
    );
    let e5: Vec<String> = moves(&g, &s).into_iter().filter(|m| m.starts_with("K e5")).collect();
    assert_eq!(
        e5,
        [
            "K e5 remove a1",
            "K e5 remove c1",
            "K e5 remove e1",
            "K e5 remove a3",
            "K e5 remove c3",
            "K e5 remove e3",
            "K e5 remove a5",
            "K e5 remove e5"
        ]
    );
    let cat = text(&g, &play(&g, &s, "K e5 remove a1"));
    assert!(cat.contains("pool Orange Cat 1") && cat.contains("stock Orange Cat 3"), "{cat}");
    let kitten = text(&g, &play(&g, &s, "K e5 remove e3"));
    assert!(
        kitten.contains("pool Orange Cat 1") && kitten.contains("stock Orange Cat 2"),
        "{kitten}"
    );
}

#[test]
fn worked_check_eight_cats_win() {
    let g = game("boop.game");
    let s = position(
        &g,
        "Orange Cat a1 c1 e1 a3 c3 e3 a5\npool Orange Cat 1\npool Gray Kitten 8\nstock Gray Cat 8",
    );
    let t = play(&g, &s, "C e5");
    assert_eq!(outcome(&g, &t), "Orange wins");
}

#[test]
fn opponent_lines_are_ignored_until_their_turn() {
    let g = game("boop.game");
    // Orange's Kitten on e5 boops Gray's d4 south-west to c3: Gray now has
    // a3-b3-c3, a line made on Orange's turn.
    let s = position(&g, &with_pools("Gray Kitten a3 b3 d4"));
    let m = moves(&g, &s);
    assert!(m.contains(&"K e5".to_string()), "Orange does not graduate Gray's line");
    let t = play(&g, &s, "K e5");
    let tt = text(&g, &t);
    assert!(tt.contains("Gray Kitten a3 b3 c3"), "{tt}");
    // On Gray's own turn the line must graduate.
    let gm = moves(&g, &t);
    assert!(gm.contains(&"K f1 grad a3-c3".to_string()), "{gm:?}");
    assert!(!gm.contains(&"K f1".to_string()));
}

#[test]
fn ownership_invariants_hold_in_random_games() {
    // The invariant: Cats in play + Cats out of play = 8, so a Kitten
    // graduating always finds a Cat in the stock in the real game.
    let g = game("boop.game");
    let mut s = start(&g);
    let mut rng = tabula::rng::Rng::new(7);
    for _ in 0..200 {
        let m = s.legal_moves(&g).unwrap();
        if m.is_empty() {
            break;
        }
        s = s.play(&g, &m[rng.below(m.len())]).unwrap();
        for p in ["Orange", "Gray"] {
            let t = text(&g, &s);
            let count = |what: &str| -> usize {
                t.lines()
                    .filter(|l| l.starts_with(what))
                    .map(|l| {
                        let w: Vec<&str> = l.split_whitespace().collect();
                        if w[0] == p {
                            w.len() - 2
                        } else {
                            w[w.len() - 1].parse().unwrap()
                        }
                    })
                    .sum()
            };
            let on_board = count(&format!("{p} Kitten")) + count(&format!("{p} Cat"));
            let in_pool = count(&format!("pool {p} "));
            let cats = count(&format!("{p} Cat"))
                + count(&format!("pool {p} Cat"))
                + count(&format!("stock {p} Cat"));
            assert_eq!(on_board + in_pool, 8, "each player owns 8 pieces: {t}");
            assert_eq!(cats, 8, "Cats in play + out of play = 8: {t}");
        }
    }
}

#[test]
fn variant_bigger_bed() {
    let g = crate::game_with("boop.game", &[("size", 8)]);
    assert_eq!(moves(&g, &start(&g)).len(), 64);
}

/// Whole random games against the hand-written native engine
/// (`benches/native/boop.rs`): the complete move lists agree in every
/// position, and so do the winners.
#[test]
fn move_lists_match_the_reference_in_random_games() {
    use crate::native::{boop, describe, Engine};
    let g = game("boop.game");
    let native = boop::Game::new();
    let mut rng = tabula::rng::Rng::new(23);
    let mut rm = Vec::new();
    for _ in 0..6 {
        let mut ours = start(&g);
        let mut theirs = native.initial();
        for _ in 0..400 {
            native.legal_moves(&theirs, &mut rm);
            let b: Vec<String> = rm.iter().map(|m| native.text(&g, m)).collect();
            crate::same_moves(moves(&g, &ours), b, &ours.to_text(&g));
            if rm.is_empty() {
                let w = native.outcome(&theirs);
                assert!(w.is_some(), "a winner");
                assert_eq!(outcome(&g, &ours), describe(&g, w));
                break;
            }
            let m = &rm[rng.below(rm.len())];
            ours = play(&g, &ours, &native.text(&g, m));
            theirs = native.play(&theirs, m);
        }
    }
}
