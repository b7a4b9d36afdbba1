//! `qipu`: the command-line front end of the Qipu SGF toolkit.

// Doc comments here are also the `--help` text, where `FF[4]` must read as
// written, not as an escaped link.
#![allow(rustdoc::broken_intra_doc_links)]

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sgf_core::Severity;

mod cmd;
mod input;
mod parts;
mod walk;

use sgf_report as report;

/// Qipu (棋谱): read, check, repair, convert and show Go game records (SGF FF[1]–FF[4]).
#[derive(Parser, Debug)]
#[command(
    name = "qipu",
    version,
    about,
    propagate_version = true,
    // The statuses of every command in one place; each command's help gives its own.
    after_help = "Exit status: 0 success; 1 `check` only: warnings or errors found; \
                  2 an input could not be read or is not a game record, no record file was found, an output could not \
                  be written, or bad usage; 3 `score --engine`, `analyze`: the engine failed. \
                  Each command's --help gives its own."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Check(cmd::check::Args),
    Fmt(cmd::fmt::Args),
    Dump(cmd::dump::Args),
    Info(cmd::info::Args),
    Position(cmd::position::Args),
    Tree(cmd::tree::Args),
    Convert(cmd::convert::Args),
    Render(cmd::render::Args),
    Figures(cmd::figures::Args),
    Stats(cmd::stats::Args),
    View(cmd::view::Args),
    Export(cmd::export::Args),
    Dataset(cmd::dataset::Args),
    Db(cmd::db::Args),
    Score(cmd::score::Args),
    Analyze(cmd::analyze::Args),
}

/// Prints the warnings and errors of a part of a file read alone (or of
/// the whole file) on standard error, one per line, placed in the file.
pub(crate) fn print_diagnostics_at(loaded: &input::Loaded, piece: &sgf_formats::parts::Piece) {
    print_diagnostics_in(loaded, piece.lines_before, piece.range.start as u32);
}

fn print_diagnostics_in(loaded: &input::Loaded, lines_before: u32, byte_offset: u32) {
    let doc = &loaded.parsed.document;
    // Diagnostics of a converted record's reader point into the input.
    let sources = report::Sources::new(doc, loaded.original.as_ref()).at(lines_before, byte_offset);
    let color = std::io::stderr().is_terminal();
    let mut shown = 0;
    for d in &loaded.parsed.diagnostics {
        if d.severity == Severity::Info {
            continue;
        }
        shown += 1;
        if shown > 20 {
            eprintln!("… and more (run `qipu check` for the full list)");
            break;
        }
        if color {
            eprintln!(
                "{}",
                report::render_in(&loaded.name, sources.of(d), d, true)
            );
        } else {
            eprintln!("{}", report::one_line_in(&loaded.name, sources.of(d), d));
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP, the temporary files of the saves under
/// way are removed before the process exits (with 128 + the signal, as a
/// shell reports a process the signal killed): an interrupted save leaves
/// its target as it was and nothing beside it.
#[cfg(unix)]
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("qipu-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                sgf_formats::save::remove_live_temporaries();
                std::process::exit(128 + sig);
            }
        });
}

#[cfg(not(unix))]
fn clean_up_on_signals() {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    clean_up_on_signals();
    let result = match &cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Dump(a) => cmd::dump::run(a),
        Command::Info(a) => cmd::info::run(a),
        Command::Position(a) => cmd::position::run(a),
        Command::Tree(a) => cmd::tree::run(a),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Render(a) => cmd::render::run(a),
        Command::Figures(a) => cmd::figures::run(a),
        Command::Stats(a) => cmd::stats::run(a),
        Command::View(a) => cmd::view::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Dataset(a) => cmd::dataset::run(a),
        Command::Db(a) => cmd::db::run(a),
        Command::Score(a) => cmd::score::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("qipu: {e:#}");
            ExitCode::from(2)
        }
    }
}
