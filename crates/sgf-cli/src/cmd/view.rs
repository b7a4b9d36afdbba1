//! `qipu view`: the local web viewer and editor.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args as ClapArgs;

/// View and edit records in the browser (a server on 127.0.0.1).
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
}

fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        ("open", vec![url.to_string()])
    } else if cfg!(windows) {
        (
            "cmd",
            vec!["/C".into(), "start".into(), String::new(), url.to_string()],
        )
    } else {
        ("xdg-open", vec![url.to_string()])
    };
    // A missing opener is not an error: the URL is printed.
    let _ = std::process::Command::new(cmd.0)
        .args(&cmd.1)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

/// Runs the command (until interrupted).
pub fn run(args: &Args) -> Result<u8> {
    let opts = sgf_web::ViewOptions {
        path: args.path.clone(),
        port: args.port,
        token: None,
        db: args.db.clone(),
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
