//! SGF itself, as a [`Format`]: the core parser, plus a report of the
//! dialects found (the file is not changed; [`crate::dialect::normalize`]
//! does that).

use crate::common;
use crate::dialect;
use crate::format::{Format, Loaded, ReadError, ReadOptions};

/// The SGF format (`FF[1]`–`FF[4]` and the dialects of [`crate::dialect`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sgf;

impl Format for Sgf {
    fn name(&self) -> &'static str {
        "SGF"
    }
    fn description(&self) -> &'static str {
        "Smart Game Format, FF[1]-FF[4], any charset and the dialects of Sina, Nihon Ki-in, Fox, Go Assistant and OGS (.sgf)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["sgf", "sgfs", "mgt"]
    }
    fn sniff(&self, bytes: &[u8]) -> u8 {
        if sgf_core::charset::sniff_utf16(bytes).is_some()
            || sgf_core::charset::sniff_utf32(bytes).is_some()
        {
            return 90;
        }
        let head = common::strip_bom(&bytes[..bytes.len().min(64 * 1024)]);
        let t = head.trim_ascii_start();
        let after = |rest: &[u8]| rest.trim_ascii_start().first().copied();
        match t.first() {
            Some(b'(') => match after(&t[1..]) {
                Some(b';') => 95,
                // The Sina / Nihon Ki-in form: properties right after `(`.
                Some(c) if c.is_ascii_uppercase() => 80,
                Some(b'(') => 60,
                _ => 30,
            },
            Some(b';') if after(&t[1..]).is_some_and(|c| c.is_ascii_uppercase()) => 60,
            _ => {
                if head.windows(2).any(|w| w == b"(;") {
                    40
                } else {
                    0
                }
            }
        }
    }
    fn read(&self, bytes: &[u8], opts: &ReadOptions) -> Result<Loaded, ReadError> {
        Ok(loaded(sgf_core::parse(bytes), opts))
    }
    fn read_shared(
        &self,
        bytes: &std::sync::Arc<[u8]>,
        opts: &ReadOptions,
    ) -> Result<Loaded, ReadError> {
        Ok(loaded(
            sgf_core::parse_shared(bytes.clone(), &Default::default()),
            opts,
        ))
    }
}

/// A parsed SGF file as read, its dialects reported when asked.
fn loaded(mut parsed: sgf_core::Parsed, opts: &ReadOptions) -> Loaded {
    {
        let charset = crate::game_charset(&parsed.document, 0, None);
        if opts.dialect_report {
            parsed
                .diagnostics
                .extend(dialect::dialect_diagnostics(&parsed.document));
            sgf_core::diag::sort_diagnostics(&mut parsed.diagnostics);
        }
        Loaded {
            format: "SGF",
            charset,
            converted: false,
            parsed,
        }
    }
}
