#!/usr/bin/env bash
# The cross-rank merge at scale, simulated (issue 4, point 6): runs
# BUILD_DIR/bench/merge_sim, which feeds synthetic per-rank traces shaped like
# a 2-D stencil, a 3-D periodic stencil and a master/worker code, for
# P = 1K, 4K, 16K and 64K simulated ranks, through runtime/merge up the tree
# of MPI_Finalize, in one process. Prints Markdown tables (merge time, root
# memory, bytes per tree level, merged sizes) and PASS/FAIL lines for the
# targets; exits 1 if a target fails. Builds nothing: build the target
# bench_merge_sim first (e.g. ninja -C build/openmpi bench_merge_sim).
#   bench/run_merge_sim.sh [BUILD_DIR] [merge_sim options]   (default build/openmpi)
# merge_sim options: --shape stencil2d,stencil3d,stencil3d_cart,master_worker
# --ranks 1K,4K,16K,64K --iters 100 --ranks-coding relative|absolute
# --time-limit SECONDS (per shape and P; default 120, a run past it shows as
# "timed out" in the table) --check-ranks N (ranks whose calls are compared
# after the merge) --user-comm 0|1 (1: every rank also records one user
# communicator, as after MPI_Cart_create or MPI_Comm_dup).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/openmpi
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
  build=$1
  shift
fi
bin="$build/bench/merge_sim"
[ -x "$bin" ] || { echo "run_merge_sim.sh: $bin is missing: build the bench_merge_sim target first" >&2; exit 2; }
exec "$bin" "$@"
