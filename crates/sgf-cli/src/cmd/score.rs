//! `qipu score`: counts the position at the end of the main line (or a node).

use anyhow::{Result, bail};
use clap::Args as ClapArgs;
use serde_json::json;
use sgf_go::GameInfo;
use sgf_go::score::{self, DeadFrom, Rules, Settings};
use sgf_gtp::{Engine, EngineSpec};

use crate::input;

/// Count the score: territory, captures and area, dead stones from an
/// engine, from the record's TB/TW, or from Qipu's own estimator.
///
/// Exit status: 0 success; 2 the input could not be read or holds no SGF
/// game tree, the output could not be written (a file written is then as
/// it was), or bad usage; 3 the engine failed (it could not be started, or
/// it quit or answered an error).
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input; `ARCHIVE!MEMBER` for a record
    /// file inside a zip, tar, tar.gz or 7z archive, or the archive itself
    /// when it holds one).
    pub file: String,
    /// Game of the collection (from 1).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Count at node K in file order (from 0) instead of the end of the main line.
    #[arg(long)]
    pub node: Option<usize>,
    /// Rules: japanese, korean (territory); chinese, aga, nz, tromp-taylor, ing (area).
    /// Default: the record's RU, else japanese.
    #[arg(long)]
    pub rules: Option<String>,
    /// Komi (default: the record's KM, else 0).
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f64>,
    /// Dead stones from this engine's `final_status_list dead`: a name from
    /// engines.toml or a command line such as "gnugo --mode gtp".
    #[arg(long)]
    pub engine: Option<String>,
    /// Use Qipu's estimator even when the record marks territory (TB/TW).
    #[arg(long, conflicts_with = "engine")]
    pub estimate: bool,
    /// JSON: `{"result": "B+3.5", "rules": "japanese", "komi": 6.5, "dead": ["dd", …],
    /// "black": {"territory": N, "captures": N, "area": N}, "white": {…}}`; with
    /// Qipu's estimator also `"finished"`: false for an estimate in the middle
    /// of a game (territory from influence), not a result.
    #[arg(long)]
    pub json: bool,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    // Only the part of a collection that holds the game is read.
    let at = match input::load_game(&args.file, args.game.saturating_sub(1), args.quiet)? {
        Ok(at) => at,
        Err(n) => bail!("the file has {n} game(s); there is no game {}", args.game),
    };
    let doc = &at.loaded.parsed.document;
    let game = at.index;
    let cursor = super::position::locate(doc, game, None, args.node)?;
    let info = GameInfo::of(doc, game);
    let mut settings = Settings::of_game(&info);
    if let Some(r) = &args.rules {
        let Some(rules) = Rules::from_name(r) else {
            let names: Vec<&str> = Rules::ALL.iter().map(|r| r.as_str()).collect();
            bail!("unknown rules `{r}` (known: {})", names.join(", "));
        };
        settings.rules = rules;
    }
    if let Some(k) = args.komi {
        if !k.is_finite() {
            bail!("komi must be a number");
        }
        settings.komi = k;
    }
    // `finished`: with the estimator, whether the game looks finished.
    let (s, dame, from, finished) = if let Some(e) = &args.engine {
        let spec = EngineSpec::resolve(e)?;
        let engine_dead = Engine::start(&spec).and_then(|mut eng| {
            eng.replay(doc, game, cursor.node())?;
            let found = eng.dead_and_dame(cursor.size(), cursor.position())?;
            eng.quit();
            Ok(found)
        });
        match engine_dead {
            Ok((dead, dame)) => {
                let s = score::count_with(cursor.position(), &dead, &dame, &settings);
                (s, dame, DeadFrom::Engine, None)
            }
            Err(err) => {
                eprintln!("qipu: {err}");
                return Ok(3);
            }
        }
    } else {
        let marks = score::dead_from_marks(&cursor.position().board, &doc.node(cursor.node()));
        match marks.filter(|_| !args.estimate) {
            Some(dead) => {
                let s = score::count_with(cursor.position(), &dead, &[], &settings);
                (s, Vec::new(), DeadFrom::Marks, None)
            }
            None => {
                let e = score::estimate_position(
                    cursor.position(),
                    &settings,
                    &score::EstimateOptions::default(),
                );
                (e.score, Vec::new(), DeadFrom::Estimator, Some(e.finished))
            }
        }
    };
    let recorded = info.result.as_ref().map(|r| r.raw.clone());
    let out = if args.json {
        // The one shape of a count, and where it was made.
        let mut v = sgf_report::score_json(&s, &dame, from);
        if let Some(f) = finished {
            v["finished"] = json!(f);
        }
        v["recorded"] = json!(recorded);
        v["node"] = json!(doc.node(cursor.node()).number());
        serde_json::to_string_pretty(&v)? + "\n"
    } else {
        let mut t = text(&s, from, recorded.as_deref(), cursor.size());
        if finished == Some(false) {
            t += "the game is not finished: an estimate, territory from the influence of the living stones\n";
        }
        t
    };
    input::write_output(None, out.as_bytes())?;
    Ok(0)
}

fn text(
    s: &score::Score,
    from: DeadFrom,
    recorded: Option<&str>,
    size: sgf_go::BoardSize,
) -> String {
    let area = s.settings.rules.scoring() == score::Scoring::Area;
    let line = |name: &str, x: &score::Side, extra: String| {
        if area {
            format!(
                "{name}: {} stones + {} territory = {}{extra}\n",
                x.stones, x.territory, x.score
            )
        } else {
            format!(
                "{name}: {} territory + {} captures = {}{extra}\n",
                x.territory, x.captures, x.score
            )
        }
    };
    let comp = s.settings.rules.handicap_compensation(s.settings.handicap);
    let mut extra = format!(" (komi {})", s.settings.komi);
    if comp > 0 {
        extra = format!(" (komi {}, handicap {comp})", s.settings.komi);
    }
    let mut out = format!(
        "rules: {} ({} scoring)\n",
        s.settings.rules.as_str(),
        if area { "area" } else { "territory" }
    );
    out += &line("Black", &s.black, String::new());
    out += &line("White", &s.white, extra);
    let names: Vec<String> = s
        .dead
        .iter()
        .map(|&p| sgf_go::coords::human(p, size))
        .collect();
    out += &format!(
        "dead stones ({}): {}\n",
        from.as_str(),
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(" ")
        }
    );
    out += &format!("result: {}", s.result());
    if let Some(r) = recorded {
        out += &format!(" (recorded: {r})");
    }
    out.push('\n');
    out
}
