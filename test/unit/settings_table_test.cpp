// The settings table (settings/): names, defaults, and the closest-name
// suggestion for unknown PILGRIM_* variables.
#include "pilgrim/settings_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

using namespace pilgrim::settings;

TEST(SettingsTable, NamesAreUniqueAndPrefixed) {
  std::set<std::string> seen;
  for (const Setting &s : table()) {
    EXPECT_EQ(std::string(s.name).rfind("PILGRIM_", 0), 0u) << s.name;
    EXPECT_TRUE(seen.insert(s.name).second) << s.name << " twice";
    EXPECT_EQ(find(s.name), &s);
    EXPECT_NE(std::string(s.summary), "");
    EXPECT_NE(std::string(s.fallback), "");
    EXPECT_NE(allowed_values(s), "");
  }
  EXPECT_EQ(find("PILGRIM_NOPE"), nullptr);
}

// The tracer takes a choice setting's default from the table itself
// (runtime/common/settings.cpp): it must be one of the choices. PILGRIM_CLOCK's
// default depends on the CPU and is said in words.
TEST(SettingsTable, TracerChoiceDefaultsAreChoices) {
  for (const Setting &s : table()) {
    if (s.reader != Reader::Tracer || s.choices.empty() || std::string(s.name) == "PILGRIM_CLOCK")
      continue;
    EXPECT_NE(std::find(s.choices.begin(), s.choices.end(), s.fallback), s.choices.end())
        << s.name << "'s default " << s.fallback;
  }
}

TEST(SettingsTable, InvalidValueIsOneLineNamingTheVariableOnce) {
  const std::string m = invalid_value(*find("PILGRIM_POSIX"), "yes");
  EXPECT_EQ(m, "invalid PILGRIM_POSIX='yes' (allowed: off, on)");
  for (const Setting &s : table()) {
    const std::string line = invalid_value(s, "x");
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    EXPECT_EQ(line.find(s.name), line.rfind(s.name)) << line;
  }
}

TEST(SettingsNames, ClosestKnownName) {
  EXPECT_EQ(closest("PILGRIM_TIMMING"), "PILGRIM_TIMING");
  EXPECT_EQ(closest("PILGRIM_OUPTUT"), "PILGRIM_OUTPUT");
  EXPECT_EQ(closest("PILGRIM_SUMARY"), "PILGRIM_SUMMARY");
  EXPECT_EQ(closest("PILGRIM_TIMING_THREADS"), "PILGRIM_TIMING_THREAD");
  EXPECT_EQ(closest("PILGRIM_QUITE"), "PILGRIM_QUIET");
  // Another word, not a misspelling: no suggestion.
  EXPECT_EQ(closest("PILGRIM_HELLO_WORLD"), "");
  EXPECT_EQ(closest("PILGRIM_"), "PILGRIM_CC"); // two edits from the shortest name
}

// Invariant on random input: one edit (insert, delete, replace, swap) of a
// known name that makes an unknown name is always answered with a known
// name at most one edit away... or one that is as close.
TEST(SettingsNames, OneEditAlwaysGetsASuggestion) {
  std::mt19937 rng(26);
  const std::string letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
  for (int round = 0; round < 20000; ++round) {
    const Setting &s = table()[rng() % table().size()];
    std::string n = s.name;
    const size_t tail = 8; // keep the prefix
    const size_t at = tail + rng() % (n.size() - tail);
    switch (rng() % 4) {
    case 0: n.insert(at, 1, letters[rng() % letters.size()]); break;
    case 1: n.erase(at, 1); break;
    case 2: n[at] = letters[rng() % letters.size()]; break;
    default:
      if (at + 1 < n.size())
        std::swap(n[at], n[at + 1]);
    }
    if (find(n))
      continue;
    EXPECT_NE(closest(n), "") << n << " (from " << s.name << ")";
  }
}

TEST(SettingsNames, UnknownInEnvironment) {
  std::string a = "PILGRIM_TIMMING=lossless", b = "PILGRIM_TIMING=none", c = "HOME=/root",
              d = "PILGRIM_FOO", e = "PILGRIM_QUIET=1";
  char *env[] = {a.data(), b.data(), c.data(), d.data(), e.data(), nullptr};
  EXPECT_EQ(unknown_in(env), (std::vector<std::string>{"PILGRIM_TIMMING", "PILGRIM_FOO"}));
}
