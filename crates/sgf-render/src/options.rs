//! What a caller can choose about a diagram.

/// Which stones carry their move number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveNumbers {
    /// No numbers (the last move gets a marker instead).
    #[default]
    None,
    /// Every stone placed by a move that is still on the board.
    All,
    /// The stones of the last `k` moves.
    Last(u32),
    /// The stones of move `n` and later.
    From(u32),
}

impl MoveNumbers {
    /// Whether a stone placed by move `n` is numbered when the position is after move `current`.
    pub fn shows(self, n: u32, current: u32) -> bool {
        match self {
            MoveNumbers::None => false,
            MoveNumbers::All => n > 0,
            MoveNumbers::Last(k) => n > 0 && n + k > current,
            MoveNumbers::From(from) => n > 0 && n >= from,
        }
    }
}

/// Colours of the drawing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// A wooden board, as printed and as most viewers show it.
    #[default]
    Light,
    /// A dark board for dark pages.
    Dark,
}

/// Where automatic variation markers go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Variations {
    /// As the root's `ST` says (children by default; none when `ST` asks for no board markup).
    #[default]
    Auto,
    /// Mark the moves of the current node's children (when there is more than one).
    Children,
    /// Mark the moves of the current node's siblings (its alternatives).
    Siblings,
    /// No markers.
    None,
}

/// Options for [`crate::render_svg`], [`crate::render_png`] and [`crate::render_text`].
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Coordinates around the board.
    pub coordinates: bool,
    /// Move numbers on stones.
    pub move_numbers: MoveNumbers,
    /// A marker on the last move (when it carries no number or markup).
    pub last_move: bool,
    /// Variation markers.
    pub variations: Variations,
    /// Colours.
    pub theme: Theme,
    /// A status line under the board: move number, player to move, captures.
    pub status: bool,
    /// Honour `VW` (show only part of the board).
    pub view: bool,
    /// Prefix of the `id`s in the SVG (glyph definitions), so that several
    /// diagrams can be inlined in one HTML page.
    pub id_prefix: String,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            coordinates: true,
            move_numbers: MoveNumbers::None,
            last_move: true,
            variations: Variations::Auto,
            theme: Theme::Light,
            status: true,
            view: true,
            id_prefix: "qipu-".into(),
        }
    }
}

/// The character set of a text diagram.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextStyle {
    /// `X` black, `O` white, `.` empty, `+` star points.
    #[default]
    Ascii,
    /// `●` black, `○` white and box-drawing lines.
    Unicode,
    /// The wiki diagram of Sensei's Library (`$$B`, `X`, `O`, `,` star
    /// points, `B`/`W` circled stones, `1`–`0` for ten moves, `a`–`z`).
    Sensei,
}
