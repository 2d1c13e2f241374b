// A rank's per-call times while the run goes on (PILGRIM_TIMING's per-call
// modes, docs/FORMAT.md §7.9): every record's (start, end, terminal), in
// record order, into a timing::StreamWriter whose spill file sits beside the
// trace's temporary name; with PILGRIM_VERIFY=1 also the exact ticks,
// streamed to TRACE.verify.RANK.times. At MPI_Finalize each rank writes its
// own RANK_TIMING section into the trace's temporary file with MPI-IO.
//
// The spill file is unlinked as soon as it is open: the rank keeps writing
// and reading it through its descriptor, and nothing is left behind however
// the run ends (normally, on error, at MPI_Abort, killed).
#pragma once

#include "pilgrim/timing_spec.h"
#include "pilgrim/timing_stream.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace pilgrim::rt {

class CallTiming {
public:
  // Opens the spill file (and the verification file when `verify`). False
  // with a one-line error.
  // `seconds_per_tick`: what a TOL in seconds is coded as ticks with: at
  // least the calibration the trace stores (readers convert TOL with that),
  // so that the bound in ticks is never looser than the readers' (on
  // CLOCK_MONOTONIC both are 1 ns; on the TSC recorder.cpp's estimate, 1%
  // above it).
  // `background`: encode full chunks on the stream's encoder thread
  // (PILGRIM_TIMING_THREAD, timing_stream.h).
  bool open(const timing::Spec &spec, double seconds_per_tick, const std::string &output, int rank,
            bool verify, bool background, std::string &error);
  bool active() const { return active_; }
  // A terminal's first call: its bound, from its function's name, in the
  // codec's unit (EPS, or TOL in ticks).
  void new_terminal(uint32_t terminal, const char *function) {
    writer_.set_group_bound(terminal, spec_.bound_of(function) * unit_);
  }
  void add(int64_t t0, int64_t t1, uint32_t terminal) { writer_.add(t0, t1, terminal); }
  // The verification copy: 16 bytes per call (int64 LE start, end).
  void add_exact(int64_t t0, int64_t t1);
  uint64_t calls() const { return writer_.calls(); }
  size_t memory_bytes() const { return writer_.memory_bytes(); }

  // Collective over `comm`. Ends the streams and writes this rank's
  // RANK_TIMING section (varint(clock size), `clock`, the chunks) at
  // `base` + the exclusive scan of the sections' sizes into `file`, which
  // every rank opened (MPI_File_open on `comm`). Returns this rank's section
  // size and its CRC-32C in `size`, `crc`; false with a one-line error (the
  // caller agrees on failure over all ranks).
  bool write_section(MPI_Comm comm, MPI_File file, uint64_t base, const std::string &clock,
                     uint64_t &offset, uint64_t &size, uint32_t &crc, std::string &error);
  // Removes what is left (idempotent).
  void close();
  ~CallTiming() { close(); }

private:
  bool active_ = false;
  timing::Spec spec_;
  double unit_ = 1; // codec unit per spec unit: 1, or ticks per second
  timing::StreamWriter writer_;
  std::FILE *verify_ = nullptr;
  std::string verify_path_;
};

} // namespace pilgrim::rt
