#!/usr/bin/env bash
# What order replay (PILGRIM_REPLAY) adds to a traced run, per matching
# event: one rank sending to itself (so that no call waits on another rank),
# recorded under the tracer, then replaying its own trace, REPS times each,
# in one script so that the ratio is of runs on the same machine, side by
# side:
#   self_recv_any  rounds of Isend + Recv(MPI_ANY_SOURCE) + Wait: one
#                  receive event a round, which replay forces to the
#                  recorded sender (Irecv + Test loop)
#   self_poll_any  rounds of Irecv(MPI_ANY_SOURCE) + a failed Test + Isend +
#                  Tests until one succeeds + Wait: polls, which replay
#                  answers from the trace (a progress probe for each failed
#                  one, a wait for the successful one)
# For each: the median ns per call traced and replayed, their ratio, and the
# time replay adds per matching event (the calls and events counted by
# pilgrim-diff on the two traces, which must be identical).
#   bench/replay_cost.sh [BUILD_DIR] [REPS]   (default build/openmpi, 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/openmpi}" && pwd)
reps=${2:-5}
. "$root/bench/site_env.sh"
site_env "$build" replay_cost.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
overhead="$build/bench/overhead"
diff="$build/bin/pilgrim-diff"
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ns() { sed -n 's/.* ns_per_call \([0-9.e+-]*\).*/\1/p'; }

echo "MPI: $mpi, $(date -u +%F), $reps runs each, one rank"
echo
echo "| calls | calls per run | matching events | traced ns/call | replayed ns/call | ratio | added per event |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for mode in self_recv_any self_poll_any; do
  n=30000
  : > "$out/traced" && : > "$out/replayed"
  for i in $(seq 1 "$reps"); do
    "$mpirun" "${extra[@]}" -np 1 env LD_PRELOAD="$lib" PILGRIM_QUIET=1 \
      PILGRIM_OUTPUT="$out/rec.pilgrim" "$overhead" "$mode" "$n" | ns >> "$out/traced"
    "$mpirun" "${extra[@]}" -np 1 env LD_PRELOAD="$lib" PILGRIM_QUIET=1 \
      PILGRIM_REPLAY="$out/rec.pilgrim" PILGRIM_OUTPUT="$out/rep.pilgrim" \
      "$overhead" "$mode" "$n" | ns >> "$out/replayed"
    "$diff" "$out/rec.pilgrim" "$out/rep.pilgrim" > "$out/same" ||
      { echo "replay_cost.sh: the replay's trace differs: $(cat "$out/same")" >&2; exit 1; }
  done
  calls=$(sed -n 's/.*rank, \([0-9,]*\) calls.*/\1/p' "$out/same" | tr -d ,)
  events=$("$diff" --order "$out/rec.pilgrim" "$out/rep.pilgrim" |
    sed -n 's/.*rank, \([0-9,]*\) matching events.*/\1/p' | tr -d ,)
  t=$(median < "$out/traced")
  r=$(median < "$out/replayed")
  awk -v m="$mode" -v c="$calls" -v e="$events" -v t="$t" -v r="$r" 'BEGIN {
    printf "| %s | %d | %d | %.0f | %.0f | %.2f | %.0f ns |\n", m, c, e, t, r, r / t, (r - t) * c / e }'
done
