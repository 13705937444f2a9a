//! Drawing a position as text for terminals and snapshots.

use crate::board::Shape;
use crate::ir::Game;
use crate::state::{Outcome, State};
use crate::wire::{observe, Viewer};

/// A short tag for each player: the initial of their name, or the seat
/// number if two names share an initial.
pub fn player_tags(g: &Game) -> Vec<String> {
    let initials: Vec<String> = g
        .players
        .iter()
        .map(|p| p.chars().next().unwrap_or('?').to_uppercase().collect())
        .collect();
    let unique = (0..initials.len()).all(|i| !initials[..i].contains(&initials[i]));
    if unique {
        initials
    } else {
        (1..=g.players.len()).map(|i| i.to_string()).collect()
    }
}

/// The position as text, everything shown (see [`render_for`]).
pub fn render(g: &Game, s: &State) -> String {
    render_for(g, s, Viewer::All)
}

/// The position as `viewer` may see it: the board (each piece as its
/// player's tag and its symbol), the zones (contents where visible, sizes
/// otherwise), and whose turn it is or how the game ended.
pub fn render_for(g: &Game, s: &State, viewer: Viewer) -> String {
    render_over(g, s, viewer, s.ended())
}

/// As [`render_for`], with the game's outcome as the rules decide it
/// (`State::outcome`): a game whose player to move has no move and whose
/// `on no moves` ends it is drawn as over, with the reason.
pub fn render_over(g: &Game, s: &State, viewer: Viewer, over: Option<Outcome>) -> String {
    // A turn under way is drawn as it stands at its stop.
    let shown;
    let s = if s.pending().is_some() {
        shown = crate::interp::reference::view(g, s).unwrap_or_else(|_| s.clone());
        &shown
    } else {
        s
    };
    let tags = player_tags(g);
    // With a single kind of piece, the owner's tag says everything.
    let single = g.kinds.len() == 1;
    let cell = |c: u16| match s.piece(g, c) {
        Some((p, _)) if single => tags[p as usize].clone(),
        Some((p, k)) => format!("{}{}", tags[p as usize], g.kinds[k as usize].symbol),
        None => ".".to_string(),
    };
    let symbol = if single {
        0
    } else {
        g.kinds.iter().map(|k| k.symbol.chars().count()).max().unwrap_or(1)
    };
    let tag = tags.first().map_or(1, String::len);
    let width = (symbol + tag).max(if single { 1 } else { 2 });
    let mut out = String::new();
    match g.board.shape {
        Shape::Square { width: w, height: h, .. } => {
            for y in (0..h).rev() {
                out.push_str(&format!("{:>2} ", y + 1));
                for x in 0..w {
                    out.push_str(&format!(" {:<width$}", cell((y * w + x) as u16)));
                }
                end_line(&mut out);
            }
            out.push_str("   ");
            for x in 0..w {
                out.push_str(&format!(" {:<width$}", (b'a' + x as u8) as char));
            }
            end_line(&mut out);
        }
        Shape::Rhombus { width: w, height: h } => {
            // Row r is shifted right by half a cell per row above it.
            let shift = |r: u32| " ".repeat(r as usize * (width + 1) / 2);
            out.push_str(&format!("   {}", shift(0)));
            for x in 0..w {
                out.push_str(&format!(" {:<width$}", (b'a' + x as u8) as char));
            }
            end_line(&mut out);
            for r in 0..h {
                out.push_str(&format!("{:>2} {}", r + 1, shift(r)));
                for x in 0..w {
                    out.push_str(&format!(" {:<width$}", cell((r * w + x) as u16)));
                }
                end_line(&mut out);
            }
        }
        Shape::None => {}
        Shape::Graph(ref spec) => {
            let text = |c: u16| match s.piece(g, c) {
                Some(_) => cell(c),
                None => g.board.names[c as usize].clone(),
            };
            let w = width.max(g.board.names.iter().map(String::len).max().unwrap_or(1));
            if spec.at.iter().any(Option::is_some) {
                graph_picture(&mut out, g, spec, w, &text);
            } else {
                let all: Vec<String> = (0..g.board.len() as u16).map(text).collect();
                out.push_str(&all.join(" "));
                end_line(&mut out);
            }
        }
        Shape::HexHex { side } => {
            // Hexhex cell names are not obvious: empty cells show theirs.
            let w = width.max(g.board.names.iter().map(String::len).max().unwrap_or(2));
            let n = side as i32 - 1;
            let mut c = 0u16;
            for r in -n..=n {
                let len = (2 * n + 1 - r.abs()) as usize;
                out.push_str(&" ".repeat(r.unsigned_abs() as usize * (w + 1) / 2));
                for _ in 0..len {
                    let text = match s.piece(g, c) {
                        Some(_) => cell(c),
                        None => g.board.names[c as usize].clone(),
                    };
                    out.push_str(&format!(" {text:<w$}"));
                    c += 1;
                }
                end_line(&mut out);
            }
        }
    }
    let symbol = |name: &str| {
        g.kinds.iter().find(|k| k.name == name).map_or(name.to_string(), |k| k.symbol.clone())
    };
    for zv in observe(g, s, viewer).zones {
        let owner = zv.player.as_ref().map(|p| format!("{p} ")).unwrap_or_default();
        let ordered = g.zones.iter().any(|z| z.name == zv.zone && z.ordered);
        let counted = |c: &[String]| {
            let mut parts: Vec<String> = Vec::new();
            let mut i = 0;
            while i < c.len() {
                let n = c[i..].iter().take_while(|k| **k == c[i]).count();
                parts.push(format!("{}×{n}", symbol(&c[i])));
                i += n;
            }
            parts.join(" ")
        };
        let items = match &zv.contents {
            None => format!("{} hidden", zv.size),
            Some(c) if c.is_empty() => "-".to_string(),
            Some(c) if ordered => {
                let (a, n) = (zv.face_down_after.min(c.len()), zv.face_down);
                let b = (a + n).min(c.len());
                let mut parts: Vec<String> = c[..a].iter().map(|k| symbol(k)).collect();
                if n > 0 {
                    parts.push(format!("[{n} face down: {}]", counted(&c[a..b])));
                }
                parts.extend(c[b..].iter().map(|k| symbol(k)));
                parts.join(" ")
            }
            Some(c) => counted(c),
        };
        out.push_str(&format!("{owner}{}: {items}\n", zv.zone));
    }
    for (i, v) in g.vars.iter().enumerate() {
        let text = |p: u8| crate::notation::var_text(g, i as u16, s.var(g, i as u16, p));
        let value = if v.per_player {
            let each: Vec<String> = (0..g.players.len() as u8)
                .map(|p| format!("{} {}", g.players[p as usize], text(p)))
                .collect();
            each.join(", ")
        } else {
            text(0)
        };
        out.push_str(&format!("{}: {value}\n", v.name));
    }
    let mover = &g.players[s.current() as usize];
    match (s.ended(), over) {
        (Some(o), _) => out.push_str(&format!("game over: {}\n", o.describe(g))),
        (None, Some(o)) => {
            out.push_str(&format!("game over: {} ({mover} has no move)\n", o.describe(g)))
        }
        (None, None) => out.push_str(&format!("to move: {mover}\n")),
    }
    out
}

/// A graph board drawn at its layout: points at their places, links
/// along a row as `-`, along a column as `|` (other links are not drawn).
fn graph_picture(
    out: &mut String,
    g: &Game,
    spec: &crate::board::GraphSpec,
    w: usize,
    text: &dyn Fn(u16) -> String,
) {
    for row in graph_grid(g, spec, w, text).0 {
        out.push_str(&row.into_iter().collect::<String>());
        end_line(out);
    }
}

/// The picture of `graph_picture` as rows of characters, and where each
/// point's text begins (row, column): a terminal view paints over them.
pub fn graph_grid(
    g: &Game,
    spec: &crate::board::GraphSpec,
    w: usize,
    text: &dyn Fn(u16) -> String,
) -> (Vec<Vec<char>>, Vec<(usize, usize)>) {
    let at: Vec<(i32, i32)> = g.board.coords.clone();
    let (x0, x1) =
        (at.iter().map(|p| p.0).min().unwrap_or(0), at.iter().map(|p| p.0).max().unwrap_or(0));
    let (y0, y1) =
        (at.iter().map(|p| p.1).min().unwrap_or(0), at.iter().map(|p| p.1).max().unwrap_or(0));
    let colw = w + 2;
    let cols = (x1 - x0) as usize * colw + w;
    let rows = (y1 - y0) as usize * 2 + 1;
    let mut grid = vec![vec![' '; cols]; rows];
    let place = |p: (i32, i32)| ((y1 - p.1) as usize * 2, (p.0 - x0) as usize * colw);
    for &(a, b, _, _) in &spec.links {
        let (pa, pb) = (at[a as usize], at[b as usize]);
        let ((ra, ca), (rb, cb)) = (place(pa), place(pb));
        if ra == rb {
            let (l, r) = (ca.min(cb), ca.max(cb));
            for cell in grid[ra].iter_mut().take(r).skip(l + 1) {
                *cell = '-';
            }
        } else if ca == cb {
            let (t, btm) = (ra.min(rb), ra.max(rb));
            for row in grid.iter_mut().take(btm).skip(t + 1) {
                row[ca] = '|';
            }
        }
    }
    let mut starts = Vec::with_capacity(g.board.len());
    for c in 0..g.board.len() as u16 {
        let (r, col) = place(at[c as usize]);
        starts.push((r, col));
        let t: Vec<char> = text(c).chars().collect();
        for j in 0..w {
            if let Some(x) = grid[r].get_mut(col + j) {
                *x = t.get(j).copied().unwrap_or(if j == 0 { ' ' } else { '-' });
            }
        }
        // Short text: the rest of the point's width joins the link to its right.
        for j in t.len()..w {
            let right = grid[r].get(col + w).copied() == Some('-');
            if let Some(x) = grid[r].get_mut(col + j) {
                *x = if right { '-' } else { ' ' };
            }
        }
    }
    (grid, starts)
}

fn end_line(out: &mut String) {
    let keep = out.trim_end_matches(' ').len();
    out.truncate(keep);
    out.push('\n');
}
