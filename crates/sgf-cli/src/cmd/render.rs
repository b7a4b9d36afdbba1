//! `qipu render`: a picture of the board at a move or node (SVG, PNG, JPEG, BMP or text).

use std::io::IsTerminal;

use anyhow::{Context, Result, bail};
use clap::{Args as ClapArgs, ValueEnum};
use sgf_render::{Diagram, ImageFormat, MoveNumbers, RenderOptions, TextStyle, Theme, Variations};

use crate::cmd::position::{At, locate};
use crate::input;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// A PNG image.
    Png,
    /// A JPEG image (quality from --quality).
    #[value(alias = "jpeg")]
    Jpg,
    /// A 24-bit BMP image.
    Bmp,
    /// Text: X, O, . and + with ASCII marks.
    Ascii,
    /// Text with ●, ○ and box-drawing lines.
    Unicode,
    /// The wiki diagram of Sensei's Library ($$B, X, O, numbered moves).
    Sensei,
}

impl Format {
    /// Whether the output is text (safe to print on a terminal).
    fn is_text(self) -> bool {
        matches!(
            self,
            Format::Svg | Format::Ascii | Format::Unicode | Format::Sensei
        )
    }
}

/// Colour themes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ThemeArg {
    /// A wooden board.
    Light,
    /// A dark board.
    Dark,
}

/// Variation markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariationsArg {
    /// As the root's ST says.
    Auto,
    /// The moves of the node's children.
    Children,
    /// The moves of the node's siblings.
    Siblings,
    /// None.
    None,
}

/// Draw the board at a move or node, with its markup, as SVG, PNG, JPEG, BMP or text.
///
/// Exit status: 0 success; 2 the input could not be read (not a regular
/// file, larger than 1 GiB) or is not a game record (an archive of several
/// records says how to name one), the output could not be written (a file
/// written is then as it was), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The position shown.
    #[command(flatten)]
    pub at: At,
    /// Output file; its extension chooses the format (.svg, .png, .jpg/.jpeg, .bmp, .txt). Text goes to standard output without it.
    #[arg(short, long)]
    pub output: Option<String>,
    /// Output format (default: from the extension of the output file, else ascii).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Longer side of a PNG, JPEG or BMP in pixels.
    #[arg(long, default_value_t = 800)]
    pub size: u32,
    /// JPEG quality, 1 (smallest file) to 100 (best picture).
    #[arg(long, default_value_t = ImageFormat::DEFAULT_JPEG_QUALITY, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub quality: u8,
    /// Colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
    pub theme: ThemeArg,
    /// Move numbers on stones: `all`, `none`, `last:K` (the last K moves) or `from:N` (move N on).
    #[arg(long, default_value = "none", value_parser = parse_numbers)]
    pub numbers: MoveNumbers,
    /// Variation markers (auto: as the root's ST says).
    #[arg(long, value_enum, default_value_t = VariationsArg::Auto)]
    pub variations: VariationsArg,
    /// No coordinates around the board.
    #[arg(long)]
    pub no_coordinates: bool,
    /// No status line (player to move, move number, captures).
    #[arg(long)]
    pub no_status: bool,
    /// No last-move marker.
    #[arg(long)]
    pub no_last_move: bool,
    /// Show the whole board even where VW limits the view.
    #[arg(long)]
    pub full_board: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Reads `all`, `none`, `last:K`, `from:N`.
pub fn parse_numbers(s: &str) -> Result<MoveNumbers, String> {
    let bad = || format!("`{s}`: expected all, none, last:K or from:N");
    match s {
        "all" => return Ok(MoveNumbers::All),
        "none" => return Ok(MoveNumbers::None),
        _ => {}
    }
    let (kind, n) = s.split_once([':', '=']).ok_or_else(bad)?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    match kind {
        "last" => Ok(MoveNumbers::Last(n)),
        "from" => Ok(MoveNumbers::From(n)),
        _ => Err(bad()),
    }
}

/// The format asked for, or the one the output file's extension implies.
fn format_of(args: &Args) -> Result<Format> {
    if let Some(f) = args.format {
        return Ok(f);
    }
    let Some(out) = args.output.as_deref().filter(|o| *o != "-") else {
        return Ok(Format::Ascii);
    };
    let ext = std::path::Path::new(out)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    Ok(match ext.as_deref() {
        Some("svg") => Format::Svg,
        Some("txt" | "text") => Format::Ascii,
        Some(e) => match ImageFormat::from_extension(e) {
            Some(ImageFormat::Png) => Format::Png,
            Some(ImageFormat::Jpeg { .. }) => Format::Jpg,
            Some(ImageFormat::Bmp) => Format::Bmp,
            None => bail!(
                "cannot tell the format from `{out}`: use --format svg|png|jpg|bmp|ascii|unicode"
            ),
        },
        None => {
            bail!("cannot tell the format from `{out}`: use --format svg|png|jpg|bmp|ascii|unicode")
        }
    })
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let format = format_of(args)?;
    if !format.is_text()
        && args.output.as_deref().is_none_or(|o| o == "-")
        && std::io::stdout().is_terminal()
    {
        bail!(
            "a {} image is binary: write it to a file with -o FILE, or redirect standard output",
            format!("{format:?}").to_uppercase()
        );
    }
    // Only the part of a collection that holds the game is read.
    let at = input::load_game_numbered(&args.at.file, args.at.game, args.quiet)?;
    let doc = &at.loaded.parsed.document;
    let cursor = locate(doc, at.index, args.at.r#move, args.at.node)?;
    let opts = RenderOptions {
        coordinates: !args.no_coordinates,
        move_numbers: args.numbers,
        last_move: !args.no_last_move,
        variations: match args.variations {
            VariationsArg::Auto => Variations::Auto,
            VariationsArg::Children => Variations::Children,
            VariationsArg::Siblings => Variations::Siblings,
            VariationsArg::None => Variations::None,
        },
        theme: match args.theme {
            ThemeArg::Light => Theme::Light,
            ThemeArg::Dark => Theme::Dark,
        },
        status: !args.no_status,
        view: !args.full_board,
        ..RenderOptions::default()
    };
    let diagram = Diagram::at(doc, cursor.node(), &opts)?;
    let bytes = match format {
        Format::Svg => diagram.to_svg(&opts).into_bytes(),
        Format::Png | Format::Jpg | Format::Bmp => {
            let image = match format {
                Format::Png => ImageFormat::Png,
                Format::Jpg => ImageFormat::Jpeg {
                    quality: args.quality,
                },
                _ => ImageFormat::Bmp,
            };
            diagram
                .to_image(&opts, args.size, image)
                .with_context(|| format!("cannot make the {}", image.extension().to_uppercase()))?
        }
        Format::Ascii => diagram.to_text(&opts, TextStyle::Ascii).into_bytes(),
        Format::Unicode => diagram.to_text(&opts, TextStyle::Unicode).into_bytes(),
        Format::Sensei => diagram.to_text(&opts, TextStyle::Sensei).into_bytes(),
    };
    input::write_output(args.output.as_deref(), &bytes)?;
    Ok(0)
}
