"""Qipu (棋谱): fast, lossless SGF for Go, from Python.

Read any SGF file (every charset, damaged or not) with diagnostics, walk and
edit the game tree with typed property values, write it back byte for byte
or in canonical FF[4] UTF-8, replay Go positions as NumPy boards, and turn
directories of games into Arrow tables and Parquet files in parallel.

>>> import qipu
>>> coll = qipu.parse(b"(;GM[1]FF[4]SZ[9]PB[Lee];B[ee];W[gc])")
>>> game = coll[0]
>>> game.info.black
'Lee'
>>> [n.move for n in game.main_line()[1:]]
[('B', (4, 4)), ('W', (6, 2))]

Property values are typed by the property's SGF value type:

=====================  ==============================================
SGF type               Python
=====================  ==============================================
none (``KO``)          ``True``
number, double         ``int``
real (``KM``)          ``float``
color (``PL``)         ``"B"`` or ``"W"``
text, simple text      ``str``
point, stone           ``(col, row)``, 0-based from the top-left
move (``B``, ``W``)    ``(col, row)``, or ``None`` for a pass
point lists (``AB``)   ``list`` of ``(col, row)`` (rectangles expanded)
``AR``, ``LN``         ``list`` of ``((col, row), (col, row))``
``LB``                 ``list`` of ``((col, row), str)``
``AP``                 ``(str, str)``
``SZ``                 ``int``, or ``(cols, rows)`` when not square
``FG``                 ``True`` or ``(int, str)``
unknown properties     ``list`` of ``str``
=====================  ==============================================

A value that does not parse as its type comes back as its text (``str``),
so reading never raises. ``node.set`` takes the same shapes; a ``str`` is
taken as the value's text (escaped for you) for every type but colours.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, Union

from ._qipu import (
    Collection,
    Database,
    Diagnostic,
    EditError,
    Game,
    GameInfo,
    GameResult,
    Node,
    ParseError,
    Position,
    Positions,
    QipuError,
    ReadMany,
    __version__,
    find_all,
    parse,
    read,
)
from ._qipu import arrow_columns as _arrow_columns
from ._qipu import expand_paths_native as _expand_paths_native
from ._qipu import read_many_native as _read_many_native
from ._qipu import record_extensions as _record_extensions

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__all__ = [
    "Collection",
    "Database",
    "Diagnostic",
    "EditError",
    "Game",
    "GameInfo",
    "GameResult",
    "Node",
    "ParseError",
    "Position",
    "Positions",
    "QipuError",
    "ReadMany",
    "SGF_EXTENSIONS",
    "__version__",
    "expand_paths",
    "find_all",
    "parse",
    "read",
    "read_many",
    "to_arrow",
    "to_parquet",
]

PathLike = Union[str, "os.PathLike[str]"]

#: File extensions picked up when a directory is given (case-insensitive):
#: those of every format Qipu reads (SGF, Tygem GIB, NGF, Pandanet UGF/UGI, QQ Go WGS).
SGF_EXTENSIONS = tuple(_record_extensions())


def expand_paths(paths: PathLike | Iterable[PathLike]) -> list[str]:
    """The files to read: a file path, a directory (searched recursively for
    ``SGF_EXTENSIONS`` files, in sorted order, by the same walker as the
    ``qipu`` command: links leaving the directory are not followed, link
    loops end) or an iterable of either. A path that is not a directory is
    passed through as it is (reading it reports any problem)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: list[str] = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            out.extend(os.fspath(f) for f in _expand_paths_native([p]))
        else:
            out.append(p)
    return out


def _threads(threads: int | None) -> int:
    if threads is None:
        return os.cpu_count() or 1
    if threads < 1:
        raise ValueError("threads must be at least 1")
    return int(threads)


def read_many(
    paths: PathLike | Iterable[PathLike],
    threads: int | None = None,
    *,
    skip_errors: bool = False,
) -> ReadMany:
    """Reads many files in parallel, outside the GIL, and streams them back.

    Returns an iterator of :class:`Collection` in input order (each with its
    ``path``), parsed by ``threads`` worker threads (default: one per CPU)
    while you consume them; only a few documents are buffered ahead.
    A directory is searched recursively (see :func:`expand_paths`).
    A file that cannot be read raises ``OSError`` when its turn comes, or
    is skipped with ``skip_errors=True``.
    """
    return _read_many_native(expand_paths(paths), _threads(threads), skip_errors)


def _column(pa, n: int, spec: tuple):
    name, kind = spec[0], spec[1]
    if kind == "string":
        valid, offsets, data = spec[2:]
        arr = pa.Array.from_buffers(
            pa.string(), n, [pa.py_buffer(valid), pa.py_buffer(offsets), pa.py_buffer(data)]
        )
    elif kind in ("int16", "int32", "float64"):
        valid, values = spec[2:]
        arr = pa.Array.from_buffers(
            getattr(pa, kind)(), n, [pa.py_buffer(valid), pa.py_buffer(values)]
        )
    elif kind in ("moves", "points"):
        import pyarrow.compute as pc

        offsets, colors, xs, ys, valid = spec[2:]
        m = len(xs)
        fields = []
        if kind == "moves":
            codes = pa.Array.from_buffers(pa.uint8(), m, [None, pa.py_buffer(colors)])
            fields.append(("color", pc.if_else(pc.equal(codes, 1), "B", "W")))
        fields.append(("col", pa.Array.from_buffers(pa.int8(), m, [pa.py_buffer(valid), pa.py_buffer(xs)])))
        fields.append(("row", pa.Array.from_buffers(pa.int8(), m, [pa.py_buffer(valid), pa.py_buffer(ys)])))
        values = pa.StructArray.from_arrays([f[1] for f in fields], names=[f[0] for f in fields])
        offs = pa.Array.from_buffers(pa.int32(), n + 1, [None, pa.py_buffer(offsets)])
        arr = pa.ListArray.from_arrays(offs, values)
    else:  # pragma: no cover - the native side only makes the kinds above
        raise QipuError(f"unknown column kind {kind}")
    return name, arr


def to_arrow(
    paths: PathLike | Iterable[PathLike],
    threads: int | None = None,
    *,
    skip_errors: bool = False,
) -> "pyarrow.Table":
    """Reads files in parallel and returns a ``pyarrow.Table`` with one row per game.

    Columns: ``path``, ``game`` (index in its file), ``board_cols``,
    ``board_rows``, ``charset``, the game information as text (``black``,
    ``white``, ``black_rank``, ``white_rank``, ``date``, ``result``,
    ``event``, ``round``, ``place``, ``rules``, ``name``, ``time_control``),
    ``year`` (of the first ``DT`` date), ``winner`` (``"B"``/``"W"``),
    ``win_by`` (``score``, ``resign``, ``time``, ``forfeit``,
    ``unspecified``, ``draw``, ``void``, ``unknown``), ``margin``, ``komi``,
    ``handicap``, ``num_moves``, ``moves`` (the main line: a list of
    ``{color, col, row}`` structs, ``col``/``row`` null for a pass),
    ``setup_black``/``setup_white`` (the root's ``AB``/``AW`` as
    ``{col, row}`` lists) and ``errors``/``warnings`` (diagnostic counts).

    ``paths`` is a file, a directory (searched recursively) or an iterable of
    them; unreadable files raise ``OSError`` unless ``skip_errors=True``.
    """
    import pyarrow as pa

    n, specs = _arrow_columns(expand_paths(paths), _threads(threads), skip_errors)
    cols = [_column(pa, n, s) for s in specs]
    return pa.table({name: arr for name, arr in cols})


def to_parquet(
    paths: PathLike | Iterable[PathLike],
    destination: PathLike,
    threads: int | None = None,
    *,
    skip_errors: bool = False,
    **write_options,
) -> int:
    """Writes the :func:`to_arrow` table of ``paths`` to the Parquet file
    ``destination`` (``write_options`` go to ``pyarrow.parquet.write_table``).
    Returns the number of games written."""
    import pyarrow.parquet as pq

    table = to_arrow(paths, threads, skip_errors=skip_errors)
    pq.write_table(table, os.fspath(destination), **write_options)
    return table.num_rows
