// Every PILGRIM_* environment variable that any part of Pilgrim reads: the
// tracer (libpilgrim.so), the generated proxies, the compiler wrappers, the
// build and test scripts, the tests and the benchmarks. One table, so that
// the tracer's parser, `pilgrim-config` and the documentation cannot drift
// (test/settings checks the sources against it). A new setting joins it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pilgrim::settings {

// Who reads a variable.
enum class Reader { Tracer, Proxy, Compiler, Scripts, Tests, Bench };
const char *reader_name(Reader r); // "tracer", "proxy", ...

struct Setting {
  const char *name;       // PILGRIM_...
  Reader reader;
  std::vector<std::string> choices; // the allowed words; empty: see `values`
  const char *values;     // the allowed values in words, where there are no choices
  const char *fallback;   // the value when the variable is not set, in words
  const char *summary;    // one line: what it does
};

// Every setting, grouped by reader, in the order pilgrim-config prints them.
const std::vector<Setting> &table();
// The setting of that name; nullptr when there is none.
const Setting *find(std::string_view name);
// The known name closest to `name` (an unknown PILGRIM_* variable), or ""
// when none is close enough to be a likely misspelling.
std::string closest(std::string_view name);
// "NAME is not a Pilgrim setting; did you mean CLOSEST?" (or, with no
// close name, "... (pilgrim-config lists them)"): one line, for the tracer's
// warning and pilgrim-config --check alike.
std::string not_a_setting(std::string_view name);
// The PILGRIM_* names in `environ` (NAME=VALUE strings) that the table does
// not know, in the order they appear.
std::vector<std::string> unknown_in(char **environ);
// The allowed values in words: the choices ("A, B, C") or `values`.
std::string allowed_values(const Setting &s);
// "invalid NAME='VALUE' (allowed: ...)": one line, the variable named once.
std::string invalid_value(const Setting &s, std::string_view value);

} // namespace pilgrim::settings
