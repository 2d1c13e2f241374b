#!/usr/bin/env bash
# README command 1: installs what Pilgrim needs, builds it against Open MPI,
# runs the 2-D halo-exchange example on 4 ranks under the tracer and prints
# the call summary and the trace's statistics.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh"
build=$("$root/scripts/build.sh" openmpi | tail -n 1)
out=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "== halo2d on 4 ranks under libpilgrim.so (PILGRIM_SUMMARY=1)"
mpirun.openmpi --oversubscribe -np 4 \
  env LD_PRELOAD="$build/lib/libpilgrim.so" PILGRIM_SUMMARY=1 PILGRIM_OUTPUT="$out/halo2d.pilgrim" \
  "$build/test/mpi/halo2d" -n 100
echo "== trace: $(stat -c %s "$out/halo2d.pilgrim") bytes"
if [ -x "$build/bin/pilgrim-stats" ]; then
  "$build/bin/pilgrim-stats" "$out/halo2d.pilgrim"
fi
