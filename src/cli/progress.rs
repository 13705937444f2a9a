//! Progress bars on stderr for work that can take more than a moment.
//! They are hidden when stderr is not a terminal (pipes, files, tests) and
//! with `-q`, and cleared when the work is done, so they never mix with
//! the results.

use super::common::Ctx;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar counting `len` items of `what` (e.g. `playouts`).
pub fn bar(ctx: &Ctx, len: u64, what: &str) -> ProgressBar {
    if ctx.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr_with_hz(10));
    let template =
        format!("{{prefix}} [{{bar:30}}] {{human_pos}}/{{human_len}} {what}, {{eta}} left {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

/// A spinner for work of unknown size.
pub fn spinner(ctx: &Ctx, what: &str) -> ProgressBar {
    if ctx.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
    if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix} {msg} ({elapsed})") {
        pb.set_style(style);
    }
    pb.set_message(what.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(100));
    pb
}
