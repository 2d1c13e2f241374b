#!/usr/bin/env bash
# Proxy size and compile time against trace size (issue 11, item 8): traces
# bench/proxy_compile/distinct_calls with N nearly distinct calls on one rank,
# generates its proxy, compiles it with the build's mpicxx -O1, runs it under
# the tracer and compares the traces. Prints one Markdown row per N: trace
# bytes, CST entries, proxygen seconds, proxy lines and bytes, compile seconds
# and peak memory, and whether the re-trace is identical.
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
prog="$build/bench/proxy_compile/distinct_calls"
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
echo "| calls | trace bytes | CST entries | proxygen s | proxy lines | proxy bytes | compile s | compile MiB | re-trace |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for n in "${sizes[@]}"; do
  t="$out/d$n.pilgrim"
  "$mpirun" -np 1 env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$t" "$prog" "$n" > /dev/null
  cst=$("$build/bin/pilgrim-dump" --grammar "$t" | sed -n 's/^# merged: \([0-9]*\) CST entries.*/\1/p')
  gen=$(secs "$build/bin/pilgrim-proxygen" "$t" -o "$out/p$n.cpp")
  lines=$(wc -l < "$out/p$n.cpp")
  bytes=$(wc -c < "$out/p$n.cpp")
  rc=0
  /usr/bin/time -f "%e %M" -o "$out/time$n" timeout "$timeout_s" \
    "$mpicxx" -std=c++17 -O1 "$out/p$n.cpp" -o "$out/p$n" 2> "$out/cc$n.log" || rc=$?
  if [ $rc -eq 124 ]; then
    comp=timeout; mem=-; same=-
  elif [ $rc -ne 0 ]; then
    comp=failed; mem=-; same=-
  else
    comp=$(tail -n 1 "$out/time$n" | awk '{print $1}')
    mem=$(tail -n 1 "$out/time$n" | awk '{printf "%.0f", $2 / 1024}')
    "$mpirun" -np 1 env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$out/r$n.pilgrim" "$out/p$n" > /dev/null
    if "$build/bin/pilgrim-diff" "$t" "$out/r$n.pilgrim" > /dev/null; then same=identical; else same=differs; fi
  fi
  echo "| $n | $(wc -c < "$t") | $cst | $gen | $lines | $bytes | $comp | $mem | $same |"
done
