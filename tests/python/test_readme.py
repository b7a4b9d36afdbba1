"""The README's Python quick start runs as written (```python blocks of the
"Python" section; ```py blocks are recipes for engines not installed here)."""

import os
import re

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
