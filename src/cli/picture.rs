//! Pictures: a position as SVG (`show --svg`) and a replayed game as one
//! self-contained HTML page that steps through SVG boards (`replay --html`).
//!
//! Every board shape is drawn from the board's own coordinates: square
//! cells, pointy-top hexagons for `hex W by H` and `hexhex N` (axial
//! coordinates), no board for card games. Pieces are discs in their
//! player's colour (a player named after a colour gets that colour) with
//! the kind's symbol; tiles fill the cells they cover. Zones are rows of
//! cards beside the board, hidden ones face down. The cells of the last
//! move are ringed. Elements carry `class` and `data-*` attributes (cell,
//! player, kind, zone), so tests and scripts can read the picture.

use tabula::board::Shape;
use tabula::wire::{observe, Viewer};
use tabula::{Game, State};

/// Cell size: the side of a square cell, the distance between hex centres.
const CELL: f64 = 44.0;
const MARGIN: f64 = 28.0;
const CARD_H: f64 = 40.0;

/// Colours players are named after, and the palette for the others.
const NAMED: &[(&str, &str)] = &[
    ("red", "#d62728"),
    ("blue", "#1f5fbf"),
    ("green", "#2ca02c"),
    ("yellow", "#f2c500"),
    ("orange", "#ff8c1a"),
    ("purple", "#7b3fa0"),
    ("black", "#222222"),
    ("white", "#f8f8f8"),
    ("gray", "#8c8c8c"),
    ("grey", "#8c8c8c"),
    ("brown", "#8c564b"),
    ("pink", "#e377c2"),
    ("cyan", "#17becf"),
];
const PALETTE: &[&str] =
    &["#1f5fbf", "#d62728", "#2ca02c", "#ff8c1a", "#7b3fa0", "#17becf", "#8c564b", "#e377c2"];

/// A player's colour.
fn colour(g: &Game, p: u8) -> &'static str {
    let name = g.players[p as usize].to_ascii_lowercase();
    NAMED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
        .unwrap_or(PALETTE[p as usize % PALETTE.len()])
}

/// Black or white, whichever reads better on `fill` (`#rrggbb`).
fn ink(fill: &str) -> &'static str {
    let v = |i: usize| u32::from_str_radix(fill.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    let luma = 0.299 * f64::from(v(1)) + 0.587 * f64::from(v(3)) + 0.114 * f64::from(v(5));
    if luma > 150.0 {
        "#111"
    } else {
        "#fff"
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Cell centres, with the drawing's size.
struct Layout {
    centres: Vec<(f64, f64)>,
    hex: bool,
    width: f64,
    height: f64,
}

fn layout(g: &Game) -> Layout {
    let hex = g.board.shape.is_hex();
    let raw: Vec<(f64, f64)> = g
        .board
        .coords
        .iter()
        .map(|&(x, y)| match g.board.shape {
            Shape::Square { height, .. } => {
                (f64::from(x) * CELL, f64::from(height as i32 - 1 - y) * CELL)
            }
            _ => {
                let (q, r) = (f64::from(x), f64::from(y));
                (CELL * (q + r / 2.0), CELL * 0.866_025_4 * r)
            }
        })
        .collect();
    if raw.is_empty() {
        return Layout { centres: raw, hex, width: 0.0, height: 0.0 };
    }
    let min_x = raw.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let min_y = raw.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
    let max_x = raw.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    let max_y = raw.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
    let half = CELL / 2.0;
    let centres =
        raw.iter().map(|&(x, y)| (x - min_x + MARGIN + half, y - min_y + MARGIN + half)).collect();
    Layout {
        centres,
        hex,
        width: max_x - min_x + CELL + 2.0 * MARGIN,
        height: max_y - min_y + CELL + 2.0 * MARGIN,
    }
}

/// The outline of a cell as SVG attributes.
fn cell_shape(l: &Layout, (x, y): (f64, f64)) -> String {
    if l.hex {
        // Pointy-top hexagon whose flat sides touch the neighbours'.
        let r = CELL / 3f64.sqrt();
        let points: Vec<String> = (0..6)
            .map(|k| {
                let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(k) - 30.0);
                format!("{:.1},{:.1}", x + r * a.cos(), y + r * a.sin())
            })
            .collect();
        format!("polygon points=\"{}\"", points.join(" "))
    } else {
        let h = CELL / 2.0;
        format!("rect x=\"{:.1}\" y=\"{:.1}\" width=\"{CELL}\" height=\"{CELL}\"", x - h, y - h)
    }
}

/// The position as SVG, as `viewer` may see it; `marked` cells are ringed.
pub fn svg(g: &Game, s: &State, viewer: Viewer, marked: &[u16]) -> String {
    let l = layout(g);
    let obs = observe(g, s, viewer);
    // The zones panel: one row per zone instance.
    let label_w = 8.0
        * obs
            .zones
            .iter()
            .map(|z| {
                z.zone.chars().count() + z.player.as_ref().map_or(0, |p| p.chars().count() + 1)
            })
            .max()
            .unwrap_or(0) as f64;
    let row_w =
        |z: &tabula::wire::ZoneView| cards(g, z).iter().map(|c| c.width() + 4.0).sum::<f64>();
    let widest = obs.zones.iter().map(row_w).fold(0.0, f64::max);
    let panel_w = if obs.zones.is_empty() { 0.0 } else { label_w + 12.0 + widest + MARGIN };
    let panel_h = obs.zones.len() as f64 * (CARD_H + 12.0) + MARGIN;
    let width = (l.width + panel_w).max(240.0);
    let height = l.height.max(panel_h) + 36.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tabula-board\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" data-game=\"{}\" data-cells=\"{}\">\n",
        esc(&g.name),
        g.board.len()
    );
    out.push_str(&format!(
        "<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"#fafaf7\"/>\n"
    ));
    let square = matches!(g.board.shape, Shape::Square { .. });
    let single_kind = g.kinds.len() == 1;
    for c in 0..g.board.len() {
        let centre = l.centres[c];
        let name = &g.board.names[c];
        let (fx, fy) = g.board.coords[c];
        let fill = if square && (fx + fy) % 2 == 0 { "#e8e3d6" } else { "#f3efe4" };
        let piece = s.piece(g, c as u16);
        let tile = piece.is_some_and(|(_, k)| g.kinds[k as usize].shape.is_some());
        let fill = match piece {
            Some((p, _)) if tile => colour(g, p),
            _ => fill,
        };
        out.push_str(&format!(
            "<{} class=\"cell\" data-cell=\"{}\" fill=\"{fill}\" stroke=\"#9a9484\" stroke-width=\"1\"/>\n",
            cell_shape(&l, centre),
            esc(name)
        ));
        let (x, y) = centre;
        match piece {
            Some((p, k)) => {
                let fill = colour(g, p);
                let kind = &g.kinds[k as usize];
                if !tile {
                    out.push_str(&format!(
                        "<circle class=\"piece\" data-cell=\"{}\" data-player=\"{}\" data-kind=\"{}\" \
                         cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"1.5\"/>\n",
                        esc(name),
                        esc(&g.players[p as usize]),
                        esc(&kind.name),
                        CELL * 0.36
                    ));
                } else {
                    out.push_str(&format!(
                        "<g class=\"piece tile\" data-cell=\"{}\" data-player=\"{}\" data-kind=\"{}\"></g>\n",
                        esc(name),
                        esc(&g.players[p as usize]),
                        esc(&kind.name)
                    ));
                }
                // One kind of piece: the disc says whose it is, if the
                // players have short names (X, O); else it stays plain.
                let text = match (single_kind && !tile, g.players[p as usize].chars().count() <= 2)
                {
                    (true, true) => g.players[p as usize].clone(),
                    (true, false) => String::new(),
                    (false, _) => kind.symbol.clone(),
                };
                if !text.is_empty() {
                    out.push_str(&format!(
                        "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\" \
                         fill=\"{}\" pointer-events=\"none\">{}</text>\n",
                        y + 5.0,
                        ink(fill),
                        esc(&text)
                    ));
                }
            }
            None => {
                out.push_str(&format!(
                    "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#a39d8d\" \
                     pointer-events=\"none\">{}</text>\n",
                    y + 3.0,
                    esc(name)
                ));
            }
        }
        if marked.contains(&(c as u16)) {
            out.push_str(&format!(
                "<{} class=\"last\" data-cell=\"{}\" fill=\"none\" stroke=\"#e6007e\" stroke-width=\"3.5\" pointer-events=\"none\"/>\n",
                cell_shape(&l, centre),
                esc(name)
            ));
        }
    }
    // Zones beside the board.
    let x0 = l.width + if l.width > 0.0 { 0.0 } else { MARGIN };
    for (i, z) in obs.zones.iter().enumerate() {
        let y = MARGIN + i as f64 * (CARD_H + 12.0);
        let owner = z.player.as_ref().map(|p| format!("{p} ")).unwrap_or_default();
        out.push_str(&format!(
            "<g class=\"zone\" data-zone=\"{}\" data-player=\"{}\" data-size=\"{}\">\n",
            esc(&z.zone),
            esc(z.player.as_deref().unwrap_or("")),
            z.size
        ));
        out.push_str(&format!(
            "<text x=\"{x0:.1}\" y=\"{:.1}\" font-size=\"13\" fill=\"#333\">{}</text>\n",
            y + CARD_H / 2.0 + 4.0,
            esc(&format!("{owner}{}", z.zone))
        ));
        let stroke = z
            .player
            .as_ref()
            .and_then(|p| g.players.iter().position(|q| q == p))
            .map_or("#555", |p| colour(g, p as u8));
        let mut cx = x0 + label_w + 12.0;
        for card in cards(g, z) {
            let card_w = card.width();
            let (fill, text, class) = match &card {
                Card::Back => ("#5a6b8c", String::new(), "card hidden"),
                Card::More(n) => ("none", format!("+{n}"), "card more"),
                Card::Face(sym, n) if *n > 1 => ("#fff", format!("{sym}×{n}"), "card"),
                Card::Face(sym, _) => ("#fff", sym.clone(), "card"),
            };
            out.push_str(&format!(
                "<rect class=\"{class}\" x=\"{cx:.1}\" y=\"{y:.1}\" width=\"{card_w:.0}\" height=\"{CARD_H}\" rx=\"4\" \
                 fill=\"{fill}\" stroke=\"{}\" stroke-width=\"1.5\"/>\n",
                if matches!(card, Card::More(_)) { "none" } else { stroke }
            ));
            if !text.is_empty() {
                let size = 12;
                out.push_str(&format!(
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"#222\">{}</text>\n",
                    cx + card_w / 2.0,
                    y + CARD_H / 2.0 + 4.0,
                    esc(&text)
                ));
            }
            cx += card_w + 4.0;
        }
        if z.size == 0 {
            out.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" fill=\"#999\">empty</text>\n",
                x0 + label_w + 12.0,
                y + CARD_H / 2.0 + 4.0
            ));
        }
        out.push_str("</g>\n");
    }
    // Whose turn, or the result.
    let status = match s.ended() {
        Some(o) => format!("game over: {}", o.describe(g)),
        None => format!("to move: {}", g.players[s.current() as usize]),
    };
    let mover = if s.ended().is_none() { colour(g, s.current()) } else { "#333" };
    out.push_str(&format!(
        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"7\" fill=\"{mover}\" stroke=\"#333\"/>\
         <text class=\"status\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"14\" fill=\"#222\">{}</text>\n",
        MARGIN,
        height - 18.0,
        MARGIN + 14.0,
        height - 13.0,
        esc(&status)
    ));
    out.push_str("</svg>\n");
    out
}

/// One card drawn in a zone row.
enum Card {
    /// A visible piece kind (symbol) and how many of it (counted zones).
    Face(String, usize),
    /// A face-down card.
    Back,
    /// This many more not drawn.
    More(usize),
}

impl Card {
    /// How wide the card is drawn: enough for its text.
    fn width(&self) -> f64 {
        let chars = match self {
            Card::Face(sym, n) if *n > 1 => sym.chars().count() + 1 + n.to_string().len(),
            Card::Face(sym, _) => sym.chars().count(),
            Card::Back | Card::More(_) => 0,
        };
        (7.5 * chars as f64 + 10.0).max(30.0)
    }
}

/// The cards of a zone: kinds in order (ordered zones, one card each) or
/// grouped with counts; face down when hidden; at most 16 drawn.
fn cards(g: &Game, z: &tabula::wire::ZoneView) -> Vec<Card> {
    const MOST: usize = 16;
    let symbol = |name: &str| {
        g.kinds.iter().find(|k| k.name == name).map_or(name.to_string(), |k| k.symbol.clone())
    };
    let ordered = g.zones.iter().any(|x| x.name == z.zone && x.ordered);
    let mut out = Vec::new();
    match &z.contents {
        None => {
            out.extend((0..z.size.min(MOST)).map(|_| Card::Back));
            if z.size > MOST {
                out.push(Card::More(z.size - MOST));
            }
        }
        Some(c) if ordered => {
            out.extend(c.iter().take(MOST).map(|k| Card::Face(symbol(k), 1)));
            if c.len() > MOST {
                out.push(Card::More(c.len() - MOST));
            }
        }
        Some(c) => {
            let mut i = 0;
            while i < c.len() {
                let n = c[i..].iter().take_while(|k| **k == c[i]).count();
                out.push(Card::Face(symbol(&c[i]), n));
                i += n;
            }
        }
    }
    out
}

/// The cells a move chose (cells and sets of cells, such as tiles).
pub fn move_cells(g: &Game, m: &tabula::Move) -> Vec<u16> {
    let mut out = Vec::new();
    for c in &m.choices {
        match c.value {
            tabula::ir::Value::Cell(x) if (x as usize) < g.board.len() => out.push(x),
            tabula::ir::Value::Cells(set) => out.extend(set.iter()),
            _ => {}
        }
    }
    out
}

/// One self-contained page that steps through `frames` (a caption and an
/// SVG each): buttons, arrow keys and a slider; `#step=N` in the address
/// opens step N.
pub fn html(title: &str, frames: &[(String, String)]) -> String {
    let mut out =
        String::from("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.push_str(&format!("<title>{}</title>\n", esc(title)));
    out.push_str(
        "<style>body{font-family:sans-serif;margin:1.5em;background:#f4f2ec;color:#222}\
         .frame{display:none}.frame.shown{display:block}\
         nav{margin:.8em 0;display:flex;gap:.6em;align-items:center}\
         button{font-size:1em;padding:.3em .9em}#caption{font-weight:bold;min-width:14em}\
         </style>\n</head><body>\n",
    );
    out.push_str(&format!("<h1>{}</h1>\n", esc(title)));
    out.push_str(&format!(
        "<nav><button id=\"back\" title=\"back (←)\">◀ back</button>\
         <button id=\"forward\" title=\"forward (→)\">forward ▶</button>\
         <input id=\"slider\" type=\"range\" min=\"0\" max=\"{}\" value=\"0\">\
         <span id=\"caption\"></span> <span id=\"counter\"></span></nav>\n",
        frames.len().saturating_sub(1)
    ));
    for (i, (caption, svg)) in frames.iter().enumerate() {
        out.push_str(&format!(
            "<div class=\"frame\" data-step=\"{i}\" data-caption=\"{}\">\n{svg}</div>\n",
            esc(caption)
        ));
    }
    out.push_str(
        r#"<script>
(function () {
  var frames = document.querySelectorAll('.frame');
  var slider = document.getElementById('slider');
  var step = 0;
  function show(i) {
    step = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach(function (f, j) { f.classList.toggle('shown', j === step); });
    slider.value = step;
    document.getElementById('caption').textContent = frames[step].dataset.caption;
    document.getElementById('counter').textContent = '(' + step + ' / ' + (frames.length - 1) + ')';
    document.body.dataset.step = step;
  }
  document.getElementById('back').onclick = function () { show(step - 1); };
  document.getElementById('forward').onclick = function () { show(step + 1); };
  slider.oninput = function () { show(Number(slider.value)); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') show(step - 1);
    if (e.key === 'ArrowRight') show(step + 1);
  });
  var m = /step=(\d+)/.exec(location.hash);
  show(m ? Number(m[1]) : 0);
  // `#clicks=ffb`: press forward, forward, back (used by the tests).
  var c = /clicks=([fb]+)/.exec(location.hash);
  if (c) c[1].split('').forEach(function (k) {
    document.getElementById(k === 'f' ? 'forward' : 'back').click();
  });
})();
</script>
</body></html>
"#,
    );
    out
}
