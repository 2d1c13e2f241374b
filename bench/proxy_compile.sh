#!/usr/bin/env bash
# Proxy size and compile time against trace size (issue 11, item 8): traces
# test/mpi/distinct_calls with N nearly distinct calls on one rank,
# generates its proxy twice, as pilgrim-proxygen does by default (long runs of
# calls as tables, proxygen/call_shapes.h) and, the baseline, as straight-line
# code (--table-runs=0), compiles each with the build's mpicxx -O1, runs it
# under the tracer and compares the traces. Prints one Markdown row per N and
# mode: trace bytes, CST entries, proxygen seconds, proxy lines and bytes,
# compile seconds and peak memory, and whether the re-trace is identical.
#   bench/proxy_compile.sh [BUILD_DIR] [N ...]   (default build/openmpi; 1000 10000 100000)
# A compile longer than PILGRIM_BENCH_TIMEOUT seconds (default 600) shows as
# "timeout". Seconds are wall time on a shared machine: compare rows of one run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 10000 100000)
site="$build/pilgrim-lit-site.py"
[ -r "$site" ] || { echo "proxy_compile.sh: $site is missing: configure and build first" >&2; exit 2; }
mpi=$(sed -n "s/^mpi = '\(.*\)'/\1/p" "$site")
mpirun=$(sed -n "s/^mpirun = '\(.*\)'/\1/p" "$site")
mpicxx=$(sed -n "s/^mpicxx = '\(.*\)'/\1/p" "$site")
lib=$(sed -n "s/^libpilgrim = '\(.*\)'/\1/p" "$site")
prog="$build/test/mpi/distinct_calls"
[ -x "$prog" ] || { echo "proxy_compile.sh: $prog is missing: build first" >&2; exit 2; }
timeout_s=${PILGRIM_BENCH_TIMEOUT:-600}
[ "$mpi" = openmpi ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

secs() { # secs CMD...: runs it, prints its wall seconds
  local t0 t1
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}

echo "MPI: $mpi; $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
echo "| calls | trace bytes | CST entries | proxy | proxygen s | lines | bytes | compile s | compile MiB | re-trace |"
echo "| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |"
for n in "${sizes[@]}"; do
  t="$out/d$n.pilgrim"
  "$mpirun" -np 1 env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$t" "$prog" "$n" > /dev/null
  cst=$("$build/bin/pilgrim-dump" --grammar "$t" | sed -n 's/^# merged: \([0-9]*\) CST entries.*/\1/p')
  # The default (long runs as tables), then the baseline: straight-line code.
  for mode in tables straight; do
    opt=()
    [ "$mode" = straight ] && opt=(--table-runs=0)
    p="$out/p$n.$mode"
    gen=$(secs "$build/bin/pilgrim-proxygen" "${opt[@]}" "$t" -o "$p.cpp")
    lines=$(wc -l < "$p.cpp")
    bytes=$(wc -c < "$p.cpp")
    rc=0
    /usr/bin/time -f "%e %M" -o "$p.time" timeout "$timeout_s" \
      "$mpicxx" -std=c++17 -O1 "$p.cpp" -o "$p" 2> "$p.log" || rc=$?
    if [ $rc -eq 124 ]; then
      comp=timeout; mem=-; same=-
    elif [ $rc -ne 0 ]; then
      comp=failed; mem=-; same=-
    else
      comp=$(tail -n 1 "$p.time" | awk '{print $1}')
      mem=$(tail -n 1 "$p.time" | awk '{printf "%.0f", $2 / 1024}')
      "$mpirun" -np 1 env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$p.pilgrim" "$p" > /dev/null
      if "$build/bin/pilgrim-diff" "$t" "$p.pilgrim" > /dev/null; then same=identical; else same=differs; fi
    fi
    echo "| $n | $(wc -c < "$t") | $cst | $mode | $gen | $lines | $bytes | $comp | $mem | $same |"
  done
done
