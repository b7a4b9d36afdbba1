//! Writers: lossless (the input back, byte for byte, with edits spliced in)
//! and canonical (FF\[4\], UTF-8, one node per line).

mod canonical;
mod lossless;

pub use canonical::*;
pub use lossless::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    /// Fuzz (`edit`, found by CI's share): the text before a game that
    /// was removed went with it in the lossless form but stayed in the
    /// canonical form, so the two no longer read back alike.
    #[test]
    fn text_before_a_removed_game_goes_with_it_in_both_forms() {
        let mut doc = crate::parse(b"(;GM[1]C[a])\nTitle two\n(;GM[1]C[b])\nthe end").document;
        let root2 = doc.game(1).unwrap().root().id();
        doc.remove_node(root2).unwrap();
        let wo = WriteOptions::default();
        let canon = String::from_utf8(to_canonical_bytes(&doc, &wo)).unwrap();
        let again = crate::parse(&to_lossless_bytes(&doc)).document;
        assert_eq!(
            canon,
            String::from_utf8(to_canonical_bytes(&again, &wo)).unwrap()
        );
        assert!(
            !canon.contains("Title two") && canon.contains("the end"),
            "{canon}"
        );
    }

    fn canon(s: &[u8]) -> String {
        let p = parse(s);
        String::from_utf8(to_canonical_bytes(&p.document, &WriteOptions::default())).unwrap()
    }

    /// Parts of a collection written one by one and joined with
    /// `GAME_SEPARATOR` give the collection's canonical form.
    #[test]
    fn parts_join_into_the_collection() {
        let opts = WriteOptions::default();
        let whole = crate::parse(b"(;B[aa])\n(;W[bb]C[x])\n(;B[cc])").document;
        let a = to_canonical_bytes(&crate::parse(b"(;B[aa])").document, &opts);
        let b = to_canonical_bytes(&crate::parse(b"(;W[bb]C[x])\n(;B[cc])").document, &opts);
        let joined = [a, GAME_SEPARATOR.to_vec(), b].concat();
        assert_eq!(to_canonical_bytes(&whole, &opts), joined);
    }

    /// Fuzzing found it: junk the reader ignored (`[s]` without an
    /// identifier) reads as a value of a move an edit puts before it. The
    /// checked writer refuses instead of changing the file silently.
    #[test]
    fn the_checked_writer_refuses_what_would_read_differently() {
        let mut doc = crate::parse(b"(;([s]o\n").document;
        let var = doc.game(0).unwrap().nodes().nth(1).unwrap().id();
        let kid = doc.add_child(var).unwrap();
        doc.set_raw(kid, "B", &["kk".into()]).unwrap();
        let err = to_lossless_bytes_checked(&doc).unwrap_err();
        assert_eq!(err.node, 2);
        // A clean file edited the same way is written and reads back.
        let mut doc = crate::parse(b"(;C[x](;B[aa]))").document;
        let var = doc.game(0).unwrap().nodes().nth(1).unwrap().id();
        let kid = doc.add_child(var).unwrap();
        doc.set_raw(kid, "W", &["kk".into()]).unwrap();
        assert_eq!(
            to_lossless_bytes_checked(&doc).unwrap(),
            b"(;C[x](;B[aa]\n;W[kk]))"
        );
    }

    /// Fuzzing found it: a `CA[GBK]` game whose only GBK text is deleted
    /// reads, written as it was, as UTF-8 (its other bytes are valid
    /// UTF-8): refused, with the charset named.
    #[test]
    fn the_checked_writer_refuses_a_charset_that_would_change() {
        let src = b"(;CA[GBK];C[a\xef\xbf\xbdd];C[\xba\xda\xc6\xe5])";
        let mut doc = crate::parse(src).document;
        assert_eq!(doc.game(0).unwrap().charset(), "GBK");
        let last = doc.game(0).unwrap().nodes().nth(2).unwrap().id();
        doc.remove_node(last).unwrap();
        let err = to_lossless_bytes_checked(&doc).unwrap_err();
        assert_eq!(err.charset, Some("UTF-8"));
        assert!(err.to_string().contains("read as UTF-8"), "{err}");
    }

    /// Fuzzing found it: a property added to a file that ends inside a
    /// value (`(W[`) was written inside that value.
    #[test]
    fn an_input_ending_inside_a_value_is_closed_before_additions() {
        let mut doc = crate::parse(b"(W[").document;
        assert_eq!(to_lossless_bytes(&doc), b"(W[");
        let node = doc.game(0).unwrap().root().id();
        doc.add_raw(node, "N", &["x".into()]).unwrap();
        let out = to_lossless_bytes(&doc);
        assert_eq!(out, b"(W[]N[x]");
        let again = crate::parse(&out).document;
        assert_eq!(
            again.game(0).unwrap().root().text("N").as_deref(),
            Some("x")
        );
        // An escaped bracket at the end does not close the value either.
        let mut doc = crate::parse(b"(;C[a\\]").document;
        let node = doc.game(0).unwrap().root().id();
        doc.add_raw(node, "N", &["y".into()]).unwrap();
        let again = crate::parse(&to_lossless_bytes(&doc)).document;
        assert_eq!(
            again.game(0).unwrap().root().text("N").as_deref(),
            Some("y")
        );
    }

    /// Fuzzing found it: a node read without its `;` (after a variation)
    /// merged into its parent once the variation before it was deleted.
    #[test]
    fn a_node_without_semicolon_stays_a_node_after_edits() {
        let src = b"(;US[A](;B[pd]) ]RE[W])";
        let mut doc = crate::parse(src).document;
        assert_eq!(to_lossless_bytes(&doc), src);
        let root = doc.game(0).unwrap().root().id();
        let first = doc.node(root).children().next().unwrap().id();
        doc.remove_node(first).unwrap();
        let again = crate::parse(&to_lossless_bytes(&doc)).document;
        let opts = WriteOptions::default();
        assert_eq!(
            canon(&to_canonical_bytes(&doc, &opts)),
            canon(&to_canonical_bytes(&again, &opts))
        );
        assert_eq!(again.game(0).unwrap().nodes().count(), 2);
    }

    #[test]
    fn lossless_identity() {
        for s in [
            &b"(;FF[4]GM[1] ;B[aa]\n(;W[bb])(;W[cc]))"[..],
            b"junk before (;B[aa] -- W[bb]) trailing",
            b"(;C[abc",
            b";GM[1];B[aa])",
            b"(FF[4]KO[x];B[pd])",
        ] {
            let p = parse(s);
            assert_eq!(to_lossless_bytes(&p.document), s);
            let mut d = p.document.clone();
            d.edited = true; // force the token walk
            assert_eq!(
                String::from_utf8_lossy(&to_lossless_bytes(&d)),
                String::from_utf8_lossy(s)
            );
        }
    }

    #[test]
    fn canonical_layout() {
        assert_eq!(
            canon(b"(;GM[1]SZ[9];B[aa](;W[bb])(;W[cc];B[dd]))"),
            "(;FF[4]\nCA[UTF-8]\nGM[1]\nSZ[9]\n;B[aa]\n(;W[bb])\n(;W[cc]\n;B[dd]))\n"
        );
        assert_eq!(
            canon(b"(;FF[3]CA[ISO-8859-1]AddBlack[aa]AB[bb])"),
            "(;FF[4]\nCA[UTF-8]\nAB[aa][bb])\n"
        );
        assert_eq!(
            canon(br"(;C[a\]b\\c\d])"),
            "(;FF[4]\nCA[UTF-8]\nC[a\\]b\\\\cd])\n"
        );
        assert_eq!(
            canon(b"(;LB[aa:x\\:y])"),
            "(;FF[4]\nCA[UTF-8]\nLB[aa:x:y])\n"
        );
        assert_eq!(
            canon(b"(;AP[a\\:b:1])"),
            "(;FF[4]\nCA[UTF-8]\nAP[a\\:b:1])\n"
        );
    }

    #[test]
    fn canonical_transcodes() {
        // GBK 黑棋 → UTF-8
        let out = canon(b"(;CA[GB2312]PB[\xba\xda\xc6\xe5])");
        assert!(out.contains("PB[黑棋]"), "{out}");
        assert!(out.contains("CA[UTF-8]"));
    }

    /// `fmt --expand` once left a list alone when it was its node's only
    /// property, and expanded lists in games whose points are not letters.
    #[test]
    fn expanding_alone_and_only_in_go() {
        let opts = WriteOptions {
            point_lists: PointLists::Expanded,
            ..WriteOptions::default()
        };
        let doc = crate::parse(b"(;GM[1]SZ[19];AB[cc:dd])").document;
        assert!(canon(&to_canonical_bytes(&doc, &opts)).ends_with(";AB[cc][dc][cd][dd])\n"));
        let doc = crate::parse(b"(;GM[19]SZ[19];MA[ee:ff]B[aa])").document;
        assert!(canon(&to_canonical_bytes(&doc, &opts)).contains("MA[ee:ff]"));
        // Decided per game tree (libsgfc++'s compressed-point-list.sgf): a
        // Go game before a game of another kind is expanded.
        let doc =
            crate::parse(b"(;FF[4]GM[1];MA[aa:bb];AB[cc:dd])(;FF[4]GM[19];MA[ee:ff])").document;
        let out = canon(&to_canonical_bytes(&doc, &opts));
        assert!(
            out.contains(";MA[aa][ba][ab][bb]\n;AB[cc][dc][cd][dd])"),
            "{out}"
        );
        assert!(out.contains(";MA[ee:ff])"), "{out}");
    }

    #[test]
    fn compress_and_expand() {
        let p = parse(b"(;AB[aa][ba][ab][bb][dd])");
        let o = WriteOptions {
            point_lists: PointLists::Compressed,
            ..Default::default()
        };
        let s = String::from_utf8(to_canonical_bytes(&p.document, &o)).unwrap();
        assert!(s.contains("AB[aa:bb][dd]"), "{s}");
        let p = parse(s.as_bytes());
        let o = WriteOptions {
            point_lists: PointLists::Expanded,
            ..Default::default()
        };
        let s = String::from_utf8(to_canonical_bytes(&p.document, &o)).unwrap();
        assert!(s.contains("AB[aa][ba][ab][bb][dd]"), "{s}");
    }
}
