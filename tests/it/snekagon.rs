//! Snekagon: the worked checks and rules of rules/snekagon.md on concrete
//! positions, tile placements, passing, the end and the tie-breaks.

use crate::{game, moves, outcome, play, position, start};
use tabula::{Game, State};

/// The name of the cell at axial `(q, r)`.
fn at(g: &Game, q: i32, r: i32) -> String {
    let i = g.board.coords.iter().position(|&c| c == (q, r)).unwrap_or_else(|| panic!("({q},{r})"));
    g.board.names[i].clone()
}

/// A position: Red to move (after the opening), hexes per player, supplies.
fn setup(g: &Game, to_move: &str, red: &[(i32, i32)], blue: &[(i32, i32)], supply: &str) -> State {
    let names = |cells: &[(i32, i32)]| {
        cells.iter().map(|&(q, r)| at(g, q, r)).collect::<Vec<_>>().join(" ")
    };
    let mut text = format!("turn {to_move}\nply 3\n{supply}\n");
    if !red.is_empty() {
        text.push_str(&format!("Red Two {}\n", names(red)));
    }
    if !blue.is_empty() {
        text.push_str(&format!("Blue Two {}\n", names(blue)));
    }
    position(g, &text)
}

fn single(g: &Game, q: i32, r: i32) -> String {
    format!("1 {}", at(g, q, r))
}

#[test]
fn opening_is_the_single_hex_then_seven_tiles_each() {
    let g = game("snekagon.game");
    let s = start(&g);
    let m = moves(&g, &s);
    assert_eq!(m.len(), 91);
    assert!(m.iter().all(|x| x.starts_with("1 ")));
    let t = play(&g, &s, "1 f6");
    let bm = moves(&g, &t);
    assert!(bm.iter().all(|x| !x.starts_with("1 ")), "Blue has no single hex");
    for tile in ["2", "3I", "3C", "4S", "4L", "4I", "4U"] {
        assert!(bm.iter().any(|x| x.starts_with(&format!("{tile} "))), "{tile}");
    }
}

#[test]
fn worked_check_straight_bend_and_triangle() {
    let g = game("snekagon.game");
    let s = setup(&g, "Red", &[(0, 0), (1, 0)], &[], "supply Red One 1");
    let m = moves(&g, &s);
    assert!(m.contains(&single(&g, 2, 0)), "straight run");
    assert!(m.contains(&single(&g, 1, 1)), "gentle bend");
    assert!(m.contains(&single(&g, 2, -1)), "gentle bend the other way");
    assert!(!m.contains(&single(&g, 0, 1)), "triangle (0,0),(1,0),(0,1)");
    assert!(!m.contains(&single(&g, 1, -1)), "triangle on the other side");
}

#[test]
fn worked_check_a_branch_is_illegal() {
    let g = game("snekagon.game");
    // Every cell next to the middle hex of a straight snake would branch it.
    let s = setup(&g, "Red", &[(0, 0), (1, 0), (2, 0)], &[], "supply Red One 1");
    let m = moves(&g, &s);
    for (q, r) in [(1, -1), (1, 1), (2, -1), (0, 1)] {
        assert!(!m.contains(&single(&g, q, r)), "({q},{r}) touches the middle hex");
    }
    assert!(m.contains(&single(&g, 3, 0)), "the end may grow");
}

#[test]
fn worked_check_touching_only_the_opponent_is_illegal() {
    let g = game("snekagon.game");
    let s = setup(&g, "Red", &[(3, 0)], &[(0, 0), (1, 0)], "supply Red One 1");
    let m = moves(&g, &s);
    assert!(!m.contains(&single(&g, -1, 0)), "only Blue's hex");
    assert!(m.contains(&single(&g, 2, 0)), "Blue's and Red's");
    assert!(m.contains(&single(&g, -3, 3)), "a new snake far away");
}

#[test]
fn worked_check_joining_two_snakes() {
    let g = game("snekagon.game");
    let s = setup(&g, "Red", &[(-2, 0), (-1, 0), (1, 0), (2, 0)], &[], "supply Red One 2");
    let t = play(&g, &s, &single(&g, 0, 0));
    assert_eq!((0..g.board.len() as u16).filter(|&c| t.piece(&g, c).is_some()).count(), 5);
    // Blue has nothing to place and passes; Red's snake is now one path of
    // five: its ends may grow, a hex beside the joint would branch.
    let t = play(&g, &t, "pass");
    let m = moves(&g, &t);
    assert!(m.contains(&single(&g, 3, 0)));
    assert!(m.contains(&single(&g, -3, 0)));
    assert!(!m.contains(&single(&g, 0, 1)));
    assert!(!m.contains(&single(&g, 0, -1)));
}

#[test]
fn worked_check_closing_a_ring() {
    let g = game("snekagon.game");
    let ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];
    let s = setup(&g, "Red", &ring, &[], "supply Red One 1");
    assert!(moves(&g, &s).contains(&single(&g, 0, 1)), "six around the empty (0,0)");
    // Filling the centre would make every hex touch three of its snake.
    assert!(!moves(&g, &s).contains(&single(&g, 0, 0)));
}

#[test]
fn tiles_are_used_once_and_cover_empty_cells_on_the_board() {
    let g = game("snekagon.game");
    let s = setup(&g, "Red", &[(0, 0)], &[], "supply Red Two 1\nsupply Blue Two 1");
    let m = moves(&g, &s);
    assert!(m.iter().all(|x| x.starts_with("2 ")));
    assert!(m.iter().all(|x| !x.contains(&at(&g, 0, 0))), "never over a hex");
    let t = play(&g, &s, &m[0]);
    let tt = t.to_text(&g);
    assert!(!tt.contains("supply Red"), "{tt}");
}

#[test]
fn orientations_on_an_empty_board() {
    // Distinct cell sets per tile on the 91-cell board: symmetric tiles
    // have fewer orientations; identical cell sets are one move. Straight
    // tiles: 3 axes x (91 - (k-1) x 11) windows.
    let g = game("snekagon.game");
    let counts: Vec<(String, usize)> =
        g.kinds.iter().zip(&g.placements).map(|(k, p)| (k.symbol.clone(), p.len())).collect();
    let expect = [
        ("1", 91),
        ("2", 240),
        ("3I", 207),
        ("3C", 420),
        ("4S", 360),
        ("4L", 720),
        ("4I", 174),
        ("4U", 390),
    ];
    let expect: Vec<(String, usize)> = expect.iter().map(|(s, n)| (s.to_string(), *n)).collect();
    assert_eq!(counts, expect);
}

#[test]
fn passing_is_forced_and_only_then() {
    let g = game("snekagon.game");
    // Blue has no tile left; Red has one.
    let s = setup(&g, "Blue", &[(0, 0)], &[(3, 0)], "supply Red Two 1");
    assert_eq!(moves(&g, &s), ["pass"]);
    let t = play(&g, &s, "pass");
    assert_eq!(g.players[t.current() as usize], "Red");
    assert!(!moves(&g, &t).contains(&"pass".to_string()));
}

#[test]
fn the_game_ends_when_neither_can_place_and_compares_snakes() {
    let g = game("snekagon.game");
    // No tiles left: the game is over, no pass.
    let s = setup(&g, "Red", &[(0, 0), (1, 0), (2, 0)], &[(-3, 3), (-2, 3)], "");
    assert!(moves(&g, &s).is_empty());
    assert_eq!(outcome(&g, &s), "Red wins");
}

#[test]
fn tie_breaks_second_longest_then_missing_counts_zero_then_draw() {
    let g = game("snekagon.game");
    // Longest equal (3), second longest 2 against 1.
    let s = setup(
        &g,
        "Red",
        &[(0, 0), (1, 0), (2, 0), (-3, 3)],
        &[(-4, 4), (-5, 5), (-5, 4), (4, -4), (3, -3)],
        "",
    );
    assert_eq!(outcome(&g, &s), "Blue wins");
    // Equal so far; Red has one more snake.
    let s = setup(&g, "Red", &[(0, 0), (1, 0), (4, -4)], &[(-4, 4), (-5, 5)], "");
    assert_eq!(outcome(&g, &s), "Red wins");
    // Everything equal: a draw.
    let s = setup(&g, "Red", &[(0, 0), (1, 0)], &[(-4, 4), (-5, 5)], "");
    assert_eq!(outcome(&g, &s), "draw");
}

#[test]
fn games_last_at_most_fifteen_placements() {
    let g = game("snekagon.game");
    let mut rng = tabula::rng::Rng::new(3);
    for _ in 0..10 {
        let p = tabula::play::playout_recorded(&g, &start(&g), &mut rng, 100).expect("playout");
        let placements = p.moves.iter().filter(|m| !m.stuck).count();
        assert!(placements <= 15, "{placements}");
        assert!(p.outcome.is_some());
    }
}

// ---- cross-check against the hand-written reference -----------------------

use crate::native::{describe, snekagon, Engine};

#[test]
fn placements_and_perft_match_the_reference() {
    let g = game("snekagon.game");
    let native = snekagon::Game::new(6);
    for (i, k) in g.kinds.iter().enumerate() {
        let t = snekagon::TILE_NAMES.iter().position(|n| *n == k.symbol).expect("tile");
        assert_eq!(g.placements[i].len(), native.placements(t), "{}", k.symbol);
    }
    assert_eq!(tabula::perft(&g, &start(&g), 2).unwrap(), native.perft(&native.initial(), 2));
}

/// Whole random games, comparing the complete move lists in every position.
#[test]
fn move_lists_match_the_reference_in_random_games() {
    let g = game("snekagon.game");
    let native = snekagon::Game::new(6);
    let mut rng = tabula::rng::Rng::new(17);
    let mut rm = Vec::new();
    for _ in 0..4 {
        let mut ours = start(&g);
        let mut theirs = native.initial();
        loop {
            native.legal_moves(&theirs, &mut rm);
            let b: Vec<String> = rm.iter().map(|m| native.text(&g, m)).collect();
            crate::same_moves(moves(&g, &ours), b, &ours.to_text(&g));
            if rm.is_empty() {
                assert_eq!(outcome(&g, &ours), describe(&g, native.outcome(&theirs)));
                break;
            }
            let m = &rm[rng.below(rm.len())];
            ours = play(&g, &ours, &native.text(&g, m));
            theirs = native.play(&theirs, m);
        }
    }
}

#[test]
fn a_placement_may_list_its_cells_in_any_order() {
    let g = game("snekagon.game");
    let s = play(&g, &start(&g), "1 f6");
    let a = s.parse_move(&g, "3C a1 a2 b3").unwrap();
    let b = s.parse_move(&g, "3c b3 A1 a2").unwrap();
    assert_eq!(a, b);
    assert!(matches!(
        tabula::interp::explain(&g, &s, "3C b3 a2 a1").unwrap(),
        tabula::interp::Verdict::Legal { .. }
    ));
}

#[test]
fn a_placement_may_be_typed_as_anchor_and_orientation() {
    let g = game("snekagon.game");
    let s = play(&g, &start(&g), "1 f6");
    // 4L as declared, (0,0) on a1: a1 a2 a3 and b4 below a3.
    let by_cells = s.parse_move(&g, "4L a1 a2 a3 b4").unwrap();
    assert_eq!(s.parse_move(&g, "4L a1:0").unwrap(), by_cells);
    // On an empty board, all twelve orientations around the centre fit.
    let s = position(&g, "turn Red\nply 2\nsupply Red L4 1");
    let mut fits = 0;
    for t in 0..12 {
        if let Ok(m) = s.parse_move(&g, &format!("4L f6:{t}")) {
            assert_eq!(tabula::State::move_text(&g, &m).split(' ').count(), 5);
            fits += 1;
        }
    }
    assert_eq!(fits, 12);
    assert!(s.parse_move(&g, "4L a1:12").is_err());
}
