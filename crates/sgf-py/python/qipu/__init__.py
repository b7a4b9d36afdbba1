"""Qipu (棋谱): fast, lossless SGF for Go, from Python.

**Coordinates.** A qipu point is ``(col, row)`` counted from the
**top-left** corner, 0-based, as SGF writes it (``pd`` is ``(15, 3)``).
sgfmill's points are ``(row, col)`` counted from the **bottom-left**, and
GTP names points like ``"Q16"`` (no letter I, rows from the bottom). All
are tuples of ints, so a script ported from sgfmill runs and silently reads
wrong points unless it converts: use :func:`to_gtp`/:func:`from_gtp` and
:func:`to_sgfmill`/:func:`from_sgfmill` (each takes the board size), and
``print(position)`` draws the board with GTP coordinates::

    >>> import qipu
    >>> qipu.to_gtp((15, 3), 19), qipu.from_gtp("Q16", 19)
    ('Q16', (15, 3))
    >>> qipu.to_sgfmill((15, 3), 19), qipu.from_sgfmill((15, 15), 19)
    ((15, 15), (15, 3))

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


import os as _os
import sys as _sys
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from . import _qipu
from ._qipu import (
    Board,
    Collection,
    Database,
    Diagnostic,
    EditError,
    Engine,
    EngineError,
    Game,
    GameInfo,
    GameResult,
    IllegalMoveError,
    Node,
    ParseError,
    Position,
    Positions,
    QipuError,
    ReadMany,
    __version__,
    find_all,
    from_gtp,
    from_sgfmill,
    parse,
    read,
    score,
    to_gtp,
    to_sgfmill,
)
from ._types import BoardSize, ColorStr, Move, PartialDate, PathLike, Point

if _TYPE_CHECKING:  # pragma: no cover
    from typing import Callable as _Callable
    from typing import Iterable as _Iterable
    from typing import Union as _Union

    import pandas as _pandas  # type: ignore  # optional, maybe without type stubs
    import pyarrow as _pyarrow  # type: ignore  # optional, maybe without type stubs

    _Progress = _Union[bool, _Callable[[int, int, int], object]]

__all__ = [
    "dataset",
    "Board",
    "BoardSize",
    "Collection",
    "ColorStr",
    "Database",
    "Diagnostic",
    "EditError",
    "Engine",
    "EngineError",
    "Game",
    "GameInfo",
    "GameResult",
    "IllegalMoveError",
    "Move",
    "Node",
    "ParseError",
    "PartialDate",
    "PathLike",
    "Point",
    "Position",
    "Positions",
    "QipuError",
    "ReadMany",
    "SGF_EXTENSIONS",
    "__version__",
    "expand_paths",
    "find_all",
    "from_gtp",
    "from_sgfmill",
    "parse",
    "read",
    "read_many",
    "score",
    "to_arrow",
    "to_gtp",
    "to_pandas",
    "to_parquet",
    "to_sgfmill",
]

#: File extensions picked up when a directory is given (case-insensitive):
#: those of every format Qipu reads (SGF, Tygem GIB, NGF, Pandanet UGF/UGI, QQ Go WGS).
SGF_EXTENSIONS = tuple(_qipu.record_extensions())


def _restore(kind: str, *args: _Any) -> _Any:
    """Rebuilds a pickled object (the ``__reduce__`` of the native classes)."""
    if kind == "collection":
        return _qipu._restore_collection(args[0])
    if kind in ("position", "board"):
        return _qipu._restore_position(kind, args[0])
    if kind == "game":
        coll, index = args
        return coll[index]
    if kind == "node":
        coll, game, number = args
        return coll[game].nodes()[number]
    raise QipuError(f"cannot unpickle a qipu object of kind {kind!r}")


def _paths_arg(paths: _Any) -> list:
    if isinstance(paths, (str, _os.PathLike)):
        return [paths]
    if isinstance(paths, (bytes, bytearray)):
        raise TypeError(f"expected a path (str or os.PathLike) or an iterable of them, got {paths!r:.60}")
    try:
        items = list(paths)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(
            f"expected a path (str or os.PathLike) or an iterable of them, got {paths!r:.60}"
        ) from None
    for p in items:
        if not isinstance(p, (str, _os.PathLike)):
            raise TypeError(f"expected a path (str or os.PathLike) in paths, got {p!r:.60}")
    return items


def expand_paths(paths: "PathLike | _Iterable[PathLike]") -> "list[str]":
    """The files to read: a file path, a directory (searched recursively for
    ``SGF_EXTENSIONS`` files and archives, in sorted order, by the same walker as the
    ``qipu`` command: links leaving the directory are not followed, link
    loops end) or an iterable of either. A path that is not a directory is
    passed through as it is (reading it reports any problem)."""
    out: list[str] = []
    for p in _paths_arg(paths):
        p = _os.fspath(p)
        if _os.path.isdir(p):
            out.extend(_os.fspath(f) for f in _qipu.expand_paths_native([p]))
        else:
            out.append(p)
    return out


def _threads(threads: "int | None") -> int:
    if threads is None:
        return _os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"expected threads to be an int or None, got {threads!r:.60}")
    if threads < 1:
        raise ValueError(f"expected threads to be at least 1, got {threads}")
    return threads


def read_many(
    paths: "PathLike | _Iterable[PathLike]",
    threads: "int | None" = None,
    *,
    skip_errors: bool = False,
) -> ReadMany:
    """Reads many files in parallel, outside the GIL, and streams them back.

    Returns an iterator of :class:`Collection` in input order (each with its
    ``path``), parsed by ``threads`` worker threads (default: one per CPU)
    while you consume them; only a few documents are buffered ahead.
    A directory is searched recursively (see :func:`expand_paths`); each
    record member of a ``.zip``, ``.tar``, ``.tar.gz`` or ``.7z`` archive
    is a collection of its own, its ``path`` ``ARCHIVE!MEMBER``.
    A file that cannot be read raises ``OSError`` when its turn comes, or
    is skipped with ``skip_errors=True``. One iterator may be shared by
    several threads: each file is handed out once, in order.
    """
    return _qipu.read_many_native(expand_paths(paths), _threads(threads), bool(skip_errors))


_MOVES_FORMS = ("compact", "text")


def _column(pa, n: int, spec: tuple, moves: str):
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
        offsets, colors, xs, ys, valid = spec[2:]
        m = len(xs)
        fields = []
        if kind == "moves":
            # Indices into ["B", "W"], one byte per move.
            codes = pa.Array.from_buffers(pa.int8(), m, [None, pa.py_buffer(colors)])
            if moves == "compact":
                color = pa.DictionaryArray.from_arrays(codes, pa.array(["B", "W"]))
            else:
                import pyarrow.compute as pc  # type: ignore  # optional, maybe without type stubs

                color = pc.if_else(pc.equal(codes, 0), "B", "W")
            fields.append(("color", color))
        fields.append(("col", pa.Array.from_buffers(pa.int8(), m, [pa.py_buffer(valid), pa.py_buffer(xs)])))
        fields.append(("row", pa.Array.from_buffers(pa.int8(), m, [pa.py_buffer(valid), pa.py_buffer(ys)])))
        values = pa.StructArray.from_arrays([f[1] for f in fields], names=[f[0] for f in fields])
        offs = pa.Array.from_buffers(pa.int32(), n + 1, [None, pa.py_buffer(offsets)])
        arr = pa.ListArray.from_arrays(offs, values)
    elif kind == "int32_list":
        offsets, values = spec[2:]
        items = pa.Array.from_buffers(pa.int32(), len(values) // 4, [None, pa.py_buffer(values)])
        offs = pa.Array.from_buffers(pa.int32(), n + 1, [None, pa.py_buffer(offsets)])
        arr = pa.ListArray.from_arrays(offs, items)
    else:  # pragma: no cover - the native side only makes the kinds above
        raise QipuError(f"unknown column kind {kind}")
    return name, arr


class _StderrProgress:
    """A one-line progress report on stderr, for when tqdm is not installed."""

    def __init__(self) -> None:
        self.shown = False

    def __call__(self, games: int, files: int, total: int) -> None:
        _sys.stderr.write(f"\rqipu: {games} games read ({files}/{total} files)")
        _sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            _sys.stderr.write("\n")
            _sys.stderr.flush()


def _progress(progress: _Any) -> _Any:
    """``(callback, close)`` for the ``progress`` argument."""
    if progress is None or progress is False:
        return None, lambda: None
    if callable(progress):
        return progress, lambda: None
    if progress is not True:
        raise TypeError(
            f"expected progress to be a bool or a callable(games, files, total_files), got {progress!r:.60}"
        )
    try:
        from tqdm.auto import tqdm  # type: ignore  # optional, maybe without type stubs
    except ImportError:
        bar = _StderrProgress()
        return bar, bar.close
    t = tqdm(unit=" games", desc="qipu")

    def update(games: int, files: int, total: int) -> None:
        t.update(games - t.n)
        t.set_postfix_str(f"{files}/{total} files", refresh=False)

    return update, t.close


def to_arrow(
    paths: "PathLike | _Iterable[PathLike]",
    threads: "int | None" = None,
    *,
    skip_errors: bool = False,
    moves: str = "compact",
    progress: "_Progress" = False,
) -> "_pyarrow.Table":
    """Reads files in parallel and returns a ``pyarrow.Table`` with one row per game.

    Columns: ``path``, ``game`` (index in its file), ``board_cols``,
    ``board_rows``, ``charset``, the game information as text (``black``,
    ``white``, ``black_rank``, ``white_rank``, ``date``, ``result``,
    ``event``, ``round``, ``place``, ``rules``, ``name``, ``time_control``),
    ``year`` (of the first ``DT`` date), ``winner`` (``"B"``/``"W"``),
    ``win_by`` (``score``, ``resign``, ``time``, ``forfeit``,
    ``unspecified``, ``draw``, ``void``, ``unknown``), ``margin``, ``komi``
    (``KM`` as the library reads it: ``KM[650]`` is 6.5), ``handicap``,
    ``num_moves``, ``moves`` (the main line: a list of ``{color, col, row}``
    structs, ``col``/``row`` ``int8``, null for a pass and for a move that
    cannot be played — every move is kept, so the N-th is move N, as in
    ``qipu export``), ``setup_black``/``setup_white`` (the root's
    ``AB``/``AW`` as ``{col, row}`` lists, each stone once),
    ``errors``/``warnings`` (diagnostic counts; a main-line move that
    cannot be played counts as an error), ``komi_text`` (``KM`` as written)
    and ``unplayable_moves`` (the numbers, from 1, of the main-line moves
    that cannot be played: off the board, or not a coordinate). Each row is
    the library's one game summary, the one ``qipu export`` writes.

    ``moves="compact"`` (default, recommended) stores each move's colour as
    a dictionary of ``"B"``/``"W"`` with ``int8`` indices: the values read
    the same (``to_pylist()``, pandas, ``pc.equal(color, "B")`` and Parquet
    all see ``"B"``/``"W"``) in half the memory of the whole table.
    ``moves="text"`` keeps the colour as a ``string`` column, the form of
    qipu 0.1 (for code that checks the schema's exact types).

    For pandas, :func:`to_pandas` (or ``table.to_pandas(types_mapper=pd.ArrowDtype)``)
    keeps the Arrow columns as they are: nullable ints stay ints (a plain
    ``to_pandas()`` turns ``year``, ``handicap`` and the moves' ``col``/``row``
    into floats where a value is missing) and nothing is copied into Python
    objects. ``progress=True`` shows a progress bar counting games (tqdm
    when installed, else a line on stderr); a callable is called as
    ``progress(games, files_done, files_total)``.

    ``paths`` is a file, a directory (searched recursively) or an iterable of
    them; unreadable files raise ``OSError`` unless ``skip_errors=True``.
    """
    import pyarrow as pa  # type: ignore  # optional, maybe without type stubs

    if moves not in _MOVES_FORMS:
        raise ValueError(f'expected moves to be "compact" or "text", got {moves!r:.60}')
    files = expand_paths(paths)
    callback, close = _progress(progress)
    try:
        n, specs = _qipu.arrow_columns(files, _threads(threads), bool(skip_errors), callback)
    finally:
        close()
    cols = [_column(pa, n, s, moves) for s in specs]
    return pa.table({name: arr for name, arr in cols})


def to_pandas(
    paths: "PathLike | _Iterable[PathLike]",
    threads: "int | None" = None,
    *,
    skip_errors: bool = False,
    moves: str = "compact",
    progress: "_Progress" = False,
) -> "_pandas.DataFrame":
    """The :func:`to_arrow` table as a pandas ``DataFrame`` in its compact
    form: every column backed by Arrow (``pd.ArrowDtype``), so nullable
    ints stay ints, strings stay Arrow strings and the ``moves`` lists are
    not turned into Python objects (a row's moves are read on demand). On
    the sample corpus's 72,000 games this is instant and uses no memory
    beyond the table, where ``table.to_pandas()`` takes seconds and
    gigabytes. Needs pandas 2."""
    import pandas as pd  # type: ignore  # optional, maybe without type stubs

    table = to_arrow(paths, threads, skip_errors=skip_errors, moves=moves, progress=progress)
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def to_parquet(
    paths: "PathLike | _Iterable[PathLike]",
    destination: "PathLike",
    threads: "int | None" = None,
    *,
    skip_errors: bool = False,
    moves: str = "compact",
    progress: "_Progress" = False,
    **write_options,
) -> int:
    """Writes the :func:`to_arrow` table of ``paths`` to the Parquet file
    ``destination`` (``write_options`` go to ``pyarrow.parquet.write_table``).
    Returns the number of games written. The file is replaced safely, as
    every Qipu writer does: a symbolic link is refused, and a failure
    leaves the old file whole."""
    import pyarrow as pa  # type: ignore  # optional, maybe without type stubs
    import pyarrow.parquet as pq  # type: ignore

    table = to_arrow(paths, threads, skip_errors=skip_errors, moves=moves, progress=progress)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **write_options)
    _qipu.save_bytes_native(_os.fspath(destination), sink.getvalue().to_pybytes())
    return table.num_rows


from . import dataset  # noqa: E402  (qipu.dataset after `import qipu`)
