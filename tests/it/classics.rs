//! Tic-tac-toe, Connect Four and Hex: rules beyond the perft counts.

use crate::{at, game, game_with, moves, outcome, play, position, start};

#[test]
fn tictactoe_full_board_is_a_draw() {
    let g = game("tictactoe.game");
    let s = position(&g, "turn X\nX Mark a3 c3 a2 c1\nO Mark b3 b2 c2 a1");
    assert_eq!(moves(&g, &s), ["b1"]);
    let t = play(&g, &s, "b1");
    assert_eq!(outcome(&g, &t), "draw");
    let s = position(&g, "turn X\nX Mark a1 b1\nO Mark a2 b2");
    assert_eq!(outcome(&g, &play(&g, &s, "c1")), "X wins");
}

#[test]
fn connect4_discs_fall_to_the_lowest_empty_cell() {
    let g = game("connect4.game");
    let s = start(&g);
    assert_eq!(moves(&g, &s), ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]);
    let s = play(&g, &play(&g, &s, "d1"), "d2");
    assert!(moves(&g, &s).contains(&"d3".to_string()));
    assert!(!moves(&g, &s).contains(&"d1".to_string()));
    // A full column offers nothing.
    let s = position(&g, "Red Disc c1 c3 c5\nYellow Disc c2 c4 c6");
    assert!(moves(&g, &s).iter().all(|m| !m.starts_with('c')));
}

#[test]
fn connect4_four_in_a_row_wins_in_every_direction() {
    let g = game("connect4.game");
    for (setup, mv) in [
        ("Red Disc a1 b1 c1\nYellow Disc a2 b2 c2", "d1"),
        ("Red Disc a1 a2 a3\nYellow Disc b1 b2 b3", "a4"),
        ("Red Disc a1 b2 c3\nYellow Disc b1 c1 c2 d1 d2 e1\nRed Disc d3", "d4"),
    ] {
        let s = position(&g, setup);
        assert_eq!(outcome(&g, &play(&g, &s, mv)), "Red wins", "{setup} / {mv}");
    }
}

#[test]
fn hex_connects_own_edges_only() {
    let g = game_with("hex.game", &[("size", 3)]);
    // Red's column a1-a2-a3 joins rows 1 and 3.
    let s = position(&g, "Red Stone a1 a2\nBlue Stone b1 c1");
    assert_eq!(outcome(&g, &play(&g, &s, "a3")), "Red wins");
    // The same chain for Blue joins nothing: Blue needs columns a and c.
    let s = position(&g, "turn Blue\nBlue Stone a1 a2\nRed Stone b1 c1");
    assert_eq!(outcome(&g, &play(&g, &s, "a3")), "-");
    // Blue across a row: a2-b2-c2.
    let s = position(&g, "turn Blue\nBlue Stone a2 b2\nRed Stone a1 b1");
    assert_eq!(outcome(&g, &play(&g, &s, "c2")), "Blue wins");
    // Hex adjacency: b2 touches a3 (down-left) but not c3 (down-right).
    let s = position(&g, "Red Stone b1 b2\nBlue Stone a1 c1");
    assert_eq!(outcome(&g, &play(&g, &s, "a3")), "Red wins");
    assert_eq!(outcome(&g, &play(&g, &s, "c3")), "-");
}

#[test]
fn hex_swap_rule() {
    let g = game_with("hex.game", &[("swap", 1)]);
    let s = play(&g, &start(&g), "c2");
    let m = moves(&g, &s);
    assert_eq!(m.last().map(String::as_str), Some("swap"));
    let t = play(&g, &s, "swap");
    assert_eq!(at(&g, &t, "c2"), "-");
    assert_eq!(at(&g, &t, "b3"), "Blue Stone", "mirrored onto Blue's side");
    assert_eq!(g.players[t.current() as usize], "Red");
    // Only on Blue's first turn.
    let u = play(&g, &t, "a1");
    assert!(!moves(&g, &u).contains(&"swap".to_string()));
    // Off by default.
    let g = game("hex.game");
    let s = play(&g, &start(&g), "c2");
    assert!(!moves(&g, &s).contains(&"swap".to_string()));
}

#[test]
fn hex_never_ends_in_a_draw() {
    let g = game_with("hex.game", &[("size", 7)]);
    let mut rng = tabula::rng::Rng::new(11);
    for _ in 0..30 {
        let p = tabula::playout(&g, &start(&g), &mut rng, 1000).expect("playout");
        assert!(matches!(p.outcome, Some(tabula::Outcome::Win(_))), "{:?}", p.outcome);
    }
}

#[test]
fn breakthrough_moves_captures_and_wins() {
    let g = game("breakthrough.game");
    // Straight ahead only onto an empty cell; diagonally also onto an enemy.
    let s = position(&g, "turn White\nWhite Pawn d4\nBlack Pawn d5 e5 c7");
    assert_eq!(moves(&g, &s), ["d4 c5", "d4 e5"]);
    let t = play(&g, &s, "d4 e5");
    assert_eq!(at(&g, &t, "e5"), "White Pawn");
    assert_eq!(at(&g, &t, "d4"), "-");
    // Reaching the far rank wins.
    let s = position(&g, "turn White\nWhite Pawn a7\nBlack Pawn h8");
    assert_eq!(outcome(&g, &play(&g, &s, "a7 a8")), "White wins");
    // No pawns left: no move, and that player loses.
    let s = position(&g, "turn Black\nWhite Pawn a2");
    assert_eq!(outcome(&g, &s), "White wins");
}

#[test]
fn greedy_engine_takes_a_win_and_blocks_one() {
    use tabula::play::Engine;
    let g = game("tictactoe.game");
    let mut rng = tabula::rng::Rng::new(1);
    // X can win at c1.
    let s = position(&g, "turn X\nX Mark a1 b1\nO Mark a2 b2");
    for _ in 0..10 {
        let m = Engine::Greedy.choose(&g, &s, &s.legal_moves(&g).unwrap(), &mut rng).unwrap();
        assert_eq!(tabula::State::move_text(&g, &m), "c1");
    }
    // O threatens c2 (a2 b2); X cannot win at once, so X must take c2.
    let s = position(&g, "turn X\nX Mark a1 c3\nO Mark a2 b2");
    for _ in 0..10 {
        let m = Engine::Greedy.choose(&g, &s, &s.legal_moves(&g).unwrap(), &mut rng).unwrap();
        assert_eq!(tabula::State::move_text(&g, &m), "c2");
    }
}

#[test]
fn monte_carlo_engine_beats_random_play() {
    use tabula::play::Engine;
    let g = game("connect4.game");
    let mut rng = tabula::rng::Rng::new(8);
    let mut mc_wins = 0;
    for _ in 0..6 {
        let mut s = start(&g);
        loop {
            let moves = s.legal_moves(&g).unwrap();
            if moves.is_empty() {
                break;
            }
            let m = if s.current() == 0 {
                Engine::MonteCarlo(300).choose(&g, &s, &moves, &mut rng).unwrap()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            s = s.play(&g, &m).unwrap();
        }
        if outcome(&g, &s) == "Red wins" {
            mc_wins += 1;
        }
    }
    assert!(mc_wins >= 5, "Monte Carlo won only {mc_wins} of 6 against random play");
}
