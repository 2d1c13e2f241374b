#!/usr/bin/env bash
# What PILGRIM_POSIX costs (README "POSIX I/O"), to decide its default: the
# instructions per pwrite (64 bytes at offset 0, bench/overhead.cpp's pwrite
# mode, the program run as a singleton under callgrind) untraced, traced with
# PILGRIM_POSIX=off (libpilgrim.so's pwrite only forwards) and with
# PILGRIM_POSIX=on (recorded), at 10^5 and 2*10^5 calls:
#   per call = (run(2e5) - run(1e5)) / 1e5
# so that start-up, MPI_Finalize and the trace's writing cancel out; then
# what off and on add to the untraced call, and on / untraced.
#   bench/posix_overhead.sh [BUILD_DIR]   (default build/openmpi)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/openmpi}
. "$root/bench/site_env.sh"
site_env "$build" posix_overhead.sh
command -v valgrind >/dev/null || { echo "posix_overhead.sh: valgrind is not installed" >&2; exit 2; }
[ -x "$build/bench/overhead" ] || { echo "posix_overhead.sh: build the bench_overhead target first" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
instructions() { # calls setting(untraced|off|on) -> total instructions of the run
  local env=() cg="$out/cg.$1.$2"
  [ "$2" != untraced ] && env=(LD_PRELOAD="$lib" PILGRIM_OUTPUT="$out/t.pilgrim" PILGRIM_POSIX="$2")
  env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file="$cg" \
    "$build/bench/overhead" pwrite "$1" >"$out/cg.log" 2>&1 ||
    { echo "posix_overhead.sh: the $2 run failed:" >&2; cat "$out/cg.log" >&2; exit 1; }
  awk '/^summary:/ {print $2}' "$cg"
}
echo "MPI: $mpi; instructions per pwrite (callgrind, singleton, 2*10^5 - 10^5 calls)"
declare -A per
for setting in untraced off on; do
  a=$(instructions 100000 "$setting")
  b=$(instructions 200000 "$setting")
  per[$setting]=$(((b - a) / 100000))
done
printf '  untraced             %6d\n' "${per[untraced]}"
printf '  PILGRIM_POSIX=off    %6d  added %5d\n' "${per[off]}" $((per[off] - per[untraced]))
printf '  PILGRIM_POSIX=on     %6d  added %5d\n' "${per[on]}" $((per[on] - per[untraced]))
awk -v on="${per[on]}" -v off="${per[off]}" -v u="${per[untraced]}" \
  'BEGIN { printf "  ratio on/untraced %.2f, off/untraced %.2f\n", on / u, off / u }'
