//! The `tabula` command line: check a game file, list moves, count perft,
//! run random playouts, benchmark, and play against the engine.
//!
//! This is the only place that reads files, prints and renders miette
//! reports; everything else is in the library.

use clap::{Parser, Subcommand};
use miette::{miette, IntoDiagnostic, Result};
use std::io::BufRead;
use std::time::Instant;
use tabula::eval::{render_for, Engine};
use tabula::rng::Rng;
use tabula::wire::{observe, ExplanationRepr, MoveRepr, Record, StateRepr, Viewer};
use tabula::{perft, playout, Game, Move, Outcome, Source, State};

/// `println!` that stops quietly when the reader has gone (`tabula moves | head`).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($t)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// `print!` with the same care.
macro_rules! say_part {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout();
        if write!(out, $($t)*).and_then(|()| out.flush()).is_err() {
            std::process::exit(0);
        }
    }};
}

#[derive(Parser)]
#[command(name = "tabula", version, about = "Games written as text: check, explore and play them")]
struct Cli {
    /// Set a game parameter, e.g. `--set size=8` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", global = true)]
    set: Vec<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct From {
    /// Moves to play first, in notation: `--after "c3 a1 b4"`, or separated
    /// by commas when that reads better (`--after "K c3, K d4"`).
    #[arg(long, value_name = "MOVES")]
    after: Option<String>,
    /// Start from a position file instead of the initial position.
    #[arg(long, value_name = "FILE")]
    position: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Check a game file and report every problem.
    Check {
        /// The game file.
        file: String,
        /// Also list what the compiler's optimisation passes did.
        #[arg(long)]
        passes: bool,
    },
    /// Show a position.
    Show {
        file: String,
        #[command(flatten)]
        from: From,
        /// Print the position as JSON.
        #[arg(long)]
        json: bool,
        /// Show what this player may see (hidden zones stay hidden).
        #[arg(long = "as", value_name = "PLAYER")]
        viewer: Option<String>,
        /// Show everything, hidden zones and deck order included.
        #[arg(long)]
        reveal: bool,
    },
    /// List the legal moves of a position.
    Moves {
        file: String,
        #[command(flatten)]
        from: From,
        /// Print the moves as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Explain a move: which rule rejects it, or how the turn plays it.
    Explain {
        file: String,
        /// The move in notation (or the start of one).
        #[arg(value_name = "MOVE")]
        mv: String,
        #[command(flatten)]
        from: From,
        /// Print the explanation as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Count move paths of exactly DEPTH turns.
    Perft {
        file: String,
        depth: u32,
        #[command(flatten)]
        from: From,
        /// Also print the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Run random playouts and print statistics.
    Playout {
        file: String,
        /// Number of games.
        #[arg(short = 'n', default_value_t = 100)]
        n: u32,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop a game after this many turns and count it unfinished.
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
    },
    /// Measure playouts per second and perft speed.
    Bench {
        file: String,
        /// Number of playouts.
        #[arg(short = 'n', default_value_t = 200)]
        n: u32,
        /// Perft depth to time.
        #[arg(long, default_value_t = 3)]
        depth: u32,
    },
    /// Play in the terminal against the engine.
    Play {
        file: String,
        /// The players you control, by name or seat number (repeatable).
        /// Default: the first player. `--watch` lets the engine play all.
        #[arg(long = "as", value_name = "PLAYER")]
        seats: Vec<String>,
        /// Let the engine play every seat.
        #[arg(long)]
        watch: bool,
        /// Random seed of the deal and the engine.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        from: From,
        /// Save the game (seed and moves) to this file when it ends.
        #[arg(long, value_name = "FILE")]
        record: Option<String>,
        /// How the engine plays: `greedy` takes a win at once and avoids
        /// handing one over; `mc` plays the move whose random games it wins
        /// most (`--playouts` of them); `random`. Games with hidden zones
        /// always get `random`: looking ahead would peek at cards.
        #[arg(long, default_value = "greedy", value_parser = ["greedy", "mc", "random"])]
        engine: String,
        /// Random games per decision for `--engine mc`.
        #[arg(long, default_value_t = 1000)]
        playouts: u32,
    },
    /// Replay a saved game record and show the final position.
    Replay { record: String },
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("{e:?}");
        std::process::exit(1);
    }
}

fn overrides(set: &[String]) -> Result<Vec<(String, i64)>> {
    set.iter()
        .map(|s| {
            let (k, v) = s.split_once('=').ok_or_else(|| {
                miette!(help = "write `--set name=value`", "`--set {s}`: missing `=`")
            })?;
            let v: i64 = v.trim().parse().map_err(|_| {
                miette!(help = "parameters are whole numbers", "`--set {s}`: `{v}` is not a number")
            })?;
            Ok((k.trim().to_string(), v))
        })
        .collect()
}

/// Reads a text file of at most [`tabula::syntax::MAX_SOURCE_BYTES`]: a
/// directory, a device or a pipe is refused before reading, and reading
/// stops past the limit (so `/dev/zero` or a huge file costs nothing).
fn read_text(path: &str) -> Result<String> {
    use std::io::Read as _;
    let limit = tabula::syntax::MAX_SOURCE_BYTES;
    let too_big = || {
        miette!(
            help = "game files, positions and records are a few kilobytes",
            "`{path}` is larger than {limit} bytes"
        )
    };
    let meta = std::fs::metadata(path).map_err(|e| miette!("cannot read `{path}`: {e}"))?;
    if !meta.is_file() {
        return Err(miette!("cannot read `{path}`: not a regular file"));
    }
    if meta.len() > limit as u64 {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| miette!("cannot read `{path}`: {e}"))?;
    if bytes.len() > limit {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| miette!("cannot read `{path}`: not UTF-8 text ({e})"))
}

fn load(file: &str, set: &[String]) -> Result<Game> {
    let text = read_text(file)?;
    let source = Source::new(file, text);
    match Game::load(&source, &overrides(set)?) {
        Ok(g) => Ok(g),
        Err(diags) => {
            let (n, shown) = (diags.count(), diags.problems.len());
            for p in diags.problems {
                eprintln!("{:?}", miette::Report::new(p));
            }
            let more =
                if n > shown { format!(" (the first {shown} shown)") } else { String::new() };
            Err(miette!("{file}: {n} problem{} found{more}", if n == 1 { "" } else { "s" }))
        }
    }
}

fn run_err(g: &Game, e: tabula::RunError) -> miette::Report {
    miette::Report::new(e.to_problem(g))
}

fn start(g: &Game, from: &From) -> Result<State> {
    start_seeded(g, from, 0)
}

/// The starting position (deal seeded by `seed`), a position file, then `--after`.
fn start_seeded(g: &Game, from: &From, seed: u64) -> Result<State> {
    let mut s = match &from.position {
        Some(p) => {
            let text = read_text(p)?;
            State::from_text(g, &text).map_err(|e| miette!("{p}: {e}"))?
        }
        None => State::initial_seeded(g, seed).map_err(|e| run_err(g, e))?,
    };
    if let Some(after) = &from.after {
        s = tabula::eval::play_sequence(g, &s, after).map_err(|e| miette!("--after, {e}"))?;
    }
    Ok(s)
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Check { file, passes } => {
            let g = load(&file, &cli.set)?;
            for w in &g.warnings {
                eprintln!("{:?}", miette::Report::new(w.clone()));
            }
            State::initial(&g).map_err(|e| run_err(&g, e))?;
            say!(
                "{file}: ok — \"{}\", {} players, {} cells, {} piece kinds, {} decision points",
                g.name,
                g.players.len(),
                g.board.len(),
                g.kinds.len(),
                g.sites.len()
            );
            if passes {
                let notes = g.program().notes();
                let mut seen: Vec<(&String, usize)> = Vec::new();
                for n in notes {
                    match seen.iter_mut().find(|(m, _)| *m == n) {
                        Some(e) => e.1 += 1,
                        None => seen.push((n, 1)),
                    }
                }
                for (n, k) in seen {
                    if k > 1 {
                        say!("  pass: {n} (x{k})");
                    } else {
                        say!("  pass: {n}");
                    }
                }
            }
        }
        Command::Show { file, from, json, viewer, reveal } => {
            let g = load(&file, &cli.set)?;
            let s = start(&g, &from)?;
            // Without `--reveal`, a game with hidden zones shows only what
            // the chosen player (or, by default, anybody) may see.
            let view = match (&viewer, reveal) {
                (_, true) => Viewer::All,
                (Some(v), false) => Viewer::Player(seat(&g, v)?),
                (None, false) if g.has_hidden_information() => Viewer::Public,
                (None, false) => Viewer::All,
            };
            match (json, view) {
                (true, Viewer::All) => {
                    let repr = StateRepr::new(&g, &s);
                    say!("{}", serde_json::to_string_pretty(&repr).into_diagnostic()?);
                }
                (true, v) => {
                    let obs = observe(&g, &s, v);
                    say!("{}", serde_json::to_string_pretty(&obs).into_diagnostic()?);
                }
                (false, v) => say_part!("{}", render_for(&g, &s, v)),
            }
        }
        Command::Moves { file, from, json } => {
            let g = load(&file, &cli.set)?;
            let s = start(&g, &from)?;
            let moves = s.legal_moves(&g).map_err(|e| run_err(&g, e))?;
            if json {
                let reprs: Vec<MoveRepr> = moves.iter().map(|m| MoveRepr::new(&g, m)).collect();
                say!("{}", serde_json::to_string_pretty(&reprs).into_diagnostic()?);
            } else {
                for m in &moves {
                    say!("{}", State::move_text(&g, m));
                }
                if moves.is_empty() {
                    match s.outcome(&g).map_err(|e| run_err(&g, e))? {
                        Some(o) => say!("(no moves: game over, {})", o.describe(&g)),
                        None => say!("(no moves)"),
                    }
                }
            }
        }
        Command::Explain { file, mv, from, json } => {
            let g = load(&file, &cli.set)?;
            let s = start(&g, &from)?;
            let v = tabula::eval::explain(&g, &s, &mv).map_err(|e| run_err(&g, e))?;
            if json {
                let view = if g.has_hidden_information() {
                    Viewer::Player(s.current())
                } else {
                    Viewer::All
                };
                let repr = ExplanationRepr::new(&g, &mv, &v, view);
                say!("{}", serde_json::to_string_pretty(&repr).into_diagnostic()?);
            } else {
                say_part!("{}", explanation_text(&g, &s, &mv, &v));
            }
        }
        Command::Perft { file, depth, from, divide } => {
            let g = load(&file, &cli.set)?;
            let s = start(&g, &from)?;
            let t = Instant::now();
            let n = if divide && depth > 0 {
                let mut total = 0;
                for m in s.legal_moves(&g).map_err(|e| run_err(&g, e))? {
                    let mut t = s.clone();
                    t.play_unchecked(&g, &m).map_err(|e| run_err(&g, e))?;
                    let k = perft(&g, &t, depth - 1).map_err(|e| run_err(&g, e))?;
                    say!("{}: {k}", State::move_text(&g, &m));
                    total += k;
                }
                total
            } else {
                perft(&g, &s, depth).map_err(|e| run_err(&g, e))?
            };
            let secs = t.elapsed().as_secs_f64();
            say!("perft({depth}) = {n}");
            eprintln!("{:.3}s, {:.0} nodes/s", secs, n as f64 / secs.max(1e-9));
        }
        Command::Playout { file, n, seed, max_plies } => {
            let g = load(&file, &cli.set)?;
            let mut rng = Rng::new(seed);
            let mut scores = vec![0i64; g.players.len()];
            let mut tiebreaks = 0u32;
            let t = Instant::now();
            let (mut plies, mut branching, mut decisions) = (0u64, 0u64, 0u64);
            let mut wins = vec![0u32; g.players.len()];
            let (mut draws, mut shared, mut unfinished) = (0u32, 0u32, 0u32);
            for _ in 0..n {
                // Every game gets its own deal (for games that shuffle).
                let s0 = State::initial_seeded(&g, rng.next_u64()).map_err(|e| run_err(&g, e))?;
                let p = playout(&g, &s0, &mut rng, max_plies).map_err(|e| run_err(&g, e))?;
                for (i, total) in scores.iter_mut().enumerate() {
                    *total += p.last.score(&g, i as u8).map_err(|e| run_err(&g, e))?.unwrap_or(0);
                }
                if p.last.decided_by().is_some_and(|k| k > 0) {
                    tiebreaks += 1;
                }
                plies += u64::from(p.plies);
                branching += p.branching;
                decisions += u64::from(p.plies);
                match p.outcome {
                    Some(Outcome::Win(w)) => wins[w as usize] += 1,
                    Some(Outcome::Draw) => draws += 1,
                    Some(Outcome::Shared(m)) => {
                        shared += 1;
                        for (i, w) in wins.iter_mut().enumerate() {
                            if m & (1 << i) != 0 {
                                *w += 1;
                            }
                        }
                    }
                    None => unfinished += 1,
                }
            }
            let secs = t.elapsed().as_secs_f64();
            say!("game: {}", g.name);
            say!("games: {n} (seed {seed}, cap {max_plies} turns)");
            say!("mean length: {:.2} turns", plies as f64 / f64::from(n.max(1)));
            say!("mean branching factor: {:.2}", branching as f64 / decisions.max(1) as f64);
            for (i, p) in g.players.iter().enumerate() {
                say!("wins {p}: {}", wins[i]);
            }
            say!("draws: {draws}");
            if g.score.is_some() {
                for (i, p) in g.players.iter().enumerate() {
                    say!("mean score {p}: {:.2}", scores[i] as f64 / f64::from(n.max(1)));
                }
                say!("decided by a tie-break: {tiebreaks}");
            }
            say!("shared wins: {shared}");
            say!("unfinished: {unfinished}");
            say!("playouts/s: {:.1}", f64::from(n) / secs.max(1e-9));
        }
        Command::Bench { file, n, depth } => {
            let g = load(&file, &cli.set)?;
            let s0 = State::initial(&g).map_err(|e| run_err(&g, e))?;
            let mut rng = Rng::new(1);
            let t = Instant::now();
            let mut moves = 0u64;
            for _ in 0..n {
                moves +=
                    u64::from(playout(&g, &s0, &mut rng, 1000).map_err(|e| run_err(&g, e))?.plies);
            }
            let secs = t.elapsed().as_secs_f64().max(1e-9);
            let t2 = Instant::now();
            let nodes = perft(&g, &s0, depth).map_err(|e| run_err(&g, e))?;
            let psecs = t2.elapsed().as_secs_f64().max(1e-9);
            say!("game, playouts/s, moves/s, playouts, perft depth, perft nodes, perft nodes/s");
            say!(
                "{}, {:.1}, {:.0}, {n}, {depth}, {nodes}, {:.0}",
                g.name,
                f64::from(n) / secs,
                moves as f64 / secs,
                nodes as f64 / psecs
            );
        }
        Command::Play { file, seats, watch, seed, from, record, engine, playouts } => {
            let g = load(&file, &cli.set)?;
            let s = start_seeded(&g, &from, seed)?;
            let start = (from.position.is_some() || from.after.is_some()).then(|| s.to_text(&g));
            let rec = Record::new(&g, file.clone(), overrides(&cli.set)?, seed, start);
            let engine = match engine.as_str() {
                "random" => Engine::Random,
                "mc" => Engine::MonteCarlo(playouts),
                _ => Engine::Greedy,
            };
            let mut rec = play(&g, s, &seats, watch, seed, rec, engine)?;
            if let Some(path) = record {
                // The game is named relative to the record's folder.
                let canon = |p: &std::path::Path| {
                    std::fs::canonicalize(p)
                        .map_err(|e| miette!("cannot resolve `{}`: {e}", p.display()))
                };
                let dir =
                    std::path::Path::new(&path).parent().filter(|d| !d.as_os_str().is_empty());
                let dir = canon(dir.unwrap_or(std::path::Path::new(".")))?;
                let rel = tabula::wire::relative_path(&dir, &canon(std::path::Path::new(&file))?)
                    .ok_or_else(|| miette!("cannot name `{file}` relative to `{path}`"))?;
                rec.seal(rel);
                let json = serde_json::to_string_pretty(&rec).into_diagnostic()?;
                std::fs::write(&path, json + "\n")
                    .map_err(|e| miette!("cannot write `{path}`: {e}"))?;
                say!("Game record saved to {path}.");
            }
        }
        Command::Replay { record } => {
            let text = read_text(&record)?;
            let rec: Record = serde_json::from_str(&text)
                .map_err(|e| miette!("`{record}` is not a game record: {e}"))?;
            let set: Vec<String> = rec.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let game = rec
                .game_path(std::path::Path::new(&record))
                .map_err(|e| miette!("{record}: {e}"))?;
            let game = game.to_string_lossy().into_owned();
            rec.check_game(&read_text(&game)?).map_err(|e| miette!("{record}: {e}"))?;
            let g = load(&game, &set)?;
            let s = rec.replay(&g).map_err(|e| miette!("{record}: {e}"))?;
            say_part!("{}", render_for(&g, &s, Viewer::All));
            say!("{} moves replayed.", rec.moves.len());
        }
    }
    Ok(())
}

/// An explanation for people: the path of a legal move and the position
/// after it, or each failed reading as a report on the game file.
fn explanation_text(g: &Game, s: &State, input: &str, v: &tabula::eval::Verdict) -> String {
    use tabula::eval::Verdict;
    let view = if g.has_hidden_information() { Viewer::Player(s.current()) } else { Viewer::All };
    match v {
        Verdict::Illegal { attempts } => {
            let mut out = String::new();
            if attempts.len() > 1 {
                out.push_str(&format!("`{input}` was read {} ways; each fails:\n", attempts.len()));
            }
            for a in attempts {
                out.push_str(&format!("{:?}\n", miette::Report::new(a.to_problem(g, input))));
            }
            out
        }
        Verdict::Legal { after, .. } => {
            let repr = ExplanationRepr::new(g, input, v, view);
            format!("{}\nAfter it:\n{}", repr.to_text(), render_for(g, after, view))
        }
        Verdict::Incomplete { .. } => ExplanationRepr::new(g, input, v, view).to_text(),
    }
}

/// A player by name (any case) or seat number from 1.
fn seat(g: &Game, who: &str) -> Result<u8> {
    g.players
        .iter()
        .position(|p| p.eq_ignore_ascii_case(who))
        .or_else(|| {
            who.parse::<usize>().ok().filter(|&i| i >= 1 && i <= g.players.len()).map(|i| i - 1)
        })
        .map(|i| i as u8)
        .ok_or_else(|| {
            miette!(help = format!("players: {}", g.players.join(", ")), "no player `{who}`")
        })
}

fn play(
    g: &Game,
    mut s: State,
    seats: &[String],
    watch: bool,
    seed: u64,
    mut record: Record,
    engine: Engine,
) -> Result<Record> {
    let mut human = vec![false; g.players.len()];
    if !watch {
        if seats.is_empty() {
            human[0] = true;
        }
        for who in seats {
            human[seat(g, who)? as usize] = true;
        }
    }
    let humans: Vec<u8> = (0..g.players.len() as u8).filter(|&p| human[p as usize]).collect();
    let hidden = g.has_hidden_information();
    // Several people at one screen: each hand stays hidden until its owner
    // confirms they are the one looking.
    let hot_seat = hidden && humans.len() > 1;
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut history: Vec<State> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    say!("{} — type a move in notation, or `help`.", g.name);
    let mut shown_to: Option<u8> = None;
    let mut last_try = String::new();
    loop {
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
            // The game is over: everything may be shown.
            say_part!("{}", render_for(g, &s, Viewer::All));
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
                        let v = tabula::eval::explain(g, &s, &asked).map_err(|e| run_err(g, e))?;
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
                    Err(e) => {
                        say!("{e}");
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
