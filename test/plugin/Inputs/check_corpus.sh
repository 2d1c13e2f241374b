#!/bin/sh
# Compiles every MPI test program (test/mpi/*.c, *.cpp; the HDF5 ones where
# pkg-config finds this MPI's HDF5) with the plugin, syntax only, and prints
# the compiler's diagnostics and then "checked N programs"
# (request_check.test).
#   check_corpus.sh MPICC_CLANG MPICXX_CLANG PLUGIN MPI_NAME
cc=$1 cxx=$2 plugin=$3 mpi=$4
src=$(cd "$(dirname "$0")/../../mpi" && pwd)
root=$(cd "$src/../.." && pwd)
hdf5=$(pkg-config --cflags "hdf5-$mpi" 2>/dev/null)
n=0
for f in "$src"/*.c "$src"/*.cpp; do
  case "$f" in
    */hdf5_*) [ -n "$hdf5" ] || continue ;;
  esac
  case "$f" in
    *.c) $cc -fplugin="$plugin" -fsyntax-only -Wno-unused-command-line-argument -Wno-unknown-warning-option $hdf5 -I"$src" -I"$root/runtime" -I"$root/bytes/include" -I"$root/model/include" -I"$root/include" "$f" 2>&1 ;;
    *) $cxx -std=c++17 -fplugin="$plugin" -fsyntax-only -Wno-unused-command-line-argument $hdf5 -I"$src" -I"$root/runtime" -I"$root/bytes/include" -I"$root/model/include" -I"$root/include" "$f" 2>&1 ;;
  esac
  n=$((n + 1))
done
echo "checked $n programs"
