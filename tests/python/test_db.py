"""qipu.Database: index, find (filters, positions, patterns), dups, shards,
and shards built in parallel on a Dask LocalCluster (the recipe of the
README)."""

import os
import shutil

import pytest

import qipu
from conftest import REPO, require_module

FIXTURES = REPO / "testdata" / "db"


@pytest.fixture
def games(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    for f in ("variations.sgf", "dup-a.sgf", "dup-b.sgf"):
        shutil.copy(FIXTURES / f, d / f)
    return d


def test_index_find_and_rows_for_pandas(tmp_path, games):
    db = qipu.Database(tmp_path / "g.qdb")
    rep = db.index([games])
    assert rep["games"] == 7 and rep["problems"] == []
    assert len(db) == 7
    again = db.index([games])
    assert again["read"] == 0 and again["unchanged"] == 3

    # Game information: width- and case-insensitive names, partial dates.
    r = db.find(player="alice")
    assert r["total"] == 1 and r["hits"][0]["black"] == "Ａｌｉｃｅ"
    assert db.find(player="ank", contains=True)["games"] == 2
    assert db.find(date_from="2001-03", date_to="2001")["games"] == 1
    assert db.find(winner="draw")["games"] == 1
    assert db.find(size=13)["games"] == 1
    assert db.find(comment="joseki")["games"] == 1

    # A pattern: a black stone with white to its right, anywhere.
    r = db.find(pattern_rows=["XO"], anywhere=True, limit=5)
    assert r["total"] > 5 and len(r["hits"]) == 5
    hit = r["hits"][0]
    assert set(["path", "game", "move", "black", "white", "date", "result"]) <= hit.keys()
    assert all(set(c) == {"move", "color", "count", "black_wins", "white_wins"} for c in r["continuations"])

    pd = require_module("pandas")
    frame = pd.DataFrame(r["hits"])
    assert list(frame["move"]) == [h["move"] for h in r["hits"]]
    pa = require_module("pyarrow")
    assert pa.Table.from_pylist(r["continuations"]).num_rows == len(r["continuations"])


def test_position_search_and_dups(tmp_path, games):
    db = qipu.Database(tmp_path / "g.qdb")
    db.index([games])
    # The mirrored duplicate is found from either file's position.
    r = db.find(position=str(games / "dup-a.sgf"), move=30)
    assert r["games"] == 2
    assert {h["move"] for h in r["hits"]} == {30}
    assert {h["symmetry"] for h in r["hits"]} == {0, 1}
    # Black is to play after 30 moves.
    assert db.find(position=(games / "dup-a.sgf").read_bytes(), move=30, to_play="B")["total"] == 2
    groups = db.dups()
    assert len(groups) == 1
    assert sorted(g["black"] for g in groups[0]["games"]) == ["Ivan", "ivan2"]


def test_errors_are_qipu_errors(tmp_path, games):
    db = qipu.Database(tmp_path / "g.qdb")
    db.index([games])
    with pytest.raises(qipu.QipuError):
        db.find(date_from="someday")
    with pytest.raises(qipu.QipuError):
        db.find(pattern_rows=["X?z"])
    with pytest.raises(qipu.QipuError):
        db.find(colour="B")
    with pytest.raises(FileNotFoundError):
        db.find(pattern=str(tmp_path / "missing.sgf"))


def build_shard(index, paths, out_dir):
    """Runs in a worker process: index one share of the files into its own shard."""
    import qipu as q

    db = q.Database(os.path.join(out_dir, f"shard-{index:03d}.qdb"))
    return db.index(paths)["games"], os.getpid()


def make_games(root, n):
    root.mkdir()
    for i in range(n):
        moves = "".join(
            f";{'BW'[j % 2]}[{chr(97 + (i + j) % 19)}{chr(97 + (3 * j + i) % 19)}]" for j in range(25 + i % 9)
        )
        (root / f"game{i:03d}.sgf").write_text(
            f"(;GM[1]FF[4]SZ[19]PB[Black {i}]PW[White {i}]RE[{'BW'[i % 2]}+R];B[pd];W[dp]{moves})"
        )


def test_dask_local_cluster_builds_shards(tmp_path):
    distributed = require_module("distributed")
    src = tmp_path / "sgf"
    make_games(src, 40)
    out = tmp_path / "shards"
    out.mkdir()
    files = qipu.expand_paths(src)
    chunks = [files[i : i + 10] for i in range(0, len(files), 10)]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        futures = client.map(build_shard, range(len(chunks)), chunks, [str(out)] * len(chunks))
        results = client.gather(futures)
    assert sum(n for n, _ in results) == 40
    assert all(pid != os.getpid() for _, pid in results), "the shards were built in worker processes"

    shards = [qipu.Database(p) for p in sorted(out.glob("shard-*.qdb"))]
    assert len(shards) == 4
    whole = qipu.Database(tmp_path / "whole.qdb")
    whole.index([src])
    query = dict(pattern_rows=["X.", ".O"], anywhere=True, swap_colors=True)
    merged = qipu.find_all(shards, **query)
    single = whole.find(**query)
    assert merged["total"] == single["total"] > 0
    assert merged["continuations"] == single["continuations"]
    key = lambda h: (os.path.basename(h["path"]), h["game"], h["node"], h["symmetry"], h["swapped"])
    assert sorted(map(key, merged["hits"])) == sorted(map(key, single["hits"]))
