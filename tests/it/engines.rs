//! The engines: tree search finds wins in one at any budget, is
//! reproducible whatever the number of threads, keeps its tree between
//! moves; the sampler and information-set search never depend on what the
//! searching player cannot see.

use crate::{game, game_with, position};
use tabula::play::mcts::{Budget, Config, Mcts, Reason, Report};
use tabula::play::sample::sample;
use tabula::play::{Player, Spec};
use tabula::rng::Rng;
use tabula::wire::{observe, Viewer};
use tabula::{Game, Move, Outcome, State, Turn};

/// The search's choice at `s` with these settings and seed.
fn search(g: &Game, s: &State, config: Config, jobs: usize, seed: u64) -> Report {
    let moves = s.legal_moves(g).unwrap();
    let mut m = Mcts::new(config, jobs);
    m.choose(g, s, &moves, &mut Rng::new(seed), None).unwrap()
}

/// The moves after which a rule declares the mover the winner at once.
fn winning_moves(g: &Game, s: &State) -> Vec<Move> {
    let me = s.current();
    s.legal_moves(g)
        .unwrap()
        .into_iter()
        .filter(|m| {
            let mut t = s.clone();
            t.play_unchecked(g, m).unwrap();
            t.outcome(g).unwrap() == Some(Outcome::Win(me))
        })
        .collect()
}

/// The first position of a seeded random game where the mover has a win in
/// one and at least one move that does not win.
fn win_in_one(g: &Game) -> State {
    for seed in 0..500 {
        let mut rng = Rng::new(seed);
        let mut s = State::initial_seeded(g, seed).unwrap();
        for _ in 0..400 {
            match s.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let outs = s.chance_outcomes(g).unwrap();
                    s.play_unchecked(g, &outs[rng.below(outs.len())].0).unwrap();
                }
                Turn::Player(_) => {
                    let moves = s.legal_moves(g).unwrap();
                    if moves.is_empty() {
                        break;
                    }
                    let wins = winning_moves(g, &s);
                    if !wins.is_empty() && wins.len() < moves.len() {
                        return s;
                    }
                    s.play_unchecked(g, &moves[rng.below(moves.len())]).unwrap();
                }
            }
        }
    }
    panic!("{}: no position with a win in one in 500 random games", g.name)
}

/// Every bundled game but Bug, where nobody wins by a move: a player who
/// cannot grow wins (`on no moves { win me }`), so a move can only hand
/// the win to the next player. Bug Off! has its own test below.
#[test]
fn search_finds_a_win_in_one_in_every_game_at_any_budget() {
    for name in [
        "boop.game",
        "breakthrough.game",
        "chess.game",
        "connect4.game",
        "hex.game",
        "morris.game",
        "othello.game",
        "snekagon.game",
        "tictactoe.game",
    ] {
        let g = game(name);
        let s = win_in_one(&g);
        let wins = winning_moves(&g, &s);
        for seed in 0..3 {
            let r = search(&g, &s, Config::playouts(1), 1, seed);
            assert_eq!(r.reason, Reason::WinsAtOnce, "{name}:\n{}", s.to_text(&g));
            assert!(wins.contains(&r.mv), "{name}: {}", State::move_text(&g, &r.mv));
        }
    }
}

/// Bug Off!: Ann collects her ant and the last net, drawn by Ben, ends the
/// game with Ann ahead (2 cards to none); scoring the ant would send Ben's
/// three ants to his pile and leave him ahead. Ben's hand and pile are
/// empty (their sizes are public), so the one card Ann does not see, the
/// deck's, is known to be that net.
const BUG_OFF_WIN: &str = "turn Ann
    hand Ann Ant 1
    pile Ann Bee 2
    display Ben Ant 3
    row AntNet BeeNet BeetleNet ButterflyNet LadybugNet
    draw_pile SlugNet";

#[test]
fn information_set_search_finds_a_win_in_one_in_bug_off() {
    let g = game("bug_off.game");
    let s = position(&g, BUG_OFF_WIN);
    for seed in 0..3 {
        let r = search(&g, &s, Config::playouts(1), 1, seed);
        assert_eq!(r.reason, Reason::WinsAtOnce);
        assert_eq!(State::move_text(&g, &r.mv), "collect ant");
    }
}

#[test]
fn search_is_reproducible_whatever_the_number_of_threads() {
    let g = game("connect4.game");
    let s = position(&g, "turn Red\nRed Disc d1 d2\nYellow Disc c1 e1");
    let config = Config { trees: 4, ..Config::playouts(200) };
    let one = search(&g, &s, config.clone(), 1, 9);
    let two = search(&g, &s, config.clone(), 2, 9);
    let three = search(&g, &s, config, 3, 9);
    assert_eq!(one, two);
    assert_eq!(one, three);
    assert_eq!(one.playouts, 800);
    // Another seed is another search.
    let other = search(&g, &s, Config { trees: 4, ..Config::playouts(200) }, 1, 10);
    assert_ne!(one.moves, other.moves);
}

#[test]
fn search_blocks_an_immediate_threat() {
    // O threatens c2; X has no win, and every other move loses.
    let g = game("tictactoe.game");
    let s = position(&g, "turn X\nX Mark a1 c3\nO Mark a2 b2");
    for seed in 0..5 {
        let r = search(&g, &s, Config::playouts(500), 1, seed);
        assert_eq!(State::move_text(&g, &r.mv), "c2", "seed {seed}: {}", r.summary());
    }
}

#[test]
fn the_tree_is_kept_after_the_moves_are_played() {
    let g = game("connect4.game");
    let s = State::initial(&g).unwrap();
    let mut m = Mcts::new(Config::playouts(2000), 1);
    let mut rng = Rng::new(3);
    let moves = s.legal_moves(&g).unwrap();
    let first = m.choose(&g, &s, &moves, &mut rng, None).unwrap();
    assert_eq!(first.reused, 0);
    let mut t = s.clone();
    t.play_unchecked(&g, &first.mv).unwrap();
    let reply = t.legal_moves(&g).unwrap()[3].clone();
    t.play_unchecked(&g, &reply).unwrap();
    let second = m.choose(&g, &t, &t.legal_moves(&g).unwrap(), &mut rng, None).unwrap();
    assert!(second.reused > 0, "{second:?}");
    assert_eq!(second.playouts, 2000);
    // A position the tree never saw starts afresh.
    let u = position(&g, "turn Red\nRed Disc a1\nYellow Disc g1");
    let third = m.choose(&g, &u, &u.legal_moves(&g).unwrap(), &mut rng, None).unwrap();
    assert_eq!(third.reused, 0);
}

#[test]
fn engine_specs_read_and_print_back() {
    for text in ["random", "greedy", "mc:300", "mcts:1000", "mcts:500ms", "mcts:2000x4"] {
        let spec: Spec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
    }
    let Spec::Mcts(c) = "mcts:2s".parse::<Spec>().unwrap() else { panic!() };
    assert_eq!(c.budget, Budget::Time(std::time::Duration::from_secs(2)));
    for bad in ["mcts:", "mcts:0", "mcts:12x0", "alphazero", "mc:x"] {
        assert!(bad.parse::<Spec>().is_err(), "{bad}");
    }
}

#[test]
fn a_time_budget_searches_until_the_time_is_up() {
    let g = game("tictactoe.game");
    let s = State::initial(&g).unwrap();
    let t0 = std::time::Instant::now();
    let r = search(&g, &s, "mcts:100ms".parse::<Spec>().map(cfg).unwrap(), 1, 1);
    assert!(t0.elapsed() >= std::time::Duration::from_millis(100));
    assert!(r.playouts > 0);
}

fn cfg(s: Spec) -> Config {
    match s {
        Spec::Mcts(c) => c,
        _ => panic!("not mcts"),
    }
}

/// A Bug Off! deal and another position Ann cannot tell from it: the
/// cards she does not see (Ben's hand and pile, the deck) dealt otherwise.
fn two_bug_off_positions(players: i64, seed: u64) -> (Game, State, State) {
    let g = game_with("bug_off.game", &[("players", players)]);
    let mut s = State::initial_seeded(&g, seed).unwrap();
    // A few turns in, so that piles and displays hold cards.
    let mut rng = Rng::new(seed);
    while s.ply() < 6 || s.turn() != Turn::Player(0) {
        match s.turn() {
            Turn::Over => panic!("over too soon"),
            Turn::Chance => {
                let outs = s.chance_outcomes(&g).unwrap();
                s.play_unchecked(&g, &outs[rng.below(outs.len())].0).unwrap();
            }
            Turn::Player(_) => {
                let moves = s.legal_moves(&g).unwrap();
                s.play_unchecked(&g, &moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
    let mut other = sample(&g, &s, 0, &mut Rng::new(seed ^ 77)).unwrap();
    // Make sure the hidden cards really differ.
    let mut k = 78;
    while observe(&g, &other, Viewer::All) == observe(&g, &s, Viewer::All) {
        other = sample(&g, &s, 0, &mut Rng::new(seed ^ k)).unwrap();
        k += 1;
    }
    (g, s, other)
}

#[test]
fn samples_keep_what_the_viewer_sees_and_only_that() {
    for players in [2, 4] {
        let (g, s, other) = two_bug_off_positions(players, 5);
        let ann = Viewer::Player(0);
        assert_eq!(observe(&g, &s, ann), observe(&g, &other, ann));
        assert_ne!(observe(&g, &s, Viewer::All), observe(&g, &other, Viewer::All));
        for seed in 0..20 {
            let a = sample(&g, &s, 0, &mut Rng::new(seed)).unwrap();
            let b = sample(&g, &other, 0, &mut Rng::new(seed)).unwrap();
            // The same draws, card for card, from either position.
            assert_eq!(a, b, "seed {seed}");
            assert_eq!(observe(&g, &a, ann), observe(&g, &s, ann));
            // Every card is still somewhere: the sizes and the total agree.
            assert_eq!(observe(&g, &a, Viewer::Public), observe(&g, &s, Viewer::Public));
        }
    }
}

#[test]
fn information_set_search_decides_the_same_for_positions_the_player_cannot_tell_apart() {
    for players in [2, 4] {
        let (g, s, other) = two_bug_off_positions(players, 5);
        let moves = s.legal_moves(&g).unwrap();
        assert_eq!(moves, other.legal_moves(&g).unwrap());
        let decide = |t: &State| {
            let mut p = Player::new("mcts:300".parse().unwrap(), 1);
            p.choose(&g, t, &moves, &mut Rng::new(4), None).unwrap()
        };
        let (a, b) = (decide(&s), decide(&other));
        assert_eq!(a.mv, b.mv);
        // Not only the move: every statistic of the search is the same.
        assert_eq!(a.report, b.report);
        assert!(a.report.unwrap().playouts == 300);
    }
}

#[test]
fn a_turn_under_way_keeps_its_events_when_sampled() {
    // After Ann's move, Ben's draw is a chance event: the position is a
    // turn under way; every sample must replay its events.
    let g = game("bug_off.game");
    let s = State::initial_seeded(&g, 3).unwrap();
    let m = s.legal_moves(&g).unwrap()[0].clone();
    let mut t = s.clone();
    t.play_unchecked(&g, &m).unwrap();
    assert_eq!(t.turn(), Turn::Chance);
    for seed in 0..10 {
        let u = sample(&g, &t, 1, &mut Rng::new(seed)).unwrap();
        assert_eq!(u.pending(), t.pending());
        assert!(!u.chance_outcomes(&g).unwrap().is_empty());
    }
}

#[test]
fn the_searching_player_wins_more_than_its_share_of_bug_off() {
    // Two players: ISMCTS at 200 playouts against random, 10 games each
    // seat; a rough check (docs/engines.md has the measured figures).
    let g = game("bug_off.game");
    let mut score = 0.0;
    for i in 0..10u64 {
        let me = (i % 2) as u8;
        let mut s = State::initial_seeded(&g, 100 + i).unwrap();
        let mut rng = Rng::new(i);
        let mut engine = Player::new("mcts:200".parse().unwrap(), 1);
        loop {
            match s.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let outs = s.chance_outcomes(&g).unwrap();
                    let w: Vec<u32> = outs.iter().map(|o| o.1).collect();
                    let k = tabula::rng::pick_weighted(&w, w.len(), &mut rng).unwrap();
                    s.play_unchecked(&g, &outs[k].0).unwrap();
                }
                Turn::Player(p) => {
                    let moves = s.legal_moves(&g).unwrap();
                    if moves.is_empty() {
                        break;
                    }
                    let m = if p == me {
                        engine.choose(&g, &s, &moves, &mut rng, None).unwrap().mv
                    } else {
                        moves[rng.below(moves.len())].clone()
                    };
                    s.play_unchecked(&g, &m).unwrap();
                }
            }
        }
        score += match s.outcome(&g).unwrap() {
            Some(Outcome::Win(w)) if w == me => 1.0,
            Some(o) if o.is_winner(me) => 0.5,
            Some(Outcome::Draw) | None => 0.5,
            _ => 0.0,
        };
    }
    assert!(score >= 7.0, "{score} of 10");
}

/// Every line of play of an opponent who tries every move: the engine (a
/// fresh search from a fixed seed at each decision) never loses
/// tic-tac-toe, as either player. Slow (about 5000 searches of 10 000
/// playouts): only with RUN_SLOW_TESTS=1, in release.
#[test]
fn ten_thousand_playouts_never_lose_tic_tac_toe() {
    if std::env::var_os("RUN_SLOW_TESTS").is_none() {
        eprintln!("skipped: set RUN_SLOW_TESTS=1 (and use --release)");
        return;
    }
    let g = game("tictactoe.game");
    fn walk(g: &Game, s: &State, engine: u8, lines: &mut u64) {
        let moves = s.legal_moves(g).unwrap();
        if moves.is_empty() {
            *lines += 1;
            let o = s.outcome(g).unwrap();
            assert!(
                o.is_none_or(|o| o == Outcome::Draw || o.is_winner(engine)),
                "the engine lost:\n{}",
                s.to_text(g)
            );
            return;
        }
        if s.current() == engine {
            let r = search(g, s, Config::playouts(10_000), 1, 1);
            let mut t = s.clone();
            t.play_unchecked(g, &r.mv).unwrap();
            walk(g, &t, engine, lines);
        } else {
            for m in &moves {
                let mut t = s.clone();
                t.play_unchecked(g, m).unwrap();
                walk(g, &t, engine, lines);
            }
        }
    }
    for engine in [0, 1] {
        let mut lines = 0;
        walk(&g, &State::initial(&g).unwrap(), engine, &mut lines);
        eprintln!("engine as {}: {lines} lines of play, none lost", g.players[engine as usize]);
    }
}
