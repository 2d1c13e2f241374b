#!/usr/bin/env bash
# README command 2: installs what Pilgrim needs, builds it against each MPI
# (Open MPI through plain-named mpicc/mpicxx/mpirun/mpifort links on PATH, as
# a site MPI is found; MPICH by Debian's name: scripts/build.sh) and runs the
# unit tests (ctest) and the lit suite; with --sanitize also an
# AddressSanitizer/UndefinedBehaviorSanitizer build's unit tests and fuzz
# corpus, and a bounded libFuzzer run (scripts/fuzz.sh, counted as one test).
# Ends with one line "N passed, N failed".
#   scripts/test.sh [openmpi|mpich|all] [--sanitize]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
which=all
sanitize=0
for a in "$@"; do
  case "$a" in
    openmpi|mpich|all) which=$a ;;
    --sanitize) sanitize=1 ;;
    *) echo "test.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
"$root/scripts/bootstrap.sh" || exit 1
# Debian's python3 (with python3-psutil, which lit's per-test timeout needs),
# not whatever python3 comes first on PATH.
lit="/usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py"
passed=0
failed=0
log=$(mktemp)
names=() # every failing test, repeated at the end where a log's tail shows it

count_ctest() { # adds ctest's "N tests failed out of M"
  local line p f t
  line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1)
  if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/')
  t=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/')
  passed=$((passed + t - f)); failed=$((failed + f))
  while IFS= read -r n; do names+=("$1 ctest: $n"); done < <(grep -E '^ *[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Not Run|Exception)' "$log" | sed -E 's/^ *[0-9]+ - //')
}
count_lit() { # adds lit's "Passed: N" / "Failed: N"; no summary at all is a failure
  local p f
  if ! grep -qE '^ *(Passed|Failed|Unsupported) *: *[0-9]+' "$log"; then
    echo "=== lit printed no results (see above)"; failed=$((failed + 1)); return
  fi
  p=$(grep -E '^ *(Passed|Expectedly Failed) *: *[0-9]+' "$log" | sed -E 's/[^0-9]*([0-9]+).*/\1/' | awk '{s+=$1} END {print s+0}')
  f=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+' "$log" | sed -E 's/[^0-9]*([0-9]+).*/\1/' | awk '{s+=$1} END {print s+0}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  while IFS= read -r n; do names+=("$1 lit: $n"); done < <(grep -E '^(FAIL|TIMEOUT|UNRESOLVED|XPASS): ' "$log")
}

# Each stage's line says when it began, so that a CI log shows where the
# time goes.
stage() { echo "=== $* (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }

mpis=(openmpi mpich)
[ "$which" != all ] && mpis=("$which")
for mpi in "${mpis[@]}"; do
  stage $mpi: build
  if ! build=$("$root/scripts/build.sh" "$mpi" | tail -n 1); then
    echo "=== $mpi: BUILD FAILED"; failed=$((failed + 1)); continue
  fi
  stage $mpi: unit tests
  ctest --test-dir "$build" --output-on-failure -j 2 2>&1 | tee "$log" | tail -n 3
  count_ctest "$mpi"
  stage $mpi: lit
  $lit --config-prefix=llvm-lit --param build_dir="$build" -v --timeout 300 "$root/test" 2>&1 | tee "$log" | grep -vE '^PASS:' | tail -n 40
  count_lit "$mpi"
done
if [ $sanitize -eq 1 ]; then
  stage openmpi, ASan+UBSan: build
  if build=$("$root/scripts/build.sh" openmpi --sanitize | tail -n 1); then
    stage openmpi, ASan+UBSan: unit tests and fuzz corpus
    ASAN_OPTIONS=detect_leaks=0 ctest --test-dir "$build" --output-on-failure -j 2 2>&1 | tee "$log" | tail -n 3
    count_ctest "openmpi ASan+UBSan"
  else
    echo "=== sanitize: BUILD FAILED"; failed=$((failed + 1))
  fi
  # libFuzzer on the trace reader, clang-14, PILGRIM_FUZZ_SECONDS (default 60).
  if "$root/scripts/fuzz.sh"; then passed=$((passed + 1)); else failed=$((failed + 1)); names+=("fuzz: scripts/fuzz.sh"); fi
fi
rm -f "$log"
stage done
for n in "${names[@]}"; do echo "failed: $n"; done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
