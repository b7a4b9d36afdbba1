//! The dataset builder on any record: every game either left out with a
//! reason or turned into samples whose planes, labels and symmetries hold
//! their shape (no panic, no hang, every plane's padding zero, 8 forms a
//! position with all symmetries).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgf_dataset::{Features, Options, Symmetry};

fuzz_target!(|data: &[u8]| {
    let Ok(loaded) = sgf_formats::read_any(data, None) else {
        return;
    };
    let doc = &loaded.parsed.document;
    let converted = loaded.converted.then_some(loaded.charset);
    for gi in 0..doc.game_count().min(4) {
        let game = doc.game(gi).unwrap();
        let (size, _) = sgf_go::coords::board_size(&game.root());
        if size.cols != size.rows || size.cols == 0 {
            continue;
        }
        let mut o = Options::default();
        o.selection.size = size.cols;
        o.selection.illegal = sgf_dataset::Illegal::Cut;
        o.features = Features {
            history: 3,
            liberties: true,
            legal: true,
            ko: true,
            last_moves: 2,
        };
        o.symmetry = Symmetry::All;
        let Ok(samples) = sgf_dataset::game_samples(doc, gi, converted, gi as u32, &o) else {
            continue;
        };
        let n = size.cols as usize * size.rows as usize;
        let bpp = n.div_ceil(8);
        assert_eq!(samples.len() % 8, 0);
        for s in &samples {
            assert_eq!(s.planes.len(), o.features.planes() * bpp);
            assert!(s.policy as usize <= n);
            assert!((-1..=1).contains(&s.value));
            if n % 8 != 0 {
                let mask = 0xFFu8 >> (n % 8);
                for p in s.planes.chunks(bpp) {
                    assert_eq!(p[bpp - 1] & mask, 0, "padding bits are zero");
                }
            }
        }
    }
});
