//! Leela Zero's training chunks: gzip text, 19 lines a position.
//!
//! 16 lines of stone planes (the side to move's stones now and 7 moves
//! back, then the opponent's), each 361 points in Leela Zero's order (row
//! by row from the bottom, the row of GTP `1` first) written as 90 hex
//! digits of 4 points each and a last digit for the 361st point; a line
//! with the side to move (`0` Black, `1` White); a line of 362 move
//! probabilities (the move played is 1, pass last); a line with the winner
//! for the side to move (`1` or `-1`). Leela Zero's own `dump_supervised`
//! writes the same, so its training scripts read these unchanged.

use std::io::Write;

use crate::features::{Sample, bit};

/// Leela Zero's point index of SGF point index `i` on 19×19.
fn lz_index(i: usize) -> usize {
    let (x, y) = (i % 19, i / 19);
    (18 - y) * 19 + x
}

/// Appends the text of a position to `out`. The sample has the default
/// planes (history 8) on a 19×19 board and a winner.
pub(crate) fn write_sample(out: &mut Vec<u8>, s: &Sample) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bpp = 46;
    for p in 0..16 {
        let plane = &s.planes[p * bpp..(p + 1) * bpp];
        let mut bits = [false; 361];
        for i in 0..361 {
            if bit(plane, i) {
                bits[lz_index(i)] = true;
            }
        }
        for q in bits[..360].chunks(4) {
            let v = (usize::from(q[0]) << 3)
                | (usize::from(q[1]) << 2)
                | (usize::from(q[2]) << 1)
                | usize::from(q[3]);
            out.push(HEX[v]);
        }
        out.push(if bits[360] { b'1' } else { b'0' });
        out.push(b'\n');
    }
    out.extend_from_slice(if s.to_move == 0 { b"0\n" } else { b"1\n" });
    let hot = if s.policy as usize >= 361 {
        361
    } else {
        lz_index(s.policy as usize)
    };
    for i in 0..362 {
        if i > 0 {
            out.push(b' ');
        }
        out.push(if i == hot { b'1' } else { b'0' });
    }
    out.push(b'\n');
    let _ = writeln!(out, "{}", if s.value > 0 { 1 } else { -1 });
}

/// The gzip bytes of a chunk of positions.
pub(crate) fn chunk(samples: &[Sample]) -> std::io::Result<Vec<u8>> {
    let mut text = Vec::with_capacity(samples.len() * 2600);
    for s in samples {
        write_sample(&mut text, s);
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    gz.write_all(&text)?;
    gz.finish()
}
