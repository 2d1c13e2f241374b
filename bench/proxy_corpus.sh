#!/usr/bin/env bash
# The proxy success rate on the project's own corpus (issue 11): for every
# program of test/mpi (PILGRIM_MPI_TEST_PROGRAMS in test/mpi/CMakeLists.txt),
# runs its proxy round trips (test/proxy/roundtrip_*.test: trace, generate
# the proxy, compile it warning-free, run it under the tracer, compare the
# traces) with lit, and classes the program:
#   exact    every round trip passes and compares with plain pilgrim-diff;
#   relaxed  every round trip passes, one with pilgrim-diff --relaxed (the
#            test says why: the program itself is non-deterministic);
#   failed   a round trip fails;
#   none     the program has no round trip.
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
mapfile -t tests < <(ls "$root"/test/proxy/roundtrip_*.test)
$lit --config-prefix=llvm-lit --param build_dir="$build" -j 2 "${tests[@]}" >"$log" 2>&1 || true

echo "MPI: $mpi"
echo
echo "| program | round trips | result |"
echo "| --- | --- | --- |"
total=0
exact=0
relaxed=0
for p in $programs; do
  total=$((total + 1))
  mapfile -t mine < <(grep -lE "%testbin/$p( |\$)" "${tests[@]}" || true)
  if [ ${#mine[@]} -eq 0 ]; then
    echo "| $p | | none |"
    continue
  fi
  result=exact
  names=()
  for t in "${mine[@]}"; do
    name=$(basename "$t" .test)
    names+=("$name")
    if ! grep -qE "^(PASS|UNSUPPORTED): Pilgrim :: test/proxy/$name.test" "$log"; then
      result=failed
    elif [ $result = exact ] && grep -qE '^# RUN: .*pilgrim-diff.* --relaxed' "$t"; then
      result=relaxed
    fi
  done
  echo "| $p | ${names[*]} | $result |"
  case $result in
    exact) exact=$((exact + 1)) ;;
    relaxed) relaxed=$((relaxed + 1)) ;;
  esac
done
echo
ok=$((exact + relaxed))
echo "$ok of $total programs re-trace identically under $mpi ($exact exactly, $relaxed with --relaxed)"
