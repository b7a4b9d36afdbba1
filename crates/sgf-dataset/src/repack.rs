//! Cutting collections and solid archives into shards of whole games that
//! workers read on their own: a solid `.7z` of millions of games cannot be
//! split, and one big file makes one task. Every game read is written, in
//! its canonical FF\[4\] UTF-8 form (the form `qipu convert` writes), in
//! input order; nothing is selected here.

use std::path::{Path, PathBuf};

use serde::Serialize;
use sgf_core::write::GAME_SEPARATOR;
use sgf_core::{WriteOptions, game_to_canonical_bytes};
use sgf_formats::collection::{self, Record};
use sgf_formats::parts::PartOptions;

use crate::build::Error;

/// What a repack did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RepackSummary {
    /// Inputs read (files and archive members).
    pub inputs: u64,
    /// Inputs that could not be read, hold no game record, or cannot be
    /// written without loss (named on `failed`).
    pub inputs_failed: u64,
    /// Why each failed input failed.
    pub failed: Vec<String>,
    /// Games read and written.
    pub games: u64,
    /// The shard files, in order.
    pub files: Vec<String>,
}

/// Writes the games of `paths` into `dir/games-NNNNN.sgf`, `per_shard`
/// games each (the last may hold fewer), `dir/index.jsonl` (for each game
/// written, in order: its shard, its number there, and the input and
/// number it came from, from 1) and `dir/repack.json` (the summary).
///
/// # Errors
/// A path that does not exist, an output that cannot be written, or
/// `per_shard` 0.
pub fn repack(paths: &[PathBuf], dir: &Path, per_shard: usize) -> Result<RepackSummary, Error> {
    if per_shard == 0 {
        return Err(Error::Usage("a shard holds at least one game".into()));
    }
    let walk = collection::inputs(paths).map_err(Error::Input)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Output(format!("cannot create {}: {e}", dir.display())))?;
    let mut sum = RepackSummary::default();
    let mut shard: Vec<u8> = Vec::new();
    let mut in_shard = 0usize;
    let mut last: Option<String> = None;
    let mut index: Vec<u8> = Vec::new();
    let flush = |shard: &mut Vec<u8>, in_shard: &mut usize, sum: &mut RepackSummary| {
        if *in_shard == 0 {
            return Ok(());
        }
        let name = format!("games-{:05}.sgf", sum.files.len());
        crate::build::write(&dir.join(&name), shard)?;
        sum.files.push(name);
        shard.clear();
        *in_shard = 0;
        Ok::<(), Error>(())
    };
    let wo = WriteOptions::default();
    collection::records(
        &walk.files,
        &PartOptions::default(),
        &|| {},
        |part| {
            let mut loaded = part.loaded;
            if !loaded.converted {
                // SGF dialects in FF[4] form, as `qipu fmt`/`convert` write them.
                sgf_formats::repair::fmt(&mut loaded.parsed);
            }
            let doc = &loaded.parsed.document;
            sgf_formats::repair::writable(doc)
                .map(|()| {
                    (0..doc.game_count())
                        .map(|gi| game_to_canonical_bytes(doc, gi, &wo))
                        .collect::<Vec<_>>()
                })
                .map_err(|e| e.to_string())
        },
        |input, r| {
            if last.as_deref() != Some(input.name.as_str()) {
                sum.inputs += 1;
                last = Some(input.name.clone());
            }
            match r {
                Record::Part(piece, Ok(games)) => {
                    for (k, g) in games.into_iter().enumerate() {
                        let row = serde_json::json!({
                            "shard": format!("games-{:05}.sgf", sum.files.len()),
                            "game": in_shard + 1,
                            "file": &input.name,
                            "file_game": piece.first_game + k + 1,
                        });
                        serde_json::to_writer(&mut index, &row)
                            .map_err(|e| Error::Output(e.to_string()))?;
                        index.push(b'\n');
                        if in_shard > 0 {
                            shard.extend_from_slice(GAME_SEPARATOR);
                        }
                        shard.extend_from_slice(&g);
                        in_shard += 1;
                        sum.games += 1;
                        if in_shard >= per_shard {
                            flush(&mut shard, &mut in_shard, &mut sum)?;
                        }
                    }
                }
                Record::Part(_, Err(why)) => {
                    sum.inputs_failed += 1;
                    sum.failed.push(format!("{}: {why}", input.name));
                }
                Record::Failed { message, .. } => {
                    sum.inputs_failed += 1;
                    sum.failed.push(message);
                }
                Record::Done { .. } => {}
            }
            Ok::<(), Error>(())
        },
    )?;
    flush(&mut shard, &mut in_shard, &mut sum)?;
    crate::build::write(&dir.join("index.jsonl"), &index)?;
    let text = serde_json::to_vec_pretty(&sum).map_err(|e| Error::Output(e.to_string()))?;
    crate::build::write(&dir.join("repack.json"), &text)?;
    Ok(sum)
}
