//! `qipu render` and `qipu figures` writing JPEG and BMP besides PNG, the
//! format chosen from the output's extension (pixel comparisons with the PNG
//! are in sgf-render's tests/raster.rs).

mod common;
use common::*;

const GAME: &str = "(;SZ[13]PB[Kuro]PW[Shiro];B[dd];W[jj]TR[dd];B[dj];W[jd]LB[gg:A])";

/// Width and height from the header of a PNG, a baseline JPEG or a BMP.
fn dimensions(b: &[u8]) -> (u32, u32) {
    let be = |i: usize| u32::from(u16::from_be_bytes([b[i], b[i + 1]]));
    if b.starts_with(b"\x89PNG") {
        let w = u32::from_be_bytes(b[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(b[20..24].try_into().unwrap());
        (w, h)
    } else if b.starts_with(b"BM") {
        let w = i32::from_le_bytes(b[18..22].try_into().unwrap());
        let h = i32::from_le_bytes(b[22..26].try_into().unwrap());
        (w as u32, h as u32)
    } else if b.starts_with(&[0xff, 0xd8]) {
        // Walk the segments to the frame header (SOF0).
        let mut i = 2;
        while i + 9 < b.len() {
            assert_eq!(b[i], 0xff, "a JPEG marker at {i}");
            if b[i + 1] == 0xc0 {
                return (be(i + 7), be(i + 5));
            }
            i += 2 + be(i + 2) as usize;
        }
        panic!("no SOF0 in the JPEG");
    } else {
        panic!("not a PNG, JPEG or BMP");
    }
}

#[test]
fn render_chooses_jpeg_and_bmp_from_the_extension() {
    let d = scratch("render");
    let f = d.join("g.sgf");
    std::fs::write(&f, GAME).unwrap();
    let f = f.to_str().unwrap();
    let mut sizes = Vec::new();
    for (name, magic) in [
        ("a.png", &b"\x89PNG"[..]),
        ("a.jpg", &[0xff, 0xd8, 0xff][..]),
        ("a.JPEG", &[0xff, 0xd8, 0xff][..]),
        ("a.bmp", &b"BM"[..]),
    ] {
        let p = d.join(name);
        let out = qipu(&["render", f, "-o", p.to_str().unwrap(), "--size", "333"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let b = std::fs::read(&p).unwrap();
        assert!(b.starts_with(magic), "{name}");
        sizes.push(dimensions(&b));
    }
    // One drawing, one size: 333 on the longer side.
    assert!(sizes.iter().all(|&s| s == sizes[0]), "{sizes:?}");
    assert_eq!(sizes[0].0.max(sizes[0].1), 333);

    // --quality: smaller files at lower quality; --format without -o.
    let small = d.join("q20.jpg");
    qipu(&[
        "render",
        f,
        "-o",
        small.to_str().unwrap(),
        "--quality",
        "20",
    ]);
    let big = d.join("q98.jpg");
    qipu(&["render", f, "-o", big.to_str().unwrap(), "--quality", "98"]);
    let (small, big) = (
        std::fs::read(small).unwrap().len(),
        std::fs::read(big).unwrap().len(),
    );
    assert!(small * 2 < big, "{small} vs {big}");
    let out = qipu(&["render", f, "--format", "bmp", "--size", "100"]);
    assert!(out.stdout.starts_with(b"BM"));
    let out = qipu(&["render", f, "--format", "jpeg", "--size", "100"]);
    assert!(out.stdout.starts_with(&[0xff, 0xd8, 0xff]));
    // Same input, same bytes.
    let again = qipu(&["render", f, "--format", "jpg", "--size", "100"]);
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn bad_quality_and_unknown_extensions_exit_2() {
    let d = scratch("errors");
    let f = d.join("g.sgf");
    std::fs::write(&f, GAME).unwrap();
    let f = f.to_str().unwrap();
    for args in [
        vec!["render", f, "-o", "x.jpg", "--quality", "0"],
        vec!["render", f, "-o", "x.jpg", "--quality", "101"],
        vec!["render", f, "-o", "x.tiff"],
        vec!["figures", f, "-o", "out", "--format", "gif"],
    ] {
        let out = qipu(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
    let out = qipu(&["render", f, "-o", "x.tiff"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("jpg|bmp"));
}

#[test]
fn figures_in_every_picture_format() {
    let d = scratch("figures");
    let f = d.join("g.sgf");
    std::fs::write(&f, "(;SZ[9];B[aa];W[bb];B[cc]FG[0:Later];W[dd])").unwrap();
    let f = f.to_str().unwrap();
    for (format, ext, magic) in [
        ("png", "png", &b"\x89PNG"[..]),
        ("jpg", "jpg", &[0xff, 0xd8, 0xff][..]),
        ("bmp", "bmp", &b"BM"[..]),
        ("svg", "svg", &b"<svg"[..]),
    ] {
        let out_dir = d.join(format);
        let out = qipu(&[
            "figures",
            f,
            "-o",
            out_dir.to_str().unwrap(),
            "--format",
            format,
            "--size",
            "240",
            "--quality",
            "80",
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for n in 1..=2 {
            let name = format!("figure-00{n}.{ext}");
            let b = std::fs::read(out_dir.join(&name)).unwrap();
            assert!(b.starts_with(magic), "{name}");
            if format != "svg" {
                let (w, h) = dimensions(&b);
                assert_eq!(w.max(h), 240, "{name}");
            }
        }
        let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
        assert!(
            index.contains(&format!("src=\"figure-001.{ext}\"")),
            "{index}"
        );
    }
}
