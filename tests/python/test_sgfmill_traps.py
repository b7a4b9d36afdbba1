"""Issue 19: what trips up a script ported from sgfmill, and what such
scripts expect to find (coordinates, a Board, legality, pickling, threads,
clear messages)."""

import copy
import multiprocessing
import pickle

import pytest

import qipu
from conftest import REPO, require_module

GAME = (
    b"(;GM[1]FF[4]SZ[19]PB[Lee]PW[Cho]KM[6.5]RE[B+R]"
    b";B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[jp];W[qf];B[nc];W[rd];B[qc];W[qi]"
    b";B[qk];W[oi];B[ok];W[mj];B[mk];W[kj];B[kk];W[ij]C[a comment])"
)


# ---------------------------------------------------------------- coordinates


def test_gtp_vertices_skip_i_and_count_rows_from_the_bottom():
    assert qipu.to_gtp((15, 3), 19) == "Q16"
    assert qipu.to_gtp((8, 0), 19) == "J19"  # no I column
    assert qipu.to_gtp((0, 18)) == "A1"  # 19x19 by default
    assert qipu.to_gtp(None) == "pass"
    assert qipu.to_gtp((2, 0), (9, 5)) == "C5"  # (cols, rows)
    assert qipu.from_gtp("Q16", 19) == (15, 3)
    assert qipu.from_gtp("q16", 19) == (15, 3)
    assert qipu.from_gtp("PASS") is None
    assert qipu.from_gtp("C5", (9, 5)) == (2, 0)
    with pytest.raises(ValueError, match='expected a GTP vertex of the 9 board .* got "I3"|got \'I3\''):
        qipu.from_gtp("I3", 9)
    with pytest.raises(ValueError, match="got 'K10'"):
        qipu.from_gtp("K10", 9)
    with pytest.raises(ValueError, match="GTP names boards of at most 25 columns"):
        qipu.to_gtp((0, 0), 30)
    with pytest.raises(ValueError, match=r"expected a point of the 9 board .*got \(9, 0\)"):
        qipu.to_gtp((9, 0), 9)


def test_sgfmill_order_is_row_col_from_the_bottom():
    assert qipu.to_sgfmill((15, 3), 19) == (15, 15)
    assert qipu.to_sgfmill((0, 0), 19) == (18, 0)
    assert qipu.from_sgfmill((18, 0), 19) == (0, 0)
    assert qipu.to_sgfmill(None) is None and qipu.from_sgfmill(None) is None
    assert qipu.to_sgfmill((2, 0), (9, 5)) == (4, 2)
    with pytest.raises(ValueError, match=r"got \(5, 0\)"):
        qipu.from_sgfmill((5, 0), (9, 5))


def test_coordinates_agree_with_sgfmill_on_a_real_game():
    sgf = require_module("sgfmill.sgf")
    common = require_module("sgfmill.common")
    game = qipu.parse(GAME)[0]
    theirs = sgf.Sgf_game.from_bytes(GAME)
    their_moves = [n.get_move() for n in theirs.get_main_sequence()[1:]]
    ours = game.moves()
    assert len(ours) == len(their_moves)
    for (c, pt), (tc, tpt) in zip(ours, their_moves):
        assert c.lower() == tc
        assert qipu.to_sgfmill(pt, game.size) == tpt
        assert qipu.from_sgfmill(tpt, game.size) == pt
        assert qipu.to_gtp(pt, game.size) == common.format_vertex(tpt)


def test_the_board_text_shows_coordinates():
    pos = qipu.parse(b"(;SZ[9];B[cg];W[gc])")[0].final_position()
    lines = str(pos).splitlines()
    assert lines[0].split() == list("ABCDEFGHJ")
    rows = {ln.split()[0]: ln.split()[1:] for ln in lines[1:10]}
    assert list(rows) == [str(r) for r in range(9, 0, -1)]
    # Black's C3 in row 3, White's G7 (the last move, marked ">") in row 7.
    assert rows["3"][2] == "X" and rows["3"][-1] == "3"
    assert "O" in " ".join(rows["7"]) and rows["7"][-1] == "7"
    assert "last move" in lines[-1]
    assert pos[qipu.from_gtp("C3", 9)] == 1 and pos[qipu.from_gtp("G7", 9)] == 2


def test_jupyter_shows_a_picture_with_coordinates():
    pos = qipu.parse(b"(;SZ[9];B[cg];W[gc])")[0].final_position()
    svg = pos._repr_svg_()
    assert svg.startswith("<svg") and "viewBox" in svg and "stone" in svg
    assert pos._repr_html_().startswith("<div") and "<svg" in pos._repr_html_()
    b = qipu.Board(9)
    assert b._repr_svg_().startswith("<svg")
    # Coordinates are drawn: the picture is wider than one without them.
    assert "coord" in svg or len(svg) > len(str(pos))


# ---------------------------------------------------------------- legality


def test_play_refuses_an_occupied_point_unless_forced():
    coll = qipu.parse(b"(;SZ[9];B[cc])")
    node = coll[0].main_line()[-1]
    with pytest.raises(qipu.IllegalMoveError) as e:
        node.play("W", (2, 2))
    assert e.value.reason == "occupied" and e.value.point == (2, 2) and e.value.color == "W"
    assert "there is already a stone" in str(e.value) and "force=True" in str(e.value)
    # sgfmill raises ValueError: code that catches it keeps working.
    assert isinstance(e.value, ValueError) and isinstance(e.value, qipu.EditError)
    assert node.children == []  # nothing was added
    forced = node.play("W", (2, 2), force=True)
    assert forced.move == ("W", (2, 2))
    # An existing child with that move is navigation, not a new move.
    assert node.play("W", (2, 2)) == forced


def test_play_refuses_suicide_and_ko_retake():
    # Black captures the ko at (2, 1); White may not retake at once.
    ko = qipu.parse(b"(;SZ[5]AB[ba][ab][bc]AW[ca][bb][cc][db])")[0].root
    after = ko.play("B", (2, 1))
    with pytest.raises(qipu.IllegalMoveError) as e:
        after.play("W", (1, 1))
    assert e.value.reason == "ko"
    assert after.play("W", (4, 4)).move == ("W", (4, 4))
    corner = qipu.parse(b"(;SZ[5]AB[ba][ab])")[0].root
    with pytest.raises(qipu.IllegalMoveError, match="suicide"):
        corner.play("W", (0, 0))
    assert corner.play("B", (0, 0)).move == ("B", (0, 0))


def test_board_plays_with_captures_ko_and_legality():
    b = qipu.Board(5)
    for color, pt in [("B", (1, 0)), ("W", (2, 0)), ("B", (0, 1)), ("W", (1, 1))]:
        assert b.play(color, pt) == []
    b.play("B", (3, 0))
    b.play("W", (4, 4))
    b.play("B", (2, 1))
    assert b.play("W", (3, 1)) == []
    # Black takes the ko by capturing (2, 0)... set it up directly:
    k = qipu.Board(5)
    k.setup(black=[(1, 0), (0, 1), (1, 2)], white=[(2, 0), (1, 1), (2, 2), (3, 1)])
    assert k.play("B", (2, 1)) == [(1, 1)]
    assert k.ko == (1, 1) and k.captures == {"B": 1, "W": 0}
    assert k.legality("W", (1, 1)) == "ko" and not k.is_legal("W", (1, 1))
    with pytest.raises(qipu.IllegalMoveError, match="retakes a ko"):
        k.play("W", (1, 1))
    assert k.legality("W", (2, 1)) == "occupied"
    assert k.legality("W", (0, 0)) == "suicide" and k.legality("B", (0, 0)) is None
    assert k.legality("W", None) is None
    k.play("W", None)  # a pass ends the ko
    assert k.ko is None and k.last_move == ("W", None) and k.to_play == "B"
    assert k.liberties((2, 1)) == 1 and k.liberties((1, 2)) == 3 and k.liberties((4, 4)) == 0
    assert k[(2, 1)] == 1 and k.board[1, 2] == 1 and k.size == (5, 5)
    # force=True executes an illegal move as SGF records do.
    k.play("W", (2, 1), force=True)
    assert k[(2, 1)] == 2
    k.to_play = "W"
    assert k.to_play == "W"


def test_board_snapshots_copies_and_positions():
    game = qipu.parse(GAME)[0]
    pos = game.position_at(move=10)
    board = pos.to_board()
    assert board.position() == pos
    board.play(board.to_play, (18, 18))
    assert board.position() != pos and pos[(18, 18)] == 0
    twin = board.copy()
    twin.play(twin.to_play, (17, 18))
    assert board[(17, 18)] == 0 and twin[(17, 18)] != 0
    assert copy.deepcopy(board) == board and copy.copy(board) is not board
    back = pickle.loads(pickle.dumps(board))
    assert back == board and back.ko == board.ko and back.last_move == board.last_move


def test_position_at_counts_main_line_moves():
    game = qipu.parse(GAME)[0]
    positions = [p for _, p in game.positions()]
    for n in (0, 1, 7, 20):
        assert game.position_at(move=n) == positions[n]
        assert game.position_at(n).move_number == n
    with pytest.raises(IndexError, match="expected a move number from 0 to 20 .*got 21"):
        game.position_at(move=21)
    with pytest.raises(IndexError, match="got -1"):
        game.position_at(move=-1)
    with pytest.raises(TypeError, match="expected a move number \\(an int\\), got '3'"):
        game.position_at(move="3")


# ---------------------------------------------------------------- arguments


def test_arguments_are_checked_with_what_was_expected_and_got():
    node = qipu.parse(b"(;SZ[9])")[0].root
    with pytest.raises(TypeError, match=r"expected a point \(col, row\) of two ints, got \(1\.5, 2\)"):
        node.play("B", (1.5, 2))
    with pytest.raises(TypeError, match=r"got \(1, 2, 3\)"):
        node.play("B", (1, 2, 3))
    with pytest.raises(TypeError, match=r"got 'dd'"):
        node.play("B", "dd")
    with pytest.raises(qipu.EditError, match=r"expected a point of the 9 board \(col 0-8, row 0-8\), got \(9, 0\)"):
        node.play("B", (9, 0))
    with pytest.raises(TypeError, match='expected a colour "B" or "W", got 1'):
        node.play(1, (0, 0))
    with pytest.raises(qipu.EditError, match="expected a colour \"B\" or \"W\", got 'X'"):
        node.play("X", (0, 0))
    with pytest.raises(TypeError, match=r"expected a point \(col, row\) of two ints, got \(True, 0\)"):
        node.set("AB", [(True, 0)])
    with pytest.raises(qipu.EditError, match="expected a property identifier .*got 'c'"):
        node.set("c", "x")
    with pytest.raises(ValueError, match="expected a board size: an int from 1 to 52 or \\(cols, rows\\), got 0"):
        qipu.Board(0)
    with pytest.raises(ValueError, match=r"got \(19, 60\)"):
        qipu.Board((19, 60))
    with pytest.raises(TypeError, match="expected a list of points"):
        qipu.Board(9).setup(black="dd")
    with pytest.raises(IndexError, match=r"got \(9, 9\)"):
        qipu.Board(9)[(9, 9)]
    with pytest.raises(TypeError, match="expected a GTP vertex .* got 16"):
        qipu.from_gtp(16)
    # NumPy ints are ints.
    np = require_module("numpy")
    assert qipu.to_gtp((np.int64(15), np.uint8(3))) == "Q16"


def test_set_raw_writes_values_as_given():
    coll = qipu.parse(b"(;SZ[9]C[old];B[aa])")
    root = coll[0].root
    root.set_raw("C", "a\\]b")
    assert root["C"] == "a]b" and root.raw("C") == ["a\\]b"]
    root.set_raw("XX", ["1", "2"])
    assert root.raw("XX") == ["1", "2"]
    root.set_raw("KM", "650")
    assert coll[0].info.komi == 6.5
    assert coll.to_sgf() == b"(;SZ[9]C[a\\]b]XX[1][2]KM[650];B[aa])"
    with pytest.raises(qipu.EditError):
        root.set_raw("C", "a]b")  # would not stay one value
    with pytest.raises(TypeError, match="expected a str or a list of str"):
        root.set_raw("C", 5)
    with pytest.raises(qipu.EditError, match="at least one value"):
        root.set_raw("C", [])


# ---------------------------------------------------------------- pickle and copies


def test_pickle_and_deepcopy_of_collections_games_nodes_positions():
    coll = qipu.parse(GAME)
    back = pickle.loads(pickle.dumps(coll))
    assert back.to_sgf() == coll.to_sgf() and back.path == coll.path
    game = coll[0]
    g2 = pickle.loads(pickle.dumps(game))
    assert g2.moves() == game.moves() and g2.info.black == "Lee"
    node = game.main_line()[5]
    n2 = pickle.loads(pickle.dumps(node))
    assert n2.move == node.move and n2.number == node.number
    pos = game.final_position()
    assert pickle.loads(pickle.dumps(pos)) == pos
    # deepcopy clones: edits to the copy leave the original alone.
    clone = copy.deepcopy(game)
    clone.root["PB"] = "Someone else"
    clone.main_line()[-1].play("B", (0, 0))
    assert game.info.black == "Lee" and len(game.moves()) == 20 and len(clone.moves()) == 21
    # Handles copied together share one copy of their collection.
    g, n = copy.deepcopy([game, node])
    assert n.game == g and g.collection != game.collection
    assert copy.copy(game) == game


def test_pickle_keeps_diagnostics_charset_and_edits():
    data = "(;GM[1]CA[GB2312]PB[李昌镐]SZ[19];B[pd];W[".encode("gb2312")
    coll = qipu.parse(data)
    coll[0].root["C"] = "新的"
    back = pickle.loads(pickle.dumps(coll))
    assert back.to_sgf() == coll.to_sgf()
    assert [(d.code, d.line, d.column) for d in back.diagnostics] == [
        (d.code, d.line, d.column) for d in coll.diagnostics
    ]
    assert back.has_errors and back[0].info.black == "李昌镐" and back[0].charset == coll[0].charset
    # A str parsed (charset forced to UTF-8) stays Unicode.
    s = qipu.parse("(;CA[Latin-1]PB[Lee Chang-ho 李昌镐])")
    assert pickle.loads(pickle.dumps(s))[0].info.black == "Lee Chang-ho 李昌镐"
    # A record converted from another format keeps its format and diagnostics' lines.
    gib = qipu.read(REPO / "testdata" / "formats" / "gib" / "china_gbk.gib")
    g2 = pickle.loads(pickle.dumps(gib))
    assert g2.format == "GIB" == gib.format and g2.path == gib.path
    assert g2[0].moves() == gib[0].moves()
    assert [(d.code, d.line) for d in g2.diagnostics] == [(d.code, d.line) for d in gib.diagnostics]


def _summary(game):
    return game.info.black, game.moves(), game.final_position().to_bytes()


def _replay(coll):
    # Runs in a worker: the collection arrived by pickle, the position goes back by pickle.
    return coll[0].final_position(), len(coll[0].moves())


def test_multiprocessing_round_trip():
    colls = [qipu.parse(GAME), qipu.parse(b"(;SZ[9]PB[x];B[ee];W[ce])")]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        summaries = pool.map(_summary, [c[0] for c in colls])
        replays = pool.map(_replay, colls)
    assert summaries == [_summary(c[0]) for c in colls]
    assert [r[0] for r in replays] == [c[0].final_position() for c in colls]
    assert [r[1] for r in replays] == [20, 2]


# ---------------------------------------------------------------- namespace


def test_the_namespace_is_all_and_only_all():
    public = {n for n in dir(qipu) if not n.startswith("_")} | {"__version__"}
    assert public == set(qipu.__all__)
    for name in ("os", "Union", "Iterable", "TYPE_CHECKING", "annotations", "sys"):
        assert not hasattr(qipu, name), name
    # The type aliases of the stubs exist at run time.
    assert qipu.Point == tuple[int, int] or str(qipu.Point) == "typing.Tuple[int, int]"
    for name in ("Point", "Move", "ColorStr", "PartialDate", "PathLike", "BoardSize"):
        assert getattr(qipu, name) is not None


def test_indices_and_inputs_are_checked_too():
    coll = qipu.parse(b"(;SZ[9];B[aa](;W[bb])(;W[cc]))")
    with pytest.raises(IndexError, match="expected a game index from 0 to 0 .*got 5"):
        coll[5]
    node = coll[0].root.next
    with pytest.raises(qipu.EditError, match="expected a child index from 0 to 2, got -1"):
        node.add_child(-1)
    with pytest.raises(qipu.EditError, match="expected a child index from 0 to 1, got 7"):
        node.children[0].move_to(7)
    assert node.add_child(0) == node.children[0]
    with pytest.raises(TypeError, match="expected bytes or str to parse .*got 5"):
        qipu.parse(5)
    with pytest.raises(TypeError, match="expected bytes or str to parse, got 5"):
        qipu.parse(5, format="GIB")
