//! Chance events: `random`, face-down zones, chance nodes, perft through
//! chance, sampling with the declared probabilities.

use crate::{game_text, position, start};
use tabula::rng::{pick_weighted, Rng};
use tabula::{perft, State, Turn};

/// A three-sided die decides each turn's points; the mover takes them or
/// passes; four points win.
const DUEL: &str = r#"
game "Dice duel"
players A, B
piece Point
zone score per player
turn {
    random d in range(1, 3) as "roll"
    either "take" {
        add d Point to score(me)
    } or "pass" {
    }
    if count(score(me)) >= 4 {
        win me
    }
}
"#;

#[test]
fn a_turn_that_starts_with_a_roll_starts_at_a_chance_node() {
    let g = game_text(DUEL).unwrap();
    let s = start(&g);
    assert_eq!(s.turn(), Turn::Chance);
    let outcomes = s.chance_outcomes(&g).unwrap();
    let texts: Vec<(String, u32)> =
        outcomes.iter().map(|(m, w)| (State::move_text(&g, m), *w)).collect();
    assert_eq!(texts, [("roll 1".into(), 1), ("roll 2".into(), 1), ("roll 3".into(), 1)]);
    // After the roll the mover decides, knowing it.
    let s = crate::play(&g, &s, "roll 3");
    assert_eq!(s.turn(), Turn::Player(0));
    assert_eq!(crate::moves(&g, &s), ["take", "pass"]);
    let s = crate::play(&g, &s, "take");
    assert_eq!(s.count(&g, 0, 0, 0), 3);
    // B's turn begins with B's roll.
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(s.current(), 1);
}

#[test]
fn perft_expands_chance_nodes() {
    // Counted by hand (see the game above): each turn is 3 rolls x 2
    // choices; A can first win on the third move, when A's two takes sum to
    // 4 or more: of the 6 x 6 (roll, choice) pairs for A's two turns, 30
    // stay below 4, so perft(4) = 30 x 6 (B's first turn) x 6 (B's second).
    let g = game_text(DUEL).unwrap();
    let s = start(&g);
    let got: Vec<u64> = (1..=4).map(|d| perft(&g, &s, d).unwrap()).collect();
    assert_eq!(got, [6, 36, 216, 1080]);
}

#[test]
fn perft_can_sample_chance_nodes_instead() {
    // One roll per chance node: each turn is then 2 choices, until a win
    // (which needs two turns of the same player, so not before move 3).
    let g = game_text(DUEL).unwrap();
    let s = start(&g);
    for (d, n) in [(1, 2), (2, 4), (3, 8)] {
        let got = tabula::eval::perft_sampled(&g, &s, d, &mut Rng::new(d.into())).unwrap();
        assert_eq!(got, n, "depth {d}");
    }
    // Without chance, sampling changes nothing.
    let t = crate::game("tictactoe.game");
    assert_eq!(tabula::eval::perft_sampled(&t, &start(&t), 3, &mut Rng::new(1)).unwrap(), 504);
}

#[test]
fn perft_expands_the_draws_from_a_face_down_deck() {
    // Bug Off! for two, Ann to play: she holds ant and bee; the deck is an
    // ant and a bee-net face down, with a slug under them. After her play,
    // Ben draws: the ant, or the net first (it goes to the row, and he
    // draws again: the ant).
    let g = crate::game("bug_off.game");
    let s = position(
        &g,
        "turn Ann\nhand Ann ant 1\nhand Ann bee 2\nhand Ben slug 3\ndraw_pile | ant 1 bee-net 1 | slug",
    );
    assert_eq!(s.turn(), Turn::Player(0));
    // Ann: collect or score, ant or bee: 4 moves; each ends at Ben's draw.
    assert_eq!(perft(&g, &s, 1).unwrap(), 4);
    let after = crate::play(&g, &s, "collect ant");
    assert_eq!(after.turn(), Turn::Chance);
    let w: Vec<u32> = after.chance_outcomes(&g).unwrap().iter().map(|o| o.1).collect();
    assert_eq!(w, [1, 1], "ant and bee-net, one each");
    // Ben then holds slug and ant either way: 2 kinds x 2 ways = 4 moves
    // (each ends when Ann draws), for each of the two draws and each of
    // Ann's 4 moves. With the slug missing, the net-first branch would
    // leave the pile empty: drawing fails, and Ben would have no move.
    assert_eq!(perft(&g, &s, 2).unwrap(), 4 * 2 * 4);
}

#[test]
fn perft_through_a_move_that_leaves_the_deck_face_down() {
    // Each turn the mover waits (two ways) or draws (two ways) from a
    // face-down bag of two Red and two Blue. A wait leaves the bag face
    // down, so the position after it has chance ahead: its perft may not
    // take the position into the search without the turn's start (the
    // owned search of perft is only for positions with no face-down piece).
    let g = game_text(
        r#"
game "Wait or draw"
players A, B
piece Red
piece Blue
zone bag shared ordered hidden
zone pile per player
setup { add 2 Red to bag  add 2 Blue to bag  shuffle bag }
turn {
    either "wait" {
        choose n in range(1, 2)
    } or "draw" {
        choose k in range(1, 2)
        move first(bag) from bag to pile(me)
    }
}
"#,
    )
    .unwrap();
    let s = start(&g);
    // perft(1): 2 waits and 2 draws (a draw ends at the chance event).
    // perft(2): after a wait, B's 4; after each draw, 2 kinds drawn, then
    // B's 4: 2 x 4 + 2 x 2 x 4 = 24.
    // perft(3): wait, wait: 2 x 2 x 4 = 16; wait, draw: 2 x 2 x 2 x 4 = 32;
    // draw, wait: 2 x 2 x 2 x 4 = 32; draw, draw: 2 x 2 x 2 x 2 x 4 = 64
    // (three left after the first draw, of both kinds); 144 in all.
    let got: Vec<u64> = (1..=3).map(|d| perft(&g, &s, d).unwrap()).collect();
    assert_eq!(got, [4, 24, 144]);
}

/// A deck drawn in a `while` whose test reads its top card; a player
/// holding two cards cannot move, and `on no moves` puts the cards back
/// and shuffles the deck (so that a perft from a stacked deck meets
/// chance again after a few turns).
const RESHUFFLE: &str = r#"
game "Reshuffle"
players A, B
piece Red
piece Blue
zone deck shared ordered hidden
zone used shared
zone hand per player
setup { add 4 Red to deck  add 4 Blue to deck  shuffle deck }
turn {
    require count(hand(me)) < 2 and count(deck) > 0
    either "keep" {
        move first(deck) from deck to hand(me)
    } or "toss" {
        move first(deck) from deck to used
    }
    while count(used) < 2 and count(deck) > 1 and first(deck) == Red {
        move first(deck) from deck to used
    }
}
on no moves {
    move all Red from hand(me) to used
    move all Blue from hand(me) to used
    move all Red from used to deck
    move all Blue from used to deck
    shuffle deck
    pass
}
"#;

/// Perft by the reference interpreter: a move (or `on no moves`' pass)
/// one deeper, a chance node's outcomes at the same depth (so a move
/// that ends at a chance event counts as one node at the last depth).
fn reference_perft(g: &tabula::Game, s: &State, depth: u32) -> u64 {
    use tabula::interp::reference;
    if depth == 0 {
        return 1;
    }
    if s.turn() == Turn::Chance {
        return reference::chance_outcomes(g, s)
            .unwrap()
            .iter()
            .map(|(c, _)| {
                let m = tabula::Move { choices: vec![*c], stuck: false };
                reference_perft(g, &reference::play(g, s, &m).unwrap(), depth)
            })
            .sum();
    }
    reference::legal_moves(g, s)
        .unwrap()
        .iter()
        .map(|m| reference_perft(g, &reference::play(g, s, m).unwrap(), depth - 1))
        .sum()
}

#[test]
fn perft_without_face_down_pieces_runs_the_rules_without_reveals() {
    // From a stacked deck nothing is face down; where no rule run in play
    // shuffles, nothing ever is again, and perft runs the program compiled
    // without reveals (`Program::face_up`: the `while` one closure). Where
    // `on no moves` shuffles, it must not: after the reshuffle the draws
    // are chance events again.
    let shuffling = game_text(RESHUFFLE).unwrap();
    let text = RESHUFFLE.replace("    shuffle deck\n    pass", "    pass");
    assert_ne!(text, RESHUFFLE);
    let fixed = game_text(&text).unwrap();
    let face_up = |g: &tabula::Game| g.program().notes().iter().any(|n| n.starts_with("face up"));
    assert!(face_up(&fixed) && !face_up(&shuffling));
    for (name, g) in [("no shuffle", &fixed), ("reshuffle", &shuffling)] {
        for seed in 0..3 {
            let mut s = State::initial_seeded(g, seed).unwrap();
            s.stack(g, &mut Rng::new(seed)).unwrap();
            // Four turns of keep or toss before anyone holds two cards.
            assert_eq!(perft(g, &s, 4).unwrap(), 16, "{name}, seed {seed}");
            for depth in [6, 8, 9] {
                let want = reference_perft(g, &s, depth);
                assert_eq!(
                    perft(g, &s, depth).unwrap(),
                    want,
                    "{name}, seed {seed}, depth {depth}"
                );
            }
        }
    }
}

#[test]
fn random_over_a_zone_weighs_each_piece() {
    let text = "players A, B\npiece Red\npiece Blue\nzone bag shared\n\
                setup { add 1 Red to bag  add 3 Blue to bag }\n\
                turn { random x in bag as \"drew\"  take x from bag  pass }";
    let g = game_text(text).unwrap();
    let s = start(&g);
    let w: Vec<(String, u32)> =
        s.chance_outcomes(&g).unwrap().iter().map(|(m, w)| (State::move_text(&g, m), *w)).collect();
    assert_eq!(w, [("drew Red".into(), 1), ("drew Blue".into(), 3)]);
}

#[test]
fn sampled_outcomes_follow_the_declared_probabilities() {
    // Weights 1, 2, 3, 4 (a bag); 20 000 draws with a fixed seed; the
    // chi-square statistic with 3 degrees of freedom stays below 16.27
    // (p = 0.001).
    let text = "players A, B\npiece W\npiece X\npiece Y\npiece Z\nzone bag shared\n\
                setup { add 1 W to bag  add 2 X to bag  add 3 Y to bag  add 4 Z to bag }\n\
                turn { random x in bag  pass }";
    let g = game_text(text).unwrap();
    let s = start(&g);
    let outcomes = s.chance_outcomes(&g).unwrap();
    let weights: Vec<u32> = outcomes.iter().map(|o| o.1).collect();
    let mut seen = [0u32; 4];
    let mut rng = Rng::new(2026);
    let n = 20_000;
    for _ in 0..n {
        seen[pick_weighted(&weights, weights.len(), &mut rng).unwrap()] += 1;
    }
    let chi2: f64 = (0..4)
        .map(|i| {
            let e = f64::from(n) * f64::from(weights[i]) / 10.0;
            (f64::from(seen[i]) - e).powi(2) / e
        })
        .sum();
    assert!(chi2 < 16.27, "chi-square {chi2:.2} for {seen:?}");
    // And a playout's draws come from the same sampler.
    let mut rng = Rng::new(1);
    let p = tabula::play::playout_recorded(&g, &s, &mut rng, 1).unwrap();
    assert_eq!((p.plies, p.moves.len()), (1, 1), "one turn: a chance outcome, then the pass");
}

#[test]
fn a_stacked_deck_draws_in_its_order_without_chance() {
    let g = crate::game("bug_off.game");
    let s = position(
        &g,
        "turn Ann\nhand Ann ant 2\nhand Ann bee 2\nhand Ben slug 3\ndraw_pile ladybug bee",
    );
    let after = crate::play(&g, &s, "collect ant");
    assert_eq!(after.turn(), Turn::Player(1), "the known top card is drawn, no chance");
    assert!(crate::text(&g, &after).contains("hand Ben Ladybug 1"));
}

#[test]
fn face_down_zones_and_turns_under_way_round_trip_as_text() {
    let g = crate::game("bug_off.game");
    let s = position(
        &g,
        "turn Ann\nhand Ann ant 1\nhand Ann bee 2\nhand Ben slug 3\ndraw_pile ant | bee 2 slug 1 | ladybug",
    );
    let text = crate::text(&g, &s);
    assert!(text.contains("draw_pile Ant | Bee 2 Slug 1 | Ladybug"), "{text}");
    assert_eq!(State::from_text(&g, &text).unwrap(), s);
    // Mid-turn: after Ann's play, Ben's draw is due (the ant is known, so
    // no chance yet... it is: the ant on top is drawn at once).
    let shuffled =
        position(&g, "turn Ann\nhand Ann ant 1\nhand Ben slug 3\ndraw_pile | bee 2 slug 1 |");
    let mid = crate::play(&g, &shuffled, "collect ant");
    assert_eq!(mid.turn(), Turn::Chance);
    let text = crate::text(&g, &mid);
    assert!(text.contains("then collect ant"), "{text}");
    assert_eq!(State::from_text(&g, &text).unwrap(), mid);
    let json = serde_json::to_string(&tabula::wire::StateRepr::new(&g, &mid)).unwrap();
    let back: tabula::wire::StateRepr = serde_json::from_str(&json).unwrap();
    assert_eq!(back.to_state(&g).unwrap(), mid);
}

#[test]
fn the_same_seed_deals_alike_and_a_deal_holds_no_future() {
    let g = crate::game("bug_off.game");
    let a = State::initial_seeded(&g, 5).unwrap();
    assert_eq!(a, State::initial_seeded(&g, 5).unwrap());
    // The deck after the deal is face down: its order does not exist.
    let text = crate::text(&g, &a);
    let deck = text.lines().find(|l| l.starts_with("draw_pile")).unwrap();
    assert!(deck.starts_with("draw_pile |"), "{deck}");
}

/// Chance around the newer statements: a roll, then a variable, a local
/// carried through a loop, a draw from a face-down bag (revealed before
/// the `change` that reads it), `again`, and a phase. Also in the
/// cross-check (compiled against the reference).
pub const ROLL_AGAIN: &str = r#"
game "Roll again"
players A, B
board square 4 by 4 with 4 neighbours
piece Stone "s"
piece Big "b"
var rolled per player = 0
clock takes
zone bag shared ordered hidden
zone hand per player
setup {
    add 2 Stone to bag
    add 2 Big to bag
    shuffle bag
    place Stone of B at [a4, d4]
}
turn rolling {
    random d in range(1, 3) as "roll"
    rolled(me) += d
    choose c in cells where empty(c)
    let x = c
    let k = 1
    while k < d and empty(step(x, n)) {
        x = step(x, n)
        k += 1
    }
    place Stone at x
    if d == 3 and count(bag) > 0 {
        move first(bag) from bag to hand(me)
        if count(hand(me), Big) > 0 {
            change x to Big
        }
    }
    if rolled(me) >= 8 {
        phase taking
    }
    if d == 3 {
        again
    }
}
turn taking {
    choose c in pieces(opponent)
    require kind(c) == Stone else "only a stone changes hands"
    change c to me
    takes += 1
    if size(pieces(me)) >= 9 {
        win me
    } else if takes >= 20 {
        draw
    }
}
on no moves { draw }
"#;

#[test]
fn a_roll_then_variables_loops_draws_change_and_again() {
    let g = game_text(ROLL_AGAIN).unwrap();
    let s = start(&g);
    assert_eq!(s.turn(), Turn::Chance);
    // A rolls 3: three cells up from a1 (a2, a3, then a4 is taken: a3).
    // A turn under way is kept as its start and its events: the board at
    // the stop is its view.
    let s = crate::play(&g, &s, "roll 3");
    let view = tabula::interp::reference::view(&g, &s).unwrap();
    assert!(view.to_text(&g).contains("rolled A 3"), "{}", view.to_text(&g));
    let s = crate::play(&g, &s, "a1");
    let view = tabula::interp::reference::view(&g, &s).unwrap();
    assert_eq!(crate::at(&g, &view, "a3"), "A Stone");
    assert_eq!(crate::at(&g, &view, "a1"), "-");
    // The draw from the bag is a chance node of its own.
    assert_eq!(s.turn(), Turn::Chance);
    let outcomes = s.chance_outcomes(&g).unwrap();
    assert_eq!(outcomes.iter().map(|o| o.1).sum::<u32>(), 4);
    let drew_big = outcomes
        .iter()
        .find(|(m, _)| State::move_text(&g, m).contains('b'))
        .map(|(m, _)| m.clone())
        .unwrap();
    let s = s.play(&g, &drew_big).unwrap();
    // A Big drawn: the stone on a3 became a Big, and A rolls again.
    assert_eq!(crate::at(&g, &s, "a3"), "A Big");
    assert_eq!(s.current(), 0);
    assert_eq!(s.turn(), Turn::Chance);
    // A roll of 1 places where chosen, and B is next.
    let s = crate::play(&g, &s, "roll 1");
    let s = crate::play(&g, &s, "b1");
    assert_eq!(crate::at(&g, &s, "b1"), "A Stone");
    assert_eq!(s.current(), 1);
    assert!(s.to_text(&g).contains("rolled A 4"), "{}", s.to_text(&g));
}
