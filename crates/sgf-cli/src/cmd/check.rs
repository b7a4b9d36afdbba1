//! `qipu check`: every FF[4] rule checked, every repairable file repaired.

use std::io::{IsTerminal, Write};

use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use sgf_core::{Code, Diagnostic, Document, Severity, WriteOptions};
use sgf_go::fix::Change;

use crate::input;
use sgf_report as report;

/// Check records against every rule of SGF FF[4] and Go; optionally repair them.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Files and directories (searched recursively for records); `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// One JSON object per file, one per line.
    #[arg(long)]
    pub json: bool,
    /// Repair: write the corrected canonical FF[4] UTF-8 form (with -o or --in-place).
    #[arg(long)]
    pub fix: bool,
    /// Where the repaired file goes (one input only).
    #[arg(short, long, requires = "fix", conflicts_with = "in_place")]
    pub output: Option<String>,
    /// Replace each input with its repaired form.
    #[arg(long, requires = "fix")]
    pub in_place: bool,
    /// Also move variations written one level too deep up (G008), as SGFC's `-v`.
    #[arg(long, requires = "fix")]
    pub variation_level: bool,
    /// Keep the original as FILE.bak when repairing in place.
    #[arg(long, requires = "in_place")]
    pub backup: bool,
    /// Silence a code (`S004` or `stray-characters`); repeat or separate with commas.
    #[arg(short = 'A', long = "allow", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Report warnings as errors.
    #[arg(short = 'W', long)]
    pub warnings_as_errors: bool,
    /// Also show information (legacy constructs, detected charsets) in human output.
    #[arg(long)]
    pub info: bool,
    /// Only the summary (human output).
    #[arg(short, long)]
    pub quiet: bool,
    /// Show at most N diagnostics of each code per file, then how many more
    /// there are (0: all). Default: 10 in human output, all in --json.
    #[arg(long, value_name = "N")]
    pub max_diagnostics: Option<usize>,
}

/// Diagnostics of each code shown per file in human output by default.
const DEFAULT_MAX_PER_CODE: usize = 10;

/// Keeps at most `max` diagnostics of each code (0: all); returns what was
/// left out, per code, in order of first appearance.
fn cap_per_code(diags: &mut Vec<Diagnostic>, max: usize) -> Vec<(Code, usize)> {
    if max == 0 {
        return Vec::new();
    }
    let mut seen: Vec<(Code, usize)> = Vec::new();
    diags.retain(|d| {
        let i = match seen.iter().position(|(c, _)| *c == d.code) {
            Some(i) => i,
            None => {
                seen.push((d.code, 0));
                seen.len() - 1
            }
        };
        seen[i].1 += 1;
        seen[i].1 <= max
    });
    seen.into_iter()
        .filter(|(_, n)| *n > max)
        .map(|(c, n)| (c, n - max))
        .collect()
}

/// The outcome of checking one file.
struct FileReport {
    name: String,
    /// The input (differs from `name` after --fix -o).
    input: String,
    doc: Option<Document>,
    /// The input of a record converted from another format: the reader's
    /// diagnostics point into it (see [`report::Sources`]).
    original: Option<(Vec<u8>, &'static encoding_rs::Encoding)>,
    diagnostics: Vec<Diagnostic>,
    /// Repairs, with their line and column in the input.
    changes: Vec<(Change, u32, u32)>,
    /// Diagnostics left out by `--max-diagnostics`, per code.
    omitted: Vec<(Code, usize)>,
    /// Errors and warnings found, before any were left out.
    counts: (usize, usize),
    error: Option<String>,
}

/// Every diagnostic of a parsed document: parse, FF[4] and Go.
pub fn diagnostics_of(parsed: &sgf_core::Parsed) -> Vec<Diagnostic> {
    let mut all = parsed.diagnostics.clone();
    all.extend(sgf_go::check::check(&parsed.document));
    all.sort_by_key(|d| (d.span.start, d.span.end));
    all
}

fn check_one(path: &str, args: &Args, allow: &[Code]) -> FileReport {
    let loaded = match input::load(path) {
        Ok(l) => l,
        Err(e) => {
            return FileReport {
                name: path.to_string(),
                input: path.to_string(),
                doc: None,
                original: None,
                diagnostics: Vec::new(),
                changes: Vec::new(),
                omitted: Vec::new(),
                counts: (0, 0),
                error: Some(format!("{e:#}")),
            };
        }
    };
    let read = sgf_formats::save::Fingerprint::of(match &loaded.original {
        Some((bytes, _)) => bytes,
        None => loaded.parsed.document.original(),
    });
    let mut diags = diagnostics_of(&loaded.parsed);
    let mut doc = loaded.parsed.document;
    let mut original = loaded.original;
    let mut changes = Vec::new();
    let mut error = None;
    if args.fix {
        let mut fixed = doc.clone();
        // SGF dialects first, as fmt writes them: otherwise the Nihon Ki-in
        // event `TE[…]` and komi `KO[…]` look like misplaced move annotations.
        let dialect: Vec<Change> = if original.is_none() {
            sgf_formats::normalize(&mut fixed)
                .into_iter()
                .filter(|d| {
                    matches!(d.code, Code::DialectNormalised | Code::HandicapPlaced)
                        && d.severity == Severity::Info
                })
                .map(|d| Change {
                    code: d.code,
                    message: d.message,
                    span: d.span,
                })
                .collect()
        } else {
            Vec::new()
        };
        let repair_opts = sgf_go::fix::RepairOptions {
            variation_level: args.variation_level,
        };
        let (bytes, ch, _) =
            sgf_go::fix::repair_to_canonical(&mut fixed, &WriteOptions::default(), &repair_opts);
        changes = dialect
            .into_iter()
            .chain(ch)
            .map(|c| {
                let (l, col) = doc.line_col(c.span.start);
                (c, l, col)
            })
            .collect();
        let target = if args.in_place {
            Some(path.to_string())
        } else {
            args.output.clone()
        };
        match target {
            Some(t) if t == "-" || (t == path && path == "-") => {
                let _ = std::io::stdout().lock().write_all(&bytes);
            }
            Some(t) => {
                if let Err(e) = write_fixed(&t, path, &bytes, args.backup, read) {
                    error = Some(format!("{e:#}"));
                }
            }
            None => {}
        }
        // The exit status and report of --fix describe what is left.
        let re = sgf_core::parse(&bytes);
        diags = diagnostics_of(&re);
        doc = re.document;
        original = None;
    }
    diags.retain(|d| !allow.contains(&d.code));
    if args.warnings_as_errors {
        for d in &mut diags {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
        }
    }
    let counts = (
        diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count(),
        diags
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count(),
    );
    let max = args
        .max_diagnostics
        .unwrap_or(if args.json { 0 } else { DEFAULT_MAX_PER_CODE });
    let omitted = cap_per_code(&mut diags, max);
    // After --fix -o, what is left is in the output file: name it.
    let name = match (&args.output, args.fix) {
        (Some(o), true) if o != "-" => o.clone(),
        _ => loaded.name,
    };
    FileReport {
        name,
        input: path.to_string(),
        doc: Some(doc),
        original,
        diagnostics: diags,
        changes,
        omitted,
        counts,
        error,
    }
}

fn write_fixed(
    target: &str,
    source: &str,
    bytes: &[u8],
    backup: bool,
    read: sgf_formats::save::Fingerprint,
) -> Result<()> {
    use sgf_formats::save::{SaveOptions, replace_file};
    let in_place = target == source;
    let mut opts = SaveOptions::default();
    opts.backup = backup && in_place;
    // In place, the file must still be what was checked.
    opts.expected = in_place.then_some(read);
    replace_file(std::path::Path::new(target), bytes, &opts)
        .with_context(|| format!("cannot write {target}"))?;
    Ok(())
}

fn json_line(r: &FileReport) -> String {
    let doc = r.doc.as_ref();
    let sources = doc.map(|doc| report::Sources::new(doc, r.original.as_ref()));
    let diags: Vec<serde_json::Value> = match (doc, &sources) {
        (Some(doc), Some(sources)) => r
            .diagnostics
            .iter()
            .map(|d| report::to_json(doc, sources, d))
            .collect(),
        _ => Vec::new(),
    };
    let mut o = json!({"path": r.name, "diagnostics": diags});
    if !r.changes.is_empty() {
        o["changes"] = json!(
            r.changes
                .iter()
                .map(|(c, l, col)| json!({"code": c.code.as_str(), "message": c.message, "line": l, "column": col, "start": c.span.start, "end": c.span.end}))
                .collect::<Vec<_>>()
        );
    }
    if !r.omitted.is_empty() {
        o["omitted"] = r
            .omitted
            .iter()
            .map(|(c, n)| (c.as_str().to_string(), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into();
    }
    if let Some(e) = &r.error {
        o["error"] = json!(e);
    }
    o.to_string()
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let mut allow = Vec::new();
    for a in &args.allow {
        match Code::parse(a.trim()) {
            Some(c) => allow.push(c),
            None => bail!("unknown diagnostic code `{a}` (see docs/diagnostics.md)"),
        }
    }
    let files: Vec<String> = crate::walk::collect(&args.paths)?
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if args.output.is_some() && files.len() != 1 {
        bail!("--output takes exactly one input file; use --in-place for several");
    }
    if args.fix && args.output.is_none() && !args.in_place {
        bail!("--fix needs -o OUT or --in-place");
    }
    let bar = if files.len() > 1 && std::io::stderr().is_terminal() && !args.json {
        let b = ProgressBar::new(files.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed_precise} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(b)
    } else {
        None
    };
    let color = std::io::stdout().is_terminal();
    let mut stdout = std::io::stdout().lock();
    let (mut errors, mut warnings, mut unreadable, mut files_with) =
        (0usize, 0usize, 0usize, 0usize);
    // Chunks keep memory flat and the output in input order.
    for chunk in files.chunks(256) {
        let reports: Vec<FileReport> = chunk
            .par_iter()
            .map(|p| {
                let r = check_one(p, args, &allow);
                if let Some(b) = &bar {
                    b.inc(1);
                }
                r
            })
            .collect();
        for r in reports {
            if r.error.is_some() {
                unreadable += 1;
            }
            let (e, w) = r.counts;
            errors += e;
            warnings += w;
            if e + w > 0 {
                files_with += 1;
            }
            let text = if args.json {
                json_line(&r) + "\n"
            } else {
                human(&r, args, color)
            };
            let out = match &bar {
                Some(b) => b.suspend(|| stdout.write_all(text.as_bytes())),
                None => stdout.write_all(text.as_bytes()),
            };
            if out.is_err() {
                return Ok(2);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if !args.json {
        let summary = format!(
            "{} file(s) checked: {errors} error(s), {warnings} warning(s) in {files_with} file(s){}\n",
            files.len(),
            if unreadable > 0 {
                format!(", {unreadable} unreadable")
            } else {
                String::new()
            }
        );
        let _ = stdout.write_all(summary.as_bytes());
    }
    Ok(if unreadable > 0 {
        2
    } else if errors + warnings > 0 {
        1
    } else {
        0
    })
}

fn human(r: &FileReport, args: &Args, color: bool) -> String {
    let mut s = String::new();
    if let Some(e) = &r.error {
        s.push_str(&format!("{}: {e}\n", r.name));
    }
    let Some(doc) = &r.doc else { return s };
    let sources = report::Sources::new(doc, r.original.as_ref());
    for (c, l, col) in &r.changes {
        if !args.quiet {
            s.push_str(&format!(
                "{}:{l}:{col}: fixed [{}] {}\n",
                r.input,
                c.code.as_str(),
                c.message
            ));
        }
    }
    if args.quiet {
        return s;
    }
    for d in &r.diagnostics {
        if d.severity == Severity::Info && !args.info {
            continue;
        }
        s.push_str(&report::render_in(&r.name, sources.of(d), d, color));
        s.push('\n');
    }
    for (c, n) in &r.omitted {
        if c.default_severity() == Severity::Info && !args.info {
            continue;
        }
        s.push_str(&format!(
            "{}: … and {n} more [{}] {} (--max-diagnostics 0 shows all)\n",
            r.name,
            c.as_str(),
            c.name()
        ));
    }
    s
}
