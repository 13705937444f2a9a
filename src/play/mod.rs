//! Playing: random playouts, the engines that choose moves in `tabula
//! play` and `tabula match` (random, greedy, flat Monte Carlo, tree
//! search), and the sampler of positions a player cannot tell apart. They
//! use the game API (`crate::eval`) and its fast paths.

mod engine;
pub mod mcts;
mod playout;
pub mod sample;

pub use engine::{monte_carlo, Decision, Engine, Player, Spec};
pub use playout::{playout, playout_listed, playout_recorded, Playout};
