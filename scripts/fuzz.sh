#!/usr/bin/env bash
# Fuzzes the trace reader for a bounded time: builds trace_reader_fuzzer
# (libFuzzer + ASan + UBSan, clang-14) from test/fuzz/standalone into
# build/fuzz, then runs it from the seed corpus test/fuzz/corpus. New inputs go
# to a temporary directory, never into the source tree; the input that failed
# is kept in build/fuzz/artifacts/. Exits non-zero on any crash, sanitizer
# report, leak, timeout or out-of-memory, and prints the number of executions.
#   scripts/fuzz.sh     PILGRIM_FUZZ_SECONDS (default 60) sets the time,
#                       PILGRIM_FUZZ_BUILD (default build/fuzz) the build folder
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${PILGRIM_FUZZ_SECONDS:-60}
case "$seconds" in
  ''|*[!0-9]*|0*) # 0 would mean "no limit" to libFuzzer
    echo "fuzz.sh: PILGRIM_FUZZ_SECONDS must be a positive number of seconds, not '$seconds'" >&2; exit 2 ;;
esac
build=${PILGRIM_FUZZ_BUILD:-$root/build/fuzz}
mkdir -p "$build" || exit 1

echo "=== fuzz: build ($build)"
if ! cmake -S "$root/test/fuzz/standalone" -B "$build" -G Ninja \
      -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 >"$build/build.log" 2>&1 ||
   ! cmake --build "$build" -j "${PILGRIM_JOBS:-2}" --target trace_reader_fuzzer >>"$build/build.log" 2>&1; then
  tail -n 40 "$build/build.log"
  echo "fuzz: BUILD FAILED (log: $build/build.log)"
  exit 1
fi

corpus=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$corpus" "$log"' EXIT
rm -rf "$build/artifacts" && mkdir -p "$build/artifacts"
echo "=== fuzz: $seconds s from test/fuzz/corpus"
"$build/bin/trace_reader_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
    "$corpus" "$root/test/fuzz/corpus" >"$log" 2>&1
rc=$?
runs=$(grep -E '^stat::number_of_executed_units:' "$log" | tail -n 1 | awk '{print $2}')
[ -n "$runs" ] || runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -n 1 | awk '{print $2}')
if [ $rc -ne 0 ]; then
  # The report: 40 lines from the first sanitizer or libFuzzer error, and
  # where libFuzzer wrote the input.
  first=$(grep -nE 'ERROR: |runtime error:|==ABORTING|deadly signal' "$log" | head -n 1 | cut -d: -f1)
  if [ -n "$first" ]; then sed -n "${first},$((first + 39))p" "$log"; else tail -n 40 "$log"; fi
  grep -E 'Test unit written|^SUMMARY:' "$log"
  echo "fuzz: FAILED (exit $rc) after ${runs:-?} executions; failing input in $build/artifacts/"
  exit 1
fi
echo "fuzz: passed, ${runs:-?} executions in $seconds s, corpus $(ls "$corpus" | wc -l) new inputs (discarded)"
