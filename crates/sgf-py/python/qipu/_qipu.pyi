"""Type stubs of qipu's native module (PyO3)."""

import datetime
import os
from typing import Any, Dict, Iterator, List, Literal, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Point = Tuple[int, int]
"""``(col, row)``, 0-based from the top-left, as SGF writes them."""
ColorStr = Literal["B", "W"]
Move = Tuple[ColorStr, Optional[Point]]
"""``(colour, point)``; the point is ``None`` for a pass."""
PartialDate = Union[datetime.date, Tuple[int], Tuple[int, int], Tuple[int, int, int]]
PathLike = Union[str, "os.PathLike[str]"]

class QipuError(Exception):
    """Base class of the errors Qipu raises."""

class ParseError(QipuError):
    """The first error-severity diagnostic of a strict parse."""

    diagnostic: "Diagnostic"
    code: str
    line: int
    column: int
    start: int
    end: int

class EditError(QipuError):
    """A refused edit: bad identifier or value, removed node, unrepresentable text."""

def parse(
    data: Union[bytes, bytearray, memoryview, str],
    *,
    strict: bool = False,
    charset: Optional[str] = None,
    format: Optional[str] = None,
) -> "Collection":
    """Parses SGF bytes (charset from CA or detected) or str. Never fails on
    bad input unless ``strict``: problems are in ``Collection.diagnostics``.
    ``format`` ("GIB", "NGF", "UGF", "WGS" or "auto") reads another record format."""

def read(
    path: PathLike, *, strict: bool = False, charset: Optional[str] = None, format: Optional[str] = None
) -> "Collection":
    """Reads a file in any format Qipu reads (SGF, GIB, NGF, UGF/UGI, WGS);
    ``OSError`` when it cannot be read, ``ParseError`` when in no known format."""

def read_many_native(paths: List[str], threads: int, skip_errors: bool = False) -> "ReadMany": ...
def arrow_columns(paths: List[str], threads: int, skip_errors: bool = False) -> Tuple[int, List[Tuple[Any, ...]]]: ...
def expand_paths_native(paths: List[PathLike]) -> List[str]: ...
def record_extensions() -> List[str]: ...

class Diagnostic:
    """A problem found while reading."""

    code: str
    name: str
    severity: Literal["info", "warning", "error"]
    message: str
    line: int
    """1-based line."""
    column: int
    """1-based byte column."""
    start: int
    """Byte offset of the first byte in the input."""
    end: int
    """Byte offset one past the last byte."""
    fix: Optional[str]

class Collection:
    """A parsed SGF collection of one or more games."""

    def __init__(self) -> None:
        """A new collection with one empty game."""
    @property
    def games(self) -> List["Game"]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> "Game": ...
    def __iter__(self) -> Iterator["Game"]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def has_errors(self) -> bool: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def format(self) -> str:
        """``"SGF"``, or ``"GIB"``, ``"NGF"``, ``"UGF"``, ``"WGS"`` for a converted record."""
    @property
    def is_edited(self) -> bool: ...
    def check(self) -> List[Diagnostic]:
        """Reading diagnostics plus every FF[4] and Go rule checked."""
    def to_sgf(self, canonical: bool = False, point_lists: Literal["as-written", "compressed", "expanded"] = "as-written") -> bytes:
        """Lossless bytes (default) or the canonical FF[4] UTF-8 form."""
    def write(self, path: PathLike, canonical: bool = False) -> None: ...
    def repair(self, variation_level: bool = False) -> List[Dict[str, Any]]:
        """Repairs in place as ``qipu check --fix`` does; returns the changes
        (``code``, ``message``, ``line``, ``column``, ``before``, ``after``)."""
        ...

class Game:
    """A game tree of a collection."""

    @property
    def index(self) -> int: ...
    @property
    def collection(self) -> Collection: ...
    @property
    def root(self) -> "Node": ...
    @property
    def size(self) -> Tuple[int, int]:
        """``(cols, rows)``."""
    @property
    def charset(self) -> str: ...
    @property
    def info(self) -> "GameInfo": ...
    def main_line(self) -> List["Node"]: ...
    def nodes(self) -> List["Node"]: ...
    def moves(self) -> List[Move]: ...
    def positions(self) -> "Positions":
        """``(node, position)`` along the main line, root first."""
    def final_position(self) -> "Position": ...
    def boards(self) -> npt.NDArray[np.uint8]:
        """Boards after every main-line node: shape ``(len(main_line()), rows, cols)``."""

class Node:
    """A node handle: ``(collection, id)``; edits are seen by every handle."""

    @property
    def id(self) -> int: ...
    @property
    def game(self) -> Game: ...
    @property
    def parent(self) -> Optional["Node"]: ...
    @property
    def children(self) -> List["Node"]: ...
    @property
    def next(self) -> Optional["Node"]: ...
    @property
    def is_root(self) -> bool: ...
    @property
    def depth(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def move(self) -> Optional[Move]: ...
    @property
    def properties(self) -> dict[str, Any]: ...
    def keys(self) -> List[str]: ...
    def __getitem__(self, ident: str) -> Any: ...
    def __setitem__(self, ident: str, value: Any) -> None: ...
    def __delitem__(self, ident: str) -> None: ...
    def __contains__(self, ident: str) -> bool: ...
    def get(self, ident: str, default: Any = None) -> Any: ...
    def raw(self, ident: str) -> List[str]: ...
    def set(self, ident: str, value: Any) -> None: ...
    def remove(self, ident: str) -> bool: ...
    def play(self, color: str, point: Optional[Point]) -> "Node": ...
    def add_child(self, index: Optional[int] = None) -> "Node": ...
    def delete(self) -> None: ...
    def promote(self) -> None: ...
    def move_to(self, index: int) -> None: ...
    def main_line(self) -> List["Node"]: ...
    def path(self) -> List["Node"]: ...
    def position(self) -> "Position": ...

class Position:
    """A board position after a node."""

    @property
    def board(self) -> npt.NDArray[np.uint8]:
        """``(rows, cols)``, 0 empty, 1 black, 2 white; ``board[row, col]``."""
    def to_bytes(self) -> bytes: ...
    @property
    def shape(self) -> Tuple[int, int]: ...
    @property
    def cols(self) -> int: ...
    @property
    def rows(self) -> int: ...
    @property
    def to_play(self) -> ColorStr: ...
    @property
    def captures(self) -> dict[str, int]:
        """``{"B": stones Black captured, "W": stones White captured}``."""
    @property
    def ko(self) -> Optional[Point]: ...
    @property
    def move_number(self) -> int: ...
    @property
    def last_move(self) -> Optional[Move]: ...
    def __getitem__(self, point: Point) -> int: ...

class Positions(Iterator[Tuple[Node, Position]]):
    def __iter__(self) -> "Positions": ...
    def __next__(self) -> Tuple[Node, Position]: ...

class GameResult:
    winner: Optional[ColorStr]
    by: Optional[Literal["score", "resign", "time", "forfeit", "unspecified", "draw", "void", "unknown"]]
    margin: Optional[float]
    raw: str

class GameInfo:
    """Typed game information. Dates: ``datetime.date``, or ``(year,)`` /
    ``(year, month)`` tuples for partial dates."""

    black: Optional[str]
    white: Optional[str]
    black_rank: Optional[str]
    white_rank: Optional[str]
    black_team: Optional[str]
    white_team: Optional[str]
    overtime: Optional[str]
    rules: Optional[str]
    event: Optional[str]
    round: Optional[str]
    place: Optional[str]
    name: Optional[str]
    source: Optional[str]
    comment: Optional[str]
    annotator: Optional[str]
    copyright: Optional[str]
    user: Optional[str]
    opening: Optional[str]
    dates: List[PartialDate]
    date: Optional[PartialDate]
    date_text: Optional[str]
    result: Optional[GameResult]
    komi: Optional[float]
    handicap: Optional[int]
    time_limit: Optional[float]
    def as_dict(self) -> dict[str, Any]: ...

class ReadMany(Iterator[Collection]):
    """Collections read on worker threads, in input order."""

    def __iter__(self) -> "ReadMany": ...
    def __next__(self) -> Collection: ...
    def __len__(self) -> int: ...
    def close(self) -> None: ...

class Database:
    """A game database file (SQLite, created when missing): ``qipu db`` in Python.

    ``find`` takes keyword arguments named as ``qipu db find``'s options:
    ``player``, ``black``, ``white``, ``event``, ``contains`` (substring
    matching), ``date_from``, ``date_to``, ``result``, ``winner``, ``rank``,
    ``handicap``, ``komi``, ``length`` (a number, ``"A..B"`` or a
    ``(min, max)`` tuple), ``size`` (``19`` or ``(cols, rows)``), ``rules``,
    ``comment``; ``position`` (a path or SGF bytes) with ``game`` (from 0),
    ``move`` or ``node``; ``pattern`` (a path or SGF bytes, see
    docs/db-patterns.md) or ``pattern_rows`` (text rows); ``anywhere``,
    ``swap_colors``, ``to_play``, ``moves``, ``variations``, ``limit``.
    """

    def __init__(self, path: PathLike) -> None: ...
    @property
    def path(self) -> str: ...
    def __len__(self) -> int: ...
    def index(self, paths: List[PathLike]) -> Dict[str, Any]: ...
    def find(self, **kwargs: Any) -> Dict[str, Any]: ...
    def dups(self) -> List[Dict[str, Any]]: ...

def find_all(dbs: List[Database], **kwargs: Any) -> Dict[str, Any]: ...
