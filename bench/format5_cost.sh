#!/usr/bin/env bash
# What format version 5's additions cost (the senders behind
# MPI_STATUS_IGNORE, the communicator groups, the datatype layout records),
# against a build without them (format 4):
#  * instructions per call, counted with valgrind --tool=callgrind on one rank
#    alone (messages to itself: no call waits, so counts repeat run to run),
#    untraced, traced by the BEFORE build and traced by the AFTER build. A
#    count per call is (Ir(2N) - Ir(N)) / (calls(2N) - calls(N)), which
#    leaves out start-up and MPI_Finalize;
#  * trace sizes of the stencils and the master/worker programs, BEFORE and
#    AFTER, with the growth in percent.
#   bench/format5_cost.sh BEFORE_BUILD AFTER_BUILD
# e.g. bench/format5_cost.sh /work/main/build/openmpi build/openmpi. Both
# builds must be of the same MPI; the programs are AFTER's.
set -euo pipefail
[ $# = 2 ] || { echo "usage: bench/format5_cost.sh BEFORE_BUILD AFTER_BUILD" >&2; exit 2; }
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
. "$(dirname "$0")/site_env.sh"
site_env "$after" format5_cost.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lib_before="$before/lib/libpilgrim.so"
lib_after="$after/lib/libpilgrim.so"
overhead="$after/bench/overhead"
bin="$after/test/mpi"

# ir LIB MODE N: the instructions rank 0 executes (LIB "" = untraced).
ir() {
  local env=() f="$out/cg.$RANDOM.out"
  [ -n "$1" ] && env=(LD_PRELOAD="$1" PILGRIM_OUTPUT="$out/ir.pilgrim")
  "$mpirun" "${extra[@]}" -np 1 env "${env[@]}" valgrind --tool=callgrind \
    --callgrind-out-file="$f" "$overhead" "$2" "$3" >/dev/null 2>&1
  sed -n 's/^summary: \([0-9]*\).*/\1/p' "$f"
}
per_call() { # LIB MODE
  local n=3000 a b
  a=$(ir "$1" "$2" $n)
  b=$(ir "$1" "$2" $((2 * n)))
  echo $(((b - a) / n))
}
echo "MPI: $mpi ($("$mpirun" --version 2>&1 | head -n 1)), $(date -u +%F)"
echo
echo "Instructions per call (callgrind, one rank; a round is 3 calls):"
echo
echo "| calls | untraced | traced, before | traced, after | added by the change |"
echo "| --- | ---: | ---: | ---: | ---: |"
for mode in self_recv self_recv_any self_waitall_any; do
  u=$(per_call "" $mode)
  b=$(per_call "$lib_before" $mode)
  a=$(per_call "$lib_after" $mode)
  echo "| $mode | $u | $b | $a | $((a - b)) |"
done

# size LIB PROGRAM RANKS ARGS...: the trace's size in bytes.
size() {
  local lib=$1 prog=$2 np=$3 t="$out/size.pilgrim"
  shift 3
  rm -f "$t"
  "$mpirun" "${extra[@]}" -np "$np" env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$t" \
    "$bin/$prog" "$@" </dev/null >"$out/log" 2>&1 || { echo "failed: $prog" >&2; tail -n 5 "$out/log" >&2; }
  grep -q "^$prog: OK$" "$out/log" || { echo failed; return; }
  stat -c %s "$t"
}
echo
echo "Trace sizes in bytes (default timing mode: the timing aggregates vary by a"
echo "few bytes run to run):"
echo
echo "| program | ranks | before | after | growth |"
echo "| --- | ---: | ---: | ---: | ---: |"
while read -r prog np args; do
  b=$(size "$lib_before" "$prog" "$np" $args)
  a=$(size "$lib_after" "$prog" "$np" $args)
  g=$(awk -v a="$a" -v b="$b" 'BEGIN { if (b + 0 > 0) printf "%+.2f%%", 100 * (a - b) / b; else print "-" }')
  echo "| $prog $args | $np | $b | $a | $g |"
done <<'PROGRAMS'
halo2d 9 -n 100
halo2d 16 -n 1000
halo3d 8 -n 100
halo3d 8 -c -n 100
master_worker 4 -n 20
wildcard_master 4
ignored_status 4
comm_id_reuse 4
comm_membership 4
datatypes 4
PROGRAMS
