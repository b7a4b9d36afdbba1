"""Other record formats (GIB, NGF, UGF/UGI) through qipu.read, read_many and to_arrow."""

import pytest

import qipu
from conftest import REPO

FORMATS = REPO / "testdata" / "formats"


def test_read_other_formats():
    for path, fmt in [
        (FORMATS / "gib" / "china_gbk.gib", "GIB"),
        (FORMATS / "ngf" / "even.ngf", "NGF"),
        (FORMATS / "ugf" / "sjis_handicap.ugf", "UGF"),
    ]:
        coll = qipu.read(path)
        assert coll.format == fmt, path
        game = coll[0]
        assert game.info.black and game.info.white
        assert len(game.moves()) > 0
        assert game.final_position().move_number > 0
        # The converted record writes as SGF.
        again = qipu.parse(coll.to_sgf(canonical=True))
        assert again[0].moves() == game.moves()
        for d in coll.diagnostics:
            assert d.line >= 1 and d.column >= 1


def test_sgf_is_read_as_sgf():
    coll = qipu.read(FORMATS / "sgf" / "fox_chinese.sgf")
    assert coll.format == "SGF"
    assert qipu.parse(b"(;GM[1])").format == "SGF"


def test_parse_other_format_from_memory():
    data = (FORMATS / "ngf" / "even.ngf").read_bytes()
    assert qipu.parse(data, format="auto").format == "NGF"
    assert qipu.parse(data, format="NGF")[0].moves() == qipu.read(FORMATS / "ngf" / "even.ngf")[0].moves()
    with pytest.raises(ValueError):
        qipu.parse(data, format="XYZ")


def test_unreadable_format_raises_parse_error():
    with pytest.raises(qipu.ParseError) as e:
        qipu.read(FORMATS / "ugf" / "crypt.ugf")
    assert "crypt.ugf" in str(e.value)


def test_bulk_reads_every_format():
    files = qipu.expand_paths(FORMATS)
    assert any(f.endswith(".gib") for f in files) and any(f.endswith(".ugi") for f in files)
    colls = list(qipu.read_many(files, threads=2, skip_errors=True))
    assert {c.format for c in colls} == {"SGF", "GIB", "NGF", "UGF"}
    with pytest.raises(qipu.ParseError):
        list(qipu.read_many(files, threads=2))
    pa = pytest.importorskip("pyarrow")
    table = qipu.to_arrow(FORMATS, skip_errors=True)
    assert table.num_rows == sum(len(c) for c in colls)
    assert isinstance(table, pa.Table)
