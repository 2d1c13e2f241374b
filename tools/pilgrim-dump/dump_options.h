// Command line of pilgrim-dump.
#pragma once

#include <cstdint>
#include <string>

namespace pilgrim::dump {

struct DumpOptions {
  std::string trace_path;
  int64_t rank = -1; // -1: all ranks
  bool grammar = false;
  bool stats = false;
  bool help = false;
  bool version = false;
};

// Throws UsageError (exit status 2) on a bad command line.
struct UsageError {
  std::string message;
};

DumpOptions parse_options(int argc, char **argv);

const char *usage_text();

} // namespace pilgrim::dump
