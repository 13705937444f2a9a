//! Diagnostics: problems in a game file, as data until the edge.
//!
//! Every stage reports [`Problem`]s: a stable code, a message, a primary
//! labelled span, optional secondary labels and a help line. A problem
//! implements [`miette::Diagnostic`], so `main` (or a test) renders it with
//! whatever handler it likes; the library never prints.

use crate::source::{Source, SourceView, Span};
use std::fmt;

/// One problem in a game file.
#[derive(Debug, Clone)]
pub struct Problem {
    /// Stable code, e.g. `tabula::check::unknown_name`.
    pub code: &'static str,
    /// One-line message.
    pub message: String,
    /// The main place and what to say there.
    pub span: Span,
    /// The label on the main span.
    pub label: String,
    /// More places with their labels (e.g. "first defined here").
    pub secondary: Vec<(Span, String)>,
    /// A suggestion.
    pub help: Option<String>,
    /// Whether this is only a warning (the game still loads).
    pub is_warning: bool,
    src: Option<SourceView>,
}

impl Problem {
    /// A problem with a code, a message, a span and a label.
    #[cold]
    pub fn new(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Problem {
        Problem {
            code,
            message: message.into(),
            span,
            label: label.into(),
            secondary: Vec::new(),
            help: None,
            is_warning: false,
            src: None,
        }
    }

    /// Makes this a warning.
    pub fn warning(mut self) -> Problem {
        self.is_warning = true;
        self
    }

    /// Adds a help line.
    pub fn help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary label.
    pub fn also(mut self, span: Span, label: impl Into<String>) -> Problem {
        self.secondary.push((span, label.into()));
        self
    }

    /// Attaches the source text, so the problem renders on its own.
    pub fn with_source(self, source: &Source) -> Problem {
        self.with_view(&source.view())
    }

    /// Attaches a source already prepared for reports (see [`Source::view`]).
    pub fn with_view(mut self, view: &SourceView) -> Problem {
        self.src = Some(view.clone());
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

impl miette::Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(if self.is_warning { miette::Severity::Warning } else { miette::Severity::Error })
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        // Long spans are shown by their start (see `SourceView::clip`).
        let clip = |s: Span| self.src.as_ref().map_or(s, |v| v.clip(s));
        let primary = miette::LabeledSpan::new_primary_with_span(
            Some(self.label.clone()),
            miette::SourceSpan::from(clip(self.span)),
        );
        let rest = self
            .secondary
            .iter()
            .map(move |(s, l)| miette::LabeledSpan::new_with_span(Some(l.clone()), clip(*s)));
        Some(Box::new(std::iter::once(primary).chain(rest)))
    }
}

/// The most problems kept for a report: the first ones in the file.
pub const MAX_PROBLEMS: usize = 100;

/// All problems of one stage for one file, in source order: the first
/// [`MAX_PROBLEMS`], and how many more there were.
#[derive(Debug, Clone)]
pub struct Diagnostics {
    /// The problems; never empty when returned as an error.
    pub problems: Vec<Problem>,
    /// Problems found after the first [`MAX_PROBLEMS`], not kept.
    pub omitted: usize,
}

impl Diagnostics {
    /// Attach `source` to every problem and sort them by position.
    pub fn new(mut problems: Vec<Problem>, source: &Source) -> Diagnostics {
        problems.sort_by_key(|p| (p.span.start, p.span.end));
        let omitted = problems.len().saturating_sub(MAX_PROBLEMS);
        problems.truncate(MAX_PROBLEMS);
        let view = source.view();
        let problems = problems.into_iter().map(|p| p.with_view(&view)).collect();
        Diagnostics { problems, omitted }
    }

    /// How many problems were found, shown or not.
    pub fn count(&self) -> usize {
        self.problems.len() + self.omitted
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.count();
        write!(f, "{n} problem{} in the game file", if n == 1 { "" } else { "s" })?;
        if self.omitted > 0 {
            write!(f, " (the first {} shown)", self.problems.len())?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
