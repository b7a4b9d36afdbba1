"""The same to_arrow inside a distributed engine's workers: Dask's
LocalCluster with several worker processes turns a directory of games into a
Parquet dataset (one file per chunk of input files)."""

import os

import qipu
from conftest import require_module

pa = require_module("pyarrow")
pq = require_module("pyarrow.parquet")
distributed = require_module("distributed")


def convert_chunk(index, paths, out_dir):
    """Runs in a worker process: SGF files -> one Parquet part. Returns rows written."""
    import qipu as q  # imported in the worker

    table = q.to_arrow(paths, threads=1)
    pq.write_table(table, os.path.join(out_dir, f"part-{index:05d}.parquet"))
    return table.num_rows, os.getpid()


def make_games(root, n):
    root.mkdir()
    for i in range(n):
        moves = "".join(f";{'BW'[j % 2]}[{chr(97 + (i + j) % 19)}{chr(97 + (3 * j) % 19)}]" for j in range(30 + i % 7))
        (root / f"game{i:03d}.sgf").write_text(
            f"(;GM[1]FF[4]SZ[19]PB[Black {i}]PW[White {i}]KM[6.5]RE[{'BW'[i % 2]}+R]{moves})"
        )


def test_dask_local_cluster_to_parquet(tmp_path):
    src = tmp_path / "sgf"
    make_games(src, 60)
    out = tmp_path / "dataset"
    out.mkdir()
    files = qipu.expand_paths(src)
    chunks = [files[i : i + 8] for i in range(0, len(files), 8)]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        futures = client.map(convert_chunk, range(len(chunks)), chunks, [str(out)] * len(chunks))
        results = client.gather(futures)
    assert sum(n for n, _ in results) == 60
    assert len({pid for _, pid in results}) >= 1
    assert all(pid != os.getpid() for _, pid in results), "the work ran in worker processes"
    dataset = pq.read_table(out)
    assert dataset.num_rows == 60
    local = qipu.to_arrow(src)
    key = ["path"]
    assert dataset.sort_by([(k, "ascending") for k in key]).equals(local.sort_by([(k, "ascending") for k in key]))
    assert sorted(dataset.column("black").to_pylist()) == sorted(f"Black {i}" for i in range(60))
