#!/usr/bin/env bash
# Trace file size against ranks and iterations (issue 4): traces the scale
# programs of test/mpi at several rank counts (oversubscribed), each with 100
# and 1000 iterations, and prints a Markdown table of the trace sizes in bytes.
# Every run must print its program's "OK" line; a run that fails, or takes
# longer than PILGRIM_BENCH_TIMEOUT seconds (default 600), shows as "failed"
# or "timeout" in the table instead of a size.
#   bench/trace_size.sh [BUILD_DIR]   (default build/openmpi)
# PILGRIM_BENCH_RANKS_3D overrides the 3-D stencil's rank counts ("8 27 64"),
# PILGRIM_BENCH_PROGRAMS the programs (e.g. "halo3d:-c ring").
# "halo3d -c" is the same stencil on a periodic MPI_Cart_create grid, whose
# peers are stored as grid displacements (FORMAT.md §8.3).
# Under MPICH, which busy-polls when oversubscribed, expect it to be slow.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
. "$root/bench/site_env.sh"
site_env "$build" trace_size.sh
bin="$build/test/mpi"
timeout_s=${PILGRIM_BENCH_TIMEOUT:-600}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# size PROGRAM[:OPTION] RANKS ITER: the trace's size in bytes, or why there is
# none ("halo3d:-c" runs halo3d -c).
size() {
  local name=${1%%:*} opt=() tag=${1//[:-]/_}
  [ "$name" != "$1" ] && opt=("${1#*:}")
  local trace="$out/$tag.$2.$3.pilgrim" log="$out/$tag.$2.$3.log" rc=0
  set -- "$name" "$2" "$3"
  timeout "$timeout_s" "$mpirun" "${extra[@]}" -np "$2" env LD_PRELOAD="$lib" \
    PILGRIM_OUTPUT="$trace" "$bin/$1" "${opt[@]}" -n "$3" >"$log" 2>&1 || rc=$?
  if [ "$rc" = 124 ]; then
    echo timeout
  elif [ "$rc" != 0 ] || ! grep -q "^$1: OK$" "$log" || [ ! -s "$trace" ]; then
    echo "trace_size.sh: $1 on $2 ranks, $3 iterations failed (exit $rc):" >&2
    tail -n 5 "$log" >&2
    echo failed
  else
    stat -c %s "$trace"
  fi
}

ranks_3d=${PILGRIM_BENCH_RANKS_3D:-8 27 64}
echo "Trace size in bytes; $mpi ($("$mpirun" --version 2>&1 | head -n 1)), $(nproc) cores, $(date -u +%F)"
echo
echo "| program | ranks | 100 iterations | 1000 iterations |"
echo "| --- | ---: | ---: | ---: |"
for program in ${PILGRIM_BENCH_PROGRAMS:-halo2d halo3d halo3d:-c ring allreduce_loop master_worker}; do
  ranks="4 9 16 25"
  [ "${program%%:*}" = halo3d ] && ranks=$ranks_3d
  for n in $ranks; do
    start=$SECONDS
    a=$(size "$program" "$n" 100)
    b=$(size "$program" "$n" 1000)
    echo "| ${program/:/ } | $n | $a | $b |"
    echo "trace_size.sh: $program on $n ranks: $((SECONDS - start)) s" >&2
  done
done
