//! Any bytes as a game file: a game or diagnostics that render, never a
//! crash; a game that loads plays a few moves.
#![no_main]

#[path = "../../tests/it/props.rs"]
mod props;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(g) = props::check_any(data) {
        props::play_some(&g, 1, 3);
    }
});
