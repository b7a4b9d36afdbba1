//! The charset decision of every game, and which games are read charset-aware (double-byte trail bytes unescaped).

use super::*;

/// Chooses the charset of every game from `CA` and the bytes.
pub(super) fn resolve_charsets(
    doc: &mut Document,
    diags: &mut Vec<Diagnostic>,
    opts: &ParseOptions,
    transcoded: Option<(&'static Encoding, usize)>,
) {
    let n = doc.games.len();
    if n == 0 {
        return;
    }
    // The replacement encoding is no charset to read in (see
    // `charset::encoding_for_label`): detection instead.
    if let Some(enc) = opts.charset.filter(|&e| e != encoding_rs::REPLACEMENT) {
        for g in &mut doc.games {
            g.encoding = enc;
            g.display = enc;
            g.source = CharsetSource::Override;
        }
        doc.uniform = Some(enc);
        return;
    }
    if let Some((enc, bom)) = transcoded {
        for g in &mut doc.games {
            g.encoding = UTF_8;
            g.display = enc;
            g.source = if bom > 0 {
                CharsetSource::Bom
            } else {
                CharsetSource::Detected
            };
        }
        doc.uniform = Some(UTF_8);
        return;
    }
    let src = doc.src.clone();
    let whole_valid = std::str::from_utf8(&src).is_ok();
    let mut labels: Vec<Option<Vec<u8>>> = Vec::with_capacity(n);
    for gi in 0..n {
        let start = doc.games[gi].start as usize;
        let end = if gi + 1 < n {
            doc.games[gi + 1].start as usize
        } else {
            src.len()
        };
        let region = &src[start.min(end)..end];
        let root = NodeId(doc.games[gi].root);
        let ca = doc
            .node(root)
            .get_known(props::id::CA)
            .and_then(|p| p.first());
        // Spans only for a diagnostic: working them out walks the root.
        let ca_span = || ca.map(|v| v.span()).unwrap_or_default();
        let label = ca.map(|v| v.raw().to_vec());
        let root_span = || doc.node(root).span();
        let (enc, source, undecodable) = choose_charset(
            region,
            start,
            label.as_deref(),
            whole_valid,
            &ca_span,
            &root_span,
            diags,
        );
        let g = &mut doc.games[gi];
        g.encoding = enc;
        g.display = enc;
        g.source = source;
        g.undecodable = undecodable;
        labels.push(label.map(|l| l.to_ascii_uppercase()));
    }
    let first = doc.games[0].encoding;
    doc.uniform = doc
        .games
        .iter()
        .all(|g| g.encoding == first && g.dbcs.is_none())
        .then_some(first);
    diags.extend(crate::validate::mixed_charsets(
        labels.iter().flatten().map(Vec::as_slice),
    ));
}

pub(super) fn first_invalid_utf8(region: &[u8]) -> usize {
    match std::str::from_utf8(region) {
        Ok(_) => 0,
        Err(e) => e.valid_up_to(),
    }
}

/// The charset of a game (its bytes `region`, from `region_start`) whose
/// `CA` is `label`, and whether its text cannot be decoded (see
/// [`crate::Game::is_undecodable`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn choose_charset(
    region: &[u8],
    region_start: usize,
    label: Option<&[u8]>,
    whole_valid: bool,
    ca_span: &dyn Fn() -> Span,
    root_span: &dyn Fn() -> Span,
    diags: &mut Vec<Diagnostic>,
) -> (&'static Encoding, CharsetSource, bool) {
    if let Some(l) = label
        && charset::is_undecodable_label(l)
    {
        return undecodable_label(region, region_start, l, whole_valid, ca_span, diags);
    }
    let (enc, source) = choose_declared(
        region,
        region_start,
        label,
        whole_valid,
        ca_span,
        root_span,
        diags,
    );
    (enc, source, false)
}

/// A game whose `CA` names a charset that cannot be decoded (encoding_rs
/// knows it only as the replacement encoding, which would turn every value
/// into U+FFFD). Without the charset's shifts the text is read as when
/// `CA` is unknown: detected from the bytes, which decode exactly when they
/// are ASCII (ISO-2022-KR and HZ keep ASCII as it is) or UTF-8. With them,
/// the text means something no charset here can decode: the bytes are
/// shown as they are (ISO-8859-1 for 7-bit text: one character a byte) and
/// the game is marked undecodable, an error writers refuse.
fn undecodable_label(
    region: &[u8],
    region_start: usize,
    label: &[u8],
    whole_valid: bool,
    ca_span: &dyn Fn() -> Span,
    diags: &mut Vec<Diagnostic>,
) -> (&'static Encoding, CharsetSource, bool) {
    let name = String::from_utf8_lossy(label.trim_ascii()).into_owned();
    if charset::has_undecodable_shifts(label, region) {
        let enc = if region.is_ascii() {
            encoding_rs::WINDOWS_1252
        } else {
            charset::decide(region, None, whole_valid).encoding
        };
        diags.push(
            Diagnostic::new(
                Code::UndecodableCharset,
                ca_span(),
                format!(
                    "CA[{name}] names a charset Qipu cannot decode, and the text uses its shifts: its bytes are shown as they are, not as they read; fmt, convert and check --fix refuse to write it"
                ),
            )
            .with_severity(Severity::Error),
        );
        return (enc, CharsetSource::Detected, true);
    }
    let dec = charset::decide(region, None, whole_valid);
    let enc = dec.encoding;
    let (what, source) = match dec.why {
        Why::Ascii => (
            "the text is ASCII, read as such".to_string(),
            CharsetSource::Default,
        ),
        _ => (
            format!(
                "the text holds none of its shifts; read as {}",
                charset::display_name(enc)
            ),
            CharsetSource::Detected,
        ),
    };
    diags.push(Diagnostic::new(
        Code::UndecodableCharset,
        ca_span(),
        format!("CA[{name}] names a charset Qipu cannot decode; {what}"),
    ));
    if dec.why == Why::Utf8Damaged {
        let p = (region_start + first_invalid_utf8(region)) as u32;
        diags.push(Diagnostic::new(
            Code::InvalidBytes,
            Span::new(p, p + 1),
            format!(
                "{} invalid UTF-8 sequence(s) (a character cut short or replaced); only they are shown as U+FFFD",
                dec.invalid
            ),
        ));
    }
    (enc, source, false)
}

/// The charset of a game from its usable (or unknown) `CA` and its bytes.
#[allow(clippy::too_many_arguments)]
fn choose_declared(
    region: &[u8],
    region_start: usize,
    label: Option<&[u8]>,
    whole_valid: bool,
    ca_span: &dyn Fn() -> Span,
    root_span: &dyn Fn() -> Span,
    diags: &mut Vec<Diagnostic>,
) -> (&'static Encoding, CharsetSource) {
    let declared = match label {
        Some(l) => match charset::encoding_for_label(l) {
            Some(e) if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => {
                diags.push(Diagnostic::new(
                    Code::CharsetMismatch,
                    ca_span(),
                    format!(
                        "CA[{}] but the file is not UTF-16; the charset is detected from the bytes",
                        String::from_utf8_lossy(l)
                    ),
                ));
                None
            }
            Some(e) => Some(e),
            None => {
                diags.push(Diagnostic::new(
                    Code::UnknownCharset,
                    ca_span(),
                    format!(
                        "unknown charset `{}`; the charset is detected from the bytes",
                        String::from_utf8_lossy(l)
                    ),
                ));
                None
            }
        },
        None => None,
    };
    let invalid_at = |region: &[u8]| {
        let p = (region_start + first_invalid_utf8(region)) as u32;
        Span::new(p, p + 1)
    };
    let label_text = || label.map(String::from_utf8_lossy).unwrap_or_default();
    let dec = charset::decide(region, declared, whole_valid);
    let enc = dec.encoding;
    match dec.why {
        Why::Ascii => match declared {
            Some(e) => (e, CharsetSource::Declared),
            None => (enc, CharsetSource::Default),
        },
        Why::Declared => (enc, CharsetSource::Declared),
        Why::DeclaredInvalid => {
            diags.push(Diagnostic::new(
                Code::InvalidBytes,
                ca_span(),
                format!(
                    "byte sequences that are invalid in {}; shown as U+FFFD",
                    enc.name()
                ),
            ));
            (enc, CharsetSource::Declared)
        }
        Why::Utf8 => {
            if declared.is_some() {
                diags.push(Diagnostic::new(
                    Code::CharsetMismatch,
                    ca_span(),
                    format!(
                        "CA says {} but the text is valid UTF-8; read as UTF-8",
                        label_text()
                    ),
                ));
            } else {
                diags.push(Diagnostic::new(
                    Code::CharsetDetected,
                    root_span(),
                    "no CA property; the text is UTF-8",
                ));
            }
            (UTF_8, CharsetSource::Detected)
        }
        Why::Utf8Damaged => {
            let declared_utf8 = declared == Some(UTF_8);
            if !declared_utf8 {
                diags.push(Diagnostic::new(
                    Code::CharsetDetected,
                    root_span(),
                    "no CA property; the text is UTF-8",
                ));
            }
            diags.push(Diagnostic::new(
                Code::InvalidBytes,
                invalid_at(region),
                format!(
                    "{} invalid UTF-8 sequence(s) (a character cut short or replaced); only they are shown as U+FFFD",
                    dec.invalid
                ),
            ));
            let source = if declared_utf8 {
                CharsetSource::Declared
            } else {
                CharsetSource::Detected
            };
            (UTF_8, source)
        }
        Why::Detected => {
            if declared.is_some() {
                diags.push(Diagnostic::new(
                    Code::CharsetMismatch,
                    ca_span(),
                    format!(
                        "CA[{}] but the text is not in it; read as {}",
                        label_text(),
                        enc.name()
                    ),
                ));
            } else {
                diags.push(Diagnostic::new(
                    Code::CharsetDetected,
                    root_span(),
                    format!("no CA property; the text looks like {}", enc.name()),
                ));
            }
            (enc, CharsetSource::Detected)
        }
    }
}

/// Games in a double-byte charset whose trail bytes `\` or `]` appear in the
/// text: (start, end, family) byte ranges to try reading charset-aware.
pub(super) fn suspicious_dbcs(doc: &Document) -> Vec<(usize, usize, Dbcs, usize)> {
    let n = doc.games.len();
    let mut out = Vec::new();
    for gi in 0..n {
        let Some(d) = Dbcs::of(doc.games[gi].encoding) else {
            continue;
        };
        let start = doc.games[gi].start as usize;
        let end = if gi + 1 < n {
            doc.games[gi + 1].start as usize
        } else {
            doc.src.len()
        };
        let r = &doc.src[start.min(end)..end];
        let mut i = 0;
        while i + 1 < r.len() {
            if d.is_lead(r[i]) {
                let n = d.char_len(&r[i..]).max(1);
                if r[i + 1..i + n].iter().any(|b| matches!(b, b'\\' | b']')) {
                    out.push((start, end, d, start + i));
                    break;
                }
                i += n;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// How one reading of a suspicious game went.
#[derive(Clone, Copy, Default)]
pub(super) struct Rating {
    /// Syntax errors, text that swallowed properties, undecodable
    /// characters (lower is better).
    pub(super) errors: usize,
    /// [`charset::plausibility_of`] of its non-ASCII text values.
    pub(super) plausible: i32,
    /// The game declares its charset (`CA`, confirmed by the bytes).
    pub(super) declared: bool,
}

/// Rates the reading of each range (sorted, disjoint), in one pass.
pub(super) fn rate(
    doc: &Document,
    diags: &[Diagnostic],
    ranges: &[(usize, usize, Dbcs, usize)],
) -> Vec<Rating> {
    let mut out = vec![Rating::default(); ranges.len()];
    let find = |p: u32| {
        let p = p as usize;
        let i = ranges.partition_point(|r| r.0 <= p);
        (i > 0 && p < ranges[i - 1].1).then(|| i - 1)
    };
    for d in diags {
        if d.code.layer() == "syntax"
            && d.severity == Severity::Error
            && let Some(i) = find(d.span.start)
        {
            out[i].errors += 10;
        }
    }
    for g in &doc.games {
        let Some(i) = find(g.start) else { continue };
        let r = &mut out[i];
        r.declared |= g.source == CharsetSource::Declared;
        for n in doc.preorder(NodeId(g.root)) {
            for p in doc.node(n).props() {
                // Values of other types are ASCII; non-ASCII bytes there are
                // text after all (the Sina / Nihon Ki-in `TE[…]`, `KO[…]`).
                if !p.value_type().is_text()
                    && p.info().is_some()
                    && p.values().all(|v| v.raw().is_ascii())
                {
                    continue;
                }
                for v in p.values() {
                    if !v.raw().is_ascii() {
                        let text = v.decoded();
                        r.errors += text.matches('\u{FFFD}').count();
                        r.plausible += charset::plausibility_of(&text, g.encoding);
                    }
                    // Look at the unescaped bytes: once decoded, a `]` can
                    // hide inside a double-byte character.
                    r.errors += 10 * swallowed_properties(&crate::text::unescape(v.raw(), g.dbcs));
                }
            }
        }
    }
    out
}

/// Counts `]` followed by an identifier and `[` inside decoded text: the
/// sign of a value that ran past its real end.
pub(super) fn swallowed_properties(b: &[u8]) -> usize {
    memchr::memchr_iter(b']', b)
        .filter(|&i| ident_value_at(b, skip_ws(b, i + 1)))
        .count()
}
