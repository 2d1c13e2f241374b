#!/usr/bin/env bash
# Time the tracer adds per intercepted MPI call, as the difference between the
# same binary run with and without libpilgrim.so, in the same script; median
# of 5 runs each. Also the runtime's memory for a 10^6-call stencil loop.
#   bench/run_overhead.sh [BUILD_DIR]   (default build/openmpi)
set -euo pipefail
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
