//! The board as `tabula play` draws it in a terminal: pieces in their
//! player's colour, the last move highlighted, legal targets marked on
//! request; plain text (no escape codes) when colours are off.
//!
//! Glyphs must not read as words: with one kind of piece, a piece is its
//! player's tag (`X`, `O`); with two players and several kinds, the first
//! player's pieces are the kind's symbol in capitals and the second's in
//! small letters (`K`, `k`), as on a chess diagram; otherwise the symbol
//! and the seat number (`K1`, `K2`). [`legend`] says which is which.

use tabula::board::Shape;
use tabula::render::{player_tags, render_for};
use tabula::wire::Viewer;
use tabula::{Game, State};

/// How to draw: colours or not, and which cells to mark.
#[derive(Clone, Default)]
pub struct Marks {
    /// The cells of the last move.
    pub last: Vec<u16>,
    /// Cells a legal move may go to (shown on request).
    pub targets: Vec<u16>,
}

/// Each player's glyph for each kind (`glyphs[player][kind]`).
pub fn glyphs(g: &Game) -> Vec<Vec<String>> {
    let players = g.players.len();
    let kinds = g.kinds.len();
    if kinds == 1 {
        let tags = player_tags(g);
        return tags.into_iter().map(|t| vec![t]).collect();
    }
    if players == 2 {
        let up: Vec<String> = g.kinds.iter().map(|k| k.symbol.to_uppercase()).collect();
        let low: Vec<String> = g.kinds.iter().map(|k| k.symbol.to_lowercase()).collect();
        let mut all: Vec<&String> = up.iter().chain(&low).collect();
        all.sort();
        all.dedup();
        if all.len() == 2 * kinds && up.iter().zip(&low).all(|(a, b)| a != b) {
            return vec![up, low];
        }
    }
    (0..players)
        .map(|p| g.kinds.iter().map(|k| format!("{}{}", k.symbol, p + 1)).collect())
        .collect()
}

/// One line saying which glyph is which piece, e.g. `Orange: K Kitten,
/// C Cat · Gray: k Kitten, c Cat` (none for one kind of piece).
pub fn legend(g: &Game, colour: bool) -> Option<String> {
    if g.kinds.len() == 1 || g.board.is_empty() {
        return None;
    }
    let gl = glyphs(g);
    let parts: Vec<String> = g
        .players
        .iter()
        .enumerate()
        .map(|(p, _)| {
            let pieces: Vec<String> = g
                .kinds
                .iter()
                .enumerate()
                .map(|(k, kind)| format!("{} {}", paint(g, &gl[p][k], p, colour), kind.name))
                .collect();
            format!("{}: {}", player_name(g, p as u8, colour), pieces.join(", "))
        })
        .collect();
    Some(parts.join(" · "))
}

/// A player's name in their colour.
pub fn player_name(g: &Game, p: u8, colour: bool) -> String {
    paint(g, &g.players[p as usize], p as usize, colour)
}

/// The ANSI colour of a player: the colour it is named after, or one by seat.
fn colour_code(name: &str, seat: usize) -> &'static str {
    match name.to_ascii_lowercase().as_str() {
        "red" => "1;31",
        "green" => "1;32",
        "yellow" => "1;33",
        "blue" => "1;34",
        "purple" | "magenta" | "violet" => "1;35",
        "cyan" => "1;36",
        "white" => "1;97",
        "black" => "1;90",
        "orange" => "1;38;5;208",
        "gray" | "grey" => "1;38;5;250",
        "pink" => "1;38;5;213",
        "brown" => "1;38;5;130",
        _ => ["1;31", "1;34", "1;32", "1;35", "1;36", "1;33", "1;38;5;208", "1;97"][seat % 8],
    }
}

/// The colour code of player `p` of `g`.
fn code_of(g: &Game, p: usize) -> &'static str {
    colour_code(g.players.get(p).map_or("", String::as_str), p)
}

/// `text` in player `p`'s colour (as is without colours).
pub fn paint(g: &Game, text: &str, p: usize, colour: bool) -> String {
    if !colour {
        return text.to_string();
    }
    format!("\x1b[{}m{text}\x1b[0m", code_of(g, p))
}

/// `text` dimmed (as is without colours).
pub fn dim(text: &str, colour: bool) -> String {
    if colour {
        format!("\x1b[2m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// `text` in bold (as is without colours).
pub fn bold(text: &str, colour: bool) -> String {
    if colour {
        format!("\x1b[1m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The position drawn for `viewer`: the board with its marks, the zones,
/// and whose turn it is (without that last line when `tail` is false).
pub fn draw(
    g: &Game,
    s: &State,
    viewer: Viewer,
    marks: &Marks,
    colour: bool,
    tail: bool,
) -> String {
    let shown;
    let s = if s.pending().is_some() {
        shown = tabula::interp::reference::view(g, s).unwrap_or_else(|_| s.clone());
        &shown
    } else {
        s
    };
    let gl = glyphs(g);
    let width = gl.iter().flatten().map(|t| t.chars().count()).max().unwrap_or(1);
    // Each cell's text and its visible width (escape codes take none).
    let cell = |c: u16, name_if_empty: bool| -> (String, usize) {
        let last = marks.last.contains(&c);
        let target = marks.targets.contains(&c);
        let (text, p) = match s.piece(g, c) {
            Some((p, k)) => (gl[p as usize][k as usize].clone(), Some(p as usize)),
            None if target => ("+".to_string(), None),
            None if name_if_empty => (g.board.names[c as usize].clone(), None),
            None => (".".to_string(), None),
        };
        let n = text.chars().count();
        if !colour {
            return (text, n);
        }
        let mut codes = Vec::new();
        if let Some(p) = p {
            codes.push(code_of(g, p).to_string());
        } else if target {
            codes.push("1;32".to_string());
        } else {
            codes.push("2".to_string());
        }
        if last {
            codes.push("7".to_string());
        }
        if target && p.is_some() {
            codes.push("4".to_string());
        }
        (format!("\x1b[{}m{text}\x1b[0m", codes.join(";")), n)
    };
    let pad = |out: &mut String, (text, n): (String, usize), w: usize| {
        out.push(' ');
        out.push_str(&text);
        out.push_str(&" ".repeat(w.saturating_sub(n)));
    };
    let mut out = String::new();
    let lines_before = out.lines().count();
    match g.board.shape {
        Shape::Square { width: w, height: h, .. } => {
            for y in (0..h).rev() {
                out.push_str(&format!("{:>2} ", y + 1));
                for x in 0..w {
                    pad(&mut out, cell((y * w + x) as u16, false), width);
                }
                end_line(&mut out);
            }
            out.push_str("   ");
            for x in 0..w {
                pad(&mut out, (((b'a' + x as u8) as char).to_string(), 1), width);
            }
            end_line(&mut out);
        }
        Shape::Rhombus { width: w, height: h } => {
            let shift = |r: u32| " ".repeat(r as usize * (width + 1) / 2);
            out.push_str(&format!("   {}", shift(0)));
            for x in 0..w {
                pad(&mut out, (((b'a' + x as u8) as char).to_string(), 1), width);
            }
            end_line(&mut out);
            for r in 0..h {
                out.push_str(&format!("{:>2} {}", r + 1, shift(r)));
                for x in 0..w {
                    pad(&mut out, cell((r * w + x) as u16, false), width);
                }
                end_line(&mut out);
            }
        }
        Shape::None => {}
        Shape::Graph(ref spec) => {
            // The plain picture, each point's text painted over it.
            let w = width.max(g.board.names.iter().map(String::len).max().unwrap_or(1));
            let texts: Vec<(String, usize)> =
                (0..g.board.len() as u16).map(|c| cell(c, true)).collect();
            let plain_text = |c: u16| -> String {
                match s.piece(g, c) {
                    Some((p, k)) => gl[p as usize][k as usize].clone(),
                    None if marks.targets.contains(&c) => "+".to_string(),
                    None => g.board.names[c as usize].clone(),
                }
            };
            if spec.at.iter().any(Option::is_some) {
                let (grid, starts) = tabula::render::graph_grid(g, spec, w, &plain_text);
                for (r, row) in grid.iter().enumerate() {
                    let mut col = 0;
                    while col < row.len() {
                        match starts.iter().position(|&x| x == (r, col)) {
                            Some(c) => {
                                let (text, n) = &texts[c];
                                out.push_str(text);
                                col += n;
                            }
                            None => {
                                out.push(row[col]);
                                col += 1;
                            }
                        }
                    }
                    end_line(&mut out);
                }
            } else {
                for (i, t) in texts.into_iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push_str(&t.0);
                }
                end_line(&mut out);
            }
        }
        Shape::HexHex { side } => {
            let w = width.max(g.board.names.iter().map(String::len).max().unwrap_or(2));
            let n = side as i32 - 1;
            let mut c = 0u16;
            for r in -n..=n {
                let len = (2 * n + 1 - r.abs()) as usize;
                out.push_str(&" ".repeat(r.unsigned_abs() as usize * (w + 1) / 2));
                for _ in 0..len {
                    pad(&mut out, cell(c, true), w);
                    c += 1;
                }
                end_line(&mut out);
            }
        }
    }
    let board_lines = out.lines().count() - lines_before;
    // The zones and the last line as the plain drawing has them.
    let plain = render_for(g, s, viewer);
    let plain_board = match g.board.shape {
        Shape::Square { height, .. } | Shape::Rhombus { height, .. } => height as usize + 1,
        Shape::HexHex { side } => 2 * side as usize - 1,
        Shape::None => 0,
        Shape::Graph(ref spec) if spec.at.iter().any(Option::is_some) => {
            let ys = || g.board.coords.iter().map(|p| p.1);
            let span = ys().max().unwrap_or(0) - ys().min().unwrap_or(0);
            span as usize * 2 + 1
        }
        Shape::Graph(_) => 1,
    };
    debug_assert_eq!(board_lines, plain_board);
    let rest: Vec<&str> = plain.lines().skip(plain_board).collect();
    let keep = if tail { rest.len() } else { rest.len().saturating_sub(1) };
    for line in &rest[..keep] {
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn end_line(out: &mut String) {
    let keep = out.trim_end_matches(' ').len();
    out.truncate(keep);
    out.push('\n');
}

/// The cells named in `text` (a move in notation, or part of one): each
/// word that is a cell name, after any sign such as `+` (`c3 +d4`).
pub fn cells_in(g: &Game, text: &str) -> Vec<u16> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '-')
        .filter_map(|w| {
            let w = w.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
            let w = w.split(':').next().unwrap_or(w);
            g.board.cell(w)
        })
        .collect()
}
