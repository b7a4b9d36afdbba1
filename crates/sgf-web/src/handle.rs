//! What the requests on one record do, with no transport: the server's
//! routes ([`crate::routes`], a session behind its lock on the blocking
//! pool) and the page's own session ([`crate::local`], the static viewer's
//! WebAssembly module) both answer through these, so the two answer alike.

#[cfg(feature = "server")]
use crate::api::DeadSource;
use crate::api::{ApiError, CountAction, ExportFormat, ExportQuery, View};
use crate::responses::{GameList, GameMatches, RecordState, RepairChanges};
use crate::session::{OpError, Session};

/// A file the page downloads: its type, its name and its bytes.
#[derive(Clone, Debug)]
pub struct Download {
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The name it is saved as.
    pub filename: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Takes the page's view options (move numbers, theme, the board turned
/// or inverted) into the session.
///
/// # Errors
/// A symmetry that is none (400).
pub(crate) fn apply_view(s: &mut Session, view: View) -> Result<(), ApiError> {
    if let Some(sym) = view.sym
        && sym > 7
    {
        return Err(ApiError::bad_request(format!(
            "`sym` {sym} is no symmetry: 0 to 7"
        )));
    }
    if let Some(n) = view.numbers {
        s.numbers = n;
    }
    if let Some(d) = view.dark {
        s.dark = d;
    }
    if let Some(sym) = view.sym {
        s.view_sym = sym;
    }
    if let Some(i) = view.invert {
        s.view_invert = i;
    }
    Ok(())
}

/// The answer of a request that changes the record: the state, with the
/// refusal `r` as its message.
pub(crate) fn state_after(mut st: RecordState, r: Result<(), OpError>) -> RecordState {
    if let Err(e) = r {
        st.refuse(e);
    }
    st
}

/// `/api/games`: the game list and the game shown.
pub(crate) fn games(s: &Session) -> GameList {
    GameList {
        games: s.game_list(),
        game: s.game(),
    }
}

/// `/api/games/search`: the games whose comments hold `q`.
pub(crate) fn games_search(s: &Session, q: &str) -> GameMatches {
    let (matches, nodes) = s.search_games(q).into_iter().unzip();
    GameMatches { matches, nodes }
}

/// `/api/repair`: what the repair would change.
pub(crate) fn repair_preview(s: &Session, variation_level: bool) -> RepairChanges {
    RepairChanges {
        changes: s.repair_preview(variation_level),
    }
}

/// Counting without an engine (`/api/count` but `start` by the engine):
/// the session's state follows.
pub(crate) fn count_here(s: &mut Session, action: CountAction) -> Result<(), OpError> {
    match action {
        CountAction::Start { source } => {
            s.count_without_engine(source);
            Ok(())
        }
        a => s.count_action(a),
    }
}

#[cfg(feature = "server")]
/// Whether `start` counts with the engine's dead stones (`live`: one runs).
pub(crate) fn by_engine(source: DeadSource, live: bool) -> bool {
    source == DeadSource::Engine || (source == DeadSource::Auto && live)
}

/// The stem of a record's name (`game` of `game.sgf`).
fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |x| x.0)
}

/// A picture or a diagram of the position, made under the session's lock
/// (quick); [`Export::draw`] then draws it without the lock (a large PNG
/// can take seconds).
pub(crate) enum Export {
    /// The record itself, canonical FF\[4\] UTF-8.
    Record(Download),
    /// A diagram to draw.
    Diagram(Box<(sgf_render::Diagram, sgf_render::RenderOptions, String)>),
}

/// `/api/export`: the position shown as `q` asks.
///
/// # Errors
/// The position cannot be drawn.
pub(crate) fn export(s: &Session, q: &ExportQuery) -> Result<Export, String> {
    if q.format == ExportFormat::Sgf {
        return Ok(Export::Record(Download {
            content_type: "application/x-go-sgf; charset=utf-8",
            filename: format!("{}.sgf", stem(&s.name)),
            bytes: s.canonical_bytes(),
        }));
    }
    let mut opts = s.render_options(q.numbers);
    opts.status = true;
    let name = format!("{}-{}", stem(&s.name), s.document().node(s.node()).number());
    // The picture looks as the board is shown (turned, mirrored, colours
    // swapped); the record itself (format sgf) does not change.
    let d = s
        .with_shown_document(|doc| sgf_render::Diagram::at(doc, s.node(), &opts))
        .map_err(|e| e.to_string())?;
    Ok(Export::Diagram(Box::new((d, opts, name))))
}

impl Export {
    /// The file.
    ///
    /// # Errors
    /// The picture cannot be encoded.
    pub(crate) fn draw(self, q: &ExportQuery) -> Result<Download, String> {
        let (diagram, opts, name) = match self {
            Export::Record(d) => return Ok(d),
            Export::Diagram(d) => *d,
        };
        let size = q.size.unwrap_or(1000).clamp(64, 4096);
        // png, jpg/jpeg (`quality`, 1-100) and bmp: the same pixels.
        let image = sgf_render::ImageFormat::from_extension(q.format.as_str()).map(|f| match f {
            sgf_render::ImageFormat::Jpeg { .. } => sgf_render::ImageFormat::Jpeg {
                quality: q
                    .quality
                    .unwrap_or(sgf_render::ImageFormat::DEFAULT_JPEG_QUALITY)
                    .clamp(1, 100),
            },
            f => f,
        });
        let text = |style| diagram.to_text(&opts, style).into_bytes();
        let (content_type, ext, bytes) = match (image, q.format) {
            (Some(image), _) => (
                image.mime_type(),
                image.extension(),
                diagram
                    .to_image(&opts, size, image)
                    .map_err(|e| e.to_string())?,
            ),
            // Text diagrams: Sensei's Library's wiki form, or qipu's ASCII.
            (None, ExportFormat::Sensei) => (
                "text/plain; charset=utf-8",
                "txt",
                text(sgf_render::TextStyle::Sensei),
            ),
            (None, ExportFormat::Txt | ExportFormat::Ascii) => (
                "text/plain; charset=utf-8",
                "txt",
                text(sgf_render::TextStyle::Ascii),
            ),
            (None, _) => ("image/svg+xml", "svg", diagram.to_svg(&opts).into_bytes()),
        };
        Ok(Download {
            content_type,
            filename: format!("{name}.{ext}"),
            bytes,
        })
    }
}

/// The game's figures, made under the session's lock; [`Figures::page`]
/// then writes the HTML page.
pub(crate) struct Figures {
    title: String,
    figs: Vec<sgf_render::Figure>,
    theme: sgf_render::Theme,
    stem: String,
}

/// `/api/figures`: the game shown as book figures, a new one at each `FG`
/// and every `every` moves.
pub(crate) fn figures(s: &Session, every: Option<u32>) -> Figures {
    let game = s.local_game();
    let opts = sgf_render::FigureOptions {
        every: every.filter(|&n| n > 0),
        ..Default::default()
    };
    let stem = stem(&s.name).to_string();
    // Drawn as the board is shown (turned, mirrored, colours swapped).
    let (figs, title) = s.with_shown_document(|doc| {
        (
            sgf_render::figures(doc, game, &opts),
            sgf_render::figures_title(doc, game, &stem),
        )
    });
    Figures {
        title,
        figs,
        theme: if s.dark {
            sgf_render::Theme::Dark
        } else {
            sgf_render::Theme::Light
        },
        stem,
    }
}

impl Figures {
    /// The name the page downloads as.
    pub(crate) fn filename(&self) -> String {
        format!("{}-figures.html", self.stem)
    }

    /// The figures as one HTML page, the pictures inline, written into
    /// `out` a figure at a time (a long game split at every move is
    /// hundreds of megabytes of SVG: never held whole).
    ///
    /// # Errors
    /// The first error of `out`.
    pub(crate) fn write_page(&self, out: impl std::io::Write) -> std::io::Result<()> {
        sgf_render::write_figures_html(
            &self.title,
            &self.figs,
            sgf_render::Pictures::InlineSvg(self.theme),
            out,
        )
    }

    /// The page of [`Figures::write_page`] as bytes (the static viewer,
    /// whose page saves them).
    pub(crate) fn page(self) -> Download {
        let mut bytes = Vec::new();
        // Into memory: nothing fails.
        let _ = self.write_page(&mut bytes);
        Download {
            content_type: "text/html; charset=utf-8",
            filename: self.filename(),
            bytes,
        }
    }
}
