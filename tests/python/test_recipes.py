"""The distributed recipes of README.md run as written: each ```py block
that starts with a script name is written out and run with `python`, in a
folder holding `games/`, with Dask's LocalCluster."""

import re
import subprocess
import sys

import pytest

from conftest import REPO, require_module

require_module("distributed")
require_module("pyarrow")


def recipe(name):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```py\n(.*?)```", text, flags=re.S):
        if block.startswith(f"# {name}:"):
            return block
    raise AssertionError(f"README.md has no recipe {name}")


def make_games(root, n):
    root.mkdir()
    for i in range(n):
        moves = "".join(f";{'BW'[j % 2]}[{chr(97 + (i + j) % 19)}{chr(97 + (3 * j) % 19)}]" for j in range(30 + i % 7))
        (root / f"game{i:03d}.sgf").write_text(
            f"(;GM[1]FF[4]SZ[19]PB[Black {i}]PW[White {i}]KM[6.5]RE[{'BW'[i % 2]}+R]{moves})"
        )


@pytest.mark.parametrize(
    "name,expect",
    [
        ("parquet_dask.py", "60 games in 1 Parquet files"),
        ("dataset_dask.py", "from 1 shards"),
        ("parquet_spark.py", "60 games"),
    ],
)
def test_recipe_runs_as_written(tmp_path, name, expect):
    if "spark" in name:
        # Spark needs Java (Debian's openjdk-17-jre-headless; .ci/run installs it).
        require_module("pyspark")
    make_games(tmp_path / "games", 60)
    (tmp_path / name).write_text(recipe(name))
    r = subprocess.run([sys.executable, name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert expect in r.stdout, r.stdout


def test_shards_make_many_tasks(tmp_path):
    """Cut by game: one file of 60 games gives a task per shard."""
    import qipu.dataset

    make_games(tmp_path / "games", 60)
    coll = tmp_path / "one.sgf"
    coll.write_bytes(b"\n".join(p.read_bytes() for p in sorted((tmp_path / "games").iterdir())))
    r = qipu.dataset.repack([coll], tmp_path / "shards", 10)
    assert len(r["files"]) == 6 and r["games"] == 60
