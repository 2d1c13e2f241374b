// Unknown PILGRIM_* names and the known one each most likely meant.
#include "pilgrim/settings_table.h"

#include <algorithm>
#include <cstring>

namespace pilgrim::settings {
namespace {

// Optimal string alignment distance: insertions, deletions, substitutions
// and transpositions of neighbours each cost 1 (TIMMING, TMIING -> TIMING).
size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

} // namespace

std::string closest(std::string_view name) {
  constexpr std::string_view kPrefix = "PILGRIM_";
  std::string_view tail = name.substr(std::min(name.size(), kPrefix.size()));
  std::string best;
  size_t best_d = 0;
  for (const Setting &s : table()) {
    const std::string_view known = std::string_view(s.name).substr(kPrefix.size());
    const size_t d = distance(tail, known);
    if (best.empty() || d < best_d) {
      best = s.name;
      best_d = d;
    }
  }
  // A misspelling, not another word: at most a third of the name changed
  // (two edits in a short name).
  const size_t limit = std::max<size_t>(2, tail.size() / 3);
  return best_d <= limit ? best : std::string();
}

std::string not_a_setting(std::string_view name) {
  const std::string near = closest(name);
  return std::string(name) + " is not a Pilgrim setting" +
         (near.empty() ? " (pilgrim-config lists them)" : "; did you mean " + near + "?");
}

std::vector<std::string> unknown_in(char **environ) {
  std::vector<std::string> out;
  for (char **e = environ; e && *e; ++e) {
    if (std::strncmp(*e, "PILGRIM_", 8) != 0)
      continue;
    const char *eq = std::strchr(*e, '=');
    const std::string name = eq ? std::string(*e, static_cast<size_t>(eq - *e)) : std::string(*e);
    if (!find(name))
      out.push_back(name);
  }
  return out;
}

} // namespace pilgrim::settings
