#!/usr/bin/env bash
# README command 1: the whole pipeline in a few minutes, on a 2-D halo
# exchange (test/mpi/halo2d.cpp) run on 4 ranks under Open MPI.
#   scripts/demo.sh [OUTPUT_DIR]      (default: demo-output/ here)
# Installs only what the demo needs (scripts/bootstrap.sh --demo), builds only
# the tracer and the tools it runs (the build's own output goes to
# OUTPUT_DIR/build.log), then traces the program, looks at the trace (dump,
# stats, the communication matrix as SVG and PNG, the checker), turns it into
# a proxy app that is compiled, run and traced again, compares the two traces
# and exports the run for Perfetto. Every output lands in OUTPUT_DIR, one file
# per step (NN-step.txt), which README's quick start quotes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/demo-output}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$root/build/demo
steps=8
step=0
started=$SECONDS

stage() { # one progress line per stage
  step=$((step + 1))
  printf '\n[%d/%d] %s\n' "$step" "$steps" "$1"
}
show() { # a step's output: kept whole in OUTPUT_DIR, its first lines shown
  local file=$1 lines=${2:-12}
  sed -n "1,${lines}p" "$file" | sed 's/^/    /'
  local total
  total=$(wc -l < "$file")
  if [ "$total" -gt "$lines" ]; then
    echo "    ... ($((total - lines)) more lines in ${file#$out/})"
  fi
}
fail() {
  echo "demo: $*" >&2
  exit 1
}
# record FILE SHOWN -- COMMAND...: appends "$ SHOWN" (the command as a user
# types it) and COMMAND's output, stdout and stderr, to FILE.
record() {
  local file=$1 shown=$2
  shift 3
  echo "\$ $shown" >> "$file"
  "$@" >> "$file" 2>&1
}

# A fresh folder each time: the tracer's default name never replaces an
# earlier trace (it would add .1, .2, ...), and the demo shows the first.
rm -f "$out"/*.pilgrim "$out"/[0-9][0-9]-*.txt "$out"/*.svg "$out"/*.png "$out"/*.json
rm -rf "$out/proxy"

stage "Packages (scripts/bootstrap.sh --demo)"
"$root/scripts/bootstrap.sh" --demo | sed 's/^/    /'

stage "Build: the tracer and the tools (log: ${out#$root/}/build.log)"
t0=$SECONDS
targets=(pilgrim pilgrim-dump pilgrim-stats pilgrim-check pilgrim-proxygen pilgrim-diff
         pilgrim-export pilgrim-config)
# Only what the demo runs: no tests, no Fortran entry points or OTF2 (its
# program is C++, its export Chrome JSON), and no debug information in
# Pilgrim's own code (-O2 as in a RelWithDebInfo build, without -g; call
# sites come from the application's debug information, not Pilgrim's).
if ! { cmake -S "$root" -B "$build" -G Ninja -DPILGRIM_MPI=openmpi -DPILGRIM_BUILD_TESTS=OFF \
         -DPILGRIM_FORTRAN=OFF -DPILGRIM_OTF2=OFF -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" &&
       cmake --build "$build" -j "${PILGRIM_JOBS:-$(nproc)}" --target "${targets[@]}"; } \
     > "$out/build.log" 2>&1; then
  tail -n 20 "$out/build.log"
  fail "the build failed (log: $out/build.log)"
fi
echo "    built ${#targets[@]} targets in $((SECONDS - t0)) s into ${build#$root/}"
bin=$build/bin
export PATH="$bin:$PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpirun=(mpirun.openmpi --oversubscribe -np 4)
preload=(env LD_PRELOAD="$build/lib/libpilgrim.so")

stage "Trace: halo2d on 4 ranks under libpilgrim.so"
cd "$out"
mpicxx.openmpi -std=c++17 -O2 -g "$root/test/mpi/halo2d.cpp" -o halo2d
record 01-trace.txt "mpirun -np 4 env LD_PRELOAD=$build/lib/libpilgrim.so ./halo2d -n 100" -- \
  "${mpirun[@]}" "${preload[@]}" ./halo2d -n 100 || fail "the traced run failed (01-trace.txt)"
show 01-trace.txt
calls=$(sed -n 's/^pilgrim: wrote \([0-9,]*\) calls.*/\1/p' 01-trace.txt | tr -d ,)
bytes=$(stat -c %s halo2d.pilgrim)
[ -n "$calls" ] || fail "the tracer did not say what it wrote (01-trace.txt)"
awk -v c="$calls" -v b="$bytes" 'BEGIN { printf "    %d calls in %d bytes: %.2f bytes per call\n", c, b, b / c }'

stage "Look: pilgrim-dump (every call, decoded) and pilgrim-stats"
record 02-dump.txt "pilgrim-dump halo2d.pilgrim" -- pilgrim-dump halo2d.pilgrim
show 02-dump.txt 16
record 03-stats.txt "pilgrim-stats halo2d.pilgrim" -- pilgrim-stats halo2d.pilgrim
show 03-stats.txt 16

stage "The communication matrix: CSV, SVG and PNG"
record 04-matrix.txt "pilgrim-stats --matrix halo2d.pilgrim" -- pilgrim-stats --matrix halo2d.pilgrim
record 04-matrix.txt "pilgrim-stats --matrix-svg matrix.svg halo2d.pilgrim" -- \
  pilgrim-stats --matrix-svg matrix.svg halo2d.pilgrim
show 04-matrix.txt 8
if command -v rsvg-convert > /dev/null; then
  rsvg-convert -w 640 matrix.svg -o matrix.png
  echo "    wrote matrix.svg and matrix.png"
else
  echo "    wrote matrix.svg (rsvg-convert, from librsvg2-bin, would make the PNG)"
fi

stage "Check: pilgrim-check matches every message before a replay"
record 05-check.txt "pilgrim-check halo2d.pilgrim" -- pilgrim-check halo2d.pilgrim ||
  fail "pilgrim-check found errors (05-check.txt)"
show 05-check.txt

stage "Proxy: generated, compiled, run and traced again"
mkdir -p proxy
record 06-proxy.txt "pilgrim-proxygen halo2d.pilgrim -o proxy/halo2d_proxy.cpp" -- \
  pilgrim-proxygen halo2d.pilgrim -o proxy/halo2d_proxy.cpp
record 06-proxy.txt "mpicxx -std=c++17 -O1 proxy/halo2d_proxy.cpp -o proxy/halo2d_proxy" -- \
  mpicxx.openmpi -std=c++17 -O1 proxy/halo2d_proxy.cpp -o proxy/halo2d_proxy
record 06-proxy.txt "mpirun -np 4 env LD_PRELOAD=$build/lib/libpilgrim.so PILGRIM_OUTPUT=proxy.pilgrim proxy/halo2d_proxy" -- \
  "${mpirun[@]}" "${preload[@]}" PILGRIM_OUTPUT=proxy.pilgrim proxy/halo2d_proxy ||
  fail "the proxy failed (06-proxy.txt)"
echo "    $(wc -l < proxy/halo2d_proxy.cpp) lines of C++ in proxy/halo2d_proxy.cpp"
show 06-proxy.txt
record 07-diff.txt "pilgrim-diff halo2d.pilgrim proxy.pilgrim" -- pilgrim-diff halo2d.pilgrim proxy.pilgrim ||
  fail "the proxy's trace differs (07-diff.txt)"
show 07-diff.txt

stage "Export: the run as Chrome/Perfetto JSON"
record 08-export.txt "pilgrim-export --chrome halo2d.json halo2d.pilgrim" -- \
  pilgrim-export --chrome halo2d.json halo2d.pilgrim
show 08-export.txt
echo "    wrote halo2d.json ($(stat -c %s halo2d.json) bytes): open https://ui.perfetto.dev and drop the file on it"

# README's quick start quotes these files (scripts/readme_from_demo.py).
printf '\nDone in %d s. Every output is in %s\n' "$((SECONDS - started))" "$out"
ls "$out" | sed 's/^/    /'
