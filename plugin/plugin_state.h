// What the front-end half of pilgrim.so hands to its pass half. Both halves
// run in the same compiler process and the same loaded copy of pilgrim.so
// (the pass plugin is this very file, see plugin_action.cpp), so a site the
// front end numbered is found here by the pass that writes the site table.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace clang {
class CompilerInstance;
}

namespace pilgrim::plugin {

struct SiteRecord {
  std::string file; // relative to the root (see site_key.h)
  unsigned line = 0;
  unsigned column = 0;
  std::string function;
};

struct PluginState {
  // The compiler instance of the translation unit being compiled, null
  // outside one (for example under -E, which runs no AST action).
  clang::CompilerInstance *compiler = nullptr;
  // Every site numbered in this translation unit.
  std::map<uint64_t, SiteRecord> sites;
};

PluginState &state();

// The names the front end and the pass agree on.
inline constexpr const char *kMarkerPrefix = "__pilgrim_site."; // + 16 hex digits + '.' + callee
inline constexpr const char *kPragmaPhase = "__pilgrim_pragma_phase";
inline constexpr const char *kPragmaTraceOff = "__pilgrim_pragma_trace_off";
inline constexpr const char *kPragmaTraceOn = "__pilgrim_pragma_trace_on";

} // namespace pilgrim::plugin
