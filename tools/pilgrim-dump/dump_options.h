// Command line of pilgrim-dump.
#pragma once

#include <cstdint>
#include <string>

#include "command_line.h"

namespace pilgrim::dump {

struct DumpOptions {
  std::string trace_path;
  int64_t rank = -1;     // -1: all ranks
  bool no_sites = false; // --no-sites: calls without ' at SITE'
  bool grammar = false;
  bool stats = false;
  bool comms = false;
};

// pilgrim-dump's options, bound to o.
cli::CommandLine command_line(DumpOptions &o);

} // namespace pilgrim::dump
