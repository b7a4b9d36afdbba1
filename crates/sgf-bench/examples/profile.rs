//! Profiling driver: `profile parse|fmt|write|split|pergame FILE N`
//! (`split` cuts the file into parts of 1 MB as `qipu check` does;
//! `pergame` parses each game of a collection on its own, split by its
//! `.index.tsv`).
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let b = std::fs::read(&a[2]).unwrap();
    let n: usize = a[3].parse().unwrap();
    let t = std::time::Instant::now();
    if a[1] == "pergame" {
        let idx = std::fs::read_to_string(a[2].replace(".sgf", ".sgf.index.tsv")).unwrap();
        let pieces: Vec<&[u8]> = idx
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.split('\t');
                let o: usize = f.next()?.parse().ok()?;
                let k: usize = f.next()?.parse().ok()?;
                b.get(o..o + k)
            })
            .collect();
        let t = std::time::Instant::now();
        for _ in 0..n {
            for p in &pieces {
                std::hint::black_box(sgf_core::parse(p));
            }
        }
        let dt = t.elapsed().as_secs_f64() / n as f64;
        let total: usize = pieces.iter().map(|p| p.len()).sum();
        eprintln!(
            "pergame ({} games): {:.1} MB/s",
            pieces.len(),
            total as f64 / dt / 1e6
        );
        return;
    }
    if a[1] == "split" {
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(sgf_core::split::split_collection(&b, 1 << 20));
        }
        let dt = t.elapsed().as_secs_f64() / n as f64;
        eprintln!("split: {:.1} MB/s", b.len() as f64 / dt / 1e6);
        return;
    }
    if a[1] == "write" {
        let p = sgf_core::parse(&b);
        let t = std::time::Instant::now();
        for _ in 0..n {
            let o = sgf_core::to_canonical_bytes(&p.document, &Default::default());
            std::hint::black_box(o);
        }
        let dt = t.elapsed().as_secs_f64() / n as f64;
        eprintln!("write: {:.1} MB/s", b.len() as f64 / dt / 1e6);
        return;
    }
    for _ in 0..n {
        let p = sgf_core::parse(&b);
        if a[1] == "fmt" {
            let o = sgf_core::to_canonical_bytes(&p.document, &Default::default());
            std::hint::black_box(o);
        }
        std::hint::black_box(p);
    }
    let dt = t.elapsed().as_secs_f64() / n as f64;
    eprintln!("{}: {:.1} MB/s", a[1], b.len() as f64 / dt / 1e6);
}
