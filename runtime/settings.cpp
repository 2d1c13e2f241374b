#include "settings.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <vector>

namespace pilgrim::rt {
namespace {

std::vector<std::string> cmdline_args() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  std::string cur;
  for (char c : all) {
    if (c == '\0') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty())
    args.push_back(cur);
  return args;
}

bool parse_choice(const char *var, const char *const *choices, int n, int &index,
                  std::string &error) {
  const char *v = std::getenv(var);
  if (!v)
    return true;
  for (int i = 0; i < n; ++i)
    if (std::string(v) == choices[i]) {
      index = i;
      return true;
    }
  std::string allowed;
  for (int i = 0; i < n; ++i)
    allowed += std::string(i ? ", " : "") + choices[i];
  error = std::string("pilgrim: invalid ") + var + "='" + v + "' (allowed: " + allowed + ")";
  return false;
}

} // namespace

std::string program_name() {
  auto args = cmdline_args();
  if (args.empty())
    return "program";
  std::string p = args[0];
  auto slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string command_line() {
  std::string s;
  for (const auto &a : cmdline_args())
    s += (s.empty() ? "" : " ") + a;
  return s;
}

bool parse_settings(Settings &out, std::string &error) {
  static const char *const kBool[] = {"0", "1"};
  static const char *const kRanks[] = {"absolute", "relative", "cartesian"};
  static const char *const kOnOff[] = {"off", "on"};
  int summary = 0, verify = 0, ranks = 2, timing_thread = 1, posix = 0, start = 1, sites = 1;
  if (!parse_choice("PILGRIM_SUMMARY", kBool, 2, summary, error) ||
      !parse_choice("PILGRIM_TIMING_THREAD", kBool, 2, timing_thread, error) ||
      !parse_choice("PILGRIM_VERIFY", kBool, 2, verify, error) ||
      !parse_choice("PILGRIM_RANKS", kRanks, 3, ranks, error) ||
      !parse_choice("PILGRIM_POSIX", kOnOff, 2, posix, error) ||
      !parse_choice("PILGRIM_START", kOnOff, 2, start, error) ||
      !parse_choice("PILGRIM_SITES", kOnOff, 2, sites, error))
    return false;
  out.sites = sites == 1;
  out.posix = posix == 1;
  out.start_on = start == 1;
  out.summary = summary == 1;
  out.verify = verify == 1;
  out.timing_thread = timing_thread == 1;
  if (const char *t = std::getenv("PILGRIM_TIMING")) {
    std::string why;
    if (!timing::parse_spec(t, out.timing_spec, why)) {
      error = std::string("pilgrim: invalid PILGRIM_TIMING='") + t + "': " + why;
      return false;
    }
  }
  out.timing = out.timing_spec.method; // timing::Method is TimingMode
  out.relative_ranks = ranks >= 1;
  out.cartesian_ranks = ranks == 2;
  const char *o = std::getenv("PILGRIM_OUTPUT");
  if (o && !*o) {
    error = "pilgrim: invalid PILGRIM_OUTPUT='' (allowed: a file path)";
    return false;
  }
  out.output = o ? o : "./" + program_name() + ".pilgrim";
  // A relative path is the directory's the program was in when it started
  // tracing: a program (or a proxy replaying POSIX I/O in its scratch
  // directory) that changes directory later still writes its trace there.
  char cwd[4096];
  if (out.output[0] != '/' && getcwd(cwd, sizeof cwd))
    out.output = std::string(cwd) + "/" + out.output;
  return true;
}

} // namespace pilgrim::rt
