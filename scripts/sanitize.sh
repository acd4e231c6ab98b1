#!/usr/bin/env bash
# The compiler and runtime built with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-sanitize/ (scripts/instrumented_build.sh), then the C++ unit tests and the
# compiler-stage tests run on that build. Any sanitizer report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/instrumented_build.sh
# Full stacks for every allocation: the fast unwinder stops in libstdc++, before the frames
# the suppressions name.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0:${ASAN_OPTIONS:-}
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan-suppressions.txt
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}
status=0
ctest --test-dir build-sanitize --output-on-failure -j2 || status=1
lit -sv build-sanitize/test/lit || status=1
exit $status
