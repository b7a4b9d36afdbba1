"""Training data for Go programs: ``qipu dataset`` from Python.

Options are named as the command line names them (``komi="5..8"``,
``min_rank="3d"``, ``ending=["resign", "points"]``, ``symmetry="random"``,
``val_fraction=0.05``, ``liberties=True``…; see ``qipu dataset --help`` and
README.md's *Training data* for the planes and arrays), completed and checked
by the command line's rules, with its messages (``ValueError``):
``format="leela"`` implies ``require_winner=True`` (a game without a winner
would be a loss for both sides), and refuses ``require_winner=False``.

>>> import qipu.dataset, tempfile, os
>>> out = tempfile.mkdtemp()
>>> s = qipu.dataset.build(["testdata/db/dup-a.sgf"], os.path.join(out, "d"), size=9)
>>> s["games_kept"], s["positions"] > 0
(1, True)
>>> batch = next(qipu.dataset.batches(["testdata/db/dup-a.sgf"], 4, size=9))
>>> batch["planes"].shape, batch["policy"].dtype.name
((4, 18, 9, 9), 'uint16')
"""

from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Union

from . import _qipu

PathLike = Union[str, "_os.PathLike[str]"]

__all__ = ["build", "repack", "batches", "unpack", "games"]


def _paths(paths: Union[PathLike, Iterable[PathLike]]) -> list:
    if isinstance(paths, (str, bytes, _os.PathLike)):
        paths = [paths]
    return [_os.fspath(p) for p in paths]


def build(
    paths: Union[PathLike, Iterable[PathLike]],
    out_dir: PathLike,
    *,
    progress: Optional[Callable[[int, int, int, int], object]] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Writes a dataset of ``paths`` (files, directories, archives) into
    ``out_dir``, as ``qipu dataset`` does, and returns its summary
    (``games_read``, ``games_kept``, ``dropped`` by reason, ``positions``…).
    ``progress(games_read, positions, inputs_done, inputs_total)`` is called
    about ten times a second; an exception it raises, or Ctrl-C, stops the
    run."""
    text = _qipu.dataset_build(_paths(paths), _os.fspath(out_dir), _json.dumps(options), progress)
    return _json.loads(text)


def repack(paths: Union[PathLike, Iterable[PathLike]], out_dir: PathLike, games_per_shard: int) -> Dict[str, Any]:
    """Cuts ``paths`` (a solid archive, big collections) into SGF files of
    ``games_per_shard`` games in ``out_dir`` (``games-00000.sgf``, …), every
    game in canonical form, so that workers can build from them on their
    own; returns the summary (``games``, ``files``, ``failed``…)."""
    return _json.loads(_qipu.dataset_repack(_paths(paths), _os.fspath(out_dir), games_per_shard))


def games(out_dir: PathLike) -> Any:
    """The game table of a dataset written by :func:`build` (its
    ``games.jsonl``: each kept game's ``id`` — the ``game`` array of the
    shards —, file, number, split and the library's game summary) as a
    ``pyarrow.Table``; ``pyarrow.parquet.write_table`` writes it as
    Parquet."""
    import pyarrow.json as pj  # type: ignore  # optional, maybe without type stubs

    return pj.read_json(_os.path.join(_os.fspath(out_dir), "games.jsonl"))


def unpack(planes: Any, size: int) -> Any:
    """Bit-packed planes ``(n, C, ceil(size*size/8))`` as ``(n, C, size, size)`` ``uint8``."""
    import numpy as np

    n, c = planes.shape[:2]
    return np.unpackbits(planes, axis=-1, count=size * size).reshape(n, c, size, size)


def batches(
    paths: Union[PathLike, Iterable[PathLike]],
    batch_size: int = 256,
    *,
    packed: bool = False,
    **options: Any,
) -> Iterator[Dict[str, Any]]:
    """Batches of ``batch_size`` positions as NumPy arrays, made on worker
    threads, without files: for a PyTorch ``IterableDataset`` or any
    training loop. Each batch is a dict of ``planes`` (``(n, C, S, S)``
    ``uint8``, or bit-packed with ``packed=True``), ``policy``, ``value``,
    ``score``, ``to_move``, ``move_number``, ``game``, ``komi``, ``ranks``,
    ``rules``, ``symmetry`` and ``split`` (``"train"`` or ``"val"`` with
    ``val_fraction``). Shuffled within ``shuffle_buffer`` positions, seeded
    by ``seed``: the same as ``build`` writes."""
    import numpy as np

    size = int(options.get("size", 19))
    stream = _qipu.dataset_stream(_paths(paths), _json.dumps(options), batch_size)
    try:
        for b in stream:
            n, c, bpp = b["n"], b["planes_count"], b["plane_bytes"]
            planes = np.frombuffer(b["planes"], np.uint8).reshape(n, c, bpp)
            yield {
                "split": b["split"],
                "planes": planes if packed else unpack(planes, size),
                "policy": np.frombuffer(b["policy"], "<u2"),
                "value": np.frombuffer(b["value"], np.int8),
                "score": np.frombuffer(b["score"], "<f4"),
                "to_move": np.frombuffer(b["to_move"], np.uint8),
                "move_number": np.frombuffer(b["move_number"], "<u4"),
                "game": np.frombuffer(b["game"], "<u4"),
                "komi": np.frombuffer(b["komi"], "<f4"),
                "ranks": np.frombuffer(b["ranks"], np.int8).reshape(n, 2),
                "rules": np.frombuffer(b["rules"], np.uint8),
                "symmetry": np.frombuffer(b["symmetry"], np.uint8),
            }
    finally:
        stream.close()
