"""The type stubs cover the native module, and the package ships them."""

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import qipu
from conftest import missing
from qipu import _qipu


def stub_tree():
    return ast.parse((Path(qipu.__file__).parent / "_qipu.pyi").read_text())


def test_stubs_are_shipped():
    pkg = Path(qipu.__file__).parent
    assert (pkg / "py.typed").exists()
    assert (pkg / "_qipu.pyi").exists()


def test_every_public_member_has_a_stub():
    tree = stub_tree()
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    funcs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    missing = []
    for name, obj in vars(_qipu).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(obj):
            if name not in classes:
                missing.append(name)
                continue
            stubbed = set()
            for item in classes[name].body:
                if isinstance(item, ast.FunctionDef):
                    stubbed.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    stubbed.add(item.target.id)
            for member in vars(obj):
                if member.startswith("_"):
                    continue
                if member not in stubbed:
                    missing.append(f"{name}.{member}")
        elif callable(obj) and name not in funcs:
            missing.append(name)
    assert missing == []


def test_docstrings():
    for obj in (qipu.parse, qipu.read, qipu.read_many, qipu.to_arrow, qipu.Collection, qipu.Node,
                qipu.Game, qipu.Position, qipu.GameInfo, qipu.Node.play, qipu.Collection.to_sgf):
        assert obj.__doc__ and len(obj.__doc__) > 20, obj


def test_stubtest_is_clean(tmp_path):
    """``python -m mypy.stubtest qipu``: the stubs match the module at run
    time (final classes, read-only properties, aliases that exist)."""
    try:
        import mypy.stubtest  # noqa: F401
    except ImportError:
        missing("mypy is not installed (tests/python/run.sh installs it)")
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "qipu"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_package_docstring_examples_run():
    import doctest

    failures, tried = doctest.testmod(qipu, verbose=False)
    assert tried >= 4 and failures == 0
