"""Type aliases of the qipu API, importable at run time (``qipu.Point`` …)."""

import datetime as _datetime
import os as _os
from typing import Literal, Optional, Tuple, Union

Point = Tuple[int, int]
"""``(col, row)``, 0-based from the top-left, as SGF writes them."""

# Written as a Union of Literals: the same type, and stubtest can compare it.
ColorStr = Union[Literal["B"], Literal["W"]]
"""A colour: ``"B"`` or ``"W"``."""

Move = Tuple[ColorStr, Optional[Point]]
"""``(colour, point)``; the point is ``None`` for a pass."""

PartialDate = Union[_datetime.date, Tuple[int], Tuple[int, int], Tuple[int, int, int]]
"""A ``DT`` date: a full ``datetime.date`` or a ``(year,)``/``(year, month)`` tuple."""

PathLike = Union[str, "_os.PathLike[str]"]
"""A file or directory path."""

BoardSize = Union[int, Tuple[int, int]]
"""A board size: ``19`` or ``(cols, rows)``."""

__all__ = ["BoardSize", "ColorStr", "Move", "PartialDate", "PathLike", "Point"]
