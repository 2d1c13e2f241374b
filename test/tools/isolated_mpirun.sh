#!/usr/bin/env bash
# isolated_mpirun.sh MPIRUN ARGS...: runs Open MPI's launcher with a session
# directory of its own. Launchers started at the same time (lit runs tests in
# parallel) otherwise share TMPDIR/ompi.HOST.UID, which one of them may be
# removing while another creates it, and orte_init then fails with
# "File exists". The path stays short: PMIx puts Unix sockets under it.
set -u
dir=$(mktemp -d /tmp/pilgrim-ompi.XXXXXX) || exit 1
OMPI_MCA_orte_tmpdir_base=$dir "$@"
rc=$?
rm -rf "$dir"
exit $rc
