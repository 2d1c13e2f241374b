#!/usr/bin/env bash
# Per-call timing, every PILGRIM_TIMING mode, in one script (issue 13 point 9;
# the paper's Tables 8 and 9):
#   1. The 2-D stencil with its compute kernel (bench/fidelity/stencil2d) at
#      2 ranks, traced losslessly with a verification copy (PILGRIM_VERIFY=1).
#      Every codec then compresses rank 0's exact tick stream, grouped by
#      signature as the runtime groups it (bench/timing_codecs --trace): the
#      compression ratio of durations, of gaps and of both against raw 2 x 8-byte
#      doubles per call, PSNR (docs/FORMAT.md §7.10), the largest errors and the
#      compression time per call.
#   2. The same stencil traced in each mode: trace bytes, and bytes per call
#      beyond PILGRIM_TIMING=none (what README's "per call, per mode" says).
#   3. What each mode adds per call against PILGRIM_TIMING=none: instructions
#      (callgrind, singleton, 2*10^5 - 10^5 calls, so that start-up and
#      MPI_Finalize cancel), on the application's thread and in all threads
#      (the encoder thread's compression included), for MPI_Comm_rank and for
#      the Isend/Irecv/Waitall loop (its singleton form, bench/overhead
#      self_waitall_any: the messages go to the rank itself, so that no call
#      waits and the count is the same run to run), and ns (median of REPEATS
#      runs of bench/overhead: MPI_Comm_rank alone and the 2-rank
#      Isend/Irecv/Waitall loop, with the encoder thread and without it,
#      PILGRIM_TIMING_THREAD=0).
#   bench/timing.sh [BUILD_DIR] [-n ITER] [-r REPEATS]   (defaults build/openmpi, 4000, 3)
# Times on a shared 2-core machine swing with its load (printed); instruction
# counts do not.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/openmpi
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then build=$1; shift; fi
build=$(cd "$build" && pwd)
iters=4000 repeats=3
while [ $# -gt 0 ]; do
  case "$1" in
    -n) iters=$2; shift 2 ;;
    -r) repeats=$2; shift 2 ;;
    *) echo "timing.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
. "$root/bench/site_env.sh"
site_env "$build" timing.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
modes="lossless cfg:0.1 hist:0.1,8 pred:0.1 zfp:1e-6 pred-clustered:0.1 zfp-clustered:1e-6"
stencil=("$build/bench/fidelity/stencil2d" -n "$iters" -s 100)
trace() { # mode file [env...]
  local mode=$1 file=$2
  shift 2
  "$mpirun" "${extra[@]}" -np 2 env LD_PRELOAD="$lib" PILGRIM_TIMING="$mode" \
    PILGRIM_OUTPUT="$file" "$@" "${stencil[@]}" >/dev/null
}
echo "MPI: $mpi; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "== 1. Codecs on the stencil's exact ticks (rank 0, $iters iterations; ratio against 16 B/call)"
trace lossless "$out/exact.pilgrim" PILGRIM_VERIFY=1
codec_modes=$(echo "$modes" | tr ' ' ';')
"$build/bench/timing_codecs" --trace "$out/exact.pilgrim" --rank 0 --modes "$codec_modes"

echo
echo "== 2. Trace size per mode (the same stencil traced in that mode, 2 ranks)"
trace none "$out/none.pilgrim"
calls=$("$build/bin/pilgrim-stats" "$out/none.pilgrim" | awk '/^MPI_/ {n += $2} END {print n}')
none_bytes=$(stat -c %s "$out/none.pilgrim")
printf '%-22s %10s %12s\n' mode "bytes" "B/call over none"
printf '%-22s %10d %12s\n' none "$none_bytes" -
for mode in aggregate $modes; do
  trace "$mode" "$out/m.pilgrim"
  b=$(stat -c %s "$out/m.pilgrim")
  awk -v m="$mode" -v b="$b" -v n="$none_bytes" -v c="${calls:-0}" 'BEGIN {
    if (c > 0) printf "%-22s %10d %12.3f\n", m, b, (b - n) / c; else printf "%-22s %10d\n", m, b }'
done
echo "(calls: $calls over both ranks)"

echo
echo "== 3. Added per call against PILGRIM_TIMING=none"
# Instructions: on the application's thread (callgrind --separate-threads,
# thread 1) and in all threads (the encoder thread's chunk encoding included,
# timing_stream.h). ns: with the encoder thread (the default) and with
# PILGRIM_TIMING_THREAD=0 (every chunk encoded on the application's thread).
instructions() { # kind calls mode -> "app-thread all-threads", or "rejected rejected"
  local cg="$out/cg.$2"
  rm -f "$cg"*
  if ! env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$out/i.pilgrim" PILGRIM_TIMING="$3" \
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$cg" \
    "$build/bench/overhead" "$1" "$2" >"$out/cg.log" 2>&1; then
    echo rejected rejected
    return
  fi
  awk '/^summary:/ {if (FILENAME ~ /-01$/) app = $2; all += $2} END {print app, all}' "$cg"-*
}
ns() { # mode kind calls np thread -> ns per call
  "$mpirun" "${extra[@]}" -np "$4" env LD_PRELOAD="$lib" PILGRIM_OUTPUT="$out/o.pilgrim" \
    PILGRIM_TIMING="$1" PILGRIM_TIMING_THREAD="$5" "$build/bench/overhead" "$2" "$3" |
    awk '/ns_per_call/ {print $3}'
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
have_valgrind=0
command -v valgrind >/dev/null && have_valgrind=1
declare -A app all iapp iall rank_ns ping_ns ping0_ns
for mode in none aggregate $modes; do
  if [ $have_valgrind = 1 ]; then
    read -r a1 t1 < <(instructions comm_rank 100000 "$mode")
    read -r a2 t2 < <(instructions comm_rank 200000 "$mode")
    app[$mode]=$(((a2 - a1) / 100000))
    all[$mode]=$(((t2 - t1) / 100000))
    read -r a1 t1 < <(instructions self_waitall_any 99999 "$mode")
    read -r a2 t2 < <(instructions self_waitall_any 199998 "$mode")
    iapp[$mode]=$(((a2 - a1) / 99999))
    iall[$mode]=$(((t2 - t1) / 99999))
  fi
  rank_ns[$mode]=$(for i in $(seq "$repeats"); do ns "$mode" comm_rank 1000000 1 1; done | median)
  ping_ns[$mode]=$(for i in $(seq "$repeats"); do ns "$mode" pingpong 300000 2 1; done | median)
  ping0_ns[$mode]=$(for i in $(seq "$repeats"); do ns "$mode" pingpong 300000 2 0; done | median)
done
printf '%-20s %9s %9s %9s %9s %13s %14s %14s\n' mode "rank app" "rank all" "Isend app" \
  "Isend all" "ns/Comm_rank" "ns/call Isend" "... no thread"
for mode in aggregate $modes; do
  a=- t=- ia=- it=-
  if [ $have_valgrind = 1 ]; then
    a=$((${app[$mode]} - ${app[none]})) t=$((${all[$mode]} - ${all[none]}))
    ia=$((${iapp[$mode]} - ${iapp[none]})) it=$((${iall[$mode]} - ${iall[none]}))
  fi
  awk -v m="$mode" -v a="$a" -v t="$t" -v ia="$ia" -v it="$it" -v r="${rank_ns[$mode]}" \
    -v r0="${rank_ns[none]}" -v p="${ping_ns[$mode]}" -v p0="${ping_ns[none]}" \
    -v q="${ping0_ns[$mode]}" -v q0="${ping0_ns[none]}" 'BEGIN {
    printf "%-20s %9s %9s %9s %9s %13.1f %14.1f %14.1f\n", m, a, t, ia, it, r - r0, p - p0, q - q0 }'
done
echo "(instructions added per call: rank, per MPI_Comm_rank; Isend, per call of the singleton" \
  "Isend/Irecv/Waitall loop; app on the application's thread, all in all" \
  "threads, the encoder's included; none: ${app[none]:-?} instructions per traced" \
  "MPI_Comm_rank, ${rank_ns[none]} ns per MPI_Comm_rank, ${ping_ns[none]} ns per call in the" \
  "2-rank Isend/Irecv/Waitall loop; load average now $(cut -d' ' -f1-3 /proc/loadavg))"
