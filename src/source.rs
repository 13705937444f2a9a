//! Source text and byte spans.
//!
//! Every AST node and every IR statement carries a [`Span`]: two `u32` byte
//! offsets into the [`Source`] it came from. Spans are `Copy` and turn into
//! miette's `SourceSpan` for reports.
//!
//! Reports read the text through [`SourceView`], which shows a long line as
//! a window around the span instead of the whole line: a report's size
//! never depends on how long the lines of the file are.

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

    /// The source as reports read it (long lines windowed); O(text) once.
    pub fn view(&self) -> SourceView {
        let mut starts = vec![0u32];
        starts.extend(
            self.text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i as u32 + 1),
        );
        SourceView { name: self.name.clone(), text: self.text.clone(), starts: starts.into() }
    }
}

/// Lines longer than this are shown as a window around the span.
pub const LONG_LINE: usize = 200;
/// Bytes shown on each side of a span in a long line.
const WINDOW: usize = 60;

/// A [`Source`] as reports read it: miette's [`miette::SourceCode`], with
/// a table of line starts, and long lines cut to a window around the span
/// (without the context lines around it). Cheap to clone.
#[derive(Debug, Clone)]
pub struct SourceView {
    name: String,
    text: Arc<str>,
    /// The byte offset where each line starts.
    starts: Arc<[u32]>,
}

impl SourceView {
    /// The 0-based line holding byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s as usize <= at).saturating_sub(1)
    }

    /// The line's bytes without its line break.
    fn line_range(&self, line: usize) -> (usize, usize) {
        let start = self.starts[line] as usize;
        let end = self.starts.get(line + 1).map_or(self.text.len(), |&s| s as usize);
        let bytes = self.text.as_bytes();
        let mut e = end;
        while e > start && matches!(bytes[e - 1], b'\n' | b'\r') {
            e -= 1;
        }
        (start, e)
    }

    /// `span` clipped for display: on a long line, or over many lines, it
    /// keeps its start and at most a window's worth of its length.
    pub fn clip(&self, span: Span) -> Span {
        let (start, end) = (span.start as usize, span.end as usize);
        if start > self.text.len() {
            return span;
        }
        let line = self.line_of(start);
        let (ls, le) = self.line_range(line);
        let long_line = le - ls > LONG_LINE;
        let long_span = end > le && end - start > 40 * LONG_LINE;
        if !long_line && !long_span {
            return span;
        }
        let mut e = end.min(le.max(start)).min(start + WINDOW);
        while !self.text.is_char_boundary(e) {
            e -= 1;
        }
        Span::new(start, e.max(start))
    }

    fn floor(&self, mut i: usize) -> usize {
        while !self.text.is_char_boundary(i) {
            i -= 1;
        }
        i
    }

    fn ceil(&self, mut i: usize) -> usize {
        while !self.text.is_char_boundary(i) {
            i += 1;
        }
        i
    }
}

impl miette::SourceCode for SourceView {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let (start, end) = (span.offset(), span.offset() + span.len());
        if end > self.text.len() {
            return Err(miette::MietteError::OutOfBounds);
        }
        let (l0, l1) = (self.line_of(start), self.line_of(end.saturating_sub(1).max(start)));
        let first = l0.saturating_sub(before);
        let last = (l1 + after).min(self.starts.len() - 1);
        let long = (first..=last).any(|l| {
            let (s, e) = self.line_range(l);
            e - s > LONG_LINE
        });
        if !long {
            // As miette reads a text: whole lines with their context, or
            // from the span's start when no lines before are asked for.
            let from = if before == 0 { start } else { self.starts[first] as usize };
            let to = self.starts.get(last + 1).map_or(self.text.len(), |&s| s as usize);
            let column = if before == 0 {
                self.text[self.starts[l0] as usize..start].chars().count()
            } else {
                0
            };
            let line = if before == 0 { l0 } else { first };
            return Ok(Box::new(miette::MietteSpanContents::new_named(
                self.name.clone(),
                &self.text.as_bytes()[from..to],
                (from, to - from).into(),
                line,
                column,
                last - line + 1,
            )));
        }
        // A window on the span's first line, without context lines (and
        // from the span's start when no lines before are asked for, as the
        // report's header takes its column from there). Columns on a long
        // line count bytes, so that finding one is O(1).
        let (ls, le) = self.line_range(l0);
        let from =
            if before == 0 { start } else { start.saturating_sub(WINDOW).max(ls).min(start) };
        let from = self.floor(from);
        let to = self.ceil(end.min(le).max(start).saturating_add(WINDOW).min(le)).max(from);
        let column = from - ls;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[from..to],
            (from, to - from).into(),
            l0,
            column,
            1,
        )))
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
