//! Positions and moves as text and serde values.
