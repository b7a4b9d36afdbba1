//! Issue 28's rows against Sabaki, server side: finding (a move at a
//! point, text in comments, comments, forks and hotspots), variations
//! (copy, cut and paste, flatten, remove the others, shift left and
//! right) as undoable edits saved losslessly, and the board turned,
//! mirrored and inverted (view only, then written into the record).

mod support;

use std::path::PathBuf;

use serde_json::{Value, json};
use support::{App, post, serve, session, tmp};

/// `text` as `name` in a new folder, served; its first state.
async fn open(tag: &str, text: &str) -> (App, PathBuf, Value) {
    let d = tmp(&format!("sabaki-{tag}"));
    let f = d.join("g.sgf");
    std::fs::write(&f, text).unwrap();
    let a = serve(&f);
    let st = post(&a, "/api/start", json!({})).await;
    (a, f, st)
}

async fn nav(a: &App, s: u64, body: Value) -> Value {
    let mut b = body;
    b["session"] = json!(s);
    post(a, "/api/nav", b).await
}

async fn edit(a: &App, s: u64, body: Value) -> Value {
    let mut b = body;
    b["session"] = json!(s);
    post(a, "/api/edit", b).await
}

async fn save(a: &App, s: u64, f: &std::path::Path) -> String {
    let r = post(a, "/api/save", json!({"session": s, "mode": "lossless"})).await;
    assert!(r.get("error").is_none(), "{r}");
    std::fs::read_to_string(f).unwrap()
}

fn number(st: &Value) -> u64 {
    st["node"]["number"].as_u64().unwrap()
}

const GAME: &str = "(;GM[1]FF[4]SZ[9]C[start];B[ee];W[cc]C[a Comment]\
    (;B[gg]HO[1];W[gc];B[cg]C[the end])\
    (;B[cg]C[other COMMENT];W[gg]HO[1]))";

#[tokio::test]
async fn finding_moves_text_comments_forks_and_hotspots() {
    let (a, _f, st) = open("find", GAME).await;
    let s = session(&st);
    // Node numbers in file order: 0 root, 1 B ee, 2 W cc, 3 B gg, 4 W gc,
    // 5 B cg, 6 B cg (second variation), 7 W gg.
    let st = nav(&a, s, json!({"action": "find_move", "point": "gg"})).await;
    assert_eq!(number(&st), 3, "{}", st["message"]);
    assert_eq!(st["node"]["color"], "B");
    assert_eq!(st["node"]["move_number"], 3);
    let st = nav(&a, s, json!({"action": "find_move", "point": "gg"})).await;
    assert_eq!(number(&st), 7);
    // Round again past the end; and backward.
    let st = nav(&a, s, json!({"action": "find_move", "point": "gg"})).await;
    assert_eq!(number(&st), 3);
    let st = nav(
        &a,
        s,
        json!({"action": "find_move", "point": "gg", "backward": true}),
    )
    .await;
    assert_eq!(number(&st), 7);
    let st = nav(&a, s, json!({"action": "find_move", "point": "aa"})).await;
    assert_eq!(st["error_kind"], "refused");
    assert!(
        st["message"].as_str().unwrap().contains("no move at A9"),
        "{st}"
    );
    assert_eq!(number(&st), 7, "a failed search stays");
    // Text in comments, folded: "comment" finds "Comment" and "COMMENT".
    let st = nav(&a, s, json!({"action": "first"})).await;
    assert_eq!(number(&st), 0);
    let st = nav(&a, s, json!({"action": "find_text", "q": "comment"})).await;
    assert_eq!(number(&st), 2);
    let st = nav(&a, s, json!({"action": "find_text", "q": "comment"})).await;
    assert_eq!(number(&st), 6);
    let st = nav(
        &a,
        s,
        json!({"action": "find_text", "q": "comment", "backward": true}),
    )
    .await;
    assert_eq!(number(&st), 2);
    let st = nav(&a, s, json!({"action": "find_text", "q": "nowhere"})).await;
    assert_eq!(st["error_kind"], "refused");
    // Comments along the line (the main line from the root, once visited).
    nav(&a, s, json!({"action": "node", "node": 5})).await;
    nav(&a, s, json!({"action": "first"})).await;
    let st = nav(&a, s, json!({"action": "next_comment"})).await;
    assert_eq!(number(&st), 2);
    let st = nav(&a, s, json!({"action": "next_comment"})).await;
    assert_eq!(number(&st), 5);
    let st = nav(&a, s, json!({"action": "next_comment"})).await;
    assert_eq!(st["error_kind"], "refused");
    let st = nav(&a, s, json!({"action": "prev_comment"})).await;
    assert_eq!(number(&st), 2);
    // Forks along the line.
    let st = nav(&a, s, json!({"action": "prev_fork"})).await;
    assert_eq!(st["error_kind"], "refused", "no fork above W cc");
    let st = nav(&a, s, json!({"action": "first"})).await;
    assert_eq!(number(&st), 0);
    let st = nav(&a, s, json!({"action": "next_fork"})).await;
    assert_eq!(number(&st), 2);
    nav(&a, s, json!({"action": "last"})).await;
    let st = nav(&a, s, json!({"action": "prev_fork"})).await;
    assert_eq!(number(&st), 2);
    // Hotspots in tree order, round again.
    let st = nav(&a, s, json!({"action": "next_hotspot"})).await;
    assert_eq!(number(&st), 3);
    let st = nav(&a, s, json!({"action": "next_hotspot"})).await;
    assert_eq!(number(&st), 7);
    let st = nav(&a, s, json!({"action": "next_hotspot"})).await;
    assert_eq!(number(&st), 3);
    let st = nav(&a, s, json!({"action": "prev_hotspot"})).await;
    assert_eq!(number(&st), 7);
}

#[tokio::test]
async fn variations_copied_cut_pasted_shifted_removed_and_flattened_as_edits() {
    let (a, f, st) = open("vars", GAME).await;
    let s = session(&st);
    assert_eq!(st["clipboard"], false);
    // Copy the second variation (from B cg on) and paste it after W gc.
    nav(&a, s, json!({"action": "node", "node": 6})).await;
    let st = edit(&a, s, json!({"op": "copy_variation"})).await;
    assert_eq!(st["clipboard"], true);
    assert_eq!(st["can_undo"], false, "copying changes nothing");
    nav(&a, s, json!({"action": "node", "node": 4})).await;
    let st = edit(&a, s, json!({"op": "paste_variation"})).await;
    assert_eq!(st["node"]["move"], "C3", "{st}");
    assert_eq!(st["node"]["comment"], "other COMMENT");
    assert_eq!(st["node"]["variations"], 2);
    let saved = save(&a, s, &f).await;
    assert!(
        saved.contains(";W[gc](;B[cg]C[the end])(;B[cg]C[other COMMENT]")
            && saved.contains(";W[gg]HO[1]))(;B[cg]C[other COMMENT];W[gg]HO[1]))"),
        "{saved}"
    );
    // Only what was edited changed: the file before the paste is all there.
    assert!(saved.starts_with("(;GM[1]FF[4]SZ[9]C[start];B[ee];W[cc]C[a Comment]"));
    let st = edit(&a, s, json!({"op": "undo"})).await;
    assert_eq!(st["node"]["move"], "G7");
    assert_eq!(save(&a, s, &f).await, GAME, "undo gives the file back");
    // Cut: copied and deleted, one undo step; then pasted elsewhere.
    nav(&a, s, json!({"action": "node", "node": 6})).await;
    let st = edit(&a, s, json!({"op": "cut_variation"})).await;
    assert_eq!(number(&st), 2);
    assert_eq!(st["node"]["children"], 1);
    let st = edit(&a, s, json!({"op": "paste_variation"})).await;
    assert_eq!(st["node"]["comment"], "other COMMENT");
    edit(&a, s, json!({"op": "undo"})).await;
    edit(&a, s, json!({"op": "undo"})).await;
    assert_eq!(save(&a, s, &f).await, GAME);
    // Shift the variation right, then left again.
    nav(&a, s, json!({"action": "node", "node": 4})).await;
    let st = edit(&a, s, json!({"op": "shift_variation", "left": false})).await;
    assert_eq!(st["node"]["move"], "G7", "the cursor stays on its node");
    assert!(
        save(&a, s, &f)
            .await
            .contains("(;B[cg]C[other COMMENT];W[gg]HO[1])(;B[gg]HO[1]")
    );
    let st = edit(&a, s, json!({"op": "shift_variation", "left": false})).await;
    assert_eq!(st["error_kind"], "refused", "rightmost already");
    edit(&a, s, json!({"op": "shift_variation", "left": true})).await;
    assert_eq!(save(&a, s, &f).await, GAME);
    // Remove the other variations: the line through W gc stays alone.
    let st = edit(&a, s, json!({"op": "remove_other_variations"})).await;
    assert_eq!(st["node"]["move"], "G7");
    let saved = save(&a, s, &f).await;
    assert!(!saved.contains("other COMMENT"), "{saved}");
    assert!(
        saved.contains(";B[gg]HO[1];W[gc];B[cg]C[the end]"),
        "{saved}"
    );
    let st = edit(&a, s, json!({"op": "remove_other_variations"})).await;
    assert_eq!(st["error_kind"], "refused");
    edit(&a, s, json!({"op": "undo"})).await;
    assert_eq!(save(&a, s, &f).await, GAME);
    // Flatten (Sabaki's): the position at B gg becomes the root's setup.
    nav(&a, s, json!({"action": "node", "node": 3})).await;
    let st = edit(&a, s, json!({"op": "flatten"})).await;
    assert_eq!(number(&st), 0);
    assert_eq!(st["node"]["to_play"], "W");
    assert_eq!(st["node"]["children"], 1);
    let saved = save(&a, s, &f).await;
    assert!(
        saved.starts_with("(;GM[1]FF[4]SZ[9]AB[ee][gg]AW[cc]PL[W]HO[1];W[gc];B[cg]C[the end])"),
        "{saved}"
    );
    let st = edit(&a, s, json!({"op": "undo"})).await;
    assert_eq!(st["node"]["move"], "G3");
    assert_eq!(save(&a, s, &f).await, GAME);
}

#[tokio::test]
async fn the_board_turned_mirrored_and_inverted_in_view_then_in_the_record() {
    let g = "(;GM[1]FF[4]SZ[9]PB[Lee]PW[Cho];B[ca];W[ee]LB[ca:A])";
    let (a, f, st) = open("view", g).await;
    let s = session(&st);
    assert_eq!(st["size"], json!([9, 9]));
    assert_eq!(st["view"], json!({"sym": 0, "invert": false}));
    let st = nav(&a, s, json!({"action": "next"})).await;
    let plain = st["board"].as_str().unwrap().to_string();
    // A quarter turn clockwise: C9 (ca) is shown on J7 (ic); the record is unchanged.
    let st = nav(&a, s, json!({"action": "next", "sym": 5})).await;
    assert_eq!(st["view"]["sym"], 5);
    assert_eq!(st["node"]["move"], "E5");
    let turned = st["board"].as_str().unwrap().to_string();
    assert_ne!(plain, turned);
    let st = nav(&a, s, json!({"action": "prev"})).await;
    assert_eq!(st["node"]["move"], "C9", "moves are named as recorded");
    assert_eq!(st["dirty"], false);
    // Back to the record as it is: the board as first drawn.
    let st = nav(&a, s, json!({"action": "first", "sym": 0})).await;
    let st2 = nav(&a, s, json!({"action": "next"})).await;
    assert_eq!(st["view"]["sym"], 0);
    assert_eq!(st2["board"].as_str().unwrap(), plain);
    // Refused: no such symmetry.
    let (code, _) = support::call(
        &a,
        "POST",
        "/api/nav",
        Some(json!({"session": s, "action": "next", "sym": 9})),
    )
    .await;
    assert_eq!(code, 400);
    let st = edit(&a, s, json!({"op": "apply_view"})).await;
    assert_eq!(st["error_kind"], "refused", "nothing to apply");
    // Mirrored and inverted, then written into the record: one undo step.
    nav(&a, s, json!({"action": "first", "sym": 1, "invert": true})).await;
    let st = edit(&a, s, json!({"op": "apply_view"})).await;
    assert_eq!(st["view"], json!({"sym": 0, "invert": false}));
    assert_eq!(
        save(&a, s, &f).await,
        "(;GM[1]FF[4]SZ[9]PB[Cho]PW[Lee];W[ga];B[ee]LB[ga:A])"
    );
    edit(&a, s, json!({"op": "undo"})).await;
    assert_eq!(save(&a, s, &f).await, g);
}

/// → follows the line visited last, as in Sabaki: where a variation was
/// taken, and again the main line once a node of it was gone to.
#[tokio::test]
async fn the_line_visited_last_is_followed() {
    let (a, _f, st) = open("lastline", GAME).await;
    let s = session(&st);
    // Into the second variation (6 B cg, 7 W gg), back to the root, and down.
    nav(&a, s, json!({"action": "node", "node": 7})).await;
    nav(&a, s, json!({"action": "first"})).await;
    let st = nav(&a, s, json!({"action": "last"})).await;
    assert_eq!(number(&st), 7);
    // One step back and forth stays in it.
    nav(&a, s, json!({"action": "prev"})).await;
    let st = nav(&a, s, json!({"action": "next"})).await;
    assert_eq!(number(&st), 7);
    // A node of the main line below the fork gone to: the main line again.
    nav(&a, s, json!({"action": "node", "node": 4})).await;
    nav(&a, s, json!({"action": "first"})).await;
    let st = nav(&a, s, json!({"action": "last"})).await;
    assert_eq!(number(&st), 5);
    // The variation again, taken at its first move.
    nav(&a, s, json!({"action": "node", "node": 3})).await;
    let st = nav(&a, s, json!({"action": "next_variation"})).await;
    assert_eq!(number(&st), 6);
    let st = nav(&a, s, json!({"action": "node", "node": 0})).await;
    assert_eq!(number(&st), 0);
    let st = nav(&a, s, json!({"action": "last"})).await;
    assert_eq!(number(&st), 7);
}
