//! `qipu view`: the local web viewer and editor.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args as ClapArgs;

/// View and edit records in the browser (a server on 127.0.0.1).
///
/// The browser is opened on a launch page only this user can read (in
/// $XDG_RUNTIME_DIR, else a private folder of the temporary folder,
/// removed when the viewer stops), which sends it on to the viewer's URL:
/// the URL's token is never on a command line. $BROWSER, when set, is the
/// command that opens it (`%s` stands for the page's address).
///
/// Exit status: 0 when stopped (Ctrl+C); 2 the path or the database cannot
/// be served (not a regular file or folder, larger than the viewer opens),
/// the port is taken, or bad usage.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A record file, a directory to list, an archive (its folder listed,
    /// its first record opened) or `ARCHIVE!MEMBER` (default: the bundled
    /// example).
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

/// Opens `target` (the launch page's `file://` address, or its path on
/// Windows) in the user's browser; `url` is the viewer's address, told
/// to the user when no browser opens. The opener is `$BROWSER` when set
/// (a command, its words split as a shell splits them but never run
/// through one; `%s` in it stands for the target, else the target is
/// added last), else `xdg-open`, `open` or `start`. It is waited for on
/// a thread of its own, so that it never stays behind as a zombie
/// process; when it cannot be started or says it failed, the URL is
/// printed prominently for the user to open.
fn open_browser(target: &str, url: &str) {
    let (program, args) = match opener_from_env(target) {
        Some(o) => o,
        None if cfg!(target_os = "macos") => ("open".to_string(), vec![target.to_string()]),
        None if cfg!(windows) => (
            "cmd".to_string(),
            vec![
                "/C".into(),
                "start".into(),
                String::new(),
                target.to_string(),
            ],
        ),
        None => ("xdg-open".to_string(), vec![target.to_string()]),
    };
    let url = url.to_string();
    let spawned = std::process::Command::new(&program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let why = match spawned {
        Err(e) => Some(format!("{program} could not be started: {e}")),
        Ok(mut child) => {
            let told = url.clone();
            let name = program.clone();
            let waited = std::thread::Builder::new()
                .name("qipu-opener".into())
                .spawn(move || match child.wait() {
                    Ok(st) if st.success() => {}
                    Ok(st) => no_browser(&told, &format!("{name} failed ({st})")),
                    Err(e) => no_browser(&told, &format!("{name}: {e}")),
                });
            // No thread (very unusual): the opener is left to finish alone.
            waited
                .err()
                .map(|e| format!("{program} not waited for: {e}"))
        }
    };
    if let Some(why) = why {
        no_browser(&url, &why);
    }
}

/// The opener `$BROWSER` names, with `target` in its arguments; `None`
/// when it is unset, empty or not a command line.
fn opener_from_env(target: &str) -> Option<(String, Vec<String>)> {
    let line = std::env::var("BROWSER").ok()?;
    let mut words = sgf_gtp::EngineSpec::from_command_line(&line).ok()?;
    if words.args.iter().any(|a| a.contains("%s")) {
        for a in &mut words.args {
            *a = a.replace("%s", target);
        }
    } else {
        words.args.push(target.to_string());
    }
    Some((words.command, words.args))
}

/// The launch page: a file only this user can read, which sends the
/// browser on to the viewer's URL and its token, so that the token is
/// never on a command line (`ps` shows every process's to every user).
/// Removed when dropped, and by the signal handler when the viewer is
/// interrupted (see `sgf_formats::save::remove_on_signal`).
struct LaunchPage {
    file: PathBuf,
    /// The private folder made for it when there is no runtime folder.
    dir: Option<PathBuf>,
}

impl LaunchPage {
    /// Writes the launch page of `url`: in `$XDG_RUNTIME_DIR` (the
    /// user's own, 0700), else in a new 0700 folder of the temporary
    /// folder; created new (never through a file or link already there),
    /// readable by this user only.
    fn create(url: &str) -> std::io::Result<LaunchPage> {
        let random = &sgf_web::random_token()[..16];
        let runtime = std::env::var_os("XDG_RUNTIME_DIR")
            .map(PathBuf::from)
            .filter(|d| d.is_absolute() && d.is_dir());
        let (folder, dir) = match runtime {
            Some(d) => (d, None),
            None => {
                let d = std::env::temp_dir().join(format!("qipu-view-{random}"));
                let mut b = std::fs::DirBuilder::new();
                #[cfg(unix)]
                {
                    use std::os::unix::fs::DirBuilderExt;
                    b.mode(0o700);
                }
                b.create(&d)?;
                sgf_formats::save::remove_on_signal(&d);
                (d.clone(), Some(d))
            }
        };
        let file = folder.join(format!("qipu-view-{random}.html"));
        let page = LaunchPage { file, dir };
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&page.file)?;
        sgf_formats::save::remove_on_signal(&page.file);
        use std::io::Write;
        f.write_all(launch_html(url).as_bytes())?;
        Ok(page)
    }

    /// What the browser is given: the page's `file://` address (its path
    /// on Windows, where `start` takes paths).
    fn target(&self) -> String {
        if cfg!(windows) {
            return self.file.display().to_string();
        }
        let mut out = String::from("file://");
        for b in self.file.to_string_lossy().bytes() {
            if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }
}

impl Drop for LaunchPage {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
        sgf_formats::save::forget_on_signal(&self.file);
        if let Some(d) = &self.dir {
            let _ = std::fs::remove_dir(d);
            sgf_formats::save::forget_on_signal(d);
        }
    }
}

/// The launch page's HTML: a redirect to `url`, and a link for a browser
/// that does not follow it.
fn launch_html(url: &str) -> String {
    let url = url
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\">\n\
         <meta http-equiv=\"refresh\" content=\"0;url={url}\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n<title>Qipu</title></head>\n\
         <body><p><a href=\"{url}\">Open the Qipu viewer</a></p></body></html>\n"
    )
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
        confirmed_engines: None,
    };
    let no_open = args.no_open;
    // Kept until the viewer stops, then removed.
    let mut launch: Option<LaunchPage> = None;
    let served = sgf_web::serve(&opts, |url| {
        println!("Qipu viewer at {url}");
        println!("(listening on 127.0.0.1 only; press Ctrl+C to stop)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        if !no_open {
            match LaunchPage::create(url) {
                Ok(page) => {
                    open_browser(&page.target(), url);
                    launch = Some(page);
                }
                Err(e) => no_browser(url, &format!("no launch page could be written: {e}")),
            }
        }
    });
    drop(launch);
    served.map_err(|e| anyhow!(e))?;
    Ok(0)
}
