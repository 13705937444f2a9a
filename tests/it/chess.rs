//! Chess (`games/chess.game`): each rule on a concrete position. The
//! perft counts (tests/perft/chess*.perft, run by `perft::perft_files`;
//! depths above 300 000 nodes with `RUN_SLOW_TESTS=1`) check the move
//! generator as a whole against the published tables of the Chess
//! Programming Wiki, "Perft Results"
//! (https://www.chessprogramming.org/Perft_Results): from the start 20,
//! 400, 8902, 197281, 4865609; Kiwipete 48, 2039, 97862, 4085603.

use crate::{game, moves, outcome, play, position, start};
use tabula::interp::{explain, Verdict};

fn has(ms: &[String], m: &str) -> bool {
    ms.iter().any(|x| x == m)
}

#[test]
fn opening_moves() {
    let g = game("chess.game");
    let s = start(&g);
    let ms = moves(&g, &s);
    assert_eq!(ms.len(), 20);
    assert!(has(&ms, "e2 e4") && has(&ms, "g1 f3") && !has(&ms, "e2 e5"));
}

#[test]
fn castling_not_out_of_through_or_into_check() {
    let g = game("chess.game");
    let base = "White King e1\nWhite Rook a1 h1\nBlack King e8\n";
    let ms = moves(&g, &position(&g, base));
    assert!(has(&ms, "e1 g1") && has(&ms, "e1 c1"));
    // Out of check: a rook on e7 gives check.
    let ms = moves(&g, &position(&g, &format!("{base}Black Rook e7\n")));
    assert!(!has(&ms, "e1 g1") && !has(&ms, "e1 c1"));
    // Through check: f1 attacked (short), d1 attacked (long).
    let ms = moves(&g, &position(&g, &format!("{base}Black Rook f7 d7\n")));
    assert!(!has(&ms, "e1 g1") && !has(&ms, "e1 c1"));
    // Into check: g1 attacked; b1 attacked does not stop the long castle.
    let ms = moves(&g, &position(&g, &format!("{base}Black Rook g7 b7\n")));
    assert!(!has(&ms, "e1 g1") && has(&ms, "e1 c1"));
    // A piece in between.
    let ms = moves(&g, &position(&g, &format!("{base}White Knight b1\n")));
    assert!(has(&ms, "e1 g1") && !has(&ms, "e1 c1"));
    // Castling moves the rook; the rights are gone after.
    let s = play(&g, &position(&g, base), "e1 g1");
    assert_eq!(crate::at(&g, &s, "f1"), "White Rook");
    assert_eq!(crate::at(&g, &s, "h1"), "-");
    assert!(s.to_text(&g).contains("may_castle_short White false"));
    // A rook that moved gives up its side only.
    let s = play(&g, &position(&g, &format!("{base}Black Pawn a7\n")), "h1 h2");
    let s = play(&g, &s, "a7 a6");
    let s = play(&g, &s, "h2 h1");
    let s = play(&g, &s, "a6 a5");
    let ms = moves(&g, &s);
    assert!(!has(&ms, "e1 g1") && has(&ms, "e1 c1"));
}

#[test]
fn en_passant_only_at_once() {
    let g = game("chess.game");
    let s =
        position(&g, "White King e1\nWhite Pawn e5\nBlack King e8\nBlack Pawn d7 a7\nturn Black\n");
    let s = play(&g, &s, "d7 d5");
    assert!(s.to_text(&g).contains("en_passant d6"));
    let ms = moves(&g, &s);
    assert!(has(&ms, "e5 d6"));
    let t = play(&g, &s, "e5 d6");
    assert_eq!(crate::at(&g, &t, "d5"), "-");
    assert_eq!(crate::at(&g, &t, "d6"), "White Pawn");
    // One turn later the chance is gone.
    let s = play(&g, &s, "e1 e2");
    let s = play(&g, &s, "a7 a6");
    assert!(!has(&moves(&g, &s), "e5 d6"));
}

#[test]
fn en_passant_that_exposes_the_king_is_illegal() {
    let g = game("chess.game");
    // White king a5 and black rook h5 on the fifth rank: taking en passant
    // would empty both squares between them.
    let s = position(
        &g,
        "White King a5\nWhite Pawn e5\nBlack King e8\nBlack Rook h5\nBlack Pawn d7\nturn Black\n",
    );
    let s = play(&g, &s, "d7 d5");
    assert!(!has(&moves(&g, &s), "e5 d6"));
}

#[test]
fn promotion_to_any_of_four() {
    let g = game("chess.game");
    let s = position(&g, "White King e1\nWhite Pawn b7\nBlack King e8\nBlack Rook a8\n");
    let ms = moves(&g, &s);
    for m in ["b7 b8 Q", "b7 b8 R", "b7 b8 B", "b7 b8 N", "b7 a8 Q", "b7 a8 N"] {
        assert!(has(&ms, m), "{m}: {ms:?}");
    }
    let t = play(&g, &s, "b7 a8 N");
    assert_eq!(crate::at(&g, &t, "a8"), "White Knight");
}

#[test]
fn checkmate_and_stalemate() {
    let g = game("chess.game");
    // Fool's mate.
    let mut s = start(&g);
    for m in ["f2 f3", "e7 e5", "g2 g4", "d8 h4"] {
        s = play(&g, &s, m);
    }
    assert!(moves(&g, &s).is_empty());
    assert_eq!(outcome(&g, &s), "Black wins");
    // Stalemate: Black king a8, White queen b6 and king c7... no move, no check.
    let s = position(&g, "turn Black\nBlack King a8\nWhite Queen b6\nWhite King c6\n");
    assert!(moves(&g, &s).is_empty());
    assert_eq!(outcome(&g, &s), "draw");
}

#[test]
fn a_pinned_piece_may_not_leave_the_line() {
    let g = game("chess.game");
    let s = position(&g, "White King e1\nWhite Bishop e2\nBlack King a8\nBlack Rook e8\n");
    assert!(moves(&g, &s).iter().all(|m| !m.starts_with("e2 ")));
    // The rejected move is explained with the rule's message.
    let Verdict::Illegal { attempts } = explain(&g, &s, "e2 d3").expect("explain") else {
        panic!("legal?")
    };
    let text = crate::render_problems(
        &attempts.iter().map(|a| a.to_problem(&g, "e2 d3")).collect::<Vec<_>>(),
    );
    assert!(text.contains("this leaves your king in check"), "{text}");
}

#[test]
fn fifty_moves_and_threefold_repetition_are_draws() {
    let g = game("chess.game");
    // 99 quiet turns: the next quiet one draws, a pawn move does not.
    let s = position(&g, "quiet_turns 99\nWhite King e1\nWhite Pawn a2\nBlack King e8\n");
    assert_eq!(outcome(&g, &play(&g, &s, "e1 d1")), "draw");
    assert_eq!(outcome(&g, &play(&g, &s, "a2 a3")), "-");
    // Knights out and back twice: the start position a third time.
    let mut s = start(&g);
    for (i, m) in
        ["g1 f3", "g8 f6", "f3 g1", "f6 g8", "g1 f3", "g8 f6", "f3 g1", "f6 g8"].iter().enumerate()
    {
        assert_eq!(outcome(&g, &s), "-", "before move {i}");
        s = play(&g, &s, m);
    }
    assert_eq!(outcome(&g, &s), "draw");
    // The history survives a position text.
    let t = crate::position(&g, &s.to_text(&g));
    assert_eq!(t, s);
}
