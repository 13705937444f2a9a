//! Perft regression files: `tests/perft/*.perft`.
//!
//! Format (one fact per line, `#` comments): `id NAME`, `game FILE` (in
//! `games/`), optional `set NAME=VALUE`, optional `after MOVES` (comma
//! separated), optional `position FILE` (a position text, e.g. a fully
//! specified deal), then `perft DEPTH NODES` lines. Cases above `NODE_LIMIT`
//! nodes run only with `RUN_SLOW_TESTS=1` (e.g. in release builds).

use crate::{files, game_with, play, root, start};

const NODE_LIMIT: u64 = 300_000;

#[test]
fn perft_files() {
    let slow = std::env::var("RUN_SLOW_TESTS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut ran = 0;
    for path in files(&root().join("tests/perft"), "perft") {
        let text = std::fs::read_to_string(&path).expect("perft file");
        let (mut id, mut game_name, mut sets, mut after) = (String::new(), None, Vec::new(), None);
        let mut pos = None;
        let mut cases = Vec::new();
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some((key, rest)) = line.split_once(' ') else { continue };
            match key {
                "id" => id = rest.to_string(),
                "game" => game_name = Some(rest.to_string()),
                "set" => {
                    let (k, v) = rest.split_once('=').expect("set NAME=VALUE");
                    sets.push((k.to_string(), v.parse::<i64>().expect("number")));
                }
                "after" => after = Some(rest.to_string()),
                "position" => pos = Some(rest.to_string()),
                "perft" => {
                    let (d, n) = rest.split_once(' ').expect("perft DEPTH NODES");
                    cases
                        .push((d.parse::<u32>().expect("depth"), n.parse::<u64>().expect("nodes")));
                }
                other => panic!("{}: unknown key `{other}`", path.display()),
            }
        }
        let game_name = game_name.expect("game line");
        let set: Vec<(&str, i64)> = sets.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let g = game_with(&game_name, &set);
        let mut s = match &pos {
            Some(p) => crate::position(
                &g,
                &std::fs::read_to_string(root().join(p)).expect("position file"),
            ),
            None => start(&g),
        };
        if let Some(a) = &after {
            for m in a.split(',') {
                s = play(&g, &s, m.trim());
            }
        }
        for (depth, nodes) in cases {
            if nodes > NODE_LIMIT && !slow {
                continue;
            }
            ran += 1;
            let got = tabula::perft(&g, &s, depth).expect("perft");
            if got != nodes {
                failures.push(format!("{id}: perft({depth}) = {got}, expected {nodes}"));
            }
        }
    }
    assert!(ran > 0, "no perft case ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn boop_perft_matches_the_hand_written_reference() {
    let native = crate::native::boop::Game::new();
    let g = crate::game("boop.game");
    let s = start(&g);
    for depth in 1..=3 {
        assert_eq!(
            tabula::perft(&g, &s, depth).unwrap(),
            native.perft(&native.initial(), depth),
            "depth {depth}"
        );
    }
}
