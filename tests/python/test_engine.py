"""qipu.Engine (issue 16): a GTP engine driven from a game of the library,
through the library's GTP client (sgf-gtp). Tested against the real GNU Go
and Leela Zero (with a tiny zero-weights network); each test skips with a
message when its engine is not installed, unless QIPU_REQUIRE_ALL=1."""

import os
import shutil
import subprocess
import sys
import threading

import pytest

import qipu
from conftest import REPO, missing


def engine_path(name, *fallbacks):
    found = shutil.which(name) or next((f for f in fallbacks if os.access(f, os.X_OK)), None)
    if found is None:
        missing(f"{name} is not installed (Debian: apt-get install {name.replace('leelaz', 'leela-zero')})")
    return found


@pytest.fixture
def gnugo():
    path = engine_path("gnugo", "/usr/games/gnugo")
    with qipu.Engine(f"{path} --mode gtp --level 1", timeout=60) as e:
        yield e


def test_replay_genmove_and_play_back_into_the_tree(gnugo):
    coll = qipu.parse(b"(;GM[1]FF[4]SZ[9]KM[5.5];B[ee];W[cc];B[gc])")
    last = coll[0].main_line()[-1]
    gnugo.replay(last)
    # GNU Go's board is the record's: its stones where the record has them.
    board = gnugo.command("showboard")
    assert "X" in board and "O" in board
    assert gnugo.command("query_boardsize").strip() == "9"
    assert float(gnugo.command("get_komi")) == 5.5
    mv = gnugo.genmove("W")
    assert mv == "resign" or mv is None or (isinstance(mv, tuple) and len(mv) == 2)
    if isinstance(mv, tuple):
        # The engine's move goes into the tree like any move, and is legal there.
        node = last.play("W", mv)
        assert node.move == ("W", mv)
        assert last.position()[mv] == 0
    gnugo.undo()
    gnugo.play("W", (0, 0))
    assert gnugo.command("color A9").strip() == "white"
    gnugo.play("B", None)  # a pass
    assert gnugo.supports("genmove") and not gnugo.supports("no_such_command")
    assert gnugo.name


def test_dead_stones_and_score(gnugo):
    # Walls: White on column 3, Black on column 4; a lone white stone at
    # (7, 4) inside Black's side is dead.
    ab = "".join(f"[e{chr(97 + y)}]" for y in range(9))
    aw = "".join(f"[d{chr(97 + y)}]" for y in range(9)) + "[he]"
    coll = qipu.parse(f"(;GM[1]FF[4]SZ[9]KM[0]RU[Japanese]AB{ab}AW{aw};B[];W[])".encode())
    end = coll[0].main_line()[-1]
    gnugo.replay(end)
    assert gnugo.dead_stones() == [(7, 4)]
    s = qipu.score(end, engine=gnugo)
    assert s["dead_from"] == "engine" and s["rules"] == "japanese" and s["komi"] == 0
    assert s["dead"] == [(7, 4)]
    # Black: 36 points of territory and the dead stone; White: 27 points.
    assert s["result"] == "B+10"
    # Without an engine: Qipu's estimator (or TB/TW), the same shape.
    plain = qipu.score(end, rules="chinese", komi=7.5)
    assert plain["rules"] == "chinese" and plain["komi"] == 7.5
    with pytest.raises(ValueError, match="expected rules"):
        qipu.score(end, rules="klingon")


def test_engine_errors_and_arguments(gnugo):
    with pytest.raises(qipu.EngineError):
        gnugo.command("no_such_command")
    with pytest.raises(TypeError, match=r"expected a point \(col, row\) of two ints, got \(1\.5, 2\)"):
        gnugo.play("B", (1.5, 2))
    with pytest.raises(qipu.EditError, match='expected a colour "B" or "W"'):
        gnugo.genmove("red")
    with pytest.raises(ValueError, match="expected timeout to be a positive number of seconds, got -1"):
        qipu.Engine("gnugo --mode gtp", timeout=-1)
    with pytest.raises(qipu.EngineError):
        qipu.Engine("/nonexistent/engine --gtp")
    gnugo.close()
    with pytest.raises(qipu.EngineError, match="closed"):
        gnugo.command("name")


def test_one_engine_shared_by_threads(gnugo):
    gnugo.command("boardsize 9")
    answers, errors = [], []

    def ask():
        try:
            for _ in range(5):
                answers.append(gnugo.command("name"))
        except Exception as e:  # pragma: no cover - what the test catches
            errors.append(e)

    ts = [threading.Thread(target=ask) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == [] and len(answers) == 15 and set(answers) == {"GNU Go"}


def test_leela_zero_streams_analysis(tmp_path):
    leelaz = engine_path("leelaz", "/usr/games/leelaz")
    weights = tmp_path / "tiny.txt"
    subprocess.run([sys.executable, str(REPO / "tests" / "engines" / "lz-tiny-weights.py"), str(weights)], check=True)
    cmd = f"{leelaz} --gtp --noponder --cpu-only --weights {weights} --playouts 20 --threads 1"
    with qipu.Engine(cmd, timeout=60) as lz:
        coll = qipu.parse(b"(;GM[1]FF[4]SZ[19]KM[7.5];B[pd];W[dp])")
        lz.replay(coll[0].main_line()[-1])
        a = lz.analyze("B", visits=10, max_time=5.0)
        assert a["to_play"] == "B" and a["candidates"]
        best = a["candidates"][0]
        assert best["visits"] >= 1 and best["pv"] and 0.0 <= best["winrate"] <= 1.0
        assert isinstance(best["move"], tuple) or best["move"] is None
        with pytest.raises(ValueError, match="expected visits to be at least 1"):
            lz.analyze("B", visits=0)
