//! Replay: a cursor moved around the tree in any order is always at the
//! position a fresh replay from the root reaches; and the mid-game
//! estimate (playouts that read ladders and races) of the position it
//! ends at finishes, whatever the board holds.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_go::Cursor;

fuzz_target!(|data: &[u8]| {
    // SGF, then (after a 0xFF byte) the nodes to visit.
    let (sgf, walk) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let doc = sgf_core::parse(sgf).document;
    for game in 0..doc.game_count().min(4) {
        let g = doc.game(game).unwrap();
        let nodes: Vec<_> = g.nodes().map(|n| n.id()).take(5000).collect();
        let mut c = Cursor::new(&doc, game);
        c.to_end(&doc);
        let mut steps: Vec<usize> = walk.iter().map(|&b| b as usize).collect();
        if steps.is_empty() {
            steps = (0..nodes.len().min(64)).rev().collect();
        }
        for s in steps.into_iter().take(64) {
            let target = nodes[s % nodes.len()];
            assert!(c.goto(&doc, target));
            let mut fresh = Cursor::new(&doc, game);
            assert!(fresh.goto(&doc, target));
            assert_eq!(c.position(), fresh.position());
            assert_eq!(c.node(), target);
        }
        // The estimate, as the viewer's count and `qipu score` make it
        // (boards up to 13×13: a playout costs about the board's area).
        let size = c.position().board.size();
        if game == 0 && u32::from(size.cols) * u32::from(size.rows) <= 169 {
            let info = sgf_go::GameInfo::of(&doc, game);
            let settings = sgf_go::score::Settings::of_game(&info);
            let pos = c.position();
            let e = sgf_go::score::estimate_position(pos, &settings, &Default::default());
            assert_eq!(e.ownership.len(), pos.board.cells().len());
            let dead = sgf_go::score::estimate_dead(&pos.board);
            let _ = sgf_go::score::count_or_estimate_both(pos, &dead, &[], &settings, &settings);
        }
    }
});
