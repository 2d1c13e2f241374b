#!/usr/bin/env bash
# What carrying a Lamport clock with every message costs (issue 29, CDC
# mode), the two candidates against a plain message, in one program
# (bench/cdc/piggyback.cpp): a struct datatype {clock, user buffer} built
# around each message, or a separate 8-byte clock message on a private
# duplicate communicator. Two ranks ping-pong 8 B, 4 KiB and 64 KiB
# messages; best of REPEATS interleaved runs; ns per round trip (two
# messages) and the ratio to plain.
#   bench/cdc_piggyback.sh [BUILD_DIR] [ROUNDS] [REPEATS]   (build/openmpi, 20000, 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
rounds=${2:-20000}
repeats=${3:-5}
. "$root/bench/site_env.sh"
site_env "$build" cdc_piggyback.sh
echo "MPI: $mpi, $(date -u +%F), 2 ranks, $rounds round trips, best of $repeats"
echo
echo "| message | plain ns/round trip | datatype ns | datatype ratio | message ns | message ratio |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
for size in 8 4096 65536; do
  n=$rounds
  [ "$size" -ge 65536 ] && n=$((rounds / 10))
  out=$($mpirun "${extra[@]}" -np 2 "$build/bench/cdc_piggyback" -n "$n" -s "$size" -r "$repeats" < /dev/null)
  p=$(echo "$out" | awk '$1=="plain"{print $3}')
  d=$(echo "$out" | awk '$1=="datatype"{print $3" | "$4}')
  m=$(echo "$out" | awk '$1=="message"{print $3" | "$4}')
  echo "| $size B | $p | $d | $m |"
done
