"""qipu.dataset: the builder from Python — the summary, the shards NumPy
reads, batches without files that match the shards, options by their
command-line names, repack, and stopping a stream early."""

import json

import pytest

import qipu
import qipu.dataset
from conftest import REPO, require_module

np = require_module("numpy")

GAMES = [str(REPO / "testdata" / "db")]


def test_build_writes_shards_numpy_reads(tmp_path):
    out = tmp_path / "d"
    s = qipu.dataset.build(GAMES, out, size=9, keep_duplicates=True, shuffle_buffer=0)
    assert s["games_kept"] >= 3 and s["positions"] > 0
    z = np.load(out / "train-00000.npz")
    meta = json.loads((out / "dataset.json").read_text())
    assert z["planes"].shape == (s["positions"], len(meta["planes"]), 11)
    planes = qipu.dataset.unpack(z["planes"], 9)
    # The move played is on an empty point: neither side's stones now.
    for i, p in enumerate(z["policy"]):
        if p < 81:
            y, x = divmod(int(p), 9)
            assert planes[i, 0, y, x] == 0 and planes[i, 8, y, x] == 0
    # Batches are the shards' positions in the same order.
    got = [b["policy"] for b in qipu.dataset.batches(GAMES, 5, size=9, keep_duplicates=True, shuffle_buffer=0)]
    assert np.array_equal(np.concatenate(got), z["policy"])
    b = next(qipu.dataset.batches(GAMES, 5, size=9, packed=True))
    assert b["planes"].dtype == np.uint8 and b["planes"].shape == (5, 18, 11)
    assert b["ranks"].shape == (5, 2) and b["split"] == "train"


def test_duplicates_and_reasons(tmp_path):
    s = qipu.dataset.build(GAMES, tmp_path / "d", size=9)
    # dup-b is dup-a mirrored; games.7z holds dup-a as pro/a.sgf.
    assert s["dropped"].get("duplicate") == 2, s
    s19 = qipu.dataset.build(GAMES, tmp_path / "e", size=19)
    assert s19["dropped"].get("size", 0) >= 3


def test_bad_options_are_errors(tmp_path):
    with pytest.raises(ValueError, match="komi"):
        qipu.dataset.build(GAMES, tmp_path / "d", komi="8..5")
    with pytest.raises(ValueError, match="unknown option"):
        qipu.dataset.build(GAMES, tmp_path / "d", colour="b")
    with pytest.raises(ValueError):
        next(qipu.dataset.batches(GAMES, 4, format="leela", liberties=True))


def test_leela_chunks_hold_only_games_with_a_winner(tmp_path):
    # As `qipu dataset --format leela`: a game without a result is left
    # out, not written as a loss for both colours.
    (tmp_path / "g.sgf").write_text(
        "(;GM[1]SZ[19];B[pd];W[dp];B[pp])(;GM[1]SZ[19]RE[B+R];B[dd];W[pp])"
    )
    s = qipu.dataset.build([tmp_path / "g.sgf"], tmp_path / "lz", format="leela")
    assert s["games_kept"] == 1 and s["positions"] == 2, s
    assert s["dropped"] == {"no_winner": 1}, s
    import gzip

    lines = gzip.decompress((tmp_path / "lz" / "train-00000.gz").read_bytes()).decode().splitlines()
    # The 19th line of each position: the winner for the side to move.
    assert sorted(lines[18::19]) == ["-1", "1"]
    # The batches of the same options are the chunks' positions.
    got = list(qipu.dataset.batches([tmp_path / "g.sgf"], 8, format="leela"))
    assert sum(len(b["value"]) for b in got) == 2
    assert all(v != 0 for b in got for v in b["value"])
    # Asking for games without a winner there is the library's error.
    with pytest.raises(ValueError, match="Leela Zero's chunks need a winner.*require_winner=false"):
        qipu.dataset.build([tmp_path / "g.sgf"], tmp_path / "lz2", format="leela", require_winner=False)
    with pytest.raises(ValueError, match="Leela Zero's chunks need a winner"):
        qipu.dataset.batches([tmp_path / "g.sgf"], 8, format="leela", require_winner=False).__next__()
    # The CLI's words for the CLI's refusals (the message is the library's).
    with pytest.raises(ValueError, match="Leela Zero's chunks have fixed planes"):
        qipu.dataset.build([tmp_path / "g.sgf"], tmp_path / "lz3", format="leela", liberties=True)
    with pytest.raises(ValueError, match="Leela Zero's chunks are for 19×19 only"):
        qipu.dataset.build([tmp_path / "g.sgf"], tmp_path / "lz4", format="leela", size=9)


def test_a_stream_stopped_early(tmp_path):
    it = qipu.dataset.batches(GAMES, 1, size=9)
    first = next(it)
    assert first["planes"].shape == (1, 18, 9, 9)
    it.close()  # the generator's finally closes the native stream


def test_repack_keeps_every_game_and_where_it_came_from(tmp_path):
    r = qipu.dataset.repack(GAMES, tmp_path / "s", 2)
    assert r["games"] >= 3 and len(r["files"]) == (r["games"] + 1) // 2
    index = [json.loads(line) for line in (tmp_path / "s" / "index.jsonl").read_text().splitlines()]
    assert len(index) == r["games"]
    assert all(row["file"].endswith((".sgf", ".7z!pro/a.sgf", ".7z!pro/b.sgf")) for row in index)
    assert sum(len(qipu.read(tmp_path / "s" / f)) for f in r["files"]) == r["games"]


def test_the_game_table_as_arrow(tmp_path):
    require_module("pyarrow")
    out = tmp_path / "d"
    s = qipu.dataset.build(GAMES, out, size=9, val_fraction=0.5, seed=2)
    t = qipu.dataset.games(out)
    assert t.num_rows == s["games_kept"]
    rows = t.to_pylist()
    assert {r["split"] for r in rows} <= {"train", "val"}
    assert [r["id"] for r in rows] == list(range(t.num_rows))
    assert all(r["summary"]["size"] == [9, 9] for r in rows)
    # Every position's game is a row of the table, in the split of its shard.
    split = {r["id"]: r["split"] for r in rows}
    for shard in out.glob("*.npz"):
        for g in np.load(shard)["game"]:
            assert split[int(g)] == shard.name.split("-")[0]
