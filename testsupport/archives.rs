//! Building archive fixtures in tests (zip, tar, tar.gz). Not a crate: the
//! crates' integration tests include this file by path,
//! `#[path = "../../../testsupport/archives.rs"] mod archives;`, with
//! `zip`, `tar` and `flate2` as dev-dependencies.
#![allow(dead_code)]

use std::io::Write;

/// A tar of `files` (name, bytes), in order.
pub fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut t = tar::Builder::new(Vec::new());
    for (name, body) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        t.append_data(&mut h, name, *body).unwrap();
    }
    t.into_inner().unwrap()
}

/// A zip of `files` (name, bytes), deflated, in order.
pub fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, body) in files {
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        z.start_file(*name, o).unwrap();
        z.write_all(body).unwrap();
    }
    z.finish().unwrap().into_inner()
}

/// `b` gzipped.
pub fn gz(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}
