//! What every verb shares: the global options, loading a game, reading a
//! starting position (position text or JSON, then `--after`), players by
//! name, and errors worded the same everywhere.

use super::{usage, Failure, From, Global, Result};
use miette::miette;
use tabula::notation::{MoveError, SequenceError};
use tabula::wire::{Observation, SequenceRepr, StateRepr, ZoneCount};
use tabula::{Game, Source, State};

/// The global options, read once.
#[derive(Clone)]
pub struct Ctx {
    set: Vec<String>,
    seed: Option<u64>,
    random_seed: u64,
    /// No progress bars, timings or notes.
    pub quiet: bool,
    /// Work limits of rules (`--max-steps`, `--max-choices`).
    pub limits: tabula::compile::Limits,
}

impl Ctx {
    /// The options as given, with a random seed drawn in case none was.
    pub fn new(g: &Global) -> Ctx {
        let d = tabula::compile::Limits::default();
        let limits = tabula::compile::Limits {
            steps: g.max_steps.unwrap_or(d.steps),
            choices: g.max_choices.unwrap_or(d.choices),
        };
        Ctx { set: g.set.clone(), seed: g.seed, random_seed: random_seed(), quiet: g.quiet, limits }
    }

    /// The same options without progress bars and notes (for work that is
    /// part of a larger task with its own progress display).
    pub fn silenced(&self) -> Ctx {
        Ctx { quiet: true, ..self.clone() }
    }

    /// The seed: `--seed`, or the random one.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(self.random_seed)
    }

    /// Whether the seed was drawn at random (so it is worth printing).
    pub fn seed_is_random(&self) -> bool {
        self.seed.is_none()
    }

    /// Whether `--seed` was given.
    pub fn has_seed(&self) -> bool {
        self.seed.is_some()
    }

    /// The `--set` overrides, each name once with its last value.
    pub fn overrides(&self) -> Result<Vec<(String, i64)>> {
        let mut out: Vec<(String, i64)> = Vec::new();
        for s in &self.set {
            let (k, v) = s.split_once('=').ok_or_else(|| {
                usage(miette!(help = "write `--set name=value`", "`--set {s}`: missing `=`"))
            })?;
            let v: i64 = v.trim().parse().map_err(|_| {
                usage(miette!(
                    help = "parameters are whole numbers",
                    "`--set {s}`: `{}` is not a number",
                    v.trim()
                ))
            })?;
            let k = k.trim().to_string();
            out.retain(|(name, _)| *name != k);
            out.push((k, v));
        }
        Ok(out)
    }

    /// A note on stderr, unless `-q`.
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }

    /// Says which random seed dealt the position, when it matters: the
    /// seed was not given and the game shuffles.
    pub fn note_seed(&self, g: &Game) {
        if self.seed_is_random() && g.source.text.contains("shuffle") {
            let seed = self.seed();
            self.note(&format!("note: random seed {seed} (repeat with --seed {seed})"));
        }
    }
}

/// A seed from the clock and the process: different on every run.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    h.write_u128(now.map_or(0, |d| d.as_nanos()));
    h.write_u32(std::process::id());
    // Short enough to retype.
    h.finish() >> 32
}

/// Reads a text file named on the command line, of at most
/// [`tabula::syntax::MAX_SOURCE_BYTES`]: a directory, a device or a pipe is
/// refused before reading, and reading stops past the limit (so `/dev/zero`
/// or a huge file costs nothing). Unreadable: a usage error.
pub fn read(path: &str) -> Result<String> {
    use std::io::Read as _;
    let limit = tabula::syntax::MAX_SOURCE_BYTES;
    let too_big = || {
        usage(miette!(
            help = "game files, positions and records are a few kilobytes",
            "`{path}` is larger than {limit} bytes"
        ))
    };
    let meta = std::fs::metadata(path).map_err(|e| usage(miette!("cannot read `{path}`: {e}")))?;
    if !meta.is_file() {
        return Err(usage(miette!("cannot read `{path}`: not a regular file")));
    }
    if meta.len() > limit as u64 {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| usage(miette!("cannot read `{path}`: {e}")))?;
    if bytes.len() > limit {
        return Err(too_big());
    }
    String::from_utf8(bytes)
        .map_err(|e| usage(miette!("cannot read `{path}`: not UTF-8 text ({e})")))
}

/// Reads a game file as a source named as the user wrote it.
pub fn source(file: &str) -> Result<Source> {
    Ok(Source::new(file, read(file)?))
}

/// Loads a game with the `--set` overrides; its problems are printed as
/// reports on stderr.
pub fn load(ctx: &Ctx, file: &str) -> Result<Game> {
    load_source(ctx, &source(file)?)
}

/// Loads a game from a source (see [`load`]).
pub fn load_source(ctx: &Ctx, source: &Source) -> Result<Game> {
    let g = load_with(source, &ctx.overrides()?)?;
    Ok(if ctx.limits == tabula::compile::Limits::default() { g } else { g.with_limits(ctx.limits) })
}

/// Loads a game with these parameter values (see [`load`]).
pub fn load_with(source: &Source, overrides: &[(String, i64)]) -> Result<Game> {
    match Game::load(source, overrides) {
        Ok(g) => Ok(g),
        Err(diags) => {
            let (n, shown) = (diags.count(), diags.problems.len());
            for p in diags.problems {
                eprintln!("{:?}", miette::Report::new(p));
            }
            let more =
                if n > shown { format!(" (the first {shown} shown)") } else { String::new() };
            Err(miette!(
                "{}: {n} problem{} found{more}",
                source.name,
                if n == 1 { "" } else { "s" }
            )
            .into())
        }
    }
}

/// A rule that failed while running, as a report on the game file.
pub fn run_err(g: &Game, e: tabula::RunError) -> Failure {
    miette::Report::new(e.to_problem(g)).into()
}

/// The starting position: `--position` or the initial position dealt by
/// the seed, then the `--after` moves.
pub fn start(ctx: &Ctx, g: &Game, from: &From) -> Result<State> {
    after(g, base(ctx, g, from)?, from)
}

/// The position before the `--after` moves: `--position`, or the initial
/// position dealt by the seed.
pub fn base(ctx: &Ctx, g: &Game, from: &From) -> Result<State> {
    match &from.position {
        Some(p) => read_position(g, p),
        None => {
            let s = State::initial_seeded(g, ctx.seed()).map_err(|e| run_err(g, e))?;
            ctx.note_seed(g);
            Ok(s)
        }
    }
}

/// The last of the `--after` moves that led from `base` to `end`, found by
/// replaying ever shorter prefixes of the moves.
pub fn last_move(g: &Game, base: &State, after: &str, end: &State) -> Option<tabula::Move> {
    let (parts, sep): (Vec<&str>, &str) = if after.contains([',', ';']) {
        (after.split([',', ';']).map(str::trim).filter(|m| !m.is_empty()).collect(), ", ")
    } else {
        (after.split_whitespace().collect(), " ")
    };
    for k in 1..=parts.len() {
        let prefix = parts[..parts.len() - k].join(sep);
        let Ok(p) = tabula::notation::play_sequence(g, base, &prefix) else { continue };
        for m in p.legal_moves(g).ok()? {
            let mut t = p.clone();
            if t.play_unchecked(g, &m).is_ok() && t == *end {
                return Some(m);
            }
        }
    }
    None
}

/// Plays the `--after` moves, if any.
pub fn after(g: &Game, s: State, from: &From) -> Result<State> {
    match &from.after {
        Some(text) => tabula::notation::play_sequence(g, &s, text)
            .map_err(|e| sequence_error(g, &e, "--after")),
        None => Ok(s),
    }
}

/// A move of a sequence that failed, with the move as it was typed.
pub fn sequence_error(g: &Game, e: &SequenceError, what: &str) -> Failure {
    match &e.error {
        MoveError::Rule(r) => run_err(g, r.clone()),
        other => miette!("{what}, move {} (`{}`): {}", e.index, e.text, move_error(other, &e.text))
            .into(),
    }
}

/// Why a typed move was refused, echoing the move as typed (the library
/// reports it normalised).
pub fn move_error(e: &MoveError, typed: &str) -> String {
    let typed = typed.split_whitespace().collect::<Vec<_>>().join(" ");
    match e {
        MoveError::Illegal { legal, .. } => {
            format!("`{typed}` is not a legal move here ({legal} legal moves; `moves` lists them)")
        }
        MoveError::Incomplete { next, .. } => {
            let shown: Vec<&str> = next.iter().take(12).map(String::as_str).collect();
            let more = if next.len() > 12 { ", ..." } else { "" };
            format!("`{typed}` is not a whole move; it may go on with: {}{more}", shown.join(", "))
        }
        other => other.to_string(),
    }
}

/// Reads a position file: position text, or JSON as `show --json` prints it.
pub fn read_position(g: &Game, path: &str) -> Result<State> {
    let text = read(path)?;
    let repr = if text.trim_start().starts_with('{') {
        position_json(g, &text)
    } else {
        StateRepr::from_text(g, &text)
    };
    repr.and_then(|r| r.to_state(g)).map_err(|e| miette!("{path}: {e}").into())
}

/// A position from JSON: a full position (`show --json` of a game without
/// hidden zones, or `--reveal`), or an observation that hides nothing.
fn position_json(g: &Game, text: &str) -> std::result::Result<StateRepr, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("{e}"))?;
    if value.get("viewer").is_none() {
        return serde_json::from_value(value).map_err(|e| format!("not a position: {e}"));
    }
    let o: Observation =
        serde_json::from_value(value).map_err(|e| format!("not a position: {e}"))?;
    let mut zones = Vec::new();
    let mut sequences = Vec::new();
    for z in o.zones {
        let Some(contents) = z.contents else {
            return Err(format!(
                "the contents of `{}` are hidden in this view; `show --json --reveal` prints a \
                 position that can be read back",
                z.zone
            ));
        };
        if g.zones.iter().any(|x| x.name == z.zone && x.ordered) {
            if !contents.is_empty() {
                // The view lists face-down pieces by kind after the front.
                let a = z.face_down_after.min(contents.len());
                let b = (a + z.face_down).min(contents.len());
                let mut face_down: Vec<(String, u16)> = Vec::new();
                for k in &contents[a..b] {
                    match face_down.iter_mut().find(|(n, _)| n == k) {
                        Some(e) => e.1 += 1,
                        None => face_down.push((k.clone(), 1)),
                    }
                }
                sequences.push(SequenceRepr {
                    zone: z.zone,
                    player: z.player,
                    pieces: contents[..a].to_vec(),
                    face_down,
                    back: contents[b..].to_vec(),
                });
            }
            continue;
        }
        let mut i = 0;
        while i < contents.len() {
            let n = contents[i..].iter().take_while(|k| **k == contents[i]).count();
            zones.push(ZoneCount {
                zone: z.zone.clone(),
                player: z.player.clone(),
                kind: contents[i].clone(),
                count: n as u16,
            });
            i += n;
        }
    }
    Ok(StateRepr {
        to_move: o.to_move,
        ply: o.ply,
        outcome: o.outcome,
        pieces: o.pieces,
        zones,
        sequences,
        decided_by: None,
        turn_so_far: Vec::new(),
        vars: o.vars,
        seen: Vec::new(),
        game_over: None,
    })
}

/// A player by name (any case) or seat number from 1.
pub fn seat(g: &Game, who: &str) -> Result<u8> {
    g.players
        .iter()
        .position(|p| p.eq_ignore_ascii_case(who))
        .or_else(|| {
            who.parse::<usize>().ok().filter(|&i| i >= 1 && i <= g.players.len()).map(|i| i - 1)
        })
        .map(|i| i as u8)
        .ok_or_else(|| {
            usage(miette!(help = format!("players: {}", g.players.join(", ")), "no player `{who}`"))
        })
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(|e| miette!("{e}"))?;
    say!("{text}");
    Ok(())
}

/// What a verb may show, as `view` asks, of position `s`: in a game with
/// hidden zones a player's view (`--as`) or everything (`--reveal`), and
/// nothing without one of them. `acts` is true for a verb that lists or
/// reads the moves of the player to move: only that player (or the
/// referee) may see them, because they name what the mover holds.
pub fn viewer(g: &Game, s: &State, view: &super::View, acts: bool) -> Result<tabula::wire::Viewer> {
    use tabula::wire::Viewer;
    if view.reveal {
        return Ok(Viewer::All);
    }
    let who = match &view.viewer {
        Some(v) => Some(seat(g, v)?),
        None => None,
    };
    if !g.has_hidden_information() {
        return Ok(who.map_or(Viewer::All, Viewer::Player));
    }
    let Some(p) = who else {
        // A missing option, so a usage error (exit 2).
        return Err(super::usage(miette!(
            help = "`--as PLAYER` shows what that player may know; `--reveal` shows everything",
            "this game hides pieces from its players: say whose view"
        )));
    };
    if acts {
        match s.turn() {
            tabula::Turn::Chance => {
                return Err(miette!(
                    help = "`--reveal` lists the outcomes with their probabilities",
                    "chance decides here, and its outcomes name hidden pieces"
                )
                .into())
            }
            tabula::Turn::Player(m) if m != p => {
                let (who, mover) = (&g.players[p as usize], &g.players[m as usize]);
                return Err(miette!(
                    help = format!("`--as {mover}` (the player to move) or `--reveal`"),
                    "{who} cannot see the moves of {mover}: they name pieces {mover} holds"
                )
                .into());
            }
            _ => {}
        }
    }
    Ok(Viewer::Player(p))
}

/// The move a typed text stands for, spelled out in full when it is a
/// short form (a choice declared `as short`), else the text as typed: the
/// explaining interpreter reads full notation only.
pub fn spelled_out(g: &Game, s: &State, typed: &str) -> String {
    if !g.sites.iter().any(|x| x.short) {
        return typed.to_string();
    }
    match s.parse_move(g, typed) {
        Ok(m) => State::move_text(g, &m),
        Err(_) => typed.to_string(),
    }
}
