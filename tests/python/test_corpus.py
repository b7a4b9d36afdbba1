"""The real corpus (skipped when ../shared/corpus is absent): every
collection reads, writes back byte for byte, and to_arrow counts every game."""

from pathlib import Path

import qipu
from conftest import missing


def collections(corpus):
    files = sorted((corpus / "real").rglob("*.sgf"))
    if not files:
        missing(f"no real/ collections in {corpus}")
    return files


def test_real_collections_read_and_round_trip(corpus):
    total = 0
    for coll in qipu.read_many(collections(corpus), threads=2):
        data = Path(coll.path).read_bytes()
        assert coll.to_sgf() == data
        total += len(coll)
    assert total > 70_000


def test_real_games_per_original_file(corpus):
    # Every original file (from the index) parses to its own game(s).
    files = collections(corpus)[:1]
    data = files[0].read_bytes()
    index = Path(str(files[0]) + ".index.tsv").read_text().splitlines()
    n = 0
    for line in index[1:200]:
        off, length = (int(x) for x in line.split("\t")[:2])
        coll = qipu.parse(data[off : off + length])
        assert len(coll) >= 1
        for g in coll:
            g.final_position()
        n += 1
    assert n > 0


def test_real_to_arrow(corpus):
    files = collections(corpus)
    table = qipu.to_arrow(files, threads=2)
    assert table.num_rows > 70_000
    assert table.column("num_moves").to_pylist()[:1][0] >= 0
    table.validate()
