//! Hostile inputs of any size, for the tests that check that reading,
//! checking, repairing and writing cost work linear in the input (each
//! crate counts the steps of its own scans and walks with
//! `sgf_core::work`; nothing is timed). Shared by the crates' tests with
//! `#[path]`, as `corpus.rs` is; `testdata/hostile/` holds small copies
//! of the same shapes as fixtures (and fuzzing seeds).

#![allow(dead_code, unused_macros)]

/// `$m!(name, …)` with the name of every shape of [`shapes`], for tests
/// that make one test function a shape (`every_shape_is_tested` in each
/// keeps the two lists the same).
macro_rules! each_shape {
    ($m:ident) => {
        $m!(
            after_variations,
            backslash,
            big_root_info_nodes,
            binary,
            comment,
            dbcs_games,
            empty_variations,
            garbage_trees,
            info_nodes,
            info_values,
            junk_parens,
            junk_parens_nodes,
            labels,
            lbracket,
            lines,
            lowercase_games,
            lparen,
            lparen_after_text,
            lparen_in_tree,
            lparen_ws,
            markup_rectangles,
            mixed_charsets,
            mixed_deep,
            moves,
            nested,
            nested_closed,
            nested_paren_semi,
            open_semi,
            props_duplicate,
            props_lowercase,
            props_unknown,
            rbracket,
            rectangle_nodes,
            rectangles,
            root_props_deep,
            rparen,
            semi,
            semi_props,
            semis_stray_text,
            siblings,
            stray_rbrackets,
            stray_rbrackets_text,
            tiny_games,
            unterminated,
            values,
        );
    };
}

/// `head`, `n` times `unit`, `tail`.
fn rep(head: &[u8], unit: &[u8], n: usize, tail: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(head.len() + unit.len() * n + tail.len());
    v.extend_from_slice(head);
    for _ in 0..n {
        v.extend_from_slice(unit);
    }
    v.extend_from_slice(tail);
    v
}

/// Bytes from a fixed seed (a linear congruential generator: the same
/// bytes on every machine).
pub fn noise(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 16) as u8
        })
        .collect()
}

/// A point of a 19×19 board from a number.
fn point(i: usize) -> [u8; 2] {
    [b'a' + (i % 19) as u8, b'a' + (i / 19 % 19) as u8]
}

/// Every hostile shape with `n` repetitions of its unit (the input grows
/// linearly with `n`): (name, bytes).
pub fn shapes(n: usize) -> Vec<(&'static str, Vec<u8>)> {
    let mut out: Vec<(&'static str, Vec<u8>)> = vec![
        // Runs of one structure character.
        ("lparen", rep(b"", b"(", n, b"")),
        ("lparen_ws", rep(b"", b"( ", n, b"")),
        ("rparen", rep(b"", b")", n, b"")),
        ("semi", rep(b"", b";", n, b"")),
        ("lbracket", rep(b"", b"[", n, b"")),
        ("rbracket", rep(b"", b"]", n, b"")),
        ("backslash", rep(b"", b"\\", n, b"")),
        ("lparen_after_text", rep(b"x", b"(", n, b"")),
        ("lparen_in_tree", rep(b"(;B[aa]", b"(", n, b"")),
        // `(` that open no tree in a tree, closed again: junk frames.
        ("junk_parens", {
            let mut v = rep(b"(;B[aa]", b"(", n, b"");
            v.extend(std::iter::repeat_n(b')', n + 1));
            v
        }),
        ("junk_parens_nodes", {
            let mut v = rep(b"(;B[aa]", b"(", n, b"");
            v.extend(rep(b"", b";W[bb]", n, b""));
            v.extend(std::iter::repeat_n(b')', n + 1));
            v
        }),
        ("open_semi", rep(b"", b"(;", n, b"")),
        ("nested_paren_semi", rep(b"", b"((;", n, b"")),
        ("tiny_games", rep(b"", b"(;)", n, b"")),
        ("semi_props", rep(b"", b";GM[1]", n, b"")),
        // Trees.
        ("nested", rep(b"", b"(;B[aa]C[x](;W[bb]", n, b"")),
        ("nested_closed", {
            let mut v = rep(b"", b"(;B[aa]C[x]", n, b"");
            v.extend(std::iter::repeat_n(b')', n));
            v
        }),
        ("siblings", rep(b"(;GM[1]", b"(;B[aa]C[x])", n, b")")),
        (
            "after_variations",
            rep(b"(;GM[1]", b"(;B[aa]);W[bb]", n, b")"),
        ),
        ("moves", {
            let mut v = b"(;GM[1]SZ[19]".to_vec();
            for i in 0..n {
                let p = point(i * 7 + i / 361);
                v.extend_from_slice(if i % 2 == 0 { b";B[" } else { b";W[" });
                v.extend_from_slice(&p);
                v.push(b']');
            }
            v.push(b')');
            v
        }),
        // Properties and values.
        ("props_unknown", {
            let mut v = b"(;".to_vec();
            for i in 0..n {
                v.push(b'X');
                for j in 0..4 {
                    v.push(b'A' + (i / 26usize.pow(j) % 26) as u8);
                }
                v.extend_from_slice(b"[1]");
            }
            v.push(b')');
            v
        }),
        (
            "props_duplicate",
            rep(b"(;XA[1]XB[1]XC[1]", b"AB[aa]XC[2]", n, b")"),
        ),
        ("props_lowercase", rep(b"(;FF[4]", b"aB[aa]", n, b")")),
        ("lowercase_games", rep(b"", b"(;FF[3]aB[aa])", n, b"")),
        ("values", rep(b"(;SZ[19]AB", b"[aa]", n, b")")),
        ("labels", rep(b"(;LB", b"[aa:x]", n, b")")),
        ("lines", rep(b"(;AR", b"[aa:bb]", n, b")")),
        ("rectangles", rep(b"(;SZ[52]AB", b"[aa:ZZ]", n, b")")),
        ("rectangle_nodes", rep(b"(;SZ[52]", b";AB[aa:ZZ]", n, b")")),
        ("markup_rectangles", rep(b"(;SZ[52]TR", b"[aa:ZZ]", n, b")")),
        ("comment", rep(b"(;C[", b"x", n, b"])")),
        ("info_values", rep(b"(;DT", b"[2018.04.27]", n, b")")),
        ("root_props_deep", {
            let mut v = b"(;GM[1]".to_vec();
            for i in 0..n {
                v.extend_from_slice(format!("(;AP[x{i}:1]B[aa]").as_bytes());
            }
            v
        }),
        (
            "info_nodes",
            rep(b"(;GM[1]", b";DT[2018.04.27]KM[375]RE[black wins]", n, b")"),
        ),
        ("big_root_info_nodes", {
            let mut v = rep(b"(;PB[x]", b"XX[1]", n, b"");
            v.extend(rep(b"", b";PW[y]", n, b")"));
            v
        }),
        // Damage.
        ("semis_stray_text", rep(b"(;", b";stray text ", n, b")")),
        ("unterminated", rep(b"", b"(;C[abc\n", n, b"")),
        ("stray_rbrackets", rep(b"(;B[aa]", b"] ", n, b")")),
        ("stray_rbrackets_text", rep(b"(;", b"C[x]a", n, b")")),
        ("empty_variations", rep(b"(;B[aa]", b"()", n, b")")),
        ("binary", noise(n * 4, 1)),
        ("garbage_trees", {
            let mut v = noise(n * 64, 2);
            let len = v.len();
            for i in 0..n {
                let at = (i * 64 + 17) % (len - 1);
                v[at] = b'(';
                v[at + 1] = b';';
            }
            v
        }),
        // Charsets.
        (
            "dbcs_games",
            rep(b"", b"(;CA[Shift_JIS]C[\x83]\x83]];B[aa])\n", n, b""),
        ),
        (
            "mixed_charsets",
            rep(b"", b"(;CA[GBK]C[\xba\xda])(;CA[UTF-8]C[\xc3\xa9])", n, b""),
        ),
        ("mixed_deep", {
            let mut v = b"(;CA[GBK]C[\xba\xda])(;CA[UTF-8]".to_vec();
            v.extend(rep(b"", b"(;C[\xc3\xa9]B[aa]", n, b""));
            v
        }),
    ];
    out.sort_by_key(|s| s.0);
    out
}

/// The shape `name` with `n` repetitions of its unit.
///
/// # Panics
/// When there is no such shape.
pub fn shape(name: &str, n: usize) -> Vec<u8> {
    shapes(n)
        .into_iter()
        .find(|s| s.0 == name)
        .unwrap_or_else(|| panic!("no hostile shape `{name}`"))
        .1
}

/// One test a shape, each calling the including file's `check(name)`, and
/// a test that no shape is without one: `each_shape!(linear_tests);`.
macro_rules! linear_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*
        /// Every shape has its test.
        #[test]
        fn every_shape_is_tested() {
            let tested = [$(stringify!($name)),*];
            for (name, _) in hostile::shapes(1) {
                assert!(tested.contains(&name), "no linearity test for `{name}`");
            }
        }
    };
}

/// The linearity test of shape `name`: `steps` (the work counted for an
/// input) on the shape at two sizes, compared by [`linear`].
pub fn check_linear(name: &str, per_byte: u64, steps: impl Fn(&[u8]) -> u64) {
    let (small, large) = (shape(name, 1000), shape(name, 4000));
    let r = linear(
        name,
        (steps(&small), small.len()),
        (steps(&large), large.len()),
        per_byte,
    );
    if let Err(e) = r {
        panic!("{e}");
    }
}

/// What a linearity test compares: the work counted for an input `small`
/// and for one four times larger, `large`, of `small_len` and
/// `large_len` bytes. Four times the input may cost four times the work,
/// and a little more (work that does not grow), but not the sixteen times
/// a quadratic path takes; and no more than `per_byte` steps a byte.
pub fn linear(
    name: &str,
    (small, small_len): (u64, usize),
    (large, large_len): (u64, usize),
    per_byte: u64,
) -> Result<(), String> {
    let slack = 4096;
    if large > 5 * small + slack {
        return Err(format!(
            "{name}: {small} steps for {small_len} bytes, {large} for {large_len}: not linear"
        ));
    }
    for (w, len) in [(small, small_len), (large, large_len)] {
        if w > per_byte * len as u64 + slack {
            return Err(format!(
                "{name}: {w} steps for {len} bytes, more than {per_byte} a byte"
            ));
        }
    }
    Ok(())
}
