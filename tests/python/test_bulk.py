"""Scale: read_many (parallel, streamed), to_arrow and to_parquet."""

import os
import threading
import time
from pathlib import Path

import pytest

import qipu
from conftest import require_module

pa = require_module("pyarrow")
REPO = Path(__file__).resolve().parents[2]
pq = require_module("pyarrow.parquet")
pc = require_module("pyarrow.compute")


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
    # The compact (default) form: the colour as a dictionary of "B"/"W" with int8 indices.
    assert schema.field("moves").type == pa.list_(
        pa.struct(
            [("color", pa.dictionary(pa.int8(), pa.string())), ("col", pa.int8()), ("row", pa.int8())]
        )
    )
    assert schema.field("komi").type == pa.float64()
    # Columns added later come last, so existing positions hold.
    assert schema.names[-2:] == ["komi_text", "unplayable_moves"]
    assert schema.names.index("warnings") == len(schema) - 3
    assert schema.field("unplayable_moves").type == pa.list_(pa.int32())
    table.validate(full=True)
    # The old form, the colour as text, on request: the same values.
    text = qipu.to_arrow(games_dir, threads=2, moves="text")
    assert text.schema.field("moves").type == pa.list_(
        pa.struct([("color", pa.string()), ("col", pa.int8()), ("row", pa.int8())])
    )
    assert text.column("moves").to_pylist() == table.column("moves").to_pylist()
    text.validate(full=True)
    # Compute kernels and Parquet see the dictionary colours as "B"/"W".
    flat = pc.list_flatten(table.column("moves"))
    blacks = pc.sum(pc.equal(pc.struct_field(flat, [0]), "B")).as_py()
    assert blacks == sum(m["color"] == "B" for ms in table.column("moves").to_pylist() for m in ms)
    assert table.nbytes < text.nbytes


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
    # Kept, as `qipu export` keeps it: move N is the N-th entry.
    assert table.column("num_moves").to_pylist() == [2]
    assert table.column("moves").to_pylist() == [
        [{"color": "B", "col": None, "row": None}, {"color": "W", "col": 3, "row": 3}]
    ]
    assert table.column("unplayable_moves").to_pylist() == [[1]]
    table.validate(full=True)


def test_every_to_sgf_argument_is_checked():
    c = qipu.parse(b"(;SZ[9]AB[aa][ab][ac])")
    with pytest.raises(ValueError, match="point_lists must be"):
        c.to_sgf(point_lists="zzz")
    with pytest.raises(ValueError, match="canonical=True"):
        c.to_sgf(point_lists="compressed")
    assert b"AB[aa:ac]" in c.to_sgf(canonical=True, point_lists="compressed")


def test_komi_in_mixed_units_is_read_once_and_kept_as_written(tmp_path):
    # Fox and AI-game files write KM[650] for 6.5: the library's one reading.
    path = tmp_path / "fox.sgf"
    path.write_bytes(b"(;GM[1]SZ[19]KM[650];B[pd])(;GM[1]SZ[19]KM[7.5])(;GM[1]SZ[19])")
    coll = qipu.read(path)
    assert coll[0].info.komi == 6.5 and coll[0].info.komi_text == "650"
    assert coll[1].info.komi == 7.5 and coll[2].info.komi is None and coll[2].info.komi_text is None
    t = qipu.to_arrow([path])
    assert t.column("komi").to_pylist() == [6.5, 7.5, None]
    assert t.column("komi_text").to_pylist() == ["650", "7.5", None]


def test_progress_counts_games_not_files(games_dir, capsys):
    calls = []
    t = qipu.to_arrow(games_dir, threads=2, progress=lambda *a: calls.append(a))
    # The last report, after every file: all games of all files.
    games, files, total = calls[-1]
    assert (games, files, total) == (t.num_rows, 5, 5) and t.num_rows == 6
    assert all(c[2] == 5 for c in calls) and [c[0] for c in calls] == sorted(c[0] for c in calls)
    # progress=True without tqdm: a line on stderr (tqdm when installed).
    try:
        import tqdm  # noqa: F401

        has_tqdm = True
    except ImportError:
        has_tqdm = False
    qipu.to_arrow(games_dir, progress=True)
    err = capsys.readouterr().err
    assert "games" in err and ("6 games read (5/5 files)" in err or has_tqdm)
    with pytest.raises(TypeError, match="expected progress to be a bool or a callable"):
        qipu.to_arrow(games_dir, progress="yes")

    def boom(*_):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        qipu.to_arrow(games_dir, progress=boom)


def test_to_pandas_keeps_arrow_types(games_dir):
    pd = require_module("pandas")
    df = qipu.to_pandas(games_dir, threads=2)
    assert len(df) == 6
    # Nullable ints stay ints (a plain to_pandas() makes floats of them).
    assert str(df["year"].dtype) == "int16[pyarrow]" and df["year"].isna().sum() >= 1
    assert str(df["handicap"].dtype) == "int32[pyarrow]"
    plain = qipu.to_arrow(games_dir).to_pandas()
    assert plain["year"].dtype.kind == "f"
    g1 = df[df["path"].str.endswith("g1.sgf")].iloc[0]
    assert g1["moves"][3] == {"color": "W", "col": None, "row": None}
    assert isinstance(df["moves"].dtype, pd.ArrowDtype)


def test_bad_arguments_say_what_was_expected(games_dir):
    with pytest.raises(ValueError, match='expected moves to be "compact" or "text", got \'dict\''):
        qipu.to_arrow(games_dir, moves="dict")
    with pytest.raises(TypeError, match="expected threads to be an int or None, got '2'"):
        qipu.to_arrow(games_dir, threads="2")
    with pytest.raises(ValueError, match="expected threads to be at least 1, got 0"):
        qipu.read_many(games_dir, threads=0)
    with pytest.raises(TypeError, match="expected a path"):
        qipu.to_arrow(42)
    with pytest.raises(TypeError, match="expected a path .* in paths, got 3"):
        qipu.expand_paths([games_dir, 3])


def test_one_read_many_shared_by_threads(games_dir):
    # Issue 19: two threads reading one iterator raised "Already mutably borrowed".
    files = qipu.expand_paths(games_dir)
    good = [f for f in files if not f.endswith(".txt")] * 40
    it = qipu.read_many(good, threads=2)
    got, errors = [], []
    lock = threading.Lock()

    def consume():
        try:
            for coll in it:
                with lock:
                    got.append(coll.path)
        except Exception as e:  # pragma: no cover - the failure this test catches
            errors.append(e)

    workers = [threading.Thread(target=consume) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    # Every file handed out once: the same multiset of paths.
    assert sorted(got) == sorted(good)


def test_a_game_has_its_own_diagnostics_and_a_stone_over_a_stone_is_an_error():
    # Review: boards() played W[ee] over a stone silently, has_errors False.
    c = qipu.parse(b"(;GM[1]SZ[9];B[ee];W[ee])(;GM[1]SZ[9];B[ee];W[dd])(;GM[1]SZ[9];B[zz])")
    over, fine, off = c[0], c[1], c[2]
    assert over.has_errors and c.has_errors
    assert [d.code for d in over.diagnostics] == ["G001"]
    # `qipu check` says at the second game that the file holds several.
    assert not fine.has_errors and [d.code for d in fine.diagnostics] == ["F018"]
    assert off.has_errors and "V017" in [d.code for d in off.diagnostics]
    # A value of the wrong form is reported, not damage.
    odd = qipu.parse(b"(;GM[1]SZ[9]KO[];B[ee])")[0]
    assert "F005" in [d.code for d in odd.diagnostics] and not odd.has_errors
    assert not qipu.parse(b"(;GM[1]SZ[9];B[ee];W[dd])").has_errors
    # Reading diagnostics belong to the game they fall in.
    r = qipu.parse(b"(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9]PB[x]PB[y];B[dd])")
    assert r[0].diagnostics == []
    assert any(d.line == 1 and d.column > 20 for d in r[1].diagnostics)


def test_a_converted_record_says_its_files_charset_everywhere(tmp_path):
    # Review: for a GBK .gib file `qipu info` said gb18030 and Game.charset UTF-8.
    gib = REPO / "testdata" / "formats" / "gib" / "china_gbk.gib"
    coll = qipu.read(gib)
    assert coll.format == "GIB" and coll[0].charset == "gb18030"
    assert qipu.to_arrow([gib]).column("charset").to_pylist() == ["gb18030"]
    import pickle

    assert pickle.loads(pickle.dumps(coll))[0].charset == "gb18030"
    assert qipu.read(REPO / "examples" / "qipu-example.sgf")[0].charset == "UTF-8"


def test_to_parquet_writes_safely(games_dir, tmp_path):
    # The library's safe writer: a symbolic link is refused, its target untouched.
    target = tmp_path / "target.bin"
    target.write_bytes(b"keep me")
    link = tmp_path / "link.parquet"
    link.symlink_to(target)
    with pytest.raises(OSError):
        qipu.to_parquet(games_dir, link)
    assert target.read_bytes() == b"keep me"
    out = tmp_path / "games.parquet"
    assert qipu.to_parquet(games_dir, out) == 6 and not list(tmp_path.glob(".*qipu-tmp*"))


def test_to_arrow_gives_the_one_game_summary():
    # The summary that `qipu export` and the viewer's game list give too
    # (crates/sgf-cli/tests/summary.rs checks them against the same file):
    # every move kept, an unplayable one without a point and listed.
    import json

    want = json.loads((REPO / "testdata/summary/unplayable.json").read_text())["games"]
    table = qipu.to_arrow([REPO / "testdata/summary/unplayable.sgf"])
    table.validate(full=True)
    rows = table.to_pylist()
    assert len(rows) == len(want)

    def letters(col, row):
        return "".join(chr((ord("a") + c) if c < 26 else (ord("A") + c - 26)) for c in (col, row))

    for got, exp in zip(rows, want):
        assert [got["board_cols"], got["board_rows"]] == exp["size"]
        assert got["charset"] == exp["charset"]
        for key in ("black", "white", "black_rank", "white_rank", "result", "date", "event", "name"):
            assert got[key] == exp[key], key
        assert [letters(p["col"], p["row"]) for p in got["setup_black"]] == exp["setup_black"]
        assert got["num_moves"] == len(exp["moves"])
        assert got["unplayable_moves"] == exp["unplayable"]
        for n, (m, (color, text)) in enumerate(zip(got["moves"], exp["moves"]), start=1):
            assert m["color"] == color
            if n in exp["unplayable"] or text == "":
                assert m["col"] is None and m["row"] is None
            else:
                assert letters(m["col"], m["row"]) == text
        assert got["errors"] >= len(exp["unplayable"])
    # The games read one by one say the same charset.
    coll = qipu.read(REPO / "testdata/summary/unplayable.sgf")
    assert [g.charset for g in coll] == [g["charset"] for g in want]


def test_check_is_qipu_check():
    # Collection.check() is the library's check of the file (`qipu check
    # --json`): the whole-file rules and the file's lines and columns.
    coll = qipu.read(REPO / "testdata/summary/unplayable.sgf")
    found = [(d.code, d.line, d.column) for d in coll.check() if d.severity != "info"]
    assert found == [("V017", 2, 9), ("V005", 4, 9)]
    edited = qipu.parse(b"(;GM[1]FF[4]SZ[9];B[ee])")
    edited[0].root["PB"] = "Ann"
    assert [d for d in edited.check() if d.severity != "info"] == []
