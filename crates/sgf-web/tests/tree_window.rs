//! The tree sent a window at a time (`/api/tree`, and around the node
//! shown in a state whose tree changed): what is in the window and only
//! that, the connectors that cross it, and the layout as the page always
//! drew it (Sabaki's packing of variations in rows).

use serde_json::{Value, json};
use sgf_web::local::Local;

const SHORT: &str = "(;GM[1]SZ[9];B[aa];W[ba](;B[ca];W[da];B[ea];W[fa];B[ga];W[ha](;B[ia];W[ab];B[bb])\
                     (;B[ib];W[ac]))(;B[cb];W[db];B[eb])(;B[cc];W[dc]))";

/// A tree of `n` nodes from `seed`: each new node is a child of the one
/// before (a line goes on) or, one time in `fork`, of an earlier one.
fn random_tree(seed: u64, n: usize, fork: u64) -> String {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        x >> 33
    };
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 1..n {
        let p = if next() % fork == 0 {
            (next() as usize) % i
        } else {
            i - 1
        };
        children[p].push(i);
    }
    fn write(i: usize, children: &[Vec<usize>], out: &mut String) {
        let c = (b'a' + (i % 19) as u8) as char;
        let r = (b'a' + (i / 19 % 19) as u8) as char;
        out.push_str(&format!(";{}[{c}{r}]", if i % 2 == 1 { "B" } else { "W" }));
        match children[i].as_slice() {
            [] => {}
            [one] => write(*one, children, out),
            many => {
                for &k in many {
                    out.push('(');
                    write(k, children, out);
                    out.push(')');
                }
            }
        }
    }
    let mut s = String::from("(;GM[1]FF[4]SZ[19]");
    match children[0].as_slice() {
        [] => {}
        [one] => write(*one, &children, &mut s),
        many => {
            for &k in many {
                s.push('(');
                write(k, &children, &mut s);
                s.push(')');
            }
        }
    }
    s.push(')');
    s
}

/// The layout the viewer drew before it sent windows (every node's row,
/// and its parent's number, by number), for trees with variations.
struct Expected {
    name: &'static str,
    rows: &'static str,
    parents: &'static str,
}

const EXPECTED: &[Expected] = &[
    Expected {
        name: "short",
        rows: "0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,2,2",
        parents: "-1,0,1,2,3,4,5,6,7,8,9,10,8,12,2,14,15,2,17",
    },
    Expected {
        name: "r1",
        rows: "0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,2,2,3,3,3,3,3,3,3,3,1,1,2,2,4,4,4,4,4,4,5,5,5,5,5,3,6,\
         6,6,6,6,6,6,7,7,7,7,7,7,7,7,7,7,7,7,7,7,8,8,8,8,9,8,8,10,10,10,10,10,10,10,11,11,12,12,\
         12,12,12,13,13,13,13,13,14,14,14,14,14,14,15,15,15,15,15,16,16,16,16,16,17,17,17,17,18,\
         18,18,18,18,19,20,5,5,8",
        parents: "-1,0,1,2,3,4,5,6,7,8,9,10,11,9,13,14,15,8,17,5,19,20,21,22,23,24,25,4,2,1,29,29,31,32,33,\
         34,35,35,37,38,39,40,29,1,43,44,45,46,47,48,0,50,51,52,53,54,55,56,57,58,59,60,61,62,58,\
         64,65,66,57,53,69,52,71,72,73,74,75,76,75,78,72,80,81,82,83,81,85,86,87,88,51,90,91,92,\
         93,94,94,96,97,98,99,93,101,102,103,104,92,106,107,108,91,110,111,112,113,113,112,0,117,\
         117",
    },
    Expected {
        name: "r2",
        rows: "0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,3,4,4,3,3,4,4,4,5,6,6,7,2,\
         2,5,5,8,8,8,8,8,8,8,9,9,9,9,10,10,10,10,10,11,11,11,11,11,12,12,12,12,13,13,13,13,14,14,\
         14,14,14,14,15,15,15,15,15,15,15,15,15,15,15,15,16,16,16,16,16,16,16,16,17,17,17,18,18,\
         18,18,18,18,18,18,18,19,19,20,20,20,20,20,20,20,21,21,22,22,23,23,23,23,23,23,23,23,24,\
         24,24,25,25,25,25,25,25,25,26,26,24,24,24,26,26,26,26,26,26,26,17,17,27,27,27,27,27,27,\
         27,27,25,25,25,25,25,25,28,28,28,28,29,29,29,29,29,30,30,30,19,19,20,20,20,17,17,17,16,1,\
         1,1,3,2,2",
        parents: "-1,0,1,2,3,4,5,6,7,5,9,10,11,12,13,14,15,16,17,18,19,20,16,22,23,24,25,26,10,28,29,29,29,\
         32,5,34,4,36,37,37,37,40,37,3,43,3,45,2,47,48,49,50,51,52,47,54,55,56,55,58,59,60,61,2,\
         63,64,65,66,64,68,69,70,69,72,73,74,63,76,77,78,79,80,1,82,83,84,85,86,87,88,89,90,91,92,\
         86,94,95,96,97,98,99,100,98,102,103,96,105,106,107,108,109,110,111,112,107,114,107,116,\
         117,118,119,120,121,121,107,106,125,125,127,128,129,130,131,132,133,133,135,131,129,138,\
         139,140,141,142,143,140,145,106,147,148,96,150,151,152,153,154,155,95,157,157,159,160,\
         161,162,163,164,165,95,167,168,169,170,171,168,173,174,175,167,177,178,179,180,177,182,\
         183,94,185,86,187,188,83,190,191,83,0,194,195,195,0,198",
    },
    Expected {
        name: "r3",
        rows: "0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,\
         3,3,3,3,3,3,3,3,3,3,4,4,4,4,4,4,4,4,4,4,4,5,6,6,6,6,6,6,6,6,6,6,6,6,2,7,7,7,7,7,7,7,7,7,\
         7,7,7,7,7,7,8,8,8,8,8,8,8,9,9,9,9,9,9,10,11,11,11,11,11,11,11,11,11,11,11,11,11,11,11,11,\
         11,12,12,12,12,12,12,12,12,12,12,12,12,13,13,13,13,14,14,14,14,14,15,15,15,15",
        parents: "-1,0,1,2,3,4,5,6,6,8,9,10,10,12,13,14,15,16,17,18,19,20,21,22,23,22,25,26,27,28,29,30,31,\
         32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,15,51,52,10,54,55,56,57,58,59,60,\
         61,62,63,57,10,66,67,68,69,70,71,72,73,74,75,76,8,2,79,80,81,82,83,84,85,86,87,88,89,90,\
         91,92,79,94,95,96,97,98,99,96,101,102,103,104,105,104,2,108,109,110,111,112,113,114,115,\
         116,117,118,119,120,121,122,123,109,125,126,127,128,129,130,131,132,133,134,135,133,126,\
         138,139,139,141,142,143,144,143,146,147,148",
    },
];

fn sgf_of(name: &str) -> String {
    match name {
        "short" => SHORT.to_string(),
        "r1" => random_tree(1, 120, 4),
        "r2" => random_tree(7, 200, 3),
        "r3" => random_tree(42, 150, 6),
        _ => unreachable!(),
    }
}

fn ask(l: &mut Local, url: &str, body: Value) -> Value {
    let body = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    let r = l.request(url, &body);
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(r.status, 200, "{url}: {v}");
    v
}

/// Opens `sgf`: the local API and the record's first state.
fn open(sgf: &str) -> (Local, Value) {
    let mut l = Local::new();
    let r = l.request("/api/upload?name=t.sgf", sgf.as_bytes());
    assert_eq!(r.status, 200);
    let st: Value = serde_json::from_slice(&r.body).unwrap();
    (l, st)
}

fn tree(l: &mut Local, st: &Value, x0: usize, y0: usize, x1: usize, y1: usize) -> Value {
    let s = st["session"].as_u64().unwrap();
    ask(
        l,
        &format!("/api/tree?session={s}&x0={x0}&y0={y0}&x1={x1}&y1={y1}"),
        json!(null),
    )
}

/// `[column, row, parent's row, number]` of each node sent, by number.
fn cells(t: &Value) -> Vec<[i64; 4]> {
    let mut v: Vec<[i64; 4]> = t["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            [
                n[0].as_i64().unwrap(),
                n[1].as_i64().unwrap(),
                n[3].as_i64().unwrap(),
                n[5].as_i64().unwrap(),
            ]
        })
        .collect();
    v.sort_by_key(|c| c[3]);
    v
}

fn list(s: &str) -> Vec<i64> {
    s.split(',').map(|x| x.trim().parse().unwrap()).collect()
}

#[test]
fn the_layout_is_the_one_the_page_always_drew() {
    for e in EXPECTED {
        let (mut l, st) = open(&sgf_of(e.name));
        let rows = list(e.rows);
        let parents = list(e.parents);
        let t = tree(&mut l, &st, 0, 0, 399, 199);
        let got = cells(&t);
        assert_eq!(
            got.len(),
            rows.len(),
            "{}: every node in the window",
            e.name
        );
        let mut depth = vec![0i64; rows.len()];
        for (k, c) in got.iter().enumerate() {
            let p = parents[k];
            if p >= 0 {
                depth[k] = depth[p as usize] + 1;
            }
            let prow = if p >= 0 { rows[p as usize] } else { -1 };
            assert_eq!(
                *c,
                [depth[k], rows[k], prow, k as i64],
                "{}: node {k}",
                e.name
            );
        }
        assert_eq!(t["height"], rows.iter().max().unwrap() + 1, "{}", e.name);
        assert_eq!(t["width"], depth.iter().max().unwrap() + 1, "{}", e.name);
        assert!(t["links"].as_array().unwrap().is_empty(), "{}", e.name);
    }
}

/// Nodes outside the window are not sent; a node whose parent is outside
/// has its connector (the parent's row); a connector that only crosses
/// the window comes as a link.
#[test]
fn a_window_holds_its_nodes_and_the_connectors_that_cross_it() {
    let (mut l, st) = open(SHORT);
    // Row 1, columns 3 to 5: B[cb] W[db] B[eb], whose line starts at 3
    // below W[ba] (2, 0); B[cc] at (3, 2) hangs from the same node.
    let t = tree(&mut l, &st, 3, 1, 5, 1);
    assert_eq!(cells(&t), vec![[3, 1, 0, 14], [4, 1, 1, 15], [5, 1, 1, 16]]);
    assert_eq!(t["links"], json!([[3, 2, 0]]));
    assert_eq!(t["window"], json!([3, 1, 5, 1]));
    assert_eq!(
        (t["width"].clone(), t["height"].clone()),
        (json!(12), json!(3))
    );
    // Column 2 of row 1 is empty, but the connector down to B[cc] crosses it.
    let t = tree(&mut l, &st, 2, 1, 2, 1);
    assert!(cells(&t).is_empty());
    assert_eq!(t["links"], json!([[3, 2, 0]]));
    // Row 0 from column 8: the main line's end; the connector to B[ib]
    // (9, 1) goes down from (8, 0), in the window: as a link.
    let t = tree(&mut l, &st, 8, 0, 20, 0);
    let got = cells(&t);
    assert_eq!(
        got.iter().map(|c| c[3]).collect::<Vec<_>>(),
        (8..12).collect::<Vec<_>>()
    );
    assert_eq!(got[0], [8, 0, 0, 8]);
    assert_eq!(t["links"], json!([[9, 1, 0]]));
    // Past the tree: nothing.
    let t = tree(&mut l, &st, 30, 5, 40, 9);
    assert!(cells(&t).is_empty() && t["links"].as_array().unwrap().is_empty());
}

/// A line of thousands of moves: a state sends the tree around the node
/// shown, not the whole line; its row and column are in the state.
#[test]
fn a_long_line_is_sent_around_the_node_shown() {
    let mut sgf = String::from("(;GM[1]FF[4]SZ[19]");
    for i in 0..5000 {
        let c = (b'a' + (i % 19) as u8) as char;
        let r = (b'a' + (i / 19 % 19) as u8) as char;
        sgf.push_str(&format!(";{}[{c}{r}]", if i % 2 == 0 { "B" } else { "W" }));
    }
    sgf.push(')');
    let (mut l, st) = open(&sgf);
    let t = &st["tree"];
    assert_eq!(
        (t["width"].clone(), t["height"].clone()),
        (json!(5001), json!(1))
    );
    let got = cells(t);
    assert!(
        !got.is_empty() && got.len() <= 64,
        "{} nodes sent",
        got.len()
    );
    assert_eq!(got[0], [0, 0, -1, 0]);
    let s = st["session"].clone();
    let st = ask(
        &mut l,
        "/api/nav",
        json!({"session": s, "action": "last", "tree_version": 0}),
    );
    assert_eq!(st["node"]["number"], 5000);
    assert_eq!(
        (st["node"]["depth"].clone(), st["node"]["row"].clone()),
        (json!(5000), json!(0))
    );
    let got = cells(&st["tree"]);
    assert!(got.len() <= 64 && got.iter().any(|c| c[3] == 5000));
    assert!(got.iter().all(|c| c[0] == c[3] && c[1] == 0 && c[0] > 4900));
    // The tree unchanged: not sent again.
    let v = st["tree"]["version"].clone();
    let st = ask(
        &mut l,
        "/api/nav",
        json!({"session": s, "action": "prev", "tree_version": v}),
    );
    assert!(st.get("tree").is_none());
    // The most a window sends.
    let t = tree(&mut l, &st, 0, 0, 100_000, 100_000);
    assert_eq!(t["window"], json!([0, 0, 399, 199]));
    assert_eq!(cells(&t).len(), 400);
}

/// Every node sent is where the state says it is when the page goes to
/// it by its number: after edits that add nodes (their ids come after
/// the file's), undo and redo, and in another game of a collection.
#[test]
fn numbers_rows_and_columns_agree_after_edits() {
    let check = |l: &mut Local, st: &Value, what: &str| {
        let s = st["session"].clone();
        let t = tree(l, st, 0, 0, 399, 199);
        let got = cells(&t);
        let total: usize = got.len();
        for (k, c) in got.iter().enumerate() {
            assert_eq!(c[3], k as i64, "{what}: numbers 0..{total}");
            let st = ask(
                l,
                "/api/nav",
                json!({"session": s, "action": "node", "node": k}),
            );
            assert_eq!(st["node"]["number"], k, "{what}");
            assert_eq!(
                [
                    st["node"]["depth"].as_i64().unwrap(),
                    st["node"]["row"].as_i64().unwrap()
                ],
                [c[0], c[1]],
                "{what}: node {k}"
            );
        }
        got
    };
    let (mut l, st) = open(SHORT);
    let s = st["session"].clone();
    let before = check(&mut l, &st, "as read");
    // New variations at move 5 and after B[ib]: nodes of later ids.
    ask(
        &mut l,
        "/api/nav",
        json!({"session": s, "action": "node", "node": 5}),
    );
    let st = ask(
        &mut l,
        "/api/edit",
        json!({"session": s, "op": "play", "point": "hh"}),
    );
    // After the main line's nodes in file order; in row 1, where B[cb]'s
    // line, placed after it, no longer fits.
    assert_eq!(st["node"]["number"], 14);
    assert_eq!(
        (st["node"]["depth"].clone(), st["node"]["row"].clone()),
        (json!(6), json!(1))
    );
    assert_eq!(cells(&tree(&mut l, &st, 3, 2, 3, 2)), vec![[3, 2, 0, 15]]);
    ask(
        &mut l,
        "/api/nav",
        json!({"session": s, "action": "node", "node": 12}),
    );
    ask(
        &mut l,
        "/api/edit",
        json!({"session": s, "op": "play", "point": "gg"}),
    );
    let after = check(&mut l, &st, "edited");
    assert_eq!(after.len(), before.len() + 2);
    let st = ask(&mut l, "/api/edit", json!({"session": s, "op": "undo"}));
    ask(&mut l, "/api/edit", json!({"session": s, "op": "undo"}));
    assert_eq!(check(&mut l, &st, "undone"), before);
    ask(&mut l, "/api/edit", json!({"session": s, "op": "redo"}));
    ask(&mut l, "/api/edit", json!({"session": s, "op": "redo"}));
    assert_eq!(check(&mut l, &st, "redone"), after);
    // The second game of a collection: its own numbers from 0.
    let (mut l, st) = open("(;GM[1]SZ[9];B[aa];W[bb])(;GM[1]SZ[9];B[cc](;W[dd])(;W[ee];B[ff]))");
    let s = st["session"].clone();
    let st = ask(
        &mut l,
        "/api/nav",
        json!({"session": s, "action": "game", "game": 1}),
    );
    let got = check(&mut l, &st, "game 2");
    assert_eq!(
        got,
        vec![
            [0, 0, -1, 0],
            [1, 0, 0, 1],
            [2, 0, 0, 2],
            [2, 1, 0, 3],
            [3, 1, 1, 4]
        ]
    );
}

/// Any rectangle is answered: reversed, past the tree, past what a
/// column number holds; a query without its rectangle is refused.
#[test]
fn odd_windows_are_answered_and_bad_queries_refused() {
    let (mut l, st) = open(SHORT);
    let t = tree(&mut l, &st, 5, 2, 1, 0);
    assert!(cells(&t).is_empty() && t["links"].as_array().unwrap().is_empty());
    let big = u64::MAX as usize;
    let t = tree(&mut l, &st, big - 3, big - 3, big, big);
    assert!(cells(&t).is_empty() && t["links"].as_array().unwrap().is_empty());
    let t = tree(&mut l, &st, (1usize << 32) + 3, 0, (1usize << 32) + 9, 3);
    assert!(cells(&t).is_empty(), "{t}");
    let s = st["session"].as_u64().unwrap();
    for q in [
        format!("/api/tree?session={s}&x0=0&y0=0&x1=5"),
        format!("/api/tree?session={s}&x0=-1&y0=0&x1=5&y1=5"),
        "/api/tree?session=999&x0=0&y0=0&x1=5&y1=5".to_string(),
    ] {
        let r = l.request(&q, b"");
        assert_ne!(r.status, 200, "{q}");
    }
}
