//! A GTP engine: commands with ids and time limits, the record replayed
//! into it, moves asked of it, dead stones, and streaming analysis.

use std::time::{Duration, Instant};

use sgf_core::{Color, Document, NodeId, Point};
use sgf_go::coords::BoardSize;
use sgf_go::score::{Rules, Settings};
use sgf_go::{Cursor, Move, Position};

use crate::analysis::{Analysis, AnalysisFormat, EngineMove, parse_analysis_line};
use crate::error::{Error, Result};
use crate::line::{GameLine, LineStep, only_black};
use crate::process::{Process, Read1};
use crate::spec::{EngineSpec, Protocol};

/// The dead stones an engine sees and the empty points it counts for nobody.
pub type DeadAndDame = (Vec<Point>, Vec<Point>);

/// Streaming analysis in progress.
struct Streaming {
    format: AnalysisFormat,
    size: BoardSize,
    to_play: Color,
    command: String,
}

/// A running GTP engine. Dropping it ends the engine (`quit`, then kill).
pub struct Engine {
    spec: EngineSpec,
    proc: Process,
    next_id: u32,
    known: Vec<String>,
    streaming: Option<Streaming>,
    /// The line on the engine's board, as far as Qipu knows it (`None`
    /// after a command that may have changed the board behind its back).
    board: Option<GameLine>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("spec", &self.spec).finish()
    }
}

/// A colour as GTP writes it.
pub fn gtp_color(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// KataGo's name of a rule set (`kata-set-rules`).
fn katago_rules(r: Rules) -> Option<&'static str> {
    Some(match r {
        Rules::Japanese => "japanese",
        Rules::Korean => "korean",
        Rules::Chinese => "chinese",
        Rules::Aga => "aga",
        Rules::NewZealand => "new-zealand",
        Rules::TrompTaylor => "tromp-taylor",
        _ => return None,
    })
}

impl Engine {
    /// Starts a GTP engine and checks that it answers (`list_commands`).
    ///
    /// # Errors
    /// The program cannot be started, exits, does not answer within the
    /// spec's time limit, or the spec is not a GTP engine.
    pub fn start(spec: &EngineSpec) -> Result<Engine> {
        if spec.protocol != Protocol::Gtp {
            return Err(Error::Unsupported(format!(
                "engine `{}` speaks KataGo's JSON analysis protocol, not GTP (use its `gtp` mode here)",
                spec.name
            )));
        }
        let proc = Process::start(spec)?;
        let mut e = Engine {
            spec: spec.clone(),
            proc,
            next_id: 1,
            known: Vec::new(),
            streaming: None,
            board: None,
        };
        let list = e.command("list_commands")?;
        e.known = list.split_whitespace().map(str::to_string).collect();
        Ok(e)
    }

    /// How the engine was started.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether the engine process is still running.
    pub fn is_alive(&mut self) -> bool {
        self.proc.is_alive()
    }

    /// The last part of what the engine wrote on standard error.
    pub fn stderr(&self) -> String {
        self.proc.stderr()
    }

    /// Whether the engine lists `command` among its commands.
    pub fn supports(&self, command: &str) -> bool {
        self.known.iter().any(|k| k == command)
    }

    /// Sends a command and returns the engine's answer (the text after `=`).
    /// A streaming analysis in progress is stopped first. A command that
    /// may change the engine's board makes the next
    /// [`Engine::replay_line`] start from an empty board.
    ///
    /// # Errors
    /// [`Error::Refused`] for a GTP failure (`?`); timeout, exit and
    /// protocol errors; a command with a line break is refused unsent.
    pub fn command(&mut self, command: &str) -> Result<String> {
        // Questions leave the board as it is; anything else may not.
        const QUESTIONS: [&str; 12] = [
            "name",
            "version",
            "protocol_version",
            "list_commands",
            "known_command",
            "final_score",
            "final_status_list",
            "showboard",
            "level",
            "lz-setoption",
            "kata-set-param",
            "time_settings",
        ];
        let word = command.split_whitespace().next().unwrap_or("");
        if !QUESTIONS.contains(&word) {
            self.board = None;
        }
        self.exec(command)
    }

    /// [`Engine::command`] for the engine's own methods, which keep
    /// [`Engine::board`] up to date themselves.
    fn exec(&mut self, command: &str) -> Result<String> {
        if command.contains(['\n', '\r']) || command.trim().is_empty() {
            return Err(Error::Unsupported(format!(
                "not a single GTP command: {command:?}"
            )));
        }
        let id = self.send(command)?;
        let deadline = Instant::now() + self.spec.timeout;
        self.streaming = None;
        self.read_response(id, command, deadline)
    }

    fn send(&mut self, command: &str) -> Result<u32> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        self.proc.write_line(&format!("{id} {command}"), command)?;
        Ok(id)
    }

    /// Reads lines until the response to `id`: skips analysis lines, blank
    /// lines and answers to other ids; then the body up to the blank line.
    fn read_response(&mut self, id: u32, command: &str, deadline: Instant) -> Result<String> {
        let mut body: Option<(bool, Vec<String>)> = None;
        loop {
            let line = match self.proc.read_line(deadline) {
                Read1::Line(l) => l,
                Read1::Timeout => return Err(self.proc.timed_out(command, self.spec.timeout)),
                Read1::Closed => return Err(self.proc.exited(command)),
            };
            match body.as_mut() {
                Some((ok, lines)) => {
                    if line.trim().is_empty() {
                        let text = lines.join("\n");
                        return if *ok {
                            Ok(text)
                        } else {
                            Err(Error::Refused {
                                engine: self.spec.name.clone(),
                                command: command.to_string(),
                                message: text,
                            })
                        };
                    }
                    lines.push(line);
                }
                None => {
                    let Some((ok, rid, text)) = response_start(&line) else {
                        continue;
                    };
                    if rid.is_some_and(|r| r != id) {
                        // An answer to an earlier command (one that timed out): skip it.
                        self.skip_to_blank(command, deadline)?;
                        continue;
                    }
                    body = Some((ok, vec![text.to_string()]));
                }
            }
        }
    }

    fn skip_to_blank(&mut self, command: &str, deadline: Instant) -> Result<()> {
        loop {
            match self.proc.read_line(deadline) {
                Read1::Line(l) if l.trim().is_empty() => return Ok(()),
                Read1::Line(_) => {}
                Read1::Timeout => return Err(self.proc.timed_out(command, self.spec.timeout)),
                Read1::Closed => return Err(self.proc.exited(command)),
            }
        }
    }

    /// Sets up an empty board of `size` with the komi and rules of `settings`.
    ///
    /// # Errors
    /// A size GTP cannot name (over 25 lines), a rectangle the engine does
    /// not play, or the engine's refusal.
    pub fn new_game(&mut self, size: BoardSize, settings: &Settings) -> Result<()> {
        self.board = None;
        if size.cols > 25 || size.rows > 25 {
            return Err(Error::Unsupported(format!(
                "GTP names points on boards of up to 25×25; this board is {size}"
            )));
        }
        if size.cols == size.rows {
            self.exec(&format!("boardsize {}", size.cols))?;
        } else if self.supports("rectangular_boardsize") {
            self.exec(&format!(
                "rectangular_boardsize {} {}",
                size.cols, size.rows
            ))?;
        } else {
            return Err(Error::Unsupported(format!(
                "engine `{}` plays square boards only; this board is {size}",
                self.spec.name
            )));
        }
        self.exec("clear_board")?;
        self.exec(&format!("komi {}", settings.komi))?;
        if self.supports("kata-set-rules")
            && let Some(r) = katago_rules(settings.rules)
        {
            self.exec(&format!("kata-set-rules {r}"))?;
        }
        self.board = Some(GameLine {
            size,
            settings: settings.clone(),
            steps: Vec::new(),
            to_play: Color::Black,
        });
        Ok(())
    }

    /// The line on the engine's board as far as Qipu knows it: what
    /// [`Engine::new_game`], [`Engine::replay_line`], [`Engine::play`],
    /// [`Engine::genmove`] and [`Engine::undo`] did; `None` after anything
    /// else that may have changed the board.
    pub fn board(&self) -> Option<&GameLine> {
        self.board.as_ref()
    }

    /// Records a step the engine took on its board.
    fn track(&mut self, step: LineStep) {
        if let Some(b) = &mut self.board {
            if let LineStep::Play(c, _) = step {
                b.to_play = c.opponent();
            }
            b.steps.push(step);
        }
    }

    /// Plays a move (or pass) on the engine's board.
    ///
    /// # Errors
    /// The engine refuses it (an illegal move for the engine), or fails.
    pub fn play(&mut self, color: Color, mv: Move, size: BoardSize) -> Result<()> {
        let v = match mv {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => sgf_go::coords::human(p, size),
        };
        match self.exec(&format!("play {} {v}", gtp_color(color))) {
            Ok(_) => {
                self.track(LineStep::Play(color, mv));
                Ok(())
            }
            // A refused move leaves the board as it was.
            Err(e @ Error::Refused { .. }) => Err(e),
            Err(e) => {
                self.board = None;
                Err(e)
            }
        }
    }

    /// Puts `stones` on the (empty) engine board: black stones only as
    /// `set_free_handicap` when `handicap` allows and the engine knows it,
    /// else one `play` per stone.
    fn place(&mut self, stones: &[(Color, Point)], size: BoardSize, handicap: bool) -> Result<()> {
        if handicap && only_black(stones) && stones.len() >= 2 && self.supports("set_free_handicap")
        {
            let list: Vec<String> = stones
                .iter()
                .map(|&(_, p)| sgf_go::coords::human(p, size))
                .collect();
            match self.exec(&format!("set_free_handicap {}", list.join(" "))) {
                Ok(_) => return Ok(()),
                Err(Error::Refused { .. }) => {
                    self.exec("clear_board")?;
                }
                Err(e) => return Err(e),
            }
        }
        // Black first, then White, as a board is read.
        for want in [Color::Black, Color::White] {
            for &(c, p) in stones.iter().filter(|s| s.0 == want) {
                let v = sgf_go::coords::human(p, size);
                self.exec(&format!("play {} {v}", gtp_color(c)))?;
            }
        }
        Ok(())
    }

    /// Brings the engine's board to the end of `line`. Only what differs
    /// from the line the engine has is sent: the moves that follow it, or
    /// a few `undo`s back to where the lines part; otherwise the board is
    /// set up anew (size, komi, rules, setup, every move).
    ///
    /// # Errors
    /// A board GTP cannot describe, or a move the engine refuses; the
    /// engine's board is then unknown and the next call starts anew.
    pub fn replay_line(&mut self, line: &GameLine) -> Result<()> {
        let r = self.replay_line_inner(line);
        if r.is_err() {
            self.board = None;
        }
        r
    }

    fn replay_line_inner(&mut self, line: &GameLine) -> Result<()> {
        /// More `undo`s than this: a fresh replay is as quick.
        const MAX_UNDO: usize = 16;
        let mut from = None;
        if let Some(b) = &self.board
            && b.size == line.size
            && b.settings == line.settings
        {
            let common = b
                .steps
                .iter()
                .zip(&line.steps)
                .take_while(|(x, y)| x == y)
                .count();
            let back = b.steps.len() - common;
            let undoable = b.steps[common..]
                .iter()
                .all(|s| matches!(s, LineStep::Play(..)));
            if back == 0 {
                from = Some(common);
            } else if back <= MAX_UNDO && undoable && self.supports("undo") {
                let mut ok = true;
                for _ in 0..back {
                    match self.undo() {
                        Ok(()) => {}
                        Err(Error::Refused { .. }) => {
                            ok = false;
                            break;
                        }
                        Err(e) => return Err(e),
                    }
                }
                if ok {
                    from = Some(common);
                }
            }
        }
        let from = match from {
            Some(k) => k,
            None => {
                self.new_game(line.size, &line.settings)?;
                0
            }
        };
        for step in &line.steps[from..] {
            match step {
                LineStep::Play(c, mv) => self.play(*c, *mv, line.size)?,
                LineStep::Place { stones, handicap } => {
                    if self.board.as_ref().is_some_and(|b| !b.steps.is_empty()) {
                        self.exec("clear_board")?;
                    }
                    self.place(stones, line.size, *handicap)?;
                    self.track(step.clone());
                }
            }
        }
        if let Some(b) = &mut self.board {
            b.to_play = line.to_play;
        }
        Ok(())
    }

    /// Replays game `game` of `doc` from the root to `node` into the
    /// engine (see [`GameLine::of`] and [`Engine::replay_line`]): board
    /// size, komi and rules of the record (KataGo), the root's setup
    /// (`set_free_handicap` for handicap stones), then every move with
    /// `play`. Setup later in the game (`AB`/`AW`/`AE`) clears the
    /// engine's board and places the position anew. Returns the position
    /// at `node`.
    ///
    /// # Errors
    /// `node` not in the game, a board GTP cannot describe, or a move the
    /// engine refuses.
    pub fn replay(&mut self, doc: &Document, game: usize, node: NodeId) -> Result<Cursor> {
        if doc.game(game).is_none() {
            return Err(Error::Unsupported(format!("there is no game {}", game + 1)));
        }
        let mut target = Cursor::new(doc, game);
        if !target.goto(doc, node) {
            return Err(Error::Unsupported("the node is not in this game".into()));
        }
        let line = GameLine::of(doc, game, node)
            .ok_or_else(|| Error::Unsupported("the node is not in this game".into()))?;
        self.replay_line(&line)?;
        Ok(target)
    }

    /// Asks the engine for a move of `color` (it is played on its board).
    ///
    /// # Errors
    /// The engine fails or answers something that is not a vertex.
    pub fn genmove(&mut self, color: Color, size: BoardSize) -> Result<EngineMove> {
        let answer = match self.exec(&format!("genmove {}", gtp_color(color))) {
            Ok(a) => a,
            Err(e) => {
                self.board = None;
                return Err(e);
            }
        };
        let mv = EngineMove::parse(&answer, size).ok_or_else(|| Error::Protocol {
            engine: self.spec.name.clone(),
            message: format!("`genmove` answered `{answer}`, not a move"),
        });
        match mv {
            Ok(m) => {
                if let Some(x) = m.to_move() {
                    self.track(LineStep::Play(color, x));
                }
            }
            Err(_) => self.board = None,
        }
        mv
    }

    /// Takes back the last move on the engine's board.
    ///
    /// # Errors
    /// The engine refuses (nothing to undo) or fails.
    pub fn undo(&mut self) -> Result<()> {
        match self.exec("undo") {
            Ok(_) => {
                if let Some(b) = &mut self.board {
                    match b.steps.pop() {
                        Some(LineStep::Play(c, _)) => b.to_play = c,
                        _ => self.board = None,
                    }
                }
                Ok(())
            }
            Err(e @ Error::Refused { .. }) => Err(e),
            Err(e) => {
                self.board = None;
                Err(e)
            }
        }
    }

    /// Sets the engine's strength, `level` from 1 (weakest) to 10: GNU Go's
    /// `level` command as it is; for Leela Zero and KataGo, a number of
    /// visits per move (`25 × 2^(level−1)`: 25 to 12,800) with
    /// `lz-setoption` or `kata-set-param`. Returns false for an engine
    /// with none of these commands.
    ///
    /// # Errors
    /// The engine refuses or fails.
    pub fn set_level(&mut self, level: u32) -> Result<bool> {
        let level = level.clamp(1, 10);
        let visits = 25u64 << (level - 1);
        if self.supports("level") {
            self.exec(&format!("level {level}"))?;
        } else if self.supports("kata-set-param") {
            self.exec(&format!("kata-set-param maxVisits {visits}"))?;
        } else if self.supports("lz-setoption") {
            self.exec(&format!("lz-setoption name visits value {visits}"))?;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// The stones the engine considers dead (`final_status_list dead`), row-major.
    ///
    /// # Errors
    /// The engine lacks the command, fails, or names points off the board.
    pub fn final_status_dead(&mut self, size: BoardSize) -> Result<Vec<Point>> {
        let answer = self.exec("final_status_list dead")?;
        let mut out = self.points(&answer, "dead", size)?;
        out.sort_by_key(|p| (p.y, p.x));
        out.dedup();
        Ok(out)
    }

    /// The empty points that count for nobody although one colour may
    /// surround them: the eyes of the groups the engine sees in seki
    /// (`final_status_list seki`, with its dead stones taken off), as
    /// Japanese and Korean rules count no territory in a seki. Empty for
    /// engines without the list. GNU Go's own `final_status_list dame`
    /// is not used: it also names points of plain territory (next to a
    /// dead stone, or where a border must be closed), which neither the
    /// rules nor KGS's counts of its games leave out.
    ///
    /// # Errors
    /// The engine fails or names points off the board.
    pub fn final_status_dame(&mut self, size: BoardSize, pos: &Position) -> Result<Vec<Point>> {
        let seki = match self.final_status_list("seki", size) {
            Ok(s) => s,
            Err(Error::Refused { .. }) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        if seki.is_empty() {
            return Ok(Vec::new());
        }
        let dead = self.final_status_dead(size)?;
        Ok(sgf_go::score::seki_points(&pos.board, &dead, &seki))
    }

    /// What a count needs of the engine, in the position it holds (see
    /// [`Engine::replay`]): the dead stones and the empty points that count
    /// for nobody ([`Engine::final_status_dead`],
    /// [`Engine::final_status_dame`]). The one call of `qipu score`, the
    /// viewer and Python.
    ///
    /// # Errors
    /// The engine fails or names points off the board.
    pub fn dead_and_dame(&mut self, size: BoardSize, pos: &Position) -> Result<DeadAndDame> {
        Ok((
            self.final_status_dead(size)?,
            self.final_status_dame(size, pos)?,
        ))
    }

    /// The points of `final_status_list KIND` (`alive`, `dead`, `seki`;
    /// GNU Go also knows `dame`, `black_territory`, `white_territory`),
    /// row-major.
    ///
    /// # Errors
    /// The engine refuses (an unknown kind), fails, or names points off the board.
    pub fn final_status_list(&mut self, kind: &str, size: BoardSize) -> Result<Vec<Point>> {
        if kind.contains(char::is_whitespace) || kind.is_empty() {
            return Err(Error::Unsupported(format!("not a status: {kind:?}")));
        }
        let answer = self.exec(&format!("final_status_list {kind}"))?;
        let mut out = self.points(&answer, kind, size)?;
        out.sort_by_key(|p| (p.y, p.x));
        out.dedup();
        Ok(out)
    }

    fn points(&self, answer: &str, kind: &str, size: BoardSize) -> Result<Vec<Point>> {
        answer
            .split_whitespace()
            .map(|t| match EngineMove::parse(t, size) {
                Some(EngineMove::Play(p)) => Ok(p),
                _ => Err(Error::Protocol {
                    engine: self.spec.name.clone(),
                    message: format!("`final_status_list {kind}` named `{t}`, not a point"),
                }),
            })
            .collect()
    }

    /// The engine's own count (`final_score`), e.g. `B+3.5`.
    ///
    /// # Errors
    /// The engine lacks the command or fails.
    pub fn final_score(&mut self) -> Result<String> {
        self.exec("final_score")
    }

    /// The streaming analysis the engine offers: `kata-analyze` before
    /// `lz-analyze`; `None` for engines without one (GNU Go).
    pub fn analysis_format(&self) -> Option<AnalysisFormat> {
        if self.supports("kata-analyze") {
            Some(AnalysisFormat::KataGo)
        } else if self.supports("lz-analyze") {
            Some(AnalysisFormat::LeelaZero)
        } else {
            None
        }
    }

    /// Starts streaming analysis of the engine's position with `to_play`
    /// to move, an update every `interval` (KataGo: with ownership). The
    /// next command, or [`Engine::stop_analysis`], stops it.
    ///
    /// # Errors
    /// The engine has no analysis command, refuses, or fails.
    pub fn start_analysis(
        &mut self,
        to_play: Color,
        size: BoardSize,
        interval: Duration,
    ) -> Result<()> {
        let Some(format) = self.analysis_format() else {
            return Err(Error::Unsupported(format!(
                "engine `{}` has no analysis command (lz-analyze or kata-analyze)",
                self.spec.name
            )));
        };
        let centis = (interval.as_millis() / 10).clamp(1, 100_000);
        let mut command = format!("{} {} {centis}", format.command(), gtp_color(to_play));
        if format == AnalysisFormat::KataGo {
            command.push_str(" ownership true");
        }
        let id = self.send(&command)?;
        let deadline = Instant::now() + self.spec.timeout;
        // The answer starts (`=id`) and then streams lines until stopped.
        loop {
            let line = match self.proc.read_line(deadline) {
                Read1::Line(l) => l,
                Read1::Timeout => return Err(self.proc.timed_out(&command, self.spec.timeout)),
                Read1::Closed => return Err(self.proc.exited(&command)),
            };
            let Some((ok, rid, text)) = response_start(&line) else {
                continue;
            };
            if rid.is_some_and(|r| r != id) {
                self.skip_to_blank(&command, deadline)?;
                continue;
            }
            if !ok {
                let mut message = text.to_string();
                loop {
                    match self.proc.read_line(deadline) {
                        Read1::Line(l) if l.trim().is_empty() => break,
                        Read1::Line(l) => {
                            message.push('\n');
                            message.push_str(&l);
                        }
                        Read1::Timeout => {
                            return Err(self.proc.timed_out(&command, self.spec.timeout));
                        }
                        Read1::Closed => return Err(self.proc.exited(&command)),
                    }
                }
                return Err(Error::Refused {
                    engine: self.spec.name.clone(),
                    command,
                    message,
                });
            }
            self.streaming = Some(Streaming {
                format,
                size,
                to_play,
                command,
            });
            return Ok(());
        }
    }

    /// Whether a streaming analysis is running.
    pub fn is_analysing(&self) -> bool {
        self.streaming.is_some()
    }

    /// The next update of the streaming analysis, waiting up to `wait`.
    /// `Ok(None)` when none came in that time, or when the stream ended
    /// ([`Engine::is_analysing`] then says false).
    ///
    /// # Errors
    /// No analysis running, or the engine died.
    pub fn next_analysis(&mut self, wait: Duration) -> Result<Option<Analysis>> {
        let Some(s) = self.streaming.as_ref() else {
            return Err(Error::Unsupported("no analysis is running".into()));
        };
        let (format, size, to_play) = (s.format, s.size, s.to_play);
        let deadline = Instant::now() + wait;
        loop {
            match self.proc.read_line(deadline) {
                Read1::Line(l) if l.trim().is_empty() => {
                    self.streaming = None;
                    return Ok(None);
                }
                Read1::Line(l) => {
                    if let Some(a) = parse_analysis_line(&l, format, size, to_play) {
                        return Ok(Some(a));
                    }
                }
                Read1::Timeout => return Ok(None),
                Read1::Closed => {
                    let command = self.streaming.take().map(|s| s.command).unwrap_or_default();
                    return Err(self.proc.exited(&command));
                }
            }
        }
    }

    /// Stops a streaming analysis (sends `protocol_version`, which ends it).
    ///
    /// # Errors
    /// The engine died.
    pub fn stop_analysis(&mut self) -> Result<()> {
        if self.streaming.is_some() {
            self.exec("protocol_version")?;
        }
        Ok(())
    }

    /// Analyses the engine's position with `to_play` to move until the
    /// search has `visits` visits or `max_time` has passed, and returns the
    /// last update (one without candidates when the engine said nothing).
    ///
    /// # Errors
    /// No analysis command, or the engine failed.
    pub fn analyze(
        &mut self,
        to_play: Color,
        size: BoardSize,
        visits: u64,
        max_time: Duration,
    ) -> Result<Analysis> {
        self.start_analysis(to_play, size, Duration::from_millis(100))?;
        let end = Instant::now() + max_time;
        let mut last: Option<Analysis> = None;
        while self.is_analysing() {
            let now = Instant::now();
            if now >= end {
                break;
            }
            if let Some(a) = self.next_analysis(end - now)? {
                let done = a.visits() >= visits;
                last = Some(a);
                if done {
                    break;
                }
            }
        }
        self.stop_analysis()?;
        // Silence is an answer: Leela Zero reports nothing once both players passed.
        Ok(last.unwrap_or_else(|| Analysis::empty(to_play)))
    }

    /// Ends the engine: `quit`, then a kill if it does not go.
    pub fn quit(mut self) {
        self.proc.shutdown(Some("quit"));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.proc.shutdown(Some("quit"));
    }
}

/// `=id text` or `?id text`: (success, id, text).
fn response_start(line: &str) -> Option<(bool, Option<u32>, &str)> {
    let ok = match line.as_bytes().first()? {
        b'=' => true,
        b'?' => false,
        _ => return None,
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let id = rest[..digits].parse().ok();
    Some((ok, id, rest[digits..].trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_lines() {
        assert_eq!(response_start("=12 D4"), Some((true, Some(12), "D4")));
        assert_eq!(response_start("= "), Some((true, None, "")));
        assert_eq!(
            response_start("?3 illegal move"),
            Some((false, Some(3), "illegal move"))
        );
        assert_eq!(response_start("info move D4"), None);
        assert_eq!(response_start(""), None);
    }
}
