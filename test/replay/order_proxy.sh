#!/usr/bin/env bash
# A proxy that replays the recorded order (pilgrim-proxygen --order), round
# trip: trace PROGRAM on NP ranks, generate its proxy, build it (warnings
# are errors), run it under libpilgrim.so replaying the program's trace, and
# compare the two traces with plain pilgrim-diff (no --relaxed); then run
# the proxy alone, without Pilgrim, where the order compiled into it
# replays. Prints "PROGRAM: " and pilgrim-diff's line, then "PROGRAM alone:
# ok" (or the run's error lines).
#   order_proxy.sh --mpirun CMD --mpicxx CMD --lib LIBPILGRIM --bin DIR --dir OUT PROGRAM NP
set -uo pipefail
while [ $# -gt 2 ]; do
  case "$1" in
    --mpirun) mpirun=$2; shift 2 ;;
    --mpicxx) mpicxx=$2; shift 2 ;;
    --lib) lib=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) break ;;
  esac
done
p=$1 np=$2
mkdir -p "$dir"
$mpirun -np "$np" env LD_PRELOAD="$lib" PILGRIM_QUIET=1 PILGRIM_OUTPUT="$dir/$p.pilgrim" \
  "$bin/$p" > /dev/null || { echo "$p: the traced run failed"; exit 1; }
pilgrim-proxygen --order "$dir/$p.pilgrim" -o "$dir/$p.cpp" || exit 1
$mpicxx -std=c++17 -Wall -Wextra -Werror -O1 "$dir/$p.cpp" -o "$dir/$p.proxy" || exit 1
$mpirun -np "$np" env LD_PRELOAD="$lib" PILGRIM_QUIET=1 PILGRIM_REPLAY="$dir/$p.pilgrim" \
  PILGRIM_REPLAY_WATCHDOG=30 PILGRIM_OUTPUT="$dir/$p.proxy.pilgrim" "$dir/$p.proxy" > /dev/null ||
  { echo "$p: the proxy failed"; exit 1; }
echo "$p: $(pilgrim-diff "$dir/$p.pilgrim" "$dir/$p.proxy.pilgrim" 2>&1 | head -n 1)"
alone=$($mpirun -np "$np" env PILGRIM_PROXY_REPLAY_WATCHDOG=30 "$dir/$p.proxy" 2>&1 > /dev/null) &&
  echo "$p alone: ok" || { echo "$p alone: failed"; echo "$alone" | grep -v '^proxy:' | head -n 3; }
