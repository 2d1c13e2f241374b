#!/usr/bin/env bash
# Installs everything Pilgrim needs on Debian 12. Idempotent: packages already
# present are not reinstalled, and `apt-get update` runs only when a package is
# missing. Run as root (or with sudo available).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config python3 python3-yaml python3-psutil
  clang clang-14 libclang-14-dev llvm-14-dev llvm-14-tools libclang-rt-14-dev
  libopenmpi-dev openmpi-bin
  mpich libmpich-dev
  libdw-dev                               # call sites: DWARF line tables (elfutils)
  libzstd-dev libzfp-dev libyaml-cpp-dev libgtest-dev libbenchmark-dev
  libopen-trace-format2-dev otf2-tools python3-otf2
  gfortran                                # Fortran applications (mpifort of both MPIs)
  libhdf5-openmpi-dev libhdf5-mpich-dev   # parallel HDF5 under both MPIs (I/O tests)
  librsvg2-bin # rsvg-convert: the matrix heat map's test renders its SVG to PNG
  help2man man-db                         # the tools' man pages (man/), rendered by a test
)

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
