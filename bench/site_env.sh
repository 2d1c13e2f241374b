# Sourced by bench scripts: what a build's lit site file says about its MPI.
#   site_env BUILD_DIR SCRIPT_NAME
# sets mpi, mpirun, lib (libpilgrim.so) and extra (mpirun's options: Open MPI
# runs as root, oversubscribed, over shared memory), or exits 2 if the build
# is not configured.
site_env() {
  local site="$1/pilgrim-lit-site.py"
  [ -r "$site" ] || { echo "$2: $site is missing: configure and build first" >&2; exit 2; }
  mpi=$(sed -n "s/^mpi = '\(.*\)'/\1/p" "$site")
  mpirun=$(sed -n "s/^mpirun = '\(.*\)'/\1/p" "$site")
  lib=$(sed -n "s/^libpilgrim = '\(.*\)'/\1/p" "$site")
  extra=()
  if [ "$mpi" = openmpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
    extra=(--oversubscribe)
  fi
}
