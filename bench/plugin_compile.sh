#!/usr/bin/env bash
# Compile-time cost of the compiler plugin (issue 16, point 3; README,
# "Compiler plugin"): compiles each benchmark program with this build's
# mpicxx calling clang++ -std=c++17 -O2, without and with -fplugin=pilgrim.so,
# alternating, RUNS times each (default 7), and prints one Markdown row per
# program and one for the total: the median seconds without and with the
# plugin and their ratio. The target is a ratio of at most 1.10.
#   bench/plugin_compile.sh [BUILD_DIR] [RUNS]   (default build/openmpi, 7)
# Seconds are wall time on a shared machine: compare the two columns of one
# run (they alternate, so load hits both alike).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
runs=${2:-7}
site="$build/pilgrim-lit-site.py"
[ -r "$site" ] || { echo "plugin_compile.sh: $site is missing: configure and build first" >&2; exit 2; }
mpi=$(sed -n "s/^mpi = '\(.*\)'/\1/p" "$site")
mpicxx=$(sed -n "s/^mpicxx = '\(.*\)'/\1/p" "$site")
plugin=$(sed -n "s/^plugin = '\(.*\)'/\1/p" "$site")
[ -r "$plugin" ] || { echo "plugin_compile.sh: $plugin is missing: build the pilgrim_plugin target" >&2; exit 2; }
if [ "$mpi" = openmpi ]; then export OMPI_CXX=clang++; else export MPICH_CXX=clang++; fi
programs=("$root"/bench/fidelity/stencil2d.cpp "$root"/bench/fidelity/master_worker.cpp
          "$root"/bench/fidelity/imbalance.cpp "$root"/test/mpi/halo3d.cpp "$root"/test/mpi/p2p_nonblocking.cpp)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

seconds() { # command... : prints the wall seconds it took
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null
  t1=$(date +%s%N)
  echo "scale=4; ($t1 - $t0) / 1000000000" | bc
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| program | without (s) | with pilgrim.so (s) | ratio |"
echo "|---|---|---|---|"
total_without=0
total_with=0
for src in "${programs[@]}"; do
  name=$(basename "$src")
  : >"$out/without" && : >"$out/with"
  for _ in $(seq "$runs"); do
    seconds "$mpicxx" -std=c++17 -O2 -I"$root/test/mpi" -c "$src" -o "$out/a.o" >>"$out/without"
    seconds "$mpicxx" -std=c++17 -O2 -I"$root/test/mpi" -fplugin="$plugin" -c "$src" -o "$out/b.o" >>"$out/with"
  done
  without=$(median <"$out/without")
  with=$(median <"$out/with")
  total_without=$(echo "$total_without + $without" | bc)
  total_with=$(echo "$total_with + $with" | bc)
  printf '| %s | %.3f | %.3f | %.3f |\n' "$name" "$without" "$with" "$(echo "scale=4; $with / $without" | bc)"
done
printf '| total | %.3f | %.3f | %.3f |\n' "$total_without" "$total_with" "$(echo "scale=4; $total_with / $total_without" | bc)"
