//! Source text and byte spans.
//!
//! Every AST node and every IR statement carries a [`Span`]: two `u32` byte
//! offsets into the [`Source`] it came from. Spans are `Copy` and turn into
//! miette's `SourceSpan` for reports.

use std::sync::Arc;

/// A named game text, e.g. the contents of `games/hex.game`.
#[derive(Debug, Clone)]
pub struct Source {
    /// The name shown in reports (usually the path as the user typed it).
    pub name: String,
    /// The full text.
    pub text: Arc<str>,
}

impl Source {
    /// A source from a name and its text.
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> Source {
        Source { name: name.into(), text: text.into() }
    }

    /// The source in the form miette attaches to a report.
    pub fn named(&self) -> miette::NamedSource<Arc<str>> {
        miette::NamedSource::new(self.name.clone(), self.text.clone())
    }
}

/// A half-open byte range `start..end` in a [`Source`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start as usize..s.end as usize).into()
    }
}
