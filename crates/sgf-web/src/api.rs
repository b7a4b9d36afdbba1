//! The viewer's HTTP API as types: what each route reads and what it
//! answers when it refuses.
//!
//! Every JSON body is read by [`Body`] and every query string by
//! [`Params`]: a missing field, a value of the wrong type, a point that is
//! not two SGF letters or an action that does not exist is answered with
//! status 400 and `{"error": "bad request: …", "error_kind":
//! "bad_request"}`, never read as a default. Fields documented as optional
//! here may be left out.
//!
//! | route | request |
//! | --- | --- |
//! | `POST /api/start` | nothing |
//! | `POST /api/open` | [`OpenRequest`] |
//! | `POST /api/upload?name=N&replace=ID` | the file's bytes, raw ([`UploadQuery`]) |
//! | `POST /api/close` | [`SessionRef`] |
//! | `GET /api/state` | [`StateQuery`] |
//! | `GET /api/tree` | [`TreeQuery`] |
//! | `POST /api/nav` | [`On`]`<`[`Nav`]`>` |
//! | `POST /api/edit` | [`On`]`<`[`EditRequest`]`>` |
//! | `POST /api/save` | [`On`]`<`[`Save`]`>` |
//! | `POST /api/repair` | [`On`]`<`[`RepairPreview`]`>` |
//! | `POST /api/games` | [`SessionRef`] |
//! | `POST /api/games/search` | [`On`]`<`[`GameSearch`]`>` |
//! | `GET /api/export` | [`ExportQuery`] |
//! | `GET /api/figures` | [`FiguresQuery`] |
//! | `POST /api/engine` | [`On`]`<`[`EngineAction`]`>` |
//! | `GET /api/engine/analysis` | [`SessionQuery`] |
//! | `POST /api/count` | [`On`]`<`[`CountAction`]`>` |
//! | `POST /api/db/search` | [`On`]`<`[`DbSearch`]`>` |
//! | `POST /api/db/open` | [`DbOpen`] |

use std::collections::BTreeMap;

#[cfg(feature = "server")]
use axum::Json;
#[cfg(feature = "server")]
use axum::extract::{FromRequest, FromRequestParts, Request};
#[cfg(feature = "server")]
use axum::http::request::Parts;
#[cfg(feature = "server")]
use axum::response::{IntoResponse, Response};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use sgf_core::{Color, Point};

/// How a refusal begins when the record is not open any more (the page
/// then reopens it): `error_kind` `no_session`.
pub(crate) const NO_SESSION: &str = "this record is no longer open in the viewer";

/// A point of the board as its two SGF letters (`"dd"`): `a`–`z` are 0–25,
/// `A`–`Z` 26–51. Whether it is on the board is the record's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPoint(pub Point);

impl<'de> Deserialize<'de> for BoardPoint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        // The one letters ↔ point conversion of the library.
        sgf_core::value::parse_point(s.as_bytes())
            .filter(|_| s.len() == 2)
            .map(BoardPoint)
            .ok_or_else(|| {
                D::Error::custom(format!(
                    "`{s}` is not a point: two letters a-z or A-Z expected"
                ))
            })
    }
}

/// A colour as the page writes it: `"B"` or `"W"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Player {
    /// Black.
    B,
    /// White.
    W,
}

impl From<Player> for Color {
    fn from(p: Player) -> Color {
        match p {
            Player::B => Color::Black,
            Player::W => Color::White,
        }
    }
}

/// How the page wants the state drawn, sent with most requests: all
/// optional.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct View {
    /// The version of the tree the page holds: the answer leaves the tree
    /// out when it is still that one.
    pub tree_version: Option<u64>,
    /// Move numbers on the board from now on.
    pub numbers: Option<bool>,
    /// The board drawn dark from now on.
    pub dark: Option<bool>,
    /// The board shown turned or mirrored from now on (view only): a
    /// symmetry of `sgf_go::symmetry` (0 to 7; 0 as recorded).
    pub sym: Option<u8>,
    /// The board shown with the colours swapped from now on (view only).
    pub invert: Option<bool>,
}

/// A request about one open record: `{"session": ID, …view, …body}`.
#[derive(Clone, Debug, Deserialize)]
pub struct On<T> {
    /// The record's id (its state's `session`).
    pub session: u64,
    /// How the page wants the answer drawn.
    #[serde(flatten)]
    pub view: View,
    /// What is asked.
    #[serde(flatten)]
    pub body: T,
}

/// Only a record: `{"session": ID}`.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct SessionRef {
    /// The record's id.
    pub session: u64,
}

/// `GET …?session=ID`.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct SessionQuery {
    /// The record's id.
    pub session: u64,
}

/// `GET /api/state?session=ID[&tree_version=V][&numbers=B][&dark=B]`.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct StateQuery {
    /// The record's id.
    pub session: u64,
    /// See [`View::tree_version`].
    pub tree_version: Option<u64>,
    /// See [`View::numbers`].
    pub numbers: Option<bool>,
    /// See [`View::dark`].
    pub dark: Option<bool>,
    /// See [`View::sym`].
    pub sym: Option<u8>,
    /// See [`View::invert`].
    pub invert: Option<bool>,
}

impl StateQuery {
    /// The view options the query carries.
    pub fn view(&self) -> View {
        View {
            tree_version: self.tree_version,
            numbers: self.numbers,
            dark: self.dark,
            sym: self.sym,
            invert: self.invert,
        }
    }
}

/// `GET /api/tree?session=ID&x0=C&y0=R&x1=C&y1=R`: the part of the tree's
/// layout in columns `x0..=x1` and rows `y0..=y1` (at most
/// [`crate::TREE_MAX`] of them).
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct TreeQuery {
    /// The record's id.
    pub session: u64,
    /// The first column.
    pub x0: usize,
    /// The first row.
    pub y0: usize,
    /// The last column.
    pub x1: usize,
    /// The last row.
    pub y1: usize,
}

/// `POST /api/open`: a file of the served directory (`path`), pasted
/// SGF text (`text`, read as UTF-8, shown as `name`) or a new record
/// (`new_game`); exactly one of them. A file from the user's disk is sent raw to `/api/upload`.
#[derive(Clone, Debug, Deserialize)]
pub struct OpenRequest {
    /// A record file under the served directory, with `/`.
    pub path: Option<String>,
    /// SGF text.
    pub text: Option<String>,
    /// The name the text is shown as (default `untitled.sgf`).
    pub name: Option<String>,
    /// The record the page showed before, closed once this one is open.
    pub replace: Option<u64>,
    /// A new record (File → New game): board, komi, handicap, rules,
    /// players; shown as `name` (default `new-game.sgf`).
    pub new_game: Option<NewRecord>,
}

/// What [`OpenRequest`] opens.
pub enum Open {
    /// A file of the served directory.
    Path(String),
    /// Pasted text and its name.
    Text(String, String),
    /// A new record and its name.
    New(NewRecord, String),
}

impl OpenRequest {
    /// The one thing to open.
    ///
    /// # Errors
    /// Neither `path` nor `text`, or both.
    pub fn what(self) -> Result<Open, ApiError> {
        if let Some(r) = self.new_game {
            if self.path.is_some() || self.text.is_some() {
                return Err(ApiError::bad_request("give `new_game` alone"));
            }
            return Ok(Open::New(
                r,
                self.name.unwrap_or_else(|| "new-game.sgf".into()),
            ));
        }
        match (self.path, self.text) {
            (Some(p), None) => Ok(Open::Path(p)),
            (None, Some(t)) => Ok(Open::Text(
                t,
                self.name.unwrap_or_else(|| "untitled.sgf".into()),
            )),
            (None, None) => Err(ApiError::bad_request(
                "nothing to open: give `path` or `text` (a file's bytes go to /api/upload)",
            )),
            (Some(_), Some(_)) => Err(ApiError::bad_request("give `path` or `text`, not both")),
        }
    }
}

/// `POST /api/upload?name=N[&replace=ID]`, the body the file's bytes as
/// they are (any format the viewer reads; the name's extension helps).
#[derive(Clone, Debug, Deserialize)]
pub struct UploadQuery {
    /// The file's name.
    pub name: String,
    /// See [`OpenRequest::replace`].
    pub replace: Option<u64>,
}

/// Moving through the tree (`action`).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Nav {
    /// One move on, along the line visited last.
    Next,
    /// One move back.
    Prev,
    /// The root.
    First,
    /// The end of the line.
    Last,
    /// Ten moves on.
    Forward10,
    /// Ten moves back.
    Back10,
    /// The next variation at the nearest fork.
    NextVariation,
    /// The previous variation at the nearest fork.
    PrevVariation,
    /// Node `node` (its number in the tree).
    Node {
        /// The node's number.
        node: usize,
    },
    /// Move `move` of the line shown.
    Move {
        /// The move number.
        #[serde(rename = "move")]
        number: u32,
    },
    /// Game `game` of the record (from 0), at its node `node` (its
    /// number in the game's tree; default the root).
    Game {
        /// The game's number.
        game: usize,
        /// The node to show, by number.
        #[serde(default)]
        node: Option<usize>,
    },
    /// The move that placed the stone at `point`.
    Stone {
        /// The stone.
        point: BoardPoint,
    },
    /// The next node of the line (down the line visited last) with a comment.
    NextComment,
    /// The previous node of the line with a comment.
    PrevComment,
    /// The next fork of the line (a node with several children).
    NextFork,
    /// The previous fork of the line.
    PrevFork,
    /// The next hotspot (`HO`) of the game, in tree order, from the top
    /// again after the last.
    NextHotspot,
    /// The previous hotspot (`HO`) of the game.
    PrevHotspot,
    /// The next move of the game (in tree order, round again after the
    /// last; `backward`: the previous) played at `point`: who played
    /// there, and when.
    FindMove {
        /// The point.
        point: BoardPoint,
        /// The previous one instead.
        #[serde(default)]
        backward: bool,
    },
    /// The next node of the game (in tree order, round again; `backward`:
    /// the previous) whose comment holds `q` (but for case and width).
    FindText {
        /// The text.
        q: String,
        /// The previous one instead.
        #[serde(default)]
        backward: bool,
    },
}

/// A stone to set up (`stone`): `B`, `W`, or `E` for none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum SetupStone {
    /// A black stone (`AB`).
    B,
    /// A white stone (`AW`).
    W,
    /// No stone (`AE`).
    E,
}

/// A mark on a point (`kind`): the markup shapes and the point sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Mark {
    /// Triangle.
    TR,
    /// Circle.
    CR,
    /// Square.
    SQ,
    /// Cross.
    MA,
    /// Selected.
    SL,
    /// Dimmed.
    DD,
    /// Black territory.
    TB,
    /// White territory.
    TW,
}

impl Mark {
    /// The SGF property.
    pub fn ident(self) -> &'static str {
        match self {
            Mark::TR => "TR",
            Mark::CR => "CR",
            Mark::SQ => "SQ",
            Mark::MA => "MA",
            Mark::SL => "SL",
            Mark::DD => "DD",
            Mark::TB => "TB",
            Mark::TW => "TW",
        }
    }
}

/// A judgement of the node (`kind`): of its move (`TE` good, `BM` bad,
/// `DO` doubtful, `IT` interesting) or of its position (`GB` good for
/// Black, `GW` good for White, `DM` even, `UC` unclear), or a hotspot
/// (`HO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[allow(clippy::upper_case_acronyms)]
pub enum Annotation {
    /// Tesuji: a good move.
    TE,
    /// A bad move.
    BM,
    /// A doubtful move.
    DO,
    /// An interesting move.
    IT,
    /// Good for Black.
    GB,
    /// Good for White.
    GW,
    /// Even position.
    DM,
    /// Unclear position.
    UC,
    /// A hotspot.
    HO,
}

impl Annotation {
    /// The property's identifier.
    pub fn ident(self) -> &'static str {
        match self {
            Annotation::TE => "TE",
            Annotation::BM => "BM",
            Annotation::DO => "DO",
            Annotation::IT => "IT",
            Annotation::GB => "GB",
            Annotation::GW => "GW",
            Annotation::DM => "DM",
            Annotation::UC => "UC",
            Annotation::HO => "HO",
        }
    }

    /// The annotations that exclude this one (FF\[4\]: one judgement of
    /// a move, one of a position), itself included.
    pub fn group(self) -> &'static [&'static str] {
        match self {
            Annotation::TE | Annotation::BM | Annotation::DO | Annotation::IT => {
                &["TE", "BM", "DO", "IT"]
            }
            Annotation::GB | Annotation::GW | Annotation::DM | Annotation::UC => {
                &["GB", "GW", "DM", "UC"]
            }
            Annotation::HO => &["HO"],
        }
    }
}

/// A line between two points (`kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum LineKind {
    /// An arrow.
    AR,
    /// A line.
    LN,
}

/// An automatic label (`auto`): the next free letter or number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoLabel {
    /// `A`, `B`, …
    Letter,
    /// `1`, `2`, …
    Number,
}

/// An edit of the record at the node shown (`op`).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Edit {
    /// Undoes the last step.
    Undo,
    /// Redoes the last step undone.
    Redo,
    /// A move for the player to move: `point`, or a pass when it is
    /// `null` or left out; `force` plays a ko retake, a suicide or onto a
    /// stone anyway.
    Play {
        /// Where; `None`: a pass.
        point: Option<BoardPoint>,
        /// Played even when the rules forbid it.
        #[serde(default)]
        force: bool,
    },
    /// A stone set up at `point` (after the move of the node: in a new node).
    Setup {
        /// Where.
        point: BoardPoint,
        /// Which stone.
        stone: SetupStone,
    },
    /// A mark toggled at `point`.
    Markup {
        /// Where.
        point: BoardPoint,
        /// Which mark.
        kind: Mark,
    },
    /// An arrow or a line toggled from `from` to `to`.
    Line {
        /// Which.
        kind: LineKind,
        /// Where it starts.
        from: BoardPoint,
        /// Where it ends.
        to: BoardPoint,
    },
    /// A label at `point`: `text` (empty or left out removes it), or the
    /// next free letter or number (`auto`; on a labelled point it removes
    /// the label).
    Label {
        /// Where.
        point: BoardPoint,
        /// The text.
        text: Option<String>,
        /// An automatic label instead of `text`.
        auto: Option<AutoLabel>,
    },
    /// The node's comment (`C`) and name (`N`): each as given, empty
    /// removes it, left out leaves it.
    Comment {
        /// The comment.
        text: Option<String>,
        /// The node name.
        name: Option<String>,
    },
    /// Game information (`{"PB": "…"}`; an empty value removes it).
    Info {
        /// Property → text.
        props: BTreeMap<String, String>,
    },
    /// Deletes the node and what follows it.
    Delete,
    /// Makes the node's variation the main line.
    Promote,
    /// The library's repair, as `qipu check --fix`.
    Repair {
        /// Variations written one level too deep moved too.
        #[serde(default)]
        variation_level: bool,
    },
    /// A judgement of the node set (`strength` 2: "very"; default 1), in
    /// place of the others of its group; the same again removes it.
    Annotate {
        /// Which.
        kind: Annotation,
        /// 1, or 2 for "very" (not for `IT`).
        #[serde(default)]
        strength: Option<u8>,
    },
    /// The variation from the node on (the node and what follows) kept in
    /// the session as SGF, to paste; changes nothing.
    CopyVariation,
    /// The variation copied, then deleted.
    CutVariation,
    /// The variation copied pasted as the last variation after the node.
    PasteVariation,
    /// The position at the node made the game's start, as Sabaki's
    /// "flatten": its stones set up in the root (with the game
    /// information and whose turn it is), the moves before it gone, what
    /// follows it kept.
    Flatten,
    /// Every variation but the line through the node (from the root to
    /// the end of the line visited last) deleted.
    RemoveOtherVariations,
    /// The variation at the nearest fork moved one place to the left
    /// (`left`) or to the right among its siblings.
    ShiftVariation {
        /// Left (towards the main line) or right.
        left: bool,
    },
    /// The board as shown (turned, mirrored, colours swapped: the view's
    /// `sym` and `invert`) written into the record: every point of the
    /// game rewritten; the view is then as recorded again.
    ApplyView,
}

impl Edit {
    /// The edit's name (its `op`).
    pub fn name(&self) -> &'static str {
        match self {
            Edit::Undo => "undo",
            Edit::Redo => "redo",
            Edit::Play { .. } => "play",
            Edit::Setup { .. } => "setup",
            Edit::Markup { .. } => "markup",
            Edit::Line { .. } => "line",
            Edit::Label { .. } => "label",
            Edit::Comment { .. } => "comment",
            Edit::Info { .. } => "info",
            Edit::Delete => "delete",
            Edit::Promote => "promote",
            Edit::Repair { .. } => "repair",
            Edit::Annotate { .. } => "annotate",
            Edit::CopyVariation => "copy_variation",
            Edit::CutVariation => "cut_variation",
            Edit::PasteVariation => "paste_variation",
            Edit::Flatten => "flatten",
            Edit::RemoveOtherVariations => "remove_other_variations",
            Edit::ShiftVariation { .. } => "shift_variation",
            Edit::ApplyView => "apply_view",
        }
    }
}

/// `POST /api/edit`: an [`Edit`], and `merge_key`: edits with the same key
/// (typing in one field) make one undo step.
#[derive(Clone, Debug, Deserialize)]
pub struct EditRequest {
    /// The edit.
    #[serde(flatten)]
    pub edit: Edit,
    /// Merges with the last step of the same key.
    pub merge_key: Option<String>,
}

/// `POST /api/save` (`mode`).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Save {
    /// Back to the record's file, only what was edited changed.
    Lossless {
        /// Overwrites a file another program changed since it was read.
        #[serde(default)]
        force: bool,
    },
    /// The canonical FF\[4\] UTF-8 form as `path` (`.sgf` added when
    /// missing); the record continues on it. A file there is replaced
    /// only with `replace` (the user was asked; else `error_kind`
    /// `exists`), only when it is a game record (else `not_record`), and
    /// not when it is the record's own file and holds text outside its
    /// game trees that the canonical form leaves out; what it held is
    /// kept as `X.bak`, and as `X.orig` unless that exists.
    Canonical {
        /// A path under the served directory.
        path: String,
        /// Replaces the file at `path` if there is one.
        #[serde(default)]
        replace: bool,
    },
}

/// `POST /api/repair`: what the repair would change.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct RepairPreview {
    /// See [`Edit::Repair`].
    #[serde(default)]
    pub variation_level: bool,
}

/// `POST /api/games/search`: the games holding `q`.
#[derive(Clone, Debug, Deserialize)]
pub struct GameSearch {
    /// The text searched.
    pub q: String,
}

/// What `/api/export` writes (`format`, default `svg`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// SVG.
    #[default]
    Svg,
    /// PNG.
    Png,
    /// JPEG.
    Jpg,
    /// JPEG.
    Jpeg,
    /// BMP.
    Bmp,
    /// Sensei's Library's text diagram.
    Sensei,
    /// Qipu's ASCII diagram.
    Txt,
    /// Qipu's ASCII diagram.
    Ascii,
    /// The record (the game file, canonical FF\[4\] UTF-8), not a picture.
    Sgf,
}

impl ExportFormat {
    /// The name as the renderer knows image formats (`png`, `jpg`…).
    pub fn as_str(self) -> &'static str {
        match self {
            ExportFormat::Svg => "svg",
            ExportFormat::Png => "png",
            ExportFormat::Jpg => "jpg",
            ExportFormat::Jpeg => "jpeg",
            ExportFormat::Bmp => "bmp",
            ExportFormat::Sensei => "sensei",
            ExportFormat::Txt => "txt",
            ExportFormat::Ascii => "ascii",
            ExportFormat::Sgf => "sgf",
        }
    }
}

/// `GET /api/export?session=ID[&format=F][&numbers=B][&size=PX][&quality=Q]`:
/// the position shown as a picture or a text diagram.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct ExportQuery {
    /// The record's id.
    pub session: u64,
    /// The format.
    #[serde(default)]
    pub format: ExportFormat,
    /// Move numbers on the stones.
    #[serde(default)]
    pub numbers: bool,
    /// The picture's size in pixels (64 to 4096; default 1000).
    pub size: Option<u32>,
    /// JPEG quality (1 to 100).
    pub quality: Option<u8>,
}

/// `GET /api/figures?session=ID[&every=N]`: the game as book figures.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct FiguresQuery {
    /// The record's id.
    pub session: u64,
    /// A new figure every `every` moves (empty or 0: only at `FG`).
    #[serde(default, deserialize_with = "empty_as_none")]
    pub every: Option<u32>,
}

/// A number that may be given empty (`every=`): `None`.
fn empty_as_none<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let s = String::deserialize(d)?;
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse()
        .map(Some)
        .map_err(|_| D::Error::custom(format!("`{s}` is not a number of moves")))
}

/// The engine of a record (`action`).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum EngineAction {
    /// Starts `engine`: a name from engines.toml or a command line.
    Start {
        /// The engine.
        engine: String,
        /// As White's engine, beside the first one (which then plays
        /// Black only): two engines at once, for engine against engine.
        #[serde(default)]
        second: bool,
        /// The player confirmed the command line (the page's dialog):
        /// it runs, and is remembered as confirmed. A command line not
        /// in `engines.toml` and never confirmed is refused without it,
        /// the state's `confirm_engine` naming it.
        #[serde(default)]
        confirm: bool,
    },
    /// Stops the engine (`second`: only White's second engine).
    Stop {
        /// Only the second engine.
        #[serde(default)]
        second: bool,
    },
    /// Analysis of the position shown on or off.
    Analyse {
        /// On.
        on: bool,
    },
    /// Who the engine plays (`color`, `null`: nobody) and how strong
    /// (`level`, 1 to 10).
    Play {
        /// The engine's colour.
        color: Option<Player>,
        /// Its level.
        level: Option<u32>,
    },
    /// The engine plays for the player to move.
    Move,
    /// A GTP command as typed in the console, sent to the engine as it
    /// is; the answer's `gtp` holds `{command, answer, ok}`.
    Command {
        /// The command line (one line).
        command: String,
    },
    /// "Analyse the whole game": every position of the line shown
    /// evaluated in turn (`visits` each, default 100; at most `seconds`
    /// each, default 5), filling the graph; progress in the engine's
    /// `batch`. `on: false` stops it.
    AnalyseGame {
        /// On or off.
        on: bool,
        /// Visits per position.
        visits: Option<u64>,
        /// The most seconds per position.
        seconds: Option<f64>,
    },
    /// A new record against the engine, which moves to it.
    NewGame {
        /// Board size.
        size: u8,
        /// Handicap stones.
        handicap: u32,
        /// Komi.
        komi: f64,
        /// The engine's colour.
        color: Option<Player>,
        /// Its level.
        level: Option<u32>,
    },
}

/// Where the dead stones of a count come from (`source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadSource {
    /// The engine when one runs, else the record's marks, else the estimator.
    Auto,
    /// The engine's `final_status_list dead`.
    Engine,
    /// Qipu's estimator.
    Estimator,
    /// The record's `TB`/`TW`, else the estimator.
    Marks,
}

/// A rule set by name (`japanese`, `chinese`, …, as `qipu score --rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesName(pub sgf_go::score::Rules);

impl<'de> Deserialize<'de> for RulesName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        sgf_go::score::Rules::from_name(&s)
            .map(RulesName)
            .ok_or_else(|| D::Error::custom(format!("unknown rules `{s}`")))
    }
}

/// Counting the position shown (`action`).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum CountAction {
    /// Starts counting with dead stones from `source`.
    Start {
        /// Where the dead stones come from.
        source: DeadSource,
    },
    /// A group dead or alive again.
    Toggle {
        /// A stone of the group.
        point: BoardPoint,
    },
    /// Counts by other rules.
    Rules {
        /// The rules.
        rules: RulesName,
    },
    /// Leaves counting.
    Stop,
}

/// `POST /api/db/search`: the position shown, or a region of it, in the
/// database.
#[derive(Clone, Debug, Deserialize)]
pub struct DbSearch {
    /// `[x0, y0, x1, y1]` (corners, any order); `null`: the whole board.
    pub region: Option<[u8; 4]>,
    /// A region anywhere on the board, not only where it is.
    #[serde(default)]
    pub anywhere: bool,
    /// Colours swapped too.
    #[serde(default)]
    pub swap_colors: bool,
    /// In variations too.
    #[serde(default)]
    pub variations: bool,
    /// Games of this player only (blank: any).
    pub player: Option<String>,
    /// The most hits listed (default 200, at most 5000).
    pub limit: Option<usize>,
}

/// `POST /api/db/open`: a hit, opened at its node.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct DbOpen {
    /// The game's id in the database.
    pub id: i64,
    /// The node of the hit.
    pub node: usize,
}

/// A refusal: a status and `{"error", "error_kind"}`; a file that is not
/// a game record adds `not_record` and `path`.
#[derive(Clone, Debug, Serialize)]
pub struct ApiError {
    /// The HTTP status (400 but for the body's own refusals: 413, 415).
    #[serde(skip)]
    pub status: u16,
    /// What went wrong, for the user.
    pub error: String,
    /// What the page acts on: `bad_request`, `no_session` (the record is
    /// not open any more), `changed_on_disk`, `read_only`, `not_record`
    /// (the file is not a game record), `exists` (Save as would replace a
    /// file: ask, then send `replace`), `refused`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<&'static str>,
    /// Why the file is not a game record, by the library's judgement
    /// (`sgf_formats::judge::NotRecord::code`: `no-game-tree`,
    /// `not-text`, `binary`, `archive`, `compressed`, `empty`); `error`
    /// is then its sentence (`x.sgf is not a game record: …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_record: Option<&'static str>,
    /// The file of the served folder the refusal is about, with `/` (as
    /// the file list names it): one that is not a game record, or the one
    /// "Save as" would replace (`exists`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl ApiError {
    /// A refusal of `status` the page acts on by its `kind`.
    pub fn with_kind(status: u16, error: String, kind: Option<&'static str>) -> ApiError {
        ApiError {
            status,
            error,
            error_kind: kind,
            not_record: None,
            path: None,
        }
    }

    /// A request that does not say what it must (400, `bad_request`).
    pub fn bad_request(why: impl std::fmt::Display) -> ApiError {
        ApiError::with_kind(400, format!("bad request: {why}"), Some("bad_request"))
    }

    /// A request refused (400): `no_session` when the record is not open
    /// any more.
    pub fn refused(why: String) -> ApiError {
        let kind = why.starts_with(NO_SESSION).then_some("no_session");
        ApiError::with_kind(400, why, kind)
    }

    /// The file `name` is not a game record, as the library judged (400,
    /// `not_record`): its sentence, and the judgement's code.
    pub fn not_record(why: &sgf_formats::judge::NotRecord, name: &str) -> ApiError {
        ApiError {
            not_record: Some(why.code()),
            ..ApiError::with_kind(400, why.sentence(name), Some("not_record"))
        }
    }

    /// The refusal about file `path` of the served folder (a file that is
    /// not a game record names it).
    pub fn at(mut self, path: &str) -> ApiError {
        if self.not_record.is_some() {
            self.path = Some(path.to_string());
        }
        self
    }
}

impl From<String> for ApiError {
    fn from(why: String) -> ApiError {
        ApiError::refused(why)
    }
}

impl From<&str> for ApiError {
    fn from(why: &str) -> ApiError {
        ApiError::refused(why.to_string())
    }
}

#[cfg(feature = "server")]
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = axum::http::StatusCode::from_u16(self.status)
            .unwrap_or(axum::http::StatusCode::BAD_REQUEST);
        (status, Json(self)).into_response()
    }
}

/// A JSON body read as `T`; one that is not `T` is a 400 [`ApiError`]
/// (what [`Body`] does, for a transport that has the bytes).
///
/// # Errors
/// The body is not JSON of `T`'s shape.
pub fn read_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(ApiError::bad_request)
}

/// A query string (without `?`, percent-encoded) read as `T`; one that is
/// not `T` is a 400 [`ApiError`] (what [`Params`] does).
///
/// # Errors
/// The query does not have `T`'s fields.
pub fn read_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    serde_urlencoded::from_str(query).map_err(ApiError::bad_request)
}

#[cfg(feature = "server")]
/// A JSON body read as `T` (whatever its `Content-Type`: the page's
/// beacon sends text); a body that is not `T` is a 400 [`ApiError`].
pub struct Body<T>(pub T);

#[cfg(feature = "server")]
impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| {
                ApiError::with_kind(e.status().as_u16(), e.body_text(), Some("bad_request"))
            })?;
        read_body(&bytes).map(Body)
    }
}

#[cfg(feature = "server")]
/// A query string read as `T` (percent-decoded); one that is not `T` is
/// a 400 [`ApiError`].
pub struct Params<T>(pub T);

#[cfg(feature = "server")]
impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        read_query(parts.uri.query().unwrap_or_default()).map(Params)
    }
}

/// The token of a URL (`?t=…`), for the page's links and its first load.
#[cfg(feature = "server")]
#[derive(Deserialize)]
pub(crate) struct TokenQuery {
    pub(crate) t: Option<String>,
}

/// What a new record holds (File → New game, or a game against an engine).
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct NewRecord {
    /// Lines of the square board (2 to 52).
    pub size: u8,
    /// Handicap stones (0, or 2 and more in the fixed placement).
    #[serde(default)]
    pub handicap: u32,
    /// Komi.
    pub komi: f64,
    /// `RU` as written (empty: none).
    #[serde(default)]
    pub rules: String,
    /// `PB` (empty: none).
    #[serde(default)]
    pub black: String,
    /// `PW` (empty: none).
    #[serde(default)]
    pub white: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read<T: DeserializeOwned>(v: serde_json::Value) -> Result<T, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }

    #[test]
    fn actions_are_named_as_the_page_names_them() {
        for (name, _) in [("forward10", 0), ("back10", 0), ("next_variation", 0)] {
            let r: On<Nav> = read(json!({"session": 1, "action": name})).unwrap();
            assert_eq!(r.session, 1);
        }
        let r: On<Nav> =
            read(json!({"session": 1, "action": "move", "move": 7, "dark": true})).unwrap();
        assert!(matches!(r.body, Nav::Move { number: 7 }));
        assert_eq!(r.view.dark, Some(true));
        let r: On<EditRequest> =
            read(json!({"session": 2, "op": "play", "point": null, "merge_key": "k"})).unwrap();
        assert!(matches!(
            r.body.edit,
            Edit::Play {
                point: None,
                force: false
            }
        ));
        assert_eq!(r.body.merge_key.as_deref(), Some("k"));
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let e = read::<On<Nav>>(json!({"session": 1, "action": "stone"})).unwrap_err();
        assert!(e.contains("missing field `point`"), "{e}");
        let e =
            read::<On<Nav>>(json!({"session": 1, "action": "stone", "point": "d"})).unwrap_err();
        assert!(e.contains("`d` is not a point"), "{e}");
        let e = read::<On<Nav>>(json!({"session": "1", "action": "next"})).unwrap_err();
        assert!(e.contains("invalid type"), "{e}");
        let e = read::<On<Nav>>(json!({"session": 1, "action": "sideways"})).unwrap_err();
        assert!(e.contains("unknown variant `sideways`"), "{e}");
    }
}
