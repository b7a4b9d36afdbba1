//! Diagnostics, the check of `qipu check` and the repair of `qipu check --fix`.

use wasm_bindgen::prelude::*;

use crate::{Collection, err};

#[wasm_bindgen]
impl Collection {
    /// The diagnostics of reading, as a JSON array of objects shaped as
    /// `qipu check --json` prints them ([`sgf_report::to_json`]: `code`,
    /// `name`, `severity`, `message`, `line`, `column`, `start`, `end`,
    /// `fix`), placed in the input (a converted record's file).
    #[wasm_bindgen(js_name = diagnosticsJson)]
    pub fn diagnostics_json(&self) -> String {
        let sources = sgf_report::Sources::new(&self.doc, self.original.as_ref());
        let all: Vec<serde_json::Value> = self
            .diagnostics
            .iter()
            .map(|d| sgf_report::to_json(&sources, d))
            .collect();
        serde_json::Value::from(all).to_string()
    }

    /// Every FF\[4\] and Go rule checked by the library's check of a file
    /// ([`sgf_report::check::check_bytes`]): the object `qipu check --json`
    /// prints for the file read (`path`, `diagnostics`, …; a converted
    /// record: its input), or, once edited, for the file `toBytes()` would
    /// write. `path` names the file (default: the collection's name).
    #[wasm_bindgen(js_name = checkJson)]
    pub fn check_json(&self, path: Option<String>) -> String {
        let name = path.unwrap_or_else(|| self.name.clone());
        sgf_report::check::check_bytes(
            &name,
            self.file_bytes(),
            &sgf_report::check::CheckOptions::default(),
        )
        .json_line()
    }

    /// Repairs the collection as `qipu check --fix` does — the library's
    /// check of a file with its repair ([`sgf_report::check::check_bytes`]
    /// with [`sgf_report::check::Fix`]: dialects, then the tree, the values
    /// and Go) — and returns the changes as a JSON array, each shaped as
    /// `qipu check --fix --json` prints it. When there are changes, the
    /// collection becomes the repaired file (FF\[4\] UTF-8, read again:
    /// node handles taken before are no longer valid) and is edited; when
    /// there are none, it is left as it was, byte for byte (the repair's
    /// file is the canonical form, not the input). A second call returns
    /// `[]`.
    ///
    /// # Errors
    /// A collection the repair refuses to write (no game tree, games lost,
    /// an undecodable charset): it is left as it was.
    #[wasm_bindgen(js_name = fixJson)]
    pub fn fix_json(&mut self, variation_level: Option<bool>) -> Result<String, JsError> {
        use sgf_report::check::{CheckOptions, Fix, Target, check_bytes};
        let mut fix = Fix::to(Target::Held);
        fix.variation_level = variation_level.unwrap_or(false);
        let mut opts = CheckOptions::default();
        opts.fix = Some(fix);
        opts.keep_changes = true;
        let report = check_bytes(&self.name, self.file_bytes(), &opts);
        if let Some(e) = report.error() {
            return Err(err(e));
        }
        let changes: Vec<serde_json::Value> = report
            .changes()
            .iter()
            .map(|(c, line, column)| sgf_report::change_json(c, *line, *column))
            .collect();
        if let Some(out) = report.held_output().filter(|_| !changes.is_empty()) {
            let parsed = sgf_core::parse(out);
            self.doc = parsed.document;
            self.diagnostics = parsed.diagnostics;
            self.format = "SGF";
            self.original = None;
            self.converted_from = None;
            self.repaired = true;
        }
        Ok(serde_json::Value::from(changes).to_string())
    }
}

impl Collection {
    /// The file the collection stands for, as `qipu check` would read it:
    /// the input (a converted record's own), or once edited what
    /// `toBytes()` writes (the canonical form when that cannot be lossless).
    fn file_bytes(&self) -> Vec<u8> {
        match &self.original {
            Some((input, _)) if !self.doc.is_edited() => input.clone(),
            _ if !self.doc.is_edited() => self.doc.original().to_vec(),
            _ => sgf_core::to_lossless_bytes_checked(&self.doc).unwrap_or_else(|_| {
                sgf_core::to_canonical_bytes(&self.doc, &sgf_core::WriteOptions::default())
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Collection;

    fn read(sgf: &str) -> Collection {
        Collection::read(sgf.as_bytes(), None, None, None)
            .map_err(|_| "read")
            .unwrap()
            .expect("SGF is read by every build")
    }

    #[test]
    fn a_repair_that_changes_nothing_leaves_the_record_as_it_was() {
        let input = "(;GM[1]FF[4]CA[UTF-8]SZ[9]\r\n  ;B[ee]   ;W[ce]\r\n)";
        let mut c = read(input);
        assert_eq!(c.fix_json(None).map_err(|_| "fix").unwrap(), "[]");
        assert_eq!(c.to_bytes().map_err(|_| "bytes").unwrap(), input.as_bytes());
        assert!(!c.is_edited());
    }

    #[test]
    fn a_repair_that_changes_something_is_an_edit() {
        let mut c = read("(;GM[1]FF[4]SZ[9]DT[2024/1/5]\n  ;B[ee])");
        let changes = c.fix_json(None).map_err(|_| "fix").unwrap();
        assert!(changes.contains("DT[2024-01-05]"), "{changes}");
        assert!(c.is_edited());
        let fixed = c.to_bytes().map_err(|_| "bytes").unwrap();
        assert!(String::from_utf8_lossy(&fixed).contains("DT[2024-01-05]"));
        assert_eq!(c.fix_json(None).map_err(|_| "fix").unwrap(), "[]");
        assert_eq!(c.to_bytes().map_err(|_| "bytes").unwrap(), fixed);
        assert!(c.is_edited(), "still not what was read");
    }
}
