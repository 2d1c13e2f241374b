#!/usr/bin/env bash
# Installs what Pilgrim needs on Debian 12: with --demo only what the demo
# needs (scripts/demo.sh), else everything the tests need too (scripts/test.sh).
# Idempotent: packages already present are not reinstalled, and `apt-get
# update` runs only when a package is missing. Run as root (or with sudo).
set -euo pipefail

# What the demo needs (scripts/demo.sh): the tracer, the tools and Open MPI.
DEMO_PACKAGES=(
  build-essential cmake ninja-build pkg-config python3
  clang-14 libclang-14-dev llvm-14-dev   # the wrapper generator (LibTooling) and the plugin
  libopenmpi-dev openmpi-bin
  libdw-dev                               # call sites: DWARF line tables (elfutils)
  libzstd-dev libzfp-dev libyaml-cpp-dev
  librsvg2-bin                            # rsvg-convert: the matrix's SVG as PNG
)
# What the tests need besides (scripts/test.sh).
TEST_PACKAGES=(
  python3-yaml python3-psutil clang llvm-14-tools libclang-rt-14-dev
  mpich libmpich-dev
  libgtest-dev libbenchmark-dev
  libopen-trace-format2-dev otf2-tools python3-otf2
  gfortran                                # Fortran applications (mpifort of both MPIs)
  libhdf5-openmpi-dev libhdf5-mpich-dev   # parallel HDF5 under both MPIs (I/O tests)
  help2man man-db                         # the man pages, and `man -l` that checks them
  graphviz                                # dot: docs/images/architecture.svg (scripts/architecture_diagram.py)
)
PACKAGES=("${DEMO_PACKAGES[@]}")
case "${1:-}" in
  --demo) ;;
  "") PACKAGES+=("${TEST_PACKAGES[@]}") ;;
  *) echo "bootstrap.sh: unknown argument $1 (use --demo, or nothing for everything)" >&2; exit 2 ;;
esac

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "bootstrap: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: done"
