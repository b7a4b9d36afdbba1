#!/usr/bin/env python3
"""A scripted stand-in for KataGo's JSON analysis engine (`katago analysis`),
for Qipu's tests. It speaks the protocol of KataGo's docs/Analysis_Engine.md:
one JSON query per line on standard input, answers one JSON object per line
on standard output, asynchronously (a reader thread takes queries while a
worker answers them), in an order of its own.

Queries are checked as KataGo checks them (required fields, board size,
moves, komi an integer or half-integer in [-150, 150], analyzeTurns within
the game, rules known): a bad field is answered with
{"error": ..., "field": ..., "id": ...}; a line that is not JSON with
{"error": ...}. Actions: query_version (echoed with version and git_hash),
clear_cache (echoed), terminate (echoed; the turns of the query not yet
analysed are answered {"id", "isDuringSearch": false, "noResults": true,
"turnNumber"}, the turn under way with the visits done so far).

The evaluation is a fixed function of the position, so tests can predict
it: the board is replayed (captures included) up to the turn; Black's win
rate is 0.5 + 0.02 * (black stones - white stones), clamped to
[0.01, 0.99]; Black's score lead is (black stones - white stones) - komi;
the candidates are the first three empty points, row by row from the top
left (A19 on 19x19), with 60, 30 and 10 percent of the visits and a
principal variation of that move and the next empty point; ownership (when
asked) is +1 on black stones, -1 on white stones and 0 elsewhere, row-major
from the top left. Values are from Black's point of view when
reportAnalysisWinratesAs is BLACK (overrideSettings of the query, else
--report-as), from the player to move's with SIDETOMOVE, as KataGo does.

Options:
  --order given|reverse   turns of a query answered in the order asked, or
                          last first (default reverse: out of order)
  --during-search         a partial answer (isDuringSearch true, half the
                          visits) before each final one
  --delay SECONDS         time spent on each turn (default 0)
  --crash-after N         exit with status 3 after N final answers, saying
                          so on standard error
  --report-as BLACK|WHITE|SIDETOMOVE  the config's reportAnalysisWinratesAs
                          (default SIDETOMOVE, so a query must ask for BLACK)
  --visits N              maxVisits when the query has none (default 100)
  --log FILE              append every line received to FILE
"""

import json
import queue
import sys
import threading
import time

COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
RULES = {
    "tromp-taylor", "chinese", "chinese-ogs", "chinese-kgs", "japanese",
    "korean", "stone-scoring", "aga", "bga", "new-zealand", "aga-button",
}

args = {"order": "reverse", "during": False, "delay": 0.0, "crash_after": None,
        "report_as": "SIDETOMOVE", "visits": 100, "log": None}
argv = sys.argv[1:]
i = 0
while i < len(argv):
    a = argv[i]
    if a == "--order":
        args["order"] = argv[i + 1]; i += 2
    elif a == "--during-search":
        args["during"] = True; i += 1
    elif a == "--delay":
        args["delay"] = float(argv[i + 1]); i += 2
    elif a == "--crash-after":
        args["crash_after"] = int(argv[i + 1]); i += 2
    elif a == "--report-as":
        args["report_as"] = argv[i + 1]; i += 2
    elif a == "--visits":
        args["visits"] = int(argv[i + 1]); i += 2
    elif a == "--log":
        args["log"] = argv[i + 1]; i += 2
    else:
        sys.stderr.write(f"unknown option {a}\n")
        sys.exit(2)

out_lock = threading.Lock()
terminated = set()  # (id, turn) pairs, or (id, None) for every turn
term_lock = threading.Lock()
finals = 0


def emit(obj):
    with out_lock:
        sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        sys.stdout.flush()


class BadField(Exception):
    def __init__(self, field, message):
        super().__init__(message)
        self.field = field
        self.message = message


def parse_loc(text, xs, ys, field):
    t = str(text).strip().upper()
    if t == "PASS":
        return None
    if len(t) >= 2 and t[0] in COLS and t[1:].isdigit():
        x = COLS.index(t[0])
        y = ys - int(t[1:])
        if 0 <= x < xs and 0 <= y < ys:
            return (x, y)
    raise BadField(field, f"Could not parse board location: {text}")


def loc_name(p, ys):
    return "pass" if p is None else f"{COLS[p[0]]}{ys - p[1]}"


class Board:
    def __init__(self, xs, ys):
        self.xs, self.ys = xs, ys
        self.stones = {}

    def neighbours(self, p):
        x, y = p
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= q[0] < self.xs and 0 <= q[1] < self.ys:
                yield q

    def chain(self, p):
        colour = self.stones[p]
        seen, todo, libs = {p}, [p], 0
        while todo:
            q = todo.pop()
            for r in self.neighbours(q):
                c = self.stones.get(r)
                if c is None:
                    libs += 1
                elif c == colour and r not in seen:
                    seen.add(r)
                    todo.append(r)
        return seen, libs

    def play(self, colour, p):
        if p is None:
            return True
        if p in self.stones:
            return False
        self.stones[p] = colour
        for q in self.neighbours(p):
            if self.stones.get(q) not in (None, colour):
                group, libs = self.chain(q)
                if libs == 0:
                    for r in group:
                        del self.stones[r]
        if self.chain(p)[1] == 0:
            del self.stones[p]
            return False
        return True


def check(q):
    """The query's settings, or BadField."""
    for f in ("moves", "rules", "boardXSize", "boardYSize"):
        if f not in q:
            raise BadField(f, f"{f} field was not provided")
    xs, ys = q["boardXSize"], q["boardYSize"]
    for f, v in (("boardXSize", xs), ("boardYSize", ys)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 2 or v > 19:
            raise BadField(f, "Board size must be an integer from 2 to 19")
    rules = q["rules"]
    if not isinstance(rules, str) or rules.lower() not in RULES:
        raise BadField("rules", f"Could not parse rules: {rules}")
    komi = q.get("komi", 7.5)
    if not isinstance(komi, (int, float)) or komi * 2 != int(komi * 2) or abs(komi) > 150:
        raise BadField("komi", "komi must be an integer or half-integer in [-150, 150]")
    board = Board(xs, ys)
    for entry in q.get("initialStones", []):
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] in ("B", "W")):
            raise BadField("initialStones", "Expected [player, location] pairs")
        board.stones[parse_loc(entry[1], xs, ys, "initialStones")] = entry[0]
    moves = []
    for entry in q["moves"]:
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] in ("B", "W")):
            raise BadField("moves", "Expected [player, location] pairs")
        moves.append((entry[0], parse_loc(entry[1], xs, ys, "moves")))
    turns = q.get("analyzeTurns", [len(moves)])
    if not isinstance(turns, list) or any(
        not isinstance(t, int) or t < 0 or t > len(moves) for t in turns
    ):
        raise BadField("analyzeTurns", "Invalid analyze turn (must be from 0 to the number of moves)")
    visits = q.get("maxVisits", args["visits"])
    if not isinstance(visits, int) or visits < 1:
        raise BadField("maxVisits", "Must be a positive integer")
    first = q.get("initialPlayer") or (moves[0][0] if moves else "B")
    report = q.get("overrideSettings", {}).get("reportAnalysisWinratesAs", args["report_as"])
    return {
        "xs": xs, "ys": ys, "komi": komi, "stones": dict(board.stones),
        "moves": moves, "turns": turns, "visits": visits, "first": first,
        "ownership": bool(q.get("includeOwnership", False)), "report": report,
    }


def position(s, turn):
    board = Board(s["xs"], s["ys"])
    board.stones = dict(s["stones"])
    for colour, p in s["moves"][:turn]:
        board.play(colour, p)
    if turn < len(s["moves"]):
        to_play = s["moves"][turn][0]
    elif s["moves"]:
        to_play = "W" if s["moves"][-1][0] == "B" else "B"
    else:
        to_play = s["first"]
    return board, to_play


def answer(qid, s, turn, visits, during):
    board, to_play = position(s, turn)
    b = sum(1 for c in board.stones.values() if c == "B")
    w = len(board.stones) - b
    win = min(0.99, max(0.01, 0.5 + 0.02 * (b - w)))
    lead = (b - w) - s["komi"]
    flip = s["report"] == "WHITE" or (s["report"] == "SIDETOMOVE" and to_play == "W")
    if flip:
        win, lead = 1.0 - win, -lead
    empty = [(x, y) for y in range(s["ys"]) for x in range(s["xs"]) if (x, y) not in board.stones]
    infos = []
    for k, share in enumerate((0.6, 0.3, 0.1)):
        if k >= len(empty):
            break
        mv = empty[k]
        nxt = empty[k + 1] if k + 1 < len(empty) else None
        pv = [loc_name(mv, s["ys"])] + ([loc_name(nxt, s["ys"])] if nxt else [])
        wr = min(1.0, max(0.0, win - 0.01 * k))
        infos.append({
            "move": loc_name(mv, s["ys"]), "visits": int(visits * share), "winrate": wr,
            "scoreLead": lead - 0.5 * k, "scoreMean": lead - 0.5 * k, "scoreSelfplay": lead,
            "scoreStdev": 10.0, "prior": share, "utility": 0.0, "lcb": wr - 0.02,
            "utilityLcb": 0.0, "order": k, "pv": pv,
        })
    out = {
        "id": qid, "isDuringSearch": during, "turnNumber": turn, "moveInfos": infos,
        "rootInfo": {
            "winrate": win, "scoreLead": lead, "scoreSelfplay": lead, "utility": 0.0,
            "visits": visits, "currentPlayer": to_play,
            "thisHash": f"{turn:032X}", "symHash": f"{turn:032X}",
        },
    }
    if s["ownership"]:
        own = []
        for y in range(s["ys"]):
            for x in range(s["xs"]):
                c = board.stones.get((x, y))
                v = 1.0 if c == "B" else -1.0 if c == "W" else 0.0
                own.append(-v if flip else v)
        out["ownership"] = own
    return out


def is_terminated(qid, turn):
    with term_lock:
        return (qid, None) in terminated or (qid, turn) in terminated


def worker(jobs):
    global finals
    while True:
        job = jobs.get()
        if job is None:
            return
        qid, s = job
        turns = list(s["turns"])
        if args["order"] == "reverse":
            turns.reverse()
        for turn in turns:
            if is_terminated(qid, turn):
                emit({"id": qid, "isDuringSearch": False, "noResults": True, "turnNumber": turn})
                continue
            visits = s["visits"]
            if args["during"]:
                emit(answer(qid, s, turn, max(1, visits // 2), True))
            # The search, cut short by a terminate.
            done = visits
            steps = 10
            for k in range(steps):
                time.sleep(args["delay"] / steps)
                if is_terminated(qid, turn):
                    done = max(1, visits * (k + 1) // steps)
                    break
            emit(answer(qid, s, turn, done, False))
            finals += 1
            if args["crash_after"] is not None and finals >= args["crash_after"]:
                sys.stderr.write(f"standin: crashing after {finals} answers as asked\n")
                sys.stderr.flush()
                sys.stdout.flush()
                import os
                os._exit(3)


def main():
    jobs = queue.Queue()
    t = threading.Thread(target=worker, args=(jobs,), daemon=True)
    t.start()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if args["log"]:
            with open(args["log"], "a") as f:
                f.write(line + "\n")
        try:
            q = json.loads(line)
        except ValueError:
            emit({"error": "Could not parse input line as json request: " + line})
            continue
        if not isinstance(q, dict):
            emit({"error": "Request line was valid json but was not an object"})
            continue
        if "id" not in q or not isinstance(q["id"], str):
            emit({"error": "Request did not specify an id or it was not a string"})
            continue
        action = q.get("action")
        if action == "query_version":
            emit(dict(q, version="1.15.3", git_hash="<omitted>"))
            continue
        if action == "clear_cache":
            emit(q)
            continue
        if action == "terminate":
            target = q.get("terminateId")
            if not isinstance(target, str):
                emit({"error": "terminateId was not a string", "field": "terminateId", "id": q["id"]})
                continue
            with term_lock:
                for turn in q.get("turnNumbers") or [None]:
                    terminated.add((target, turn))
            emit(q)
            continue
        if action is not None:
            emit({"error": f"Unknown action: {action}", "field": "action", "id": q["id"]})
            continue
        try:
            s = check(q)
        except BadField as e:
            emit({"error": e.message, "field": e.field, "id": q["id"]})
            continue
        jobs.put((q["id"], s))
    # Standard input closed: finish what is queued, then exit.
    jobs.put(None)
    t.join()


if __name__ == "__main__":
    main()
