#!/usr/bin/env bash
# Builds the libFuzzer targets of test/fuzz into build-fuzz/ (clang-19, -DKAJI_FUZZ=ON) and
# runs each for SECONDS_PER_TARGET (default 60, what CI runs; a long local run is
# `bash scripts/fuzz.sh 3600`). Further arguments go to every fuzzer, e.g. `-fork=1
# -ignore_crashes=1` to go on past a finding. Exits non-zero on any finding: a crash, a
# sanitizer report, a broken invariant, a hang (one input over 10 s), a leak or an input
# that needs over 2 GiB; the input that reproduces it is saved and its path printed.
# Seeds: examples/, test/lit/ (test/fuzz/collect_corpus.py) and test/fuzz/regressions/.
# What each run discovers stays in build-fuzz/fuzz/TARGET/corpus for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift $(($# ? 1 : 0))
build=build-fuzz
work=$build/fuzz
targets=(parser lowering ir_parser signature)
declare -A max_len=([parser]=16384 [lowering]=16384 [ir_parser]=16384 [signature]=512)

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 with assertions on: fast enough to fuzz, and every assert is a check.
CC=clang-19 CXX=clang++-19 cmake -S . -B "$build" -G Ninja -DKAJI_FUZZ=ON -DKAJI_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" "${launcher[@]}" >/dev/null
cmake --build "$build" --target fuzzers
rm -rf "$work/seeds"
python3 test/fuzz/collect_corpus.py . "$work/seeds"

export UBSAN_OPTIONS=print_stacktrace=1
status=0
for target in "${targets[@]}"; do
  mkdir -p "$work/$target/corpus"
  inputs=("$work/$target/corpus" "$work/seeds/$target")
  [ -d "test/fuzz/regressions/$target" ] && inputs+=("test/fuzz/regressions/$target")
  log="$work/$target/log"
  if "$build/bin/fuzz-$target" "${inputs[@]}" -dict="$work/seeds/$target.dict" \
    -max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/$target/" -print_final_stats=1 "$@" >"$log" 2>&1; then
    runs=$(grep -o 'number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    corpus=$(find "$work/$target/corpus" -type f | wc -l)
    echo "fuzz-$target: ${runs:-?} executions in ${seconds} s, no finding (corpus $corpus)"
  else
    status=1
    echo "fuzz-$target: FINDING (log: $log)"
    grep -E -A40 'ERROR: |kaji fuzz finding|runtime error|==[0-9]+== ' "$log" | head -60 || tail -40 "$log"
    for reproducer in $(grep -o 'Test unit written to [^ ]*' "$log" | awk '{print $NF}'); do
      echo "reproducer: $reproducer (rerun: $build/bin/fuzz-$target $reproducer)"
    done
  fi
done
exit $status
