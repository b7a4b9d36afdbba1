"""The README's Python quick start runs as written (```python blocks of the
"Python" section; ```py blocks are recipes for engines not installed here)."""

import os
import re

import qipu
from conftest import REPO


def python_blocks():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("\n## Python\n")
    end = text.index("\n## ", start + 5)
    return re.findall(r"```python\n(.*?)```", text[start:end], flags=re.S)


def test_readme_python_blocks_run(tmp_path, capsys):
    blocks = python_blocks()
    assert len(blocks) >= 2
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        for code in blocks:
            exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "(19, 19)" in out


def test_spark_and_ray_recipes_are_documented():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert "mapInArrow" in text and "ray.data" in text and "LocalCluster" in text


def package_readme_blocks():
    text = (REPO / "crates" / "sgf-py" / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def random_game(path, moves=150, seed=19):
    """A legal 19x19 game made with qipu.Board (D4 kept empty for the README's variation)."""
    import random

    rng = random.Random(seed)
    board = qipu.Board(19)
    coll = qipu.Collection()
    node = coll[0].root
    node["SZ"] = 19
    node["PB"], node["PW"], node["RE"] = "Black", "White", "B+R"
    keep = qipu.from_gtp("D4", 19)
    for _ in range(moves):
        color = board.to_play
        while True:
            p = (rng.randrange(19), rng.randrange(19))
            if p != keep and board.is_legal(color, p):
                break
        board.play(color, p)
        node = node.play(color, p)
    coll.write(path)
    return board


def test_package_readme_ports_of_sgfmill_scripts(tmp_path, capsys):
    import difflib

    blocks = package_readme_blocks()
    assert len(blocks) >= 4
    end = random_game(tmp_path / "game.sgf")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        ns = {"__name__": "__readme__"}
        for code in blocks:
            exec(compile(code, "crates/sgf-py/README.md", "exec"), ns)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    # 1: moves as GTP vertices, numbered.
    game = qipu.read(tmp_path / "game.sgf")[0]
    first = game.moves()[0]
    assert f"1 {first[0]} {qipu.to_gtp(first[1], 19)}\n" in out
    assert f"150 " in out and "Black vs White" in out
    # 2: the board at move 100 with coordinates, and the refused move.
    assert "A B C D E F G H J K L M N O P Q R S T" in out
    assert str(game.position_at(move=100)) in out
    assert "refused: occupied" in out
    assert game.final_position().to_bytes() == end.position().to_bytes()
    # 3: only insertions: every byte of the input is still there, in order.
    before = (tmp_path / "game.sgf").read_bytes()
    after = (tmp_path / "annotated.sgf").read_bytes()
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    assert {op[0] for op in ops} == {"equal", "insert"}
    again = qipu.read(tmp_path / "annotated.sgf")[0]
    n100 = again.main_line()[100]
    assert n100["C"] == "Black could tenuki here."
    alt = n100.parent.children[1]
    assert alt.move == (n100.move[0], qipu.from_gtp("D4", 19)) and alt["C"] == "A quieter move."
