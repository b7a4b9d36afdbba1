"""Go: positions as NumPy boards, captures, player to move, game info."""

import datetime

import numpy as np
import pytest

import qipu


def test_positions_along_main_line():
    # Black captures the white stone at (1, 0) with its fourth move.
    coll = qipu.parse(b"(;GM[1]SZ[5];B[aa];W[ba];B[bb];W[dd];B[ca](;W[ae])(;W[ee]))")
    seen = list(coll[0].positions())
    assert len(seen) == 7
    node, pos = seen[0]
    assert node.is_root
    assert pos.board.shape == (5, 5) and pos.board.dtype == np.uint8
    assert pos.board.sum() == 0 and pos.to_play == "B" and pos.move_number == 0
    node, pos = seen[5]
    assert node.move == ("B", (2, 0))
    b = pos.board
    assert b[0, 1] == 0, "the white stone at col 1, row 0 was captured"
    assert b[0, 0] == 1 and b[1, 1] == 1 and b[0, 2] == 1 and b[3, 3] == 2
    assert pos.captures == {"B": 1, "W": 0}
    assert pos.to_play == "W"
    assert pos.move_number == 5
    assert pos.last_move == ("B", (2, 0))
    assert pos[(2, 0)] == 1 and pos[(1, 0)] == 0
    with pytest.raises(IndexError):
        pos[(5, 0)]
    # The text form has GTP coordinates; the last move (C5) is marked ">".
    assert str(pos).splitlines()[:2] == ["   A B C D E", "5  X .>X . . 5"]
    # The main line takes the first variation.
    assert seen[-1][0].move == ("W", (0, 4))
    # Boards are independent, writable copies.
    b[0, 0] = 2
    assert pos.board[0, 0] == 1


def test_rectangular_board_shape():
    coll = qipu.parse(b"(;SZ[7:3];B[ga];W[ac])")
    pos = coll[0].final_position()
    assert pos.shape == (3, 7) and pos.board.shape == (3, 7)
    assert pos.board[0, 6] == 1 and pos.board[2, 0] == 2
    assert len(pos.to_bytes()) == 21


def test_node_position_and_variations():
    coll = qipu.parse(b"(;SZ[9]AB[cc][gg]HA[2];W[ee](;B[dd])(;B[ff];W[aa]))")
    root = coll[0].root
    pos = root.position()
    assert pos.board.sum() == 2 and pos.to_play == "W"
    var = root.next.children[1].next
    p = var.position()
    assert p.move_number == 3
    assert p.board[5, 5] == 1 and p.board[3, 3] == 0 and p.board[0, 0] == 2
    assert p.to_play == "B"


def test_ko_and_pass():
    coll = qipu.parse(b"(;SZ[5]AB[ba][ab][bc]AW[ca][db][cc][bb]PL[B];B[cb];W[];B[dd])")
    seen = list(coll[0].positions())
    _, after_take = seen[1]
    assert after_take.captures == {"B": 1, "W": 0}
    assert after_take.ko == (1, 1)
    _, after_pass = seen[2]
    assert after_pass.last_move == ("W", None)
    assert after_pass.ko is None


def test_final_position_agrees_with_positions():
    coll = qipu.parse(b"(;SZ[9];B[ee];W[ef];B[fe];W[ff];B[df];W[eg];B[de])")
    last = list(coll[0].positions())[-1][1]
    final = coll[0].final_position()
    assert (last.board == final.board).all()
    assert final.move_number == 7 and final.to_play == "W"


def test_game_info_typed():
    coll = qipu.parse(
        "(;GM[1]SZ[19]PB[Lee Sedol]BR[9p]PW[AlphaGo]WR[-]RE[W+Resign]KM[7.5]HA[0]"
        "DT[2016-03-09,10,12]EV[Google DeepMind Challenge]RO[1]PC[Seoul]RU[Chinese]TM[7200];B[qd])"
    )
    info = coll[0].info
    assert info.black == "Lee Sedol" and info.white == "AlphaGo" and info.black_rank == "9p"
    assert info.komi == 7.5 and info.handicap == 0 and info.time_limit == 7200.0
    assert info.dates == [datetime.date(2016, 3, 9), datetime.date(2016, 3, 10), datetime.date(2016, 3, 12)]
    assert info.date == datetime.date(2016, 3, 9)
    assert info.date_text == "2016-03-09,10,12"
    r = info.result
    assert (r.winner, r.by, r.margin, r.raw) == ("W", "resign", None, "W+Resign")
    assert info.event == "Google DeepMind Challenge" and info.rules == "Chinese"
    d = info.as_dict()
    assert d["result"]["winner"] == "W" and d["komi"] == 7.5


@pytest.mark.parametrize(
    "re_,expected",
    [
        ("B+3.5", ("B", "score", 3.5)),
        ("W+", ("W", "unspecified", None)),
        ("B+T", ("B", "time", None)),
        ("W+F", ("W", "forfeit", None)),
        ("0", (None, "draw", None)),
        ("Void", (None, "void", None)),
        ("?", (None, "unknown", None)),
        # Written as people write them: the library's one reading.
        ("Black wins", ("B", "unspecified", None)),
        ("黑胜2又3/4子", ("B", "score", 5.5)),
        ("nobody knows", (None, None, None)),
    ],
)
def test_results(re_, expected):
    r = qipu.parse(f"(;RE[{re_}])")[0].info.result
    assert (r.winner, r.by, r.margin) == expected
    assert r.raw == re_


def test_partial_and_bad_dates():
    info = qipu.parse("(;DT[1995-07])")[0].info
    assert info.dates == [(1995, 7)]
    assert qipu.parse("(;DT[1995])")[0].info.dates == [(1995,)]
    bad = qipu.parse("(;DT[last tuesday]KM[lots])")[0].info
    assert bad.dates == [] and bad.date is None and bad.date_text == "last tuesday"
    assert bad.komi is None
    empty = qipu.parse("(;)")[0].info
    assert empty.black is None and empty.result is None and empty.dates == []


def test_boards_stack_the_main_line():
    coll = qipu.parse(b"(;SZ[9:7]AB[aa];B[ee];W[gc];B[];W[ab])")
    g = coll[0]
    boards = g.boards()
    assert boards.shape == (5, 7, 9) and boards.dtype == np.uint8
    for i, (_node, pos) in enumerate(g.positions()):
        assert (boards[i] == pos.board).all()
    boards[0, 0, 0] = 0  # writable
