#!/usr/bin/env bash
# What the clock exchange with rank 0 adds to MPI_Init and to MPI_Finalize,
# as the runtime itself measures it (PILGRIM_SUMMARY=1: the slowest rank's
# time in sync_with_rank0), for a short ring run at each rank count; median
# of 5 runs. The machine has fewer cores than ranks, so ranks are
# oversubscribed and each of rank 0's 8·(P-1) round trips may wait for a
# descheduled rank: upper bounds for a machine with a core per rank.
#   bench/clock_sync.sh [BUILD_DIR] [RANKS...]   (default build/openmpi, 16 64)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(16 64)
. "$root/bench/site_env.sh"
site_env "$build" clock_sync.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "MPI: $mpi; ring -n 2; $(nproc) cores (ranks oversubscribed); median of 5 runs"
for ranks in "${counts[@]}"; do
  for i in 1 2 3 4 5; do
    "$mpirun" "${extra[@]}" -np "$ranks" env LD_PRELOAD="$lib" PILGRIM_SUMMARY=1 PILGRIM_TIMING=lossless \
      PILGRIM_OUTPUT="$out/t.pilgrim" "$build/test/mpi/ring" -n 2 |
      sed -n 's/.*clock sync \([0-9.]*\) ms at MPI_Init, \([0-9.]*\) ms at MPI_Finalize.*/\1 \2/p'
  done >"$out/times"
  [ "$(wc -l <"$out/times")" -eq 5 ] || { echo "clock_sync.sh: no clock sync line at $ranks ranks" >&2; exit 1; }
  init=$(awk '{print $1}' "$out/times" | median)
  fin=$(awk '{print $2}' "$out/times" | median)
  printf '%3d ranks: clock sync %8.2f ms at MPI_Init, %8.2f ms at MPI_Finalize\n' "$ranks" "$init" "$fin"
done
