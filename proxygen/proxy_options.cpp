#include "proxy_options.h"

#include <cerrno>
#include <cstdlib>

namespace pilgrim::proxygen {

namespace {

Compute parse_compute(const std::string &v) {
  if (v == "none")
    return Compute::None;
  if (v == "spin")
    return Compute::Spin;
  if (v == "sleep")
    return Compute::Sleep;
  throw UsageError{"--compute must be none, spin or sleep, not '" + v + "'"};
}

int64_t parse_ranks(const std::string &v) {
  errno = 0;
  char *end = nullptr;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || errno || *end || n < 1 || n > 0xffffffffll)
    throw UsageError{"--ranks needs a positive integer, got '" + v + "'"};
  return n;
}

size_t parse_table_runs(const std::string &v) {
  errno = 0;
  char *end = nullptr;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || errno || *end || n < 0 || n > 1000000000ll)
    throw UsageError{"--table-runs needs a count of calls (0 for never), got '" + v + "'"};
  return static_cast<size_t>(n);
}

} // namespace

const char *usage_text() {
  return "Usage: pilgrim-proxygen [options] TRACE -o PROXY.cpp\n"
         "\n"
         "Writes a self-contained C++17 MPI program (a proxy app) that makes the MPI calls\n"
         "of TRACE, with the same arguments, on the same number of ranks. Build it with\n"
         "'mpicxx -std=c++17 PROXY.cpp -o proxy' under any MPI; tracing the proxy gives\n"
         "back the trace (compare with pilgrim-diff).\n"
         "\n"
         "Options:\n"
         "  -o FILE                 where the proxy goes (default: stdout)\n"
         "  --compute=none|spin|sleep\n"
         "                          replay the time between calls as a busy wait (spin,\n"
         "                          the default), a sleep, or not at all (none)\n"
         "  --ranks N               refuse (exit 1) unless the trace has N ranks\n"
         "  --deterministic         MPI_ANY_SOURCE receives whose source was recorded\n"
         "                          (MPI_Recv, MPI_Probe, ..., and MPI_Irecv on\n"
         "                          MPI_COMM_WORLD by its completion) use that source\n"
         "  --io-dir DIR            the proxy's MPI-IO files go in DIR (default: a new\n"
         "                          proxy-files.XXXXXX, removed at the end)\n"
         "  --table-runs N          a rule of N or more calls (default 64), and every rule\n"
         "                          when there are many, is written as a table of steps,\n"
         "                          so the proxy compiles in seconds whatever the trace;\n"
         "                          0: never, 1: every rule\n"
         "  --help                  show this help and exit\n"
         "  --version               show the version and exit\n"
         "\n"
         "Exit status: 0 proxy written; 1 unreadable trace, a trace the generator cannot\n"
         "replay, or --ranks mismatch; 2 usage error.\n";
}

ProxyOptions parse_options(int argc, char **argv) {
  ProxyOptions o;
  bool only_operands = false;
  auto value = [&](int &i, const std::string &arg, const std::string &name) -> std::string {
    if (arg.size() > name.size() && arg[name.size()] == '=')
      return arg.substr(name.size() + 1);
    if (i + 1 >= argc)
      throw UsageError{name + " needs a value"};
    return argv[++i];
  };
  auto is = [](const std::string &arg, const std::string &name) {
    return arg == name || arg.rfind(name + "=", 0) == 0;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!only_operands && arg.size() > 1 && arg[0] == '-') {
      if (arg == "--")
        only_operands = true;
      else if (arg == "--help" || arg == "-h")
        o.help = true;
      else if (arg == "--version")
        o.version = true;
      else if (arg == "--deterministic")
        o.deterministic = true;
      else if (arg == "-o")
        o.output_path = value(i, arg, "-o");
      else if (is(arg, "--output"))
        o.output_path = value(i, arg, "--output");
      else if (is(arg, "--compute"))
        o.compute = parse_compute(value(i, arg, "--compute"));
      else if (is(arg, "--table-runs"))
        o.table_runs = parse_table_runs(value(i, arg, "--table-runs"));
      else if (is(arg, "--ranks"))
        o.ranks = parse_ranks(value(i, arg, "--ranks"));
      else if (is(arg, "--io-dir")) {
        o.io_dir = value(i, arg, "--io-dir");
        if (o.io_dir.empty())
          throw UsageError{"--io-dir needs a directory"};
      } else
        throw UsageError{"unknown option '" + arg + "'"};
      continue;
    }
    if (!o.trace_path.empty())
      throw UsageError{"more than one trace given ('" + arg + "')"};
    o.trace_path = arg;
  }
  if (!o.help && !o.version && o.trace_path.empty())
    throw UsageError{"no trace file given"};
  return o;
}

} // namespace pilgrim::proxygen
