//! The mid-game estimate against GNU Go on real games: runs
//! `qipu-estimate-bench --gnugo` on a small sample of the KGS games of the
//! corpus that ended by counting. Slow (GNU Go takes seconds a position),
//! so ignored by default: `cargo test -p sgf-bench --test estimate -- --ignored --nocapture`.
//! Skips (or fails under `QIPU_REQUIRE_ALL=1`) without the corpus or GNU Go.

#[path = "../../../testsupport/require.rs"]
mod require;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shares (0–1) of positions where Qipu and GNU Go name the recorded
/// winner, from the table's last row, e.g.
/// `all  all  40  28/40 70.0%  29/40 72.5%  33/40 82.5%  +4.1  +5.0`.
fn rates(out: &str) -> Option<(f64, f64)> {
    let line = out.lines().find(|l| l.starts_with("all "))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let share = |w: &str| {
        let (k, n) = w.split_once('/')?;
        Some(k.parse::<f64>().ok()? / n.parse::<f64>().ok()?)
    };
    Some((share(words.get(3)?)?, share(words.get(5)?)?))
}

#[test]
#[ignore]
fn the_estimate_names_the_winner_about_as_often_as_gnu_go() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/real/kgs");
    if !corpus.is_dir() {
        require::missing(&format!(
            "the KGS games of the corpus ({}) are not there",
            corpus.display()
        ));
        return;
    }
    let gnugo = ["/usr/games/gnugo", "/usr/bin/gnugo"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(gnugo) = gnugo else {
        require::missing("GNU Go is not installed (apt-get install gnugo)");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_qipu-estimate-bench"))
        .args(["--sample", "20", "--gnugo", &format!("{gnugo} --mode gtp")])
        // GNU Go's answers kept for the next run.
        .arg("--cache")
        .arg(Path::new(env!("CARGO_TARGET_TMPDIR")).join("estimate-gnugo.tsv"))
        .arg(&corpus)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (qipu, gnu) = rates(&text).expect("the table's last row");
    // On 40 positions the rates vary by several points: a generous margin.
    assert!(qipu >= gnu - 0.15, "Qipu {qipu:.2}, GNU Go {gnu:.2}");
}
