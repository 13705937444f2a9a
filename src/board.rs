//! Board geometry, computed once per game: cell names, direction steps and
//! the straight lines of every length the game asks for.
//!
//! Cells are small integers (`CellId`). Square boards number cells row by row
//! from the bottom-left (`a1` = 0, `b1` = 1, ...); hexhex boards row by row
//! from the top row (`a1` is the leftmost cell of the top row).

use std::collections::BTreeMap;
use std::collections::HashMap;

/// A cell index; [`NO_CELL`] means "off the board".
pub type CellId = u16;
/// The "off the board" cell.
pub const NO_CELL: CellId = u16::MAX;
/// The most cells a board may have (the width of [`CellSet`]).
pub const MAX_CELLS: usize = 256;

/// A set of cells as a fixed-size bitset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CellSet(pub [u64; 4]);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet([0; 4]);

    /// Adds a cell.
    pub fn insert(&mut self, c: CellId) {
        self.0[(c >> 6) as usize & 3] |= 1 << (c & 63);
    }

    /// Removes a cell.
    pub fn remove(&mut self, c: CellId) {
        self.0[(c >> 6) as usize & 3] &= !(1 << (c & 63));
    }

    /// Whether the set holds the cell (false for [`NO_CELL`]).
    pub fn contains(&self, c: CellId) -> bool {
        c != NO_CELL && self.0[(c >> 6) as usize & 3] & (1 << (c & 63)) != 0
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = CellId> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some((i as u32 * 64 + b) as CellId)
            })
        })
    }

    /// The smallest cell, if any.
    pub fn first(&self) -> Option<CellId> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| (i as u32 * 64 + w.trailing_zeros()) as CellId)
    }

    /// The `n`-th smallest cell, if any.
    pub fn nth(&self, n: usize) -> Option<CellId> {
        self.iter().nth(n)
    }
}

/// The board's shape as declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// `square W by H with N neighbours` (N is 4 or 8).
    Square {
        /// Files.
        width: u32,
        /// Ranks.
        height: u32,
        /// 4 or 8.
        neighbours: u32,
    },
    /// `hexhex N`: a hexagon of hexagons with N cells per side.
    HexHex {
        /// Cells per side.
        side: u32,
    },
    /// No board at all (card games): no cells.
    None,
    /// `hex W by H`: a rhombus of hexagons (as in the game of Hex).
    Rhombus {
        /// Cells per row.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// `graph { ... }`: named points joined by links.
    Graph(Box<GraphSpec>),
}

/// A graph board, its names resolved: points, links, lines, layout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GraphSpec {
    /// Point names, in declaration order (the cell ids).
    pub names: Vec<String>,
    /// Layout coordinates for drawing, where given.
    pub at: Vec<Option<(i32, i32)>>,
    /// Direction names, in order of first use.
    pub dirs: Vec<String>,
    /// Links `(a, b, forward, backward)`: from `a` in direction `forward`
    /// is `b`, from `b` in direction `backward` is `a` (when named).
    pub links: Vec<(CellId, CellId, Option<u8>, Option<u8>)>,
    /// Declared lines, their points in order.
    pub lines: Vec<Vec<CellId>>,
}

impl Shape {
    /// Whether the cells are hexagons.
    pub fn is_hex(&self) -> bool {
        matches!(self, Shape::HexHex { .. } | Shape::Rhombus { .. })
    }
}

/// Coordinates, names, direction names, direction vectors, line axes.
type Geometry = (Vec<(i32, i32)>, Vec<String>, Vec<String>, Vec<(i32, i32)>, Vec<usize>);

fn dir_list(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Cells `(column, row)` from 0, named column letter + row number from 1
/// (`a1`, `b1`, ...): square boards and hex rhombi alike.
fn letter_grid(width: u32, height: u32) -> (Vec<(i32, i32)>, Vec<String>) {
    let mut coords = Vec::new();
    let mut names = Vec::new();
    for y in 0..height as i32 {
        for x in 0..width as i32 {
            coords.push((x, y));
            names.push(format!("{}{}", (b'a' + x as u8) as char, y + 1));
        }
    }
    (coords, names)
}

/// The six axial directions of every hex board, and its three line axes.
fn hex_geometry(coords: Vec<(i32, i32)>, names: Vec<String>) -> Geometry {
    (
        coords,
        names,
        dir_list(&["e", "ne", "nw", "w", "sw", "se"]),
        vec![(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)],
        vec![0, 1, 5],
    )
}

/// A straight run of cells along one axis.
#[derive(Debug, Clone)]
pub struct Line {
    /// The cells in order along the axis.
    pub cells: Vec<CellId>,
    /// The same cells as a set.
    pub set: CellSet,
    /// Its prefixes of 1 to `len - 1` cells, as lines (see
    /// [`Board::prefix`]); empty until prefixes are made.
    pub prefixes: Vec<u32>,
    /// 1 when cell ids increase along the line, 2 when they decrease, 0
    /// otherwise (its first cell in a set is then found by a bit scan).
    pub order: u8,
}

/// Precomputed geometry of one board.
#[derive(Debug, Clone)]
pub struct Board {
    /// The declared shape.
    pub shape: Shape,
    /// Cell names, indexed by cell id.
    pub names: Vec<String>,
    /// Cell coordinates: `(file, rank)` from 0 on square boards, axial `(q, r)` on hex boards.
    pub coords: Vec<(i32, i32)>,
    /// Direction names, indexed by direction id.
    pub dir_names: Vec<String>,
    /// Directions whose lines are counted (one of each opposite pair).
    axes: Vec<usize>,
    step: Vec<CellId>,
    /// All lines of the lengths requested, grouped by length.
    pub lines: Vec<Line>,
    /// On boards of up to 64 cells: each line as one word (same ids as `lines`).
    pub line_masks: Vec<u64>,
    line_ranges: BTreeMap<u32, (u32, u32)>,
    all: CellSet,
    by_file_rank: BTreeMap<(i64, i64), CellId>,
    by_coord: BTreeMap<(i32, i32), CellId>,
    /// The cells linked to each cell (graph boards: links without a
    /// direction name too).
    adj: Vec<CellSet>,
    /// Every line's cells, to find a line that exists already.
    seen: HashMap<Vec<CellId>, u32>,
    /// `rays[c * dirs + d]`: the ray from `c` in direction `d` (once made).
    pub rays: Vec<u32>,
    /// The line of no cells (once made).
    pub empty_line: Option<u32>,
    /// Lines up to this id have their prefixes made.
    prefixed: u32,
}

impl Board {
    /// The number of cells of a shape, computed without building it
    /// (`None` if it does not even fit in 64 bits).
    pub fn cells_of(shape: &Shape) -> Option<u64> {
        match *shape {
            Shape::Square { width, height, .. } | Shape::Rhombus { width, height } => {
                u64::from(width).checked_mul(u64::from(height))
            }
            // 3n(n-1) + 1 cells.
            Shape::HexHex { side } => {
                let n = u64::from(side);
                n.checked_mul(n.saturating_sub(1))?.checked_mul(3)?.checked_add(1)
            }
            Shape::None => Some(0),
            Shape::Graph(ref g) => Some(g.names.len() as u64),
        }
    }

    /// Builds the geometry; `Err` explains why the shape is not allowed.
    /// The size is checked before anything is allocated.
    pub fn new(shape: Shape) -> Result<Board, String> {
        match Board::cells_of(&shape) {
            Some(n) if n <= MAX_CELLS as u64 => {}
            Some(n) => return Err(format!("a board has at most {MAX_CELLS} cells, this one {n}")),
            None => return Err(format!("a board has at most {MAX_CELLS} cells")),
        }
        let (coords, names, dir_names, dir_vecs, axes): Geometry = match shape {
            Shape::Square { width, height, neighbours } => {
                if width == 0 || height == 0 || width > 26 {
                    return Err("a square board has 1 to 26 files and at least 1 rank".into());
                }
                let (coords, names) = letter_grid(width, height);
                let (dn, dv, axes) = match neighbours {
                    4 => (
                        dir_list(&["n", "e", "s", "w"]),
                        vec![(0, 1), (1, 0), (0, -1), (-1, 0)],
                        vec![1, 0],
                    ),
                    8 => (
                        dir_list(&["n", "ne", "e", "se", "s", "sw", "w", "nw"]),
                        vec![(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)],
                        vec![2, 0, 1, 3],
                    ),
                    _ => return Err("a square board has 4 or 8 neighbours".into()),
                };
                (coords, names, dn, dv, axes)
            }
            Shape::None => (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new()),
            Shape::Graph(ref g) => {
                if g.names.is_empty() {
                    return Err("a graph board needs at least one point".into());
                }
                let coords: Vec<(i32, i32)> =
                    g.at.iter().enumerate().map(|(i, p)| p.unwrap_or((i as i32, 0))).collect();
                (coords, g.names.clone(), g.dirs.clone(), Vec::new(), Vec::new())
            }
            Shape::Rhombus { width, height } => {
                if width == 0 || height == 0 || width > 26 {
                    return Err("a hex board has 1 to 26 columns and at least 1 row".into());
                }
                let (coords, names) = letter_grid(width, height);
                hex_geometry(coords, names)
            }
            Shape::HexHex { side } => {
                if side == 0 || side > 13 {
                    return Err("a hexhex board has a side of 1 to 13".into());
                }
                let n = side as i32 - 1;
                let mut coords = Vec::new();
                let mut names = Vec::new();
                for r in -n..=n {
                    let qmin = (-n).max(-n - r);
                    let qmax = n.min(n - r);
                    for q in qmin..=qmax {
                        coords.push((q, r));
                        let row = (b'a' + (r + n) as u8) as char;
                        names.push(format!("{row}{}", q - qmin + 1));
                    }
                }
                hex_geometry(coords, names)
            }
        };
        if coords.len() > MAX_CELLS {
            return Err(format!("a board has at most {MAX_CELLS} cells"));
        }
        let index: BTreeMap<(i32, i32), CellId> =
            coords.iter().enumerate().map(|(i, &c)| (c, i as CellId)).collect();
        let ndirs = dir_names.len();
        let mut step = Vec::with_capacity(coords.len() * ndirs);
        let mut adj = vec![CellSet::EMPTY; coords.len()];
        if let Shape::Graph(g) = &shape {
            step.resize(coords.len() * ndirs, NO_CELL);
            for &(a, b, fwd, back) in &g.links {
                adj[a as usize].insert(b);
                adj[b as usize].insert(a);
                if let Some(d) = fwd {
                    step[a as usize * ndirs + d as usize] = b;
                }
                if let Some(d) = back {
                    step[b as usize * ndirs + d as usize] = a;
                }
            }
        } else {
            for (i, &(x, y)) in coords.iter().enumerate() {
                for &(dx, dy) in &dir_vecs {
                    let n = index.get(&(x + dx, y + dy)).copied().unwrap_or(NO_CELL);
                    step.push(n);
                    if n != NO_CELL {
                        adj[i].insert(n);
                    }
                }
            }
        }
        let mut all = CellSet::EMPTY;
        for c in 0..coords.len() {
            all.insert(c as CellId);
        }
        let mut board = Board {
            shape,
            names,
            coords,
            dir_names,
            axes,
            step,
            lines: Vec::new(),
            line_masks: Vec::new(),
            line_ranges: BTreeMap::new(),
            all,
            by_file_rank: BTreeMap::new(),
            by_coord: index,
            adj,
            seen: HashMap::new(),
            rays: Vec::new(),
            empty_line: None,
            prefixed: 0,
        };
        board.by_file_rank = (0..board.len() as CellId).map(|c| (board.file_rank(c), c)).collect();
        Ok(board)
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the board has no cells (never true for a checked game).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Words per cell set on this board for the compiled evaluator: 1 up to
    /// 64 cells, 2 up to 128, 4 beyond; 0 without a board.
    pub fn set_words(&self) -> usize {
        match self.len() {
            0 => 0,
            1..=64 => 1,
            65..=128 => 2,
            _ => 4,
        }
    }

    /// The directions whose lines are counted, in line order.
    pub fn axes(&self) -> &[usize] {
        &self.axes
    }

    /// Every line length requested, with its range of line ids.
    pub fn line_lengths(&self) -> impl Iterator<Item = (u32, (u32, u32))> + '_ {
        self.line_ranges.iter().map(|(k, r)| (*k, *r))
    }

    /// Number of directions (4, 6 or 8; any number on a graph board).
    pub fn dirs(&self) -> usize {
        self.dir_names.len()
    }

    /// All cells.
    pub fn all(&self) -> CellSet {
        self.all
    }

    /// The neighbour of `c` in direction `d`, or [`NO_CELL`].
    #[inline]
    pub fn step(&self, c: CellId, d: usize) -> CellId {
        if c == NO_CELL {
            return NO_CELL;
        }
        self.step.get(c as usize * self.dirs() + d).copied().unwrap_or(NO_CELL)
    }

    /// The neighbours of `c` (the cells linked to it on a graph board).
    pub fn neighbours(&self, c: CellId) -> CellSet {
        self.adj.get(c as usize).copied().unwrap_or(CellSet::EMPTY)
    }

    /// The cell with this name (case-insensitive).
    pub fn cell(&self, name: &str) -> Option<CellId> {
        self.names.iter().position(|n| n.eq_ignore_ascii_case(name)).map(|i| i as CellId)
    }

    /// Precomputes the lines of `len` cells (idempotent).
    pub fn add_lines(&mut self, len: u32) {
        if self.line_ranges.contains_key(&len) || len == 0 {
            return;
        }
        let start = self.lines.len() as u32;
        if let Shape::Graph(g) = &self.shape {
            let declared = g.lines.clone();
            for l in declared {
                for w in l.windows(len as usize) {
                    self.push_line(w.to_vec());
                }
            }
            self.line_ranges.insert(len, (start, self.lines.len() as u32));
            return;
        }
        for c in 0..self.len() as CellId {
            for a in self.axes.clone() {
                let mut cells = vec![c];
                let mut cur = c;
                while cells.len() < len as usize {
                    cur = self.step(cur, a);
                    if cur == NO_CELL {
                        break;
                    }
                    cells.push(cur);
                }
                if cells.len() == len as usize {
                    self.push_line(cells);
                }
            }
        }
        self.line_ranges.insert(len, (start, self.lines.len() as u32));
    }

    /// Adds a line (always a new id); returns it.
    fn push_line(&mut self, cells: Vec<CellId>) -> u32 {
        let mut set = CellSet::EMPTY;
        for &x in &cells {
            set.insert(x);
        }
        if self.len() <= 64 {
            self.line_masks.push(set.0[0]);
        }
        let order = if cells.windows(2).all(|w| w[0] < w[1]) {
            1
        } else if cells.windows(2).all(|w| w[0] > w[1]) {
            2
        } else {
            0
        };
        let id = self.lines.len() as u32;
        self.seen.entry(cells.clone()).or_insert(id);
        self.lines.push(Line { cells, set, prefixes: Vec::new(), order });
        id
    }

    /// The line with exactly these cells in this order: an existing one, or
    /// a new one.
    pub fn line_of(&mut self, cells: Vec<CellId>) -> u32 {
        match self.seen.get(&cells) {
            Some(&id) => id,
            None => self.push_line(cells),
        }
    }

    /// Makes the rays (idempotent): from every cell in every direction, the
    /// cells stepped to one after another up to the edge (on a graph board,
    /// until a point comes round again).
    pub fn add_rays(&mut self) {
        if !self.rays.is_empty() || self.is_empty() {
            return;
        }
        let (n, dirs) = (self.len(), self.dirs());
        let mut rays = Vec::with_capacity(n * dirs);
        for c in 0..n as CellId {
            for d in 0..dirs {
                let mut cells = Vec::new();
                let mut seen = CellSet::EMPTY;
                seen.insert(c);
                let mut x = self.step(c, d);
                while x != NO_CELL && !seen.contains(x) {
                    seen.insert(x);
                    cells.push(x);
                    x = self.step(x, d);
                }
                rays.push(self.line_of(cells));
            }
        }
        self.rays = rays;
        self.empty_line = Some(self.line_of(Vec::new()));
    }

    /// The ray from `c` in direction `d` (see [`Board::add_rays`]).
    pub fn ray(&self, c: CellId, d: usize) -> u32 {
        if c == NO_CELL {
            return self.empty_line.unwrap_or(0);
        }
        self.rays.get(c as usize * self.dirs() + d).copied().unwrap_or(0)
    }

    /// Makes the prefixes of every line so far (idempotent): each line's
    /// first `k` cells are a line too, for `upto` and `before`.
    pub fn add_prefixes(&mut self) {
        if self.empty_line.is_none() {
            self.empty_line = Some(self.line_of(Vec::new()));
        }
        let mut l = self.prefixed as usize;
        // A prefix is found among the lines (or added, then prefixed in turn:
        // its own prefixes exist by then), so each distinct run is one line.
        while l < self.lines.len() {
            let cells = self.lines[l].cells.clone();
            let pre: Vec<u32> =
                (1..cells.len()).map(|k| self.line_of(cells[..k].to_vec())).collect();
            self.lines[l].prefixes = pre;
            l += 1;
        }
        self.prefixed = self.lines.len() as u32;
    }

    /// The first `k` cells of line `l` as a line (`l` itself when `k` is
    /// its length or more, the empty line when `k` is 0).
    pub fn prefix(&self, l: u32, k: usize) -> u32 {
        let Some(line) = self.lines.get(l as usize) else { return l };
        if k >= line.cells.len() {
            l
        } else if k == 0 {
            self.empty_line.unwrap_or(l)
        } else {
            line.prefixes.get(k - 1).copied().unwrap_or(l)
        }
    }

    /// The range of line ids of length `len` (empty if never requested).
    pub fn lines_of(&self, len: u32) -> (u32, u32) {
        self.line_ranges.get(&len).copied().unwrap_or((0, 0))
    }

    /// The column and row of a cell, from 1: file and rank on square
    /// boards, column and row on `hex W by H`, position in its row and row
    /// (from the top) on `hexhex`.
    pub fn file_rank(&self, c: CellId) -> (i64, i64) {
        let (x, y) = self.coords[c as usize];
        match self.shape {
            Shape::Square { .. } | Shape::Rhombus { .. } | Shape::None | Shape::Graph(_) => {
                (i64::from(x) + 1, i64::from(y) + 1)
            }
            Shape::HexHex { side } => {
                let n = side as i32 - 1;
                let qmin = (-n).max(-n - y);
                (i64::from(x - qmin) + 1, i64::from(y + n) + 1)
            }
        }
    }

    /// The cell at a file and rank (see [`Board::file_rank`]), or [`NO_CELL`].
    pub fn cell_at(&self, file: i64, rank: i64) -> CellId {
        self.by_file_rank.get(&(file, rank)).copied().unwrap_or(NO_CELL)
    }

    /// The canonical form of a set of cells under the board's symmetries
    /// (translation, rotation, reflection: 12 on hex grids, 8 on square
    /// ones): the smallest sorted, translated coordinate list among all
    /// images. Two sets have the same shape iff their canonical forms agree.
    pub fn canonical(&self, cells: &CellSet) -> Vec<(i32, i32)> {
        let pts: Vec<(i32, i32)> = cells.iter().map(|c| self.coords[c as usize]).collect();
        let mut best: Option<Vec<(i32, i32)>> = None;
        let mut img = Vec::with_capacity(pts.len());
        for t in 0..if self.shape.is_hex() { 12 } else { 8 } {
            img.clear();
            img.extend(pts.iter().map(|&p| self.transform(t, p)));
            let (mx, my) =
                img.iter().fold((i32::MAX, i32::MAX), |(a, b), &(x, y)| (a.min(x), b.min(y)));
            for p in img.iter_mut() {
                *p = (p.0 - mx, p.1 - my);
            }
            img.sort_unstable();
            if best.as_ref().is_none_or(|b| img < *b) {
                best = Some(img.clone());
            }
        }
        best.unwrap_or_default()
    }

    /// Every distinct set of cells that `shape` (coordinates in one
    /// orientation) covers under the board's symmetries and translations,
    /// lying wholly on the board; sorted by their cells.
    pub fn placements(&self, shape: &[(i32, i32)]) -> Vec<CellSet> {
        let Some(&first) = shape.first() else { return Vec::new() };
        // A dense index of the coordinates (faster than the map).
        let (x0, y0) =
            self.coords.iter().fold((i32::MAX, i32::MAX), |a, c| (a.0.min(c.0), a.1.min(c.1)));
        let (x1, y1) =
            self.coords.iter().fold((i32::MIN, i32::MIN), |a, c| (a.0.max(c.0), a.1.max(c.1)));
        let (w, h) = ((x1 - x0 + 1).max(0), (y1 - y0 + 1).max(0));
        let mut grid = vec![NO_CELL; (w * h) as usize];
        for (i, &(x, y)) in self.coords.iter().enumerate() {
            grid[((y - y0) * w + (x - x0)) as usize] = i as CellId;
        }
        let at = |x: i32, y: i32| -> CellId {
            if x < x0 || y < y0 || x > x1 || y > y1 {
                return NO_CELL;
            }
            grid[((y - y0) * w + (x - x0)) as usize]
        };
        let mut found: Vec<Vec<CellId>> = Vec::new();
        for t in 0..self.symmetries() {
            let img: Vec<(i32, i32)> = shape.iter().map(|&p| self.transform(t, p)).collect();
            let f = self.transform(t, first);
            for &(ax, ay) in &self.coords {
                let mut set = CellSet::EMPTY;
                let fits = img.iter().all(|&(x, y)| {
                    let c = at(x - f.0 + ax, y - f.1 + ay);
                    set.insert(c);
                    c != NO_CELL
                });
                if fits {
                    found.push(set.iter().collect());
                }
            }
        }
        // Sorted by their cells, each once.
        found.sort_unstable();
        found.dedup();
        found
            .into_iter()
            .map(|cells| {
                let mut s = CellSet::EMPTY;
                for c in cells {
                    s.insert(c);
                }
                s
            })
            .collect()
    }

    /// A number that two sets of cells share exactly when they have the
    /// same shape (some symmetry of one, translated, is the other): the
    /// least, over the board's symmetries, of the image's cells as a bit
    /// mask of an 8 × 8 box at its corner. `None` when a set has more than
    /// 8 cells or an image does not fit the box ([`Board::same_shape`]
    /// answers those). The symmetries form a group, so the images of two
    /// sets of one shape are the same masks.
    pub fn shape_code(&self, cells: &[CellId]) -> Option<u64> {
        let mut pts = [(0, 0); 8];
        for (slot, &c) in pts.iter_mut().zip(cells) {
            *slot = *self.coords.get(c as usize)?;
        }
        let pts = pts.get(..cells.len())?;
        let mut best = u64::MAX;
        for t in 0..self.symmetries() {
            best = best.min(box_mask(pts.iter().map(|&p| self.transform(t, p)))?);
        }
        Some(best)
    }

    /// Whether two sets of cells have the same shape: some symmetry of `b`,
    /// translated, is `a`. Small sets are compared without allocating.
    pub fn same_shape(&self, a: &CellSet, b: &CellSet) -> bool {
        const SMALL: usize = 32;
        let n = a.len();
        if n != b.len() {
            return false;
        }
        if n > SMALL {
            return self.canonical(a) == self.canonical(b);
        }
        if n <= 8 {
            // Small shapes fit an 8 x 8 box: compare them as bit masks of
            // their normalised cells, with no sorting.
            let ma = box_mask(a.iter().map(|c| self.coords[c as usize]));
            if let Some(ma) = ma {
                let mut all_fit = true;
                for t in 0..self.symmetries() {
                    match box_mask(b.iter().map(|c| self.transform(t, self.coords[c as usize]))) {
                        Some(mb) if mb == ma => return true,
                        Some(_) => {}
                        None => all_fit = false,
                    }
                }
                if all_fit {
                    return false;
                }
            }
        }
        let normalise = |pts: &mut [(i32, i32)]| {
            let (mx, my) =
                pts.iter().fold((i32::MAX, i32::MAX), |(a, b), &(x, y)| (a.min(x), b.min(y)));
            for p in pts.iter_mut() {
                *p = (p.0 - mx, p.1 - my);
            }
            pts.sort_unstable();
        };
        let mut pa = [(0, 0); SMALL];
        for (slot, c) in pa.iter_mut().zip(a.iter()) {
            *slot = self.coords[c as usize];
        }
        normalise(&mut pa[..n]);
        let mut pb = [(0, 0); SMALL];
        for t in 0..if self.shape.is_hex() { 12 } else { 8 } {
            for (slot, c) in pb.iter_mut().zip(b.iter()) {
                *slot = self.transform(t, self.coords[c as usize]);
            }
            normalise(&mut pb[..n]);
            if pb[..n] == pa[..n] {
                return true;
            }
        }
        false
    }

    /// The number of symmetries of the grid: 12 on hex boards, 8 on square ones.
    pub fn symmetries(&self) -> usize {
        if self.shape.is_hex() {
            12
        } else {
            8
        }
    }

    /// The cells a tile covers in orientation `t` (see [`Board::symmetries`])
    /// with its first listed cell on `anchor`, if they all lie on the board.
    pub fn image(&self, shape: &[(i32, i32)], t: usize, anchor: CellId) -> Option<CellSet> {
        let first = self.transform(t, *shape.first()?);
        let (ax, ay) = *self.coords.get(anchor as usize)?;
        let mut set = CellSet::EMPTY;
        for &p in shape {
            let (x, y) = self.transform(t, p);
            set.insert(*self.by_coord.get(&(x - first.0 + ax, y - first.1 + ay))?);
        }
        Some(set)
    }

    /// Symmetry number `t` applied to a point: rotations, then reflected rotations.
    fn transform(&self, t: usize, (x, y): (i32, i32)) -> (i32, i32) {
        if self.shape.is_hex() {
            // Axial (q, r) as cube (q, -q-r, r); a 60° turn maps (x, y, z) to (-z, -x, -y).
            let (mut cx, mut cy, mut cz) = (x, -x - y, y);
            if t >= 6 {
                std::mem::swap(&mut cy, &mut cz);
            }
            for _ in 0..t % 6 {
                (cx, cy, cz) = (-cz, -cx, -cy);
            }
            (cx, cz)
        } else {
            let (mut a, b) = if t >= 4 { (-x, y) } else { (x, y) };
            let mut b = b;
            for _ in 0..t % 4 {
                (a, b) = (-b, a);
            }
            (a, b)
        }
    }

    /// The name of a line: its end cells joined by `-`, e.g. `b2-d4`.
    pub fn line_name(&self, l: u32) -> String {
        let cells = &self.lines[l as usize].cells;
        match (cells.first(), cells.last()) {
            (Some(&a), Some(&b)) if cells.len() > 1 => {
                format!("{}-{}", self.names[a as usize], self.names[b as usize])
            }
            (Some(&a), _) => self.names[a as usize].clone(),
            _ => String::new(),
        }
    }
}

/// Up to 8 points as a bit mask of an 8 × 8 box at their lowest corner
/// (bit `8 dy + dx`); `None` when they do not fit it or are more than 8.
fn box_mask(pts: impl Iterator<Item = (i32, i32)>) -> Option<u64> {
    let mut buf = [(0, 0); 8];
    let mut k = 0;
    let (mut mx, mut my) = (i32::MAX, i32::MAX);
    for p in pts {
        *buf.get_mut(k)? = p;
        k += 1;
        mx = mx.min(p.0);
        my = my.min(p.1);
    }
    let mut m = 0u64;
    for &(x, y) in &buf[..k] {
        let (dx, dy) = (x - mx, y - my);
        if dx >= 8 || dy >= 8 {
            return None;
        }
        m |= 1 << (dy * 8 + dx);
    }
    Some(m)
}
