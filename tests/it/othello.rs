//! Othello (`games/othello.game`): the rules beyond the perft counts.

use crate::{at, game, game_with, moves, outcome, play, position, start};

#[test]
fn black_opens_with_the_four_placements_that_bracket() {
    let g = game("othello.game");
    let s = start(&g);
    assert_eq!(moves(&g, &s), ["d3", "c4", "f5", "e6"]);
    // d3 brackets d4 between itself and d5: one disc flips.
    let t = play(&g, &s, "d3");
    assert_eq!(at(&g, &t, "d3"), "Black Disc");
    assert_eq!(at(&g, &t, "d4"), "Black Disc");
    assert_eq!(at(&g, &t, "e5"), "White Disc");
    assert_eq!(moves(&g, &t), ["c3", "e3", "c5"]);
}

#[test]
fn every_bracketed_run_flips_and_no_other() {
    let g = game("othello.game");
    // Around d4: east e4 f4 then Black g4 (flips), north d5 d6 then an
    // empty d7 (stays), north-east e5 then Black f6 (flips), south d3 d2
    // d1 then the edge (stays), south-west c3 then Black b2 (flips), west
    // Black c4 at once (nothing between), north-west an empty c5 before
    // White b6 and Black a7 (nothing next to d4: stays).
    let s = position(
        &g,
        "turn Black\nBlack Disc g4 f6 c4 b2 a7\nWhite Disc e4 f4 d5 d6 e5 d3 d2 d1 c3 b6",
    );
    let t = play(&g, &s, "d4");
    for c in ["d4", "e4", "f4", "e5", "c3", "g4", "f6", "c4", "b2", "a7"] {
        assert_eq!(at(&g, &t, c), "Black Disc", "{c}");
    }
    for c in ["d5", "d6", "d3", "d2", "d1", "b6"] {
        assert_eq!(at(&g, &t, c), "White Disc", "{c}");
    }
    // A placement that brackets nothing is not a move.
    assert!(!moves(&g, &s).contains(&"h8".to_string()));
    assert!(!moves(&g, &s).contains(&"d7".to_string()));
}

#[test]
fn a_player_who_cannot_place_passes_and_the_game_ends_when_neither_can() {
    let g = game("othello.game");
    // Black's a1 ends a White row at the edge, and no White run ends in
    // d3 with an empty cell on its other side: Black cannot place. White
    // can, at d4 (d3 between d4 and d2).
    let s = position(&g, "turn Black\nBlack Disc a1 d3\nWhite Disc b1 c1 d1 e1 f1 g1 h1 d2");
    assert_eq!(moves(&g, &s), ["pass"]);
    assert_eq!(outcome(&g, &s), "-");
    let t = play(&g, &s, "pass");
    assert_eq!(moves(&g, &t), ["d4"]);
    // After d4 neither player can place: the game is over, and White has
    // ten discs to Black's one.
    let u = play(&g, &t, "d4");
    assert_eq!(at(&g, &u, "d3"), "White Disc");
    assert!(moves(&g, &u).is_empty());
    assert_eq!(outcome(&g, &u), "White wins");
}

#[test]
fn at_the_end_more_discs_win_and_equal_counts_draw() {
    let g = game("othello.game");
    // No disc next to another: nobody can place.
    let s = position(&g, "Black Disc a1 h8\nWhite Disc a8 h1");
    assert_eq!(outcome(&g, &s), "draw");
    let s = position(&g, "Black Disc a1 h8 d5\nWhite Disc a8 h1");
    assert_eq!(outcome(&g, &s), "Black wins");
}

#[test]
fn a_bigger_board_starts_from_its_centre() {
    // `half=5`: 10 by 10, the four discs on e5-f6; Black's openings are
    // the 8 by 8 ones moved one square up and right.
    let g = game_with("othello.game", &[("half", 5)]);
    let s = start(&g);
    assert_eq!(at(&g, &s, "e5"), "White Disc");
    assert_eq!(at(&g, &s, "f6"), "White Disc");
    assert_eq!(at(&g, &s, "e6"), "Black Disc");
    assert_eq!(at(&g, &s, "f5"), "Black Disc");
    assert_eq!(moves(&g, &s), ["e4", "d5", "g6", "f7"]);
}
