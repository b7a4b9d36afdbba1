//! `qipu check`: every FF[4] rule checked, every repairable file repaired.

use std::io::{IsTerminal, Write};

use anyhow::{Result, bail};
use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sgf_core::Code;
use sgf_report::check::{
    CheckOptions, DEFAULT_MAX_PER_CODE, FileReport, Fix, HumanOptions, Target, check_bytes,
    check_path,
};

/// Check records against every rule of SGF FF[4] and Go; optionally repair them.
///
/// Exit status: 0 no warnings or errors; 1 warnings or errors found; 2 a
/// file could not be read (not a regular file, larger than 1 GiB) or is not
/// a game record (binary, an archive's member that is not one, text with no
/// game tree), no record file was found, a repair could not be written (the
/// file is then as it was; an archive is never written into), or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Files, directories (searched recursively for records) and archives
    /// (each record file in turn); `ARCHIVE!MEMBER` for one record file of
    /// an archive; `-` for standard input.
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
    /// It is not a game record (counted among the unreadable).
    not_record: bool,
    /// It is an archive: its records are checked instead (the path).
    archive: Option<String>,
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

/// What is checked: a file named on the command line or found in a
/// directory, or a record read already (an archive's member, standard
/// input).
enum Job {
    Path(String),
    Read(crate::input::Source),
}

/// Checks (and repairs) one file and renders its report: in the worker,
/// so that no document outlives its part.
fn check_one(job: Job, args: &Args, allow: &[Code], color: bool, stream: bool) -> Checked {
    let (r, path) = match job {
        Job::Path(path) => (check_path(&path, &options(&path, args, allow)), Some(path)),
        Job::Read(src) => (
            check_bytes(&src.name, src.bytes, &options(&src.name, args, allow)),
            None,
        ),
    };
    let archive = path.filter(|_| {
        matches!(
            r.not_record(),
            Some(sgf_formats::judge::NotRecord::Archive(_))
        )
    });
    let mut c = checked(r, args, color, stream);
    c.archive = archive;
    c
}

/// A report as the command holds it.
fn checked(r: FileReport, args: &Args, color: bool, stream: bool) -> Checked {
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
        not_record: r.not_record().is_some(),
        archive: None,
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
    // Files, directories walked (archives among them), `ARCHIVE!MEMBER`.
    let files: Vec<String> = crate::walk::inputs(&args.paths)?
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
    let report: Box<dyn Write> = if report_on_stderr {
        Box::new(std::io::BufWriter::new(std::io::stderr().lock()))
    } else {
        Box::new(std::io::BufWriter::new(std::io::stdout().lock()))
    };
    let mut t = Tally {
        report,
        checked: 0,
        errors: 0,
        warnings: 0,
        unreadable: 0,
        not_records: 0,
        unwritten: 0,
        files_with: 0,
    };
    // Files: a chunk at a time, side by side, in order. An archive (or
    // standard input, which may hold one): its records a batch at a time.
    let mut i = 0;
    while i < files.len() {
        let run = files[i..]
            .iter()
            .take(256)
            .take_while(|p| by_name(p, args))
            .count();
        if run > 0 {
            let jobs: Vec<Job> = files[i..i + run].iter().cloned().map(Job::Path).collect();
            if !t.check_batch(jobs, args, &allow, color, bar.as_ref())? {
                return Ok(2);
            }
            i += run;
            continue;
        }
        let path = &files[i];
        i += 1;
        if !t.check_archive(path, args, &allow, color)? {
            return Ok(2);
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let Tally {
        mut report,
        checked,
        errors,
        warnings,
        unreadable,
        not_records,
        unwritten,
        files_with,
    } = t;
    if !args.json {
        let summary = format!(
            "{checked} file(s) checked: {errors} error(s), {warnings} warning(s) in {files_with} file(s){}{}{}\n",
            if unreadable > 0 {
                format!(", {unreadable} unreadable")
            } else {
                String::new()
            },
            if not_records > 0 {
                format!(", {not_records} not game records")
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
    Ok(if unreadable + not_records + unwritten > 0 {
        2
    } else if errors + warnings > 0 {
        1
    } else {
        0
    })
}

/// Whether a path is checked by its name, side by side with others: not
/// an archive by its name nor standard input (which may hold one), whose
/// records are read first, nor a member repaired in place (refused). An
/// archive by its first bytes only (a zip named `.sgf`) is found by its
/// check, which says so ([`Tally::check_batch`]): no file is opened
/// twice to look.
fn by_name(path: &str, args: &Args) -> bool {
    let member = sgf_formats::archive::split_member_path(path).is_some();
    let archive = !member && sgf_formats::walk::is_archive_path(std::path::Path::new(path));
    let stdin = path == "-" && !args.in_place;
    !(archive || stdin || args.in_place && member)
}

/// What the command has found so far, and where its report goes.
struct Tally {
    report: Box<dyn Write>,
    checked: usize,
    errors: usize,
    warnings: usize,
    unreadable: usize,
    not_records: usize,
    unwritten: usize,
    files_with: usize,
}

impl Tally {
    /// Checks a batch side by side and writes the reports in order; false
    /// when the report or a repaired record could not be written.
    fn check_batch(
        &mut self,
        jobs: Vec<Job>,
        args: &Args,
        allow: &[Code],
        color: bool,
        bar: Option<&ProgressBar>,
    ) -> Result<bool> {
        let single = jobs.len() == 1;
        let reports: Vec<Checked> = jobs
            .into_par_iter()
            .map(|j| {
                let r = check_one(j, args, allow, color, single);
                if let Some(b) = bar {
                    b.inc(1);
                }
                r
            })
            .collect();
        for r in reports {
            // A file that is an archive by its first bytes: its records.
            if let Some(path) = &r.archive {
                if !self.check_archive(path, args, allow, color)? {
                    return Ok(false);
                }
                continue;
            }
            if let Some(held) = &r.held
                && std::io::stdout().lock().write_all(held).is_err()
            {
                return Ok(false);
            }
            self.checked += 1;
            if r.not_record {
                self.not_records += 1;
            } else if r.unreadable {
                self.unreadable += 1;
            }
            if r.unwritten {
                self.unwritten += 1;
            }
            let (e, w) = r.counts;
            self.errors += e;
            self.warnings += w;
            if e + w > 0 {
                self.files_with += 1;
            }
            let report = &mut self.report;
            let out = match (&r.report, bar) {
                (Some(j), _) if args.json => j.write_json_line(report),
                (Some(h), _) => h.write_human(&human_options(args, color), report),
                (None, Some(b)) => b.suspend(|| {
                    report
                        .write_all(r.text.as_bytes())
                        .and_then(|()| report.flush())
                }),
                (None, None) => report.write_all(r.text.as_bytes()),
            }
            .and_then(|()| report.flush());
            if out.is_err() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Checks the records of an archive (or of standard input, which may
    /// hold one) in turn, a batch at a time; false when the report or a
    /// repaired record could not be written. Repairs are never written
    /// into an archive.
    fn check_archive(
        &mut self,
        path: &str,
        args: &Args,
        allow: &[Code],
        color: bool,
    ) -> Result<bool> {
        if args.in_place && path != "-" {
            // Nothing is ever written into an archive.
            self.unwritten += 1;
            self.checked += 1;
            let e = format!(
                "{path}: an archive is never written into; repair its record files into files of their own with --fix -o OUT"
            );
            if args.json {
                let line = serde_json::json!({"diagnostics": [], "error": e, "path": path});
                writeln!(self.report, "{line}")?;
            } else {
                writeln!(self.report, "{e}")?;
            }
            return Ok(true);
        }
        if args.output.is_some() {
            // One output: one record, or how to name one.
            let src = crate::input::read_one(path)?;
            return self.check_batch(vec![Job::Read(src)], args, allow, color, None);
        }
        let mut batch = Vec::new();
        let mut failed = false;
        crate::input::each_record(path, |src| {
            match src {
                Ok(src) => batch.push(Job::Read(src)),
                Err(e) => self.fail(&e.to_string(), path, args.json)?,
            }
            if batch.len() >= 64
                && !self.check_batch(std::mem::take(&mut batch), args, allow, color, None)?
            {
                failed = true;
                anyhow::bail!("cannot write the report");
            }
            Ok(())
        })
        .or_else(|e| {
            if failed {
                Ok(())
            } else {
                self.fail(&format!("{e:#}"), path, args.json)
            }
        })?;
        Ok(!failed && self.check_batch(batch, args, allow, color, None)?)
    }

    /// Reports what could not be read at all (an archive, a member).
    fn fail(&mut self, e: &str, path: &str, json: bool) -> Result<()> {
        self.checked += 1;
        self.unreadable += 1;
        if json {
            let line = serde_json::json!({"diagnostics": [], "error": e, "path": path});
            writeln!(self.report, "{line}")?;
        } else {
            writeln!(self.report, "{e}")?;
        }
        Ok(())
    }
}
