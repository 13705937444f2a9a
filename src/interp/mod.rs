//! The reference and explaining interpreter: a plain tree walk over the
//! checked IR. It re-runs the turn from its start for every node of the
//! choice tree, which makes it slow and simple: the compiled evaluator
//! (`crate::eval`) is tested against it, and `explain` and `why` run on it
//! because it can record the path of a run and why it failed.

pub(crate) mod exec;
mod explain;
pub mod reference;

pub use exec::{Step, Why};
pub use explain::{explain, Attempt, Verdict};
