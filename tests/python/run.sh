#!/usr/bin/env bash
# Builds the `qipu` wheel with maturin in a virtual environment and runs the
# Python test suite against it. Needs Rust, Python >= 3.9 and PyPI.
#
#   tests/python/run.sh [pytest args...]
#
# The venv lives in .venv-test/ (git-ignored) and is reused; the extension
# is compiled into target/py/ so it never invalidates the cache of the
# default workspace build (different pyo3 feature set).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
VENV=${QIPU_VENV:-$ROOT/.venv-test}
PY=${PYTHON:-python3}

if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating $VENV"
  "$PY" -m venv "$VENV"
fi
echo "== installing maturin and the test dependencies"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  "maturin>=1.16,<2" "pytest>=7" "numpy>=1.21" "pyarrow>=12" pandas "dask[distributed]" "pyspark>=3.5" sgfmill mypy

echo "== building the wheel (maturin, release)"
rm -rf target/wheels/qipu-*.whl
CARGO_TARGET_DIR="$ROOT/target/py" "$VENV/bin/maturin" build --quiet --release \
  -m crates/sgf-py/Cargo.toml -i "$VENV/bin/python" -o target/wheels
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps target/wheels/qipu-*.whl

echo "== pytest"
cd tests/python
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider "$@"
