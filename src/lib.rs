//! # tabula — games as text
//!
//! A game is written in the tabula rules language (`grammar/tabula.pest`,
//! documented in `docs/language.md`). This library turns such a text into
//! an exact move generator:
//!
//! ```
//! use tabula::{Game, Source, State, perft};
//!
//! let text = r#"
//!     game "Tic-tac-toe"
//!     players X, O
//!     board square 3 by 3 with 8 neighbours
//!     piece Mark "m"
//!     turn {
//!         choose c in cells where empty(c)
//!         place Mark at c
//!         if any l in lines(3): all x in l: owner(x) == me { win me }
//!     }
//! "#;
//! let game = Game::load(&Source::new("ttt.game", text), &[]).expect("a valid game");
//! let start = State::initial(&game).expect("setup runs");
//! assert_eq!(start.legal_moves(&game).unwrap().len(), 9);
//! assert_eq!(perft(&game, &start, 2).unwrap(), 72);
//!
//! let mv = start.parse_move(&game, "b2").unwrap();
//! let next = start.play(&game, &mv).unwrap();
//! assert_eq!(next.legal_moves(&game).unwrap().len(), 8);
//! ```
//!
//! The pipeline is `syntax::parse` (text → AST) → `check::check` (AST →
//! [`ir::Game`], all problems at once) → [`eval`] (states and moves). The
//! library does no IO; the `tabula` binary reads files and prints reports.

/// Runs `$body` with `$p` bound to the game's compiled program at its width.
macro_rules! with_program {
    ($g:expr, $p:ident => $body:expr) => {
        match $g.program() {
            crate::compile::Compiled::W1(prog) => {
                let $p = &**prog;
                $body
            }
            crate::compile::Compiled::W2(prog) => {
                let $p = &**prog;
                $body
            }
            crate::compile::Compiled::W4(prog) => {
                let $p = &**prog;
                $body
            }
        }
    };
}

pub mod board;
pub mod check;
pub mod compile;
pub mod diag;
pub mod eval;
mod game;
pub mod interp;
pub mod ir;
pub mod notation;
pub mod play;
pub mod render;
pub mod rng;
pub mod source;
pub mod state;
pub mod syntax;
pub mod wire;

pub use diag::{Diagnostics, Problem};
pub use eval::perft;
pub use game::Game;
pub use notation::MoveError;
pub use play::{playout, playout_listed, Playout};
pub use render::render;
pub use source::{Source, Span};
pub use state::{Fault, Move, Outcome, RunError, State, Turn};
