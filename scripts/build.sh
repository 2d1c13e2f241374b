#!/usr/bin/env bash
# Configures and builds Pilgrim against one of Debian's MPIs into build/<name>.
#   scripts/build.sh openmpi|mpich [--sanitize]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mpi=${1:-openmpi}
shift || true
name=$mpi
extra=()
for a in "$@"; do
  case "$a" in
    --sanitize) name=$mpi-sanitize; extra+=(-DPILGRIM_SANITIZE=ON -DPILGRIM_TEST_PROGRAMS=OFF)
      export ASAN_OPTIONS=detect_leaks=0 ;; # tools run at build time (gtest discovery, seeds)
    *) echo "build.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
build="$root/build/$name"
# MPICH by Debian's shorthand (-DPILGRIM_MPI=mpich); Open MPI the way a site
# MPI is found, as plain `mpicc` on PATH: a folder of plain-named links to
# Debian's Open MPI (issue 26: CI runs the whole Open MPI suite on that build).
mpi_args=(-DPILGRIM_MPI="$mpi")
if [ "$mpi" = openmpi ]; then
  links="$root/build/plain-mpi-$mpi"
  mkdir -p "$links"
  for tool in mpicc mpicxx mpirun mpifort; do
    real=$(command -v "$tool.$mpi") || { echo "build.sh: $tool.$mpi is not installed" >&2; exit 1; }
    ln -sfn "$real" "$links/$tool"
  done
  export PATH="$links:$PATH"
  mpi_args=(-DPILGRIM_MPI= -UMPI_C_COMPILER)
fi
cmake -S "$root" -B "$build" -G Ninja "${mpi_args[@]}" -DPILGRIM_BUILD_TESTS=ON "${extra[@]}" >&2
cmake --build "$build" -j "${PILGRIM_JOBS:-2}" >&2
echo "$build"
