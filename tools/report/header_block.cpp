#include "header_block.h"

#include <cstdio>
#include <ctime>

#include "pilgrim/timing_mode.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {
std::string text(const std::string &s) { return sanitize_for_message(s, static_cast<size_t>(-1)); }
} // namespace

std::string format_unix_ns(int64_t ns) {
  int64_t secs = ns / 1000000000;
  int64_t frac = ns % 1000000000;
  if (frac < 0) {
    frac += 1000000000;
    secs -= 1;
  }
  const std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  if (!gmtime_r(&t, &tm))
    return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(frac));
  return buf;
}

void print_header_block(TextOutput &out, const std::string &path, const TraceHeader &h,
                        size_t nfunctions, const std::string &clock) {
  out << "# trace: " << text(path) << '\n';
  out << "# format version: " << std::to_string(h.version) << '\n';
  out << "# MPI library: " << text(h.mpi_library) << '\n';
  out << "# MPI version: " << text(h.mpi_version) << '\n';
  out << "# ranks: " << std::to_string(h.nranks) << '\n';
  out << "# command line: " << text(h.command_line) << '\n';
  const std::string when = format_unix_ns(h.start_time_unix_ns);
  out << "# start time: " << (when.empty() ? "?" : when) << " ("
      << std::to_string(h.start_time_unix_ns) << " ns)\n";
  out << "# timing mode: " << timing_mode_text(h.timing_mode) << '\n';
  if (!h.timing_spec.empty())
    out << "# timing spec: " << text(h.timing_spec) << '\n';
  if (!clock.empty())
    out << "# clock: " << clock << '\n';
  out << "# functions: " << std::to_string(nfunctions) << '\n';
}

} // namespace pilgrim
