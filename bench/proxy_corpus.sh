#!/usr/bin/env bash
# The proxy success rate on the project's own corpus (issue 11): for every
# program of test/mpi (PILGRIM_MPI_TEST_PROGRAMS in test/mpi/CMakeLists.txt),
# runs its proxy round trips (the test/proxy lit tests that run it and
# pilgrim-diff: trace, generate the proxy, compile it warning-free, run it
# under the tracer, compare the traces) with lit, and classes the program by
# the round trips that run under this MPI (not UNSUPPORTED):
#   exact    every round trip passes and compares with plain pilgrim-diff;
#   relaxed  every round trip passes, one with pilgrim-diff --relaxed (the
#            test says why: the program itself is non-deterministic);
#   failed   a round trip fails;
#   none     the program has no round trip under this MPI (comm_spawn under
#            MPICH, whose launcher here cannot spawn): not counted.
# Prints one Markdown row per program, then the rate: programs whose proxy
# re-traces identically (exact or relaxed) over all programs.
#   bench/proxy_corpus.sh [BUILD_DIR]   (default build/openmpi)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
[ -r "$build/pilgrim-lit-site.py" ] || {
  echo "proxy_corpus.sh: $build/pilgrim-lit-site.py is missing: configure and build first" >&2
  exit 2
}
mpi=$(sed -n "s/^mpi = '\(.*\)'/\1/p" "$build/pilgrim-lit-site.py")
lit="/usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py"
programs=$(sed -n '/^set(PILGRIM_MPI_TEST_PROGRAMS/,/^)/p' "$root/test/mpi/CMakeLists.txt" |
  sed -e '1d' -e '$d' | tr -d ' ')
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Every round trip of the corpus, in one lit run (two workers).
mapfile -t tests < <(grep -l '^# RUN: .*pilgrim-diff' "$root"/test/proxy/*.test)
$lit --config-prefix=llvm-lit --param build_dir="$build" -j 2 "${tests[@]}" >"$log" 2>&1 || true

# Whether test $1 compares program $2's traces with --relaxed: any relaxed
# pilgrim-diff of a test that runs one program, else one that names the
# program's files (table_runs.test: %t/datatypes.pilgrim, ...).
relaxed_in() {
  local n
  n=$(grep -oE '%testbin/[a-z_0-9]+' "$1" | sort -u | wc -l)
  if [ "$n" -eq 1 ]; then
    grep -qE '^# RUN: .*pilgrim-diff.* --relaxed' "$1"
  else
    grep -qE "^# RUN: .*pilgrim-diff.* --relaxed.*/$2[._]" "$1"
  fi
}

echo "MPI: $mpi"
echo
echo "| program | round trips | result |"
echo "| --- | --- | --- |"
total=0
without=()
exact=0
relaxed=0
for p in $programs; do
  total=$((total + 1))
  mapfile -t mine < <(grep -lE "%testbin/$p( |\$)" "${tests[@]}" || true)
  result=exact
  names=()
  for t in "${mine[@]}"; do
    name=$(basename "$t" .test)
    grep -qE "^UNSUPPORTED: Pilgrim :: test/proxy/$name.test" "$log" && continue
    names+=("$name")
    if ! grep -qE "^PASS: Pilgrim :: test/proxy/$name.test" "$log"; then
      result=failed
    elif [ $result = exact ] && relaxed_in "$t" "$p"; then
      result=relaxed
    fi
  done
  [ ${#names[@]} -eq 0 ] && result=none
  echo "| $p | ${names[*]} | $result |"
  case $result in
    exact) exact=$((exact + 1)) ;;
    relaxed) relaxed=$((relaxed + 1)) ;;
    none) without+=("$p") ;;
  esac
done
echo
ok=$((exact + relaxed))
echo "$ok of $((total - ${#without[@]})) programs with a round trip under $mpi re-trace identically" \
  "($exact exactly, $relaxed with --relaxed)${without[*]:+; without one here: ${without[*]}}"
