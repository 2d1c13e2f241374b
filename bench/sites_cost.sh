#!/usr/bin/env bash
# What call sites cost (issue 16 point 2; README "Call sites",
# docs/design/call-sites.md):
# 1. Instructions a traced MPI_Comm_rank takes (callgrind, the overhead
#    benchmark as a singleton at 10^5 and 2*10^5 calls, as in run_overhead.sh:
#    per call = (run(2e5) - run(1e5)) / 1e5) with PILGRIM_SITES=on and off,
#    and with BASELINE_LIB, a libpilgrim.so built without call sites (the
#    parent of commit 2261737), when given: the hot path's gain is on -
#    baseline. The same from Fortran (bench/overhead_fortran), where built.
# 2. Trace sizes of the stencils (halo2d, halo3d) and master/worker at a few
#    rank counts and 100 / 1000 iterations: the same run's calls without
#    sites (bench/sites_stripped; checked against a real PILGRIM_SITES=off
#    run on the deterministic stencils), with sites as the format stores
#    them (design (a): the site is part of a terminal's identity) and design
#    (b) (sites as side information per terminal: the trace without sites
#    plus a list of each signature's sites, computed by bench/site_designs
#    from the (a) trace), and another run with PILGRIM_SITES=off.
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

instructions() { # LIB SITES CALLS [PROGRAM] -> instructions of the run
  local cg="$out/cg.$2.$3" program=(${4:-"$build/bench/overhead" comm_rank})
  env LD_PRELOAD="$1" PILGRIM_OUTPUT="$out/i.pilgrim" PILGRIM_SITES="$2" \
    valgrind --tool=callgrind --callgrind-out-file="$cg" "${program[@]}" "$3" \
    >"$out/cg.log" 2>&1
  awk '/^summary:/ {print $2}' "$cg"
}
per_call() { # LIB SITES [PROGRAM] -> instructions per traced MPI_Comm_rank
  local a b
  a=$(instructions "$1" "$2" 100000 "${3:-}")
  b=$(instructions "$1" "$2" 200000 "${3:-}")
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
  # From Fortran the call goes through the tracer's Fortran entry point,
  # which hands the application's site to the wrapper's body (Open MPI) or,
  # across MPICH's own binding, in the thread's state.
  fortran=$build/bench/overhead_fortran
  if [ -x "$fortran" ]; then
    fon=$(per_call "$lib" on "$fortran")
    echo "instructions per traced Fortran MPI_Comm_rank (callgrind): sites on $fon"
    if [ -n "$baseline" ]; then
      fbase=$(per_call "$baseline" on "$fortran")
      echo "  baseline without call sites: $fbase; added by sites: $((fon - fbase))"
    fi
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
pct_of() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", 100 * (a - b) / b}'; }
signed() { awk -v p="$1" 'BEGIN {printf "%+.1f%%", p}'; }
# Sites are compared within one run: bench/sites_stripped rebuilds the trace
# of the very calls a trace with sites recorded as PILGRIM_SITES=off would
# have written it (the runtime's Sequitur and merge, sites dropped). On the
# deterministic programs it must agree with a real run without sites (META's
# start time aside, a few bytes), which is checked here on every cell.
# master_worker serves tasks to whichever worker asks first (MPI_ANY_SOURCE):
# its trace differs from run to run by up to hundreds of bytes, more than
# sites add, so only the same run tells what sites cost; each of its cells is
# the median of $repeat runs (sizes and percentages taken apart), and the
# last column shows how far another run lands.
repeat=${PILGRIM_BENCH_REPEAT:-5}
echo
echo "Sizes in bytes; master_worker (nondeterministic: any-source) is the median of $repeat runs per cell, the others one run (deterministic)."
echo "without sites: the same run's calls, written as PILGRIM_SITES=off writes them (bench/sites_stripped)."
echo
echo "| program | ranks | iterations | terminals without / with sites | without sites | (a) site in the signature | (b) side information | another run, PILGRIM_SITES=off |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for spec in ${PILGRIM_BENCH_SITES:-halo2d:4 halo2d:9 halo3d:8 master_worker:4 master_worker:9}; do
  program=${spec%%:*} ranks=${spec#*:}
  runs=1
  [ "$program" = master_worker ] && runs=$repeat
  for iter in 100 1000; do
    offs=() ss=() ons=() bs=() pas=() pbs=() tas=() tbs=()
    for ((i = 0; i < runs; i++)); do
      off=$(trace "$program" "$ranks" "$iter" off)
      on=$(trace "$program" "$ranks" "$iter" on)
      stripped="$on.stripped"
      "$build/bench/sites_stripped" "$on" "$stripped" >/dev/null
      read -r _ ta _ tb _ extra_b < <("$build/bench/site_designs" "$on")
      so=$(stat -c %s "$off") sst=$(stat -c %s "$stripped") sa=$(stat -c %s "$on")
      if [ "$program" != master_worker ] && [ $((so > sst ? so - sst : sst - so)) -gt 8 ]; then
        echo "sites_cost.sh: $program $ranks x $iter: sites_stripped gives $sst bytes, a run without sites $so" >&2
        exit 1
      fi
      offs+=("$so") ss+=("$sst") ons+=("$sa") bs+=("$((sst + extra_b))")
      pas+=("$(pct_of "$sa" "$sst")") pbs+=("$(pct_of "$((sst + extra_b))" "$sst")")
      tas+=("$ta") tbs+=("$tb")
    done
    echo "| $program | $ranks | $iter | $(median "${tbs[@]}") / $(median "${tas[@]}") | $(median "${ss[@]}") |" \
      "$(median "${ons[@]}") ($(signed "$(median "${pas[@]}")")) | $(median "${bs[@]}") ($(signed "$(median "${pbs[@]}")")) |" \
      "$(median "${offs[@]}") |"
  done
done
