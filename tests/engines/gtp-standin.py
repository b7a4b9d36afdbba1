#!/usr/bin/env python3
"""A scripted stand-in Go engine that answers GTP deterministically, for
Qipu's tests of engine play, streaming analysis and counting.

It keeps a real board (captures, simple ko is not checked), plays the first
free point of --moves (then pass) or, without --moves, the first free point
row by row from the top left; streams `lz-analyze` (--flavor lz) or
`kata-analyze` (--flavor kata) lines in the engines' documented formats
until the next command arrives; answers `final_status_list dead` with the
stones of --dead that are on the board.

Options:
  --flavor plain|lz|kata   which analysis command it has (default plain: none)
  --moves D4,Q16,...       the moves genmove plays, in order (then pass)
  --dead C3,D4,...         the points final_status_list dead names
  --crash-on WORD          exit (status 3) on receiving the command WORD
  --log FILE               append every command received to FILE
  --name NAME              what `name` answers (default standin)
"""

import os
import select
import sys

COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Board:
    def __init__(self, size):
        self.size = size
        self.stones = {}  # (x, y) -> "B" / "W"; y = 0 is the top row

    def copy(self):
        b = Board(self.size)
        b.stones = dict(self.stones)
        return b

    def neighbours(self, p):
        x, y = p
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= q[0] < self.size and 0 <= q[1] < self.size:
                yield q

    def chain(self, p):
        colour = self.stones[p]
        seen, todo, libs = {p}, [p], set()
        while todo:
            q = todo.pop()
            for r in self.neighbours(q):
                c = self.stones.get(r)
                if c is None:
                    libs.add(r)
                elif c == colour and r not in seen:
                    seen.add(r)
                    todo.append(r)
        return seen, libs

    def play(self, colour, p):
        """Plays; False (board unchanged) for an occupied point or a suicide."""
        if p in self.stones:
            return False
        before = dict(self.stones)
        self.stones[p] = colour
        for q in self.neighbours(p):
            if self.stones.get(q) not in (None, colour):
                group, libs = self.chain(q)
                if not libs:
                    for r in group:
                        del self.stones[r]
        if not self.chain(p)[1]:
            self.stones = before
            return False
        return True


def vertex(p, size):
    return f"{COLS[p[0]]}{size - p[1]}"


def parse_vertex(t, size):
    t = t.strip().upper()
    if t == "PASS":
        return "pass"
    try:
        x = COLS.index(t[0])
        y = size - int(t[1:])
    except (ValueError, IndexError):
        return None
    if 0 <= x < size and 0 <= y < size:
        return (x, y)
    return None


def colour_of(t):
    t = t.lower()
    if t in ("b", "black"):
        return "B"
    if t in ("w", "white"):
        return "W"
    return None


class Engine:
    def __init__(self, opts):
        self.opts = opts
        self.size = 19
        self.board = Board(19)
        self.history = []
        self.komi = 0.0
        self.level = None
        self.to_play = "B"
        self.out = sys.stdout

    def commands(self):
        c = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "boardsize", "clear_board", "komi", "play", "genmove", "undo", "level",
             "set_free_handicap", "final_status_list"]
        if self.opts["flavor"] == "lz":
            c.append("lz-analyze")
        if self.opts["flavor"] == "kata":
            c.append("kata-analyze")
        return c

    def preferred(self):
        """Points in the order this engine likes them."""
        pts = [parse_vertex(v, self.size) for v in self.opts["moves"]]
        pts = [p for p in pts if isinstance(p, tuple)]
        if not self.opts["moves"]:
            pts = [(x, y) for y in range(self.size) for x in range(self.size)]
        return pts

    def legal(self, colour, p):
        return self.board.copy().play(colour, p)

    def candidates(self, colour, n):
        return [p for p in self.preferred() if self.legal(colour, p)][:n]

    def black_winrate(self):
        # A number that changes with the position, so graphs have a shape.
        return 0.40 + 0.02 * (len(self.board.stones) % 10)

    def analysis_line(self, colour, k, flavor, ownership):
        cands = self.candidates(colour, 3)
        bw = self.black_winrate()
        wr = bw if colour == "B" else 1 - bw
        parts = []
        for i, p in enumerate(cands):
            visits = 10 * k * (3 - i)
            w = max(0.0, wr - 0.05 * i)
            pv = [vertex(p, self.size)] + [vertex(q, self.size) for q in cands if q != p][:2]
            if flavor == "lz":
                parts.append(f"info move {vertex(p, self.size)} visits {visits} winrate {round(w * 10000)} "
                             f"prior {1000 - 100 * i} lcb {max(0, round(w * 10000) - 50)} order {i} pv {' '.join(pv)}")
            else:
                lead = (bw - 0.5) * 20 * (1 if colour == "B" else -1) - i
                parts.append(f"info move {vertex(p, self.size)} visits {visits} utility 0.1 winrate {w:.4f} "
                             f"scoreMean {lead:.2f} scoreLead {lead:.2f} prior {0.1 - 0.01 * i:.3f} "
                             f"lcb {w - 0.01:.4f} order {i} pv {' '.join(pv)}")
        line = " ".join(parts)
        if flavor == "kata" and ownership:
            sign = 1 if colour == "B" else -1
            own = []
            for y in range(self.size):
                for x in range(self.size):
                    c = self.board.stones.get((x, y))
                    own.append(str(sign * (1 if c == "B" else -1 if c == "W" else 0)))
            line += " ownership " + " ".join(own)
        return line

    def run_command(self, cid, words, reader):
        cmd, args = words[0], words[1:]
        ok = lambda text="": self.reply(cid, True, text)
        fail = lambda text: self.reply(cid, False, text)
        if cmd == self.opts["crash_on"]:
            sys.stderr.write(f"standin: crashing on purpose at `{cmd}`\n")
            sys.stderr.flush()
            os._exit(3)
        if cmd == "protocol_version":
            return ok("2")
        if cmd == "name":
            return ok(self.opts["name"])
        if cmd == "version":
            return ok("1.0")
        if cmd == "known_command":
            return ok("true" if args and args[0] in self.commands() else "false")
        if cmd == "list_commands":
            return ok("\n".join(self.commands()))
        if cmd == "quit":
            ok()
            sys.exit(0)
        if cmd == "boardsize":
            try:
                n = int(args[0])
            except (ValueError, IndexError):
                return fail("syntax error")
            if not 2 <= n <= 25:
                return fail("unacceptable size")
            self.size = n
            self.board = Board(n)
            self.history = []
            return ok()
        if cmd == "clear_board":
            self.board = Board(self.size)
            self.history = []
            self.to_play = "B"
            return ok()
        if cmd == "komi":
            try:
                self.komi = float(args[0])
            except (ValueError, IndexError):
                return fail("syntax error")
            return ok()
        if cmd == "level":
            self.level = args[0] if args else None
            return ok()
        if cmd == "play":
            c = colour_of(args[0]) if args else None
            p = parse_vertex(args[1], self.size) if len(args) > 1 else None
            if c is None or p is None:
                return fail("syntax error")
            if p != "pass":
                before = self.board.copy()
                if not self.board.play(c, p):
                    return fail("illegal move")
                self.history.append(before)
            else:
                self.history.append(self.board.copy())
            self.to_play = "W" if c == "B" else "B"
            return ok()
        if cmd == "set_free_handicap":
            for t in args:
                p = parse_vertex(t, self.size)
                if not isinstance(p, tuple):
                    return fail("bad vertex")
                self.board.stones[p] = "B"
            self.to_play = "W"
            return ok()
        if cmd == "undo":
            if not self.history:
                return fail("cannot undo")
            self.board = self.history.pop()
            return ok()
        if cmd == "genmove":
            c = colour_of(args[0]) if args else None
            if c is None:
                return fail("syntax error")
            cands = self.candidates(c, 1)
            self.history.append(self.board.copy())
            self.to_play = "W" if c == "B" else "B"
            if not cands:
                return ok("pass")
            self.board.play(c, cands[0])
            return ok(vertex(cands[0], self.size))
        if cmd == "final_status_list":
            if not args:
                return fail("syntax error")
            if args[0] == "dead":
                pts = [parse_vertex(v, self.size) for v in self.opts["dead"]]
                return ok(" ".join(vertex(p, self.size) for p in pts if p in self.board.stones))
            if args[0] in ("alive", "seki", "dame"):
                return ok("")
            return fail("syntax error")
        if cmd in ("lz-analyze", "kata-analyze") and cmd in self.commands():
            return self.analyse(cid, cmd, args, reader)
        return fail("unknown command")

    def reply(self, cid, good, text):
        self.out.write(("=" if good else "?") + (cid or "") + (" " + text if text else "") + "\n\n")
        self.out.flush()

    def analyse(self, cid, cmd, args, reader):
        colour = self.to_play
        interval = 100
        ownership = False
        rest = list(args)
        if rest and colour_of(rest[0]):
            colour = colour_of(rest.pop(0))
        if rest and rest[0].isdigit():
            interval = int(rest.pop(0))
        if "ownership" in rest:
            i = rest.index("ownership")
            ownership = i + 1 < len(rest) and rest[i + 1] == "true"
        self.out.write("=" + (cid or "") + "\n")
        self.out.flush()
        k = 0
        flavor = "lz" if cmd == "lz-analyze" else "kata"
        # Lines until the next command arrives; that command ends the answer.
        while not reader.ready(max(interval, 1) / 100.0):
            k += 1
            self.out.write(self.analysis_line(colour, k, flavor, ownership) + "\n")
            self.out.flush()
        self.out.write("\n")
        self.out.flush()


class Reader:
    """Lines of standard input, with a way to wait for the next one."""

    def __init__(self):
        self.buf = b""
        self.eof = False

    def ready(self, timeout):
        if b"\n" in self.buf or self.eof:
            return True
        r, _, _ = select.select([0], [], [], timeout)
        if r:
            chunk = os.read(0, 65536)
            if not chunk:
                self.eof = True
            self.buf += chunk
            return b"\n" in self.buf or self.eof
        return False

    def line(self):
        while b"\n" not in self.buf and not self.eof:
            self.ready(None)
        if b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            return line.decode("utf-8", "replace")
        if self.buf:
            line, self.buf = self.buf, b""
            return line.decode("utf-8", "replace")
        return None


def main():
    opts = {"flavor": "plain", "moves": [], "dead": [], "crash_on": None, "log": None, "name": "standin"}
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        v = argv.pop(0) if argv else ""
        if a == "--flavor":
            opts["flavor"] = v
        elif a == "--moves":
            opts["moves"] = [m for m in v.split(",") if m]
        elif a == "--dead":
            opts["dead"] = [m for m in v.split(",") if m]
        elif a == "--crash-on":
            opts["crash_on"] = v
        elif a == "--log":
            opts["log"] = v
        elif a == "--name":
            opts["name"] = v
        else:
            sys.exit(f"unknown option {a}")
    engine = Engine(opts)
    reader = Reader()
    while True:
        line = reader.line()
        if line is None:
            return
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if opts["log"]:
            with open(opts["log"], "a") as f:
                f.write(line + "\n")
        words = line.split()
        cid = None
        if words[0].isdigit():
            cid = words.pop(0)
            if not words:
                continue
        engine.run_command(cid, words, reader)


if __name__ == "__main__":
    main()
