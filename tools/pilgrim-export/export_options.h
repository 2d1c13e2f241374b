// What pilgrim-export's command line asks for (main.cpp parses it; the
// writers read it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::exporter {

struct ExportOptions {
  std::string trace;    // TRACE
  std::string otf2_dir; // --otf2 DIR ("" not asked)
  std::string chrome;   // --chrome FILE ("" not asked; "-" stdout)
  // --ranks LIST ("0-3,7"): the ranks exported; empty = every rank.
  std::vector<uint32_t> ranks;
  // --time FROM:TO, seconds on the aligned timeline: only calls that overlap
  // it (Chrome); has_time false = the whole run.
  bool has_time = false;
  double time_from = 0, time_to = 0;
};

} // namespace pilgrim::exporter
