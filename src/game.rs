//! [`Game`]: a checked game and its compiled program, loaded together.

use crate::compile::{compile, Compiled, Limits};
use crate::diag::Diagnostics;
use crate::source::Source;
use crate::{check, ir, syntax};
use std::sync::Arc;

/// A loaded game: the checked rules ([`ir::Game`], reachable through
/// `Deref`: `game.players`, `game.board`, ...) and the program the fast
/// evaluator runs. Cheap to clone and shareable between threads.
#[derive(Clone)]
pub struct Game {
    ir: Arc<ir::Game>,
    program: Arc<Compiled>,
}

impl std::ops::Deref for Game {
    type Target = ir::Game;
    fn deref(&self) -> &ir::Game {
        &self.ir
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game").field("name", &self.ir.name).field("program", &self.program).finish()
    }
}

impl Game {
    /// Parses, checks and compiles a game text. `overrides` replace
    /// parameter values (`--set name=value`). All problems of the file are
    /// returned together.
    pub fn load(source: &Source, overrides: &[(String, i64)]) -> Result<Game, Diagnostics> {
        let file = syntax::parse(source).map_err(|p| Diagnostics::new(p, source))?;
        let ir = check::check(&file, source, overrides).map_err(|p| Diagnostics::new(p, source))?;
        Ok(Game::from_ir(ir))
    }

    /// Compiles a checked game.
    pub fn from_ir(ir: ir::Game) -> Game {
        Game::from_ir_with(ir, Limits::default())
    }

    /// Compiles a checked game with these work limits.
    pub fn from_ir_with(mut ir: ir::Game, limits: Limits) -> Game {
        ir.limits = limits;
        let program = Arc::new(compile(&ir, limits));
        Game { ir: Arc::new(ir), program }
    }

    /// The same game with other work limits (see [`Limits`]), for the
    /// compiled evaluator and the reference interpreter alike.
    pub fn with_limits(&self, limits: Limits) -> Game {
        Game::from_ir_with(ir::Game::clone(&self.ir), limits)
    }

    /// The checked rules.
    pub fn ir(&self) -> &ir::Game {
        &self.ir
    }

    /// The compiled program.
    pub fn program(&self) -> &Compiled {
        &self.program
    }

    /// Whether `setup` has chance events (a `random`, a face-down piece
    /// read): only then does [`crate::State::initial_seeded`] depend on its seed.
    pub fn setup_has_chance(&self) -> bool {
        with_program!(self, p => p.setup.ops.iter().any(|o| {
            matches!(o, crate::compile::stmt::Op::Random(_) | crate::compile::stmt::Op::Reveal { .. })
        }))
    }
}
