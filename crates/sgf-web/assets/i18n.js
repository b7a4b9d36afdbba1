// @ts-check
// Languages: English is the key; the translations are in assets/i18n/*.json.

import { api, setErrorText } from "./api.js";
import { $ } from "./dom.js";
import { ui } from "./state.js";

/** @type {Record<string, string>} */
export const LANGUAGES = {
  en: "English", de: "Deutsch", es: "Español", fr: "Français", it: "Italiano", "pt-BR": "Português (Brasil)", ru: "Русский", tr: "Türkçe",
  "zh-Hans": "简体中文", "zh-Hant": "繁體中文", ja: "日本語", ko: "한국어",
};

/**
 * `text` in the chosen language, `{name}` replaced from `vars`.
 * @param {string} text
 * @param {Record<string, unknown>} [vars]
 */
export function tr(text, vars) {
  let t = ui.dict[text] || text;
  if (vars) t = t.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return t;
}

/**
 * The server's messages (crates/sgf-web/src), sent in English, as the page
 * shows them: each template's `{name}`s read back from the message, and
 * translated themselves when they are one of these. A message that is
 * none of them (an error of the system, an engine's words) stays as sent.
 * `tests/i18n.rs` holds this list to the messages the server writes.
 */
const SERVER = [
  "Illegal move: {why} ({point}). Play it anyway?",
  "Illegal move: {why}. Play it anyway?",
  "there is already a stone on this point",
  "this move is a suicide (its group would have no liberty)",
  "this move retakes a ko immediately",
  "`{ident}` is not a game-info property",
  "`{point}` is not a point of this board",
  "a line needs two different points",
  "no comment of this game holds “{q}”",
  "no hotspot (HO) in this game",
  "no move at {point} in this game",
  "no such game",
  "no game",
  "no such node",
  "no such part",
  "no variation here to shift",
  "no comment before this node",
  "no fork before this node",
  "no comment further on this line",
  "no fork further on this line",
  "nothing copied: copy or cut a variation first",
  "nothing copied",
  "nothing to redo",
  "nothing to repair",
  "nothing to undo",
  "the board is shown as recorded: turn, mirror or invert it first",
  "the root cannot be cut: copy it",
  "the root cannot be deleted",
  "the stone on {point} was placed by setup, not by a move",
  "this is the start of the game already",
  "this line has no other variations",
  "this part of the file could not be read",
  "this record was read from a {format} file: use \"Save as\" to write SGF",
  "this variation is the leftmost already",
  "this variation is the rightmost already",
  "type the text to find",
  "a board has 2 to 52 lines",
  "a handicap of {handicap} stones cannot be placed on {size}×{size}",
  "komi must be a number",
  "click a stone to mark its group dead or alive",
  "engines play boards of 2 to 25 lines",
  "no engine is running: start one, or count with Qipu's estimator",
  "no engine is running",
  "not counting: press Count first",
  "the position changed while {engine} was thinking: its move was not played",
  "{engine} (Black) passes",
  "{engine} (White) passes",
  "{engine} (Black) plays {point}",
  "{engine} (White) plays {point}",
  "{engine} (Black) resigns",
  "{engine} (White) resigns",
  "{engine} cannot analyse (it has neither lz-analyze nor kata-analyze)",
  "analysing {total} positions",
  "name an engine of engines.toml or give its command line",
  "no position",
  "start the first engine first",
  "start an engine first",
  "this record has no file: use \"Save as\"",
  "{name} is ready",
  "{name} is ready, but its command line could not be remembered: {e}",
  "the command line `{line}` runs only once you confirm it",
  "there is no configuration folder to remember it in",
  "{rel} is read-only: use \"Save as\"",
  "{rel} not saved: {e}",
  "{why}. Qipu never saves over a file that is not a game record: use \"Save as\"",
  "{why}. Qipu never saves over a file that is not a game record: choose another name",
  "{rel} exists already: replace it, or choose another name",
  "{rel} holds text outside its game trees that the canonical form leaves out: save it with \"Save\", which keeps it, or as another file",
  "{rel} was changed on disk by another program since it was opened: reload it, overwrite it, or save as another file",
  "`{s}` is not a number of moves",
  "`{s}` is not a point: two letters a-z or A-Z expected",
  "this record is no longer open in the viewer (it was closed)",
  "this record is no longer open in the viewer",
  "unknown rules `{s}`",
  "`{rel}` is not a path under the served directory",
  "`{rel}` is not a record file",
  "`{rel}` is outside the served directory",
  "`{rel}`: no folder is served (qipu view was started without a path): start it with a folder or a file to open and save files",
  "larger than {max}, the most the viewer opens; nothing was read",
  "{path}: no such file or directory",
  "{what}: available with `qipu view`, which runs on your computer",
  "saving to a folder",
  "searching a database",
  "`{p}`: files of a folder",
  "counting with an engine's dead stones is available with `qipu view`, which runs on your computer",
  "engines are available with `qipu view`, which runs on your computer",
  "it is back with its unsaved changes (not its undo history)",
  "it was changed on disk since: this is the file as it is now",
  "its engine was stopped",
  "{name} was put aside to free memory and cannot be read again: {e}",
  "{name} was put aside to free memory; {why}",
  "the unsaved changes of {name} were kept in {path} but cannot be read back: {e}",
  "no database: start the viewer with --db GAMES.qdb",
  "no game {id} in the database: {e}",
  "the text has characters {charset} cannot encode; save in the canonical UTF-8 form instead",
  "`{s}` is not a property identifier",
  "`{r}` is not a raw SGF value: `]` and `\\` must be escaped with `\\`",
  "{name}: {e}",
];

/**
 * The messages of the library's diagnostics and of its repair's changes
 * (sgf-core, sgf-go, sgf-formats), shown translated as the server's are
 * (`diagnosticText`), with parts of them that a `{name}` may hold.
 * `tests/i18n.rs` holds this list to the messages the library gives
 * `Diagnostic::new` and the repair.
 */
const LIBRARY = [
  "unexpected `{text}` outside a value is ignored",
  "too many syntax problems; further ones are not reported",
  "no SGF game tree found",
  "text before the first game tree is ignored",
  "possible SGF data before the first game tree: `{text}`",
  "text outside any game tree is ignored",
  "a game tree must start with `(`; one is assumed",
  "variations nest deeper than {n}",
  "a value without a property identifier is ignored",
  "{n} game tree(s) not closed at the end of the input",
  "`)` closes nothing",
  "a variation without nodes is ignored",
  "an empty variation `()` is ignored",
  "`(` must be followed by a node; the extra parenthesis is ignored",
  "more than {n} nodes; the rest is not read",
  "a node after the variations of its parent; read as one more variation",
  "properties without a node start `;`; one is assumed",
  "an unescaped `]` inside the value was read as text",
  "`{text}` is not SGF",
  "`{text}` is not a property identifier (an upper-case letter must come first); its values are ignored",
  "property `{ident}` has no value and is ignored",
  "lower-case letters in `{raw}` are ignored: read as `{ident}`",
  "property identifier of {n} characters",
  "more than {n} properties in one node; this one is ignored",
  "`{ident}` appears more than once in this node; the values are merged",
  "value not closed with `]` before the end of the input",
  "CA[{name}] names a charset Qipu cannot decode, and the text uses its shifts: its bytes are shown as they are, not as they read; fmt, convert and check --fix refuse to write it",
  "CA[{name}] names a charset Qipu cannot decode; {what}",
  "the text is ASCII, read as such",
  "the text holds none of its shifts; read as {charset}",
  "{n} invalid UTF-8 sequence(s) (a character cut short or replaced); only they are shown as U+FFFD",
  "CA[{name}] but the file is not UTF-16; the charset is detected from the bytes",
  "unknown charset `{name}`; the charset is detected from the bytes",
  "byte sequences that are invalid in {charset}; shown as U+FFFD",
  "CA says {name} but the text is valid UTF-8; read as UTF-8",
  "no CA property; the text is UTF-8",
  "CA[{name}] but the text is not in it; read as {charset}",
  "no CA property; the text looks like {charset}",
  "input larger than {n} bytes; the rest is not read",
  "the file is {name}; read after transcoding",
  "{n} invalid {name} unit(s); shown as U+FFFD",
  "the input is empty",
  "{charset} {clash}; the game was read charset-aware",
  "text between escape sequences whose bytes include `\\` or `]` is not escaped",
  "characters whose second byte is `\\` or `]` are not escaped",
  "{n} NUL byte(s) in the input",
  "games of this file declare different charsets: {list}",
  "the file is a collection of {n} game trees; some programs read only the first",
  "games of this file are of different types: {list}",
  "games of this file declare different FF versions: {list}",
  "unknown property `{ident}`; kept unchanged",
  "root property `{ident}` outside the root node",
  "game-info property `{ident}` in a second game-info node on this path",
  "`{ident}` is a private property of {app}; kept unchanged",
  "`{ident}` is a property of Lines of Action; kept unchanged",
  "`M` ({name}) is an FF[{ff}] property; its FF[4] equivalents are `MA` on empty points and `TR` on stones",
  "`{ident}` ({name}) is an FF[{ff}] property without an FF[4] equivalent; kept",
  "`{ident}` ({name}) is an FF[{ff}] property; its FF[4] equivalent is `{new}`",
  "move and setup properties in one node",
  "`B` and `W` in one node",
  "a move in the root node (bad style)",
  "`{ident}` needs a move (`B` or `W`) in the same node",
  "{a} and {b} exclude each other in one node",
  "`{ident}` takes one value but has {n}",
  "white space in `{ident}[{value}]`, whose values have none",
  "`{ident}` takes no value, but has `{value}`",
  "`{ident}` needs a number, not `{value}`",
  "`{ident}[{n}]` is outside {lo}–{hi}",
  "`{ident}` needs a real number, not `{value}`",
  "`{ident}` needs 1 or 2, not `{value}`",
  "the game is not Go (GM[{gm}]): moves and points are not checked",
  "`{ident}` needs B or W, not `{value}`",
  "`{ident}` needs a composed value `a:b`, not `{value}`",
  "compressed point list `{value}` in an FF[{ff}] file",
  "pass written `{ident}[]` in an FF[{ff}] file (FF[4] style)",
  "`{ident}` takes a single point, not `{value}`",
  "`FG` needs nothing or `flags:name`, not `{value}`",
  "`SZ[{value}]`: a board needs at least one point",
  "empty `{ident}` value",
  "the converted record: [{code}] {message}",
  "{n} more unreadable lines not listed",
  "HA[{ha}] and the first {n} moves are Black: probably handicap stones played as moves; not changed (the nodes hold more than a move)",
  "HA[{ha}] but no handicap stones and White moves first; {why}, so none were placed",
  "Fox's old records put 6 and 7 stones on points no convention gives",
  "no fixed placement fits the moves",
  "HA[{ha}] but no handicap stones and White moves first: AB[{points}] placed by Fox's convention (third stone top-left, as Tygem)",
  "{what} not changed: {e}",
  "the handicap moves",
  "the main line",
  "{n} more changes not listed",
  "{ident}[{value}] is outside the {size}×{size} board: probably a pass (LizzieYzy writes them so); not guessed, B[]/W[] is the FF[4] pass",
  "this variation starts with {ident} right after {ident}'s move: probably an alternative to that move, one level too deep",
  "this variation undoes {ident}'s move with AE, then plays: probably an alternative to that move, one level too deep",
  "{n} of the {total} variations after {ident}'s move undo it with AE: whether they are one level too deep cannot be told",
  "`{ident}[{value}]` is not a point",
  "`{ident}[{value}]` is outside the {size} board",
  "pass written `{ident}[tt]` (FF[3] style); FF[4] writes `{ident}[]`",
  "upper-case `{ident}[{value}]` on a {size} board; read as lower case",
  "`{ident}[{value}]` on a {size} board: some programs write a pass this way; not guessed",
  "`{ident}[{value}]`: a rectangle is written upper-left first",
  "point {point} and {n} more point(s) of `{ident}[{value}]` are given twice in one node (first by {first})",
  "point {point} is given twice ({first} and {ident}) in one node",
  "`VW[{a}][{b}]` in an FF[{ff}] file names the corners of the view",
  "`VW` as a list of points (FF[4]) in an FF[{ff}] file; read as FF[4]",
  "`{ident}` from {point} to itself has no direction",
  "`{ident}[{a}:{b}]` given twice",
  "two labels on {point}",
  "`SZ` needs a number or `columns:rows`; 19×19 is assumed",
  "a square board must be written `SZ[{n}]`",
  "Go boards are 1×1 to 52×52; read as {size}",
  "a rectangular board in an FF[{ff}] file",
  "`DT[{value}]` is not in the ISO format YYYY-MM-DD (with its shortcuts)",
  "`RE[{value}]` is not in the FF[4] result format (B+3.5, W+R, 0, Void, ?)",
  "`KM[{value}]` is not a plausible komi; Fox files scale komi (KM[375] = 7.5)",
  "setup stones in the main line after the root",
  "{color} plays on {point}, which already holds a stone",
  "suicide: {n} stone(s) of the player removed",
  "{color} retakes the ko at {point} immediately",
  "`{ident}` at {point} changes nothing (already so)",
  "`{ident}` at {point} and {n} more point(s) of the same value change nothing (already so)",
  "two {color} moves in a row",
  "HA[{ha}]: a handicap is at least 2 stones",
  "HA[{ha}]: a handicap is at least 2 stones (the root has {n} black setup stone(s))",
  "HA[{ha}] but the root has {n} black setup stone(s)",
  "HA[{ha}] but the root also has {n} white setup stone(s)",
  "header field without its closing `\\]`",
  "header field without `=`",
  "board size LINE:{n} not understood; 19 assumed",
  "INI line without a handicap count",
  "move after `\\GE`; read anyway",
  "STO line with an unknown colour; skipped",
  "STO line without a point on the board; skipped",
  "REM (probably dead-stone marking or an undo at the end of the game) is not supported; skipped",
  "unknown opcode `{op}`; skipped",
  "INI says handicap {h}, GAMETAG says {r}; the INI line is used",
  "no fixed placement for {n} handicap stones on {size}×{size}; HA only",
  "GAMERESULT `{text}` reads as {t}, the result code as {c}; the code is used",
  "SUR (a resignation) ends the game; the result is taken from the header",
  "{n} handicap stones are not listed in GIB files; placed by the {order} convention",
  "{n} header field(s) without an SGF equivalent kept in {prop}: {fields}",
  "Tygem GIB record converted to SGF ({n} moves, charset {charset})",
  "board size {n} not understood; 19 assumed",
  "no board size; 19 assumed",
  "handicap {n} not understood; ignored",
  "result `{r}` not understood; kept in GC",
  "move numbers are not consecutive (record {k} is numbered {n}); read in file order",
  "the check letters do not mirror the coordinates; the coordinates are used",
  "move outside the board; skipped",
  "the header announces {n} moves, the file has {count}",
  "{n} handicap stones are not listed in NGF files; placed by the {order} convention (as Sabaki, KaTrain and Ogatak read NGF)",
  "{n} header line(s) without an SGF equivalent kept in {prop}",
  "NGF record ({variant} variant) converted to SGF ({n} moves, charset {charset})",
  "header line without `=`; skipped",
  "the file is obfuscated (Crypt is not 0)",
  "board size `{s}` not understood; 19 assumed",
  "date `{d}` not understood",
  "Hdcp `{h}` not fully understood",
  "Winner `{w}` not understood; kept",
  "[Data] line not understood; skipped",
  "[Data] line with an unknown colour; skipped",
  "[Data] line without two coordinate letters; skipped",
  "handicap stone off the board; skipped",
  "Hdcp says {h} stones, [Data] places {n}",
  "the review tree's main line differs from [Data] at move {k}; the tree is used",
  "comment for node {id}, which the tree does not have; attached to the root",
  "`.Comment` without a node number; skipped",
  "VARIATIONEND without VARIATION; skipped",
  "NODE line not understood; skipped",
  "node id {id} used twice; the later one is used for comments",
  "[ReviewNode] line not understood; skipped",
  "VARIATION without VARIATIONEND at the end of [ReviewNode]",
  "the e-mail address in {key} is not copied (ReadOptions::keep_email)",
  "section [{name}] is not converted; its text is kept in {prop}",
  "UGF record converted to SGF ({n} moves{more}, charset {charset})",
  "komi {whole} and {tenths} tenths not understood; kept in {prop}",
  "ending code {end} not known; no RE",
  "winner {w} not understood (1 Black, 0 White); no RE",
  "move {k}: column byte {col} is not a multiple of 4; read as column {c}",
  "move {k} is outside the board; skipped",
  "an odd byte after the last move: the file is cut in the middle of a move",
  "the file is truncated: the header announces {n} moves, the file holds {k}",
  "the header announces {n} moves, the file holds {k}; all are read",
  "no fixed placement for {n} handicap stones on {size}×{size}; kept in {prop}",
  "the players' QQ numbers are not copied (ReadOptions::keep_email)",
  "{n} handicap stones are not listed in WGS files; placed by the {order} convention",
  "fields without an SGF equivalent kept in {prop}: {fields}",
  "WGS record converted to SGF ({n} moves, charset {charset})",
  // The judgement of whether a file is a game record (sgf_formats::judge):
  // its sentence, its reasons and the kinds of file it names.
  "{name} is not a game record: {why}",
  "not a game record: {why}",
  "it is not text in any charset ({n}% of its bytes are control bytes no text holds)",
  "it is {what}, which Qipu does not read; unpack it first",
  "it holds no SGF game tree [{code}]",
  "it is empty",
  "it is {what}",
  "a zip archive",
  "a tar archive",
  "a gzip-compressed file (tar.gz)",
  "a 7z archive",
  "a bzip2-compressed file",
  "an xz-compressed file",
  "an LZMA-compressed file",
  "a RAR archive",
  "a Zstandard-compressed file",
  "a Windows cabinet archive",
  "a PNG image",
  "a JPEG image",
  "a GIF image",
  "a PDF document",
  "an SQLite database",
  "an executable (ELF)",
  "an old Microsoft Office document",
  "a WebAssembly module",
  "a WebP image",
  "{why} suggests {charset}, but the text is valid UTF-8; read as UTF-8",
  "UTF-8 with {n} invalid byte sequence(s), replaced by U+FFFD",
  "{why} suggests {charset}, but the bytes are {actual}",
  "the text holds {n} U+FFFD replacement character(s): it was damaged before it was saved",
  "invalid {charset} byte sequences, replaced by U+FFFD",
  "{from}[{old}] not understood or {to} already set; its wording kept in GC",
  "{from}[{old}] → {to}[{new}]",
  "empty {ident} value deleted",
  "{ident}: points off the board or unreadable deleted",
  "{ident}: rectangle or coordinates rewritten",
  "{ident}: point {point} and {n} more point(s) of the same value given twice; the later ones deleted",
  "{ident}: point {point} given twice; the later one deleted",
  "{ident}: empty or bad points deleted",
  "{ident}[{value}] deleted (repeated, to itself or off the board)",
  "second label on {point} deleted",
  "label on `{a}` deleted (not on the board)",
  "{ident} at {point} and {n} more point(s) of the same value change nothing: deleted",
  "{ident} at {point} changes nothing: deleted",
  "HA[{value}] is no handicap: deleted, its wording kept in GC",
  "{ident}[{value}] written as {ident}[{new}]",
  "{ident}: only one move per node; extra values deleted, kept [{value}]",
  "{ident}[{value}] is not a point on the {size} board: deleted",
  "HA[{ha}] with the handicap stones played as {n} Black moves → AB[{points}]",
  "KM[{old}] is Fox's scaled komi ({rules} rules: ÷{scale}) → KM[{km}]",
  "Chinese",
  "Japanese",
  "AP[{old}] → AP[{new}]",
  "TC[{tc}]TT[{tt}] → OT[{ot}] (TC and TT kept)",
  "the continuation written after the variations is now the main line",
  "LT/LC → OT[{ot}]",
  "LT/LC not understood or OT already set; their wording kept in GC",
  "root property {ident} outside the root deleted",
  "{ident} moved to the game-info node above",
  "{ident} of a second game-info node: its wording kept in GC",
  "TE and BM together: written as IT (interesting)",
  "{ident} contradicts {other}: deleted",
  "B and W in one node: W moved to a new node after it",
  "move and setup in one node: split, setup first",
  "the move of the root moved to a new node after it",
  "{ident} without a move deleted",
  "variation {ident}[{move}] moved up: now an alternative to {ident}[{before}]",
  "variation moved up beside the move it undid ({n} AE value(s) dropped)",
  "{ident} takes no value: emptied",
  "SZ[{value}] has no point: deleted, the default size applies",
  "{ident}[{value}] corrected to {ident}[{new}]",
  "SZ[{value}] corrected to SZ[{new}]",
  "GM[{value}] corrected to GM[{new}]",
  "ST[{value}] corrected to ST[{new}]",
  "SZ[{value}] written as SZ[{new}]",
  "ST[{value}] deleted (0–3)",
  "{ident}: extra values deleted, kept [{value}]",
  "empty {ident} deleted",
  "the values of {ident} joined into one",
  "{ident} takes one value: {ident}[{value}] kept, the wording of the others in GC",
  "{ident} values without `:` deleted: {list}",
  "empty {ident} values deleted",
  "VW[{a}][{b}] (FF[3] corners) converted to VW[{a}:{b}]",
  "L (FF[1] letters) converted to LB labels A, B, C…",
  "M (FF[1] marks on stones) converted to TR",
  "M (FF[1] marks) converted to MA",
  "M (FF[1] marks) converted: {a} on empty points to MA, {t} on stones to TR",
  "KI[{k}] (integer komi ×2) converted to KM[{km}]",
  "KI deleted: KM is present",
  "white space removed from {ident}",
  "text outside the game trees would read as SGF where it stands: kept in GC",
  "no header field and no move found",
  "no header and no move record found",
  "unknown format `{f}` (known: {list})",
  "format not supported: Qipu cannot read {name}, {description}: no description, reader or sample of it is public (MultiGo can convert it to SGF)",
  "this build does not read this format (sgf-formats' feature `other-formats`)",
  "no [Header] section",
  "obfuscated UGF (Crypt={crypt}) cannot be read",
  "the file has {n} bytes, a WGS header has {len}: truncated, or not a WGS record",
  "board size {size} (byte {at}) is not a board: not a WGS record",
  "{n} of {total} moves are outside the board: not a WGS record",
  // The names of the FF[1]–FF[3] properties (`{name}` of their message).
  "Black species",
  "Check mark",
  "Evaluation of computer move",
  "Expected move",
  "Game identifier",
  "Integer komi",
  "Letters",
  "Lose on time",
  "Marked points",
  "Moves per overtime",
  "Overtime length",
  "Operator overhead",
  "Region",
  "Secure stones",
  "Sigma",
  "Territory count",
  "White species",
];

/** @typedef {[RegExp, string, string[]][]} Patterns */

/**
 * Templates as patterns: each `{name}` a hole of one character or more.
 * @param {string[]} list
 * @returns {Patterns}
 */
function compile(list) {
  return list.map((t) => {
    /** @type {string[]} */
    const names = [];
    const src = t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{(\w+)\\\}/g, (_, n) => { names.push(n); return "(.+?)"; });
    return [new RegExp(`^${src}$`, "s"), t, names];
  });
}

/**
 * `text` read back against templates `patterns` and translated, each
 * hole translated too when it is one of them; null when none fits.
 * @param {Patterns} patterns
 * @param {string} text
 * @returns {string | null}
 */
function readBack(patterns, text) {
  // A message can fit several templates (`Illegal move: {why} ({point})…`
  // fits a reason that holds parentheses): the reading whose parts are
  // messages themselves wins, then the one of fewer parts, then the one
  // with more words of its own (`{name} is not a game record: {why}`
  // over `{name}: {e}`), then the first.
  let best = null, bestScore = -Infinity;
  for (const [re, t, names] of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    /** @type {Record<string, string>} */
    const vars = {};
    let known = 0;
    names.forEach((n, i) => {
      const part = readBack(patterns, m[i + 1]);
      vars[n] = part ?? m[i + 1];
      if (part !== null) known += 1;
    });
    const own = t.replace(/\{\w+\}/g, "").length;
    const score = (known * 100 - names.length) * 10_000 + Math.min(own, 9_999);
    if (score > bestScore) [best, bestScore] = [tr(t, vars), score];
  }
  return best;
}

/** @type {Patterns | null} the server's messages and the library's, read back alike */
let compiled = null;

/**
 * `text` read back against the server's messages and the library's
 * (a refusal can hold the library's words: `{name}: {e}`, an open that
 * failed; a change of the repair, sgf-core's refusal of an edit).
 * @param {string} text
 * @returns {string | null}
 */
function readMessage(text) {
  compiled ||= compile([...SERVER, ...LIBRARY]);
  return readBack(compiled, text);
}

/**
 * A message of the server in the chosen language.
 * @param {string} text
 * @returns {string}
 */
export function serverText(text) {
  if (!text || !Object.keys(ui.dict).length) return text;
  return readMessage(text) ?? text;
}

/**
 * A diagnostic of the library (`{code, message}`), or a change of its
 * repair, as the page shows it: its message in the chosen language when a
 * template of LIBRARY fits it, else its code's summary in that language;
 * `title`, the message as the library wrote it (what `qipu check` prints).
 * @param {{code: string, message: string}} d
 * @returns {{text: string, title: string}}
 */
export function diagnosticText(d) {
  if (!Object.keys(ui.dict).length) return { text: d.message, title: "" };
  const text = readMessage(d.message) ?? ui.codes[d.code] ?? d.message;
  return { text, title: d.message };
}

/** The browser's language, or the one chosen before. */
export function pickLanguage() {
  try {
    const saved = localStorage.getItem("qipu.lang");
    if (saved && LANGUAGES[saved]) return saved;
  } catch (e) { /* private mode */ }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const x = l.toLowerCase();
    if (x === "zh-tw" || x === "zh-hk" || x === "zh-mo" || x.startsWith("zh-hant")) return "zh-Hant";
    if (x.startsWith("zh")) return "zh-Hans";
    if (x.startsWith("ja")) return "ja";
    if (x.startsWith("ko")) return "ko";
    if (x === "pt" || x === "pt-br") return "pt-BR";
    for (const l of ["de", "es", "fr", "it", "ru", "tr"]) if (x === l || x.startsWith(`${l}-`)) return l;
    if (x.startsWith("en")) return "en";
  }
  return "en";
}

// Parts of the page filled by the code, translated where they are made.
const DYNAMIC = ["board", "players", "status", "message", "title", "nodename", "games", "gamescount",
  "filelist", "diagnostics", "diagtoggle", "variations", "annotations", "info", "tree", "gamestable",
  "repairlist", "repairsummary", "conflicttext", "diagramtext", "diagramnote", "pastetext", "comment", "jump", "name",
  "dbinfo", "dbsummary", "dbconts", "dbhits", "enginepick", "enginestatus", "countresult",
  "menus", "tabs", "keysmoves", "keysvars", "prev", "next", "prevvar", "nextvar", "gtplog", "batchstatus", "engine2status",
  "notrecordtext", "saveasask", "saveaserror"];
/** @type {WeakMap<Node, any>} text node or element → its English text, attribute by attribute */
const originals = new WeakMap();

/** The page's fixed words in the chosen language. */
export function translatePage() {
  /** @param {Element} el */
  const skip = (el) => DYNAMIC.some((id) => { const d = document.getElementById(id); return d && d.contains(el) && !(id === "gamestable" && el.closest("thead")); });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = /** @type {Element} */ (n.parentElement);
    if (!(n.nodeValue || "").trim() || parent.closest("script") || skip(parent)) continue;
    if (!originals.has(n)) originals.set(n, n.nodeValue);
    const en = originals.get(n);
    const core = en.trim();
    n.nodeValue = en.replace(core, tr(core));
  }
  for (const el of document.body.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (skip(el) && !el.matches("#games, #comment, #jump, #name, #gamesfilter, #enginepick, #tree, #tabs, #players")) continue;
    if (!originals.has(el)) {
      originals.set(el, { title: el.getAttribute("title"), placeholder: el.getAttribute("placeholder"), label: el.getAttribute("aria-label") });
    }
    const o = originals.get(el);
    const e = /** @type {HTMLInputElement} */ (el);
    if (o.title) e.title = tr(o.title);
    if (o.placeholder) e.placeholder = tr(o.placeholder);
    if (o.label) el.setAttribute("aria-label", tr(o.label));
  }
}

/** @type {(() => void)[]} what the modules show again in a new language */
const relabels = [];

/**
 * `fn` runs whenever the page changes language: for words a module made
 * with `tr` (not the page's fixed words, which `translatePage` does).
 * @param {() => void} fn
 */
export function onLanguage(fn) {
  relabels.push(fn);
}

/**
 * Loads language `lang` and shows the page in it; `redraw` shows the
 * record again in it.
 * @param {string} lang
 * @param {() => void} redraw
 */
export async function setLanguage(lang, redraw) {
  const t = lang === "en" ? { strings: {}, codes: {} } : await api(`/i18n/${lang}.json`).catch(() => ({ strings: {}, codes: {} }));
  ui.dict = t.strings;
  ui.codes = t.codes || {};
  document.documentElement.lang = lang;
  $("lang").value = lang;
  try { localStorage.setItem("qipu.lang", lang); } catch (e) { /* private mode */ }
  translatePage();
  for (const fn of relabels) fn();
  redraw();
}

// A refusal of the server reaches the page in its language.
setErrorText(serverText);
