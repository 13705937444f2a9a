//! The games bundled with tabula (`games/*.game`), built into the binary so
//! that `tabula bench` without a file works from any directory. A test
//! checks that this list matches the `games/` folder.

/// Each bundled game: its path in the repository and its text.
pub const GAMES: &[(&str, &str)] = &[
    ("games/boop.game", include_str!("../../games/boop.game")),
    ("games/breakthrough.game", include_str!("../../games/breakthrough.game")),
    ("games/bug.game", include_str!("../../games/bug.game")),
    ("games/bug_off.game", include_str!("../../games/bug_off.game")),
    ("games/chess.game", include_str!("../../games/chess.game")),
    ("games/connect4.game", include_str!("../../games/connect4.game")),
    ("games/hex.game", include_str!("../../games/hex.game")),
    ("games/morris.game", include_str!("../../games/morris.game")),
    ("games/othello.game", include_str!("../../games/othello.game")),
    ("games/snekagon.game", include_str!("../../games/snekagon.game")),
    ("games/tictactoe.game", include_str!("../../games/tictactoe.game")),
];
