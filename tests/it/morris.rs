//! Nine Men's Morris (`games/morris.game`, a graph board): rule tests on
//! concrete positions, and a small independent move generator written
//! here from the rules (not from the game file) that the engine's moves
//! and perft counts are compared with.

use crate::{game, moves, outcome, play, position, start};
use tabula::rng::Rng;
use tabula::State;

const POINTS: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// The sixteen mills, by point name.
const MILLS: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

/// The reference: a position as plain arrays.
#[derive(Clone, PartialEq, Debug)]
struct Pos {
    /// 0 empty, 1 + player.
    board: [u8; 24],
    hand: [u8; 2],
    mover: u8,
    over: bool,
}

fn idx(name: &str) -> usize {
    POINTS.iter().position(|p| *p == name).expect("point")
}

/// Points next to each other: neighbours along the lines of a mill.
fn adjacent(a: usize, b: usize) -> bool {
    MILLS.iter().any(|m| {
        let m = [idx(m[0]), idx(m[1]), idx(m[2])];
        (m[0] == a && m[1] == b)
            || (m[1] == a && m[0] == b)
            || (m[1] == a && m[2] == b)
            || (m[2] == a && m[1] == b)
    })
}

impl Pos {
    fn in_mill(&self, c: usize) -> bool {
        let who = self.board[c];
        who != 0
            && MILLS.iter().any(|m| {
                let m = m.map(idx);
                m.contains(&c) && m.iter().all(|&x| self.board[x] == who)
            })
    }

    fn men(&self, p: u8) -> usize {
        self.board.iter().filter(|&&x| x == p + 1).count()
    }

    /// Every move in the game's notation, with the position after it.
    // Points are numbers that index the board and the names alike.
    #[allow(clippy::needless_range_loop)]
    fn moves(&self) -> Vec<(String, Pos)> {
        let mut out = Vec::new();
        if self.over {
            return out;
        }
        let me = self.mover;
        let placing = self.hand[0] + self.hand[1] > 0;
        let mut steps: Vec<(String, Pos, usize)> = Vec::new();
        if placing {
            for c in 0..24 {
                if self.board[c] == 0 {
                    let mut n = self.clone();
                    n.board[c] = me + 1;
                    n.hand[me as usize] -= 1;
                    steps.push((POINTS[c].to_string(), n, c));
                }
            }
        } else {
            let fly = self.men(me) == 3;
            for a in 0..24 {
                if self.board[a] != me + 1 {
                    continue;
                }
                for b in 0..24 {
                    if self.board[b] == 0 && (fly || adjacent(a, b)) {
                        let mut n = self.clone();
                        n.board[b] = me + 1;
                        n.board[a] = 0;
                        steps.push((format!("{} {}", POINTS[a], POINTS[b]), n, b));
                    }
                }
            }
        }
        let opp = 1 - me;
        for (text, n, at) in steps {
            if n.in_mill(at) && n.men(opp) > 0 {
                let all_in_mills = (0..24).filter(|&x| n.board[x] == opp + 1).all(|x| n.in_mill(x));
                for v in 0..24 {
                    if n.board[v] == opp + 1 && (!n.in_mill(v) || all_in_mills) {
                        let mut m = n.clone();
                        m.board[v] = 0;
                        if m.men(opp) + m.hand[opp as usize] as usize >= 3 {
                            m.mover = opp;
                        } else {
                            m.over = true;
                        }
                        out.push((format!("{text} x{}", POINTS[v]), m));
                    }
                }
            } else {
                let mut m = n;
                m.mover = opp;
                out.push((text, m));
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let ms = self.moves();
        if depth == 1 {
            return ms.len() as u64;
        }
        ms.iter().map(|(_, p)| p.perft(depth - 1)).sum()
    }

    /// The same position as tabula sees it.
    fn from_state(g: &tabula::Game, s: &State) -> Pos {
        let mut board = [0u8; 24];
        for (i, name) in POINTS.iter().enumerate() {
            let c = g.board.cell(name).expect("point");
            if let Some((p, _)) = s.piece(g, c) {
                board[i] = p + 1;
            }
        }
        let hand = [s.count(g, 0, 0, 0) as u8, s.count(g, 0, 1, 0) as u8];
        Pos { board, hand, mover: s.current(), over: s.ended().is_some() }
    }
}

#[test]
fn perft_matches_the_independent_generator() {
    let g = game("morris.game");
    let s = start(&g);
    let p = Pos::from_state(&g, &s);
    for depth in 1..=4 {
        assert_eq!(tabula::perft(&g, &s, depth).unwrap(), p.perft(depth), "depth {depth}");
    }
}

/// Random games: at every position, the same moves as the reference (and
/// the same positions after them); perft 2 now and then.
#[test]
fn random_games_agree_with_the_independent_generator() {
    let g = game("morris.game");
    let mut rng = Rng::new(12);
    for game_no in 0..12 {
        let mut s = start(&g);
        for ply in 0..200 {
            let p = Pos::from_state(&g, &s);
            let mut ours = moves(&g, &s);
            let mut theirs: Vec<String> = p.moves().into_iter().map(|m| m.0).collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "game {game_no}, ply {ply}\n{}", s.to_text(&g));
            if ours.is_empty() {
                break;
            }
            if ply % 17 == 5 {
                assert_eq!(tabula::perft(&g, &s, 2).unwrap(), p.perft(2), "perft 2 at ply {ply}");
            }
            let m = &ours[rng.below(ours.len())];
            let next = play(&g, &s, m);
            let expect = p.moves().into_iter().find(|x| x.0 == *m).expect("move").1;
            assert_eq!(Pos::from_state(&g, &next), expect, "after {m}");
            s = next;
        }
    }
}

#[test]
fn a_mill_takes_a_man_not_in_a_mill() {
    let g = game("morris.game");
    // White closes a7-d7-g7; Black's a1-d1-g1 is a mill, b4 is not.
    let s = position(
        &g,
        "turn White\nhand White Man 5\nhand Black Man 5\n\
         White Man a7 d7\nBlack Man a1 d1 g1 b4\n",
    );
    let ms: Vec<String> = moves(&g, &s).into_iter().filter(|m| m.starts_with("g7")).collect();
    assert_eq!(ms, vec!["g7 xb4"]);
    // With every Black man in a mill, any of them may be taken.
    let s = position(
        &g,
        "turn White\nhand White Man 5\nhand Black Man 5\n\
         White Man a7 d7\nBlack Man a1 d1 g1\n",
    );
    let ms: Vec<String> = moves(&g, &s).into_iter().filter(|m| m.starts_with("g7")).collect();
    assert_eq!(ms, vec!["g7 xa1", "g7 xd1", "g7 xg1"]);
}

#[test]
fn placing_then_moving_along_links_then_flying() {
    let g = game("morris.game");
    // The last man placed: the moving phase begins.
    let s = position(
        &g,
        "turn Black\nhand Black Man 1\n\
         White Man a7 g7 b6 f6 c5 e5 a4 g4 a1\nBlack Man d7 d6 d5 b4 f4 c3 e3 d1\n",
    );
    let s = play(&g, &s, "g1");
    assert!(text_of(&g, &s).contains("phase moving"), "{}", text_of(&g, &s));
    // Moving: only along a link to an empty neighbour.
    let ms = moves(&g, &s);
    assert!(!ms.is_empty());
    assert!(ms.iter().all(|m| {
        let w: Vec<&str> = m.split(' ').collect();
        let (a, b) = (g.board.cell(w[0]).unwrap(), g.board.cell(w[1]).unwrap());
        g.board.neighbours(a).contains(b)
    }));
    // Three men left: they fly anywhere.
    let s = position(&g, "turn White\nphase moving\nWhite Man a7 d6 g1\nBlack Man a1 d1 b4 f4\n");
    assert_eq!(moves(&g, &s).len(), 3 * 17);
}

#[test]
fn two_men_left_or_no_move_loses() {
    let g = game("morris.game");
    // Black has three men; White's mill takes one: White wins.
    let s = position(&g, "turn White\nphase moving\nWhite Man a7 d7 g4 b2\nBlack Man a1 c3 e3\n");
    let s = play(&g, &s, "g4 g7 xa1");
    assert_eq!(outcome(&g, &s), "White wins");
    // Black is blocked in: Black loses.
    let s = position(
        &g,
        "turn Black\nphase moving\nWhite Man d1 a7 b4 d7 g4 b6 f6 d5\nBlack Man a1 a4 g7 d6\n",
    );
    assert!(moves(&g, &s).is_empty());
    assert_eq!(outcome(&g, &s), "White wins");
}

#[test]
fn the_graph_board_has_links_directions_and_lines() {
    let g = game("morris.game");
    let b = &g.board;
    let c = |n: &str| b.cell(n).unwrap();
    assert_eq!(b.neighbours(c("d2")).len(), 4);
    assert_eq!(b.neighbours(c("a1")).len(), 2);
    let e = b.dir_names.iter().position(|d| d == "e").unwrap();
    let s = b.dir_names.iter().position(|d| d == "s").unwrap();
    assert_eq!(b.step(c("a1"), e), c("d1"));
    assert_eq!(b.step(c("a7"), s), c("a4"));
    assert_eq!(b.step(c("g1"), e), tabula::board::NO_CELL);
    assert_eq!(b.lines_of(3).1 - b.lines_of(3).0, 16);
    // The drawing follows the layout.
    let pic = tabula::render::render(&g, &start(&g));
    assert!(pic.starts_with("a7----------d7----------g7\n"), "{pic}");
}

fn text_of(g: &tabula::Game, s: &State) -> String {
    s.to_text(g)
}
