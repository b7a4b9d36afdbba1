"""What Python writes passes `qipu check` with no warning (issue 25): every
editing operation of the Python API, then the record written back (lossless
and canonical) and checked again."""

import qipu


def _clean(coll, step):
    for canonical in (False, True):
        again = qipu.parse(coll.to_sgf(canonical=canonical))
        bad = [
            f"{d.code} {d.message}"
            for d in again.check()
            if d.severity in ("warning", "error")
        ]
        assert bad == [], f"after {step} (canonical={canonical}): {bad}"


def test_every_edit_writes_a_clean_record():
    c = qipu.Collection()
    _clean(c, "a new collection")
    game = c[0]
    root = game.root
    root["PB"] = "Lee Sedol"
    root["PW"] = "Gu Li"
    root["KM"] = 6.5
    root["DT"] = "2024-01-05"
    root["RE"] = "B+R"
    _clean(c, "game information")
    n = root.play("B", (15, 3))
    _clean(c, "a move")
    n = n.play("W", (3, 15))
    n["C"] = "a comment with ] and \\ in it"
    _clean(c, "a comment")
    n["TR"] = [(15, 3)]
    n["LB"] = [((3, 3), "a")]
    _clean(c, "markup")
    v = root.children[0].play("W", (2, 2))
    _clean(c, "a variation")
    v.promote()
    _clean(c, "promote")
    v.move_to(1)
    _clean(c, "move_to")
    extra = n.add_child()
    extra["C"] = "an empty node with a comment"
    _clean(c, "add_child")
    extra.delete()
    _clean(c, "delete")
    assert n.remove("TR")
    _clean(c, "remove")
    n.play("B", None)
    _clean(c, "a pass")
