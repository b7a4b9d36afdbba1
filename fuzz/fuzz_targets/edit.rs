//! Editing: any sequence of the library's edits (the ones the viewer and
//! Python use) on any record. No panic, and the edited document written
//! losslessly reads back as the same tree (compared in canonical form).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_core::{
    Color, Document, NodeId, Point, WriteOptions, parse, to_canonical_bytes, to_lossless_bytes,
    to_lossless_bytes_checked,
};
use sgf_go::{Cursor, Move, Stone};

const IDENTS: &[&str] = &[
    "C", "N", "B", "W", "AB", "TR", "LB", "XX", "KM", "GM", "SZ", "MN",
];
const TEXTS: &[&str] = &["", "a]b", "c\\d", "多\\]字", "line\nbreak", ":", "x:y"];

fn nodes(doc: &Document) -> Vec<NodeId> {
    doc.all_nodes().map(|(_, n)| n).take(4096).collect()
}

fuzz_target!(|data: &[u8]| {
    // SGF, then (after a 0xFF byte) the edits, four bytes each.
    let (sgf, ops) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let parsed = parse(sgf);
    let clean = !parsed
        .diagnostics
        .iter()
        .any(|d| d.severity == sgf_core::Severity::Error && d.code.layer() == "syntax");
    let mut doc = parsed.document;
    if doc.game_count() == 0 {
        return;
    }
    let trace = std::env::var_os("QIPU_FUZZ_TRACE").is_some();
    for op in ops.chunks_exact(4).take(64) {
        let all = nodes(&doc);
        if all.is_empty() {
            break;
        }
        let (kind, a, b, c) = (op[0], op[1] as usize, op[2] as usize, op[3] as usize);
        let node = all[a % all.len()];
        let ident = IDENTS[b % IDENTS.len()];
        let text = TEXTS[c % TEXTS.len()];
        let pt = Point::new((b % 19) as u8, (c % 19) as u8);
        let game = doc
            .all_nodes()
            .find(|(_, n)| *n == node)
            .map_or(0, |(g, _)| g);
        let size = sgf_go::board_size(&doc.game(game).unwrap().root()).0;
        if trace {
            eprintln!(
                "op {} node {} ident {ident} text {text:?} pt {pt}",
                kind % 14,
                a % all.len()
            );
        }
        let _ = match kind % 14 {
            0 => doc.set_text(node, ident, text).map(|_| ()),
            1 => {
                doc.remove_property(node, ident);
                Ok(())
            }
            2 => doc.add_child(node).map(|_| ()),
            3 => doc.remove_node(node),
            4 => doc.move_variation(node, b),
            5 => doc.promote_to_main_line(node),
            6 => {
                let mut cur = Cursor::new(&doc, game);
                cur.goto(&doc, node);
                let color = if b & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let mv = if c == 255 { Move::Pass } else { Move::Play(pt) };
                sgf_go::edit::play(&mut doc, &mut cur, color, mv).map(|_| ())
            }
            7 => {
                let stone = [None, Some(Stone::Black), Some(Stone::White)][c % 3];
                sgf_go::edit::set_setup(&mut doc, node, size, pt, stone)
            }
            8 => sgf_go::edit::toggle_markup(
                &mut doc,
                node,
                size,
                ["TR", "CR", "SQ", "MA", "SL"][c % 5],
                pt,
            )
            .map(|_| ()),
            9 => sgf_go::edit::set_label(&mut doc, node, size, pt, (c & 1 == 0).then_some(text)),
            10 => sgf_go::edit::toggle_line(
                &mut doc,
                node,
                ["AR", "LN"][c & 1],
                pt,
                Point::new((c % 19) as u8, (b % 19) as u8),
            )
            .map(|_| ()),
            11 => doc.split_below(node).map(|_| ()),
            12 => doc.set_raw(node, ident, &[text.to_string()]),
            _ => doc.add_raw(node, ident, &[text.to_string(), String::new()]),
        };
    }
    // On input without syntax errors the lossless form always reads back
    // as the edited tree; next to damage the checked writer either
    // verifies it or refuses (the caller then writes the canonical form).
    let wo = WriteOptions::default();
    let expect = String::from_utf8_lossy(&to_canonical_bytes(&doc, &wo)).into_owned();
    // An edit may remove the text a game's charset decision rested on (the
    // last GBK text of a `CA[GBK]` game whose other bytes are valid
    // UTF-8): then only the checked writer's promise holds (it refuses
    // unless the text reads the same, checked below).
    let charset_moved = {
        let again = parse(&to_lossless_bytes(&doc)).document;
        (0..doc.game_count().min(again.game_count()))
            .any(|g| doc.game(g).unwrap().encoding() != again.game(g).unwrap().encoding())
    };
    if clean && !charset_moved {
        let again = parse(&to_lossless_bytes(&doc)).document;
        assert_eq!(
            expect,
            String::from_utf8_lossy(&to_canonical_bytes(&again, &wo)),
            "the lossless bytes of a clean file do not read back as the edited tree"
        );
    }
    if let Ok(bytes) = to_lossless_bytes_checked(&doc) {
        let again = parse(&bytes).document;
        assert_eq!(
            expect,
            String::from_utf8_lossy(&to_canonical_bytes(&again, &wo))
        );
    }
});
