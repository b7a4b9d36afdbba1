//! The fixture table of every value form (`testdata/values/values.tsv`):
//! each input read by `sgf_go::values` gives the expected typed result.

use sgf_go::values::{self, fmt_real};

fn opt<T>(x: Option<T>, f: impl Fn(T) -> String) -> String {
    x.map_or_else(|| "-".to_string(), f)
}

#[test]
fn every_form_reads_as_listed() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/values/values.tsv"
    );
    let table = std::fs::read_to_string(path).unwrap();
    let mut failures = Vec::new();
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "bad row {line:?}");
        let (kind, input, want) = (cols[0], cols[1], cols[2]);
        let got = match kind {
            "dates" => opt(values::parse_dates(input), |v| {
                v.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            }),
            "date" => opt(values::read_date(input), |d| d),
            "result-ff4" => opt(values::parse_result(input), |r| r.to_string()),
            "result" => opt(values::read_result(input), |r| r.to_string()),
            "komi" => opt(values::read_komi(input), fmt_real),
            "fox-komi" => {
                let (k, rules) = input.split_once(' ').unwrap();
                opt(
                    values::scaled_komi(k.parse().unwrap(), rules == "chinese"),
                    fmt_real,
                )
            }
            "rank" => opt(values::read_rank(input), |r| r),
            "number" => opt(values::read_number(input), |n| n.to_string()),
            "real" => opt(values::read_real(input), fmt_real),
            "seconds" => opt(values::read_seconds(input), fmt_real),
            "duration" => opt(values::read_duration(input), fmt_real),
            "count" => opt(values::read_count(input), |n| n.to_string()),
            "clock" => opt(values::read_clock(input), fmt_real),
            other => panic!("unknown kind {other}"),
        };
        if got != want {
            failures.push(format!("{kind} {input:?}: got {got:?}, want {want:?}"));
        }
        rows += 1;
    }
    assert!(rows > 150);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
