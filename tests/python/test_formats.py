"""Other record formats (GIB, NGF, UGF/UGI, WGS) through qipu.read, read_many and to_arrow."""

import pytest

import qipu
from conftest import REPO, require_module

FORMATS = REPO / "testdata" / "formats"


def test_read_other_formats():
    for path, fmt in [
        (FORMATS / "gib" / "china_gbk.gib", "GIB"),
        (FORMATS / "ngf" / "even.ngf", "NGF"),
        (FORMATS / "ugf" / "sjis_handicap.ugf", "UGF"),
        (FORMATS / "wgs" / "even_resign.wgs", "WGS"),
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
    assert {c.format for c in colls} == {"SGF", "GIB", "NGF", "UGF", "WGS"}
    with pytest.raises(qipu.ParseError):
        list(qipu.read_many(files, threads=2))
    pa = require_module("pyarrow")
    table = qipu.to_arrow(FORMATS, skip_errors=True)
    assert table.num_rows == sum(len(c) for c in colls)
    assert isinstance(table, pa.Table)


def test_wgs_from_qq_go():
    coll = qipu.read(FORMATS / "wgs" / "handicap3_counting.wgs")
    assert coll.format == "WGS"
    game = coll[0]
    assert (game.info.black, game.info.white) == ("alpha", "beta")
    assert len(game.moves()) == 5
    data = (FORMATS / "wgs" / "even_resign.wgs").read_bytes()
    assert qipu.parse(data, format="auto").format == "WGS"
    with pytest.raises(qipu.ParseError) as e:
        qipu.parse(data[:100], format="WGS")
    assert "truncated" in str(e.value)


def test_formats_multigo_reads_and_qipu_cannot(tmp_path):
    p = tmp_path / "game.bdx"
    p.write_bytes(b"\x42\x44\x00\x01\xff\xfe")
    with pytest.raises(qipu.ParseError) as e:
        qipu.read(p)
    assert "format not supported" in str(e.value) and "BDX" in str(e.value)
