#!/usr/bin/env bash
# Time the tracer adds per intercepted MPI call, as the difference between the
# same binary run with and without libpilgrim.so, in the same script; median
# of 5 runs each. Also the runtime's memory for a 10^6-call stencil loop.
# First, what load cannot blur: the instructions a traced MPI_Comm_rank adds,
# per PILGRIM_TIMING mode (callgrind, the benchmark run as a singleton at 10^5
# and 2*10^5 calls, traced and untraced:
#   added = ((traced(2e5) - traced(1e5)) - (untraced(2e5) - untraced(1e5))) / 1e5,
# so that start-up and MPI_Finalize cancel out).
#   bench/run_overhead.sh [BUILD_DIR]   (default build/openmpi)
set -euo pipefail
# The PILGRIM_TIMING modes whose instruction cost is reported; a mode the
# runtime rejects (not built yet) is reported as "rejected".
timing_modes="aggregate none lossless cfg:0.1 hist:0.1,8 pred:0.1 zfp:1e-6 pred-clustered:0.1 zfp-clustered:1e-6"
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/openmpi}
mpi=$(sed -n "s/^mpi = '\(.*\)'/\1/p" "$build/pilgrim-lit-site.py")
mpirun=$(sed -n "s/^mpirun = '\(.*\)'/\1/p" "$build/pilgrim-lit-site.py")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
extra=()
[ "$mpi" = openmpi ] && extra=(--oversubscribe)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lib="$build/lib/libpilgrim.so"
run() { # mode n traced(0/1) -> ns per call
  local env=()
  [ "$3" = 1 ] && env=(LD_PRELOAD="$lib" PILGRIM_OUTPUT="$out/t.pilgrim")
  "$mpirun" "${extra[@]}" -np 2 env "${env[@]}" "$build/bench/overhead" "$1" "$2" | awk '/ns_per_call/ {print $3}'
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "MPI: $mpi ($($mpirun --version 2>&1 | head -n 1))"

instructions() { # calls mode(empty: untraced) [VAR=VALUE...] -> total instructions of the run, or "rejected"
  local env=() cg="$out/cg.$1.${2:-untraced}"
  [ -n "$2" ] && env=(LD_PRELOAD="$lib" PILGRIM_OUTPUT="$out/i.pilgrim" PILGRIM_TIMING="$2" "${@:3}")
  if ! env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file="$cg" \
    "$build/bench/overhead" comm_rank "$1" >"$out/cg.log" 2>&1; then
    echo rejected
    return
  fi
  awk '/^summary:/ {print $2}' "$cg"
}
if command -v valgrind >/dev/null; then
  u1=$(instructions 100000 "")
  u2=$(instructions 200000 "")
  echo "instructions per MPI_Comm_rank (callgrind, singleton, 2*10^5 - 10^5 calls): untraced $(((u2 - u1) / 100000))"
  for mode in $timing_modes; do
    t1=$(instructions 100000 "$mode")
    t2=$(instructions 200000 "$mode")
    if [ "$t1" = rejected ] || [ "$t2" = rejected ]; then
      printf '  PILGRIM_TIMING=%-22s rejected\n' "$mode"
      continue
    fi
    printf '  PILGRIM_TIMING=%-22s traced %5d  added %5d\n' "$mode" $(((t2 - t1) / 100000)) \
      $((((t2 - t1) - (u2 - u1)) / 100000))
  done
  # Tracing off (README "Regions and phases"): the call passes through
  # after the constructor's slow path.
  t1=$(instructions 100000 aggregate PILGRIM_START=off)
  t2=$(instructions 200000 aggregate PILGRIM_START=off)
  printf '  PILGRIM_START=off (tracing off)       traced %5d  added %5d\n' $(((t2 - t1) / 100000)) \
    $((((t2 - t1) - (u2 - u1)) / 100000))
else
  echo "instructions per MPI_Comm_rank: valgrind not installed, skipped"
fi
for spec in "comm_rank 1000000" "pingpong 600000"; do
  set -- $spec
  base=$(for i in 1 2 3 4 5; do run "$1" "$2" 0; done | median)
  traced=$(for i in 1 2 3 4 5; do run "$1" "$2" 1; done | median)
  awk -v m="$1" -v b="$base" -v t="$traced" 'BEGIN {
    printf "%-10s untraced %8.1f ns/call  traced %8.1f ns/call  added %7.1f ns/call  ratio %.2f\n", m, b, t, t - b, t / b }'
done
# Memory: the runtime reports its grammar/CST/registry bytes in the summary.
"$mpirun" "${extra[@]}" -np 4 env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$out/s.pilgrim" PILGRIM_SUMMARY=1 \
  "$build/test/mpi/halo2d" -n 50000 | grep -E "MPI calls on|runtime memory"
echo "trace bytes for that run: $(stat -c %s "$out/s.pilgrim")"
