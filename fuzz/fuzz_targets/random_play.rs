//! Random play on every bundled game with arbitrary seeds, parameters (from
//! their declared ranges) and move choices: every legal move plays, its
//! notation reads back, positions round-trip, observations hide; and the
//! compiled evaluator agrees with the reference interpreter.
#![no_main]

#[path = "../../tests/it/props.rs"]
mod props;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let seed = u64::from_le_bytes(data[1..9].try_into().unwrap_or([0; 8]));
    let mut gen = props::Gen(seed);
    let g = props::bundled(usize::from(data[0]), &mut gen);
    props::play_checked(&g, seed, &data[9..], 20);
    props::agree_some(&g, seed, 6);
});
