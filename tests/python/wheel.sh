#!/usr/bin/env bash
# Builds what users install: the abi3 wheel of qipu (one per platform, any
# CPython >= 3.9) and the source distribution, with maturin, into
# target/dist/. Then installs the wheel into a fresh virtual environment
# whose PATH holds no compiler (no cc, gcc, clang, rustc or cargo), with
# binary packages only, and runs a smoke test there.
#
#   tests/python/wheel.sh        (run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
PY=${PYTHON:-python3}
DIST=$ROOT/target/dist
TOOLS=$ROOT/target/dist-tools

echo "== maturin"
[ -x "$TOOLS/bin/maturin" ] || { "$PY" -m venv "$TOOLS" && "$TOOLS/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.16,<2"; }
rm -rf "$DIST" && mkdir -p "$DIST"

echo "== building the abi3 wheel and the sdist"
CARGO_TARGET_DIR="$ROOT/target/py" "$TOOLS/bin/maturin" build --quiet --release \
  -m crates/sgf-py/Cargo.toml -i "$PY" -o "$DIST"
"$TOOLS/bin/maturin" sdist -m crates/sgf-py/Cargo.toml -o "$DIST"
WHEEL=$(ls "$DIST"/qipu-*-abi3-*.whl)
SDIST=$(ls "$DIST"/qipu-*.tar.gz)
echo "$WHEEL"; echo "$SDIST"
# The sdist builds on its own: the library crates it needs are inside.
LISTING=$(tar tzf "$SDIST")
for f in crates/sgf-py/Cargo.toml crates/sgf-core/Cargo.toml crates/sgf-go/Cargo.toml \
         crates/sgf-render/Cargo.toml crates/sgf-gtp/Cargo.toml pyproject.toml; do
  grep -q "^qipu-[^/]*/$f\$" <<<"$LISTING" || { echo "sdist lacks $f"; exit 1; }
done

echo "== installing the wheel where there is no compiler"
SMOKE=$(mktemp -d)
trap 'rm -rf "$SMOKE"' EXIT
"$PY" -m venv "$SMOKE/venv"
NOCC_PATH="$SMOKE/venv/bin"
for tool in cc gcc clang rustc cargo; do
  if PATH="$NOCC_PATH" command -v "$tool" >/dev/null; then echo "$tool is on the smoke test's PATH"; exit 1; fi
done
PATH="$NOCC_PATH" "$SMOKE/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --only-binary :all: "$WHEEL"
cd "$SMOKE"
PATH="$NOCC_PATH" "$SMOKE/venv/bin/python" - <<'PY'
import pickle

import qipu

coll = qipu.parse(b"(;GM[1]FF[4]SZ[19]PB[Lee]KM[650];B[pd];W[dp])")
game = coll[0]
assert game.info.black == "Lee" and game.info.komi == 6.5
assert [qipu.to_gtp(p, game.size) for _, p in game.moves()] == ["Q16", "D4"]
pos = game.position_at(move=2)
assert "Q" in str(pos) and pos._repr_svg_().startswith("<svg")
board = pos.to_board()
try:
    board.play("B", (15, 3))
except qipu.IllegalMoveError as e:
    assert e.reason == "occupied"
else:
    raise AssertionError("an occupied point was played")
assert pickle.loads(pickle.dumps(coll)).to_sgf() == coll.to_sgf()
print("qipu", qipu.__version__, "from", qipu.__file__, "works")
PY
