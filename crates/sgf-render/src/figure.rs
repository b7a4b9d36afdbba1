//! Book-style figures: a game split into printed diagrams.
//!
//! A new figure starts at each main-line node with `FG` (FF\[4\]: "a new figure
//! starts at the node containing a figure property"), and, when asked, every
//! N moves. A figure shows the position before its first node without
//! numbers and the moves of the figure numbered as `PM` says (`0` none, `1`
//! as they are, `2` modulo 100: only the first number is reduced and the
//! others follow it). With captured stones kept (the way books print, `FG`
//! flag 256), a move on a point whose stone is still drawn cannot be shown
//! and is listed as "12 at 8"; with captured stones removed the drawing
//! follows the board and an earlier move whose stone was replaced is listed.
//! Passes are listed too. `VW` in force at the start of a figure limits it.

use sgf_core::{Document, NodeId, Point};
use sgf_go::coords::{self, BoardSize};
use sgf_go::{Cursor, Move, Stone};

use crate::diagram::{Diagram, Note, NoteAt};
use crate::geometry::Notes;
use crate::options::{RenderOptions, Theme};

/// How a figure is printed: the `FG` flags, or our defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FigureFlags {
    /// Coordinates around the board (`FG` flag 1 turns them off).
    pub coordinates: bool,
    /// The figure's name above it (flag 2 turns it off).
    pub name: bool,
    /// List the moves that cannot be shown (flag 4 turns it off).
    pub list_unshown: bool,
    /// Remove captured stones, as a viewer does (flag 256 keeps them, as books do).
    pub remove_captured: bool,
    /// Star points (flag 512 turns them off).
    pub hoshi: bool,
}

impl Default for FigureFlags {
    /// Book style: coordinates, name, the list of moves not shown, captured
    /// stones kept, star points.
    fn default() -> Self {
        FigureFlags {
            coordinates: true,
            name: true,
            list_unshown: true,
            remove_captured: false,
            hoshi: true,
        }
    }
}

impl FigureFlags {
    /// The flags of an `FG` number (bit set = the option is off, except 256 which
    /// keeps captured stones); `32768` means "use the defaults".
    pub fn from_bits(bits: i64, defaults: FigureFlags) -> FigureFlags {
        if bits & 32768 != 0 || bits < 0 {
            return defaults;
        }
        FigureFlags {
            coordinates: bits & 1 == 0,
            name: bits & 2 == 0,
            list_unshown: bits & 4 == 0,
            remove_captured: bits & 256 == 0,
            hoshi: bits & 512 == 0,
        }
    }
}

/// How to split a game into figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FigureOptions {
    /// Also start a new figure every this many moves (`None`: only at `FG`).
    pub every: Option<u32>,
    /// The flags of figures whose `FG` has none (or none at all).
    pub defaults: FigureFlags,
}

/// One printed diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Its number, from 1.
    pub number: usize,
    /// The name given by `FG`.
    pub name: Option<String>,
    /// How it is printed.
    pub flags: FigureFlags,
    /// First and last move numbers of the figure, as played (`None` without moves).
    pub moves: Option<(u32, u32)>,
    /// The first node of the figure.
    pub start: NodeId,
    /// The last node of the figure.
    pub end: NodeId,
    /// The drawing: stones before the figure unnumbered, its moves
    /// numbered; its notes are the moves not shown ([`Figure::not_shown`]).
    pub diagram: Diagram,
    /// Comments of the figure's nodes: the printed number of the node's
    /// move (if any) and the text.
    pub comments: Vec<(Option<u32>, String)>,
}

impl Figure {
    /// The title: the `FG` name, else "Figure N (moves a–b)".
    pub fn title(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        match self.moves {
            Some((a, b)) if a == b => format!("Figure {} (move {a})", self.number),
            Some((a, b)) => format!("Figure {} (moves {a}-{b})", self.number),
            None => format!("Figure {}", self.number),
        }
    }

    /// Options to draw the figure's diagram with.
    pub fn render_options(&self, theme: Theme) -> RenderOptions {
        RenderOptions {
            coordinates: self.flags.coordinates,
            last_move: false,
            status: false,
            theme,
            id_prefix: format!("qipu-f{}-", self.number),
            ..RenderOptions::default()
        }
    }

    /// Moves that cannot be shown: "12 at 8", "15 at Q16", "20 pass"
    /// (the diagram's notes as printed, made one at a time: a figure of a
    /// long game has a million).
    pub fn not_shown(&self) -> impl ExactSizeIterator<Item = String> + '_ {
        let size = self.diagram.size;
        self.diagram.notes.iter().map(move |n| n.text(size))
    }

    /// The figure as SVG.
    pub fn to_svg(&self, theme: Theme) -> String {
        self.diagram.to_svg(&self.render_options(theme))
    }

    /// [`Figure::to_svg`] written into `out` as it is drawn (see
    /// [`Diagram::write_svg`]).
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn write_svg(&self, theme: Theme, out: impl std::io::Write) -> std::io::Result<()> {
        self.diagram.write_svg(&self.render_options(theme), out)
    }

    /// The figure as a PNG, JPEG or BMP picture, the longer side `size_px`
    /// pixels.
    ///
    /// # Errors
    /// See [`Diagram::to_image`].
    pub fn to_image(
        &self,
        theme: Theme,
        size_px: u32,
        format: crate::ImageFormat,
    ) -> Result<Vec<u8>, crate::RenderError> {
        self.diagram
            .to_image(&self.render_options(theme), size_px, format)
    }
}

/// Reads an `FG` value: flags and name.
fn read_fg(doc: &Document, node: NodeId) -> (Option<i64>, Option<String>) {
    let Some(v) = doc.node(node).value("FG") else {
        return (None, None);
    };
    if let Some((a, b)) = v.composed() {
        let name = b.trim().to_string();
        return (
            sgf_core::value::parse_number(a.as_bytes()),
            (!name.is_empty()).then_some(name),
        );
    }
    let t = v.as_simple_text().trim().to_string();
    match sgf_core::value::parse_number(t.as_bytes()) {
        Some(n) => (Some(n), None),
        None => (None, (!t.is_empty()).then_some(t)),
    }
}

/// The figure being built.
struct Building {
    start: NodeId,
    end: NodeId,
    name: Option<String>,
    flags: FigureFlags,
    diagram: Diagram,
    /// Moves drawn on each point in this figure (to know what can be shown).
    played: Vec<bool>,
    /// Subtracted from move numbers (`PM[2]`); `None` until the first move, then fixed.
    offset: Option<u32>,
    pm: i64,
    first: Option<u32>,
    last: u32,
    moves: u32,
    /// The moves not shown, when they are held ([`Keep::All`]).
    not_shown: Vec<Note>,
    /// How many moves are not shown.
    notes: usize,
    /// Moves drawn then removed by a capture: (printed number, point).
    gone: Vec<(u32, Point)>,
    comments: Vec<(Option<u32>, String)>,
}

/// What becomes of the moves not shown of the figures walked.
enum Keep<'a> {
    /// Held in each figure (its diagram's notes).
    All,
    /// Only counted: a [`StreamedFigure`] makes them again when asked.
    Count,
    /// Handed over as they are made (a streamed figure walked again).
    To(&'a mut dyn FnMut(Note)),
}

impl Building {
    fn label(&self, n: u32) -> u32 {
        let off = self.offset.unwrap_or(0);
        if n > off { n - off } else { n }
    }

    /// A move not shown.
    fn note(&mut self, n: Note, keep: &mut Keep<'_>) {
        if !self.flags.list_unshown {
            return;
        }
        self.notes += 1;
        match keep {
            Keep::All => self.not_shown.push(n),
            Keep::Count => {}
            Keep::To(f) => f(n),
        }
    }

    /// The figure, and how many moves it does not show.
    fn finish(mut self, number: usize, keep: &mut Keep<'_>) -> (Figure, usize) {
        for (number, p) in std::mem::take(&mut self.gone) {
            self.note(
                Note {
                    number,
                    at: NoteAt::Point(p),
                },
                keep,
            );
        }
        if !self.flags.hoshi {
            self.diagram.hoshi.clear();
        }
        self.diagram.notes = self.not_shown;
        let mut fig = Figure {
            number,
            name: self.name,
            flags: self.flags,
            moves: self.first.map(|f| (f, self.last)),
            start: self.start,
            end: self.end,
            diagram: self.diagram,
            comments: self.comments,
        };
        if fig.flags.name {
            fig.diagram.title = Some(fig.title());
        }
        (fig, self.notes)
    }
}

/// A figure of [`try_for_each_figure_streamed`]: its moves not shown are
/// not held but made again from the record each time they are needed, by
/// walking the figure's nodes again (a figure of a long game lists a
/// million; walking them takes milliseconds).
pub struct StreamedFigure<'d> {
    /// The figure, its diagram without notes.
    figure: Figure,
    /// How many moves it does not show.
    notes: usize,
    /// The walk before its first node.
    start: Walk<'d>,
    opts: FigureOptions,
}

impl StreamedFigure<'_> {
    /// Its number, from 1.
    pub fn number(&self) -> usize {
        self.figure.number
    }

    /// The figure without its moves not shown (its diagram has no notes):
    /// name, flags, moves, nodes, stones, comments.
    pub fn without_notes(&self) -> &Figure {
        &self.figure
    }

    /// How many moves it does not show.
    pub fn not_shown_len(&self) -> usize {
        self.notes
    }

    /// Hands the moves not shown, as [`Figure::not_shown`] prints them, to
    /// `f` one at a time.
    pub fn for_each_not_shown(&self, mut f: impl FnMut(&str)) {
        let size = self.figure.diagram.size;
        self.each(&mut |n| f(&n.text(size)));
    }

    /// The whole figure, its notes held: the figure [`figures`] gives.
    pub fn to_figure(&self) -> Figure {
        let mut fig = self.figure.clone();
        let mut notes = Vec::with_capacity(self.notes);
        self.each(&mut |n| notes.push(n));
        fig.diagram.notes = notes;
        fig
    }

    /// The figure as SVG ([`Figure::to_svg`] of [`StreamedFigure::to_figure`]).
    pub fn to_svg(&self, theme: Theme) -> String {
        crate::svg::write_with_notes(
            &self.figure.diagram,
            self,
            &self.figure.render_options(theme),
            false,
        )
    }

    /// [`StreamedFigure::to_svg`] written into `out` as it is drawn, holding
    /// neither the drawing nor the notes.
    ///
    /// # Errors
    /// The first error of `out`; what was written before it stays written.
    pub fn write_svg(&self, theme: Theme, out: impl std::io::Write) -> std::io::Result<()> {
        let mut out = crate::IoFmt { out, error: None };
        let r = crate::svg::write_to(
            &self.figure.diagram,
            self,
            &self.figure.render_options(theme),
            false,
            &mut out,
        );
        out.result(r)
    }

    /// The figure as a PNG, JPEG or BMP picture (see [`Figure::to_image`]);
    /// its notes are held while it is drawn.
    ///
    /// # Errors
    /// See [`Diagram::to_image`].
    pub fn to_image(
        &self,
        theme: Theme,
        size_px: u32,
        format: crate::ImageFormat,
    ) -> Result<Vec<u8>, crate::RenderError> {
        self.to_figure().to_image(theme, size_px, format)
    }
}

impl Notes for StreamedFigure<'_> {
    fn each(&self, f: &mut dyn FnMut(Note)) {
        if self.notes == 0 {
            return;
        }
        // The figure walked again from its first node, and only it.
        let Ok(()) = walk(
            self.start.clone(),
            &self.opts,
            &mut Keep::To(f),
            true,
            self.figure.number - 1,
            |_, _, _| Ok::<(), std::convert::Infallible>(()),
        );
    }

    fn is_empty(&self) -> bool {
        self.notes == 0
    }
}

/// Where [`figures_html`] finds the pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pictures<'a> {
    /// Files beside the page, named by [`figure_file_name`] with this extension.
    Files(&'a str),
    /// SVG inside the page (one self-contained file), in this theme.
    InlineSvg(Theme),
}

fn html_escape(s: &str) -> std::borrow::Cow<'_, str> {
    // Most text (every note of a long figure's million) has nothing to escape.
    if !s.contains(['&', '<', '>', '"']) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;"),
    )
}

/// The file name of figure `n`: `figure-001.svg`…; `ext` without the dot.
pub fn figure_file_name(n: usize, ext: &str) -> String {
    format!("figure-{n:03}.{ext}")
}

/// The title of a game's figures: its name, else the players, else `fallback`.
pub fn figures_title(doc: &Document, game: usize, fallback: &str) -> String {
    let info = sgf_go::GameInfo::of(doc, game);
    match (&info.name, &info.black, &info.white) {
        (Some(n), _, _) if !n.is_empty() => n.clone(),
        (_, Some(b), Some(w)) => format!("{b} (Black) – {w} (White)"),
        _ => fallback.to_string(),
    }
}

/// The page of a game's figures, in order, each with its moves not shown
/// and its comments (what `qipu figures` writes as `index.html`, and the
/// viewer exports as one file).
pub fn figures_html(title: &str, figs: &[Figure], pictures: Pictures<'_>) -> String {
    let mut h = String::new();
    let _ = page_head(title, &mut h);
    for f in figs {
        let _ = page_section(f, &f.diagram.notes, pictures, &mut h);
    }
    h.push_str(PAGE_END);
    h
}

/// [`figures_html`] written into `out` as it is made, the same bytes,
/// without holding the page (or an inline picture) whole.
///
/// # Errors
/// The first error of `out`; what was written before it stays written.
pub fn write_figures_html(
    title: &str,
    figs: &[Figure],
    pictures: Pictures<'_>,
    out: impl std::io::Write,
) -> std::io::Result<()> {
    let mut page = FiguresPage::start(title, pictures, out)?;
    for f in figs {
        page.add(f)?;
    }
    page.finish().map(drop)
}

/// The page of [`figures_html`] written a figure at a time, as the figures
/// are made ([`try_for_each_figure`]): neither the page nor the figures are
/// held.
pub struct FiguresPage<'a, W> {
    out: crate::IoFmt<W>,
    pictures: Pictures<'a>,
}

impl<'a, W: std::io::Write> FiguresPage<'a, W> {
    /// Writes the head of the page of `title` into `out`.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn start(title: &str, pictures: Pictures<'a>, out: W) -> std::io::Result<Self> {
        let mut out = crate::IoFmt { out, error: None };
        let r = page_head(title, &mut out);
        out.take_error(r)?;
        Ok(FiguresPage { out, pictures })
    }

    /// Writes the next figure's section.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn add(&mut self, f: &Figure) -> std::io::Result<()> {
        let r = page_section(f, &f.diagram.notes, self.pictures, &mut self.out);
        self.out.take_error(r)
    }

    /// Writes the next figure's section, its notes made as they are
    /// written.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn add_streamed(&mut self, f: &StreamedFigure<'_>) -> std::io::Result<()> {
        let r = page_section(&f.figure, f, self.pictures, &mut self.out);
        self.out.take_error(r)
    }

    /// Writes the end of the page; gives back `out`.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn finish(mut self) -> std::io::Result<W> {
        let r = std::fmt::Write::write_str(&mut self.out, PAGE_END);
        self.out.take_error(r)?;
        Ok(self.out.out)
    }
}

/// The end of the page of [`figures_html`].
const PAGE_END: &str = "</body>\n</html>\n";

/// The head of the page of [`figures_html`], into `h`.
fn page_head(title: &str, h: &mut impl std::fmt::Write) -> std::fmt::Result {
    write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
<style>\nbody{{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}}\n\
section{{margin:2rem 0;border-top:1px solid #ccc;padding-top:1rem}}\n\
img,svg{{width:100%;max-width:36rem;height:auto;display:block}}\n.not-shown{{font-weight:bold}}\n\
.comments li{{margin:.3rem 0;white-space:pre-wrap}}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        html_escape(title),
        html_escape(title)
    )
}

/// The section of figure `f` with `notes` under it in the page of
/// [`figures_html`], into `h`.
fn page_section(
    f: &Figure,
    notes: &dyn Notes,
    pictures: Pictures<'_>,
    h: &mut impl std::fmt::Write,
) -> std::fmt::Result {
    writeln!(
        h,
        "<section class=\"figure\" id=\"figure-{}\">\n<h2>{}</h2>",
        f.number,
        html_escape(&f.title()),
    )?;
    match pictures {
        Pictures::Files(ext) => {
            writeln!(
                h,
                "<img src=\"{}\" alt=\"{}\">",
                figure_file_name(f.number, ext),
                html_escape(&f.title())
            )?;
        }
        Pictures::InlineSvg(theme) => {
            crate::svg::write_to(&f.diagram, notes, &f.render_options(theme), false, h)?;
            h.write_char('\n')?;
        }
    }
    if !notes.is_empty() {
        // Written a move at a time: ", " needs no escaping, so this is
        // the list joined and escaped.
        h.write_str("<p class=\"not-shown\">")?;
        let mut r = Ok(());
        let mut first = true;
        notes.each(&mut |n| {
            if r.is_ok() {
                if !first {
                    r = h.write_str(", ");
                }
                first = false;
                r = r.and_then(|()| h.write_str(&html_escape(&n.text(f.diagram.size))));
            }
        });
        r?;
        h.write_str("</p>\n")?;
    }
    if !f.comments.is_empty() {
        h.write_str("<ul class=\"comments\">\n")?;
        for (n, c) in &f.comments {
            let head = n.map_or(String::new(), |n| format!("<b>{n}</b> "));
            writeln!(h, "<li>{head}{}</li>", html_escape(c))?;
        }
        h.write_str("</ul>\n")?;
    }
    h.write_str("</section>\n")?;
    Ok(())
}

/// Splits the main line of game `game` into figures.
///
/// A game index out of range gives no figures.
pub fn figures(doc: &Document, game: usize, opts: &FigureOptions) -> Vec<Figure> {
    let mut out = Vec::new();
    let Ok(()) = try_for_each_figure(doc, game, opts, |f| {
        out.push(f);
        Ok::<(), std::convert::Infallible>(())
    });
    out
}

/// [`figures`] handed to `each` one at a time, as each is finished (a long
/// game split every few moves has many): stops at the first error of
/// `each`, and returns it.
///
/// # Errors
/// The first error of `each`.
pub fn try_for_each_figure<E>(
    doc: &Document,
    game: usize,
    opts: &FigureOptions,
    mut each: impl FnMut(Figure) -> Result<(), E>,
) -> Result<(), E> {
    let Some(w) = Walk::new(doc, game) else {
        return Ok(());
    };
    walk(w, opts, &mut Keep::All, false, 0, |f, _, _| each(f))
}

/// [`try_for_each_figure`] without holding the moves a figure does not
/// show: each [`StreamedFigure`] makes them again as they are written (a
/// game of a million moves is one figure listing nearly all of them).
///
/// # Errors
/// The first error of `each`.
pub fn try_for_each_figure_streamed<'d, E>(
    doc: &'d Document,
    game: usize,
    opts: &FigureOptions,
    mut each: impl FnMut(StreamedFigure<'d>) -> Result<(), E>,
) -> Result<(), E> {
    let Some(w) = Walk::new(doc, game) else {
        return Ok(());
    };
    walk(
        w,
        opts,
        &mut Keep::Count,
        false,
        0,
        |figure, notes, start| {
            each(StreamedFigure {
                figure,
                notes,
                start,
                opts: opts.clone(),
            })
        },
    )
}

/// Where a walk along a game's main line stands, before its next node:
/// enough to walk on from there again.
#[derive(Clone)]
struct Walk<'d> {
    doc: &'d Document,
    cursor: Cursor,
    /// The next node; `None` past the end of the line.
    next: Option<sgf_core::Node<'d>>,
    /// `next` is the root, which the cursor has already executed.
    at_root: bool,
    /// PM and VW are inherited along the main line.
    pm: i64,
    vw: Vec<Point>,
}

impl<'d> Walk<'d> {
    /// Before the root of game `game`, if there is one.
    fn new(doc: &'d Document, game: usize) -> Option<Walk<'d>> {
        let g = doc.game(game)?;
        Some(Walk {
            doc,
            cursor: Cursor::new(doc, game),
            next: Some(g.root()),
            at_root: true,
            pm: 1,
            vw: Vec::new(),
        })
    }
}

/// Walks the main line on from `w`, split into figures numbered after
/// `done`, each handed to `each` with the number of its moves not shown and
/// the walk before its first node. With `one`, the walk ends with the first
/// figure, which is not handed over (walked again for its notes).
fn walk<'d, E>(
    mut w: Walk<'d>,
    opts: &FigureOptions,
    keep: &mut Keep<'_>,
    one: bool,
    mut done: usize,
    mut each: impl FnMut(Figure, usize, Walk<'d>) -> Result<(), E>,
) -> Result<(), E> {
    let doc = w.doc;
    let size = w.cursor.size();
    let game = w.cursor.game();
    // The figure being built, with the walk before its first node.
    let mut cur: Option<(Building, Walk<'d>)> = None;
    // Along the main line as it is walked: no list of its nodes is held.
    while let Some(node) = w.next {
        let id = node.id();
        // The walk before the node (its position is the one before the
        // node), kept only where a figure may start here (a copy per node
        // of a long game costs seconds).
        let may_start = cur.is_none()
            || node.has("FG")
            || matches!((&cur, opts.every), (Some((b, _)), Some(n)) if n > 0 && b.moves >= n);
        let before = may_start.then(|| w.clone());
        if !w.at_root {
            w.cursor.down(doc, id);
            // The main line only goes down.
            w.cursor.forget();
        }
        w.at_root = false;
        w.next = node.first_child();
        if let Some(v) = node.value("PM").and_then(|v| v.number()) {
            w.pm = v;
        }
        if node.has("VW") {
            w.vw = coords::view_points(&node, size, sgf_core::validate::ff_version(doc, game));
        }
        let has_move = !w.cursor.report().moves.is_empty();
        let every_hit = match (&cur, opts.every) {
            (Some((b, _)), Some(n)) => n > 0 && has_move && b.moves >= n,
            _ => false,
        };
        if cur.is_none() || node.has("FG") || every_hit {
            if let Some((b, start)) = cur.take() {
                if one {
                    b.finish(done + 1, keep);
                    return Ok(());
                }
                if b.moves > 0 || b.name.is_some() {
                    done += 1;
                    let (fig, notes) = b.finish(done, keep);
                    each(fig, notes, start)?;
                }
            }
            let Some(before) = before else {
                // A figure starts only where one may.
                continue;
            };
            let (bits, name) = read_fg(doc, id);
            let flags = bits.map_or(opts.defaults, |b| FigureFlags::from_bits(b, opts.defaults));
            let mut diagram = Diagram::empty(size);
            if !before.at_root {
                let pos = before.cursor.position();
                for y in 0..size.rows {
                    for x in 0..size.cols {
                        let p = Point::new(x, y);
                        let i = diagram.idx(p);
                        diagram.stones[i] = pos.board.get(p);
                    }
                }
            }
            diagram.set_view(&w.vw);
            cur = Some((
                Building {
                    start: id,
                    end: id,
                    name,
                    flags,
                    diagram,
                    played: vec![false; size.points()],
                    offset: None,
                    pm: w.pm,
                    first: None,
                    last: 0,
                    moves: 0,
                    not_shown: Vec::new(),
                    notes: 0,
                    gone: Vec::new(),
                    comments: Vec::new(),
                },
                before,
            ));
        }
        let Some((b, _)) = cur.as_mut() else { continue };
        b.end = id;
        // PM set after the figure's first node but before its first move still counts.
        if b.offset.is_none() {
            b.pm = w.pm;
        }
        apply(b, doc, id, &w.cursor, size, keep);
    }
    if let Some((b, start)) = cur.take() {
        if one {
            b.finish(done + 1, keep);
            return Ok(());
        }
        // The last figure is kept even without moves when it is the only one
        // (a position or a problem).
        if b.moves > 0 || b.name.is_some() || done == 0 {
            let (fig, notes) = b.finish(done + 1, keep);
            each(fig, notes, start)?;
        }
    }
    Ok(())
}

/// Adds the effects of node `id` (already executed by `cursor`) to the figure.
fn apply(
    b: &mut Building,
    doc: &Document,
    id: NodeId,
    cursor: &Cursor,
    size: BoardSize,
    keep: &mut Keep<'_>,
) {
    let node = doc.node(id);
    let pos = cursor.position();
    // Setup stones change the drawing directly, unnumbered.
    for (ident, stone) in [
        ("AE", Stone::Empty),
        ("AB", Stone::Black),
        ("AW", Stone::White),
    ] {
        for p in coords::each_point(&node, ident, size) {
            let i = b.diagram.idx(p);
            b.diagram.stones[i] = stone;
            b.diagram.numbers[i] = 0;
        }
    }
    let moves = &cursor.report().moves;
    let mut printed = None;
    for (k, &(color, mv)) in moves.iter().enumerate() {
        // Two moves in one node (illegal, but seen): number them in order.
        let n = pos.move_number.saturating_sub((moves.len() - 1 - k) as u32);
        if b.offset.is_none() {
            b.pm = b.pm.clamp(0, 2);
            b.offset = Some(if b.pm == 2 {
                (n.saturating_sub(1) / 100) * 100
            } else {
                0
            });
            b.first = Some(n);
        }
        b.last = n;
        b.moves += 1;
        let label = b.label(n);
        printed = Some(label);
        let shown_number = if b.pm == 0 { 0 } else { label };
        let Move::Play(p) = mv else {
            b.note(
                Note {
                    number: label,
                    at: NoteAt::Pass,
                },
                keep,
            );
            continue;
        };
        let i = b.diagram.idx(p);
        let drawn = b.diagram.stones[i];
        if b.flags.remove_captured {
            if drawn != Stone::Empty && b.diagram.numbers[i] > 0 {
                // An earlier numbered stone replaced on the board (it is not on it any more).
                let old = b.diagram.numbers[i];
                b.note(
                    Note {
                        number: old,
                        at: NoteAt::Number(label),
                    },
                    keep,
                );
            }
            if let Some(j) = b.gone.iter().position(|&(_, q)| q == p) {
                let (old, _) = b.gone.remove(j);
                b.note(
                    Note {
                        number: old,
                        at: NoteAt::Number(label),
                    },
                    keep,
                );
            }
            b.diagram.stones[i] = Stone::of(color);
            b.diagram.numbers[i] = shown_number;
            for &q in &cursor.report().captured {
                let j = b.diagram.idx(q);
                if b.diagram.numbers[j] > 0 {
                    b.gone.push((b.diagram.numbers[j], q));
                }
                b.diagram.stones[j] = Stone::Empty;
                b.diagram.numbers[j] = 0;
            }
            // Suicide: the played stones left the board.
            for y in 0..size.rows {
                for x in 0..size.cols {
                    let q = Point::new(x, y);
                    let j = b.diagram.idx(q);
                    if pos.board.get(q) == Stone::Empty && b.diagram.stones[j] != Stone::Empty {
                        b.diagram.stones[j] = Stone::Empty;
                        b.diagram.numbers[j] = 0;
                    }
                }
            }
        } else if drawn == Stone::Empty && !b.played[i] {
            b.diagram.stones[i] = Stone::of(color);
            b.diagram.numbers[i] = shown_number;
        } else {
            // Book style: the stone drawn here stays; the move is listed.
            let at = match b.diagram.numbers[i] {
                0 => NoteAt::Point(p),
                m => NoteAt::Number(m),
            };
            b.note(Note { number: label, at }, keep);
        }
        b.played[i] = true;
    }
    if let Some(c) = node.text("C") {
        let c = c.trim();
        if !c.is_empty() {
            b.comments.push((printed, c.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf_core::parse;

    fn figs(src: &str, opts: &FigureOptions) -> Vec<Figure> {
        figures(&parse(src.as_bytes()).document, 0, opts)
    }

    #[test]
    fn flags() {
        let d = FigureFlags::default();
        let f = FigureFlags::from_bits(257, d);
        assert!(!f.coordinates && f.name && f.list_unshown && !f.remove_captured && f.hoshi);
        let f = FigureFlags::from_bits(515, d);
        assert!(!f.coordinates && !f.name && f.list_unshown && f.remove_captured && !f.hoshi);
        assert_eq!(FigureFlags::from_bits(32768 + 1, d), d);
    }

    #[test]
    fn split_at_fg_and_every() {
        let src = "(;SZ[9];B[aa];W[bb];B[cc]FG[257:Second];W[dd];B[ee];W[ff])";
        let f = figs(src, &FigureOptions::default());
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].moves, Some((1, 2)));
        assert_eq!(f[1].moves, Some((3, 6)));
        assert_eq!(f[1].name.as_deref(), Some("Second"));
        assert!(!f[1].flags.coordinates);
        // Stones of the first figure are drawn unnumbered in the second.
        let d = &f[1].diagram;
        assert_eq!(d.stones[0], Stone::Black);
        assert_eq!(d.numbers[0], 0);
        assert_eq!(d.numbers[d.idx(Point::new(2, 2))], 3);
        let f = figs(
            src,
            &FigureOptions {
                every: Some(2),
                ..FigureOptions::default()
            },
        );
        let ranges: Vec<_> = f.iter().map(|f| f.moves).collect();
        assert_eq!(ranges, vec![Some((1, 2)), Some((3, 4)), Some((5, 6))]);
    }

    #[test]
    fn modulo_100() {
        let mut src = String::from("(;SZ[19]PM[2]");
        for i in 0..160u32 {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let p = Point::new((i % 19) as u8, (i / 19) as u8);
            let fg = if i == 101 { "FG[]" } else { "" };
            src.push_str(&format!(";{fg}{c}[{p}]"));
        }
        src.push(')');
        let f = figs(&src, &FigureOptions::default());
        assert_eq!(f.len(), 2);
        assert_eq!(f[1].moves, Some((102, 160)));
        let d = &f[1].diagram;
        // Move 102 is printed as 2, 160 as 60.
        assert_eq!(d.numbers[d.idx(Point::new(101 % 19, 101 / 19))], 2);
        assert_eq!(d.numbers[d.idx(Point::new(159 % 19, 159 / 19))], 60);
        // The first figure keeps 1..101 as they are.
        assert_eq!(
            f[0].diagram.numbers[f[0].diagram.idx(Point::new(100 % 19, 100 / 19))],
            101
        );
    }

    #[test]
    fn ko_recapture_is_listed() {
        // A ko at bb/cb: Black takes, White retakes after a threat, Black retakes.
        let src = "(;SZ[5]AB[ba][ab][bc]AW[ca][db][cc][bb];B[cb];W[ee];B[ed];W[bb];B[cb])";
        let f = figs(src, &FigureOptions::default());
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].not_shown().collect::<Vec<_>>(),
            vec!["4 at B4", "5 at 1"]
        );
        let d = &f[0].diagram;
        // Book style: the captured white stone at bb is still drawn.
        assert_eq!(d.stones[d.idx(Point::new(1, 1))], Stone::White);
        assert_eq!(d.numbers[d.idx(Point::new(2, 1))], 1);
        let removed = FigureOptions {
            defaults: FigureFlags {
                remove_captured: true,
                ..FigureFlags::default()
            },
            ..FigureOptions::default()
        };
        let f = figs(src, &removed);
        assert_eq!(
            f[0].not_shown().collect::<Vec<_>>(),
            vec!["1 at 5", "4 at B4"]
        );
        let d = &f[0].diagram;
        assert_eq!(d.stones[d.idx(Point::new(1, 1))], Stone::Empty);
        assert_eq!(d.numbers[d.idx(Point::new(2, 1))], 5);
    }

    #[test]
    fn passes_and_comments() {
        let src = "(;SZ[9]C[Start];B[aa]C[one];W[]PM[0];B[cc])";
        let f = figs(src, &FigureOptions::default());
        assert_eq!(f[0].not_shown().collect::<Vec<_>>(), vec!["2 pass"]);
        assert_eq!(
            f[0].comments,
            vec![(None, "Start".to_string()), (Some(1), "one".to_string())]
        );
        assert_eq!(f[0].title(), "Figure 1 (moves 1-3)");
    }
}
