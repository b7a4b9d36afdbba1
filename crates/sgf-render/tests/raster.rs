//! JPEG and BMP golden tests: the render fixtures drawn as PNG, JPEG and
//! BMP, each decoded again by an independent decoder (the `png` crate
//! through tiny-skia, zune-jpeg, zune-bmp) and compared pixel by pixel with
//! the PNG: BMP exactly, JPEG within the error its compression allows.

use resvg::tiny_skia::Pixmap;
use sgf_core::parse;
use sgf_render::{Diagram, ImageFormat, MoveNumbers, RenderError, RenderOptions, Theme};
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;

/// Width, height and RGB bytes.
type Rgb = (usize, usize, Vec<u8>);

fn decode_png(bytes: &[u8]) -> Rgb {
    let p = Pixmap::decode_png(bytes).expect("a PNG");
    let mut rgb = Vec::new();
    for px in p.pixels() {
        // Our drawings paint a background over the whole picture, to the last pixel.
        assert_eq!(px.alpha(), 255, "a transparent pixel");
        rgb.extend_from_slice(&[px.red(), px.green(), px.blue()]);
    }
    (p.width() as usize, p.height() as usize, rgb)
}

fn decode_jpeg(bytes: &[u8]) -> Rgb {
    let mut d = zune_jpeg::JpegDecoder::new(ZCursor::new(bytes));
    let rgb = d.decode().expect("a JPEG");
    let info = d.info().unwrap();
    assert_eq!(d.output_colorspace(), Some(ColorSpace::RGB));
    (info.width as usize, info.height as usize, rgb)
}

fn decode_bmp(bytes: &[u8]) -> Rgb {
    let mut d = zune_bmp::BmpDecoder::new(ZCursor::new(bytes));
    let rgb = d.decode().expect("a BMP");
    let (w, h) = d.dimensions().unwrap();
    assert_eq!(d.colorspace(), Some(ColorSpace::RGB));
    (w, h, rgb)
}

/// Mean absolute difference per channel, and the PSNR in dB.
fn difference(a: &Rgb, b: &Rgb) -> (f64, f64) {
    assert_eq!((a.0, a.1), (b.0, b.1), "sizes differ");
    assert_eq!(a.2.len(), b.2.len());
    let (mut abs, mut sq) = (0u64, 0u64);
    for (x, y) in a.2.iter().zip(&b.2) {
        let d = u64::from(x.abs_diff(*y));
        abs += d;
        sq += d * d;
    }
    let n = a.2.len() as f64;
    let mse = sq as f64 / n;
    let psnr = if mse == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (255.0 * 255.0 / mse).log10()
    };
    (abs as f64 / n, psnr)
}

const FIXTURES: &[&str] = &[
    "markup_all",
    "numbers_capture",
    "rect_13x7",
    "tiny_3x3",
    "variations_children",
];

fn diagram(name: &str) -> (Diagram, RenderOptions) {
    let path = format!(
        "{}/../../testdata/render/{name}.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let doc = parse(&std::fs::read(&path).unwrap()).document;
    let node = doc.game(0).unwrap().main_line().last().unwrap().id();
    let opts = RenderOptions {
        move_numbers: MoveNumbers::All,
        theme: if name == "numbers_capture" {
            Theme::Dark
        } else {
            Theme::Light
        },
        ..RenderOptions::default()
    };
    (Diagram::at(&doc, node, &opts).unwrap(), opts)
}

#[test]
fn bmp_has_exactly_the_pixels_of_the_png() {
    for name in FIXTURES {
        let (d, opts) = diagram(name);
        for size in [97, 320] {
            let png = decode_png(&d.to_image(&opts, size, ImageFormat::Png).unwrap());
            let bmp_bytes = d.to_image(&opts, size, ImageFormat::Bmp).unwrap();
            assert!(bmp_bytes.starts_with(b"BM"));
            let bmp = decode_bmp(&bmp_bytes);
            assert_eq!(png.0.max(png.1), size as usize, "{name}");
            assert_eq!((bmp.0, bmp.1), (png.0, png.1), "{name} at {size}");
            assert!(bmp.2 == png.2, "{name} at {size}: the pixels differ");
        }
    }
}

#[test]
fn jpeg_is_the_png_within_compression_error() {
    for name in FIXTURES {
        let (d, opts) = diagram(name);
        let png = decode_png(&d.to_png(&opts, 400).unwrap());
        let mut last: Option<(usize, f64)> = None;
        for quality in [95, 75, 30] {
            let bytes = d
                .to_image(&opts, 400, ImageFormat::Jpeg { quality })
                .unwrap();
            assert!(bytes.starts_with(&[0xff, 0xd8, 0xff]), "{name}");
            let jpg = decode_jpeg(&bytes);
            let (mean, psnr) = difference(&png, &jpg);
            // Fine lines and digits ring a little; the picture is the same.
            // Measured on these fixtures at 400 px: q95 mean 0.6-1.2 and
            // 42-47 dB; q75 (colours subsampled) 1.7-4.5 and 30-37 dB; q30
            // 3.6-6.5 and 27-32 dB. Swapped channels or a shifted row give
            // a mean of tens.
            let (max_mean, min_psnr) = match quality {
                95 => (2.0, 38.0),
                75 => (6.0, 27.0),
                _ => (9.0, 24.0),
            };
            assert!(
                mean < max_mean && psnr > min_psnr,
                "{name} q{quality}: mean {mean:.2}, PSNR {psnr:.1} dB"
            );
            // A lower quality is smaller and further from the PNG.
            if let Some((len, p)) = last {
                assert!(bytes.len() < len, "{name} q{quality}");
                assert!(psnr < p, "{name} q{quality}");
            }
            last = Some((bytes.len(), psnr));
        }
    }
}

#[test]
fn figures_and_formats_from_extensions() {
    let doc = parse(b"(;SZ[9];B[ee];W[cc]FG[0:two];B[gg])").document;
    let figs = sgf_render::figures(&doc, 0, &sgf_render::FigureOptions::default());
    let f = &figs[0];
    let png = decode_png(&f.to_image(Theme::Light, 200, ImageFormat::Png).unwrap());
    let bmp = decode_bmp(&f.to_image(Theme::Light, 200, ImageFormat::Bmp).unwrap());
    assert!(png == bmp);
    for (ext, want) in [
        ("png", ImageFormat::Png),
        ("JPG", ImageFormat::Jpeg { quality: 90 }),
        ("jpeg", ImageFormat::Jpeg { quality: 90 }),
        ("Bmp", ImageFormat::Bmp),
    ] {
        assert_eq!(ImageFormat::from_extension(ext), Some(want));
    }
    assert_eq!(ImageFormat::from_extension("gif"), None);
    let (d, opts) = diagram("tiny_3x3");
    assert_eq!(
        d.to_image(&opts, 100, ImageFormat::Jpeg { quality: 101 }),
        Err(RenderError::BadQuality(101))
    );
    assert_eq!(
        d.to_image(&opts, 0, ImageFormat::Bmp),
        Err(RenderError::BadSize(0))
    );
}
