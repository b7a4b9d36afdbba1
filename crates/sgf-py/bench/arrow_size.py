#!/usr/bin/env python3
"""Size of the ``to_arrow`` table of a corpus and the cost of turning it
into pandas, measured in a fresh process per form so that peaks do not mix.

    python crates/sgf-py/bench/arrow_size.py [DIR] [--moves FORM] [--pandas KIND]

``DIR`` defaults to the sample corpus's ``real/``. ``--moves`` is passed to
``qipu.to_arrow`` (when the installed qipu knows it); ``--pandas`` is
``plain`` (``table.to_pandas()``), ``arrow`` (``types_mapper=pd.ArrowDtype``)
or ``all`` (both, each in its own process). Prints the table size
(``table.nbytes``), the conversion time and the process's peak resident
memory before and after the conversion (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import resource
import subprocess
import sys
import time
from pathlib import Path


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(directory: str, moves: str | None, kind: str) -> dict:
    import pandas as pd

    import qipu

    kwargs = {}
    if moves is not None and "moves" in inspect.signature(qipu.to_arrow).parameters:
        kwargs["moves"] = moves
    t0 = time.perf_counter()
    table = qipu.to_arrow(directory, **kwargs)
    t_arrow = time.perf_counter() - t0
    before = peak_mb()
    t0 = time.perf_counter()
    if kind == "arrow":
        df = table.to_pandas(types_mapper=pd.ArrowDtype)
    else:
        df = table.to_pandas()
    t_pandas = time.perf_counter() - t0
    return {
        "moves": kwargs.get("moves", "(default)"),
        "pandas": kind,
        "games": table.num_rows,
        "table_mib": round(table.nbytes / 2**20, 1),
        "moves_column_mib": round(table.column("moves").nbytes / 2**20, 1),
        "to_arrow_s": round(t_arrow, 2),
        "to_pandas_s": round(t_pandas, 2),
        "peak_rss_before_pandas_mib": round(before),
        "peak_rss_after_pandas_mib": round(peak_mb()),
        "dataframe_rows": len(df),
    }


def main() -> None:
    here = Path(__file__).resolve()
    default = here.parents[3].parent / "shared" / "corpus" / "real"
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=str(default))
    ap.add_argument("--moves", default=None)
    ap.add_argument("--pandas", default="all", choices=["plain", "arrow", "all"])
    ap.add_argument("--json", action="store_true", help="one run, JSON out (used internally)")
    a = ap.parse_args()
    if a.json:
        print(json.dumps(one(a.dir, a.moves, a.pandas)))
        return
    kinds = ["plain", "arrow"] if a.pandas == "all" else [a.pandas]
    for kind in kinds:
        cmd = [sys.executable, str(here), a.dir, "--pandas", kind, "--json"]
        if a.moves is not None:
            cmd += ["--moves", a.moves]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        print(json.dumps(json.loads(out.strip().splitlines()[-1]), indent=None))


if __name__ == "__main__":
    main()
