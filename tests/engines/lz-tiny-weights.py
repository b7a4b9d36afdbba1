#!/usr/bin/env python3
"""Writes a tiny Leela Zero network of zeros (1 residual block, 8 filters):
enough for `leelaz --gtp` to start, answer GTP and stream `lz-analyze`,
as Debian's README.Debian of leela-zero describes (with the full-size
network there). Usage: lz-tiny-weights.py OUT (about 0.7 MB)."""

import os
import sys

FILTERS = 8
BLOCKS = 1
SIZES = (
    [18 * 9 * FILTERS, FILTERS, FILTERS, FILTERS]
    + [FILTERS * FILTERS * 9, FILTERS, FILTERS, FILTERS] * 2 * BLOCKS
    # policy head (2 filters, 361+1 outputs), value head (1 filter, 256 hidden)
    + [2 * FILTERS, 2, 2, 2, 2 * 361 * 362, 362, FILTERS, 1, 1, 1, 361 * 256, 256, 256, 1]
)


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: lz-tiny-weights.py OUT")
    out = sys.argv[1]
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("1\n")
        for n in SIZES:
            f.write(" ".join(["0"] * n) + "\n")
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
