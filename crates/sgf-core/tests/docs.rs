//! `docs/diagnostics.md` must list every diagnostic code as the code table defines it.

use std::path::Path;

#[test]
fn diagnostics_table_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
    let doc = std::fs::read_to_string(&path).expect("docs/diagnostics.md exists");
    let (start, end) = ("<!-- codes:start -->\n", "<!-- codes:end -->");
    let a = doc.find(start).expect("start marker") + start.len();
    let b = doc.find(end).expect("end marker");
    let table = sgf_core::diag::markdown_table();
    if doc[a..b] != table {
        if std::env::var_os("QIPU_UPDATE_DOCS").is_some() {
            let new = format!("{}{}{}", &doc[..a], table, &doc[b..]);
            std::fs::write(&path, new).unwrap();
            return;
        }
        panic!(
            "docs/diagnostics.md is out of date: run QIPU_UPDATE_DOCS=1 cargo test -p sgf-core --test docs"
        );
    }
}
