// The runtime side of the compiler plugin's call sites (README, "Compiler
// plugin"; plugin/lowering_pass.cpp). A plugin-built program stores a site
// id (64 bits, never 0) into a thread-local slot right before each MPI call,
// and every translation unit's constructor registers its site table and its
// slot with pilgrim_plugin_register_sites_v1, which this library exports.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

extern "C" {
// One row of a translation unit's site table, as the plugin lays it out.
struct pilgrim_plugin_site_entry {
  uint64_t id;
  const char *file;     // relative to the compilation directory or the plugin's root=
  const char *function; // qualified name, template arguments included
  uint32_t line;
  uint32_t column;
};

// Called by the constructors of plugin-built code (found as a weak reference
// or with dlsym): `count` rows at `sites`, which live as long as the program
// (or the library that registered them); `slot` returns the calling
// thread's slot of that program or library.
__attribute__((visibility("default"))) void
pilgrim_plugin_register_sites_v1(const pilgrim_plugin_site_entry *sites, size_t count,
                                 uint64_t *(*slot)(void));
}

namespace pilgrim::plugin_sites {

// How many plugin-built objects registered a slot: 0 in a program built
// without the plugin, so the wrapper's check costs one load and one branch.
extern std::atomic<size_t> g_slot_count;
inline bool any_registered() noexcept { return g_slot_count.load(std::memory_order_relaxed) != 0; }

// The id stored before the current call on this thread, 0 if none; clears
// it. No allocation, lock or system call: for the wrapper hot path.
uint64_t take_current() noexcept;

struct Site {
  const char *file;
  uint32_t line;
  uint32_t column;
  const char *function;
};

// The site registered under `id`, nullptr if none. Takes a lock: call it
// once per distinct id (at first sight or at finalize), not per call.
const Site *resolve(uint64_t id) noexcept;

} // namespace pilgrim::plugin_sites
