//! The command-line interface: argument definitions (clap), the shared
//! options every verb reads the same way, exit codes, and dispatch to one
//! module per group of verbs.
//!
//! Exit codes: 0 success; 1 a problem with the game, a position or a move
//! (a failed check, an illegal move, a rule that failed while running);
//! 2 a problem with the command line (unknown option, `--set` without `=`,
//! a file that cannot be read, an unknown player).

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

mod bench;
mod bundled;
mod check;
mod common;
mod json;
mod matches;
mod par;
mod perft;
mod picture;
mod play;
mod playout;
mod progress;
mod show;
mod term;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

/// Examples shown by `tabula help` and `tabula --help`.
const EXAMPLES: &str = "\
Examples:
  tabula check games/boop.game                       every problem, with spans and help
  tabula show games/boop.game --after \"K c3, K d4\"   draw a position
  tabula moves games/boop.game --json                legal moves with their choices
  tabula explain games/boop.game \"K c3\"              how the turn plays a move, or why not
  tabula perft games/boop.game 3 --divide -j 2       count move paths on two threads
  tabula playout games/bug_off.game -n 1000          win shares and scores of random games
  tabula bench                                       speed of every bundled game
  tabula play games/boop.game --as Gray              play Gray against the engine
  tabula perft games/boop.game 1 --set size=8        a variant: any `param` can be set
  tabula completions bash                            shell completions (bash, zsh, fish, ...)

Exit status: 0 success, 1 a problem with the game, a position or a move,
2 a problem with the command line. See docs/cli.md for the JSON schemas.";

#[derive(Parser)]
#[command(
    name = "tabula",
    version,
    about = "Games written as text: check, explore and play them",
    after_help = EXAMPLES,
    subcommand_required = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

/// Options every verb reads the same way.
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "Global options")]
pub struct Global {
    /// Set a game parameter (a `param` of the game file), e.g. `--set size=8`.
    /// Repeatable; when a name is set twice, the last value wins.
    #[arg(long = "set", value_name = "NAME=VALUE", global = true)]
    pub set: Vec<String>,
    /// Seed of the deal (every `shuffle`) and of random play. Without it a
    /// random seed is drawn and printed, so the run can be repeated.
    #[arg(long, value_name = "N", global = true)]
    pub seed: Option<u64>,
    /// Print no progress bars, timings or notes on stderr (errors still are).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Print no colours (also when the NO_COLOR variable is set).
    #[arg(long, global = true)]
    pub no_color: bool,
    /// Most steps one run of a rule block may take (loop rounds and
    /// elements looked at) before it stops with an error [default: 2000000].
    #[arg(long, value_name = "N", global = true)]
    pub max_steps: Option<u32>,
    /// Most options one turn's move search may explore [default: 2000000].
    #[arg(long, value_name = "N", global = true)]
    pub max_choices: Option<u32>,
}

/// Whose view a verb takes, in a game that hides pieces from players.
#[derive(Debug, Clone, clap::Args)]
pub struct View {
    /// Act as this player (a name or a seat number from 1): print only what
    /// they may know. Needed in a game with hidden zones.
    #[arg(long = "as", value_name = "PLAYER")]
    pub viewer: Option<String>,
    /// Show everything, hidden zones and face-down pieces included (the
    /// referee's view).
    #[arg(long, conflicts_with = "viewer")]
    pub reveal: bool,
}

/// The game file every verb but `replay` starts from.
#[derive(Args, Clone, Debug)]
pub struct GameFile {
    /// The game file, e.g. `games/boop.game`.
    #[arg(value_name = "FILE")]
    pub file: String,
}

/// Where a verb starts: the initial position, a position file, then moves.
#[derive(Args, Clone, Debug, Default)]
pub struct From {
    /// Start from this position instead of the initial one: position text
    /// (see `show --text`) or the JSON that `show --json` prints.
    #[arg(long, value_name = "FILE")]
    pub position: Option<String>,
    /// Then play these moves, in notation: `--after "c3 a1 b4"`, or
    /// separated by commas when that reads better (`--after "K c3, K d4"`).
    #[arg(long, value_name = "MOVES")]
    pub after: Option<String>,
}

impl From {
    /// Whether the start is not the initial position.
    pub fn is_set(&self) -> bool {
        self.position.is_some() || self.after.is_some()
    }
}

/// `--json`, worded the same for every verb.
#[derive(Args, Clone, Copy, Debug)]
pub struct Json {
    /// Print JSON instead of text (schemas in docs/cli.md).
    #[arg(long)]
    pub json: bool,
}

/// `-j`, worded the same for every verb that can use threads.
#[derive(Args, Clone, Copy, Debug)]
pub struct Jobs {
    /// Worker threads. Results do not depend on it, only the time does.
    #[arg(short = 'j', long = "jobs", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
}

#[derive(Subcommand)]
enum Command {
    /// Check a game file and report every problem.
    Check {
        #[command(flatten)]
        game: GameFile,
        /// Also list what the compiler's optimisation passes did.
        #[arg(long)]
        passes: bool,
        /// Fail (exit status 1) when there are warnings.
        #[arg(long)]
        deny_warnings: bool,
        #[command(flatten)]
        json: Json,
    },
    /// Show a position: a drawing, its position text, or JSON.
    Show {
        #[command(flatten)]
        game: GameFile,
        #[command(flatten)]
        from: From,
        /// Show what this player may see (hidden zones stay hidden): a name
        /// or a seat number from 1.
        #[arg(long = "as", value_name = "PLAYER")]
        viewer: Option<String>,
        /// Show everything, hidden zones and deck order included.
        #[arg(long, conflicts_with = "viewer")]
        reveal: bool,
        /// Print the position text that `--position` reads.
        #[arg(long, conflicts_with = "json")]
        text: bool,
        /// Draw the position as SVG into this file (`-` for stdout), the
        /// last `--after` move marked.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "text"])]
        svg: Option<String>,
        #[command(flatten)]
        json: Json,
    },
    /// List the legal moves of a position.
    Moves {
        #[command(flatten)]
        game: GameFile,
        #[command(flatten)]
        from: From,
        #[command(flatten)]
        view: View,
        #[command(flatten)]
        json: Json,
    },
    /// Explain a move: how the turn plays it, or which rule rejects it.
    ///
    /// Exit status 1 unless the move is legal.
    Explain {
        #[command(flatten)]
        game: GameFile,
        /// The move in notation (or the start of one), e.g. "K c3".
        #[arg(value_name = "MOVE")]
        mv: String,
        #[command(flatten)]
        from: From,
        #[command(flatten)]
        view: View,
        #[command(flatten)]
        json: Json,
    },
    /// Count move paths of exactly DEPTH turns.
    Perft {
        #[command(flatten)]
        game: GameFile,
        /// How many turns deep to count.
        #[arg(value_name = "DEPTH")]
        depth: u32,
        #[command(flatten)]
        from: From,
        /// Also print the count below each first move.
        #[arg(long)]
        divide: bool,
        /// At each chance node count one outcome, drawn (with `--seed`),
        /// instead of adding up all of them.
        #[arg(long)]
        sample_chance: bool,
        /// First fix the order of every face-down piece (drawn with
        /// `--seed`), as a stacked deck: draws then follow that order and
        /// are not chance events, and the count is of the players' moves
        /// alone.
        #[arg(long)]
        stack: bool,
        #[command(flatten)]
        view: View,
        #[command(flatten)]
        jobs: Jobs,
        #[command(flatten)]
        json: Json,
    },
    /// Play random games and print statistics: lengths, win shares, scores.
    Playout {
        #[command(flatten)]
        game: GameFile,
        /// Number of games.
        #[arg(short = 'n', value_name = "N", default_value_t = 100)]
        n: u64,
        /// Stop a game after this many turns and count it unfinished.
        #[arg(long, value_name = "TURNS", default_value_t = 1000)]
        max_plies: u32,
        /// List every move of every position before picking one (slower
        /// where a move can be drawn without listing them; counts the
        /// branching factor everywhere).
        #[arg(long)]
        list: bool,
        #[command(flatten)]
        from: From,
        #[command(flatten)]
        jobs: Jobs,
        #[command(flatten)]
        json: Json,
    },
    /// Measure playouts/s, moves/s, perft nodes/s and state size.
    ///
    /// Of one game, or of every bundled game in one table.
    Bench {
        /// The game file; without it, every bundled game (games/*.game).
        #[arg(value_name = "FILE")]
        file: Option<String>,
        /// Number of playouts (default: as many as fit in `--time`).
        #[arg(short = 'n', value_name = "N")]
        n: Option<u64>,
        /// Perft depth (default: the deepest that fits in `--time`).
        #[arg(long, value_name = "DEPTH")]
        depth: Option<u32>,
        /// Seconds for each measurement that has no fixed size.
        #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
        time: f64,
        #[command(flatten)]
        jobs: Jobs,
        #[command(flatten)]
        json: Json,
    },
    /// Play in the terminal: any seat a person or an engine.
    Play {
        #[command(flatten)]
        game: GameFile,
        /// The players you control: a name or a seat number from 1
        /// (repeatable). Default: the first player.
        #[arg(long = "as", value_name = "PLAYER")]
        seats: Vec<String>,
        /// Who plays a seat: `--seat 1=human --seat 2=mcts:2000` (a seat by
        /// number or name; `human` or an engine). Repeatable.
        #[arg(long = "seat", value_name = "SEAT=WHO")]
        seat: Vec<String>,
        /// Let the engine play every seat.
        #[arg(long, conflicts_with = "seats")]
        watch: bool,
        #[command(flatten)]
        from: From,
        /// Save the game to this file when it ends. In a game with hidden
        /// zones: what the one person playing saw and did (no seed, no
        /// hidden cards); elsewhere the seed and the moves.
        #[arg(long, value_name = "FILE")]
        record: Option<String>,
        /// Save the referee's record (the seed and every move and draw,
        /// hidden ones included) to this file when the game ends.
        #[arg(long, value_name = "FILE")]
        record_referee: Option<String>,
        /// Go on with a game saved by `save FILE`, `--record-referee` or
        /// `--record` of a game without hidden zones (the game file must be
        /// the one it was played with).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "after"])]
        load: Option<String>,
        /// The engine of the seats nobody else takes: random, greedy, mc:N,
        /// mcts:N (playouts per move), mcts:Nms (milliseconds), mcts:NxT.
        #[arg(long, default_value = "mcts:1000", value_name = "ENGINE")]
        engine: String,
        /// Random games per decision for `--engine mc`.
        #[arg(long, value_name = "N", default_value_t = 1000)]
        playouts: u32,
        /// When engines play every seat: stop a game that has not ended
        /// after this many turns.
        #[arg(long, value_name = "TURNS", default_value_t = 1000)]
        max_plies: u32,
        #[command(flatten)]
        jobs: Jobs,
    },
    /// Let engines play each other and count the results.
    ///
    /// Entrants `--a`, `--b`, ... take the seats in order (the last one fills
    /// any seats left); seats rotate from game to game. Engines: random,
    /// greedy, mc:N, mcts:N (playouts per move), mcts:Nms (milliseconds),
    /// mcts:NxT (T root-parallel trees).
    #[command(name = "match")]
    Match {
        #[command(flatten)]
        game: GameFile,
        /// The first entrant's engine, e.g. `mcts:1000`.
        #[arg(long = "a", value_name = "ENGINE")]
        a: String,
        /// The second entrant's engine, e.g. `random`.
        #[arg(long = "b", value_name = "ENGINE")]
        b: String,
        /// A third entrant (games of three players or more).
        #[arg(long = "c", value_name = "ENGINE")]
        c: Option<String>,
        /// A fourth entrant.
        #[arg(long = "d", value_name = "ENGINE", requires = "c")]
        d: Option<String>,
        /// A fifth entrant.
        #[arg(long = "e", value_name = "ENGINE", requires = "d")]
        e: Option<String>,
        /// A sixth entrant.
        #[arg(long = "f", value_name = "ENGINE", requires = "e")]
        f: Option<String>,
        /// A seventh entrant.
        #[arg(long = "g", value_name = "ENGINE", requires = "f")]
        g: Option<String>,
        /// An eighth entrant.
        #[arg(long = "h", value_name = "ENGINE", requires = "g")]
        h: Option<String>,
        /// Number of games.
        #[arg(short = 'n', value_name = "N", default_value_t = 100)]
        n: u64,
        /// Stop a game after this many turns (it counts as a draw, unfinished).
        #[arg(long, value_name = "TURNS", default_value_t = 1000)]
        max_plies: u32,
        /// Save one game record per game into this folder (game-0001.json, ...).
        #[arg(long, value_name = "DIR")]
        record: Option<String>,
        #[command(flatten)]
        from: From,
        #[command(flatten)]
        jobs: Jobs,
        #[command(flatten)]
        json: Json,
    },
    /// Replay a saved game record (`play --record`) and show the final position.
    Replay {
        /// The record file; its game path is read relative to it.
        #[arg(value_name = "RECORD")]
        record: String,
        /// Also write one HTML page that steps through the game, move by
        /// move, with SVG boards.
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
        /// Step through the game in the terminal (forward, back, to a step);
        /// the default when stdin is a terminal.
        #[arg(long)]
        step: bool,
        #[command(flatten)]
        view: View,
    },
    /// Print a shell completion script, e.g. `tabula completions bash > ~/.local/share/bash-completion/completions/tabula`.
    Completions {
        /// The shell.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): `tabula man > tabula.1`, or a verb's
    /// page, `tabula man perft > tabula-perft.1`.
    Man {
        /// The verb (default: the page of `tabula` itself).
        #[arg(value_name = "VERB")]
        verb: Option<String>,
    },
}

/// Why the command failed: the exit status and the report to print (none
/// when the problems were already printed).
pub struct Failure {
    /// The exit status.
    pub code: i32,
    /// What to print on stderr.
    pub report: Option<miette::Report>,
}

impl std::convert::From<miette::Report> for Failure {
    fn from(report: miette::Report) -> Failure {
        Failure { code: 1, report: Some(report) }
    }
}

/// The result type of every verb.
pub type Result<T> = std::result::Result<T, Failure>;

/// A problem with the command line (exit status 2).
pub fn usage(report: miette::Report) -> Failure {
    Failure { code: 2, report: Some(report) }
}

/// A failure whose problems were already printed (exit status 1).
pub fn reported() -> Failure {
    Failure { code: 1, report: None }
}

/// Runs the command line; returns the exit status.
pub fn main() -> i32 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Colours are decided before parsing, so that clap's own messages obey.
    let no_color = args.iter().any(|a| a == "--no-color")
        || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let mut cmd = Cli::command();
    if no_color {
        cmd = cmd.color(clap::ColorChoice::Never);
    }
    let cli = match cmd.try_get_matches_from(args).and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let color = !no_color && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(miette::MietteHandlerOpts::new().color(color).build())
    }));
    let ctx = common::Ctx::new(&cli.global);
    match run(&ctx, cli.command) {
        Ok(()) => 0,
        Err(f) => {
            if let Some(r) = f.report {
                eprintln!("{r:?}");
            }
            f.code
        }
    }
}

fn run(ctx: &common::Ctx, command: Command) -> Result<()> {
    match command {
        Command::Check { game, passes, deny_warnings, json } => {
            check::check(ctx, &game.file, passes, deny_warnings, json.json)
        }
        Command::Show { game, from, viewer, reveal, text, svg, json } => {
            let out = match (svg, text, json.json) {
                (Some(f), _, _) => show::Out::Svg(f),
                (_, true, _) => show::Out::Text,
                (_, _, true) => show::Out::Json,
                _ => show::Out::Drawing,
            };
            show::show(ctx, &game.file, &from, viewer.as_deref(), reveal, out)
        }
        Command::Moves { game, from, view, json } => {
            show::moves(ctx, &game.file, &from, &view, json.json)
        }
        Command::Explain { game, mv, from, view, json } => {
            show::explain(ctx, &game.file, &mv, &from, &view, json.json)
        }
        Command::Perft { game, depth, from, divide, sample_chance, stack, view, jobs, json } => {
            let opts = perft::Opts {
                divide,
                sample: sample_chance,
                stack,
                jobs: jobs.jobs as usize,
                json: json.json,
            };
            perft::perft(ctx, &game.file, depth, &from, &view, opts)
        }
        Command::Playout { game, n, max_plies, list, from, jobs, json } => {
            let how = playout::How { max_plies, list, jobs: jobs.jobs as usize };
            playout::playout(ctx, &game.file, n, how, &from, json.json)
        }
        Command::Bench { file, n, depth, time, jobs, json } => {
            bench::bench(ctx, file.as_deref(), n, depth, time, jobs.jobs as usize, json.json)
        }
        Command::Play {
            game,
            seats,
            seat,
            watch,
            from,
            record,
            record_referee,
            load,
            engine,
            playouts,
            max_plies,
            jobs,
        } => {
            let engine = if engine == "mc" { format!("mc:{playouts}") } else { engine };
            let engine = engine
                .parse::<tabula::play::Spec>()
                .map_err(|e| usage(miette::miette!("--engine: {e}")))?;
            let o = play::Options {
                file: &game.file,
                people: &seats,
                seats: &seat,
                watch,
                from: &from,
                record: record.as_deref(),
                referee: record_referee.as_deref(),
                load: load.as_deref(),
                engine,
                jobs: jobs.jobs as usize,
                max_plies,
            };
            play::play(ctx, &o)
        }
        Command::Match { game, a, b, c, d, e, f, g, h, n, max_plies, record, from, jobs, json } => {
            let mut entrants = vec![a, b];
            entrants.extend([c, d, e, f, g, h].into_iter().flatten());
            let o = matches::Options {
                file: &game.file,
                entrants,
                games: n,
                max_plies,
                jobs: jobs.jobs as usize,
                record: record.as_deref(),
                json: json.json,
                from: &from,
            };
            matches::run(ctx, &o)
        }
        Command::Replay { record, html, step, view } => {
            play::replay(ctx, &record, html.as_deref(), &view, step)
        }
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "tabula", &mut out);
            say_part!("{}", String::from_utf8_lossy(&out));
            Ok(())
        }
        Command::Man { verb } => {
            let mut cmd = Cli::command();
            cmd.build();
            if let Some(v) = verb {
                let Some(sub) = cmd.find_subcommand(&v).cloned() else {
                    return Err(usage(miette::miette!("no verb `{v}`")));
                };
                cmd = sub
                    .name(format!("tabula-{v}"))
                    .bin_name(format!("tabula {v}"))
                    .version(env!("CARGO_PKG_VERSION"));
            }
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut out).map_err(|e| miette::miette!("{e}"))?;
            say_part!("{}", String::from_utf8_lossy(&out));
            Ok(())
        }
    }
}
