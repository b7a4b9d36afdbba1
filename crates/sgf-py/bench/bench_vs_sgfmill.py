#!/usr/bin/env python3
"""Throughput of qipu against sgfmill, in the same run, on the real corpus.

    python crates/sgf-py/bench/bench_vs_sgfmill.py [--corpus DIR] [--fraction F] [--rounds N]

The corpus's ``real/`` collections are split into their original files with
the ``*.index.tsv`` files beside them (sgfmill reads one game per call), and
both libraries get exactly the same list of byte strings:

* parse: ``qipu.parse(data)`` vs ``sgfmill.sgf.Sgf_game.from_bytes(data)``;
* parse + main-line replay: qipu ``game.final_position()`` (replayed in
  Rust) and ``for node, pos in game.positions()`` (a Position object per
  node), ``game.boards()`` (every board as one NumPy array) vs sgfmill ``sgf_moves.get_setup_and_moves`` + ``Board.play`` for
  every move;
* qipu's bulk paths for reference: whole collections per call, and
  ``read_many`` over the collection files on all cores.

Figures are MB/s and games/s (best of ``--rounds``), and ratios to sgfmill.
Needs ``pip install sgfmill`` next to qipu.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import qipu

try:
    from sgfmill import boards, sgf, sgf_moves
except ImportError:  # pragma: no cover
    sys.exit("this benchmark needs sgfmill: pip install sgfmill")


def load(corpus: Path, fraction: float):
    """(collection paths, [original file bytes]) of real/, every k-th file when fraction < 1."""
    real = corpus / "real"
    if not real.is_dir():
        sys.exit(f"no corpus at {real} (use --corpus)")
    collections = sorted(real.rglob("*.sgf"))
    step = max(1, round(1 / fraction)) if fraction < 1 else 1
    files: list[bytes] = []
    for c in collections:
        data = c.read_bytes()
        index = Path(str(c) + ".index.tsv")
        k = 0
        for line in index.read_text().splitlines():
            if line.startswith("#") or not line.strip():
                continue
            off, length = (int(x) for x in line.split("\t")[:2])
            if k % step == 0:
                files.append(data[off : off + length])
            k += 1
    return collections, files


def best(rounds: int, f):
    t = float("inf")
    out = None
    for _ in range(rounds):
        start = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - start)
    return t, out


def sgfmill_parse(files):
    ok = 0
    for b in files:
        try:
            sgf.Sgf_game.from_bytes(b)
            ok += 1
        except ValueError:
            pass
    return ok


def sgfmill_replay(files):
    moves = 0
    for b in files:
        try:
            game = sgf.Sgf_game.from_bytes(b)
            board, plays = sgf_moves.get_setup_and_moves(game)
        except ValueError:
            continue
        for colour, move in plays:
            if move is None:
                continue
            row, col = move
            try:
                board.play(row, col, colour)
            except ValueError:
                pass
            moves += 1
    return moves


def qipu_parse(files):
    n = 0
    for b in files:
        n += len(qipu.parse(b))
    return n


def qipu_final(files):
    moves = 0
    for b in files:
        for g in qipu.parse(b):
            moves += g.final_position().move_number
    return moves


def qipu_positions(files):
    moves = 0
    for b in files:
        for g in qipu.parse(b):
            for _node, pos in g.positions():
                moves += 1
    return moves


def qipu_positions_numpy(files):
    total = 0
    for b in files:
        for g in qipu.parse(b):
            for _node, pos in g.positions():
                total += int(pos.board[0, 0])
    return total


def qipu_boards(files):
    total = 0
    for b in files:
        for g in qipu.parse(b):
            total += g.boards().shape[0]
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default = os.environ.get("QIPU_CORPUS") or str(Path(__file__).resolve().parents[3].parent / "shared" / "corpus")
    ap.add_argument("--corpus", default=default, help="corpus directory (with real/)")
    ap.add_argument("--fraction", type=float, default=1.0, help="use every 1/F-th file (default: all)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds per measure (best is kept)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads for read_many")
    args = ap.parse_args()

    collections, files = load(Path(args.corpus), args.fraction)
    mb = sum(len(b) for b in files) / 1e6
    n = len(files)
    print(f"qipu {qipu.__version__}; {n} games (original files), {mb:.1f} MB; best of {args.rounds} rounds")
    print(f"CPU count {os.cpu_count()}; Python {sys.version.split()[0]}")
    print()

    rows = []

    def measure(label, f, base=None):
        t, out = best(args.rounds, lambda: f(files))
        rows.append((label, t, out, base))
        print(f"  {label:<52} {t:7.2f} s  {mb / t:8.1f} MB/s  {n / t:9.0f} games/s", flush=True)
        return t

    print("parse")
    t_sm = measure("sgfmill Sgf_game.from_bytes", sgfmill_parse)
    t_q = measure("qipu.parse", qipu_parse)
    print(f"  => qipu.parse is {t_sm / t_q:.1f}x sgfmill")

    # Bulk paths, same bytes.
    all_mb = sum(c.stat().st_size for c in collections) / 1e6
    if args.fraction >= 1:
        datas = [c.read_bytes() for c in collections]
        t_coll, _ = best(args.rounds, lambda: sum(len(qipu.parse(d)) for d in datas))
        t_many, _ = best(args.rounds, lambda: sum(len(c) for c in qipu.read_many(collections, threads=args.threads)))
        print(f"  {'qipu.parse, whole collections (one call per file)':<52} {t_coll:7.2f} s  {all_mb / t_coll:8.1f} MB/s"
              f"  => {t_sm / t_coll * all_mb / mb:.0f}x sgfmill")
        print(f"  {f'qipu.read_many, collections, {args.threads} threads':<52} {t_many:7.2f} s  {all_mb / t_many:8.1f} MB/s"
              f"  => {t_sm / t_many * all_mb / mb:.0f}x sgfmill")

    print()
    print("parse + main-line replay")
    t_smr = measure("sgfmill from_bytes + get_setup_and_moves + play", sgfmill_replay)
    t_qf = measure("qipu.parse + game.final_position()", qipu_final)
    t_qp = measure("qipu.parse + for node, pos in game.positions()", qipu_positions)
    t_qn = measure("qipu.parse + positions() + pos.board (NumPy)", qipu_positions_numpy)
    t_qb = measure("qipu.parse + game.boards() (all boards, one array)", qipu_boards)
    print(f"  => final_position {t_smr / t_qf:.1f}x, positions() {t_smr / t_qp:.1f}x, "
          f"positions()+board {t_smr / t_qn:.1f}x, boards() {t_smr / t_qb:.1f}x sgfmill")
    sm_ok = sgfmill_parse(files)
    if sm_ok != n:
        print(f"\nnote: sgfmill refused {n - sm_ok} of {n} files (ValueError); they are timed all the same")


if __name__ == "__main__":
    main()
