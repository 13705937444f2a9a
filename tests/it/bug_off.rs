//! Bug Off!: the worked checks of rules/bug_off.md on concrete deals,
//! invariants over seeded games for 2 to 5 players, hidden information,
//! records.

use crate::{game_with, moves, outcome, play, position};
use tabula::wire::{observe, Record, Viewer};
use tabula::{Game, State};

fn game(players: i64) -> Game {
    game_with("bug_off.game", &[("players", players)])
}

/// The contents of a zone in the position text, e.g. `display Ann`.
fn line(g: &Game, s: &State, prefix: &str) -> Vec<String> {
    s.to_text(g)
        .lines()
        .filter(|l| l.starts_with(&format!("{prefix} ")))
        .map(|l| l[prefix.len() + 1..].to_string())
        .collect()
}

#[test]
fn worked_check_later_nets_discard_every_netted_type() {
    let g = game(2);
    let s = position(
        &g,
        "turn Ann
         hand Ann bee 2
         hand Ann ant 2
         hand Ben beetle 3
         display Ann ladybug 1
         display Ann slug 1
         display Ann ant 2
         display Ann bee 1
         display Ben ant 1
         display Ben beetle 1
         row ladybug-net slug-net
         draw_pile ant-net bee bee bee",
    );
    let t = play(&g, &s, "collect bee");
    // Ben drew the ant net: ladybugs, slugs and ants leave every display.
    assert_eq!(line(&g, &t, "display Ann"), ["Bee 2"]);
    assert_eq!(line(&g, &t, "display Ben"), ["Beetle 1"]);
    assert_eq!(line(&g, &t, "discard"), ["Ant 3", "Ladybug 1", "Slug 1"]);
    assert_eq!(line(&g, &t, "row"), ["LadybugNet SlugNet AntNet"]);
    // ... and then drew again: a bee.
    assert_eq!(line(&g, &t, "hand Ben"), ["Bee 1", "Beetle 3"]);
}

#[test]
fn worked_check_scoring_moves_cards_from_every_display() {
    let g = game(3);
    let s = position(
        &g,
        "turn Ann
         hand Ann slug 1
         hand Ann bee 3
         hand Ben ant 3
         hand Cleo ant 3
         display Ann slug 2
         display Ben slug 1
         display Ben ant 1
         display Cleo bee 1
         draw_pile bee bee bee",
    );
    let t = play(&g, &s, "score slug");
    assert_eq!(line(&g, &t, "pile Ann"), ["Slug 2"]);
    assert_eq!(line(&g, &t, "pile Ben"), ["Slug 1"]);
    assert!(line(&g, &t, "pile Cleo").is_empty());
    assert_eq!(line(&g, &t, "display Ben"), ["Ant 1"]);
    assert_eq!(line(&g, &t, "discard"), ["Slug 1"], "the played card scores for nobody");
}

#[test]
fn worked_check_the_sixth_net_ends_the_game_before_the_play() {
    let g = game(2);
    let s = position(
        &g,
        "turn Ann
         hand Ann bee 4
         hand Ben ant 3
         pile Ann slug 2
         pile Ben slug 1
         row ladybug-net slug-net ant-net beetle-net butterfly-net
         draw_pile bee-net bee bee",
    );
    let t = play(&g, &s, "collect bee");
    assert!(moves(&g, &t).is_empty(), "Ben never plays");
    assert_eq!(line(&g, &t, "hand Ben"), ["Ant 3"], "and draws nothing more");
    assert_eq!(outcome(&g, &t), "Ann wins");
}

#[test]
fn worked_check_the_same_player_draws_again() {
    let g = game(2);
    let s = position(&g, "turn Ann\nhand Ann bee 4\nhand Ben ant 3\ndraw_pile bee-net ladybug bee");
    let t = play(&g, &s, "score bee");
    assert_eq!(line(&g, &t, "hand Ben"), ["Ant 3", "Ladybug 1"]);
    assert_eq!(line(&g, &t, "row"), ["BeeNet"]);
}

#[test]
fn playing_a_netted_type_is_allowed() {
    let g = game(2);
    let s =
        position(&g, "turn Ann\nhand Ann ant 4\nhand Ben ant 3\nrow ant-net\ndraw_pile bee bee");
    assert_eq!(moves(&g, &s), ["collect ant", "score ant"]);
    let t = play(&g, &s, "collect ant");
    assert_eq!(line(&g, &t, "display Ann"), ["Ant 1"], "it stays until the next net or score");
}

#[test]
fn moves_are_type_and_action_and_need_the_card_in_hand() {
    let g = game(2);
    let s =
        position(&g, "turn Ann\nhand Ann ant 2\nhand Ann slug 2\nhand Ben ant 3\ndraw_pile bee");
    assert_eq!(moves(&g, &s), ["collect ant", "collect slug", "score ant", "score slug"]);
    assert!(s.parse_move(&g, "collect ladybug").is_err());
}

fn ended(g: &Game, pile: &str, row: &str) -> State {
    let s = position(
        g,
        &format!(
            "turn Ann\nhand Ann bee 4\nhand Ben ant 3\n{pile}\nrow {row}\ndraw_pile slug-net bee"
        ),
    );
    play(g, &s, "collect bee")
}

#[test]
fn tie_break_on_the_oldest_nets_type() {
    let g = game(2);
    let rows = "ladybug-net ant-net beetle-net butterfly-net bee-net";
    // 3 points each; the oldest net is a ladybug net: Ben has more ladybugs.
    let t = ended(&g, "pile Ann ant 3\npile Ben ladybug 1\npile Ben ant 2", rows);
    assert_eq!(outcome(&g, &t), "Ben wins");
    assert_eq!(t.decided_by(), Some(1));
    // No tie: the first key decides.
    let t = ended(&g, "pile Ann ant 4\npile Ben ladybug 1", rows);
    assert_eq!(outcome(&g, &t), "Ann wins");
    assert_eq!(t.decided_by(), Some(0));
}

#[test]
fn still_tied_players_share_the_win() {
    let g = game(3);
    let s = position(
        &g,
        "turn Ann
         hand Ann bee 4
         hand Ben ant 3
         hand Cleo ant 3
         pile Ann ladybug 1
         pile Ann ant 1
         pile Ben ladybug 1
         pile Ben bee 1
         pile Cleo ant 1
         row ladybug-net ant-net beetle-net butterfly-net bee-net
         draw_pile slug-net bee",
    );
    let t = play(&g, &s, "collect bee");
    assert_eq!(outcome(&g, &t), "shared win: Ann, Ben");
}

#[test]
fn player_count_is_a_checked_parameter() {
    for n in 2..=5 {
        assert_eq!(game(n).players.len(), n as usize);
    }
    let text = std::fs::read_to_string(crate::root().join("games/bug_off.game")).unwrap();
    let err = Game::load(&tabula::Source::new("bug_off.game", text), &[("players".into(), 6)])
        .expect_err("6 players");
    assert!(err.problems[0].message.contains("outside 2..5"), "{}", err.problems[0].message);
}

/// Seeded random games with 2..=5 players: cards are conserved, the mover
/// holds four cards and everybody else three, every game ends at the sixth
/// net, and no observation shows another player's hand, the deck order or
/// another player's score pile.
#[test]
fn invariants_and_no_leaks_over_random_games() {
    for players in 2..=5 {
        let g = game(players);
        let total = 6 * 10 + 6;
        for seed in 0..6 {
            let mut s = State::initial_seeded(&g, seed).unwrap();
            let mut rng = tabula::rng::Rng::new(seed);
            loop {
                let obs: Vec<_> =
                    (0..players as u8).map(|p| observe(&g, &s, Viewer::Player(p))).collect();
                let all = observe(&g, &s, Viewer::All);
                let size: usize = all.zones.iter().map(|z| z.size).sum();
                assert_eq!(size, total, "cards are conserved");
                for (p, o) in obs.iter().enumerate() {
                    for z in &o.zones {
                        let mine = z.player.as_deref() == Some(g.players[p].as_str());
                        match z.zone.as_str() {
                            "draw_pile" => assert!(z.contents.is_none(), "deck order leaked"),
                            "hand" | "pile" if !mine => {
                                assert!(z.contents.is_none(), "{} leaked", z.zone)
                            }
                            _ => assert!(z.contents.is_some()),
                        }
                    }
                    let json = serde_json::to_string(o).unwrap();
                    assert!(!json.contains("rng") && !json.contains("seed"), "{json}");
                }
                let m = s.legal_moves(&g).unwrap();
                if m.is_empty() {
                    assert!(s.outcome(&g).unwrap().is_some());
                    assert_eq!(
                        line(&g, &s, "row")[0].split(' ').count(),
                        6,
                        "ends at the sixth net"
                    );
                    break;
                }
                for z in &all.zones {
                    // Between turns (not while a draw is due).
                    if z.zone == "hand" && s.turn() != tabula::Turn::Chance {
                        let holder =
                            z.player.as_deref() == Some(g.players[s.current() as usize].as_str());
                        assert_eq!(z.size, if holder { 4 } else { 3 }, "hand sizes");
                    }
                }
                s = s.play(&g, &m[rng.below(m.len())]).unwrap();
            }
        }
    }
}

#[test]
fn the_same_seed_deals_the_same_cards() {
    let g = game(3);
    assert_eq!(State::initial_seeded(&g, 9).unwrap(), State::initial_seeded(&g, 9).unwrap());
    assert_ne!(State::initial_seeded(&g, 9).unwrap(), State::initial_seeded(&g, 10).unwrap());
}

#[test]
fn a_record_replays_to_the_identical_final_state() {
    let g = game(4);
    let mut s = State::initial_seeded(&g, 42).unwrap();
    let mut rng = tabula::rng::Rng::new(5);
    let mut moves = Vec::new();
    loop {
        let m = s.legal_moves(&g).unwrap();
        if m.is_empty() {
            break;
        }
        let mv = &m[rng.below(m.len())];
        moves.push(State::move_text(&g, mv));
        s = s.play(&g, mv).unwrap();
    }
    let mut rec = Record::new(&g, "games/bug_off.game", vec![("players".into(), 4)], 42, None);
    rec.moves = moves;
    rec.outcome = s.outcome(&g).unwrap().map(|o| o.describe(&g));
    rec.seal("../games/bug_off.game");
    let json = serde_json::to_string(&rec).unwrap();
    let back: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(back.replay(&g).unwrap(), s);
    // A record edited after it was saved: refused, whatever the edit.
    let mut wrong = back.clone();
    wrong.outcome = Some("draw".into());
    assert!(wrong.replay(&g).unwrap_err().contains("changed after it was saved"));
    let mut wrong = back.clone();
    wrong.moves.pop();
    assert!(wrong.replay(&g).unwrap_err().contains("changed after it was saved"));
    // Edited and sealed again: the replay itself refuses it.
    wrong.seal("../games/bug_off.game");
    assert!(wrong.replay(&g).unwrap_err().contains("the replay ends with"));
    // Another parameter set, another game.
    assert!(back.replay(&game(3)).unwrap_err().contains("other parameters"));
    let other = crate::game("tictactoe.game");
    assert!(back.replay(&other).unwrap_err().contains("not the game this record was played with"));
    // The game is a `.game` file named relative to the record.
    let path = back.game_path(std::path::Path::new("records/r.json")).unwrap();
    assert_eq!(path, std::path::Path::new("records/../games/bug_off.game"));
    for bad in ["/etc/passwd", "/games/x.game", "../../etc/passwd", "x.game.json"] {
        let mut r = back.clone();
        r.seal(bad);
        assert!(r.game_path(std::path::Path::new("r.json")).is_err(), "{bad}");
    }
}

#[test]
fn five_player_playthrough() {
    let g = game(5);
    insta::assert_snapshot!(crate::games::playthrough(&g, 1, 300));
}

#[test]
fn explaining_a_move_does_not_reveal_the_card_drawn_next() {
    let g = game(2);
    // Ben's next draw is a ladybug; nobody holds or shows one.
    let s = position(
        &g,
        "turn Ann\nhand Ann ant 2\nhand Ann bee 2\nhand Ben slug 3\ndraw_pile ladybug bee",
    );
    let v = tabula::interp::explain(&g, &s, "collect ant").unwrap();
    let repr = tabula::wire::ExplanationRepr::new(&g, "collect ant", &v, Viewer::Player(0));
    let json = serde_json::to_string(&repr).unwrap();
    assert_eq!(repr.verdict, "legal");
    assert!(!json.to_lowercase().contains("ladybug"), "{json}");
}

#[test]
fn explaining_a_failed_rule_does_not_show_hidden_values() {
    // A rule reading the face-down deck: its value stays hidden.
    let text = "players A, B\npiece Card\nzone deck shared ordered hidden\nzone hand per player owner\n\
                setup { add 3 Card to deck }\n\
                turn { either \"peek\" { require count(deck) > 5 and first(deck) == none } or \"look\" { require count(hand(me)) > 0 } }";
    let g = crate::game_text(text).unwrap();
    let s = crate::start(&g);
    let v = tabula::interp::explain(&g, &s, "peek").unwrap();
    let tabula::interp::Verdict::Illegal { attempts } = v else { panic!("{v:?}") };
    let values: Vec<&str> = attempts[0].why.values.iter().map(|(_, t)| t.as_str()).collect();
    // The deck's size is public; its first card is not.
    assert_eq!(values, ["= 3", "= (hidden)"]);
    let v = tabula::interp::explain(&g, &s, "look").unwrap();
    let tabula::interp::Verdict::Illegal { attempts } = v else { panic!("{v:?}") };
    assert_eq!(attempts[0].why.values[0].1, "= 0", "the mover's own hand is seen");
}
