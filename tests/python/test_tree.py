"""Navigation, typed property values, editing and writing back."""

import pytest

import qipu

SGF = (
    b"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]HA[0]PB[Black]PW[White]AP[Qipu:1.0]"
    b"AB[aa:bb]AW[cc]LB[dd:one][ee:two]AR[aa:cc]PL[B]KO[]XX[private][two]"
    b";B[pd]C[first\\] move]N[Start]"
    b"(;W[dp];B[tt];W[])"
    b"(;W[dd]TR[dd][pp]))"
)


@pytest.fixture
def coll():
    return qipu.parse(SGF)


def test_navigation(coll):
    game = coll[0]
    root = game.root
    assert root.is_root and root.parent is None and root.depth == 0 and root.number == 0
    first = root.next
    assert first.parent == root
    assert first.number == 1
    a, b = first.children
    assert a["W"] == (3, 15) and b["W"] == (3, 3)
    assert [n.number for n in game.nodes()] == [0, 1, 2, 3, 4, 5]
    assert b.number == 5 and b.depth == 2
    line = game.main_line()
    assert len(line) == 5 and line[-1]["W"] is None
    assert line[3]["B"] is None  # tt is a pass on 19x19
    assert b.path() == [root, first, b]
    assert first.main_line() == line[1:]
    assert root.game == game
    assert game.root.game.collection == coll
    assert hash(first) == hash(root.next)
    assert first != root
    assert game.size == (19, 19)
    assert game.moves() == [("B", (15, 3)), ("W", (3, 15)), ("B", None), ("W", None)]


def test_typed_values(coll):
    root = coll[0].root
    p = root.properties
    assert p["GM"] == 1 and p["SZ"] == 19 and p["KM"] == 6.5
    assert p["PB"] == "Black"
    assert p["AP"] == ("Qipu", "1.0")
    assert p["AB"] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    assert p["AW"] == [(2, 2)]
    assert p["LB"] == [((3, 3), "one"), ((4, 4), "two")]
    assert p["AR"] == [((0, 0), (2, 2))]
    assert p["PL"] == "B"
    assert p["KO"] is True
    assert p["XX"] == ["private", "two"]
    assert list(p) == root.keys()
    first = root.next
    assert first["C"] == "first] move"
    assert first.raw("C") == ["first\\] move"]
    assert first.get("N") == "Start"
    assert first.get("GN") is None and first.get("GN", "x") == "x"
    assert "C" in first and "GN" not in first
    with pytest.raises(KeyError):
        first["GN"]
    assert first.move == ("B", (15, 3))
    assert root.move is None


def test_bad_values_come_back_as_text():
    root = qipu.parse(b"(;SZ[19]KM[six and a half]HA[x];B[1a])")[0].root
    assert root["KM"] == "six and a half"
    assert root["HA"] == "x"
    assert root.next["B"] == "1a"


def test_rectangular_size():
    root = qipu.parse(b"(;SZ[19:13];B[sm])")[0].root
    assert root["SZ"] == (19, 13)
    assert root.next["B"] == (18, 12)


def test_lossless_round_trip(coll):
    assert coll.to_sgf() == SGF
    assert not coll.is_edited


def test_edit_changes_only_the_edit(coll):
    first = coll[0].root.next
    first["C"] = "A better comment: [brackets] \\ and all"
    out = coll.to_sgf()
    assert out == SGF.replace(b"C[first\\] move]", b"C[A better comment: [brackets\\] \\\\ and all]")
    assert coll.is_edited
    again = qipu.parse(out)
    assert again[0].root.next["C"] == "A better comment: [brackets] \\ and all"


def test_set_typed_values(coll):
    root = coll[0].root
    root.set("KM", 7.5)
    root.set("HA", 2)
    root.set("AB", [(3, 3), (15, 15)])
    root.set("LB", [((0, 0), "A:b")])
    root.set("AR", [((0, 0), (5, 5))])
    root.set("AP", ("My:App", "2"))
    root.set("PL", "W")
    root.set("SZ", (19, 19))
    root.set("XY", ["one", "t]wo"])
    root["GC"] = "line1\nline2"
    again = qipu.parse(coll.to_sgf())[0].root
    assert again["KM"] == 7.5
    assert again["HA"] == 2
    assert again["AB"] == [(3, 3), (15, 15)]
    assert again["LB"] == [((0, 0), "A:b")]
    assert again["AR"] == [((0, 0), (5, 5))]
    assert again["AP"] == ("My:App", "2")
    assert again["PL"] == "W"
    assert again["SZ"] == 19
    assert again["XY"] == ["one", "t]wo"]
    assert again["GC"] == "line1\nline2"


def test_set_rejects_bad_values(coll):
    root = coll[0].root
    with pytest.raises(qipu.EditError):
        root.set("KM", [1, 2])
    with pytest.raises(qipu.EditError):
        root.set("AB", [(60, 0)])
    with pytest.raises(TypeError):
        root.set("AB", [("a", "b", "c")])
    with pytest.raises(qipu.EditError):
        root.set("lower", "x")
    with pytest.raises(qipu.EditError):
        root.set("PL", "green")
    assert coll.to_sgf() == SGF, "refused edits change nothing"


def test_remove(coll):
    root = coll[0].root
    assert root.remove("XX") is True
    assert root.remove("XX") is False
    del root["KO"]
    with pytest.raises(KeyError):
        del root["KO"]
    out = coll.to_sgf()
    assert b"XX" not in out and b"KO" not in out


def test_play_descends_or_adds_variation(coll):
    first = coll[0].root.next
    existing = first.play("W", (3, 15))
    assert existing == first.children[0]
    new = first.play("W", (16, 16))
    assert len(first.children) == 3 and first.children[2] == new
    assert new["W"] == (16, 16)
    cont = new.play("B", None)
    assert cont.move == ("B", None)
    with pytest.raises(qipu.EditError):
        new.play("B", (19, 0))
    with pytest.raises(qipu.EditError):
        new.play("X", (1, 1))
    again = qipu.parse(coll.to_sgf())
    assert again[0].root.next.children[2].next.move == ("B", None)


def test_build_a_game_from_scratch():
    coll = qipu.Collection()
    root = coll[0].root
    root.set("GM", 1)
    root.set("SZ", 9)
    root.set("PB", "Me")
    node = root
    for i, (c, p) in enumerate([("B", (2, 2)), ("W", (6, 6)), ("B", (2, 6))]):
        node = node.play(c, p)
        if i == 1:
            node["C"] = "tenuki"
    side = root.next.add_child(index=0)
    side.set("W", (4, 4))
    assert coll[0].main_line()[2]["W"] == (4, 4)
    assert coll.to_sgf().replace(b"\n", b"") == b"(;GM[1]SZ[9]PB[Me];B[cc](;W[ee])(;W[gg]C[tenuki];B[cg]))"
    canon = coll.to_sgf(canonical=True)
    assert canon.startswith(b"(;FF[4]\nCA[UTF-8]\nGM[1]")
    side.delete()
    assert coll[0].main_line()[2]["W"] == (6, 6)
    with pytest.raises(qipu.EditError):
        side["C"]
    with pytest.raises(qipu.EditError):
        side.set("C", "x")
    assert "removed" in repr(side)


def test_promote_and_move_to(coll):
    first = coll[0].root.next
    a, b = first.children
    b.promote()
    assert first.children == [b, a]
    b.move_to(1)
    assert first.children == [a, b]
    with pytest.raises(qipu.EditError):
        a.move_to(5)


def test_canonical_output_parses_to_same_tree(coll):
    canon = coll.to_sgf(canonical=True)
    again = qipu.parse(canon)
    assert not again.has_errors
    for x, y in zip(coll[0].nodes(), again[0].nodes()):
        px, py = x.properties, y.properties
        for k in ("FF", "CA"):
            px.pop(k, None)
            py.pop(k, None)
        assert px == py
    assert qipu.parse(canon).to_sgf(canonical=True) == canon
    assert b"AB[aa][ba][ab][bb]" in coll.to_sgf(canonical=True, point_lists="expanded")
    with pytest.raises(ValueError):
        coll.to_sgf(canonical=True, point_lists="zigzag")


def test_handles_share_the_document(coll):
    a = coll[0].root
    b = coll.games[0].root
    a["GN"] = "shared"
    assert b["GN"] == "shared"


def test_edit_keeps_charset(tmp_path):
    data = "(;CA[GB2312]C[黑先];B[aa])".encode("gb2312")
    coll = qipu.parse(data)
    coll[0].root.next["C"] = "白棋"
    out = coll.to_sgf()
    assert out == data[:-1] + "C[白棋])".encode("gb2312")
    with pytest.raises(qipu.EditError):
        coll[0].root["C"] = "😀"  # GB2312 cannot hold it
    p = tmp_path / "out.sgf"
    coll.write(p, canonical=True)
    assert qipu.read(p)[0].root.next["C"] == "白棋"
    assert p.read_bytes().decode("utf-8").count("CA[UTF-8]") == 1


def test_threads_share_a_collection():
    import threading

    coll = qipu.parse(b"(;SZ[19];B[aa];W[bb];B[cc])")
    nodes = coll[0].main_line()
    errors = []

    def work(k):
        try:
            for i in range(200):
                n = nodes[(i + k) % len(nodes)]
                n.set("C", f"thread {k} step {i}")
                n.get("C")
                coll.to_sgf()
                list(coll[0].positions())
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert all(n["C"].startswith("thread ") for n in nodes)
