#!/usr/bin/env bash
# Runs a self-checking test program (test/mpi) whose output depends on the
# order its messages arrive in, three ways, and says what it saw:
#   1. REPS plain runs (seeds 1..REPS), untraced: how many distinct outputs;
#   2. one run traced (seed 1000): the recorded output and trace;
#   3. REPS runs replaying that trace (PILGRIM_REPLAY; seeds 2001..): how
#      many printed the recorded output, and how many traces pilgrim-diff
#      finds identical to the recorded one (without --relaxed).
# The lit tests of test/replay run it with 3 repetitions; bench/replay_stress.sh
# with 20.
#   replay_runs.sh --mpirun CMD --lib LIBPILGRIM --bin DIR --reps N --np NP
#                  --dir OUT PROGRAM [ARGS...]
# Prints "plain: D distinct outputs of N runs" and "replay: A of N outputs
# as recorded, B of N traces identical", then the first differing output or
# diff, if any. Exit status 0 unless a run failed.
set -uo pipefail
while [ $# -gt 0 ]; do
  case "$1" in
    --mpirun) mpirun=$2; shift 2 ;;
    --lib) lib=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) break ;;
  esac
done
program=$1
shift
mkdir -p "$dir"
failed=0
for i in $(seq 1 "$reps"); do
  $mpirun -np "$np" "$bin/$program" "$@" -s "$i" > "$dir/plain$i.out" || failed=1
done
distinct=$(for f in "$dir"/plain*.out; do grep -v ': OK$' "$f" | md5sum; done | sort -u | wc -l)
echo "plain: $distinct distinct outputs of $reps runs"
$mpirun -np "$np" env LD_PRELOAD="$lib" PILGRIM_QUIET=1 PILGRIM_OUTPUT="$dir/recorded.pilgrim" \
  "$bin/$program" "$@" -s 1000 > "$dir/recorded.out" || failed=1
same=0 identical=0 shown=0
for i in $(seq 1 "$reps"); do
  $mpirun -np "$np" env LD_PRELOAD="$lib" PILGRIM_QUIET=1 PILGRIM_REPLAY="$dir/recorded.pilgrim" \
    PILGRIM_REPLAY_WATCHDOG="${PILGRIM_REPLAY_WATCHDOG:-60}" \
    PILGRIM_OUTPUT="$dir/replay$i.pilgrim" "$bin/$program" "$@" -s $((2000 + i)) \
    > "$dir/replay$i.out" || failed=1
  if cmp -s "$dir/recorded.out" "$dir/replay$i.out"; then
    same=$((same + 1))
  elif [ $shown = 0 ]; then
    shown=1; echo "replay $i printed:"; cat "$dir/replay$i.out"
  fi
  if pilgrim-diff "$dir/recorded.pilgrim" "$dir/replay$i.pilgrim" > "$dir/diff$i.txt" 2>&1; then
    identical=$((identical + 1))
  elif [ $shown -lt 2 ]; then
    shown=2; echo "replay $i's trace:"; head -n 5 "$dir/diff$i.txt"
  fi
done
echo "replay: $same of $reps outputs as recorded, $identical of $reps traces identical"
exit $failed
