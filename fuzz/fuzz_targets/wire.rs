//! Position text, position JSON and game records for a bundled game:
//! never a crash; what reads back round-trips.
#![no_main]

#[path = "../../tests/it/props.rs"]
mod props;

use std::sync::OnceLock;

static GAMES: OnceLock<Vec<tabula::Game>> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let games = GAMES.get_or_init(|| {
        props::GAMES
            .iter()
            .map(|(n, t)| tabula::Game::load(&tabula::Source::new(*n, *t), &[]).unwrap())
            .collect()
    });
    let Some((&pick, rest)) = data.split_first() else { return };
    let g = &games[usize::from(pick) % games.len()];
    props::wire_any(g, &String::from_utf8_lossy(rest));
});
