#!/usr/bin/env bash
# Builds the libFuzzer targets of test/fuzz into build-sanitize/ (scripts/instrumented_build.sh:
# assertions on, so every assert is a check) and runs each (or those FUZZ_TARGETS names, e.g.
# FUZZ_TARGETS="parser lowering") for SECONDS_PER_TARGET (default 60; CI runs 30 s each; a long
# local run is `bash scripts/fuzz.sh 3600`). Further arguments go to every fuzzer, e.g.
# `-fork=1 -ignore_crashes=1` to go on past a finding. Exits non-zero on any finding: a crash, a
# sanitizer report, a broken invariant, a hang (one input over 10 s), a leak or an input
# that needs over 2 GiB; the input that reproduces it is saved and its path printed.
# Seeds: examples/, test/lit/ (test/fuzz/collect_corpus.py) and test/fuzz/regressions/.
# What each run discovers stays in build-sanitize/fuzz/TARGET/corpus for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift $(($# ? 1 : 0))
build=build-sanitize
work=$build/fuzz
read -r -a targets <<<"${FUZZ_TARGETS:-parser lowering codegen ir_parser signature}"
declare -A max_len=([parser]=16384 [lowering]=16384 [codegen]=16384 [ir_parser]=16384
  [signature]=512)

bash scripts/instrumented_build.sh fuzzers
rm -rf "$work/seeds"
python3 test/fuzz/collect_corpus.py . "$work/seeds"

export UBSAN_OPTIONS=print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan-suppressions.txt
started=$(mktemp)
trap 'rm -f "$started"' EXIT
status=0
for target in "${targets[@]}"; do
  mkdir -p "$work/$target/corpus"
  inputs=("$work/$target/corpus" "$work/seeds/$target")
  [ -d "test/fuzz/regressions/$target" ] && inputs+=("test/fuzz/regressions/$target")
  log="$work/$target/log"
  touch "$started"
  rc=0
  "$build/bin/fuzz-$target" "${inputs[@]}" -dict="$work/seeds/$target.dict" \
    -max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/$target/" -print_final_stats=1 "$@" >"$log" 2>&1 || rc=$?
  # With -fork=1 -ignore_crashes=1 libFuzzer exits 0 after findings: its artifacts tell.
  reproducers=$(find "$work/$target" -maxdepth 1 -type f -newer "$started" \
    \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' -o -name 'oom-*' \))
  runs=$(grep -oE '^#[0-9]+|number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  if [ "$rc" -eq 0 ] && [ -z "$reproducers" ]; then
    corpus=$(find "$work/$target/corpus" -type f | wc -l)
    echo "fuzz-$target: ${runs:-?} executions in $seconds s, no finding (corpus $corpus)"
  else
    status=1
    echo "fuzz-$target: FINDING after ${runs:-?} executions (log: $log)"
    grep -E -A40 'ERROR: |kaji fuzz finding|runtime error' "$log" | head -60 || tail -40 "$log"
    for reproducer in $reproducers; do
      echo "reproducer: $reproducer (rerun: $build/bin/fuzz-$target $reproducer)"
    done
  fi
done
exit $status
