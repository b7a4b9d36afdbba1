"""Archives read by the library's one collection reader: read_many and
to_arrow give the games of a .zip, .tar, .tar.gz and .7z as they give the
same files from a folder (review: a .zip gave one garbage game with 499
errors, a .tar.gz or .7z zero games and no error)."""

import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

import qipu
from conftest import require_module

REPO = Path(__file__).resolve().parents[2]


def _members(games_dir):
    out = []
    for f in qipu.expand_paths(games_dir):
        out.append((os.path.relpath(f, games_dir).replace(os.sep, "/"), Path(f).read_bytes()))
    return out


def _archives(games_dir, tmp_path):
    members = _members(games_dir)
    z = tmp_path / "g.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    paths = [z]
    for mode, ext in (("w", "tar"), ("w:gz", "tar.gz")):
        t = tmp_path / f"g.{ext}"
        with tarfile.open(t, mode) as tf:
            for name, data in members:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
        paths.append(t)
    return paths


def _member(path):
    """The member part of an archive member's path, the relative path of a file."""
    return path.split("!", 1)[1] if "!" in path else path


def test_read_many_reads_archive_members_in_order(games_dir, tmp_path):
    want = [(os.path.relpath(c.path, games_dir).replace(os.sep, "/"), c.to_sgf()) for c in qipu.read_many(games_dir)]
    assert len(want) == 5
    for a in _archives(games_dir, tmp_path):
        got = [( _member(c.path), c.to_sgf()) for c in qipu.read_many([a], threads=2)]
        assert got == want, a
        assert all(c.path.startswith(str(a) + "!") for c in qipu.read_many([a]))


def test_to_arrow_of_an_archive_is_the_folder(games_dir, tmp_path):
    pa = require_module("pyarrow")
    want = qipu.to_arrow(games_dir, threads=2)
    for a in _archives(games_dir, tmp_path):
        got = qipu.to_arrow([a], threads=2)
        assert got.num_rows == want.num_rows == 6, a
        for col in want.column_names:
            if col == "path":
                continue
            assert got.column(col).equals(want.column(col)), (a, col)
        paths = [_member(p) for p in got.column("path").to_pylist()]
        assert paths == [os.path.relpath(p, games_dir).replace(os.sep, "/") for p in want.column("path").to_pylist()]
    # An archive inside a folder is found by the walk.
    inside = games_dir / "more"
    inside.mkdir()
    _archives(games_dir / "a", inside)
    assert qipu.to_arrow(games_dir).num_rows == 6 + 3 * 2
    assert pa is not None


def test_7z(tmp_path):
    seven = REPO / "testdata" / "db" / "games.7z"
    colls = list(qipu.read_many([seven]))
    names = [_member(c.path) for c in colls]
    assert names == ["pro/a.sgf", "pro/b.sgf"] or sorted(names) == ["pro/a.sgf", "pro/b.sgf"]
    a = [c for c in colls if c.path.endswith("pro/a.sgf")][0]
    assert a.to_sgf() == qipu.read(REPO / "testdata" / "db" / "dup-a.sgf").to_sgf()


def test_a_damaged_archive_or_a_file_without_games_raises(tmp_path):
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(qipu.ParseError, match="broken.zip"):
        list(qipu.read_many([broken]))
    assert list(qipu.read_many([broken], skip_errors=True)) == []
    require_module("pyarrow")
    with pytest.raises(qipu.ParseError, match="broken.zip"):
        qipu.to_arrow([broken])
    notes = tmp_path / "notes.sgf"
    notes.write_bytes(b"just notes")
    with pytest.raises(qipu.ParseError, match="S002"):
        qipu.to_arrow([notes])
    assert qipu.to_arrow([notes, broken], skip_errors=True).num_rows == 0
