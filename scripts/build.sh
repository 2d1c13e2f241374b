#!/usr/bin/env bash
# Configures and builds Pilgrim against one MPI into build/<name>.
#   scripts/build.sh openmpi|mpich [--sanitize]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mpi=${1:-openmpi}
shift || true
name=$mpi
extra=()
for a in "$@"; do
  case "$a" in
    --sanitize) name=$mpi-sanitize; extra+=(-DPILGRIM_SANITIZE=ON)
      export ASAN_OPTIONS=detect_leaks=0 ;; # tools run at build time (gtest discovery, seeds)
    *) echo "build.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
build="$root/build/$name"
cmake -S "$root" -B "$build" -G Ninja -DPILGRIM_MPI="$mpi" -DPILGRIM_BUILD_TESTS=ON "${extra[@]}" >&2
cmake --build "$build" -j "${PILGRIM_JOBS:-2}" >&2
echo "$build"
