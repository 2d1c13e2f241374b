#!/usr/bin/env bash
# Traces a fixed set of the test programs (test/mpi) whose calls do not
# depend on timing, so that a change that must not change behaviour can be
# checked: trace with the build before and the build after, then compare
# each pair with pilgrim-diff --strict (issue 27: "dumps identical but for
# the start time").
#   scripts/trace_set.sh BUILD_DIR OUT_DIR         trace into OUT_DIR
#   scripts/trace_set.sh --compare BUILD_DIR A B   pilgrim-diff --strict A/x B/x
set -uo pipefail
if [ "${1:-}" = --compare ]; then
  build=$2 a=$3 b=$4 bad=0 n=0
  for t in "$a"/*.pilgrim; do
    n=$((n + 1))
    if [ ! -e "$b/$(basename "$t")" ]; then
      echo "trace_set: $(basename "$t") is missing from $b"; bad=$((bad + 1))
    elif ! "$build/bin/pilgrim-diff" --strict "$t" "$b/$(basename "$t")" >/dev/null 2>&1; then
      echo "trace_set: $(basename "$t") differs"; bad=$((bad + 1))
    fi
  done
  echo "trace_set: $((n - bad)) of $n traces identical (pilgrim-diff --strict)"
  [ "$bad" -eq 0 ]; exit
fi
build=$(cd "$1" && pwd) out=$2
mkdir -p "$out"
# posix_io writes its files here; their names are in the trace.
rm -rf /tmp/pilgrim-trace-set-files && mkdir -p /tmp/pilgrim-trace-set-files
mpi=$(sed -n "s/^mpi = '\(.*\)'/\1/p" "$build/pilgrim-lit-site.py")
if [ "$mpi" = openmpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  run=mpirun.openmpi
else
  run=mpirun.mpich
fi
# program, ranks, arguments; each one deterministic in its calls and their
# parameters (no wildcards matched by arrival, no polling loops; not
# dist_graph, whose neighbour order Open MPI varies, nor info_values, whose
# MPI_Comm_f2c returns a pointer, nor errhandler, whose error codes MPICH
# numbers per run).
while read -r p np args; do
  [ -z "$p" ] && continue
  env PILGRIM_QUIET=1 $run -np "$np" env LD_PRELOAD="$build/lib/libpilgrim.so" \
    PILGRIM_OUTPUT="$out/$p.pilgrim" PILGRIM_POSIX=on "$build/test/mpi/$p" $args </dev/null >/dev/null 2>&1 ||
    echo "trace_set: $p failed" >&2
done <<'LIST'
ring 4 -n 3
halo2d 4 -n 5
halo3d 8
collectives 4
datatypes 4
comm_create 4
onesided 4
rma_memory 4
dynamic_window 2
mpiio 4
mpiio_ranked 4
regions 4
attr_callbacks 2
keyval_lifetime 2
large_counts 2
many_comms 4
stencil2d 4
posix_io 2 /tmp/pilgrim-trace-set-files -s 3
grequest 2
distinct_calls 2
intercomm_p2p 4
absolute_addresses 2
LIST
ls "$out"/*.pilgrim | wc -l
