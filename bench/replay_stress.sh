#!/usr/bin/env bash
# Order replay at full count (issue 28; the lit tests of test/replay run 3
# repetitions): for each program, REPS plain runs with different seeds
# (how many distinct outputs), one recorded run, and REPS replays of it
# with other seeds (how many printed the recorded output, how many traces
# pilgrim-diff finds identical without --relaxed). test/replay/replay_runs.sh
# does each; this script runs the programs and sizes of the issue:
#   arrival_order at 3, 4 and 8 ranks (an MPI_ANY_SOURCE master/worker),
#   and at 4 through persistent wildcard receives (-p 1: MPI_Start and
#   MPI_Wait; -p 2 -i: MPI_Startall, MPI_Waitany, statuses ignored), and
#   under MPICH with the large-count receives (-c: MPI_Recv_c,
#   MPI_Recv_init_c),
#   particles at 4 ranks (Testsome polling), same_tag at 4 ranks (Waitany).
#   bench/replay_stress.sh [BUILD_DIR] [REPS]   (default build/openmpi, 20)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
reps=${2:-20}
. "$root/bench/site_env.sh"
site_env "$build" replay_stress.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export PATH="$build/bin:$PATH"
run="$mpirun ${extra[*]}"
echo "MPI: $mpi, $(date -u +%F), $reps repetitions"
echo
echo "| program | ranks | plain runs: distinct outputs | replays: recorded output | replays: identical trace |"
echo "| --- | ---: | ---: | ---: | ---: |"
list="arrival_order 3 -n 6
arrival_order 4 -n 4
arrival_order 8 -n 2
arrival_order 4 -n 4 -p 1
arrival_order 4 -n 4 -p 2 -i
particles 4 -k 3 -h 4
same_tag 4 -n 3"
if [ "$mpi" = mpich ]; then
  list="$list
arrival_order 4 -n 4 -c
arrival_order 4 -n 4 -c -p 1"
fi
k=0
while read -r program np args; do
  k=$((k + 1))
  r=$("$root/test/replay/replay_runs.sh" --mpirun "$run" --lib "$lib" --bin "$build/test/mpi" \
    --reps "$reps" --np "$np" --dir "$out/$k-$program-$np" "$program" $args < /dev/null)
  plain=$(echo "$r" | sed -n 's/^plain: \([0-9]*\) distinct.*/\1/p')
  same=$(echo "$r" | sed -n 's/^replay: \([0-9]*\) of [0-9]* outputs.*/\1/p')
  ident=$(echo "$r" | sed -n 's/.*, \([0-9]*\) of [0-9]* traces identical/\1/p')
  echo "| $program $args | $np | $plain of $reps | $same of $reps | $ident of $reps |"
done <<< "$list"
