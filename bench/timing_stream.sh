#!/usr/bin/env bash
# Peak memory and throughput of the per-call timing stream (StreamWriter,
# spill file, PayloadReader) as the number of calls grows.
#   bench/timing_stream.sh BUILD_DIR [MODE...]      10^9 calls per mode (minutes)
#   bench/timing_stream.sh --ci BUILD_DIR           10^6 and 10^7 calls, lossless
#       and hist:0.1,8; fails unless the peak at 10^7 is within 2 MiB of the
#       peak at 10^6 (memory does not grow with the run). A few seconds.
# PILGRIM_TIMING_CALLS overrides the 10^9.
set -euo pipefail
ci=0
if [ "${1:-}" = "--ci" ]; then ci=1; shift; fi
build=${1:?usage: bench/timing_stream.sh [--ci] BUILD_DIR [MODE...]}
shift
bin="$build/bench/timing_stream"
[ -x "$bin" ] || { echo "timing_stream.sh: $bin not built" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ $ci -eq 1 ]; then
  status=0
  for mode in lossless hist:0.1,8; do
    small=$("$bin" 1000000 "$mode" "$dir")
    large=$("$bin" 10000000 "$mode" "$dir")
    echo "$small"; echo "$large"
    p1=$(echo "$small" | sed 's/.*peak_kib \([0-9]*\).*/\1/')
    p2=$(echo "$large" | sed 's/.*peak_kib \([0-9]*\).*/\1/')
    if [ $((p2 - p1)) -gt 2048 ]; then
      echo "timing_stream.sh: $mode peak memory grows: ${p1} KiB at 10^6 calls, ${p2} KiB at 10^7" >&2
      status=1
    else
      echo "$mode: peak ${p1} KiB at 10^6 calls, ${p2} KiB at 10^7: flat"
    fi
  done
  exit $status
fi
[ $# -gt 0 ] || set -- lossless hist:0.1,8 pred:0.1
for mode in "$@"; do
  "$bin" "${PILGRIM_TIMING_CALLS:-1000000000}" "$mode" "$dir"
done
