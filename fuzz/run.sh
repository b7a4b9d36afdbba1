#!/usr/bin/env bash
# Fuzzes every target for a while. Seeds: the repository's own fixtures,
# plus the sample corpus (../shared/corpus, files under 64 KB) when present.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#
# For a long run, give more time and let the corpus grow between runs
# (fuzz/corpus/ is not committed):
#   fuzz/run.sh 3600              # an hour per target
#   fuzz/run.sh 0 edit            # until stopped, one target
# CI runs a reproducible share instead: FUZZ_RUNS inputs a target from a
# fixed FUZZ_SEED, seeded from the repository's files alone (whatever the
# machine has besides), so what CI found is found again here with the
# same command:
#   FUZZ_RUNS=6000 FUZZ_SEED=1 fuzz/run.sh 120
# A crash is saved under fuzz/artifacts/TARGET/; reproduce it with
#   cargo fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-…
# and turn it into a fixture under testdata/ before fixing it.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-15}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^sgf-fuzz$')
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

# Seeds, shared by every target (a file is a valid input for all of them).
seeds=corpus/seeds
if [ -n "${FUZZ_RUNS:-}" ]; then
  seeds=$(mktemp -d)
fi
mkdir -p "$seeds"
find ../testdata ../examples -type f ! -name '*.snap' ! -name '*.md' -size -64k -print0 |
  xargs -0 -I{} sh -c 'cp "$1" "$2/$(sha1sum "$1" | cut -c1-16)"' _ {} "$seeds"
if [ -n "${FUZZ_RUNS:-}" ]; then
  echo "fuzz: reproducible share: $FUZZ_RUNS inputs a target, seed ${FUZZ_SEED:-1}, the repository's files as seeds"
elif [ -d ../../shared/corpus ]; then
  # A sample of the corpus: every small file of the non-"real" sets.
  find ../../shared/corpus -type f -size -64k \( -name '*.sgf' -o -name '*.gib' -o -name '*.ngf' -o -name '*.ugf' -o -name '*.ugi' -o -name '*.wgs' \) -print0 |
    xargs -0 -I{} sh -c 'cp "$1" "$2/$(sha1sum "$1" | cut -c1-16)"' _ {} "$seeds"
else
  echo "fuzz: ../shared/corpus not found; seeding from the repository's fixtures only"
fi
echo "fuzz: $(ls "$seeds" | wc -l) seed files"

cargo fuzz build -s none
status=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log=$(mktemp)
  grow="corpus/$t"
  extra=()
  if [ -n "${FUZZ_RUNS:-}" ]; then
    grow=$(mktemp -d)
    extra=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
  fi
  if cargo fuzz run -s none "$t" "$grow" "$seeds" -- "${extra[@]}" \
      -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -max_len=262144 \
      -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz: $t: ${runs:-?} executions, no crash"
  else
    echo "fuzz: $t: FAILED"
    grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -20
    # The input itself, so a failure seen only in CI's log can be replayed.
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    if [ -n "$crash" ] && [ -f "$crash" ] && [ "$(stat -c %s "$crash")" -le 4096 ]; then
      echo "fuzz: $t: crashing input, base64 (decode with base64 -d):"
      base64 -w 76 "$crash"
    fi
    status=1
  fi
  rm -f "$log"
  if [ -n "${FUZZ_RUNS:-}" ]; then rm -rf "$grow"; fi
done
exit $status
