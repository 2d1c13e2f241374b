#!/usr/bin/env bash
# Traces every correct program of the MPI test corpus (test/mpi, and the 2-D
# stencil of bench/fidelity) and runs pilgrim-check on each trace: none may
# have an error (warnings are fine: the corpus leaves handles to
# MPI_Finalize). Prints one line per run, "PROGRAM ARGS: no errors", or
# pilgrim-check's error lines, then "corpus: N traces, M with errors".
#   [CORPUS_EXPORTS=1 PYTHON=python3] check_corpus.sh BUILD_DIR OUT_DIR MPIRUN...
# MPIRUN is lit's %mpirun (the launcher and its options). With
# CORPUS_EXPORTS=1 each trace is also exported (test/export/corpus.test):
# pilgrim-export --chrome, checked by test/export/check_chrome_json.py, and
# --otf2, read back by otf2-print and every send matched with its receive by
# test/export/otf2_match.py; a failing export or validator counts as an
# error ("EXPORT FAILED" and its output).
set -uo pipefail
build=$1
out=$2
shift 2
mpirun=("$@")
bin=$build/test/mpi
# ranks, program and arguments; the small sizes of the programs' own tests.
runs=(
  "4 halo2d -n 3"
  "4 halo3d -n 2"
  "4 ring -n 2"
  "4 allreduce_loop -n 5 -b 2"
  "4 master_worker -n 5"
  "4 p2p_blocking"
  "4 p2p_nonblocking"
  "4 anysource"
  "4 persistent"
  "4 collectives"
  "4 collectives_nonblocking"
  "4 comm_create"
  "4 datatypes"
  "4 onesided"
  "4 mpiio $out/mpiio.dat"
  "4 info_attr"
  "4 errhandler"
  "4 comm_ids"
  "4 comm_id_reuse"
  "4 idup_overlap chain"
  "4 idup_overlap dup"
  "4 idup_overlap inter"
  "4 idup_overlap polled"
  "4 idup_overlap several"
  "4 idup_overlap split"
  "2 request_get_status"
  "2 grequest"
  "1 distinct_calls 100"
  "4 rma_memory"
  "4 rma_pscw_test"
  "4 rma_linked_list"
  "4 rma_zero_window"
  "4 absolute_addresses"
  "3 dynamic_window"
  "2 large_counts"
  "3 many_comms"
  "4 wildcard_master"
  "4 attr_callbacks"
  "3 ignored_status"
  "6 comm_membership"
  "4 keyval_lifetime"
  "4 info_values"
  "4 dist_graph"
  "4 file_modes $out/files"
  "4 late_rank -n 1 -s 0"
  "4 intercomm_p2p"
)
mkdir -p "$out/files"
traces=0
bad=0
here=$(cd "$(dirname "$0")" && pwd)
export_one() { # NAME TRACE: the exports and their validators; false on a failure
  local name=$1 trace=$2 log="$out/$name.export"
  "$build/bin/pilgrim-export" --chrome "$out/$name.json" "$trace" > "$log" 2>&1 &&
    "${PYTHON:-python3}" "$here/../export/check_chrome_json.py" "$out/$name.json" >> "$log" 2>&1 &&
    "$build/bin/pilgrim-export" --otf2 "$out/$name.otf2" "$trace" >> "$log" 2>&1 &&
    otf2-print "$out/$name.otf2/traces.otf2" > /dev/null 2>> "$log" &&
    "${PYTHON:-python3}" "$here/../export/otf2_match.py" "$out/$name.otf2/traces.otf2" >> "$log" 2>&1
}
check() { # NAME TRACE WHAT
  local name=$1 trace=$2 what=$3
  traces=$((traces + 1))
  if ! "$build/bin/pilgrim-check" --errors-only "$trace" > "$out/$name.check" 2>&1; then
    bad=$((bad + 1))
    echo "$what: ERRORS"
    cat "$out/$name.check"
  elif [ "${CORPUS_EXPORTS:-0}" = 1 ] && ! export_one "$name" "$trace"; then
    bad=$((bad + 1))
    echo "$what: EXPORT FAILED"
    cat "$out/$name.export"
  else
    echo "$what: no errors"
  fi
  rm -rf "$out/$name.json" "$out/$name.otf2"
}
n=0
for run in "${runs[@]}"; do
  read -r -a words <<< "$run"
  np=${words[0]}
  prog=${words[1]}
  args=("${words[@]:2}")
  n=$((n + 1))
  name=$n-$prog
  if ! "${mpirun[@]}" -np "$np" env LD_PRELOAD="$build/lib/libpilgrim.so" \
      PILGRIM_OUTPUT="$out/$name.pilgrim" "$bin/$prog" "${args[@]}" > "$out/$name.log" 2>&1; then
    bad=$((bad + 1))
    echo "$run: RUN FAILED"
    cat "$out/$name.log"
    continue
  fi
  check "$name" "$out/$name.pilgrim" "$run"
done
# The 2-D stencil of the fidelity benchmark (bench/fidelity/stencil2d.cpp).
if "${mpirun[@]}" -np 4 env LD_PRELOAD="$build/lib/libpilgrim.so" \
    PILGRIM_OUTPUT="$out/stencil2d.pilgrim" "$build/bench/fidelity/stencil2d" -n 20 -s 32 > "$out/stencil2d.log" 2>&1; then
  check stencil2d "$out/stencil2d.pilgrim" "4 stencil2d -n 20 -s 32"
else
  bad=$((bad + 1))
  echo "stencil2d: RUN FAILED"
  cat "$out/stencil2d.log"
fi
echo "corpus: $traces traces, $bad with errors"
