#include "settings.h"

#include "pilgrim/settings_table.h"

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

// The value of a choice setting (one of its table entry's words), or the
// entry's default when it is not set. False, with `error`, for a value not
// among them.
bool parse_choice(const char *var, std::string &value, std::string &error) {
  const settings::Setting *s = settings::find(var);
  const char *v = std::getenv(var);
  value = s->fallback;
  if (!v)
    return true;
  for (const std::string &c : s->choices)
    if (c == v) {
      value = v;
      return true;
    }
  error = "pilgrim: " + settings::invalid_value(*s, v);
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
  std::string summary, verify, ranks, timing_thread, posix, start, sites, quiet;
  if (!parse_choice("PILGRIM_SUMMARY", summary, error) ||
      !parse_choice("PILGRIM_QUIET", quiet, error) ||
      !parse_choice("PILGRIM_TIMING_THREAD", timing_thread, error) ||
      !parse_choice("PILGRIM_VERIFY", verify, error) ||
      !parse_choice("PILGRIM_RANKS", ranks, error) ||
      !parse_choice("PILGRIM_POSIX", posix, error) ||
      !parse_choice("PILGRIM_START", start, error) ||
      !parse_choice("PILGRIM_SITES", sites, error))
    return false;
  out.sites = sites == "on";
  out.posix = posix == "on";
  out.start_on = start == "on";
  out.summary = summary == "1";
  out.quiet = quiet == "1";
  out.verify = verify == "1";
  out.timing_thread = timing_thread == "1";
  // parse_spec's message names the variable itself.
  if (const char *t = std::getenv("PILGRIM_TIMING"))
    if (!timing::parse_spec(t, out.timing_spec, error))
      return false;
  out.timing = out.timing_spec.method; // timing::Method is TimingMode
  out.relative_ranks = ranks != "absolute";
  out.cartesian_ranks = ranks == "cartesian";
  const char *o = std::getenv("PILGRIM_OUTPUT");
  if (o && !*o) {
    error = "pilgrim: " + settings::invalid_value(*settings::find("PILGRIM_OUTPUT"), "");
    return false;
  }
  out.output_given = o != nullptr;
  out.output = o ? o : "./" + program_name() + ".pilgrim";
  out.output_shown = out.output;
  // A relative path is the directory's the program was in when it started
  // tracing: a program (or a proxy replaying POSIX I/O in its scratch
  // directory) that changes directory later still writes its trace there.
  char cwd[4096];
  if (out.output[0] != '/' && getcwd(cwd, sizeof cwd))
    out.output = std::string(cwd) + "/" + out.output;
  if (const char *r = std::getenv("PILGRIM_REPLAY")) {
    if (!*r) {
      error = "pilgrim: " + settings::invalid_value(*settings::find("PILGRIM_REPLAY"), "");
      return false;
    }
    out.replay = r;
    if (out.replay[0] != '/' && getcwd(cwd, sizeof cwd))
      out.replay = std::string(cwd) + "/" + out.replay;
  }
  if (const char *w = std::getenv("PILGRIM_REPLAY_WATCHDOG")) {
    char *end = nullptr;
    const double v = std::strtod(w, &end);
    if (!*w || *end || !(v > 0) || v > 1e6) {
      error = "pilgrim: " + settings::invalid_value(*settings::find("PILGRIM_REPLAY_WATCHDOG"), w);
      return false;
    }
    out.replay_watchdog = v;
  }
  return true;
}

} // namespace pilgrim::rt
