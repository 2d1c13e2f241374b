#include "trace_output.h"

#include "pilgrim/settings_table.h"

#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

namespace pilgrim::rt {
namespace {

bool exists(const std::string &path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// 5628 -> "5,628".
std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

// 1843 -> "1.8 KB" (powers of 1000, as ls -h --si and du --si).
std::string human_size(uint64_t bytes) {
  if (bytes < 1000)
    return std::to_string(bytes) + " B";
  static const char *const kUnits[] = {"KB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes) / 1000.0;
  size_t u = 0;
  while (v >= 999.95 && u + 1 < sizeof kUnits / sizeof *kUnits) {
    v /= 1000.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 9.995 ? "%.2f %s" : v < 99.95 ? "%.1f %s" : "%.0f %s", v,
                kUnits[u]);
  return buf;
}

// "dir/halo2d.pilgrim" -> "dir/halo2d.N.pilgrim"; without the extension,
// "dir/trace" -> "dir/trace.N".
std::string numbered(const std::string &path, unsigned n) {
  const std::string ext = ".pilgrim";
  const size_t slash = path.rfind('/');
  const bool has_ext = path.size() > ext.size() &&
                       path.compare(path.size() - ext.size(), ext.size(), ext) == 0 &&
                       (slash == std::string::npos || slash + 1 < path.size() - ext.size());
  if (!has_ext)
    return path + "." + std::to_string(n);
  return path.substr(0, path.size() - ext.size()) + "." + std::to_string(n) + ext;
}

} // namespace

void first_free_output(std::string &path, std::string &shown) {
  if (!exists(path))
    return;
  for (unsigned n = 1; n < 1000000; ++n) {
    const std::string candidate = numbered(path, n);
    if (!exists(candidate)) {
      path = candidate;
      shown = numbered(shown, n);
      return;
    }
  }
}

std::string written_line(uint64_t calls, int ranks, const std::string &shown, uint64_t bytes) {
  return "pilgrim: wrote " + grouped(calls) + (calls == 1 ? " call" : " calls") + " of " +
         grouped(static_cast<uint64_t>(ranks)) + (ranks == 1 ? " rank" : " ranks") + " to " +
         shown + " (" + human_size(bytes) + ")";
}

uint64_t file_size_or_zero(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

void warn_unknown_settings() {
  for (const std::string &name : settings::unknown_in(environ))
    std::fprintf(stderr, "pilgrim: %s\n", settings::not_a_setting(name).c_str());
}

} // namespace pilgrim::rt
