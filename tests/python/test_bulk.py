"""Scale: read_many (parallel, streamed), to_arrow and to_parquet."""

import os
import threading
import time

import pytest

import qipu

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def test_expand_paths(games_dir):
    files = qipu.expand_paths(games_dir)
    rel = [os.path.relpath(f, games_dir) for f in files]
    assert rel == ["c.SGF", "a/g1.sgf", "a/g2.sgf", "b/bad.sgf", "b/two.sgf"] or sorted(rel) == sorted(
        ["c.SGF", "a/g1.sgf", "a/g2.sgf", "b/bad.sgf", "b/two.sgf"]
    )
    assert qipu.expand_paths([games_dir / "a" / "g1.sgf"]) == [str(games_dir / "a" / "g1.sgf")]


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_read_many_in_input_order(games_dir, threads):
    files = qipu.expand_paths(games_dir) * 20
    seen = [c.path for c in qipu.read_many(files, threads=threads)]
    assert seen == files
    colls = list(qipu.read_many(games_dir, threads=threads))
    assert sum(len(c) for c in colls) == 6
    bad = [c for c in colls if c.path.endswith("bad.sgf")][0]
    assert bad.has_errors and bad[0].info.black == "Broken"


def test_read_many_errors(games_dir):
    files = [games_dir / "a" / "g1.sgf", games_dir / "missing.sgf", games_dir / "a" / "g2.sgf"]
    it = qipu.read_many(files, threads=2)
    assert len(it) == 3
    assert next(it)[0].info.black == "Alpha"
    with pytest.raises(FileNotFoundError):
        next(it)
    assert next(it)[0].info.black == "Gamma"
    ok = list(qipu.read_many(files, threads=2, skip_errors=True))
    assert [c[0].info.black for c in ok] == ["Alpha", "Gamma"]
    with pytest.raises(ValueError):
        qipu.read_many(files, threads=0)


def test_read_many_releases_the_gil(tmp_path):
    # A big file parsed in the workers leaves the interpreter free.
    big = tmp_path / "big.sgf"
    game = b"(;GM[1]SZ[19]" + b";B[pd];W[dp];B[pp];W[dd]" * 2000 + b")\n"
    big.write_bytes(game * 60)
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        for _ in range(3):
            for coll in qipu.read_many([big] * 4, threads=2):
                assert len(coll) == 60
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 5


def test_read_many_can_stop_early(games_dir):
    files = qipu.expand_paths(games_dir) * 200
    it = qipu.read_many(files, threads=2)
    first = next(it)
    assert first.path == files[0]
    it.close()
    assert list(it) == []
    del it


def test_to_arrow(games_dir):
    table = qipu.to_arrow(games_dir, threads=2)
    assert table.num_rows == 6
    rows = {(os.path.basename(r["path"]), r["game"]): r for r in table.to_pylist()}
    g1 = rows[("g1.sgf", 0)]
    assert g1["black"] == "Alpha" and g1["white"] == "Beta"
    assert g1["board_cols"] == 19 and g1["board_rows"] == 19
    assert g1["winner"] == "B" and g1["win_by"] == "resign" and g1["margin"] is None
    assert g1["komi"] == 6.5 and g1["year"] == 2021 and g1["date"] == "2021-03-04"
    assert g1["num_moves"] == 4
    assert g1["moves"] == [
        {"color": "B", "col": 15, "row": 3},
        {"color": "W", "col": 3, "row": 15},
        {"color": "B", "col": 15, "row": 15},
        {"color": "W", "col": None, "row": None},
    ]
    g2 = rows[("g2.sgf", 0)]
    assert g2["handicap"] == 2 and g2["margin"] == 2.5 and g2["winner"] == "W"
    assert g2["setup_black"] == [{"col": 2, "row": 2}, {"col": 6, "row": 6}]
    assert g2["setup_white"] == []
    assert rows[("two.sgf", 1)]["black"] == "P2" and rows[("two.sgf", 1)]["num_moves"] == 3
    assert rows[("two.sgf", 0)]["win_by"] == "draw"
    assert rows[("bad.sgf", 0)]["errors"] >= 1 and g1["errors"] == 0
    assert rows[("c.SGF", 0)]["black"] == "李昌镐" and rows[("c.SGF", 0)]["komi"] is None
    schema = table.schema
    assert schema.field("moves").type == pa.list_(
        pa.struct([("color", pa.string()), ("col", pa.int8()), ("row", pa.int8())])
    )
    assert schema.field("komi").type == pa.float64()
    table.validate(full=True)


def test_to_arrow_empty_and_errors(tmp_path, games_dir):
    empty = qipu.to_arrow([], threads=1)
    assert empty.num_rows == 0
    empty.validate(full=True)
    with pytest.raises(FileNotFoundError):
        qipu.to_arrow([tmp_path / "nope.sgf"])
    t = qipu.to_arrow([tmp_path / "nope.sgf", games_dir / "a" / "g1.sgf"], skip_errors=True)
    assert t.num_rows == 1


def test_to_parquet(games_dir, tmp_path):
    out = tmp_path / "games.parquet"
    assert qipu.to_parquet(games_dir, out) == 6
    back = pq.read_table(out)
    assert back.num_rows == 6
    assert back.equals(qipu.to_arrow(games_dir))


def test_a_dropped_move_is_an_error_everywhere(tmp_path):
    # Issue 19: B[zz] is off the 19x19 board, so moves() cannot give it.
    damaged = qipu.parse(b"(;SZ[19];B[zz];W[dd])")
    assert damaged.has_errors
    assert not qipu.parse(b"(;SZ[19];B[pd];W[dd])").has_errors
    path = tmp_path / "damaged.sgf"
    path.write_bytes(b"(;SZ[19];B[zz];W[dd])")
    table = qipu.to_arrow([path])
    assert table.column("errors").to_pylist() == [1]


def test_every_to_sgf_argument_is_checked():
    c = qipu.parse(b"(;SZ[9]AB[aa][ab][ac])")
    with pytest.raises(ValueError, match="point_lists must be"):
        c.to_sgf(point_lists="zzz")
    with pytest.raises(ValueError, match="canonical=True"):
        c.to_sgf(point_lists="compressed")
    assert b"AB[aa:ac]" in c.to_sgf(canonical=True, point_lists="compressed")
