//! `qipu check`: every FF[4] rule checked, every repairable file repaired.

use std::io::{IsTerminal, Write};

use anyhow::{Result, bail};
use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sgf_core::Code;
use sgf_report::check::{
    CheckOptions, DEFAULT_MAX_PER_CODE, FileReport, Fix, HumanOptions, Target, check_path,
};

/// Check records against every rule of SGF FF[4] and Go; optionally repair them.
///
/// Exit status: 0 no warnings or errors; 1 warnings or errors found; 2 a
/// file could not be read (not a regular file, larger than 1 GiB), a repair
/// could not be written (the file is then as it was), or bad usage.
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
    /// Where the repaired file goes (one input only); `-` is standard
    /// output, and the report then goes to standard error.
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

/// A file checked: its report as printed, and its counts.
struct Checked {
    text: String,
    /// The report itself, when it is written as it is made (a single
    /// file: with every diagnostic shown, it can run to hundreds of
    /// megabytes).
    report: Option<FileReport>,
    counts: (usize, usize),
    unreadable: bool,
    /// Its repair could not be written.
    unwritten: bool,
    /// The repaired file, for standard output (`-o -`).
    held: Option<Vec<u8>>,
}

/// How the library checks a file, from the command line.
fn options(path: &str, args: &Args, allow: &[Code]) -> CheckOptions {
    let mut o = CheckOptions::default();
    o.max_per_code =
        args.max_diagnostics
            .unwrap_or(if args.json { 0 } else { DEFAULT_MAX_PER_CODE });
    o.warnings_as_errors = args.warnings_as_errors;
    o.allow = allow.to_vec();
    // A collection can have hundreds of thousands; only the report shows them.
    o.keep_changes = args.json || !args.quiet;
    // `QIPU_PART_BYTES` makes parts small enough for the command's tests
    // to exercise them: read by test (debug) builds only, never by the
    // binary shipped (the library takes the size as an option).
    #[cfg(debug_assertions)]
    {
        o.part_bytes = std::env::var("QIPU_PART_BYTES")
            .ok()
            .and_then(|v| v.parse().ok());
        // And `QIPU_HELD_DIAGNOSTICS` few enough to have them made again.
        o.held_diagnostics = std::env::var("QIPU_HELD_DIAGNOSTICS")
            .ok()
            .and_then(|v| v.parse().ok());
    }
    if args.fix {
        let target = if args.in_place {
            Target::File(path.to_string())
        } else {
            match args.output.as_deref() {
                Some("-") | None => Target::Held,
                Some(o) => Target::File(o.to_string()),
            }
        };
        let mut fix = Fix::to(target);
        fix.variation_level = args.variation_level;
        fix.backup = args.backup;
        o.fix = Some(fix);
    }
    o
}

/// Checks (and repairs) one file and renders its report: in the worker,
/// so that no document outlives its part.
fn check_one(path: &str, args: &Args, allow: &[Code], color: bool, stream: bool) -> Checked {
    let r = check_path(path, &options(path, args, allow));
    let text = if stream {
        String::new()
    } else if args.json {
        r.json_line() + "\n"
    } else {
        r.human(&human_options(args, color))
    };
    Checked {
        text,
        counts: r.counts(),
        unreadable: r.unreadable(),
        unwritten: r.unwritten(),
        held: r.held_output().map(<[u8]>::to_vec),
        report: stream.then_some(r),
    }
}

/// How a report is printed for people.
fn human_options(args: &Args, color: bool) -> HumanOptions {
    let mut h = HumanOptions::default();
    h.quiet = args.quiet;
    h.info = args.info;
    h.color = color;
    h
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
    // The repaired record on standard output (`-o -`) keeps it to itself:
    // the report goes to standard error.
    let report_on_stderr = args.fix && args.output.as_deref() == Some("-");
    let color = if report_on_stderr {
        std::io::stderr().is_terminal()
    } else {
        std::io::stdout().is_terminal()
    };
    // Buffered: a report written as it is made comes a line at a time.
    let mut report: Box<dyn Write> = if report_on_stderr {
        Box::new(std::io::BufWriter::new(std::io::stderr().lock()))
    } else {
        Box::new(std::io::BufWriter::new(std::io::stdout().lock()))
    };
    let (mut errors, mut warnings, mut unreadable, mut unwritten, mut files_with) =
        (0usize, 0usize, 0usize, 0usize, 0usize);
    // Chunks keep memory flat and the output in input order.
    for chunk in files.chunks(256) {
        let reports: Vec<Checked> = chunk
            .par_iter()
            .map(|p| {
                let r = check_one(p, args, &allow, color, chunk.len() == 1);
                if let Some(b) = &bar {
                    b.inc(1);
                }
                r
            })
            .collect();
        for r in reports {
            if let Some(held) = &r.held
                && std::io::stdout().lock().write_all(held).is_err()
            {
                return Ok(2);
            }
            if r.unreadable {
                unreadable += 1;
            }
            if r.unwritten {
                unwritten += 1;
            }
            let (e, w) = r.counts;
            errors += e;
            warnings += w;
            if e + w > 0 {
                files_with += 1;
            }
            let out = match (&r.report, &bar) {
                (Some(j), _) if args.json => j.write_json_line(&mut report),
                (Some(h), _) => h.write_human(&human_options(args, color), &mut report),
                (None, Some(b)) => b.suspend(|| {
                    report
                        .write_all(r.text.as_bytes())
                        .and_then(|()| report.flush())
                }),
                (None, None) => report.write_all(r.text.as_bytes()),
            }
            .and_then(|()| report.flush());
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
            "{} file(s) checked: {errors} error(s), {warnings} warning(s) in {files_with} file(s){}{}\n",
            files.len(),
            if unreadable > 0 {
                format!(", {unreadable} unreadable")
            } else {
                String::new()
            },
            if unwritten > 0 {
                format!(", {unwritten} not written (left as they were)")
            } else {
                String::new()
            }
        );
        let _ = report.write_all(summary.as_bytes());
    }
    let _ = report.flush();
    Ok(if unreadable + unwritten > 0 {
        2
    } else if errors + warnings > 0 {
        1
    } else {
        0
    })
}
