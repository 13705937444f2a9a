//! Playing: random playouts and the engines that choose moves in `tabula
//! play`. They use the game API (`crate::eval`) and its fast paths.

mod engine;
mod playout;

pub use engine::{monte_carlo, Engine};
pub use playout::{playout, playout_recorded, Playout};
