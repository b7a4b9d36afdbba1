"""A game's diagnostics are what `qipu check` reports of it: the library's
check of the file, shared out to its games."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import qipu
from conftest import REPO, missing

# Several games, each with its own problems: text before the first, a
# stone over a stone, a repeated property and a point off the board, a
# value of the wrong form and an unescaped `]` in a comment, a game that
# is not closed.
GAMES = (
    b"A note before the games\n"
    b"(;GM[1]FF[4]SZ[9];B[ee];W[ee])\n"
    b"(;GM[1]FF[4]SZ[9]PB[x]PB[y];B[zz];W[dd])\n"
    b"(;GM[1]FF[4]SZ[9]KO[];B[cc]C[see [1] here];W[dd])\n"
    b"(;GM[1]FF[4]SZ[9];B[aa];W[bb]\n"
)


@pytest.fixture(scope="module")
def qipu_bin():
    """The `qipu` of this tree: QIPU_BIN when set, else built (or found up
    to date) by cargo."""
    if os.environ.get("QIPU_BIN"):
        return Path(os.environ["QIPU_BIN"])
    if shutil.which("cargo") is None:
        missing("cargo is not installed (it builds qipu for this test)")
    subprocess.run(["cargo", "build", "--quiet", "-p", "sgf-cli"], cwd=REPO, check=True)
    return REPO / "target" / "debug" / "qipu"


def shape(d):
    """What a diagnostic says, as `qipu check --json` prints it."""
    if isinstance(d, dict):
        return (d["code"], d["severity"], d["message"], d["line"], d["column"], d["start"], d["end"], d.get("fix"))
    return (d.code, d.severity, d.message, d.line, d.column, d.start, d.end, d.fix)


def checked(qipu_bin, path):
    r = subprocess.run([str(qipu_bin), "check", "--json", str(path)], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    return [shape(d) for d in json.loads(r.stdout)["diagnostics"]]


def per_game(path):
    return [[shape(d) for d in g.diagnostics] for g in qipu.read(path)]


@pytest.mark.parametrize(
    "name",
    [
        None,
        "testdata/hostile/mixed_charsets.sgf",
        "testdata/hostile/lowercase_games.sgf",
        "testdata/summary/unplayable.sgf",
    ],
)
def test_the_games_diagnostics_are_qipu_checks_of_the_file(qipu_bin, tmp_path, name):
    path = tmp_path / "games.sgf"
    if name is None:
        path.write_bytes(GAMES)
    else:
        path = REPO / name
    games = per_game(path)
    assert len(games) > 1
    # Every diagnostic of the file once, in its order, shared out to the games.
    assert [d for g in games for d in g] == checked(qipu_bin, path)
    if name is None:
        codes = [[d[0] for d in g] for g in games]
        assert codes[0] == ["S003", "G001"]
        assert "S018" in codes[1] and "V017" in codes[1]
        assert "F005" in codes[2]
        assert "S006" in codes[3]


@pytest.mark.parametrize("name", ["fox/fox-pro-part1.sgf", "kgs/kgs-6d-2001-2002.sgf"])
def test_a_large_collection_read_in_parts(qipu_bin, corpus, name):
    # Checked a part at a time (sgf_formats::parts), as `qipu check` does;
    # the first has tens of thousands of diagnostics, the second a few.
    path = corpus / "real" / name
    if not path.is_file():
        missing(f"{path} is not in the corpus")
    games = per_game(path)
    found = checked(qipu_bin, path)
    assert len(found) > 10
    assert [d for g in games for d in g] == found


def test_an_edited_game_is_checked_as_written():
    c = qipu.parse(b"(;GM[1]FF[4]SZ[9];B[ee])\n(;GM[1]FF[4]SZ[9];B[ee];W[dd])")
    assert [d.code for d in c[0].diagnostics] == []
    c[0].root["SZ"] = "3"
    # B[ee] is now off the board: the check of the file as written.
    assert "V017" in [d.code for d in c[0].diagnostics]
    assert [shape(d) for g in c for d in g.diagnostics] == [shape(d) for d in c.check()]
