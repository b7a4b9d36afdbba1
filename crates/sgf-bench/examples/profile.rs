//! Profiling driver: `profile parse|fmt|write FILE N`.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let b = std::fs::read(&a[2]).unwrap();
    let n: usize = a[3].parse().unwrap();
    let t = std::time::Instant::now();
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
