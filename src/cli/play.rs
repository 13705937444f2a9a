//! `tabula play` (a game in the terminal, any seat a person or an engine)
//! and `tabula replay` (a saved record played back, or stepped through).
//!
//! The terminal: the board in colour (pieces by player, the last move
//! highlighted, legal targets on request with `moves PREFIX`), plain when
//! stdout is not a terminal or with `NO_COLOR`/`--no-color`; line editing,
//! history and tab completion of the legal moves (rustyline) when stdin is
//! a terminal, plain lines otherwise (each line echoed after the prompt, so
//! a scripted session reads like a transcript). The board is drawn when
//! the position changed and a person is to move (after every move when
//! engines play alone), not after `help` or an error. An engine's search
//! shows its progress on stderr while it thinks and explains its choice in
//! one line.

use super::common::{load, load_with, move_error, read, run_err, seat, start, Ctx};
use super::show::explanation_text;
use super::term::{self, Marks};
use super::{picture, progress, usage, From, Result};
use miette::{miette, IntoDiagnostic};
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tabula::notation::MoveError;
use tabula::play::mcts::{Budget, Report};
use tabula::play::{Player, Spec};
use tabula::render::render_for;
use tabula::rng::Rng;
use tabula::wire::{Record, ViewRecord, Viewer};
use tabula::{Game, Move, Source, State, Turn};

/// The options of `tabula play`.
pub struct Options<'a> {
    /// The game file.
    pub file: &'a str,
    /// `--as`: the seats people play (default: the first).
    pub people: &'a [String],
    /// `--seat SEAT=WHO`: a person (`human`) or an engine per seat.
    pub seats: &'a [String],
    /// Engines only.
    pub watch: bool,
    /// Where to start.
    pub from: &'a From,
    /// Save the game here when it ends (a person's view in a game with
    /// hidden zones).
    pub record: Option<&'a str>,
    /// Save the referee's record here when the game ends.
    pub referee: Option<&'a str>,
    /// Resume the game saved in this record.
    pub load: Option<&'a str>,
    /// The engine of the seats nobody else takes.
    pub engine: Spec,
    /// Threads for an engine's search trees.
    pub jobs: usize,
    /// With engines at every seat: the most turns before the game stops.
    pub max_plies: u32,
}

/// Who plays a seat.
enum Seat {
    Person,
    Engine(Box<Player>),
}

/// Whether to draw in colour: stdout is a terminal, and neither `--no-color`
/// nor `NO_COLOR` says otherwise.
fn colour_wanted() -> bool {
    std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && !std::env::args_os().any(|a| a == "--no-color")
}

/// Runs `tabula play`.
pub fn play(ctx: &Ctx, o: &Options) -> Result<()> {
    let (g, s, mut rec, seed, moves_so_far) = match o.load {
        Some(path) => resume(ctx, o.file, path)?,
        None => {
            let g = load(ctx, o.file)?;
            let seed = ctx.seed();
            let s = start(&ctx.silenced(), &g, o.from)?;
            let start_text = o.from.is_set().then(|| s.to_text(&g));
            let rec = Record::new(&g, o.file.to_string(), ctx.overrides()?, seed, start_text);
            (g, s, rec, seed, Vec::new())
        }
    };
    let n = g.players.len();
    let mut people = vec![false; n];
    if !o.watch {
        if o.people.is_empty() {
            people[0] = true;
        }
        for who in o.people {
            people[seat(&g, who)? as usize] = true;
        }
    }
    let mut specs: Vec<Option<Spec>> =
        people.iter().map(|&h| (!h).then(|| o.engine.clone())).collect();
    for text in o.seats {
        let (who, what) = text.split_once('=').ok_or_else(|| {
            usage(miette!(
                help = "e.g. `--seat 1=human --seat 2=mcts:2000`",
                "`--seat {text}`: write SEAT=human or SEAT=ENGINE"
            ))
        })?;
        let p = seat(&g, who.trim())? as usize;
        specs[p] = match what.trim() {
            w if w.eq_ignore_ascii_case("human") || w.eq_ignore_ascii_case("person") => None,
            w => Some(w.parse::<Spec>().map_err(|e| usage(miette!("`--seat {text}`: {e}")))?),
        };
    }
    let seats: Vec<Seat> = specs
        .into_iter()
        .map(|sp| match sp {
            None => Seat::Person,
            Some(sp) => Seat::Engine(Box::new(Player::new(sp, o.jobs))),
        })
        .collect();
    // In a game with hidden zones `--record` keeps what the one person saw
    // and did: a viewer record, never the hidden state or the seed.
    let view = match (o.record, g.has_hidden_information()) {
        (Some(_), true) => {
            let people: Vec<u8> =
                (0..n as u8).filter(|&p| matches!(seats[p as usize], Seat::Person)).collect();
            let [p] = people.as_slice() else {
                return Err(usage(miette!(
                    help = "play one seat yourself (`--seat N=human`), or keep the whole game with `--record-referee FILE`",
                    "`--record` keeps one person's view of a game with hidden zones, and {} people play here",
                    people.len()
                )));
            };
            let mut v = ViewRecord::new(&g, o.file.to_string(), rec.params.clone(), *p);
            // A resumed game: the steps so far, as that person saw them.
            let mut states: Vec<&State> = moves_so_far.iter().map(|(t, _)| t).collect();
            states.push(&s);
            if let Some(first) = states.first() {
                v.push(&g, "start".into(), first);
            }
            for (i, w) in states.windows(2).enumerate() {
                v.push(&g, caption(&g, w[0], i + 1, &rec.moves[i], true), w[1]);
            }
            Some(v)
        }
        _ => None,
    };
    let mut game = Session::new(ctx, &g, seats, seed, o.jobs);
    game.history = moves_so_far;
    game.view_record = view;
    game.max_plies = o.max_plies;
    game.run(s, &mut rec)?;
    if let Some(path) = o.referee {
        save(o.file, path, &mut rec)?;
        say!("Referee's record saved to {path}.");
    }
    if let Some(path) = o.record {
        match &mut game.view_record {
            Some(v) => {
                v.outcome.clone_from(&rec.outcome);
                v.seal(path_from(o.file, path));
                let json = serde_json::to_string_pretty(v).into_diagnostic()?;
                std::fs::write(path, json + "\n")
                    .map_err(|e| usage(miette!("cannot write `{path}`: {e}")))?;
                say!("Record of {}'s view saved to {path}.", v.viewer);
            }
            None => {
                save(o.file, path, &mut rec)?;
                say!("Game record saved to {path}.");
            }
        }
    }
    Ok(())
}

/// The caption of step `i` (a move or a chance event played from
/// `before`); a chance outcome is named unless `hide_chance`.
fn caption(g: &Game, before: &State, i: usize, text: &str, hide_chance: bool) -> String {
    if before.turn() == Turn::Chance {
        if hide_chance {
            format!("{i}. chance")
        } else {
            format!("{i}. chance: {text}")
        }
    } else {
        format!("{i}. {}: {text}", g.players[before.current() as usize])
    }
}

/// Writes a record, the game named relative to the record's folder.
fn save(file: &str, path: &str, rec: &mut Record) -> Result<()> {
    rec.seal(path_from(file, path));
    let json = serde_json::to_string_pretty(&rec).into_diagnostic()?;
    std::fs::write(path, json + "\n").map_err(|e| usage(miette!("cannot write `{path}`: {e}")))
}

/// A game resumed from a record (`--load`): the game file must be the one
/// the record was played with; its parameters are the record's.
#[allow(clippy::type_complexity)]
fn resume(
    ctx: &Ctx,
    file: &str,
    path: &str,
) -> Result<(Game, State, Record, u64, Vec<(State, usize)>)> {
    if !ctx.overrides()?.is_empty() {
        return Err(usage(miette!("`--load` takes the parameters from the record: drop `--set`")));
    }
    let text = read(path)?;
    if serde_json::from_str::<ViewRecord>(&text).is_ok() {
        return Err(miette!(
            help = "a game goes on from the referee's record (`--record-referee FILE`) or a `save FILE`",
            "`{path}` holds one player's view of the game: the hidden cards are not in it"
        )
        .into());
    }
    let rec: Record =
        serde_json::from_str(&text).map_err(|e| miette!("`{path}` is not a game record: {e}"))?;
    rec.verify().map_err(|e| miette!("{path}: {e}"))?;
    let game_text = read(file)?;
    rec.check_game(&game_text).map_err(|e| miette!("{path}: {e}"))?;
    let g = load_with(&Source::new(file, game_text), &rec.params)?;
    let mut s = rec.start_state(&g).map_err(|e| miette!("{path}: start position: {e}"))?;
    let mut history = Vec::new();
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = match s.parse_move(&g, m) {
            Ok(mv) => mv,
            Err(MoveError::Rule(e)) => return Err(run_err(&g, e)),
            Err(e) => {
                return Err(miette!("{path}: move {} (`{m}`): {}", i + 1, move_error(&e, m)).into())
            }
        };
        history.push((s.clone(), i));
        s.play_unchecked(&g, &mv).map_err(|e| run_err(&g, e))?;
    }
    let mut fresh =
        Record::new(&g, file.to_string(), rec.params.clone(), rec.seed, rec.start.clone());
    fresh.moves = rec.moves.clone();
    say!("Resumed {path}: {} moves played.", rec.moves.len());
    let seed = rec.seed;
    Ok((g, s, fresh, seed, history))
}

/// Lines from the person: an editor with history and completion on a
/// terminal, plain lines (echoed) otherwise.
enum Input {
    Editor(Box<rustyline::Editor<Completion, rustyline::history::DefaultHistory>>),
    Lines(std::io::Lines<std::io::StdinLock<'static>>),
}

impl Input {
    fn new() -> Input {
        if std::io::stdin().is_terminal() {
            let config = rustyline::Config::builder()
                .completion_type(rustyline::CompletionType::List)
                .auto_add_history(true)
                .build();
            if let Ok(mut ed) = rustyline::Editor::with_config(config) {
                ed.set_helper(Some(Completion::default()));
                return Input::Editor(Box::new(ed));
            }
        }
        Input::Lines(std::io::stdin().lock().lines())
    }

    /// The next line, or `None` at the end of input (or Ctrl-D/Ctrl-C).
    fn line(&mut self, prompt: &str, styled: &str, words: Vec<String>) -> Option<String> {
        match self {
            Input::Editor(ed) => {
                if let Some(h) = ed.helper_mut() {
                    h.words = words;
                }
                ed.readline(&(prompt, styled)).ok()
            }
            Input::Lines(lines) => {
                say_part!("{styled}");
                let line = lines.next()?.ok()?;
                // Echo what was typed, as typed: the session reads as a transcript.
                say!("{line}");
                Some(line)
            }
        }
    }
}

/// Tab completion: the legal moves (and commands), a word at a time.
#[derive(Default)]
struct Completion {
    words: Vec<String>,
}

/// The commands, for completion and `help`.
const COMMANDS: [&str; 9] = ["help", "moves", "hint", "undo", "why", "save", "quit", "?", "board"];

impl rustyline::completion::Completer for Completion {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let typed = &line[..pos];
        // After `why ` or `moves `, a move is completed.
        let (head, rest) = ["why ", "moves ", "? "]
            .iter()
            .find_map(|c| typed.strip_prefix(c).map(|r| (typed.len() - r.len(), r)))
            .unwrap_or((0, typed));
        Ok((head, complete_words(&self.words, rest, head == 0)))
    }
}

/// The continuations of `typed` among `words` up to the end of their next
/// word (`K` → `K a1`, `K a2`, ...), commands too when `commands`.
fn complete_words(words: &[String], typed: &str, commands: bool) -> Vec<String> {
    let low = typed.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    let all =
        words.iter().map(String::as_str).chain(commands.then_some(COMMANDS).into_iter().flatten());
    for w in all {
        if !w.to_lowercase().starts_with(&low) || w.len() < typed.len() {
            continue;
        }
        let rest = &w[typed.len()..];
        let skip = rest.len() - rest.trim_start().len();
        let end = rest[skip..].find(' ').map_or(rest.len(), |e| e + skip);
        let cand = format!("{typed}{}", &rest[..end]);
        if !out.contains(&cand) {
            out.push(cand);
        }
    }
    out
}

impl rustyline::hint::Hinter for Completion {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Completion {}
impl rustyline::validate::Validator for Completion {}
impl rustyline::Helper for Completion {}

/// One game in the terminal.
struct Session<'a> {
    ctx: &'a Ctx,
    g: &'a Game,
    seats: Vec<Seat>,
    seed: u64,
    jobs: usize,
    colour: bool,
    rng: Rng,
    /// The position before each move, and the record's length then (for `undo`).
    history: Vec<(State, usize)>,
    /// The last move and who played it.
    last: Option<(u8, Move)>,
    /// What the one person sees, step by step (`--record` in a game with
    /// hidden zones).
    view_record: Option<ViewRecord>,
    /// With engines at every seat, the game stops after this many turns.
    max_plies: u32,
}

impl<'a> Session<'a> {
    fn new(ctx: &'a Ctx, g: &'a Game, seats: Vec<Seat>, seed: u64, jobs: usize) -> Session<'a> {
        Session {
            ctx,
            g,
            seats,
            seed,
            jobs,
            colour: colour_wanted(),
            rng: Rng::new(seed ^ 0x5EED),
            history: Vec::new(),
            last: None,
            view_record: None,
            max_plies: u32::MAX,
        }
    }

    fn is_person(&self, p: u8) -> bool {
        matches!(self.seats.get(p as usize), Some(Seat::Person))
    }

    fn who(&self, p: u8) -> String {
        match &self.seats[p as usize] {
            Seat::Person => "you".to_string(),
            Seat::Engine(e) => e.spec.to_string(),
        }
    }

    /// What the board shows a person: everything in a game without hidden
    /// zones; else the view of the person to move, of the only person, or
    /// a spectator's.
    fn view(&self, me: u8) -> Viewer {
        let g = self.g;
        let people: Vec<u8> = (0..g.players.len() as u8).filter(|&p| self.is_person(p)).collect();
        if !g.has_hidden_information() {
            Viewer::All
        } else if self.is_person(me) {
            Viewer::Player(me)
        } else if let [only] = people.as_slice() {
            Viewer::Player(*only)
        } else {
            Viewer::Public
        }
    }

    fn marks(&self, targets: Vec<u16>) -> Marks {
        let last =
            self.last.as_ref().map(|(_, m)| picture::move_cells(self.g, m)).unwrap_or_default();
        Marks { last, targets }
    }

    fn draw(&self, s: &State, view: Viewer, targets: Vec<u16>) {
        say!("");
        say_part!("{}", term::draw(self.g, s, view, &self.marks(targets), self.colour, true));
    }

    fn run(&mut self, mut s: State, record: &mut Record) -> Result<()> {
        let g = self.g;
        let n = g.players.len() as u8;
        let people: Vec<u8> = (0..n).filter(|&p| self.is_person(p)).collect();
        let hidden = g.has_hidden_information();
        // Several people at one screen: each hand stays hidden until its
        // owner confirms they are the one looking.
        let hot_seat = hidden && people.len() > 1;
        let mut input = Input::new();
        let seats: Vec<String> = (0..n)
            .map(|p| format!("{} {}", term::player_name(g, p, self.colour), self.who(p)))
            .collect();
        say!("{} (seed {}) — {}. Type a move, or `help`.", g.name, self.seed, seats.join(", "));
        if let Some(l) = term::legend(g, self.colour) {
            say!("{l}");
        }
        let mut shown_to: Option<u8> = None;
        let mut last_try = String::new();
        let mut changed = true;
        loop {
            if s.turn() == Turn::Chance {
                // Chance decides now, with its probabilities: the roll or the
                // draw was not fixed before (so `undo` draws again).
                let outcomes = s.chance_outcomes(g).map_err(|e| run_err(g, e))?;
                let weights: Vec<u32> = outcomes.iter().map(|o| o.1).collect();
                let Some(i) = tabula::rng::pick_weighted(&weights, outcomes.len(), &mut self.rng)
                else {
                    say!("Game over: a chance event has no outcome.");
                    return Ok(());
                };
                let m = outcomes[i].0.clone();
                if !hidden {
                    // A public chance event (a roll): say what came up. Draws
                    // into hidden zones show only in each player's view.
                    say!("chance: {}", State::move_text(g, &m));
                }
                let before = s.clone();
                record.moves.push(State::move_text(g, &m));
                s.play_unchecked(g, &m).map_err(|e| run_err(g, e))?;
                self.step(&before, record, &s);
                changed = true;
                continue;
            }
            let moves = s.legal_moves(g).map_err(|e| run_err(g, e))?;
            let me = s.current();
            if moves.is_empty() {
                // The game is over: the last position as the person sees it
                // (hands and the deck stay hidden), and the result once.
                say!("");
                let view = self.view(s.current());
                let last = term::draw(g, &s, view, &self.marks(Vec::new()), self.colour, false);
                say_part!("{last}");
                let o = s.outcome(g).map_err(|e| run_err(g, e))?;
                record.outcome = o.map(|o| o.describe(g));
                let line = match o {
                    Some(o) => format!("Game over: {}.", o.describe(g)),
                    None => "Game over.".to_string(),
                };
                say!("{}", term::bold(&line, self.colour));
                self.summary(&s, o);
                return Ok(());
            }
            if people.is_empty() && s.ply() >= self.max_plies {
                // Engines alone may never end a game: stop it.
                say!("Game stopped after {} turns without a result (--max-plies).", s.ply());
                return Ok(());
            }
            let view = self.view(me);
            if hot_seat && self.is_person(me) && shown_to != Some(me) {
                say!("\x1b[2J\x1b[H");
                let _ = input.line(
                    "",
                    &format!("Pass the screen to {} and press Enter. ", g.players[me as usize]),
                    Vec::new(),
                );
                shown_to = Some(me);
                changed = true;
            }
            if changed && (self.is_person(me) || people.is_empty()) {
                self.draw(&s, view, Vec::new());
                changed = false;
            }
            let mv: Move = if self.is_person(me) {
                let texts: Vec<String> = moves.iter().map(|m| State::move_text(g, m)).collect();
                let name = &g.players[me as usize];
                let styled = format!("{}> ", term::player_name(g, me, self.colour));
                let Some(line) = input.line(&format!("{name}> "), &styled, texts.clone()) else {
                    say!("\n(end of input: game left unfinished)");
                    return Ok(());
                };
                let cmd = line.trim();
                let (word, arg) = cmd.split_once(' ').map_or((cmd, ""), |(a, b)| (a, b.trim()));
                match word.to_ascii_lowercase().as_str() {
                    "" => continue,
                    "quit" | "exit" => return Ok(()),
                    "help" => {
                        self.help(&moves);
                        continue;
                    }
                    "board" => {
                        self.draw(&s, view, Vec::new());
                        continue;
                    }
                    "moves" | "?" => {
                        self.list_moves(&s, view, &texts, arg);
                        continue;
                    }
                    "hint" => {
                        let r = self.hint(&s, &moves)?;
                        say!("hint: {} ({})", State::move_text(g, &r.mv), r.summary());
                        continue;
                    }
                    "why" => {
                        let asked = if arg.is_empty() { last_try.clone() } else { arg.to_string() };
                        if asked.is_empty() {
                            say!("Type `why MOVE`, e.g. `why {}`.", texts[0]);
                        } else {
                            let asked = super::common::spelled_out(g, &s, &asked);
                            let v = tabula::interp::explain(g, &s, &asked)
                                .map_err(|e| run_err(g, e))?;
                            say_part!("{}", explanation_text(g, &s, &asked, &v));
                        }
                        continue;
                    }
                    "save" => {
                        if arg.is_empty() {
                            say!(
                                "Type `save FILE`; `tabula play GAME --load FILE` goes on from it."
                            );
                        } else {
                            let mut r = record.clone();
                            match save(&record.game, arg, &mut r) {
                                Ok(()) => say!("Saved to {arg} ({} moves).", r.moves.len()),
                                Err(f) => say!(
                                    "{}",
                                    f.report.map_or("cannot save".into(), |r| r.to_string())
                                ),
                            }
                        }
                        continue;
                    }
                    "undo" => {
                        if self.undo(&mut s, record) {
                            changed = true;
                            self.last = None;
                        } else {
                            say!("Nothing to undo.");
                        }
                        continue;
                    }
                    _ => match s.parse_move(g, cmd) {
                        Ok(m) => m,
                        Err(MoveError::Rule(e)) => return Err(run_err(g, e)),
                        Err(e) => {
                            say!("{}", move_error(&e, cmd));
                            if matches!(e, MoveError::Illegal { .. }) {
                                match rule_says(g, &s, cmd) {
                                    Some(said) => say!("{said}; type `why` for the details"),
                                    None => say!("(type `why` to see which rule rejects it)"),
                                }
                            }
                            last_try = cmd.to_string();
                            continue;
                        }
                    },
                }
            } else {
                let (m, report) = self.think(&s, &moves)?;
                let text = State::move_text(g, &m);
                let why = report.map(|r| format!(" — {}", r.summary())).unwrap_or_default();
                say!(
                    "{} plays {}{}",
                    term::player_name(g, me, self.colour),
                    term::bold(&text, self.colour),
                    term::dim(&why, self.colour)
                );
                m
            };
            if self.is_person(me) {
                say!(
                    "{} plays {}",
                    term::player_name(g, me, self.colour),
                    State::move_text(g, &mv)
                );
            }
            self.history.push((s.clone(), record.moves.len()));
            record.moves.push(State::move_text(g, &mv));
            let before = self.view_record.is_some().then(|| s.clone());
            s.play_unchecked(g, &mv).map_err(|e| run_err(g, e))?;
            if let Some(before) = before {
                self.step(&before, record, &s);
            }
            self.last = Some((me, mv));
            changed = true;
        }
    }

    /// Adds the step just played (the last move of `record`, played from
    /// `before` to `after`) to the viewer record, if one is kept.
    fn step(&mut self, before: &State, record: &Record, after: &State) {
        let g = self.g;
        if let (Some(v), Some(text)) = (&mut self.view_record, record.moves.last()) {
            if v.steps.is_empty() {
                v.push(g, "start".into(), before);
            }
            v.push(g, caption(g, before, record.moves.len(), text, true), after);
        }
    }

    /// An engine's move: the search runs on its own thread while a spinner
    /// on stderr shows the playouts so far.
    fn think(&mut self, s: &State, moves: &[Move]) -> Result<(Move, Option<Report>)> {
        let g = self.g;
        let me = s.current();
        let Seat::Engine(engine) = &mut self.seats[me as usize] else {
            return Err(miette!("no engine at this seat").into());
        };
        let total = match &engine.spec {
            Spec::Mcts(c) => match c.budget {
                Budget::Playouts(n) => Some(n * u64::from(c.trees.max(1))),
                Budget::Time(_) => None,
            },
            _ => None,
        };
        let searching = matches!(engine.spec, Spec::Mcts(_));
        let done = AtomicU64::new(0);
        let name = g.players[me as usize].clone();
        let rng = &mut self.rng;
        let ctx = self.ctx;
        // The search runs here, on the command's thread (whose stack is
        // `SEARCH_STACK`); a thread of its own keeps the spinner's count.
        let finished = AtomicBool::new(false);
        let pb = searching.then(|| progress::spinner(ctx, &format!("{name} is thinking…")));
        let d = std::thread::scope(|sc| {
            if let Some(pb) = &pb {
                let count = || {
                    while !finished.load(Ordering::Relaxed) {
                        let k = done.load(Ordering::Relaxed);
                        let msg = match total {
                            Some(t) => format!("{name} is thinking… {k}/{t} playouts"),
                            None => format!("{name} is thinking… {k} playouts"),
                        };
                        pb.set_message(msg);
                        std::thread::sleep(std::time::Duration::from_millis(50));
                    }
                };
                // Without that thread the spinner still turns, uncounted.
                let _ = std::thread::Builder::new().spawn_scoped(sc, count);
            }
            // Set however the search ends, a panic too, so that the
            // scope's join of the spinner's thread returns.
            let _finish = SetOnDrop(&finished);
            engine.choose(g, s, moves, rng, Some(&done))
        });
        if let Some(pb) = pb {
            pb.finish_and_clear();
        }
        let d = d.map_err(|e| run_err(g, e))?;
        Ok((d.mv, d.report))
    }

    /// A hint for the person to move: a search from what they see (an
    /// engine seat's search settings, or `mcts:1000`).
    fn hint(&mut self, s: &State, moves: &[Move]) -> Result<Report> {
        let spec = self
            .seats
            .iter()
            .find_map(|x| match x {
                Seat::Engine(e) if matches!(e.spec, Spec::Mcts(_)) => Some(e.spec.clone()),
                _ => None,
            })
            .unwrap_or_else(|| Spec::Mcts(tabula::play::mcts::Config::playouts(1000)));
        let me = s.current();
        let mut helper = Player::new(spec, self.jobs);
        let saved = std::mem::replace(&mut self.seats[me as usize], Seat::Engine(Box::new(helper)));
        let r = self.think(s, moves);
        let Seat::Engine(e) = std::mem::replace(&mut self.seats[me as usize], saved) else {
            return Err(miette!("no engine at this seat").into());
        };
        helper = *e;
        drop(helper);
        let (mv, report) = r?;
        Ok(report.unwrap_or(Report {
            mv,
            reason: tabula::play::mcts::Reason::Only,
            moves: Vec::new(),
            playouts: 0,
            reused: 0,
            nodes: 0,
        }))
    }

    /// Back to the previous position where a person was to move (chance
    /// outcomes since then are undone too, and drawn again).
    fn undo(&mut self, s: &mut State, record: &mut Record) -> bool {
        let person = |t: &State| t.turn() != Turn::Chance && self.is_person(t.current());
        let Some(k) = self.history.iter().rposition(|(t, _)| person(t)) else { return false };
        let (prev, len) = self.history[k].clone();
        self.history.truncate(k);
        record.moves.truncate(len);
        if let Some(v) = &mut self.view_record {
            v.steps.truncate(len + 1);
        }
        *s = prev;
        true
    }

    fn help(&self, moves: &[Move]) {
        let g = self.g;
        say!(
            "Type a move as `moves` lists it, e.g. `{}`; Tab completes it.",
            State::move_text(g, &moves[0])
        );
        say!("  moves, ?        the legal moves; `moves PREFIX` marks where they go");
        say!("  hint            what the engine would play here, and why");
        say!("  why MOVE        how the rules read a move (`why` alone: the last refused one)");
        say!("  undo            back to your previous turn");
        say!("  save FILE       save the game; `tabula play GAME --load FILE` goes on");
        say!("  board           draw the board again");
        say!("  quit");
        if let Some(l) = term::legend(g, self.colour) {
            say!("{l}");
        }
    }

    /// `moves [PREFIX]`: the legal moves (starting with PREFIX); with a
    /// prefix, the board with the cells they go to marked.
    fn list_moves(&self, s: &State, view: Viewer, texts: &[String], prefix: &str) {
        let low = prefix.to_lowercase();
        let shown: Vec<&String> =
            texts.iter().filter(|t| t.to_lowercase().starts_with(&low)).collect();
        if shown.is_empty() {
            say!("No legal move starts with `{prefix}` ({} legal moves).", texts.len());
            return;
        }
        if !prefix.is_empty() && !self.g.board.is_empty() {
            // Mark the cells of each move's next word after the prefix.
            let next: Vec<String> = complete_words(texts, prefix, false);
            let mut targets: Vec<u16> = Vec::new();
            for t in &next {
                if let Some(&c) = term::cells_in(self.g, t).last() {
                    targets.push(c);
                }
            }
            if !targets.is_empty() {
                self.draw(s, view, targets);
            }
        }
        let list: Vec<&str> = shown.iter().map(|t| t.as_str()).collect();
        say!(
            "{} legal move{}: {}",
            list.len(),
            if list.len() == 1 { "" } else { "s" },
            list.join(", ")
        );
    }

    /// One line after the game-over line: who played, how many turns.
    fn summary(&self, s: &State, o: Option<tabula::Outcome>) {
        let g = self.g;
        let seats: Vec<String> = (0..g.players.len() as u8)
            .map(|p| {
                let result = match o {
                    Some(o) if o.is_winner(p) => "won",
                    Some(tabula::Outcome::Draw) | None => "drew",
                    Some(_) => "lost",
                };
                format!("{} ({}) {result}", g.players[p as usize], self.who(p))
            })
            .collect();
        say!("{} after {} turns (seed {}).", seats.join(", "), s.ply(), self.seed);
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

/// Runs `tabula replay`: checks the record, then shows the final
/// position, or with `step` (or on a terminal) steps through the game, as
/// the viewer chosen with `--as`/`--reveal` sees it.
pub fn replay(
    ctx: &Ctx,
    record: &str,
    html: Option<&str>,
    view: &super::View,
    step: bool,
) -> Result<()> {
    if ctx.has_seed() || !ctx.overrides()?.is_empty() {
        return Err(usage(miette!(
            "`replay` takes the seed and the parameters from the record: drop `--seed` and `--set`"
        )));
    }
    let text = read(record)?;
    let is_view = serde_json::from_str::<serde_json::Value>(&text)
        .is_ok_and(|v| v.get("viewer").is_some() && v.get("steps").is_some());
    if is_view {
        return replay_view(ctx, record, &text, html, view, step);
    }
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
    // Whose view: in a game with hidden zones, a player's (`--as`) or the
    // referee's (`--reveal`); chance outcomes stay unnamed for a player.
    let viewer = super::common::viewer(&g, &s, view, false)?;
    // Every step: its caption, the position after it and the move.
    let mut steps: Vec<(String, State, Option<Move>)> = vec![("start".into(), s.clone(), None)];
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = match s.parse_move(&g, m) {
            Ok(mv) => mv,
            Err(MoveError::Rule(e)) => return Err(run_err(&g, e)),
            Err(e) => {
                return Err(
                    miette!("{record}: move {} (`{m}`): {}", i + 1, move_error(&e, m)).into()
                )
            }
        };
        let before = s.clone();
        s.play_unchecked(&g, &mv).map_err(|e| run_err(&g, e))?;
        steps.push((caption(&g, &before, i + 1, m, viewer != Viewer::All), s.clone(), Some(mv)));
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
    let colour = colour_wanted();
    if let Some(path) = html {
        let mut frames: Vec<(String, String)> = steps
            .iter()
            .map(|(c, t, m)| {
                let marked = m.as_ref().map(|m| picture::move_cells(&g, m)).unwrap_or_default();
                (c.clone(), picture::svg(&g, t, viewer, &marked))
            })
            .collect();
        if let (Some(o), Some(last)) = (&outcome, frames.last_mut()) {
            last.0.push_str(&format!(" — {o}"));
        }
        let page = picture::html(&format!("{} — {record}", g.name), &frames);
        std::fs::write(path, page).map_err(|e| usage(miette!("cannot write `{path}`: {e}")))?;
    }
    if step || (html.is_none() && std::io::stdin().is_terminal() && !ctx.quiet) {
        stepper(&g, &steps, outcome.as_deref(), colour, viewer);
    } else {
        let marks = Marks {
            last: steps
                .last()
                .and_then(|x| x.2.as_ref())
                .map(|m| picture::move_cells(&g, m))
                .unwrap_or_default(),
            targets: Vec::new(),
        };
        match &outcome {
            Some(o) => {
                say_part!("{}", term::draw(&g, &s, viewer, &marks, colour, false));
                say!("Game over: {o}.");
            }
            None => say_part!("{}", render_for(&g, &s, viewer)),
        }
    }
    say!("{} moves replayed.", rec.moves.len());
    if let Some(path) = html {
        say!("Wrote {path}: {} steps.", steps.len());
    }
    Ok(())
}

/// `tabula replay` of a viewer record: its steps as they were seen (the
/// hidden state is not in the record, so nothing is replayed). The game
/// file must still be the one it was played with.
fn replay_view(
    ctx: &Ctx,
    record: &str,
    text: &str,
    html: Option<&str>,
    view: &super::View,
    step: bool,
) -> Result<()> {
    let rec: ViewRecord =
        serde_json::from_str(text).map_err(|e| miette!("`{record}` is not a game record: {e}"))?;
    let file = rec.game_path(Path::new(record)).map_err(|e| miette!("{record}: {e}"))?;
    let game_text = read(&file.to_string_lossy())?;
    rec.check_game(&game_text).map_err(|e| miette!("{record}: {e}"))?;
    if view.reveal {
        return Err(usage(miette!(
            help = "the referee's record (`play --record-referee FILE`) holds the whole game",
            "`{record}` holds only what {} saw: there is nothing more to reveal",
            rec.viewer
        )));
    }
    if let Some(who) = &view.viewer {
        let g = load_with(&Source::new(file.to_string_lossy(), game_text.clone()), &rec.params)?;
        let asked = &g.players[seat(&g, who)? as usize];
        if *asked != rec.viewer {
            return Err(usage(miette!(
                "`{record}` holds what {} saw; it cannot show the game as {asked} saw it",
                rec.viewer
            )));
        }
    }
    if html.is_some() {
        return Err(usage(miette!(
            help = "`--html` draws the referee's record (`play --record-referee FILE`)",
            "`{record}` holds {}'s view as text: it has no pictures to draw",
            rec.viewer
        )));
    }
    let Some(last) = rec.steps.len().checked_sub(1) else {
        return Err(miette!("{record}: the record has no steps").into());
    };
    say!("What {} saw.", rec.viewer);
    if step || (std::io::stdin().is_terminal() && !ctx.quiet) {
        let mut at = 0usize;
        let mut input = Input::new();
        let mut show = true;
        loop {
            if show {
                let st = &rec.steps[at];
                say!("");
                say!("Step {at}/{last}: {}", st.caption);
                say_part!("{}", st.text);
                if let (true, Some(o)) = (at == last, &rec.outcome) {
                    say!("Game over: {o}.");
                }
            }
            let words = ["next", "back", "first", "last", "quit"].map(String::from).to_vec();
            let Some(line) = input.line("replay> ", "replay> ", words) else { break };
            let before = at;
            match line.trim().to_ascii_lowercase().as_str() {
                "" | "n" | "next" | "f" | "forward" => at = (at + 1).min(last),
                "b" | "back" | "p" | "prev" => at = at.saturating_sub(1),
                "first" | "start" => at = 0,
                "last" | "end" => at = last,
                "q" | "quit" | "exit" => break,
                other => match other.parse::<usize>() {
                    Ok(k) => at = k.min(last),
                    Err(_) => {
                        say!("Enter or n (next), b (back), a step number, first, last, q (quit).")
                    }
                },
            }
            show = at != before;
        }
    } else {
        let st = &rec.steps[last];
        say!("{}", st.caption);
        say_part!("{}", st.text);
        if let Some(o) = &rec.outcome {
            say!("Game over: {o}.");
        }
    }
    say!("{last} steps shown.");
    Ok(())
}

/// Steps through a replayed game: Enter or `n` forward, `b` back, a number
/// to go to that step, `first`, `last`, `q` to stop.
fn stepper(
    g: &Game,
    steps: &[(String, State, Option<Move>)],
    outcome: Option<&str>,
    colour: bool,
    viewer: Viewer,
) {
    let last = steps.len() - 1;
    let mut at = 0usize;
    let mut input = Input::new();
    say!(
        "Stepping through {} steps: Enter or n (next), b (back), a step number, first, last, q.",
        last
    );
    let mut show = true;
    loop {
        if show {
            let (caption, st, mv) = &steps[at];
            let marks = Marks {
                last: mv.as_ref().map(|m| picture::move_cells(g, m)).unwrap_or_default(),
                targets: Vec::new(),
            };
            say!("");
            say!("{}", term::bold(&format!("Step {at}/{last}: {caption}"), colour));
            let over = at == last && outcome.is_some();
            say_part!("{}", term::draw(g, st, viewer, &marks, colour, !over));
            if let (true, Some(o)) = (over, outcome) {
                say!("Game over: {o}.");
            }
        }
        let words = ["next", "back", "first", "last", "quit"].map(String::from).to_vec();
        let Some(line) = input.line("replay> ", "replay> ", words) else { return };
        let cmd = line.trim().to_ascii_lowercase();
        let before = at;
        match cmd.as_str() {
            "" | "n" | "next" | "f" | "forward" => at = (at + 1).min(last),
            "b" | "back" | "p" | "prev" => at = at.saturating_sub(1),
            "first" | "start" => at = 0,
            "last" | "end" => at = last,
            "q" | "quit" | "exit" => return,
            other => match other.parse::<usize>() {
                Ok(k) => at = k.min(last),
                Err(_) => {
                    say!("Enter or n (next), b (back), a step number, first, last, q (quit).")
                }
            },
        }
        show = at != before;
        if !show && (cmd.is_empty() || cmd == "n" || cmd == "next") && at == last {
            say!("(the last step; b goes back, q stops)");
        }
    }
}

/// The rule's own words for an illegal move, when a `require ... else
/// "message"` rejects it: `the rules say "..." (line N)`. The reading of
/// the move that gets furthest counts.
fn rule_says(g: &Game, s: &State, typed: &str) -> Option<String> {
    let tabula::interp::Verdict::Illegal { attempts } =
        tabula::interp::explain(g, s, &super::common::spelled_out(g, s, typed)).ok()?
    else {
        return None;
    };
    let why = &attempts.last()?.why;
    if !why.said {
        return None;
    }
    let before = g.source.text.get(..why.span.start as usize).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    Some(format!("the rules say: {} (line {line})", why.message))
}

/// Sets its flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
