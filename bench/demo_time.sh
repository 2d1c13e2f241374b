#!/usr/bin/env bash
# How long README's first command takes: scripts/demo.sh of this checkout
# against the demo of a baseline commit (default f71b896, the last commit
# before issue 26: it built all 515 build steps, tests and benchmarks among
# them), each from a fresh clone, one after the other, on a machine that
# already has the packages (both demos' bootstrap then installs nothing).
#   bench/demo_time.sh [BASELINE_COMMIT]
# Prints each demo's wall time and the ratio new/baseline (issue 26's target:
# at most 0.40). Takes as long as both demos (about 20 minutes on 2 cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
baseline=${1:-f71b896}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/scripts/bootstrap.sh" > /dev/null # everything either demo installs

run() { # run NAME COMMIT: clones COMMIT, runs its demo, prints its seconds
  local name=$1 commit=$2 dir=$work/$1 t0 t1
  git clone -q "$root" "$dir"
  git -C "$dir" checkout -q "$commit"
  t0=$(date +%s.%N)
  if ! (cd "$dir" && bash scripts/demo.sh > "$work/$name.log" 2>&1); then
    echo "demo_time: the $name demo failed:" >&2
    tail -n 20 "$work/$name.log" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}

new_commit=$(git -C "$root" rev-parse --short HEAD)
echo "demo_time: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
old_s=$(run baseline "$baseline")
echo "demo_time: baseline $baseline: $(printf %.0f "$old_s") s"
new_s=$(run new HEAD)
echo "demo_time: this checkout $new_commit: $(printf %.0f "$new_s") s"
echo "demo_time: ratio $(echo "scale=3; $new_s / $old_s" | bc) (target <= 0.40)"
