//! `tabula play` (a game in the terminal against the engine) and `tabula
//! replay` (a saved record played back).

use super::common::{load, load_with, move_error, read, run_err, seat, start, Ctx};
use super::show::explanation_text;
use super::{picture, usage, From, Result};
use miette::{miette, IntoDiagnostic};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use tabula::notation::MoveError;
use tabula::play::Engine;
use tabula::render::render_for;
use tabula::rng::Rng;
use tabula::wire::{Record, Viewer};
use tabula::{Game, Move, Source, State};

/// Runs `tabula play`.
pub fn play(
    ctx: &Ctx,
    file: &str,
    seats: &[String],
    watch: bool,
    from: &From,
    record: Option<&str>,
    engine: Engine,
) -> Result<()> {
    let g = load(ctx, file)?;
    let seed = ctx.seed();
    let s = start(&ctx.silenced(), &g, from)?;
    let mut human = vec![false; g.players.len()];
    if !watch {
        if seats.is_empty() {
            human[0] = true;
        }
        for who in seats {
            human[seat(&g, who)? as usize] = true;
        }
    }
    let start = from.is_set().then(|| s.to_text(&g));
    let rec = Record::new(&g, file.to_string(), ctx.overrides()?, seed, start);
    let mut rec = game_loop(&g, s, &human, seed, rec, engine)?;
    if let Some(path) = record {
        // The game is named relative to the record's folder, and sealed.
        rec.seal(path_from(file, path));
        let json = serde_json::to_string_pretty(&rec).into_diagnostic()?;
        std::fs::write(path, json + "\n")
            .map_err(|e| usage(miette!("cannot write `{path}`: {e}")))?;
        say!("Game record saved to {path}.");
    }
    Ok(())
}

/// The position drawn for `viewer`, without its last line (whose turn it
/// is, or the result), for the end of the game, where the result is said once.
fn board_only(g: &Game, s: &State, viewer: Viewer) -> String {
    let text = render_for(g, s, viewer);
    let body = text.trim_end_matches('\n');
    match body.rfind('\n') {
        Some(i)
            if body[i + 1..].starts_with("game over:") || body[i + 1..].starts_with("to move:") =>
        {
            format!("{}\n", &body[..i])
        }
        _ => text,
    }
}

fn game_loop(
    g: &Game,
    mut s: State,
    human: &[bool],
    seed: u64,
    mut record: Record,
    engine: Engine,
) -> Result<Record> {
    let humans: Vec<u8> = (0..g.players.len() as u8).filter(|&p| human[p as usize]).collect();
    let hidden = g.has_hidden_information();
    // Several people at one screen: each hand stays hidden until its owner
    // confirms they are the one looking.
    let hot_seat = hidden && humans.len() > 1;
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut history: Vec<State> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    say!("{} (seed {seed}) — type a move in notation, or `help`.", g.name);
    let mut shown_to: Option<u8> = None;
    let mut last_try = String::new();
    loop {
        if s.turn() == tabula::Turn::Chance {
            // Chance decides now, with its probabilities: the roll or the
            // draw was not fixed before (so `undo` draws again).
            let outcomes = s.chance_outcomes(g).map_err(|e| run_err(g, e))?;
            let weights: Vec<u32> = outcomes.iter().map(|o| o.1).collect();
            let Some(i) = tabula::rng::pick_weighted(&weights, outcomes.len(), &mut rng) else {
                say!("Game over: a chance event has no outcome.");
                return Ok(record);
            };
            let m = outcomes[i].0.clone();
            if !hidden {
                // A public chance event (a roll): say what came up. Draws
                // into hidden zones show only in each player's view.
                say!("chance: {}", State::move_text(g, &m));
            }
            record.moves.push(State::move_text(g, &m));
            s.play_unchecked(g, &m).map_err(|e| run_err(g, e))?;
            continue;
        }
        let moves = s.legal_moves(g).map_err(|e| run_err(g, e))?;
        let me = s.current();
        let view = if !hidden {
            Viewer::All
        } else if human[me as usize] {
            Viewer::Player(me)
        } else if let [only] = humans.as_slice() {
            Viewer::Player(*only)
        } else {
            Viewer::Public
        };
        if moves.is_empty() {
            say!("");
            // The game is over: everything may be shown; the result once.
            say_part!("{}", board_only(g, &s, Viewer::All));
            let o = s.outcome(g).map_err(|e| run_err(g, e))?;
            record.outcome = o.map(|o| o.describe(g));
            match o {
                Some(o) => say!("Game over: {}.", o.describe(g)),
                None => say!("Game over."),
            }
            return Ok(record);
        }
        if hot_seat && human[me as usize] && shown_to != Some(me) {
            say!("\x1b[2J\x1b[H");
            say_part!("Pass the screen to {} and press Enter. ", g.players[me as usize]);
            if lines.next().is_none() {
                return Ok(record);
            }
            shown_to = Some(me);
        }
        say!("");
        say_part!("{}", render_for(g, &s, view));
        let mv: Move = if human[me as usize] {
            say_part!("{}> ", g.players[me as usize]);
            let Some(line) = lines.next() else {
                say!("\n(end of input: game left unfinished)");
                return Ok(record);
            };
            let line = line.into_diagnostic()?;
            let cmd = line.trim();
            match cmd {
                "" => continue,
                "quit" | "exit" => return Ok(record),
                "help" => {
                    say!("Type a move as the list shows it (e.g. the first one below).");
                    say!("Commands: moves (list legal moves), why MOVE (explain a move),");
                    say!("undo (take back your last move), quit.");
                    if let Some(m) = moves.first() {
                        say!("Example: {}", State::move_text(g, m));
                    }
                    continue;
                }
                "moves" => {
                    let texts: Vec<String> = moves.iter().map(|m| State::move_text(g, m)).collect();
                    say!("{} legal moves: {}", texts.len(), texts.join(", "));
                    continue;
                }
                _ if cmd == "why" || cmd.starts_with("why ") => {
                    let asked = cmd.strip_prefix("why").unwrap_or("").trim();
                    let asked = if asked.is_empty() { last_try.clone() } else { asked.to_string() };
                    if asked.is_empty() {
                        say!(
                            "Type `why MOVE`, e.g. `why {}`.",
                            moves.first().map(|m| State::move_text(g, m)).unwrap_or_default()
                        );
                    } else {
                        let v =
                            tabula::interp::explain(g, &s, &asked).map_err(|e| run_err(g, e))?;
                        say_part!("{}", explanation_text(g, &s, &asked, &v));
                    }
                    continue;
                }
                "undo" => {
                    // Back to the previous position where a person was to move.
                    let mut undone = false;
                    while let Some(prev) = history.pop() {
                        record.moves.pop();
                        let who = prev.current() as usize;
                        s = prev;
                        if human[who] {
                            undone = true;
                            break;
                        }
                    }
                    if !undone {
                        say!("Nothing to undo.");
                    }
                    continue;
                }
                _ => match s.parse_move(g, cmd) {
                    Ok(m) => m,
                    Err(MoveError::Rule(e)) => return Err(run_err(g, e)),
                    Err(e) => {
                        say!("{}", move_error(&e, cmd));
                        say!("(type `why` to see which rule rejects it)");
                        last_try = cmd.to_string();
                        continue;
                    }
                },
            }
        } else {
            let m = engine.choose(g, &s, &moves, &mut rng).map_err(|e| run_err(g, e))?;
            say!("{} plays {}", g.players[me as usize], State::move_text(g, &m));
            m
        };
        history.push(s.clone());
        record.moves.push(State::move_text(g, &mv));
        s.play_unchecked(g, &mv).map_err(|e| run_err(g, e))?;
    }
}

/// The game file's path as a record saved at `record` should name it:
/// relative to the record's folder, so the pair can be moved together.
pub(super) fn path_from(game: &str, record: &str) -> String {
    let Ok(game_abs) = std::fs::canonicalize(game) else { return game.to_string() };
    let dir = Path::new(record).parent().filter(|d| !d.as_os_str().is_empty());
    let Ok(dir_abs) = std::fs::canonicalize(dir.unwrap_or(Path::new("."))) else {
        return game_abs.to_string_lossy().into_owned();
    };
    let g: Vec<_> = game_abs.components().collect();
    let d: Vec<_> = dir_abs.components().collect();
    let common = g.iter().zip(&d).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return game_abs.to_string_lossy().into_owned();
    }
    let mut rel = PathBuf::new();
    for _ in common..d.len() {
        rel.push("..");
    }
    for c in &g[common..] {
        rel.push(c);
    }
    rel.to_string_lossy().replace('\\', "/")
}

/// Runs `tabula replay`.
pub fn replay(ctx: &Ctx, record: &str, html: Option<&str>) -> Result<()> {
    if ctx.has_seed() || !ctx.overrides()?.is_empty() {
        return Err(usage(miette!(
            "`replay` takes the seed and the parameters from the record: drop `--seed` and `--set`"
        )));
    }
    let text = read(record)?;
    let rec: Record =
        serde_json::from_str(&text).map_err(|e| miette!("`{record}` is not a game record: {e}"))?;
    // The game: a `.game` file beside the record, the very text it was
    // played with (no path elsewhere, no edited rules or record).
    let file = rec.game_path(Path::new(record)).map_err(|e| miette!("{record}: {e}"))?;
    let file = file.to_string_lossy().into_owned();
    let game_text = read(&file)?;
    rec.check_game(&game_text).map_err(|e| miette!("{record}: {e}"))?;
    let g = load_with(&Source::new(file.clone(), game_text), &rec.params)?;
    let mut s = match &rec.start {
        Some(text) => {
            State::from_text(&g, text).map_err(|e| miette!("{record}: start position: {e}"))?
        }
        None => State::initial_seeded(&g, rec.seed).map_err(|e| run_err(&g, e))?,
    };
    let mut frames = Vec::new();
    if html.is_some() {
        frames.push(("start".to_string(), picture::svg(&g, &s, Viewer::All, &[])));
    }
    for (i, m) in rec.moves.iter().enumerate() {
        let mover = g.players[s.current() as usize].clone();
        let mv = match s.parse_move(&g, m) {
            Ok(mv) => mv,
            Err(MoveError::Rule(e)) => return Err(run_err(&g, e)),
            Err(e) => {
                return Err(
                    miette!("{record}: move {} (`{m}`): {}", i + 1, move_error(&e, m)).into()
                )
            }
        };
        s.play_unchecked(&g, &mv).map_err(|e| run_err(&g, e))?;
        if html.is_some() {
            let marked = picture::move_cells(&g, &mv);
            frames.push((
                format!("{}. {mover}: {m}", i + 1),
                picture::svg(&g, &s, Viewer::All, &marked),
            ));
        }
    }
    let outcome = s.outcome(&g).map_err(|e| run_err(&g, e))?.map(|o| o.describe(&g));
    if outcome != rec.outcome {
        return Err(miette!(
            "{record}: the replay ends with {}, the record says {}",
            outcome.as_deref().unwrap_or("no result"),
            rec.outcome.as_deref().unwrap_or("no result")
        )
        .into());
    }
    match &outcome {
        Some(o) => {
            say_part!("{}", board_only(&g, &s, Viewer::All));
            say!("Game over: {o}.");
        }
        None => say_part!("{}", render_for(&g, &s, Viewer::All)),
    }
    say!("{} moves replayed.", rec.moves.len());
    if let Some(path) = html {
        if let Some(o) = &outcome {
            if let Some(last) = frames.last_mut() {
                last.0.push_str(&format!(" — {o}"));
            }
        }
        let page = picture::html(&format!("{} — {record}", g.name), &frames);
        std::fs::write(path, page).map_err(|e| usage(miette!("cannot write `{path}`: {e}")))?;
        say!("Wrote {path}: {} steps.", frames.len());
    }
    Ok(())
}
