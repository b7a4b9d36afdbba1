#!/usr/bin/env python3
"""`qipu dataset` against an sgfmill + NumPy pipeline computing the same planes, in one run.

    python crates/sgf-dataset/bench/bench_vs_sgfmill.py [--qipu PATH] [--corpus DIR] [--games N]

Both sides get the same games (the first N of each collection of the
corpus's ``real/``, cut out with the ``*.index.tsv`` files beside them,
games with stones set up after the root left out: sgfmill's
``get_setup_and_moves`` does not play them) written into one collection
file, and both write the default 18 planes (8 moves of history of the side
to move's and the opponent's stones, Black to move, ones), bit-packed with
``numpy.packbits``, with the next move as the label, in ``.npz`` shards of
16,384 positions to disk, in game order. The sgfmill side is what a dataset
builder writes by hand today; it runs on one core, ``qipu dataset`` on all.

Printed: positions/s of each and the ratio, peak memory of qipu, and a check
that both wrote the same planes and moves position by position.
Needs sgfmill and numpy next to the interpreter (the test venv has both).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

try:
    from sgfmill import sgf, sgf_moves
except ImportError:  # pragma: no cover
    sys.exit("this benchmark needs sgfmill: pip install sgfmill")

SHARD = 16384
HISTORY = 8


def sample(corpus: Path, per_file: int) -> list[bytes]:
    games = []
    for c in sorted((corpus / "real").rglob("*.sgf")):
        data = c.read_bytes()
        index = Path(str(c) + ".index.tsv")
        k = 0
        for line in index.read_text().splitlines():
            if line.startswith("#") or not line.strip():
                continue
            off, length = (int(x) for x in line.split("\t")[:2])
            g = data[off : off + length]
            try:
                game = sgf.Sgf_game.from_bytes(g)
                if game.get_size() != 19:
                    continue
                board, plays = sgf_moves.get_setup_and_moves(game)
                for colour, move in plays:
                    if move is not None:
                        board.play(*move, colour)
            except Exception:
                # sgfmill refuses the game (a move on a stone): not compared.
                continue
            games.append(g)
            k += 1
            if k >= per_file:
                break
    return games


def sgfmill_pipeline(games: list[bytes], out: Path) -> int:
    """The planes by hand: replay with sgfmill, history in NumPy, packbits, savez."""
    out.mkdir(parents=True, exist_ok=True)
    n = 19 * 19
    planes, policy, game_no, move_no, shard, total = [], [], [], [], 0, 0

    def flush():
        nonlocal planes, policy, game_no, move_no, shard
        if planes:
            np.savez(out / f"train-{shard:05d}.npz", planes=np.stack(planes), policy=np.array(policy, np.uint16),
                     game=np.array(game_no, np.uint32), move_number=np.array(move_no, np.uint32))
            shard += 1
            planes, policy, game_no, move_no = [], [], [], []

    ones = np.packbits(np.ones(n, np.uint8))
    zeros = np.zeros_like(ones)
    for gi, g in enumerate(games):
        game = sgf.Sgf_game.from_bytes(g)
        board, plays = sgf_moves.get_setup_and_moves(game)
        moves = [(c, m) for c, m in plays]
        if not moves:
            continue

        def stones(b):
            a = np.zeros((2, 19, 19), np.uint8)
            for colour, (row, col) in b.list_occupied_points():
                a[0 if colour == "b" else 1, 18 - row, col] = 1
            return a.reshape(2, n)

        hist = [stones(board)]
        for k, (colour, move) in enumerate(moves):
            me = 0 if colour == "b" else 1
            p = np.zeros((2 * HISTORY + 2, (n + 7) // 8), np.uint8)
            for t, s in enumerate(hist[:HISTORY]):
                p[t] = np.packbits(s[me])
                p[HISTORY + t] = np.packbits(s[1 - me])
            p[2 * HISTORY] = ones if colour == "b" else zeros
            p[2 * HISTORY + 1] = ones
            planes.append(p)
            game_no.append(gi + 1)
            move_no.append(k + 1)
            if move is None:
                policy.append(n)
            else:
                row, col = move
                policy.append((18 - row) * 19 + col)
                board.play(row, col, colour)
            hist.insert(0, stones(board))
            total += 1
            if len(planes) >= SHARD:
                flush()
    flush()
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--qipu", default=shutil.which("qipu") or "target/release/qipu")
    ap.add_argument("--corpus", default=os.environ.get("QIPU_CORPUS", "../shared/corpus"))
    ap.add_argument("--games", type=int, default=400, help="games taken from each collection")
    a = ap.parse_args()
    games = sample(Path(a.corpus), a.games)
    tmp = Path(tempfile.mkdtemp(prefix="qipu-dataset-bench-"))
    try:
        src = tmp / "games.sgf"
        src.write_bytes(b"\n".join(games))
        t = time.perf_counter()
        n_mill = sgfmill_pipeline(games, tmp / "sgfmill")
        s_mill = time.perf_counter() - t
        t = time.perf_counter()
        r = subprocess.run(
            [a.qipu, "dataset", str(src), "-o", str(tmp / "qipu"), "--keep-duplicates",
             "--illegal", "cut", "--shuffle-buffer", "0", "--json", "-q"],
            capture_output=True, text=True, check=True)
        s_qipu = time.perf_counter() - t
        summary = json.loads(r.stdout.splitlines()[-1])
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        n_qipu = summary["positions"]
        print(f"{len(games)} games, 18 planes bit-packed, .npz shards of {SHARD} to disk")
        print(f"sgfmill + NumPy (1 core): {n_mill} positions in {s_mill:.2f} s = {n_mill / s_mill:,.0f} positions/s")
        print(f"qipu dataset ({os.cpu_count()} cores): {n_qipu} positions in {s_qipu:.2f} s = "
              f"{n_qipu / s_qipu:,.0f} positions/s, peak {peak:.0f} MB")
        print(f"ratio: {(n_qipu / s_qipu) / (n_mill / s_mill):.1f}x")
        # The same planes and moves, position by position, matched by game
        # and move number. qipu stops a game at a move the rules forbid (a
        # ko retake, a suicide) that sgfmill plays: those moves are counted.
        ids = {}
        for line in (tmp / "qipu" / "games.jsonl").read_text().splitlines():
            row = json.loads(line)
            ids[row["id"]] = row["game"]

        def table(d, qipu_ids):
            out = {}
            for shard in sorted(d.glob("*.npz")):
                z = np.load(shard)
                # Each array read once (an NpzFile reads it at every access).
                planes, policy, game, number = z["planes"], z["policy"], z["game"], z["move_number"]
                for i in range(len(policy)):
                    g = int(game[i])
                    key = (ids[g] if qipu_ids else g, int(number[i]))
                    out[key] = (planes[i].tobytes(), int(policy[i]))
            return out

        m, q = table(tmp / "sgfmill", False), table(tmp / "qipu", True)
        common = m.keys() & q.keys()
        same = sum(m[k] == q[k] for k in common)
        print(f"identical positions: {same} of {len(common)} compared; "
              f"{len(m.keys() - q.keys())} only in sgfmill's (games qipu cuts at an illegal move), "
              f"{len(q.keys() - m.keys())} only in qipu's")
        if same != len(common) or q.keys() - m.keys():
            sys.exit("the two pipelines disagree")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
