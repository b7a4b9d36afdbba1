//! `qipu dump`: the file as it is, as JSON or an indented listing.

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::input;

/// Show the game trees of a file as they are, without normalisation.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Input file (`-` for standard input).
    pub file: String,
    /// JSON: `{"games": [{"nodes": [{"parent": null, "props": [["FF", ["4"]], …]}]}]}`.
    #[arg(long)]
    pub json: bool,
    /// Output file (standard output by default).
    #[arg(short, long)]
    pub output: Option<String>,
    /// Do not print diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<u8> {
    let loaded = input::load(&args.file)?.require_games()?;
    if !args.quiet {
        crate::print_diagnostics(&loaded);
    }
    let doc = &loaded.parsed.document;
    let out = if args.json {
        dump_json(doc).to_string() + "\n"
    } else {
        sgf_core::dump::listing(doc)
    };
    input::write_output(args.output.as_deref(), out.as_bytes())?;
    Ok(0)
}

/// `{"games": [{"charset": "UTF-8", "nodes": [{"parent": null, "props": [["FF", ["4"]], …]}, …]}]}`:
/// nodes in file order (pre-order), `parent` the index of the parent in
/// that list, values decoded (escapes resolved, soft line breaks removed).
fn dump_json(doc: &sgf_core::Document) -> serde_json::Value {
    let games: Vec<serde_json::Value> = doc
        .games()
        .map(|game| {
            let mut index = std::collections::HashMap::new();
            let nodes: Vec<serde_json::Value> = game
                .nodes()
                .enumerate()
                .map(|(i, node)| {
                    index.insert(node.id(), i);
                    let props: Vec<serde_json::Value> = node
                        .props()
                        .map(|p| {
                            let vals: Vec<String> =
                                p.values().map(|v| v.decoded().into_owned()).collect();
                            serde_json::json!([p.ident(), vals])
                        })
                        .collect();
                    serde_json::json!({
                        "parent": node.parent().map(|p| index[&p.id()]),
                        "props": props,
                    })
                })
                .collect();
            serde_json::json!({"charset": game.charset(), "nodes": nodes})
        })
        .collect();
    serde_json::json!({ "games": games })
}
