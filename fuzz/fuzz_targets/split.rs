//! `qipu check` cuts collections into parts (`sgf_core::split`): the parts
//! cover the input exactly, and when the cut holds for every part, the
//! parts hold the games of the whole file, in order.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = 1 + data.first().copied().unwrap_or(0) as usize;
    let Some(split) = sgf_core::split::split_collection(data, target) else {
        return;
    };
    let mut at = 0;
    for r in &split.ranges {
        assert_eq!(r.start, at, "parts leave a gap or overlap");
        assert!(r.end > r.start);
        at = r.end;
    }
    assert_eq!(at, data.len(), "parts do not reach the end");
    let whole = sgf_core::parse(data).document;
    let mut games = Vec::new();
    for r in &split.ranges {
        let part = sgf_core::parse(&data[r.clone()]).document;
        if !split.holds_for(&part) {
            return;
        }
        games.extend(part.games().map(|g| {
            let n = g.nodes().count();
            (n, g.root().props().count())
        }));
    }
    let whole_games: Vec<_> = whole
        .games()
        .map(|g| (g.nodes().count(), g.root().props().count()))
        .collect();
    assert_eq!(
        games, whole_games,
        "the parts read other games than the whole file"
    );
});
