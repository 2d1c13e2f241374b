#!/usr/bin/env bash
# Time MPI_Finalize spends on the trace: agreeing on the call sites and
# resolving them (slowest rank; rank 0 reads the DWARF), the cross-rank merge
# (slowest rank) and rank 0's writing of the file, as the runtime itself measures them
# (PILGRIM_SUMMARY=1), for the 2-D stencil at 16 ranks; median of 5 runs.
# The machine has fewer cores than ranks, so ranks are oversubscribed and
# the figures are upper bounds for a machine with a core per rank.
#   bench/finalize_time.sh [BUILD_DIR] [RANKS]   (default build/openmpi, 16)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
ranks=${2:-16}
. "$root/bench/site_env.sh"
site_env "$build" finalize_time.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for i in 1 2 3 4 5; do
  "$mpirun" "${extra[@]}" -np "$ranks" env LD_PRELOAD="$lib" PILGRIM_SUMMARY=1 \
    PILGRIM_OUTPUT="$out/t.pilgrim" "$build/test/mpi/halo2d" -n 100 |
    sed -n 's/.*call sites \([0-9.]*\) ms.*cross-rank merge \([0-9.]*\) ms.*writing \([0-9.]*\) ms.*/\1 \2 \3/p'
done >"$out/times"
sites=$(awk '{print $1}' "$out/times" | median)
merge=$(awk '{print $2}' "$out/times" | median)
write=$(awk '{print $3}' "$out/times" | median)
echo "MPI: $mpi; halo2d -n 100 on $ranks ranks ($(nproc) cores); median of 5"
awk -v s="$sites" -v m="$merge" -v w="$write" 'BEGIN {
  printf "MPI_Finalize added: call sites %.1f ms + merge %.1f ms + write %.1f ms = %.1f ms (target < 50 ms): %s\n",
    s, m, w, s + m + w, (s + m + w < 50 ? "PASS" : "FAIL") }'
echo "trace: $(stat -c %s "$out/t.pilgrim") bytes"
