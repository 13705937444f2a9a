//! The explaining mode: the path of a run and why it failed.

use super::{Choice, Exec, Flow, Res};
use crate::board::CellId;
use crate::ir::{BinOp, Builtin, Expr, Quant, UnOp, Value, Visibility};
use crate::source::Span;

/// What an explaining run records.
#[derive(Debug, Default)]
pub struct Explain {
    /// The decision point the run paused at.
    pub site: Option<u16>,
    /// At the pause: every element of the `choose` domain (or every `either`
    /// branch) and whether its `where` accepts it.
    pub options: Vec<(Choice, bool)>,
    /// Each decision and effect of the run, in order.
    pub trace: Vec<Step>,
    /// Why the run failed, if it did.
    pub failure: Option<Why>,
}

/// One step of a turn: where, and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The statement.
    pub span: Span,
    /// What it did, e.g. `place Stone of White at c3`.
    pub text: String,
}

/// Why a run failed: the rule, a message, and the values that made it fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// The failing `require`, `where` or effect.
    pub span: Span,
    /// What went wrong.
    pub message: String,
    /// Sub-expressions with their values.
    pub values: Vec<(Span, String)>,
    /// The message is the rule's own words (`require C else "..."`).
    pub said: bool,
}

impl Exec<'_, '_> {
    /// Records a step of the path (only when explaining).
    pub(super) fn note(&mut self, span: Span, text: impl FnOnce(&Self) -> String) {
        if self.explain.is_some() {
            let t = text(self);
            if let Some(x) = self.explain.as_mut() {
                x.trace.push(Step { span, text: t });
            }
        }
    }

    /// Fails this run, recording why when explaining.
    pub(super) fn why(
        &mut self,
        span: Span,
        message: impl FnOnce(&Self) -> String,
        cond: Option<&Expr>,
    ) -> Res<Flow> {
        self.why_said(span, message, cond, false)
    }

    /// Fails this run, recording why when explaining; `said` when the
    /// message is the rule's own.
    pub(super) fn why_said(
        &mut self,
        span: Span,
        message: impl FnOnce(&Self) -> String,
        cond: Option<&Expr>,
        said: bool,
    ) -> Res<Flow> {
        if self.explain.is_some() {
            let message = message(self);
            let mut values = Vec::new();
            if let Some(c) = cond {
                self.values_of(c, 0, &mut values)?;
            }
            if let Some(x) = self.explain.as_mut() {
                x.failure = Some(Why { span, message, values, said });
            }
        }
        Ok(Flow::Fail(span))
    }

    /// The values of the parts of a condition that decide it, for labels.
    pub fn values_of(&mut self, e: &Expr, depth: usize, out: &mut Vec<(Span, String)>) -> Res<()> {
        let label = |this: &mut Self, e: &Expr, out: &mut Vec<(Span, String)>| -> Res<()> {
            let sp = e.span();
            if sp != Span::default() && !out.iter().any(|(s, _)| *s == sp) {
                // A value read from a zone the mover may not see stays unsaid.
                let text = if this.reads_unseen(e) {
                    "= (hidden)".to_string()
                } else {
                    let v = this.eval(e)?;
                    format!("= {}", this.show(v))
                };
                out.push((sp, text));
            }
            Ok(())
        };
        match e {
            Expr::Binary(BinOp::And | BinOp::Or, a, b, _) if depth < 3 => {
                self.values_of(a, depth + 1, out)?;
                self.values_of(b, depth + 1, out)?;
            }
            Expr::Unary(UnOp::Not, a) if depth < 3 => self.values_of(a, depth + 1, out)?,
            Expr::Binary(_, a, b, _) => {
                label(self, a, out)?;
                label(self, b, out)?;
                if a.span() == Span::default() && b.span() == Span::default() {
                    label(self, e, out)?;
                }
            }
            Expr::Quant { quant, slot, domain, filter, body, span, .. }
                if depth < 3 && matches!(quant, Quant::All | Quant::None | Quant::Any) =>
            {
                let v = self.eval(e)?;
                let mut text = format!("= {}", self.show(v));
                // For a failed `all` / `none`, name the first element to blame.
                if matches!(
                    (quant, v),
                    (Quant::All, Value::Bool(false)) | (Quant::None, Value::Bool(false))
                ) {
                    let d = self.eval(domain)?;
                    let mut i = 0;
                    while let Some((x, n)) = self.next_elem(d, i) {
                        i = n;
                        self.frame.slots[*slot as usize] = x;
                        if let Some(f) = filter {
                            if !self.truth(f)? {
                                continue;
                            }
                        }
                        let t = match body {
                            Some(b) => self.truth(b)?,
                            None => true,
                        };
                        if t == (*quant == Quant::None) {
                            text = format!("{text}, because of {}", self.show(x));
                            break;
                        }
                    }
                }
                out.push((*span, text));
            }
            _ => label(self, e, out)?,
        }
        Ok(())
    }

    /// Fails a run because `zone` holds fewer than `n` pieces of kind `k`.
    pub(super) fn too_few(
        &mut self,
        span: Span,
        zone: Value,
        have: i64,
        k: u16,
        n: i64,
    ) -> Res<Flow> {
        let Value::Zone(z, p) = zone else { return Ok(Flow::Fail(span)) };
        self.why(
            span,
            |x| format!("{} holds {have} {}, {n} needed", x.show(zone), x.kind_seen(k, &[(z, p)])),
            None,
        )
    }

    /// Whether `e` reads the contents of a zone the player to move may not
    /// see (a hidden zone, or an owner-only zone of someone else). Sizes
    /// (`count(z)`) are public.
    fn reads_unseen(&self, e: &Expr) -> bool {
        match e {
            Expr::Builtin(Builtin::CountAll, args, _) if matches!(args[0], Expr::Zone(..)) => false,
            Expr::Zone(z, p) => match self.g.zones[*z as usize].visibility {
                Visibility::Public => false,
                Visibility::Hidden => true,
                // Only the mover's own zone (`zone(me)`) is seen.
                Visibility::Owner => !matches!(p.as_deref(), Some(Expr::Me)),
            },
            _ => {
                let mut found = false;
                e.children(&mut |x| found |= self.reads_unseen(x));
                found
            }
        }
    }

    /// A kind's name in a step about `zones` (zone, owner), or "piece" when
    /// the player to move may see none of them: an explanation must not
    /// reveal hidden cards (a draw into another hand, a face-down deck).
    pub(super) fn kind_seen(&self, k: u16, zones: &[(u16, u8)]) -> String {
        let seen = zones.iter().any(|&(z, p)| {
            let zone = &self.g.zones[z as usize];
            match zone.visibility {
                Visibility::Public => true,
                Visibility::Owner => zone.per_player && p == self.st.current,
                Visibility::Hidden => false,
            }
        });
        if seen {
            self.g.kinds[k as usize].name.clone()
        } else {
            "piece".into()
        }
    }

    /// A variable's value (a word) as text.
    pub(super) fn show_var(&self, v: u16, w: i64) -> String {
        crate::notation::var_text(self.g, v, w)
    }

    /// A value as notation.
    pub(super) fn show(&self, v: Value) -> String {
        crate::notation::value_text(self.g, v)
    }

    pub(super) fn piece_text(&self, c: CellId) -> String {
        match self.piece(c) {
            Some((p, k)) => {
                format!("{} of {}", self.g.kinds[k as usize].name, self.g.players[p as usize])
            }
            None => "nothing".into(),
        }
    }
}
