//! The game tree as the page draws it: node numbers (file order) ↔ ids,
//! and the layout in columns and rows, sent a window at a time.
//!
//! Nothing here holds a record per node. A node's column is its depth (a
//! first child and a variation both go one column right of the parent),
//! and its row is that of its *line*: a node that is not a first child
//! (or the root) and its chain of first children. In file order (pre-order)
//! a line's nodes have consecutive numbers, so a table of lines places
//! every node. Numbers ↔ ids are runs of consecutive numbers with
//! consecutive ids: a game as parsed is one run, each edit adds a few.

use std::collections::{BTreeMap, HashMap};

use sgf_core::{Color, Document, NodeId};
use sgf_go::coords::BoardSize;
use sgf_go::edit::node_move;

use crate::responses::{TreeLayout, TreeLink, TreeNode};

/// The nodes of one game by number (file order, from 0) and back.
#[derive(Debug, Default)]
pub(crate) struct Numbering {
    /// Runs of consecutive numbers with consecutive ids, by number.
    runs: Vec<Run>,
    /// Indices into `runs`, by their first id.
    by_id: Vec<u32>,
    len: usize,
}

#[derive(Clone, Copy, Debug)]
struct Run {
    number: u32,
    id: u32,
    len: u32,
}

impl Numbering {
    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The node numbered `k`.
    pub(crate) fn id(&self, doc: &Document, k: usize) -> Option<NodeId> {
        let k = u32::try_from(k).ok()?;
        let r = self.runs[..self.runs.partition_point(|r| r.number <= k)].last()?;
        (k - r.number < r.len)
            .then(|| doc.node_id((r.id + (k - r.number)) as usize))
            .flatten()
    }

    /// The number of `id`, when it is a node of the game.
    pub(crate) fn number(&self, id: NodeId) -> Option<usize> {
        let i = u32::try_from(id.index()).ok()?;
        let at = self
            .by_id
            .partition_point(|&r| self.runs[r as usize].id <= i);
        let r = self.runs[*self.by_id[..at].last()? as usize];
        (i - r.id < r.len).then_some((r.number + (i - r.id)) as usize)
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.runs.capacity() * std::mem::size_of::<Run>() + self.by_id.capacity() * 4
    }
}

/// A line of the layout: a node that is not a first child (or the root)
/// and its first children, in one row.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// The number of its first node (its others follow in file order).
    start: u32,
    len: u32,
    /// The column of its first node (its depth).
    col: u32,
    row: u32,
    /// The row of its first node's parent (`NO_ROW` for the root).
    prow: u32,
}

impl Line {
    fn end(&self) -> u32 {
        self.col + self.len - 1
    }
}

const NO_ROW: u32 = u32::MAX;

/// The connector of a node with variations: from it (`col`, `top`) down
/// to its variation in the lowest row (`bottom`).
#[derive(Clone, Copy, Debug)]
struct Fork {
    col: u32,
    top: u32,
    bottom: u32,
    /// Of the forks in this column up to this one (by `top`), the index of
    /// the one reaching lowest: it covers the others where they pass
    /// through a window above which they start.
    lowest: u32,
}

/// The layout of one game's tree: where each line goes (see the module's
/// documentation), found as Sabaki does it.
#[derive(Debug, Default)]
pub(crate) struct Layout {
    /// In file order of their first nodes.
    lines: Vec<Line>,
    /// Per row `r`, `row_lines[row_start[r]..row_start[r + 1]]`: its lines
    /// (indices into `lines`) by column.
    row_start: Vec<u32>,
    row_lines: Vec<u32>,
    /// By column, then `top`.
    forks: Vec<Fork>,
    width: u32,
}

/// The game's nodes in file order as `f(id, depth, first_child)`, `false`
/// for the root; by the tree's links, without a stack.
fn walk(doc: &Document, root: NodeId, mut f: impl FnMut(NodeId, u32, bool)) {
    let mut n = doc.node(root);
    let mut depth = 0u32;
    let mut first = false;
    loop {
        f(n.id(), depth, first);
        if let Some(c) = n.first_child() {
            n = c;
            depth += 1;
            first = true;
            continue;
        }
        loop {
            if n.id() == root {
                return;
            }
            if let Some(s) = n.next_sibling() {
                n = s;
                first = false;
                break;
            }
            match n.parent() {
                Some(p) => {
                    n = p;
                    depth -= 1;
                }
                None => return,
            }
        }
    }
}

/// The cells the lines placed so far take, row by row, to find the
/// first row where a new line fits without looking at every row above
/// it: a variation of a node with thousands of them would otherwise
/// look at each of its elder siblings' rows, quadratic in their number.
#[derive(Default)]
struct Rows {
    /// Per row, the column ranges taken: first column → last.
    taken: Vec<BTreeMap<u32, u32>>,
    /// For a taken cell (column, row) a search went through, a row below
    /// it to look at next for that column: the rows between are taken in
    /// that column (union-find's "next free", its paths compressed). Only
    /// the cells searched are kept: a long line alone keeps none.
    below: HashMap<(u32, u32), u32>,
    /// The cells of the search under way (kept to reuse its memory).
    path: Vec<u32>,
}

impl Rows {
    /// The range of `row` that covers column `col`, if one does: `(first
    /// column, last)`.
    fn range_at(&self, row: u32, col: u32) -> Option<(u32, u32)> {
        self.taken
            .get(row as usize)?
            .range(..=col)
            .next_back()
            .filter(|&(_, &end)| end >= col)
            .map(|(&start, &end)| (start, end))
    }

    /// The first row at or below `row` whose column `col` is free.
    fn free_in(&mut self, col: u32, mut row: u32) -> u32 {
        self.path.clear();
        while self.range_at(row, col).is_some() {
            sgf_core::work::add(1);
            self.path.push(row);
            row = self.below.get(&(col, row)).copied().unwrap_or(row + 1);
        }
        // Every cell passed over now leads straight here.
        for &r in &self.path {
            self.below.insert((col, r), row);
        }
        row
    }

    /// The first row at or below `row` where columns `a..=b` are all free.
    /// A row is passed over at once when column `a` is taken there, and
    /// when another column is, every row below where that one is taken.
    fn first_free(&mut self, row: u32, a: u32, b: u32) -> u32 {
        let mut r = self.free_in(a, row);
        loop {
            sgf_core::work::add(1);
            // The last range starting at or before `b` meets `a..=b`
            // when it ends at or after `a` (ranges do not overlap).
            let blocked = self
                .taken
                .get(r as usize)
                .and_then(|t| t.range(..=b).next_back())
                .filter(|&(_, &end)| end >= a)
                .map(|(&start, _)| start.max(a));
            match blocked {
                None => return r,
                Some(col) => {
                    let past = self.free_in(col, r);
                    r = self.free_in(a, past);
                }
            }
        }
    }

    /// Columns `a..=b` of `row` taken.
    fn take(&mut self, row: u32, a: u32, b: u32) {
        if self.taken.len() <= row as usize {
            self.taken.resize_with(row as usize + 1, BTreeMap::new);
        }
        self.taken[row as usize].insert(a, b);
    }
}

/// The numbering and the layout of the game whose root is `root`.
pub(crate) fn index(doc: &Document, root: NodeId) -> (Numbering, Layout) {
    let mut runs: Vec<Run> = Vec::new();
    let mut lines: Vec<Line> = Vec::new();
    // The arena index of each line's first node's parent.
    let mut parents: Vec<u32> = Vec::new();
    let mut k = 0u32;
    let mut numbering = Numbering::default();
    walk(doc, root, |id, depth, first| {
        let i = id.index() as u32;
        match runs.last_mut() {
            Some(r) if r.id.checked_add(r.len) == Some(i) => r.len += 1,
            _ => runs.push(Run {
                number: k,
                id: i,
                len: 1,
            }),
        }
        match lines.last_mut() {
            // A first child follows its parent, the last node so far.
            Some(l) if first => l.len += 1,
            _ => {
                // The parent's number is known once the numbering is.
                parents.push(if depth == 0 {
                    u32::MAX
                } else {
                    doc.node(id)
                        .parent()
                        .map_or(u32::MAX, |p| p.id().index() as u32)
                });
                lines.push(Line {
                    start: k,
                    len: 1,
                    col: depth,
                    row: 0,
                    prow: NO_ROW,
                });
            }
        }
        k += 1;
    });
    let mut by_id: Vec<u32> = (0..runs.len() as u32).collect();
    by_id.sort_unstable_by_key(|&r| runs[r as usize].id);
    numbering.runs = runs;
    numbering.by_id = by_id;
    numbering.len = k as usize;
    // The rows, line by line in file order as the page always placed them:
    // a variation goes in the first row below its parent's where its
    // columns, with the connector's before them, are free.
    let mut rows = Rows::default();
    for i in 0..lines.len() {
        let l = lines[i];
        if i == 0 {
            rows.take(0, 0, l.end());
            continue;
        }
        let pn = doc
            .node_id(parents[i] as usize)
            .and_then(|p| numbering.number(p))
            .unwrap_or(0) as u32;
        let pl = lines[..i].partition_point(|x| x.start <= pn) - 1;
        let pr = lines[pl].row;
        let (a, b) = (l.col - 1, l.end());
        let r = rows.first_free(pr + 1, a, b);
        rows.take(r, a, b);
        lines[i].row = r;
        lines[i].prow = pr;
    }
    drop(parents);
    let height = rows.taken.len();
    drop(rows);
    // Lines by row, then column.
    let mut row_start = vec![0u32; height + 1];
    for l in &lines {
        row_start[l.row as usize + 1] += 1;
    }
    for r in 0..height {
        row_start[r + 1] += row_start[r];
    }
    let mut row_lines: Vec<u32> = (0..lines.len() as u32).collect();
    row_lines.sort_unstable_by_key(|&i| (lines[i as usize].row, lines[i as usize].col));
    // The forks: a variation's connector goes down from its parent, at the
    // column before its own.
    let mut forks: Vec<Fork> = lines
        .iter()
        .skip(1)
        .map(|l| Fork {
            col: l.col - 1,
            top: l.prow,
            bottom: l.row,
            lowest: 0,
        })
        .collect();
    forks.sort_unstable_by_key(|f| (f.col, f.top, std::cmp::Reverse(f.bottom)));
    // One per parent (a node is one cell: its column and row), its lowest.
    forks.dedup_by_key(|f| (f.col, f.top));
    let mut lowest = 0;
    for i in 0..forks.len() {
        if i == 0 || forks[i].col != forks[i - 1].col || forks[i].bottom > forks[lowest].bottom {
            lowest = i;
        }
        forks[i].lowest = lowest as u32;
    }
    let width = lines.iter().map(|l| l.end() + 1).max().unwrap_or(0);
    (
        numbering,
        Layout {
            lines,
            row_start,
            row_lines,
            forks,
            width,
        },
    )
}

/// A rectangle of the tree's layout: columns `x0..=x1`, rows `y0..=y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeWindow {
    /// The first column.
    pub x0: usize,
    /// The first row.
    pub y0: usize,
    /// The last column.
    pub x1: usize,
    /// The last row.
    pub y1: usize,
}

/// The rectangle a request asks for.
impl From<crate::api::TreeQuery> for TreeWindow {
    fn from(q: crate::api::TreeQuery) -> TreeWindow {
        TreeWindow {
            x0: q.x0,
            y0: q.y0,
            x1: q.x1,
            y1: q.y1,
        }
    }
}

impl TreeWindow {
    /// Around column `x` and row `y`: `w` columns and `h` rows (from the
    /// first column and row when they are near it).
    pub fn around(x: usize, y: usize, w: usize, h: usize) -> TreeWindow {
        let x0 = x.saturating_sub(w / 2);
        let y0 = y.saturating_sub(h / 2);
        TreeWindow {
            x0,
            y0,
            x1: x0 + w.max(1) - 1,
            y1: y0 + h.max(1) - 1,
        }
    }

    fn holds(&self, x: u32, y: u32) -> bool {
        (self.x0..=self.x1).contains(&(x as usize)) && (self.y0..=self.y1).contains(&(y as usize))
    }
}

impl Layout {
    /// The columns the tree spans.
    pub(crate) fn width(&self) -> usize {
        self.width as usize
    }

    /// The rows the tree spans.
    pub(crate) fn height(&self) -> usize {
        self.row_start.len().saturating_sub(1)
    }

    /// The row of node number `k`.
    pub(crate) fn row(&self, k: usize) -> usize {
        let Ok(k) = u32::try_from(k) else { return 0 };
        let i = self.lines.partition_point(|l| l.start <= k);
        i.checked_sub(1).map_or(0, |i| self.lines[i].row as usize)
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.lines.capacity() * std::mem::size_of::<Line>()
            + (self.row_start.capacity() + self.row_lines.capacity()) * 4
            + self.forks.capacity() * std::mem::size_of::<Fork>()
    }

    /// The nodes in `w` and the connectors that cross it from nodes
    /// outside; in time and size of the window, not of the tree.
    pub(crate) fn window(
        &self,
        doc: &Document,
        numbering: &Numbering,
        size: BoardSize,
        version: u64,
        w: TreeWindow,
    ) -> TreeLayout {
        let mut nodes = Vec::new();
        let height = self.height();
        // Columns and rows past what a u32 holds are past the tree.
        let at_most = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        let (x0, x1) = (at_most(w.x0), at_most(w.x1));
        for row in w.y0..=w.y1.min(height.saturating_sub(1)) {
            if row >= height {
                break;
            }
            let ids =
                &self.row_lines[self.row_start[row] as usize..self.row_start[row + 1] as usize];
            // In a row, lines do not overlap: ordered by column, by end too.
            let from = ids.partition_point(|&i| self.lines[i as usize].end() < x0);
            for &i in &ids[from..] {
                let l = self.lines[i as usize];
                if l.col > x1 {
                    break;
                }
                for col in l.col.max(x0)..=l.end().min(x1) {
                    let k = l.start + (col - l.col);
                    let Some(id) = numbering.id(doc, k as usize) else {
                        continue;
                    };
                    let prow = if col == l.col { l.prow } else { l.row };
                    nodes.push(tree_node(doc, id, size, col, l.row, prow, k));
                }
            }
        }
        // Connectors down from a node with variations, at its column, to
        // a variation outside: the lowest of each fork whose line crosses
        // the window, or of those above it, the one reaching lowest.
        let mut links = Vec::new();
        let (y0, y1) = (at_most(w.y0), at_most(w.y1));
        let mut link = |f: &Fork| {
            if f.bottom >= y0 && !w.holds(f.col + 1, f.bottom) {
                links.push(TreeLink(
                    f.col as usize + 1,
                    f.bottom as usize,
                    f.top as usize,
                ));
            }
        };
        for col in x0.saturating_sub(1)..=x1.min(self.width) {
            let lo = self.forks.partition_point(|f| f.col < col);
            let mid = lo + self.forks[lo..].partition_point(|f| f.col == col && f.top < y0);
            let hi = mid + self.forks[mid..].partition_point(|f| f.col == col && f.top <= y1);
            if mid > lo {
                link(&self.forks[self.forks[mid - 1].lowest as usize]);
            }
            for f in &self.forks[mid..hi] {
                link(f);
            }
        }
        TreeLayout {
            version,
            width: self.width(),
            height,
            window: [w.x0, w.y0, w.x1, w.y1],
            nodes,
            links,
        }
    }
}

/// A node as the page draws it.
fn tree_node(
    doc: &Document,
    id: NodeId,
    size: BoardSize,
    col: u32,
    row: u32,
    prow: u32,
    number: u32,
) -> TreeNode {
    let node = doc.node(id);
    let kind = match node_move(doc, id, size) {
        Some((Color::Black, _)) => 1,
        Some((Color::White, _)) => 2,
        None if node.has("AB") || node.has("AW") || node.has("AE") => 3,
        None => 0,
    };
    let flags = u8::from(node.has("C")) | (u8::from(node.has("N")) << 1);
    let prow = if prow == NO_ROW { -1 } else { i64::from(prow) };
    TreeNode(
        col as usize,
        row as usize,
        kind,
        prow,
        flags,
        number as usize,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first free row as found before [`Rows`]: every row from
    /// `row` on looked at in turn.
    fn scan(taken: &[BTreeMap<u32, u32>], row: u32, a: u32, b: u32) -> u32 {
        let mut r = row as usize;
        while taken
            .get(r)
            .is_some_and(|t| t.range(..=b).next_back().is_some_and(|(_, &e)| e >= a))
        {
            r += 1;
        }
        r as u32
    }

    /// Rows skipped by what they hold find the row the scan finds, for
    /// lines of every length placed in any order.
    #[test]
    fn rows_find_the_row_a_scan_finds() {
        let mut x = 7u64;
        let mut next = move |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for _ in 0..20 {
            let mut rows = Rows::default();
            for _ in 0..400 {
                let a = next(30) as u32;
                let b = a + next(8) as u32;
                let from = next(12) as u32;
                let want = scan(&rows.taken, from, a, b);
                let got = rows.first_free(from, a, b);
                assert_eq!(got, want, "{a}..={b} from row {from}");
                rows.take(got, a, b);
            }
        }
    }
}
