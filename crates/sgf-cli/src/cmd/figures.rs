//! `qipu figures`: a game split into book-style diagrams, one picture each (SVG, PNG, JPEG or BMP), plus an HTML index.

use std::path::Path;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use sgf_render::figure::{FigureFlags, FigureOptions};
use sgf_render::{
    FiguresPage, ImageFormat, Pictures, Theme, figure_file_name, figures_title,
    try_for_each_figure_streamed,
};

use crate::cmd::render::ThemeArg;
use crate::input;

/// Picture formats of figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FigureFormat {
    /// Scalable vector graphics.
    Svg,
    /// PNG images.
    Png,
    /// JPEG images (quality from --quality).
    #[value(alias = "jpeg")]
    Jpg,
    /// 24-bit BMP images.
    Bmp,
}

impl FigureFormat {
    /// The raster format, `None` for SVG.
    fn image(self, quality: u8) -> Option<ImageFormat> {
        match self {
            FigureFormat::Svg => None,
            FigureFormat::Png => Some(ImageFormat::Png),
            FigureFormat::Jpg => Some(ImageFormat::Jpeg { quality }),
            FigureFormat::Bmp => Some(ImageFormat::Bmp),
        }
    }
}

/// Split a game into printed figures (at each FG, or every N moves): one picture each and an index page.
///
/// Exit status: 0 success; 2 the input could not be read (not a regular
/// file, larger than 1 GiB) or is not a game record (an archive of several
/// records says how to name one), the output could not be written (a file
/// written is then as it was), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input; `ARCHIVE!MEMBER` for a record
    /// file inside a zip, tar, tar.gz or 7z archive, or the archive itself
    /// when it holds one).
    pub file: String,
    /// Directory to write `figure-001.svg` (or .png, .jpg, .bmp), … and `index.html` into (created if needed).
    #[arg(short, long)]
    pub output: String,
    /// Picture format of the figures.
    #[arg(long, value_enum, default_value_t = FigureFormat::Svg)]
    pub format: FigureFormat,
    /// Longer side of PNG, JPEG or BMP figures in pixels.
    #[arg(long, default_value_t = 800)]
    pub size: u32,
    /// JPEG quality, 1 (smallest file) to 100 (best picture).
    #[arg(long, default_value_t = ImageFormat::DEFAULT_JPEG_QUALITY, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub quality: u8,
    /// Game of the collection (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Also start a new figure every N moves.
    #[arg(long)]
    pub every: Option<u32>,
    /// Remove captured stones in figures whose FG sets no flags (default: keep them, as books do).
    #[arg(long)]
    pub remove_captured: bool,
    /// Colours.
    #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
    pub theme: ThemeArg,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    // Only the part of a collection that holds the game is read.
    let at = input::load_game_numbered(&args.file, args.game, args.quiet)?;
    let loaded = &at.loaded;
    let doc = &loaded.parsed.document;
    let game = at.index;
    let opts = FigureOptions {
        every: args.every.filter(|&n| n > 0),
        defaults: FigureFlags {
            remove_captured: args.remove_captured,
            ..FigureFlags::default()
        },
    };
    let theme = match args.theme {
        ThemeArg::Light => Theme::Light,
        ThemeArg::Dark => Theme::Dark,
    };
    let dir = Path::new(&args.output);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let image = args.format.image(args.quality);
    let ext = image.map_or("svg", ImageFormat::extension);
    let title = figures_title(doc, game, &format!("{} – game {}", loaded.name, args.game));
    let index = dir.join("index.html");
    let mut count = 0usize;
    // Each figure is written, then its section of the index, as it is
    // made: a long game split every few moves has many (the index is put
    // in place last, once every figure is).
    crate::input::write_file_with(&index, |out| {
        let what = || format!("cannot write {}", index.display());
        let mut page = FiguresPage::start(&title, Pictures::Files(ext), out).with_context(what)?;
        // A figure's moves not shown are made again as each file is
        // written, not held: a figure of a long game lists a million.
        try_for_each_figure_streamed(doc, game, &opts, |f| {
            count += 1;
            let path = dir.join(figure_file_name(f.number(), ext));
            match image {
                // Written as it is drawn: a figure of a long game lists a
                // million moves, hundreds of megabytes of SVG.
                None => crate::input::write_file_with(&path, |out| {
                    f.write_svg(theme, out)
                        .with_context(|| format!("cannot write {}", path.display()))
                })?,
                Some(format) => {
                    let bytes = f
                        .to_image(theme, args.size, format)
                        .with_context(|| format!("cannot draw figure {}", f.number()))?;
                    crate::input::write_file(&path, &bytes)?;
                }
            }
            page.add_streamed(&f).with_context(what)
        })?;
        page.finish().map(drop).with_context(what)
    })?;
    eprintln!("{count} figure(s) written to {}", dir.display());
    Ok(0)
}
