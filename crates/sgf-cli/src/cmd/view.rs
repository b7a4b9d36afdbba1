//! `qipu view`: the local web viewer and editor.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args as ClapArgs;

/// View and edit records in the browser (a server on 127.0.0.1).
///
/// Exit status: 0 when stopped (Ctrl+C); 2 the path or the database cannot
/// be served (not a regular file or folder, larger than the viewer opens),
/// the port is taken, or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A record file, or a directory to list (default: the bundled example).
    pub path: Option<PathBuf>,
    /// Port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Do not open the browser; only print the URL.
    #[arg(long)]
    pub no_open: bool,
    /// A game database (`qipu db index`) to search from the page.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// The memory the records open may hold, in MiB: beyond it the least
    /// recently used are put aside (unchanged ones are read again from
    /// their files when used; unsaved changes are kept in a recovery
    /// folder and come back with them).
    #[arg(long, value_name = "MIB", default_value_t = (sgf_web::DEFAULT_MEMORY_BUDGET >> 20) as u64)]
    pub memory_budget: u64,
    /// Records not used for this many minutes are put aside the same way
    /// (0: never).
    #[arg(long, value_name = "MINUTES", default_value_t = sgf_web::DEFAULT_IDLE_TIMEOUT.as_secs() / 60)]
    pub idle_timeout: u64,
}

/// Opens `url` in the user's browser. The opener (`xdg-open`, `open`,
/// `start`) is waited for on a thread of its own, so that it never stays
/// behind as a zombie process; when it cannot be started or says it
/// failed, the URL is printed prominently for the user to open.
fn open_browser(url: &str) {
    let (program, args) = if cfg!(target_os = "macos") {
        ("open", vec![url.to_string()])
    } else if cfg!(windows) {
        (
            "cmd",
            vec!["/C".into(), "start".into(), String::new(), url.to_string()],
        )
    } else {
        ("xdg-open", vec![url.to_string()])
    };
    let url = url.to_string();
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let why = match spawned {
        Err(e) => Some(format!("{program} could not be started: {e}")),
        Ok(mut child) => {
            let waited = std::thread::Builder::new()
                .name("qipu-opener".into())
                .spawn(move || match child.wait() {
                    Ok(st) if st.success() => {}
                    Ok(st) => no_browser(&url, &format!("{program} failed ({st})")),
                    Err(e) => no_browser(&url, &format!("{program}: {e}")),
                });
            // No thread (very unusual): the opener is left to finish alone.
            waited
                .err()
                .map(|e| format!("{program} not waited for: {e}"))
        }
    };
    if let Some(why) = why {
        no_browser(url_of(&args), &why);
    }
}

/// The URL among an opener's arguments (the last).
fn url_of(args: &[String]) -> &str {
    args.last().map_or("", String::as_str)
}

/// Says that no browser could be opened, the URL on a line of its own.
fn no_browser(url: &str, why: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "\nNo browser could be opened ({why}).\nOpen this address in a browser:\n\n    {url}\n"
    );
    let _ = out.flush();
}

/// Runs the command (until interrupted).
pub fn run(args: &Args) -> Result<u8> {
    let opts = sgf_web::ViewOptions {
        path: args.path.clone(),
        port: args.port,
        token: None,
        db: args.db.clone(),
        memory_budget: usize::try_from(args.memory_budget.saturating_mul(1 << 20))
            .unwrap_or(usize::MAX),
        idle_timeout: (args.idle_timeout > 0)
            .then(|| std::time::Duration::from_secs(args.idle_timeout.saturating_mul(60))),
        recovery_dir: None,
    };
    let no_open = args.no_open;
    sgf_web::serve(&opts, |url| {
        println!("Qipu viewer at {url}");
        println!("(listening on 127.0.0.1 only; press Ctrl+C to stop)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        if !no_open {
            open_browser(url);
        }
    })
    .map_err(|e| anyhow!(e))?;
    Ok(0)
}
