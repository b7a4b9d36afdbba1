//! Raster pictures: PNG, JPEG and BMP, encoded from one rasterised drawing
//! (MultiGo saves the board in these three), so the three show the same
//! pixels but for JPEG's compression.
//!
//! ```
//! use sgf_render::raster::ImageFormat;
//!
//! assert_eq!(ImageFormat::from_extension("JPEG"), Some(ImageFormat::Jpeg { quality: 90 }));
//! assert_eq!(ImageFormat::from_extension("bmp").unwrap().mime_type(), "image/bmp");
//! assert_eq!(ImageFormat::from_extension("svg"), None);
//! ```

use resvg::tiny_skia::Pixmap;

use crate::RenderError;

/// A raster picture format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// PNG, lossless.
    Png,
    /// JPEG (baseline, JFIF) at a quality from 1 to 100.
    Jpeg {
        /// 1 (smallest) to 100 (best); at 90 and above colours are not subsampled.
        quality: u8,
    },
    /// BMP: 24-bit uncompressed Windows bitmap.
    Bmp,
}

impl ImageFormat {
    /// The JPEG quality when none is asked for.
    pub const DEFAULT_JPEG_QUALITY: u8 = 90;

    /// The format of a file name extension (`png`, `jpg`, `jpeg`, `bmp`,
    /// any case); JPEG at [`ImageFormat::DEFAULT_JPEG_QUALITY`].
    pub fn from_extension(ext: &str) -> Option<ImageFormat> {
        match ext.to_ascii_lowercase().as_str() {
            "png" => Some(ImageFormat::Png),
            "jpg" | "jpeg" => Some(ImageFormat::Jpeg {
                quality: Self::DEFAULT_JPEG_QUALITY,
            }),
            "bmp" => Some(ImageFormat::Bmp),
            _ => None,
        }
    }

    /// The usual extension, without the dot (`png`, `jpg`, `bmp`).
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg { .. } => "jpg",
            ImageFormat::Bmp => "bmp",
        }
    }

    /// The MIME type.
    pub fn mime_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg { .. } => "image/jpeg",
            ImageFormat::Bmp => "image/bmp",
        }
    }
}

/// The pixels as opaque RGB, composited over white. Our drawings paint a
/// background over the whole picture, so nothing is actually transparent;
/// this only keeps a stray transparent pixel from turning black.
fn rgb(pixmap: &Pixmap) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixmap.width() as usize * pixmap.height() as usize * 3);
    for p in pixmap.pixels() {
        // Premultiplied: colour + (1 − alpha) × white.
        let rest = 255 - p.alpha();
        out.extend_from_slice(&[
            p.red().saturating_add(rest),
            p.green().saturating_add(rest),
            p.blue().saturating_add(rest),
        ]);
    }
    out
}

/// Encodes a pixmap.
pub(crate) fn encode(pixmap: &Pixmap, format: ImageFormat) -> Result<Vec<u8>, RenderError> {
    match format {
        ImageFormat::Png => pixmap
            .encode_png()
            .map_err(|e| RenderError::Raster(e.to_string())),
        ImageFormat::Jpeg { quality } => {
            if !(1..=100).contains(&quality) {
                return Err(RenderError::BadQuality(quality));
            }
            // JPEG sizes are 16-bit; our pictures are at most 16384 pixels a side.
            let (w, h) = (pixmap.width() as u16, pixmap.height() as u16);
            let mut out = Vec::new();
            jpeg_encoder::Encoder::new(&mut out, quality)
                .encode(&rgb(pixmap), w, h, jpeg_encoder::ColorType::Rgb)
                .map_err(|e| RenderError::Raster(e.to_string()))?;
            Ok(out)
        }
        ImageFormat::Bmp => Ok(bmp(pixmap.width(), pixmap.height(), &rgb(pixmap))),
    }
}

/// A 24-bit BMP (BITMAPINFOHEADER, no compression): rows bottom-up, pixels
/// as blue, green, red, each row padded to a multiple of 4 bytes.
fn bmp(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    let row = (width as usize * 3).next_multiple_of(4);
    let data = row * height as usize;
    let mut out = Vec::with_capacity(54 + data);
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&((54 + data) as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&54u32.to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&(width as i32).to_le_bytes());
    out.extend_from_slice(&(height as i32).to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24u16.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(data as u32).to_le_bytes());
    // 2835 pixels a metre: 72 dpi.
    out.extend_from_slice(&2835i32.to_le_bytes());
    out.extend_from_slice(&2835i32.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    let stride = width as usize * 3;
    for y in (0..height as usize).rev() {
        let start = out.len();
        for px in rgb[y * stride..(y + 1) * stride].chunks_exact(3) {
            out.extend_from_slice(&[px[2], px[1], px[0]]);
        }
        out.resize(start + row, 0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bmp_layout() {
        // 2×2: red, green / blue, white; rows of 6 bytes padded to 8.
        let rgb = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255];
        let b = bmp(2, 2, &rgb);
        assert_eq!(b.len(), 54 + 16);
        assert_eq!(&b[..2], b"BM");
        assert_eq!(u32::from_le_bytes(b[2..6].try_into().unwrap()), 70);
        assert_eq!(u32::from_le_bytes(b[10..14].try_into().unwrap()), 54);
        // Bottom row first: blue, white (as BGR), then padding.
        assert_eq!(&b[54..62], &[255, 0, 0, 255, 255, 255, 0, 0]);
        assert_eq!(&b[62..70], &[0, 0, 255, 0, 255, 0, 0, 0]);
    }

    #[test]
    fn transparent_pixels_become_white() {
        let mut p = Pixmap::new(1, 1).unwrap();
        assert_eq!(rgb(&p), [255, 255, 255]);
        p.fill(resvg::tiny_skia::Color::from_rgba8(0, 0, 0, 255));
        assert_eq!(rgb(&p), [0, 0, 0]);
    }

    #[test]
    fn quality_out_of_range() {
        let p = Pixmap::new(2, 2).unwrap();
        assert_eq!(
            encode(&p, ImageFormat::Jpeg { quality: 0 }),
            Err(RenderError::BadQuality(0))
        );
        assert!(encode(&p, ImageFormat::Jpeg { quality: 100 }).is_ok());
    }
}
