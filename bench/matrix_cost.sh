#!/usr/bin/env bash
# The communication matrix's cost against the number of calls (issue 14,
# point 3): traces the 2-D stencil (bench/fidelity/stencil2d, 4 ranks, -s 100)
# at 100, 1,000 and 10,000 iterations and times `pilgrim-stats --matrix` on
# each (best of 3), next to the reader example call_counts, which walks every
# call (CallCursor), as the cost of expanding the call sequence. Prints a
# Markdown table: calls, trace bytes, the matrix's time, the walk's time, and
# the point-to-point total of the matrix (messages, bytes) with what the
# program's own grid says it must be.
#   bench/matrix_cost.sh [BUILD_DIR]   (default build/openmpi)
# PILGRIM_BENCH_ITERS overrides the iteration counts ("100 1000 10000").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
. "$root/bench/site_env.sh"
site_env "$build" matrix_cost.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ranks=4 size=100

# best_of_3 COMMAND...: the shortest wall time of 3 runs, in ms.
best_of_3() {
  local best="" t0 t1 ms
  for _ in 1 2 3; do
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

echo "| iterations | calls | trace bytes | --matrix | call walk (call_counts) | p2p messages, bytes | expected |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for n in ${PILGRIM_BENCH_ITERS:-100 1000 10000}; do
  trace="$out/stencil.$n.pilgrim"
  "$mpirun" "${extra[@]}" -np "$ranks" env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$trace" \
    "$build/bench/fidelity/stencil2d" -n "$n" -s "$size" >"$out/run.log" 2>&1 ||
    { echo "matrix_cost.sh: stencil2d -n $n failed:" >&2; tail -5 "$out/run.log" >&2; exit 1; }
  calls=$("$build/bin/pilgrim-stats" "$trace" | awk '$1 == "total" { print $2; exit }')
  bytes=$(stat -c %s "$trace")
  matrix_ms=$(best_of_3 "$build/bin/pilgrim-stats" --matrix "$trace")
  walk_ms=$(best_of_3 "$build/reader/call_counts" "$trace")
  got=$("$build/bin/pilgrim-stats" --matrix "$trace" |
    awk -F, '$1 == "p2p" && $2 == "all" { m += $5; b += $6 } END { print m ", " b }')
  # 4 ranks on a 2 x 2 periodic grid: 4 halos of `size` doubles per rank and iteration.
  want="$((ranks * 4 * n)), $((ranks * 4 * n * size * 8))"
  echo "| $n | $calls | $bytes | ${matrix_ms} ms | ${walk_ms} ms | $got | $want |"
done
