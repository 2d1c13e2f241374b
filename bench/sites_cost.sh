#!/usr/bin/env bash
# What call sites cost (issue 16 point 2; README "Call sites",
# docs/ARCHITECTURE.md "Call sites (as built)"):
# 1. Instructions a traced MPI_Comm_rank takes (callgrind, the overhead
#    benchmark as a singleton at 10^5 and 2*10^5 calls, as in run_overhead.sh:
#    per call = (run(2e5) - run(1e5)) / 1e5) with PILGRIM_SITES=on and off,
#    and with BASELINE_LIB, a libpilgrim.so built without call sites (e.g.
#    from issue16-base), when given: the hot path's gain is on - baseline.
# 2. Trace sizes of the stencils (halo2d, halo3d) and master/worker at a few
#    rank counts and 100 / 1000 iterations: without sites (off), with sites
#    as the format stores them (design (a): the site is part of a terminal's
#    identity) and design (b) (sites as side information per terminal: the
#    trace without sites plus a SITES section listing each signature's
#    sites, computed by bench/site_designs from the (a) trace).
#   bench/sites_cost.sh [BUILD_DIR [BASELINE_LIB]]   (default build/openmpi)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
baseline=${2:-}
. "$root/bench/site_env.sh"
site_env "$build" sites_cost.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "Call sites; $mpi ($("$mpirun" --version 2>&1 | head -n 1)), $(nproc) cores, $(date -u +%F)"

instructions() { # LIB SITES CALLS -> instructions of the run
  local cg="$out/cg.$2.$3"
  env LD_PRELOAD="$1" PILGRIM_OUTPUT="$out/i.pilgrim" PILGRIM_SITES="$2" \
    valgrind --tool=callgrind --callgrind-out-file="$cg" "$build/bench/overhead" comm_rank "$3" \
    >"$out/cg.log" 2>&1
  awk '/^summary:/ {print $2}' "$cg"
}
per_call() { # LIB SITES -> instructions per traced MPI_Comm_rank
  local a b
  a=$(instructions "$1" "$2" 100000)
  b=$(instructions "$1" "$2" 200000)
  echo $(((b - a) / 100000))
}
if command -v valgrind >/dev/null; then
  on=$(per_call "$lib" on)
  off=$(per_call "$lib" off)
  echo "instructions per traced MPI_Comm_rank (callgrind): sites on $on, sites off $off"
  if [ -n "$baseline" ]; then
    base=$(per_call "$baseline" on)
    echo "  baseline without call sites ($baseline): $base; added by sites: $((on - base))"
  fi
else
  echo "instructions: valgrind not installed, skipped"
fi

trace() { # PROGRAM RANKS ITER SITES -> the trace's path
  local t="$out/$1.$2.$3.$4.pilgrim"
  "$mpirun" "${extra[@]}" -np "$2" env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$t" PILGRIM_SITES="$4" \
    "$build/test/mpi/$1" -n "$3" >"$out/run.log" 2>&1 || {
    echo "sites_cost.sh: $1 on $2 ranks failed:" >&2
    tail -n 5 "$out/run.log" >&2
    exit 1
  }
  echo "$t"
}
median() { # NUMBERS... -> their median (the lower middle one of an even count)
  printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%+.1f%%", 100 * (a - b) / b}'; }
# master_worker serves tasks to whichever worker asks first (MPI_ANY_SOURCE):
# its trace differs from run to run by up to hundreds of bytes, so each of
# its cells is the median of $repeat runs (sizes and terminals taken apart).
repeat=${PILGRIM_BENCH_REPEAT:-5}
echo
echo "Sizes in bytes; master_worker (nondeterministic: any-source) is the median of $repeat runs per cell, the others one run (deterministic)."
echo
echo "| program | ranks | iterations | terminals off / (a) | off | (a) site in the signature | (b) side information |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for spec in ${PILGRIM_BENCH_SITES:-halo2d:4 halo2d:9 halo3d:8 master_worker:4 master_worker:9}; do
  program=${spec%%:*} ranks=${spec#*:}
  runs=1
  [ "$program" = master_worker ] && runs=$repeat
  for iter in 100 1000; do
    offs=() ons=() bs=() tas=() tbs=()
    for ((i = 0; i < runs; i++)); do
      off=$(trace "$program" "$ranks" "$iter" off)
      on=$(trace "$program" "$ranks" "$iter" on)
      read -r _ ta _ tb _ extra_b < <("$build/bench/site_designs" "$on")
      offs+=("$(stat -c %s "$off")") ons+=("$(stat -c %s "$on")")
      bs+=("$(($(stat -c %s "$off") + extra_b))") tas+=("$ta") tbs+=("$tb")
    done
    so=$(median "${offs[@]}") sa=$(median "${ons[@]}") sb=$(median "${bs[@]}")
    ta=$(median "${tas[@]}") tb=$(median "${tbs[@]}")
    echo "| $program | $ranks | $iter | $tb / $ta | $so | $sa ($(pct "$sa" "$so")) | $sb ($(pct "$sb" "$so")) |"
  done
done
