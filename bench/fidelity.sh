#!/usr/bin/env bash
# Fidelity benchmark of pilgrim-proxygen: for each program of bench/fidelity/
# (a 2-D stencil, a master/worker farm, collectives with load imbalance) and
# each timing mode (PILGRIM_TIMING aggregate, lossless, hist:0.1,8), in one
# script:
#   1. REPEATS rounds of: the original untraced, the original traced
#      (LD_PRELOAD=libpilgrim.so, PILGRIM_TIMING=MODE), each trace kept;
#   2. the proxies of the median (or fastest, -s min) traced run, compiled
#      with the build's mpicxx: from aggregate timing, --compute=auto (the
#      per-signature model) and --compute=none; from each per-call mode,
#      --gaps=mean, --gaps=distribution and --gaps=exact (each call's own gap);
#   3. REPEATS rounds of: the original untraced and every proxy (untraced);
# and prints the median time of each, the original's over both phases'
# untraced runs. -s min prints the best (shortest) times instead and takes
# the trace of the fastest traced run: on a machine loaded by other work,
# which only ever slows a run down, and a proxy replays the disturbance of
# the run it was traced from.
# Every run is timed the same way, by the preloaded shim
# bench/fidelity/walltime_shim.cpp: from the end of MPI_Init to the start of
# MPI_Finalize, between two barriers, on rank 0.
#   bench/fidelity.sh BUILD_DIR [-np RANKS] [-r REPEATS] [-s min|median]
#                     [-m "MODE..."] [-p "PROGRAM..."] [-k]
# RANKS defaults to 2 (the development machine has 2 cores: with more ranks
# than cores the proxies sleep instead of spinning, and say so), REPEATS to
# 5, the modes to "aggregate lossless hist:0.1,8", the programs to all
# three. -k keeps the work directory (traces, proxies, times) and prints its
# path.
# One row per program, mode and proxy. PASS: the proxy's wall time within
# 10% of the original's untraced one (the none proxy, communication only, is
# there for comparison). LOC: lines of the proxy; grammar: the trace's rule
# pool (rules / symbols, as listed by pilgrim-dump --grammar). Timings on a
# machine shared with other work are only as good as its load allows: the
# load average is printed with them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: bench/fidelity.sh BUILD_DIR [-np RANKS] [-r REPEATS] [-k]}
build=$(cd "$build" && pwd)
shift
np=2 repeats=5 keep=0 stat=median
modes="aggregate lossless hist:0.1,8"
programs=("stencil2d" "master_worker" "imbalance")
while [ $# -gt 0 ]; do
  case "$1" in
    -np) np=$2; shift 2 ;;
    -r) repeats=$2; shift 2 ;;
    -s) stat=$2; shift 2 ;;
    -m) modes=$2; shift 2 ;;
    -p) read -r -a programs <<< "$2"; shift 2 ;;
    -k) keep=1; shift ;;
    *) echo "fidelity.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$stat" in min|median) ;; *) echo "fidelity.sh: -s takes min or median" >&2; exit 2 ;; esac
site="$build/pilgrim-lit-site.py"
mpi=$(sed -n "s/^mpi = '\(.*\)'/\1/p" "$site")
mpirun=$(sed -n "s/^mpirun = '\(.*\)'/\1/p" "$site")
mpicxx=$(sed -n "s/^mpicxx = '\(.*\)'/\1/p" "$site")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
extra=()
[ "$mpi" = openmpi ] && [ "$np" -gt 2 ] && extra=(--oversubscribe)
lib="$build/lib/libpilgrim.so"
shim="$build/bench/fidelity/libfidelity_walltime.so"
bin="$build/bench/fidelity"
work=$(mktemp -d)
if [ "$keep" = 1 ]; then echo "work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

# The programs run with their default sizes (each about 0.5 s on 2 quiet cores).

timed() { # OUT_PREFIX PRELOAD COMMAND... -> appends the wall time to OUT_PREFIX.times
  local out=$1 preload=$2
  shift 2
  "$mpirun" "${extra[@]}" -np "$np" env LD_PRELOAD="$preload" PILGRIM_OUTPUT="$work/scratch.pilgrim" \
    PILGRIM_TIMING="$timing" "$@" > "$out.stdout" 2> "$out.stderr" || { echo "failed: $*" >&2; cat "$out.stderr" >&2; exit 1; }
  awk '/^fidelity-walltime/ {print $2}' "$out.stderr" >> "$out.times"
}
pick() { # FILE of times -> the best or the median
  sort -g "$1" | awk -v s="$stat" '{a[NR]=$1} END {print s == "min" ? a[1] : a[int((NR+1)/2)]}'
}

echo "MPI: $mpi ($("$mpirun" --version 2>&1 | head -n 1)); $np ranks on $(nproc) cores;" \
  "$stat of $repeats; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %5s %-11s %-13s %9s %9s %9s %8s %8s %6s %7s %s\n' program ranks timing proxy \
  "orig s" "traced s" "proxy s" ratio target LOC rules symbols
for p in "${programs[@]}"; do
  for timing in $modes; do
    w="$work/$p/${timing//[:,]/_}"
    mkdir -p "$w"
    for i in $(seq "$repeats"); do
      timed "$w/orig" "$shim" "$bin/$p"
      timed "$w/traced" "$shim $lib" "$bin/$p"
      mv "$work/scratch.pilgrim" "$w/trace$i.pilgrim"
    done
    chosen=$(awk '{print $1, NR}' "$w/traced.times" | sort -g |
      awk -v s="$stat" '{a[NR]=$2} END {print s == "min" ? a[1] : a[int((NR+1)/2)]}')
    cp "$w/trace$chosen.pilgrim" "$w/trace.pilgrim"
    if [ "$timing" = aggregate ]; then
      proxies=("auto:--compute=auto" "none:--compute=none")
    else
      proxies=("mean:--gaps=mean" "distribution:--gaps=distribution" "exact:--gaps=exact")
    fi
    for entry in "${proxies[@]}"; do
      name=${entry%%:*}
      "$build/bin/pilgrim-proxygen" "${entry#*:}" "$w/trace.pilgrim" -o "$w/proxy_$name.cpp"
      "$mpicxx" -std=c++17 -O2 "$w/proxy_$name.cpp" -o "$w/proxy_$name"
    done
    for _ in $(seq "$repeats"); do
      timed "$w/orig" "$shim" "$bin/$p"
      for entry in "${proxies[@]}"; do
        name=${entry%%:*}
        timed "$w/$name" "$shim" "$w/proxy_$name"
      done
    done
    grep -q ": OK" "$w/orig.stdout" || { echo "$p did not check OK" >&2; exit 1; }
    # The rule pool: each distinct rule line of the per-rank listings once.
    "$build/bin/pilgrim-dump" --grammar "$w/trace.pilgrim" | grep -E '^R[0-9]+ ->' | sort -u > "$w/rules"
    rules=$(wc -l < "$w/rules")
    symbols=$(awk '{n += NF - 2} END {print n + 0}' "$w/rules")
    for entry in "${proxies[@]}"; do
      name=${entry%%:*}
      awk -v p="$p" -v np="$np" -v timing="$timing" -v name="$name" -v o="$(pick "$w/orig.times")" \
        -v t="$(pick "$w/traced.times")" -v s="$(pick "$w/$name.times")" \
        -v loc="$(wc -l < "$w/proxy_$name.cpp")" -v rules="$rules" -v symbols="$symbols" 'BEGIN {
          r = s / o; verdict = name == "none" ? "-" : (r >= 0.9 && r <= 1.1) ? "PASS" : "FAIL"
          printf "%-14s %5d %-11s %-13s %9.3f %9.3f %9.3f %8.3f %8s %6d %7d %d\n",
            p, np, timing, name, o, t, s, r, verdict, loc, rules, symbols }'
    done
  done
done
