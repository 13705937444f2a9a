//! A bundled game mutated token by token (so most mutants parse and reach
//! the checker and the evaluator): never a crash, and the compiled
//! evaluator agrees with the reference interpreter wherever both answer.
#![no_main]

#[path = "../../tests/it/props.rs"]
mod props;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = props::mutate(data);
    if let Some(g) = props::check_any(text.as_bytes()) {
        let seed = data.iter().fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
        props::play_some(&g, seed, 4);
        props::agree_some(&g, seed, 6);
    }
});
