//! Diagnostics: every problem found in a file, with a stable code, a
//! severity, a message and a byte span.
//!
//! The codes are listed once, in the `codes!` table below; `docs/diagnostics.md`
//! is generated from it (a test fails when the two drift apart).

use std::fmt;

/// How serious a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Information: legal but noteworthy (legacy constructs, guessed charsets).
    Info,
    /// Something is wrong but the meaning is clear.
    Warning,
    /// The file breaks a rule of the specification.
    Error,
}

impl Severity {
    /// Lower-case name, as used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A byte range in the input (`start..end`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }
    /// An empty span at `pos`.
    pub fn at(pos: u32) -> Span {
        Span {
            start: pos,
            end: pos,
        }
    }
    /// The span as a `usize` range.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

macro_rules! codes {
    ($( #[doc = $doc:literal] $variant:ident = ($code:literal, $name:literal, $sev:ident, $layer:literal, $example:literal, $repair:literal); )*) => {
        /// A stable diagnostic code.
        ///
        /// Codes never change meaning once published; new ones are added at
        /// the end of their group.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $( #[doc = $doc] $variant, )*
        }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The short stable code, e.g. `S005`.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }
            /// The kebab-case name, e.g. `unclosed-value`.
            pub fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }
            /// The severity used unless a caller overrides it.
            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }
            /// The layer that reports it: syntax, charset, ff4, value, go, format.
            pub fn layer(self) -> &'static str {
                match self { $( Code::$variant => $layer, )* }
            }
            /// A small example input that triggers it.
            pub fn example(self) -> &'static str {
                match self { $( Code::$variant => $example, )* }
            }
            /// What a reader or `qipu check --fix` does about it.
            pub fn repair(self) -> &'static str {
                match self { $( Code::$variant => $repair, )* }
            }
            /// One-line description (the doc comment of the variant).
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $doc.trim_start(), )* }
            }
            /// Looks a code up by its code (`S005`) or name (`unclosed-value`).
            pub fn parse(s: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(s) || c.name() == s)
            }
        }
    };
}

codes! {
    // ---- syntax: the grammar of collections, trees, nodes and properties ----
    /// The input is empty or holds only white space.
    EmptyInput = ("S001", "empty-input", Error, "syntax", "", "an empty collection is read");
    /// No game tree (`(;`) was found anywhere in the input.
    NoGameTree = ("S002", "no-game-tree", Error, "syntax", "hello world", "an empty collection is read");
    /// Text before the first game tree; the specification reserves it and readers ignore it.
    TextBeforeTree = ("S003", "text-before-tree", Info, "syntax", "Game 1: (;GM[1])", "kept where it stands by the lossless writer, fmt and check --fix (in GC when there it would read as SGF)");
    /// Characters outside values that are not part of the grammar.
    StrayCharacters = ("S004", "stray-characters", Error, "syntax", "(;B[aa] -- W[bb])", "skipped; kept by the lossless writer");
    /// A value opened with `[` is not closed before the end of the input.
    UnclosedValue = ("S005", "unclosed-value", Error, "syntax", "(;C[no end", "the value runs to the end of the input; fmt closes it");
    /// A game tree opened with `(` is not closed before the end of the input.
    UnclosedTree = ("S006", "unclosed-tree", Error, "syntax", "(;B[aa]", "the tree is closed at the end of the input");
    /// A `)` that closes nothing.
    UnmatchedParen = ("S007", "unmatched-paren", Error, "syntax", "(;B[aa]))", "skipped");
    /// Properties follow `(` without the `;` that starts a node.
    MissingSemicolon = ("S008", "missing-semicolon", Error, "syntax", "(FF[4]GM[1];B[aa])", "a `;` is assumed");
    /// A node stands outside any game tree (no opening `(`).
    MissingParen = ("S009", "missing-paren", Error, "syntax", ";FF[4]GM[1];B[aa]", "a `(` is assumed");
    /// An empty variation `()`.
    EmptyVariation = ("S010", "empty-variation", Error, "syntax", "(;B[aa]())", "ignored");
    /// A variation opened twice, `((;`.
    NestedParen = ("S011", "nested-paren", Error, "syntax", "(;B[aa]((;W[bb])))", "the extra parentheses are ignored");
    /// A property identifier without any value.
    PropertyWithoutValue = ("S012", "property-without-value", Error, "syntax", "(;PL B[aa])", "the identifier is ignored");
    /// A value without a property identifier in front of it.
    ValueWithoutProperty = ("S013", "value-without-property", Error, "syntax", "(;B[aa][bb]C[x];[cc])", "the value is ignored");
    /// Nodes follow the variations of a node (Go Assistant style): read as one more variation.
    NodeAfterVariations = ("S014", "node-after-variations", Warning, "syntax", "(;B[aa](;W[bb])(;W[cc]);W[dd])", "read as another variation; fmt writes it as the main line");
    /// Lower-case letters in a property identifier (FF\[3\] style); they are ignored.
    LowercaseIdentifier = ("S015", "lowercase-identifier", Warning, "syntax", "(;AddBlack[aa])", "the lower-case letters are dropped (`AB`)");
    /// A property identifier longer than 100 characters.
    IdentifierTooLong = ("S016", "identifier-too-long", Warning, "syntax", "(;AAAA…A[x])", "kept as an unknown property");
    /// NUL bytes in the input.
    NulByte = ("S017", "nul-byte", Warning, "syntax", "(;C[a\\0b])", "kept in values; skipped between tokens");
    /// The same property appears more than once in a node.
    DuplicateProperty = ("S018", "duplicate-property", Error, "syntax", "(;AB[aa]AB[bb])", "merged into the first occurrence (values in order)");
    /// Too many problems; the rest of this kind are not reported.
    TooManyDiagnostics = ("S019", "too-many-diagnostics", Info, "syntax", "binary data", "none");
    /// Text after the last game tree, or between two.
    TextAfterTrees = ("S020", "text-after-trees", Warning, "syntax", "(;GM[1]) trailing words", "kept where it stands by the lossless writer, fmt and check --fix (in GC when there it would read as SGF)");
    /// A parsing limit (size, nodes or depth) was reached; the rest of the input is not read.
    LimitReached = ("S021", "limit-reached", Error, "syntax", "a file larger than max_bytes", "the tree read so far is kept");
    /// A game tree without any node, `(` followed directly by a variation.
    TreeWithoutNode = ("S022", "tree-without-node", Error, "syntax", "((;B[aa]))", "the extra parenthesis is ignored");
    /// What looks like SGF data (`B[aa]`, `[aa][bb]`) in the text before the first game tree: a game may have lost its start.
    DataBeforeTree = ("S023", "data-before-tree", Warning, "syntax", "[aa][bb] (;GM[1])", "kept where it stands by the lossless writer, fmt and check --fix (in GC when there it would read as SGF)");

    // ---- charset ----
    /// No `CA` property: the charset was detected from the bytes.
    CharsetDetected = ("C001", "charset-detected", Info, "charset", "(;PB[黑])  (no CA)", "the detected charset is used; fmt writes CA[UTF-8]");
    /// `CA` names a charset that the bytes contradict; the bytes win.
    CharsetMismatch = ("C002", "charset-mismatch", Warning, "charset", "(;CA[UTF-8]PB[\\xba\\xda])", "the charset the bytes are in is used");
    /// `CA` names a charset that is not known.
    UnknownCharset = ("C003", "unknown-charset", Warning, "charset", "(;CA[Klingon])", "the charset is detected from the bytes");
    /// Byte sequences that are invalid in the charset; they become U+FFFD.
    InvalidBytes = ("C004", "invalid-bytes", Warning, "charset", "(;CA[UTF-8]C[\\xff])", "replaced by U+FFFD in decoded text; raw bytes kept by the lossless writer");
    /// The file is UTF-16 or UTF-32; it was transcoded before parsing.
    Utf16 = ("C005", "utf16", Info, "charset", "UTF-16LE with BOM", "read as UTF-16 or UTF-32; fmt writes UTF-8");
    /// Double-byte characters whose second byte is `\\` or `]` (or ISO-2022-JP text holding them) were written without escapes.
    UnescapedTrailBytes = ("C006", "unescaped-trail-bytes", Warning, "charset", "Shift_JIS `C[ソ]` (0x83 0x5C)", "values are read charset-aware; fmt escapes correctly");
    /// Games of one file declare different charsets.
    MixedCharsets = ("C007", "mixed-charsets", Info, "charset", "(;CA[UTF-8])(;CA[GB2312])", "each game is read in its own charset");
    /// A `CA` property outside a root node, or several values.
    MisplacedCharset = ("C008", "misplaced-charset", Warning, "charset", "(;GM[1];CA[UTF-8])", "ignored for decoding");
    /// `CA` names a charset that cannot be decoded (`ISO-2022-KR`, `HZ-GB-2312`, `ISO-2022-CN`); an error when the text uses its shifts (ESC, SO, SI; `~{` in HZ).
    UndecodableCharset = ("C009", "undecodable-charset", Warning, "charset", "(;CA[ISO-2022-KR]PB[Lee Sedol])", "without the charset's shifts the text is read by detection (ASCII, UTF-8…); with them its bytes are kept as they are and fmt, convert and check --fix refuse to write the file");

    // ---- ff4: placement of properties, the rules of SGF FF[4] ----
    /// A root property (`FF`, `GM`, `SZ`, `CA`, `ST`, `AP`) outside the root node.
    RootPropertyOutsideRoot = ("F001", "root-property-outside-root", Error, "ff4", "(;GM[1];SZ[9])", "deleted (a value the root does not hold is kept in GC)");
    /// Game-info properties in more than one node on a path.
    SecondGameInfo = ("F002", "second-game-info", Error, "ff4", "(;PB[a];B[aa]PW[b])", "moved to the first game-info node when free, otherwise kept in GC");
    /// Move and setup properties in one node.
    MoveSetupMixed = ("F003", "move-setup-mixed", Error, "ff4", "(;AB[aa]B[bb])", "the node is split: setup (and N) first, the move after");
    /// `B` and `W` in one node.
    BlackAndWhite = ("F004", "black-and-white", Error, "ff4", "(;B[aa]W[bb])", "the node is split in two");
    /// `KO` or a move annotation (`BM`, `DO`, `IT`, `TE`) in a node without a move.
    AnnotationWithoutMove = ("F005", "annotation-without-move", Error, "ff4", "(;C[x]TE[1])", "deleted (a value that says more, `KO[6.5]`, `TE[great]`, kept in GC)");
    /// More than one of `BM`, `DO`, `IT`, `TE` in a node.
    ExclusiveMoveAnnotations = ("F006", "exclusive-move-annotations", Error, "ff4", "(;B[aa]BM[1]TE[1])", "TE+BM becomes IT (BM+TE with DO: DO); otherwise the later ones are deleted (words in their values kept in GC)");
    /// More than one of `DM`, `GB`, `GW`, `UC` in a node.
    ExclusivePositionAnnotations = ("F007", "exclusive-position-annotations", Error, "ff4", "(;GB[1]GW[1])", "the later ones are deleted");
    /// A property that no version of SGF defines.
    UnknownProperty = ("F008", "unknown-property", Info, "ff4", "(;XY[1])", "kept unchanged");
    /// A single-value property with several values.
    TooManyValues = ("F009", "too-many-values", Error, "ff4", "(;PB[a][b])", "the extra values are joined into the first (text) or deleted (game information and words kept in GC)");
    /// An empty value where the property needs one.
    EmptyValue = ("F010", "empty-value", Warning, "ff4", "(;PB[])", "deleted");
    /// An FF\[1\]–FF\[3\] property; its FF\[4\] equivalent is named.
    LegacyProperty = ("F011", "legacy-property", Info, "ff4", "(;L[aa][bb])", "converted (L→LB, M→MA, KI→KM, …) or kept");
    /// A move in the root node (bad style).
    MoveInRoot = ("F012", "move-in-root", Warning, "ff4", "(;GM[1]B[aa])", "the move is moved to a new child node");
    /// A known private (application-specific) property.
    PrivateProperty = ("F013", "private-property", Info, "ff4", "(;MULTIGOGM[1])", "kept unchanged");
    /// A property of another game (not Go).
    OtherGameProperty = ("F014", "other-game-property", Info, "ff4", "(;IY[true])", "kept unchanged");
    /// The game is not Go (`GM` other than 1): moves and points are not checked.
    NotGo = ("F015", "not-go", Warning, "ff4", "(;GM[2])", "none");
    /// Different `FF` versions in one file.
    MixedVersions = ("F016", "mixed-versions", Info, "ff4", "(;FF[3])(;FF[4])", "none; fmt writes FF[4]");
    /// An empty node (no properties) that is not needed for the tree structure.
    EmptyNode = ("F017", "empty-node", Info, "ff4", "(;GM[1];;B[aa])", "kept");
    /// A collection: more than one game tree in the file (legal; some programs read only the first).
    SeveralGames = ("F018", "several-games", Info, "ff4", "(;GM[1])(;GM[1])", "kept; `qipu convert -d DIR --split` writes one file per game");
    /// Games of one file declare different game types (`GM`).
    MixedGameTypes = ("F019", "mixed-game-types", Info, "ff4", "(;GM[1])(;GM[2])", "none; each game is read as its own type");

    // ---- value: each value against its type ----
    /// A value that is not a valid Number.
    InvalidNumber = ("V001", "invalid-number", Error, "value", "(;HA[two])", "corrected when the whole value is one number (`２`, `3.0`, `2 stones`); otherwise left as it is (never a prefix: `1 kk` is not 1)");
    /// A value that is not a valid Real.
    InvalidReal = ("V002", "invalid-real", Error, "value", "(;KM[6,5])", "corrected when the whole value is one number (`6,5`→`6.5`, `6.5目`→`6.5`, `BL[0:07:42]`→`462`); otherwise left as it is");
    /// A value that is not a valid Double (`1` or `2`).
    InvalidDouble = ("V003", "invalid-double", Error, "value", "(;GB[3])", "corrected when it says 1 or 2 (`２`) or is empty (1); otherwise left as it is");
    /// A value that is not a valid Color (`B` or `W`).
    InvalidColor = ("V004", "invalid-color", Error, "value", "(;PL[X])", "corrected from `b`/`w`/`1`/`2`/`black`/`white`/`黑`/`白`, otherwise left as it is");
    /// A value that is not a valid point, move or stone.
    InvalidPoint = ("V005", "invalid-point", Error, "value", "(;B[a])", "`B[a a]`→`B[aa]` when possible, otherwise deleted");
    /// A composed value (`a:b`) was expected.
    ComposedExpected = ("V006", "composed-expected", Error, "value", "(;LB[aa])", "deleted");
    /// A composed value where the property takes a simple one.
    NotComposed = ("V007", "not-composed", Error, "value", "(;B[aa:bb])", "deleted");
    /// `SZ[n:n]`: a square board written as a rectangle.
    SquareSizeComposed = ("V008", "square-size-composed", Error, "value", "(;SZ[19:19])", "written as `SZ[19]`");
    /// A root value out of its range (`FF` 1–4, `GM` 1–20, `ST` 0–3, `SZ` 1–52 for Go).
    OutOfRange = ("V009", "out-of-range", Error, "value", "(;SZ[60])", "left as it is (another size would be another game); `ST` outside 0–3 deleted");
    /// `DT` not in the ISO format `YYYY-MM-DD` with its shortcuts.
    BadDate = ("V010", "bad-date", Error, "value", "(;DT[2024/1/5])", "corrected when the date is unambiguous (`2024-01-05`); otherwise kept and reported");
    /// `RE` not in the FF\[4\] format (`B+3.5`, `W+R`, `0`, `Draw`, `Void`, `?`).
    BadResult = ("V011", "bad-result", Error, "value", "(;RE[Black wins])", "corrected when unambiguous (`B+`), the wording kept in GC; otherwise left as it is");
    /// A point listed twice in `AB`/`AW`/`AE` of one node, or in the markup `CR`/`MA`/`SL`/`SQ`/`TR`.
    DuplicatePoint = ("V012", "duplicate-point", Error, "value", "(;AB[aa][aa])", "the later occurrence is deleted");
    /// An `AR` or `LN` given twice, or from a point to itself.
    BadLine = ("V013", "bad-line", Error, "value", "(;AR[aa:aa])", "deleted");
    /// `LB` twice on the same point.
    DuplicateLabel = ("V014", "duplicate-label", Error, "value", "(;LB[aa:1][aa:2])", "the later label is deleted; its text kept in GC");
    /// A compressed point rectangle that overlaps another point of the list.
    OverlappingRectangle = ("V015", "overlapping-rectangle", Error, "value", "(;AB[aa:cc][bb])", "the duplicate points are removed");
    /// A compressed point rectangle whose corners are not upper-left and lower-right.
    ReversedRectangle = ("V016", "reversed-rectangle", Error, "value", "(;AB[cc:aa])", "the corners are swapped");
    /// A point outside the board.
    PointOutsideBoard = ("V017", "point-outside-board", Error, "value", "(;SZ[9]B[kk])", "deleted");
    /// A pass written `[tt]` (FF\[3\] style) on a board up to 19×19.
    PassAsTt = ("V018", "pass-as-tt", Info, "value", "(;B[tt])", "written as `B[]`");
    /// An upper-case coordinate on a board of 26 lines or less.
    UppercaseCoordinate = ("V019", "uppercase-coordinate", Warning, "value", "(;B[DD])", "read as the lower-case letter");
    /// A `KM` or `TM` that is not a plain real number.
    BadKomi = ("V020", "bad-komi", Warning, "value", "(;KM[375])", "kept; scaled komi from Fox is noted");
    /// A compressed point list in a file older than FF\[4\], or a rectangular board before FF\[4\].
    FeatureNotInVersion = ("V021", "feature-not-in-version", Warning, "value", "(;FF[3]AB[aa:cc])", "read anyway");
    /// A pass `[]` in a file older than FF\[4\].
    EmptyPassBeforeFf4 = ("V022", "empty-pass-before-ff4", Info, "value", "(;FF[3]B[])", "kept; the output is FF[4]");
    /// Text that only white space or escapes make different from its canonical form.
    UselessEscape = ("V023", "useless-escape", Info, "value", "(;C[\\a])", "written without the escape");
    /// A value given to a property that takes none (`KO`, `DO`, `IT`).
    ValueForNone = ("V024", "value-for-none", Error, "value", "(;B[aa]KO[x])", "the value is emptied; its wording kept in GC");
    /// A value that is not a valid real number or time in seconds (`TM`, `KM`), correctable from its wording.
    BadTime = ("V025", "bad-time", Error, "value", "(;TM[1 hour])", "converted to seconds (`3600`, `1:30:00`) when the whole value is one duration; otherwise left as it is");
    /// `VW` in an FF\[1\]–FF\[3\] file with two points: the corners of the view, not two points of it.
    OldView = ("V026", "old-view", Warning, "value", "(;FF[3]VW[ba][db])", "converted to the rectangle `VW[ba:db]`");
    /// White space inside a value whose type has none (a point, a number, a colour, a date): readers differ on it.
    ValueWhitespace = ("V027", "value-whitespace", Warning, "value", "(;PL[ W];B[ aa])", "the white space removed");
    /// `HA` below 2: a handicap game has at least two stones (`HA[1]`, `HA[0]`, `HA[-3]`).
    BadHandicap = ("V028", "bad-handicap", Error, "value", "(;HA[1])", "deleted; its wording kept in GC");
    /// A board without a point: `SZ[0]`, `SZ[-1]`, `SZ[19:0]`, in any game.
    BadBoardSize = ("V029", "bad-board-size", Error, "value", "(;GM[2]SZ[0])", "deleted (the game's default size applies); its wording kept in GC");

    // ---- go: playing the moves ----
    /// A move on a point that already holds a stone.
    OccupiedPoint = ("G001", "occupied-point", Warning, "go", "(;B[aa];W[aa])", "the move is executed as the spec requires");
    /// A suicide: the played stones are removed.
    Suicide = ("G002", "suicide", Warning, "go", "(;AB[ba][ab];W[aa])", "executed: the group is removed");
    /// An immediate ko recapture.
    KoRetake = ("G003", "ko-retake", Warning, "go", "…;B[ba];W[ca]…", "executed as the spec requires");
    /// `AB`/`AW`/`AE` that does not change the board.
    SetupNoEffect = ("G004", "setup-no-effect", Warning, "go", "(;AB[aa];AB[aa])", "the value is deleted");
    /// `HA` differs from the number of black setup stones in the root.
    HandicapMismatch = ("G005", "handicap-mismatch", Warning, "go", "(;HA[3]AB[dd][pp])", "none");
    /// Two moves of the same colour in a row.
    SameColorTwice = ("G006", "same-color-twice", Info, "go", "(;B[aa];B[bb])", "none");
    /// `B[ss]`-style pass on an 18×18 board written by some tools, or `[tt]` on a board larger than 19.
    AmbiguousPass = ("G007", "ambiguous-pass", Warning, "go", "(;SZ[18];B[ss])", "reported, not guessed: read as a point");
    /// A variation that starts with a move of the colour that just moved: most likely an alternative to that move, written one level too deep.
    VariationLevel = ("G008", "variation-level", Info, "go", "(;B[aa](;W[bb])(;B[cc]))", "with `check --fix --variation-level`: moved up to be an alternative to the move before it");
    /// Setup stones (`AB`, `AW`, `AE`) in a main-line node after the root (legal; what SGFC's `-r` reports).
    SetupInMainLine = ("G009", "setup-in-main-line", Info, "go", "(;GM[1];B[aa];AB[bb])", "none");
    /// Every variation after a move's continuation first undoes that move with `AE` of its stone and then plays: alternatives to the move written one level too deep (SGFC's `W_VARLEVEL_CORRECTED` with `-v`).
    VariationLevelUndo = ("G010", "variation-level-undo", Info, "go", "(;B[dd];W[aa](;B[bb])(;AE[aa];W[ba]))", "with `check --fix --variation-level`: moved up beside the move, the `AE` dropped");
    /// Some variations after a move undo it with `AE` of its stone and others do not: whether they are one level too deep cannot be told (SGFC's `W_VARLEVEL_UNCERTAIN`).
    VariationLevelUncertain = ("G011", "variation-level-uncertain", Info, "go", "(;B[dd];W[aa](;B[bb])(;AE[aa];W[ba])(;AE[aa][dd]))", "none: reported with the variations it concerns, left as they are");

    // ---- format: other record formats and SGF dialects ----
    /// A record in another format was converted to SGF.
    FormatConverted = ("R001", "format-converted", Info, "format", "a GIB file", "converted to SGF");
    /// A line or field of a foreign record format could not be read.
    FormatUnreadable = ("R002", "format-unreadable", Warning, "format", "GIB `STO 0 x`", "skipped");
    /// An SGF dialect of a known application was recognised.
    DialectDetected = ("R003", "dialect-detected", Info, "format", "(TE[..]RD[..]KO[..];B[pd])", "normalised by fmt and check --fix");
    /// A field of a foreign format has no SGF equivalent and is kept in a comment or private property.
    FieldKept = ("R004", "field-kept", Info, "format", "GIB GAMECONDITION", "kept in GC or a private property");
    /// Handicap stones the record does not list were placed by a named convention.
    HandicapPlaced = ("R005", "handicap-placed", Info, "format", "GIB `INI 0 1 3 &4`", "`HA` and `AB` written; the convention (Tygem: third stone top-left) is named");
    /// A construct of an SGF dialect was rewritten in FF\[4\] form; the original value is kept.
    DialectNormalised = ("R006", "dialect-normalised", Info, "format", "(;KO[黒6目半])", "rewritten (`KM[6.5]`); the original wording kept in `GC` (`KO as written: 黒6目半`)");
}

/// Another place a diagnostic refers to (e.g. the first occurrence of a duplicate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// Where.
    pub span: Span,
    /// What it is.
    pub label: String,
}

/// One problem found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code.
    pub code: Code,
    /// Severity.
    pub severity: Severity,
    /// Human message.
    pub message: String,
    /// Byte span in the input.
    pub span: Span,
    /// Other relevant places.
    pub related: Vec<Related>,
    /// What a repair does, if anything.
    pub fix: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            span,
            related: Vec::new(),
            fix: None,
        }
    }
    /// Sets the severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
    /// Adds a related span.
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related.push(Related {
            span,
            label: label.into(),
        });
        self
    }
    /// Sets the repair description.
    pub fn with_fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }
}

/// Puts diagnostics in input order, by span; those at one place keep the
/// order they were found in. A list already in order (the usual case) is
/// left as it is, without the sort's scratch copy of it: a file with a
/// problem on every move has hundreds of thousands.
pub fn sort_diagnostics(diags: &mut [Diagnostic]) {
    let key = |d: &Diagnostic| (d.span.start, d.span.end);
    if !diags.is_sorted_by_key(key) {
        diags.sort_by_key(key);
    }
}

/// Where checks put the diagnostics they find: a `Vec` keeps them all, a
/// [`Capped`] only those a report shows.
pub trait Sink {
    /// Adds one diagnostic.
    fn push(&mut self, d: Diagnostic);
}

impl Sink for Vec<Diagnostic> {
    fn push(&mut self, d: Diagnostic) {
        Vec::push(self, d);
    }
}

/// How many diagnostics of one code a [`Capped`] left out, by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Omitted {
    /// All of them.
    pub count: usize,
    /// Those that are errors.
    pub errors: usize,
    /// Those that are warnings.
    pub warnings: usize,
}

/// Diagnostics gathered with a bound, for a file with a problem on every
/// move: it keeps what a report would keep of the whole list in input
/// order ([`sort_diagnostics`]) — the first `per_code` of each code, then
/// the first `total` — and counts the rest, so memory stays in proportion
/// to what is shown, not to the file.
///
/// The list is put in order and cut whenever it has doubled, so the result
/// is the same as cutting the whole list once: an entry is dropped only
/// when as many of its code (or in all) stand before it already.
#[derive(Debug)]
pub struct Capped {
    list: Vec<Diagnostic>,
    per_code: usize,
    total: usize,
    infos: bool,
    omitted: Vec<(Code, Omitted)>,
    cut_at: usize,
}

/// A [`Capped`] list is put in order and cut no more often than at this
/// many entries.
const CUT_AT_LEAST: usize = 1024;

impl Capped {
    /// At most `per_code` diagnostics of each code, then at most `total`
    /// in all (0: no such bound).
    pub fn new(per_code: usize, total: usize) -> Capped {
        Capped {
            list: Vec::new(),
            per_code,
            total,
            infos: true,
            omitted: Vec::new(),
            cut_at: CUT_AT_LEAST,
        }
    }

    /// Information is not kept, nor counted (a list of problems).
    pub fn without_infos(mut self) -> Capped {
        self.infos = false;
        self
    }

    fn bounded(&self) -> bool {
        self.per_code > 0 || self.total > 0
    }

    fn omit(&mut self, d: &Diagnostic) {
        let o = match self.omitted.iter().position(|(c, _)| *c == d.code) {
            Some(i) => &mut self.omitted[i].1,
            None => {
                self.omitted.push((d.code, Omitted::default()));
                &mut self.omitted.last_mut().expect("pushed").1
            }
        };
        o.count += 1;
        match d.severity {
            Severity::Error => o.errors += 1,
            Severity::Warning => o.warnings += 1,
            Severity::Info => {}
        }
    }

    /// Puts the list in order and leaves out what is past the bounds.
    fn cut(&mut self) {
        sort_diagnostics(&mut self.list);
        let mut list = std::mem::take(&mut self.list);
        if self.per_code > 0 {
            let mut seen: Vec<(Code, usize)> = Vec::new();
            list.retain(|d| {
                let n = match seen.iter().position(|(c, _)| *c == d.code) {
                    Some(i) => &mut seen[i].1,
                    None => {
                        seen.push((d.code, 0));
                        &mut seen.last_mut().expect("pushed").1
                    }
                };
                *n += 1;
                if *n <= self.per_code {
                    return true;
                }
                self.omit(d);
                false
            });
        }
        if self.total > 0 && list.len() > self.total {
            for d in list.drain(self.total..) {
                self.omit(&d);
            }
        }
        self.list = list;
        self.cut_at = CUT_AT_LEAST.max(2 * self.list.len());
    }

    /// The diagnostics kept, in order, and how many of each code were left
    /// out (in order of first leaving).
    pub fn finish(mut self) -> (Vec<Diagnostic>, Vec<(Code, Omitted)>) {
        self.cut();
        self.list.shrink_to_fit();
        (self.list, self.omitted)
    }
}

impl Sink for Capped {
    fn push(&mut self, d: Diagnostic) {
        if !self.infos && d.severity == Severity::Info {
            return;
        }
        self.list.push(d);
        if self.bounded() && self.list.len() >= self.cut_at {
            self.cut();
        }
    }
}

/// Maps byte offsets to 1-based line and column numbers.
///
/// Columns count bytes; [`LineIndex::char_column`] and
/// [`LineIndex::utf16_column`] convert for display and browsers.
///
/// A file written a move a line has millions of lines: the index keeps
/// the start of every [`LINE_BLOCK`]th line, and for the others the step
/// from the line before in a byte (a longer line's start is kept apart),
/// about a byte a line instead of four.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// The start of line `k * LINE_BLOCK` (0-based) for each `k`.
    blocks: Vec<u32>,
    /// For each line after the first, its start less the line before's
    /// (`u8::MAX`: in `far`).
    steps: Vec<u8>,
    /// The lines (0-based) whose step does not fit a byte, and their start.
    far: Vec<(u32, u32)>,
    /// The start of the last line.
    last: u32,
}

/// Lines between two starts kept whole in a [`LineIndex`].
pub const LINE_BLOCK: usize = 32;

impl LineIndex {
    /// Builds the index of `text`. A line ends at `\n`, at `\r\n` and at a lone `\r`.
    pub fn new(text: &[u8]) -> LineIndex {
        let mut li = LineIndex::empty();
        let mut i = 0;
        while let Some(p) = memchr::memchr2(b'\n', b'\r', &text[i..]) {
            let at = i + p;
            if text[at] == b'\r' && text.get(at + 1) == Some(&b'\n') {
                i = at + 2;
            } else {
                i = at + 1;
            }
            li.push(i as u32);
        }
        li.shrink();
        li
    }

    /// The index of one line, starting at 0.
    fn empty() -> LineIndex {
        LineIndex {
            blocks: vec![0],
            steps: vec![0],
            far: Vec::new(),
            last: 0,
        }
    }

    /// Adds a line starting at `start` (after the last line's start).
    fn push(&mut self, start: u32) {
        let line = self.steps.len();
        let before = std::mem::replace(&mut self.last, start);
        if line.is_multiple_of(LINE_BLOCK) {
            self.blocks.push(start);
        }
        match u8::try_from(start - before) {
            Ok(step) if step < u8::MAX => self.steps.push(step),
            _ => {
                self.steps.push(u8::MAX);
                self.far.push((line as u32, start));
            }
        }
    }

    fn shrink(&mut self) {
        self.blocks.shrink_to_fit();
        self.steps.shrink_to_fit();
        self.far.shrink_to_fit();
    }

    /// The start of the 0-based `line` (< the number of lines).
    fn start(&self, line: usize) -> u32 {
        let b = line / LINE_BLOCK;
        let mut at = self.blocks[b];
        for l in b * LINE_BLOCK + 1..=line {
            at = self.next_start(l, at);
        }
        at
    }

    /// The start of the 0-based `line`, the line before starting at `before`.
    fn next_start(&self, line: usize, before: u32) -> u32 {
        match self.steps[line] {
            u8::MAX => {
                let i = self.far.partition_point(|(l, _)| (*l as usize) < line);
                self.far[i].1
            }
            step => before + u32::from(step),
        }
    }

    /// The offset where each line starts (the first is 0), to save the
    /// index with a document and make it again with [`LineIndex::from_starts`].
    pub fn starts(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.steps.len());
        let mut at = 0;
        for line in 0..self.steps.len() {
            at = if line.is_multiple_of(LINE_BLOCK) {
                self.blocks[line / LINE_BLOCK]
            } else {
                self.next_start(line, at)
            };
            out.push(at);
        }
        out
    }

    /// An index from [`LineIndex::starts`]. Starts that are not increasing
    /// from 0 are sorted and a 0 added, so lookups never fail.
    pub fn from_starts(mut starts: Vec<u32>) -> LineIndex {
        starts.sort_unstable();
        starts.dedup();
        let mut li = LineIndex::empty();
        for s in starts.into_iter().filter(|&s| s > 0) {
            li.push(s);
        }
        li.shrink();
        li
    }

    /// The 0-based line of `offset`, and where it starts.
    fn find(&self, offset: u32) -> (usize, u32) {
        let b = self.blocks.partition_point(|&s| s <= offset).max(1) - 1;
        let (mut line, mut at) = (b * LINE_BLOCK, self.blocks[b]);
        let end = (line + LINE_BLOCK).min(self.steps.len());
        while line + 1 < end {
            let next = self.next_start(line + 1, at);
            if next > offset {
                break;
            }
            line += 1;
            at = next;
        }
        (line, at)
    }

    /// Line and byte column (both 1-based) of `offset`.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let (line, at) = self.find(offset);
        (line as u32 + 1, offset - at + 1)
    }

    /// Byte range of the 1-based `line` (without its line break).
    pub fn line_range(&self, text: &[u8], line: u32) -> std::ops::Range<usize> {
        let i = (line.max(1) - 1) as usize;
        let n = self.steps.len();
        let start = if i < n {
            self.start(i) as usize
        } else {
            text.len()
        };
        let mut end = if i + 1 < n {
            self.next_start(i + 1, start as u32) as usize
        } else {
            text.len()
        };
        let start = start.min(text.len());
        end = end.clamp(start, text.len());
        while end > start && matches!(text[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        start..end
    }

    /// The 1-based column of `offset` counted in characters of the UTF-8 (lossy) line.
    pub fn char_column(&self, text: &[u8], offset: u32) -> u32 {
        let (_, start) = self.find(offset);
        let start = (start as usize).min(text.len());
        let end = (offset as usize).clamp(start, text.len());
        String::from_utf8_lossy(&text[start..end]).chars().count() as u32 + 1
    }

    /// The 1-based column of `offset` counted in UTF-16 code units (for browsers).
    pub fn utf16_column(&self, text: &[u8], offset: u32) -> u32 {
        let (_, start) = self.find(offset);
        let start = (start as usize).min(text.len());
        let end = (offset as usize).clamp(start, text.len());
        String::from_utf8_lossy(&text[start..end])
            .encode_utf16()
            .count() as u32
            + 1
    }

    /// Number of lines.
    pub fn lines(&self) -> usize {
        self.steps.len()
    }

    /// Heap bytes the index holds.
    pub fn heap_bytes(&self) -> usize {
        self.blocks.capacity() * 4 + self.steps.capacity() + self.far.capacity() * 8
    }
}

/// Renders the diagnostics table of `docs/diagnostics.md`.
pub fn markdown_table() -> String {
    let mut out = String::new();
    out.push_str("| code | name | severity | layer | meaning | example | repair |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
    for &c in Code::ALL {
        let ex = if c.example().is_empty() {
            "(empty file)".to_string()
        } else {
            format!("`{}`", c.example().replace('|', "\\|").replace('`', "'"))
        };
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} |\n",
            c.as_str(),
            c.name(),
            c.default_severity(),
            c.layer(),
            c.summary().replace('|', "\\|"),
            ex,
            c.repair().replace('|', "\\|"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_sort_by_place_keeping_the_order_found_at_one_place() {
        let d = |a: u32, b: u32, code: Code| Diagnostic::new(code, Span::new(a, b), "");
        let mut v = vec![
            d(5, 6, Code::UnclosedValue),
            d(1, 2, Code::EmptyInput),
            d(5, 6, Code::NulByte),
            d(1, 1, Code::Utf16),
        ];
        sort_diagnostics(&mut v);
        let got: Vec<(u32, Code)> = v.iter().map(|d| (d.span.start, d.code)).collect();
        assert_eq!(
            got,
            [
                (1, Code::Utf16),
                (1, Code::EmptyInput),
                (5, Code::UnclosedValue),
                (5, Code::NulByte)
            ]
        );
    }

    #[test]
    fn codes_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.as_str()), "duplicate code {}", c.as_str());
            assert!(seen.insert(c.name()), "duplicate name {}", c.name());
            assert!(!c.summary().is_empty());
        }
        assert_eq!(Code::parse("S005"), Some(Code::UnclosedValue));
        assert_eq!(Code::parse("unclosed-value"), Some(Code::UnclosedValue));
    }

    #[test]
    fn line_index() {
        let t = b"ab\ncd\r\nef\rg";
        let li = LineIndex::new(t);
        assert_eq!(li.line_col(0), (1, 1));
        assert_eq!(li.line_col(3), (2, 1));
        assert_eq!(li.line_col(4), (2, 2));
        assert_eq!(li.line_col(7), (3, 1));
        assert_eq!(li.line_col(10), (4, 1));
        assert_eq!(&t[li.line_range(t, 2)], b"cd");
        let again = LineIndex::from_starts(li.starts().to_vec());
        assert_eq!(again.line_col(7), (3, 1));
        assert_eq!(LineIndex::from_starts(vec![5, 3]).starts(), &[0, 3, 5]);
        let u = "黑棋 x".as_bytes();
        let li = LineIndex::new(u);
        assert_eq!(li.char_column(u, 7), 4);
    }

    #[test]
    fn a_line_index_of_many_lines_of_every_length_finds_each_one() {
        // Lines of 1 to 600 bytes (past a step of a byte), ends of every
        // kind, across many blocks; every offset against a plain scan.
        let mut text = Vec::new();
        let mut x = 5u32;
        for i in 0..3000 {
            x = x.wrapping_mul(1103515245).wrapping_add(12345);
            let len = if i % 97 == 0 {
                254 + (x >> 16) % 400
            } else {
                (x >> 16) % 70
            };
            text.extend(std::iter::repeat_n(b'x', len as usize));
            text.extend_from_slice([&b"\n"[..], b"\r\n", b"\r"][i % 3]);
        }
        let li = LineIndex::new(&text);
        let (mut line, mut start) = (1u32, 0usize);
        for off in 0..=text.len() {
            if off > 0 {
                let c = text[off - 1];
                let ends = c == b'\n' || (c == b'\r' && text.get(off) != Some(&b'\n'));
                if ends {
                    line += 1;
                    start = off;
                }
            }
            assert_eq!(
                li.line_col(off as u32),
                (line, (off - start) as u32 + 1),
                "{off}"
            );
        }
        assert_eq!(li.lines(), line as usize);
        let again = LineIndex::from_starts(li.starts());
        assert_eq!(again.starts(), li.starts());
        for l in 1..=line {
            let r = li.line_range(&text, l);
            assert!(text[r.clone()].iter().all(|&c| c == b'x'), "{l}");
            assert_eq!(li.line_col(r.start as u32), (l, 1));
            assert_eq!(again.line_range(&text, l), r);
        }
        // About a byte a line.
        assert!(li.heap_bytes() < 2 * li.lines(), "{}", li.heap_bytes());
    }

    /// A code and how many of it were left out: all, errors, warnings.
    type LeftCount = (Code, usize, usize, usize);

    /// What a report keeps of the whole list, cut once (the reference).
    fn cut_once(
        mut all: Vec<Diagnostic>,
        per_code: usize,
        total: usize,
        infos: bool,
    ) -> (Vec<Diagnostic>, Vec<LeftCount>) {
        all.retain(|d| infos || d.severity != Severity::Info);
        sort_diagnostics(&mut all);
        let mut seen: std::collections::HashMap<Code, usize> = Default::default();
        let mut kept = Vec::new();
        let mut left = Vec::new();
        for d in all {
            let n = seen.entry(d.code).or_default();
            *n += 1;
            if per_code > 0 && *n > per_code {
                left.push(d);
            } else {
                kept.push(d);
            }
        }
        if total > 0 && kept.len() > total {
            left.extend(kept.drain(total..));
        }
        let mut counts: Vec<LeftCount> = Vec::new();
        for d in &left {
            let i = match counts.iter().position(|c| c.0 == d.code) {
                Some(i) => i,
                None => {
                    counts.push((d.code, 0, 0, 0));
                    counts.len() - 1
                }
            };
            counts[i].1 += 1;
            match d.severity {
                Severity::Error => counts[i].2 += 1,
                Severity::Warning => counts[i].3 += 1,
                Severity::Info => {}
            }
        }
        counts.sort_by_key(|c| c.0);
        (kept, counts)
    }

    #[test]
    fn a_capped_list_keeps_what_cutting_the_whole_list_once_keeps() {
        let codes = [
            Code::UnclosedValue,
            Code::StrayCharacters,
            Code::OccupiedPoint,
            Code::PassAsTt,
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for round in 0..60 {
            // Sizes on both sides of the cut's threshold, spans mostly in
            // order (as checks find them) but some going back, and ties.
            let n = [0, 5, 900, 1500, 5000][round % 5];
            let mut all = Vec::new();
            for i in 0..n {
                let at = if next(8) == 0 {
                    next(n as u64 + 1) as u32
                } else {
                    i as u32 / 2
                };
                let code = codes[next(codes.len() as u64) as usize];
                let sev = [Severity::Error, Severity::Warning, Severity::Info][next(3) as usize];
                let d = Diagnostic::new(code, Span::new(at, at + next(3) as u32), format!("{i}"))
                    .with_severity(sev);
                all.push(d);
            }
            let (per_code, total) = [(0, 0), (10, 0), (0, 500), (3, 7), (1000, 0)][(round / 5) % 5];
            let per_code = if round % 7 == 0 { 0 } else { per_code };
            let infos = round % 3 != 0;
            let mut c = Capped::new(per_code, total);
            if !infos {
                c = c.without_infos();
            }
            for d in all.clone() {
                c.push(d);
            }
            let (kept, omitted) = c.finish();
            let (want, mut want_left) = cut_once(all, per_code, total, infos);
            assert_eq!(kept, want, "round {round}: n {n}, cap {per_code}/{total}");
            let mut got: Vec<_> = omitted
                .iter()
                .map(|(c, o)| (*c, o.count, o.errors, o.warnings))
                .collect();
            got.sort_by_key(|c| c.0);
            want_left.retain(|c| c.1 > 0);
            assert_eq!(got, want_left, "round {round}");
        }
    }

    #[test]
    fn a_capped_list_stays_small_while_it_gathers() {
        let mut c = Capped::new(10, 0);
        for i in 0..200_000u32 {
            c.push(Diagnostic::new(
                Code::OccupiedPoint,
                Span::new(i, i + 1),
                "x",
            ));
            assert!(c.list.len() < 2 * CUT_AT_LEAST, "{} at {i}", c.list.len());
        }
        let (kept, omitted) = c.finish();
        assert_eq!(kept.len(), 10);
        assert_eq!(omitted[0].1.count, 199_990);
        // Unbounded, it is a plain list.
        let mut all = Capped::new(0, 0);
        for i in 0..3000u32 {
            all.push(Diagnostic::new(
                Code::OccupiedPoint,
                Span::new(i, i + 1),
                "x",
            ));
        }
        assert_eq!(all.finish().0.len(), 3000);
    }
}
