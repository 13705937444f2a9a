//! Explaining a move: why it is illegal, or how the turn produced it.
//!
//! The typed move is read token by token while the turn runs in explaining
//! mode. At each `choose` every element of the domain is printed and
//! compared with the next tokens; each element that matches is followed,
//! whether or not its `where` accepts it (so a rejection can be shown with
//! the values that caused it). Unlabelled `either` branches print nothing,
//! so all of them are followed. The result is the path of a legal move, the
//! continuations of an incomplete one, or every attempt that failed, each
//! with the rule (span) that rejected it.

use super::exec::{Exec, Explain, Flow, Frame, Step, Why};
use crate::notation::{choice_matches, choice_text};
use crate::state::{Choice, Move, RunError, State};
use crate::Game;

/// What became of a typed move.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// The move is legal: every decision and effect in order, and the result.
    Legal {
        /// The path through the turn.
        steps: Vec<Step>,
        /// The move.
        mv: Move,
        /// The position after it.
        after: Box<State>,
    },
    /// The move is the start of legal moves.
    Incomplete {
        /// Tokens that may follow.
        next: Vec<String>,
    },
    /// No reading of the move completes the turn.
    Illegal {
        /// Every way the move was read, fewest tokens first.
        attempts: Vec<Attempt>,
    },
}

/// One reading of an illegal move and where it failed.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// The tokens read before the failure.
    pub read: String,
    /// The rule that rejected it, with values.
    pub why: Why,
    /// The steps taken before the failure.
    pub steps: Vec<Step>,
}

/// Explains `input` (move notation, possibly partial) in position `s`.
/// Notation is read in full: a short form (`as short`) is spelled out first
/// with `State::parse_move` and `State::move_text`.
pub fn explain(g: &Game, s: &State, input: &str) -> Result<Verdict, RunError> {
    let mut tokens: Vec<String> = input.split_whitespace().map(str::to_string).collect();
    let mut found = Found::default();
    if s.ended().is_some() {
        return Ok(Verdict::Illegal {
            attempts: vec![Attempt {
                read: String::new(),
                why: Why {
                    span: g.turn_span,
                    message: "the game is over".into(),
                    values: Vec::new(),
                    said: false,
                },
                steps: Vec::new(),
            }],
        });
    }
    let legal = s.legal_moves(g)?;
    if s.turn() == crate::state::Turn::Chance {
        // Chance decides here: the typed text must be one of its outcomes.
        let outcomes = s.chance_outcomes(g)?;
        let total: u64 = outcomes.iter().map(|o| u64::from(o.1)).sum();
        let typed = tokens.join(" ");
        for (m, w) in &outcomes {
            if crate::notation::text(g, m).eq_ignore_ascii_case(&typed) {
                let mut after = s.clone();
                after.play_unchecked(g, m)?;
                let steps = vec![Step {
                    span: g.sites.get(m.choices[0].site as usize).map_or(g.turn_span, |x| x.span),
                    text: format!("chance: `{typed}` (probability {w}/{total})"),
                }];
                return Ok(Verdict::Legal { steps, mv: m.clone(), after: Box::new(after) });
            }
        }
        return Ok(Verdict::Illegal {
            attempts: vec![Attempt {
                read: String::new(),
                why: Why {
                    span: g.turn_span,
                    message: format!(
                        "a chance event decides here, not a player; its outcomes are: {}",
                        outcomes
                            .iter()
                            .map(|(m, w)| format!("{} ({w}/{total})", crate::notation::text(g, m)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    values: Vec::new(),
                    said: false,
                },
                steps: Vec::new(),
            }],
        });
    }
    if legal.len() == 1 && legal[0].stuck {
        // A forced move when nothing else is possible.
        if tokens.len() == 1 && tokens[0].eq_ignore_ascii_case("pass") {
            let mut after = s.clone();
            after.play_unchecked(g, &legal[0])?;
            let steps = vec![Step {
                span: g.turn_span,
                text: "no legal turn: `on no moves` passes".into(),
            }];
            return Ok(Verdict::Legal { steps, mv: legal[0].clone(), after: Box::new(after) });
        }
        return Ok(Verdict::Incomplete { next: vec!["pass".into()] });
    }
    // A turn that makes no decision is written `pass`, as the move list
    // shows it (`notation::text`): the empty move.
    if tokens.len() == 1
        && tokens[0].eq_ignore_ascii_case("pass")
        && legal.iter().any(|m| m.choices.is_empty())
    {
        tokens.clear();
    }
    // A turn under way goes on from its start with its events so far.
    let mut start = s.clone();
    let events = start.pending.take().map_or_else(Vec::new, |p| p.events);
    let base = events.len();
    let mut prefix = events;
    go(g, &start, &tokens, &mut prefix, base, 0, &mut found)?;
    if let Some((steps, mv)) = found.legal {
        let mut after = s.clone();
        after.play_unchecked(g, &mv)?;
        return Ok(Verdict::Legal { steps, mv, after: Box::new(after) });
    }
    if !found.next.is_empty() {
        return Ok(Verdict::Incomplete { next: found.next });
    }
    found.attempts.sort_by_key(|a| a.read.split_whitespace().count());
    found.attempts.dedup_by(|a, b| a.why == b.why && a.read == b.read);
    Ok(Verdict::Illegal { attempts: found.attempts })
}

#[derive(Default)]
struct Found {
    legal: Option<(Vec<Step>, Move)>,
    next: Vec<String>,
    attempts: Vec<Attempt>,
}

/// Tries to read more of the move; each branch is one reading.
fn go(
    g: &Game,
    s: &State,
    tokens: &[String],
    prefix: &mut Vec<Choice>,
    base: usize,
    used: usize,
    found: &mut Found,
) -> Result<(), RunError> {
    if found.legal.is_some() {
        return Ok(());
    }
    let mut st = s.clone();
    let mut slots = Frame::new(g);
    let mut x = Explain::default();
    let flow = {
        let mut ex = Exec::new(g, &mut st, &mut slots, prefix);
        ex.explain = Some(&mut x);
        ex.run(&g.turn)?
    };
    let read = tokens[..used].join(" ");
    match flow {
        Flow::Next | Flow::End => {
            if used == tokens.len() {
                found.legal =
                    Some((x.trace, Move { choices: prefix[base..].to_vec(), stuck: false }));
            } else {
                found.attempts.push(Attempt {
                    read: read.clone(),
                    why: Why {
                        span: g.turn_span,
                        message: format!(
                            "the turn is complete after `{read}`; `{}` is more than a move",
                            tokens[used..].join(" ")
                        ),
                        values: Vec::new(),
                        said: false,
                    },
                    steps: x.trace,
                });
            }
        }
        Flow::Fail(span) => {
            let why = x.failure.unwrap_or(Why {
                span,
                message: "this way of playing the turn fails here".into(),
                values: Vec::new(),
                said: false,
            });
            found.attempts.push(Attempt { read, why, steps: x.trace });
        }
        Flow::Pause if x.site.is_some_and(|site| g.sites[site as usize].chance) => {
            // The move stops at a chance event.
            if used == tokens.len() {
                found.legal =
                    Some((x.trace, Move { choices: prefix[base..].to_vec(), stuck: false }));
            } else {
                found.attempts.push(Attempt {
                    read: read.clone(),
                    why: Why {
                        span: x.site.map_or(g.turn_span, |site| g.sites[site as usize].span),
                        message: format!(
                            "after `{read}` chance decides what comes next; `{}` is more than a move",
                            tokens[used..].join(" ")
                        ),
                        values: Vec::new(),
said: false,
                    },
                    steps: x.trace,
                });
            }
        }
        Flow::Pause => {
            let Some(site) = x.site else { return Ok(()) };
            let info = &g.sites[site as usize];
            if used == tokens.len() {
                for (c, ok) in &x.options {
                    if *ok {
                        let t = choice_text(g, c.site, c.value);
                        if let Some(first) = t.split_whitespace().next() {
                            if !found.next.iter().any(|n| n == first) {
                                found.next.push(first.to_string());
                            }
                        } else {
                            // An unlabelled branch: look inside it.
                            prefix.push(*c);
                            go(g, s, tokens, prefix, base, used, found)?;
                            prefix.pop();
                        }
                    }
                }
                return Ok(());
            }
            let mut matched = false;
            for (c, _) in &x.options {
                if let Some(n) = choice_matches(g, c.site, c.value, &tokens[used..]) {
                    matched = true;
                    prefix.push(*c);
                    go(g, s, tokens, prefix, base, used + n, found)?;
                    prefix.pop();
                }
            }
            if !matched {
                let options: Vec<String> = x
                    .options
                    .iter()
                    .filter(|(_, ok)| *ok)
                    .map(|(c, _)| choice_text(g, c.site, c.value))
                    .collect();
                let shown = if options.is_empty() {
                    "there are none".to_string()
                } else if options.len() > 12 {
                    format!("{}, ... ({} in all)", options[..12].join(", "), options.len())
                } else {
                    options.join(", ")
                };
                let what = if info.branches.is_some() { "branch" } else { "option" };
                found.attempts.push(Attempt {
                    read,
                    why: Why {
                        span: if info.branches.is_some() { info.span } else { info.domain_span },
                        message: format!(
                            "`{}` is not a possible {what} here; the {what}s are: {shown}",
                            tokens[used]
                        ),
                        values: Vec::new(),
                        said: false,
                    },
                    steps: x.trace,
                });
            }
        }
    }
    Ok(())
}

impl Attempt {
    /// The failure as a report on the game file: the rule that rejected the
    /// move, labelled with the values that made it fail.
    pub fn to_problem(&self, g: &Game, input: &str) -> crate::diag::Problem {
        // The values go into the label, each with the expression it belongs
        // to: labels nested inside the rule's span would not draw well.
        let text = |span: crate::source::Span| {
            let t = g.source.text.get(span.start as usize..span.end as usize).unwrap_or("");
            let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
            if t.chars().count() > 48 {
                format!("{}…", t.chars().take(47).collect::<String>())
            } else {
                t
            }
        };
        let mut parts: Vec<String> = Vec::new();
        for (span, v) in &self.why.values {
            let part = format!("`{}` {v}", text(*span));
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        let label = if parts.is_empty() {
            self.why.message.clone()
        } else {
            format!("{}: {}", self.why.message, parts.join(", "))
        };
        let p = crate::diag::Problem::new(
            "tabula::explain::illegal",
            format!("`{input}` is not a legal move here"),
            self.why.span,
            label,
        );
        let help = if self.read.is_empty() {
            "rejected at the first decision of the turn".to_string()
        } else {
            format!("read as far as `{}`", self.read)
        };
        p.help(help).with_source(&g.source)
    }
}
