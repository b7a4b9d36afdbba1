"""Reading: parse bytes and str, read files, charsets, diagnostics."""

import pytest

import qipu


def test_parse_bytes_and_str():
    for data in (b"(;GM[1]FF[4]SZ[9];B[ee];W[gc])", "(;GM[1]FF[4]SZ[9];B[ee];W[gc])"):
        coll = qipu.parse(data)
        assert len(coll) == 1
        assert coll.diagnostics == []
        assert not coll.has_errors
        assert coll.path is None
        assert [n.move for n in coll[0].main_line()] == [None, ("B", (4, 4)), ("W", (6, 2))]


def test_parse_bytearray_and_memoryview():
    data = b"(;SZ[9];B[aa])"
    assert qipu.parse(bytearray(data))[0].root.next["B"] == (0, 0)
    assert qipu.parse(memoryview(data))[0].root.next["B"] == (0, 0)


def test_parse_rejects_other_types():
    with pytest.raises(TypeError):
        qipu.parse(12)


def test_collection_of_several_games():
    coll = qipu.parse(b"(;PB[a])(;PB[b])\n(;PB[c])")
    assert [g.info.black for g in coll] == ["a", "b", "c"]
    assert [g.index for g in coll.games] == [0, 1, 2]
    assert coll[-1].info.black == "c"
    with pytest.raises(IndexError):
        coll[3]


def test_str_input_ignores_ca():
    # A str is already Unicode: CA must not re-decode it.
    coll = qipu.parse("(;CA[GB2312]C[黑先])")
    assert coll[0].root["C"] == "黑先"


def test_charset_from_ca_and_detection(tmp_path):
    text = "(;GM[1]FF[4]CA[GB2312]SZ[19]PB[古力]PW[李世石]C[黑棋中盘胜])"
    p = tmp_path / "gb.sgf"
    p.write_bytes(text.encode("gb2312"))
    coll = qipu.read(p)
    g = coll[0]
    assert g.info.black == "古力"
    assert g.root["C"] == "黑棋中盘胜"
    assert g.charset in ("GBK", "GB2312", "GB18030")
    assert coll.path == str(p)
    # Without CA the charset is detected.
    p2 = tmp_path / "nodecl.sgf"
    p2.write_bytes("(;GM[1]SZ[19]PB[古力]PW[李世石]C[黑棋中盘胜，这是一个比较长的评论。])".encode("gbk"))
    assert qipu.read(p2)[0].info.white == "李世石"
    # And can be forced.
    assert qipu.parse(text.encode("gb2312"), charset="GB18030")[0].info.black == "古力"
    with pytest.raises(ValueError):
        qipu.parse(b"(;)", charset="no-such-charset")


def test_diagnostics_are_objects():
    coll = qipu.parse(b"(;GM[1]FF[4]\n;B[aa]W[bb]\n;C[unterminated")
    diags = coll.diagnostics
    assert diags, "bad input gives diagnostics"
    d = diags[-1]
    for attr in ("code", "name", "severity", "message", "line", "column", "start", "end", "fix"):
        assert hasattr(d, attr)
    assert d.severity in ("info", "warning", "error")
    assert d.code[0].isalpha() and d.code[1:].isdigit()
    assert isinstance(d.line, int) and d.line >= 1 and d.column >= 1
    assert d.start <= d.end
    codes = {x.code for x in diags}
    assert "S005" in codes  # value not closed
    assert str(d).startswith(f"{d.line}:{d.column}: ")
    assert coll.has_errors
    # The tree read so far is still there.
    assert coll[0].main_line()[1]["B"] == (0, 0)


def test_check_reports_rule_violations():
    coll = qipu.parse(b"(;GM[1]FF[4]SZ[9];B[aa]W[bb])")
    assert coll.diagnostics == []
    found = coll.check()
    assert any(d.name == "black-and-white" for d in found)


def test_strict_parse_raises_with_position():
    with pytest.raises(qipu.ParseError) as e:
        qipu.parse(b"(;GM[1]\n;B[aa];W[bb", strict=True)
    err = e.value
    assert isinstance(err, qipu.QipuError)
    assert err.line >= 1 and err.column >= 1
    assert err.code.startswith("S")
    assert err.diagnostic.code == err.code
    # strict succeeds on good input
    assert len(qipu.parse(b"(;GM[1])", strict=True)) == 1


def test_read_missing_file_is_oserror(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        qipu.read(tmp_path / "nope.sgf")
    assert "nope.sgf" in str(e.value.filename)


def test_garbage_never_crashes():
    import random

    rnd = random.Random(7)
    alphabet = b"();[]\\:ABCWabc \n\x00\xff\xe4"
    for _ in range(300):
        data = bytes(rnd.choice(alphabet) for _ in range(rnd.randint(0, 80)))
        coll = qipu.parse(data)
        coll.to_sgf()
        coll.to_sgf(canonical=True)
        for g in coll:
            g.info
            for node, pos in g.positions():
                node.properties
                pos.board
    # Lossless writing gives the input back, whatever it was.
    for _ in range(100):
        data = bytes(rnd.choice(alphabet) for _ in range(rnd.randint(0, 80)))
        assert qipu.parse(data).to_sgf() == data


def test_deep_tree_does_not_overflow():
    depth = 100_000
    data = b"(;SZ[19]" + b"(;C[x]" * depth + b")" * depth + b")"
    coll = qipu.parse(data)
    node = coll[0].root
    assert len(node.main_line()) == depth + 1


def test_repair_keeps_the_wording_and_is_idempotent():
    coll = qipu.parse("(;GM[1]FF[4]SZ[19]DT[2018.04.27]KM[5。5]RE[黑胜2又3/4子];B[pd]W[dd])".encode())
    changes = coll.repair()
    by_before = {c["before"]: c for c in changes}
    assert by_before["DT[2018.04.27]"]["after"] == "DT[2018-04-27]"
    assert by_before["KM[5。5]"]["after"] == "KM[5.5]"
    assert by_before["RE[黑胜2又3/4子]"]["after"] == "RE[B+5.5]"
    assert any(c["code"] == "F004" for c in changes)
    assert all(isinstance(c["line"], int) and c["line"] >= 1 for c in changes)
    assert coll[0].root["DT"] == "2018-04-27"
    assert "DT as written: 2018.04.27" in coll[0].root["GC"]
    assert coll.repair() == []
