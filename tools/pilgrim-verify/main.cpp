// pilgrim-verify TRACE: the lossless round trip, proven. With PILGRIM_VERIFY=1
// the runtime writes, next to the trace, each rank's uncompressed sequence of
// encoded calls (TRACE.verify.RANK: varint length + signature bytes per
// call). This tool decodes the trace (grammar -> terminals -> CST
// signatures, each decoded: the model's walk over a rank's calls) and
// compares the stored bytes of each call with those files.
#include "command_line.h"
#include "pilgrim/call_times.h"
#include "pilgrim/count_text.h"
#include "pilgrim/duration_text.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/timing_error.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using pilgrim::cli::kFinding;
using pilgrim::cli::kTrouble;

const pilgrim::cli::Help kHelp = {
    "pilgrim-verify [--timing] TRACE",
    "Compares the calls decoded from TRACE with TRACE.verify.<rank>, the uncompressed\n"
    "call sequences a run with PILGRIM_VERIFY=1 writes.",
    {{"--timing", "also compare every call's decoded start and end (a per-call timing mode) "
                  "with TRACE.verify.<rank>.times: print the largest relative and absolute "
                  "errors and whether every call is within the mode's bound"}},
    "every rank's calls are identical (and, with --timing, within the bound)",
    "a mismatch: a decoded call differs from the recorded one, or (--timing) a time is "
    "outside the mode's bound",
    "a trace or verification copy that cannot be read",
    "PILGRIM_VERIFY=1 PILGRIM_OUTPUT=app.pilgrim mpirun -np 4 env LD_PRELOAD=libpilgrim.so "
    "./app\n"
    "pilgrim-verify app.pilgrim",
    ""};

bool read_varint(const std::string &s, size_t &pos, uint64_t &v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos >= s.size())
      return false;
    uint8_t b = static_cast<uint8_t>(s[pos++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80))
      return true;
  }
  return false;
}

// --timing: every rank's decoded times against its verification copy.
int verify_timing(const pilgrim::Trace &trace, const std::string &path) {
  pilgrim::TimingError all;
  all.first_outside = 0;
  double max_abs_s = 0;
  for (uint32_t r = 0; r < trace.nranks(); ++r) {
    pilgrim::TimingError e;
    std::string error;
    if (!pilgrim::compare_rank_times(trace, path, r, e, error)) {
      std::cerr << "pilgrim-verify: " << path << ": rank " << r << ": " << error << "\n";
      return kTrouble;
    }
    if (e.outside) {
      std::cerr << "pilgrim-verify: rank " << r << " call " << e.first_outside
                << ": decoded time outside the bound of " << trace.header.timing_spec << " ("
                << pilgrim::count_text(e.outside, "call") << ")\n";
      return kFinding;
    }
    max_abs_s = std::max(max_abs_s, static_cast<double>(e.max_absolute_ticks) *
                                        pilgrim::seconds_per_tick(trace, r));
    all.add(e);
  }
  char rel[32];
  std::snprintf(rel, sizeof rel, "%.3g", all.max_relative);
  std::cout << "pilgrim-verify: timing " << trace.header.timing_spec << ": "
            << pilgrim::count_text(all.calls, "call") << ", max relative error " << rel
            << ", max absolute error " << pilgrim::duration_text(max_abs_s) << ", within bound\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string path;
  bool timing = false;
  pilgrim::cli::CommandLine cli("pilgrim-verify", kHelp, pilgrim::kFormatVersion);
  cli.flag({"--timing"}, timing);
  cli.operands({&path}, "no trace file given", "more than one trace given");
  if (const auto status = cli.parse(argc, argv))
    return *status;
  pilgrim::Trace trace;
  std::vector<pilgrim::DecodedCall> cst;
  try {
    trace = pilgrim::read_trace(path);
    cst = pilgrim::decode_cst(trace);
  } catch (const std::exception &e) {
    std::cerr << "pilgrim-verify: " << e.what() << "\n";
    return kTrouble;
  }
  uint64_t total = 0;
  for (uint32_t r = 0; r < trace.nranks(); ++r) {
    const std::string vpath = path + ".verify." + std::to_string(r);
    std::ifstream in(vpath, std::ios::binary);
    if (!in) {
      std::cerr << "pilgrim-verify: " << vpath << ": cannot open (run with PILGRIM_VERIFY=1)\n";
      return kTrouble;
    }
    std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t pos = 0;
    uint64_t call = 0;
    try {
      pilgrim::RankCalls walk(trace, cst, r);
      while (walk.advance()) {
        uint64_t len = 0;
        if (!read_varint(log, pos, len) || len > log.size() - pos) {
          std::cerr << "pilgrim-verify: rank " << r << " call " << call
                    << ": the trace has more calls than " << vpath << "\n";
          return kFinding;
        }
        const std::string &sig = trace.merged.cst[walk.terminal()].signature;
        if (sig.size() != len || log.compare(pos, len, sig) != 0) {
          std::cerr << "pilgrim-verify: rank " << r << " call " << call
                    << ": the decoded call differs from the recorded one\n";
          return kFinding;
        }
        pos += len;
        ++call;
      }
    } catch (const std::exception &e) {
      std::cerr << "pilgrim-verify: rank " << r << ": " << e.what() << "\n";
      return kTrouble;
    }
    if (pos != log.size()) {
      std::cerr << "pilgrim-verify: rank " << r << ": " << vpath << " has calls after call " << call
                << " that the trace lacks\n";
      return kFinding;
    }
    total += call;
  }
  std::cout << "pilgrim-verify: " << pilgrim::count_text(trace.nranks(), "rank") << ", "
            << pilgrim::count_text(total, "call") << ", identical\n";
  return timing ? verify_timing(trace, path) : 0;
}
