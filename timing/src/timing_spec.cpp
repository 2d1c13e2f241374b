// PILGRIM_TIMING: parse_spec, spec_text, method_name, Spec::bound_of.
#include "pilgrim/timing_spec.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pilgrim::timing {

namespace {

struct ModeName {
  Method method;
  const char *name;
};
constexpr ModeName kModes[] = {
    {Method::None, "none"},
    {Method::Aggregate, "aggregate"},
    {Method::Lossless, "lossless"},
    {Method::Cfg, "cfg"},
    {Method::Hist, "hist"},
    {Method::Pred, "pred"},
    {Method::Zfp, "zfp"},
    {Method::PredClustered, "pred-clustered"},
    {Method::ZfpClustered, "zfp-clustered"},
};

constexpr const char *kAllowed =
    "aggregate, none, lossless, cfg:EPS, hist:EPS,K, pred:EPS, pred-clustered:EPS, zfp:TOL or "
    "zfp-clustered:TOL, then optionally ,MPI_Function=VALUE...; 0 < EPS < 1, TOL > 0 seconds, K "
    "in 1..16";

bool has_value(Method m) { return m >= Method::Cfg; }

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t from = 0;
  while (true) {
    const size_t at = s.find(sep, from);
    out.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos)
      return out;
    from = at + 1;
  }
}

// A finite number written the way strtod reads it, with nothing after it.
bool parse_number(const std::string &s, double &out) {
  if (s.empty() || s.find_first_of(" \t\n") != std::string::npos)
    return false;
  char *endp = nullptr;
  errno = 0;
  out = std::strtod(s.c_str(), &endp);
  return errno == 0 && endp == s.c_str() + s.size() && std::isfinite(out);
}

bool valid_value(Method m, double v) {
  if (m == Method::Zfp || m == Method::ZfpClustered)
    return v > 0;
  return v > 0 && v < 1;
}

bool is_identifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

// The shortest text strtod reads back as exactly `v`.
std::string number_text(double v) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  return buf;
}

} // namespace

const char *method_name(Method m) {
  for (const ModeName &n : kModes)
    if (n.method == m)
      return n.name;
  return "unknown";
}

double Spec::bound_of(const std::string &function) const {
  for (const FunctionBound &f : per_function)
    if (f.function == function)
      return f.bound;
  return bound;
}

bool parse_spec(const std::string &text, Spec &out, std::string &error) {
  auto fail = [&](const std::string &why) {
    error =
        "pilgrim: invalid PILGRIM_TIMING='" + text + "' (" + why + "; allowed: " + kAllowed + ")";
    return false;
  };
  Spec s;
  const size_t cut = text.find_first_of(":,");
  const std::string name = text.substr(0, cut);
  const bool colon = cut != std::string::npos && text[cut] == ':';
  std::vector<std::string> rest;
  if (cut != std::string::npos)
    rest = split(text.substr(cut + 1), ',');
  bool known = false;
  for (const ModeName &n : kModes)
    if (name == n.name) {
      s.method = n.method;
      known = true;
    }
  if (!known)
    return fail("unknown mode '" + name + "'");
  size_t next = 0;
  if (has_value(s.method)) {
    const bool absolute = s.method == Method::Zfp || s.method == Method::ZfpClustered;
    const std::string what =
        absolute ? std::string(name) + " needs " + name + ":TOL, TOL > 0 seconds"
                 : std::string(name) + " needs " + name +
                       (s.method == Method::Hist ? ":EPS,K" : ":EPS") + ", 0 < EPS < 1" +
                       (s.method == Method::Hist ? ", K in 1..16" : "");
    if (!colon || rest.empty() || !parse_number(rest[0], s.bound) ||
        !valid_value(s.method, s.bound))
      return fail(what);
    next = 1;
    if (s.method == Method::Hist) {
      double k = 0;
      if (rest.size() < 2 || !parse_number(rest[1], k) || k != std::floor(k) || k < 1 || k > 16)
        return fail(what);
      s.hist_bits = static_cast<int>(k);
      next = 2;
    }
  } else if (cut != std::string::npos) {
    return fail(name + " takes no value");
  }
  for (size_t i = next; i < rest.size(); ++i) {
    if (!has_value(s.method))
      return fail(name + " takes no per-function value");
    const size_t eq = rest[i].find('=');
    if (eq == std::string::npos)
      return fail("'" + rest[i] + "' is not MPI_Function=VALUE");
    FunctionBound f;
    f.function = rest[i].substr(0, eq);
    if (!is_identifier(f.function))
      return fail("'" + f.function + "' is not a function name");
    if (!parse_number(rest[i].substr(eq + 1), f.bound) || !valid_value(s.method, f.bound))
      return fail("the value of " + f.function + " is out of range");
    for (const FunctionBound &g : s.per_function)
      if (g.function == f.function)
        return fail(f.function + " is given twice");
    s.per_function.push_back(f);
  }
  out = s;
  return true;
}

std::string spec_text(const Spec &s) {
  std::string t = method_name(s.method);
  if (!has_value(s.method))
    return t;
  t += ":" + number_text(s.bound);
  if (s.method == Method::Hist)
    t += "," + std::to_string(s.hist_bits);
  for (const FunctionBound &f : s.per_function)
    t += "," + f.function + "=" + number_text(f.bound);
  return t;
}

} // namespace pilgrim::timing
