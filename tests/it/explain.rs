//! `tabula explain`: each rule that rejects an illegal move in the four
//! games, pointed at in the game file, and the path of a legal multi-step
//! turn.

use crate::{game, game_with, position, render_problems};
use tabula::interp::{explain, Verdict};
use tabula::wire::ExplanationRepr;
use tabula::{Game, State};

/// The explanation as a reviewer sees it.
fn why(g: &Game, s: &State, input: &str) -> String {
    match explain(g, s, input).expect("explain") {
        Verdict::Illegal { attempts } => {
            let problems: Vec<_> = attempts.iter().map(|a| a.to_problem(g, input)).collect();
            render_problems(&problems)
        }
        v => ExplanationRepr::new(g, input, &v, tabula::wire::Viewer::All).to_text(),
    }
}

fn axial(g: &Game, q: i32, r: i32) -> String {
    let i = g.board.coords.iter().position(|&c| c == (q, r)).expect("cell");
    g.board.names[i].clone()
}

#[test]
fn boop_occupied_square() {
    let g = game("boop.game");
    let s = position(&g, "pool Orange Kitten 8\npool Gray Kitten 7\nGray Kitten c3");
    insta::assert_snapshot!(why(&g, &s, "K c3"));
}

#[test]
fn boop_cat_from_an_empty_pool() {
    let g = game("boop.game");
    let s = position(&g, "pool Orange Kitten 8\npool Gray Kitten 8");
    insta::assert_snapshot!(why(&g, &s, "C c3"));
}

#[test]
fn bug_merging_two_bugs() {
    let g = game("bug.game");
    let s = position(&g, "turn Black\nBlack Stone c3 e3\nWhite Stone a1 a3");
    insta::assert_snapshot!(why(&g, &s, "d3"));
}

#[test]
fn bug_growing_the_largest_bug() {
    let g = game("bug.game");
    let s = position(&g, "turn Black\nBlack Stone c3 c4\nWhite Stone a1");
    insta::assert_snapshot!(why(&g, &s, "c5"));
}

#[test]
fn bug_a_bonus_cell_that_merges() {
    // Black grows (0,0) next to White's singleton (1,0); (−1,1) would be a
    // bonus cell but touches Black's other bug at (−2,2).
    let g = game_with("bug.game", &[("side", 4)]);
    let text =
        format!("turn Black\nBlack Stone {}\nWhite Stone {}", axial(&g, -2, 2), axial(&g, 1, 0));
    let s = position(&g, &text);
    let mv = format!("{} +{}", axial(&g, 0, 0), axial(&g, -1, 1));
    insta::assert_snapshot!(why(&g, &s, &mv));
}

#[test]
fn bug_trace_of_a_multi_step_turn() {
    // Grow, eat, bonus grow, eat again, bonus grow.
    let g = game_with("bug.game", &[("side", 4)]);
    let text = format!(
        "turn Black\nWhite Stone {} {} {}",
        axial(&g, 1, 0),
        axial(&g, -2, 2),
        axial(&g, -1, 2)
    );
    let s = position(&g, &text);
    let mv = format!("{} +{} +{}", axial(&g, 0, 0), axial(&g, -1, 1), axial(&g, -2, 2));
    insta::assert_snapshot!(why(&g, &s, &mv));
}

#[test]
fn snekagon_a_triangle() {
    let g = game("snekagon.game");
    let s = position(&g, "turn Red\nply 3\nRed Two f6 f7\nsupply Red One 1");
    insta::assert_snapshot!(why(&g, &s, "1 g6"));
}

#[test]
fn snekagon_touching_only_the_opponent() {
    let g = game("snekagon.game");
    let s = position(&g, "turn Red\nply 3\nBlue Two f6 f7\nRed One a1\nsupply Red One 1");
    insta::assert_snapshot!(why(&g, &s, "1 f8"));
}

#[test]
fn snekagon_a_tile_already_used() {
    let g = game("snekagon.game");
    let s = position(&g, "turn Red\nply 3\nRed One f6\nsupply Red I3 1");
    insta::assert_snapshot!(why(&g, &s, "2 a1 a2"));
}

#[test]
fn bug_off_a_card_not_in_hand() {
    let g = game("bug_off.game");
    let s =
        position(&g, "turn Ann\nhand Ann ant 2\nhand Ann bee 2\nhand Ben slug 3\ndraw_pile bee");
    insta::assert_snapshot!(why(&g, &s, "collect ladybug"));
}

#[test]
fn partial_moves_list_what_may_follow() {
    let g = game("boop.game");
    let s = crate::start(&g);
    let text = why(&g, &s, "K");
    assert!(text.starts_with("`K` is not a whole move; it may go on with: a1, b1"), "{text}");
}

#[test]
fn legal_moves_show_their_path_and_every_explanation_matches_legality() {
    // Every legal move explains as legal; every failing reading is illegal.
    for name in ["boop.game", "bug.game", "tictactoe.game"] {
        let g = game(name);
        let s = crate::start(&g);
        for m in s.legal_moves(&g).unwrap() {
            let t = State::move_text(&g, &m);
            match explain(&g, &s, &t).unwrap() {
                Verdict::Legal { mv, .. } => assert_eq!(mv, m),
                other => panic!("{name}: `{t}` explained as {other:?}"),
            }
        }
    }
}

#[test]
fn every_reading_of_an_ambiguous_move_is_listed_shortest_first() {
    // Without the pie rule, `swap` is read both as the `swap` branch (whose
    // `require` fails) and as a cell in the placing branch (there is none).
    let g = game_with("hex.game", &[("size", 3)]);
    let s = position(&g, "turn Blue\nply 1\nRed Stone b2");
    insta::assert_snapshot!(why(&g, &s, "swap"));
}

/// A turn that makes no decision is listed as `pass`; `explain pass`
/// explains that move (it used to read `pass` as a choice and call it
/// more than a move), and still rejects it where a `require` fails.
#[test]
fn a_turn_without_decisions_is_explained_as_pass() {
    let text = "players A, B\nboard square 3 by 3\npiece Stone\n\
                turn {\n let x = a1\n require not (any y in neighbours(x): occupied(y))\n pass\n}\n";
    let g = crate::game_text(text).unwrap_or_else(|e| panic!("{e}"));
    let s = crate::start(&g);
    let shown: Vec<String> = s
        .legal_moves(&g)
        .expect("moves")
        .iter()
        .map(|m| tabula::notation::text(g.ir(), m))
        .collect();
    assert_eq!(shown, ["pass"]);
    for typed in ["pass", "PASS"] {
        match explain(&g, &s, typed).expect("explain") {
            Verdict::Legal { mv, .. } => assert!(mv.choices.is_empty(), "{typed}: {mv:?}"),
            _ => panic!("`{typed}` is the listed move"),
        }
    }
    // With a stone next to a1 the `require` fails: no move, and `pass`
    // is rejected by that rule.
    let g = crate::game_text(&text.replace("turn {", "setup { place Stone of B at b1 }\nturn {"))
        .unwrap_or_else(|e| panic!("{e}"));
    let blocked = crate::start(&g);
    assert!(blocked.legal_moves(&g).expect("moves").is_empty());
    let said = why(&g, &blocked, "pass");
    assert!(said.contains("require not (any y in neighbours(x)"), "{said}");
}
