#!/usr/bin/env python3
"""Writes the WGS fixtures of this folder (QQ Go's binary record, laid out as
docs/formats.md describes). Names, numbers and games are made up.
Run from anywhere: python3 testdata/formats/wgs/make_fixtures.py"""

import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent


def header(black, white, size=19, handicap=0, komi=(7, 5), end=9, winner=1,
           score=0, count=0, first=b"\x02\x00\x00\x00"):
    h = bytearray(122)
    h[0:4] = first
    for (qq, name, rating, dan), at in ((black, 0), (white, 48)):
        struct.pack_into("<I", h, at + 4, qq)
        raw = name.encode("gb2312")
        assert len(raw) < 22
        h[at + 10:at + 10 + len(raw)] = raw
        struct.pack_into("<i", h, at + 36, rating)
        h[at + 42] = dan
    h[100] = handicap
    h[101] = size
    h[103], h[104] = komi
    h[105] = end
    h[106] = winner
    struct.pack_into("<h", h, 108, score)
    struct.pack_into("<H", h, 120, count)
    return bytes(h)


def moves(points):
    """SGF points ("pd", or "" for a pass) as WGS move bytes."""
    out = bytearray()
    for p in points:
        if p == "":
            out += b"\x01\x00"
        else:
            out += bytes([(ord(p[0]) - 97) * 4, ord(p[1]) - 97])
    return bytes(out)


def write(name, data):
    (HERE / name).write_bytes(data)


even = ["pd", "dp", "", "dd", "pp", "cc"]
write("even_resign.wgs",
      header((10001, "棋手甲", 250, 2), (10002, "白云", -350, 0),
             end=9, winner=0, count=len(even)) + moves(even))

# White first after three stones; White's jj is where the Western order
# would put the third stone, so only the Tygem order fits.
hc = ["gg", "ge", "", "eg", "jj"]
write("handicap3_counting.wgs",
      header((0, "alpha", 120, 0), (0, "beta", 30, 0), size=13, handicap=3,
             komi=(0, 5), end=10, winner=1, score=12, count=len(hc)) + moves(hc))

cut = ["pd", "dp", "qq"]
write("truncated.wgs",
      header((0, "甲", -20, 0), (0, "乙", -20, 0), end=0, winner=0,
             count=20) + moves(cut) + b"\x0c")
