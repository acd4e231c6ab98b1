#!/usr/bin/env bash
# The program differential (docs/testing.md) on a GPU machine: random kernels run on cpu, cuda
# (LLVM NVPTX) and cuda-nvrtc, each compared with the interpreter; one process per seed, in
# parallel, then the total. Run after scripts/gpu_check.sh has built the extension.
#   bash scripts/gpu_program_differential.sh [SECONDS [PROCESSES [FIRST_SEED]]]
# Defaults: 540 s, one process per core but one, seeds from a random start. On a 16-core H100
# machine one run compiles about 3 x 10 000 kernels; logs go to $OUT (or /tmp).
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/python
seconds=${1:-540}
processes=${2:-$(($(nproc) - 1))}
first=${3:-$((RANDOM * 32768 + RANDOM))}
logs=${OUT:-/tmp}
status=0
for ((k = 0; k < processes; k++)); do
  python3 test/differential --programs --seed $((first + k)) --count 100000000 \
    --seconds "$seconds" --targets cpu,cuda,cuda-nvrtc >"$logs/programs_$((first + k)).log" 2>&1 &
done
wait
programs=0
mismatches=0
for ((k = 0; k < processes; k++)); do
  log=$logs/programs_$((first + k)).log
  summary=$(tail -1 "$log")
  echo "== seed $((first + k)): $summary"
  programs=$((programs + $(sed -n 's/^programs \([0-9]*\),.*/\1/p' <<<"$summary" || echo 0)))
  found=$(sed -n 's/.*mismatches \([0-9]*\),.*/\1/p' <<<"$summary")
  if [[ -z $found || $found != 0 ]]; then
    status=1
    grep -A40 '^MISMATCH' "$log" | head -80
  fi
  mismatches=$((mismatches + ${found:-0}))
done
echo "programs $programs (each on cpu, cuda, cuda-nvrtc), mismatches $mismatches"
exit $status
