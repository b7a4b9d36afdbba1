"""Shared fixtures of the Python tests."""

import importlib
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def missing(what, module_level=False):
    """The one rule for a test that lacks something it needs (as in
    testsupport/require.rs): skip with `what`, or fail when
    QIPU_REQUIRE_ALL=1 (CI, where everything is installed)."""
    if os.environ.get("QIPU_REQUIRE_ALL") == "1":
        pytest.fail(f"{what}; QIPU_REQUIRE_ALL=1 requires it", pytrace=False)
    pytest.skip(what, allow_module_level=module_level)


def require_module(name):
    """The module `name`, imported; missing (see above) when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"the Python module {name} is not installed (tests/python/run.sh installs it)", True)


def corpus_dir():
    """Where the sample corpus is: QIPU_CORPUS, else ../shared/corpus beside the repository."""
    d = os.environ.get("QIPU_CORPUS")
    return Path(d) if d else REPO.parent / "shared" / "corpus"


@pytest.fixture
def corpus():
    d = corpus_dir()
    if not d.is_dir():
        missing(f"the sample corpus is not at {d} (set QIPU_CORPUS to run this test)")
    return d


@pytest.fixture
def games_dir(tmp_path):
    """A small directory tree of SGF files of our own (5 files, 6 games)."""
    root = tmp_path / "games"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    files = {
        "a/g1.sgf": b"(;GM[1]FF[4]SZ[19]PB[Alpha]PW[Beta]RE[B+R]DT[2021-03-04]KM[6.5];B[pd];W[dp];B[pp];W[])",
        "a/g2.sgf": b"(;GM[1]FF[4]SZ[9]PB[Gamma]PW[Delta]RE[W+2.5]HA[2]AB[cc][gg];W[ee];B[ec])",
        "b/two.sgf": b"(;GM[1]SZ[13]PB[P1]RE[0];B[gg])\n(;GM[1]SZ[13]PB[P2]RE[?];B[aa];W[bb];B[cc])",
        "b/bad.sgf": b"(;GM[1]SZ[19]PB[Broken];B[dd];W[",
        "b/notes.txt": b"not a game",
        "c.SGF": "(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[李昌镐]PW[曹薰铉]DT[1995];B[qd])".encode(),
    }
    (root / "c.SGF").parent.mkdir(exist_ok=True)
    for name, data in files.items():
        (root / name).write_bytes(data)
    return root
