//! `.npz` files: a zip of `.npy` arrays, as `numpy.savez` writes them, so
//! that `numpy.load` alone reads them (no pickle).

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;

/// One array: its name, NumPy type (`|u1`, `<u2`, `<f4`…), shape, and
/// what writes its bytes (C order, little-endian).
pub(crate) struct Array<'a> {
    pub name: &'a str,
    pub descr: &'a str,
    pub shape: Vec<usize>,
    pub write: &'a dyn Fn(&mut dyn Write) -> std::io::Result<()>,
}

/// The `.npy` header (format 1.0): magic, version, header length, and the
/// dictionary padded with spaces to a multiple of 64 bytes.
fn npy_header(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut dict =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {dims}, }}").into_bytes();
    let total = 10 + dict.len() + 1;
    let pad = total.next_multiple_of(64) - total;
    dict.extend(std::iter::repeat_n(b' ', pad));
    dict.push(b'\n');
    let mut h = b"\x93NUMPY\x01\x00".to_vec();
    h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    h.extend_from_slice(&dict);
    h
}

/// The bytes of an `.npz` holding `arrays` (stored, not compressed: the
/// planes are bit-packed already, and a reader maps them fastest), written
/// into `buf` (cleared first; its memory is reused shard after shard).
pub(crate) fn npz(arrays: &[Array<'_>], buf: Vec<u8>, large: bool) -> std::io::Result<Vec<u8>> {
    let mut buf = buf;
    buf.clear();
    let mut z = zip::ZipWriter::new(Cursor::new(buf));
    let opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(large);
    for a in arrays {
        z.start_file(format!("{}.npy", a.name), opts)
            .map_err(std::io::Error::other)?;
        z.write_all(&npy_header(a.descr, &a.shape))?;
        (a.write)(&mut z)?;
    }
    Ok(z.finish().map_err(std::io::Error::other)?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_aligned() {
        let h = npy_header("|u1", &[3, 18, 46]);
        assert_eq!(h.len() % 64, 0);
        assert!(h.ends_with(b"\n"));
        let text = String::from_utf8_lossy(&h[10..]);
        assert!(text.contains("'shape': (3, 18, 46)"), "{text}");
        let h = npy_header("<f4", &[5]);
        assert!(String::from_utf8_lossy(&h).contains("'shape': (5,)"));
    }
}
