//! The GTP client against real engines: Debian's GNU Go (a move, the dead
//! stones of a finished game) and Leela Zero with a tiny network of zeros
//! made here, as its README.Debian explains (`lz-analyze` streamed for
//! real, stopped by the next command). Each test skips with a message
//! when its engine is not installed, and fails instead when
//! `QIPU_REQUIRE_ALL=1` (CI installs both).

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use sgf_core::{Color, Point};
use sgf_gtp::{Engine, EngineMove, EngineSpec};

#[path = "../../../tests/engines/support.rs"]
mod support;
use support::installed as engine;

fn fixture() -> sgf_core::Document {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/engines/finished-9x9.sgf");
    sgf_core::parse(&std::fs::read(p).unwrap()).document
}

#[test]
fn gnu_go_plays_a_move_and_finds_the_dead_stones() {
    let Some(gnugo) = engine("gnugo", "gnugo") else {
        return;
    };
    let line = format!("{} --mode gtp --level 1", gnugo.display());
    let mut e = Engine::start(&EngineSpec::from_command_line(&line).unwrap()).unwrap();
    assert!(e.supports("final_status_list"));
    let doc = fixture();
    let nodes: Vec<_> = doc.game(0).unwrap().main_line().map(|n| n.id()).collect();
    // After ten moves, White to play: a legal move of Qipu's board.
    let c = e.replay(&doc, 0, nodes[10]).unwrap();
    let mv = e.genmove(Color::White, c.size()).unwrap();
    match mv {
        EngineMove::Play(p) => assert_eq!(
            c.position().legality(Color::White, sgf_go::Move::Play(p)),
            None,
            "{p}"
        ),
        EngineMove::Pass => {}
        EngineMove::Resign => panic!("GNU Go resigned a fresh 9×9 game"),
    }
    // The finished game: the two white invaders and the black one are dead.
    let last = *nodes.last().unwrap();
    let c = e.replay(&doc, 0, last).unwrap();
    let dead = e.final_status_dead(c.size()).unwrap();
    assert_eq!(
        dead,
        vec![Point::new(1, 4), Point::new(7, 4), Point::new(1, 7)]
    );
    let alive = e.final_status_list("alive", c.size()).unwrap();
    assert_eq!(alive.len(), 18);
    assert!(e.final_status_list("two words", c.size()).is_err());
    e.quit();
}

/// A Leela Zero network of zeros: one residual block of 8 filters (the
/// README.Debian's recipe, made small), about 0.7 MB.
fn tiny_network(path: &Path) {
    const FILTERS: usize = 8;
    let sizes = [
        18 * 9 * FILTERS,
        FILTERS,
        FILTERS,
        FILTERS,
        // One residual block: two convolutions with their batch norms.
        FILTERS * FILTERS * 9,
        FILTERS,
        FILTERS,
        FILTERS,
        FILTERS * FILTERS * 9,
        FILTERS,
        FILTERS,
        FILTERS,
        // Policy head: 2 filters, 361 + 1 outputs.
        2 * FILTERS,
        2,
        2,
        2,
        2 * 361 * 362,
        362,
        // Value head: 1 filter, 256 hidden, 1 output.
        FILTERS,
        1,
        1,
        1,
        361 * 256,
        256,
        256,
        1,
    ];
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(f, "1").unwrap();
    for n in sizes {
        let zeros = vec!["0"; n].join(" ");
        writeln!(f, "{zeros}").unwrap();
    }
}

#[test]
fn leela_zero_streams_lz_analyze_with_a_tiny_network() {
    let Some(leelaz) = engine("leelaz", "leela-zero") else {
        return;
    };
    let weights = std::env::temp_dir().join(format!("qipu-lz-zeros-{}.txt", std::process::id()));
    tiny_network(&weights);
    let spec = EngineSpec {
        name: "leelaz".into(),
        command: leelaz.display().to_string(),
        args: [
            "--gtp",
            "--noponder",
            "--cpu-only",
            "-t",
            "1",
            "-w",
            &weights.display().to_string(),
        ]
        .map(String::from)
        .to_vec(),
        protocol: sgf_gtp::Protocol::Gtp,
        timeout: Duration::from_secs(60),
    };
    let mut e = Engine::start(&spec).unwrap();
    assert_eq!(
        e.analysis_format(),
        Some(sgf_gtp::AnalysisFormat::LeelaZero)
    );
    let doc = sgf_core::parse(b"(;SZ[19]KM[7.5];B[pd];W[dp])").document;
    let last = doc.game(0).unwrap().main_line().last().unwrap().id();
    let c = e.replay(&doc, 0, last).unwrap();
    let size = c.size();
    e.start_analysis(Color::Black, size, Duration::from_millis(100))
        .unwrap();
    let mut seen = Vec::new();
    let until = Instant::now() + Duration::from_secs(30);
    while seen.len() < 3 && Instant::now() < until {
        if let Some(a) = e.next_analysis(Duration::from_secs(2)).unwrap() {
            seen.push(a);
        }
    }
    assert!(
        seen.len() >= 2,
        "Leela Zero streamed {} updates",
        seen.len()
    );
    for a in &seen {
        assert_eq!(a.to_play, Color::Black);
        let best = a.best().unwrap();
        // Every candidate is a free point of the board (or a pass).
        if let EngineMove::Play(p) = best.mv {
            assert_eq!(
                c.position().legality(Color::Black, sgf_go::Move::Play(p)),
                None
            );
        }
        assert!(best.pv.first() == Some(&best.mv));
        assert!((0.0..=1.0).contains(&best.winrate));
    }
    // Updates as the search goes on: visits never shrink.
    assert!(seen.windows(2).all(|w| w[0].visits() <= w[1].visits()));
    assert!(seen.last().unwrap().visits() > 0);
    // The next command ends the stream and is answered.
    assert_eq!(e.command("name").unwrap(), "Leela Zero");
    assert!(!e.is_analysing());
    // A weak level (few visits) for a quick move.
    assert!(e.set_level(1).unwrap());
    let mv = e.genmove(Color::Black, size).unwrap();
    assert!(mv.to_move().is_some(), "{mv:?}");
    e.quit();
    let _ = std::fs::remove_file(&weights);
}
