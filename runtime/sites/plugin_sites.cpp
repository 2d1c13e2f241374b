#include "plugin_sites.h"

#include "common/slow_calls.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace pilgrim::plugin_sites {
namespace {

using SlotFunction = uint64_t *(*)(void);

// One slot per shared object built with the plugin (the executable and any
// plugin-built libraries): a handful. Slots past the limit are not read.
constexpr size_t kMaxSlots = 16;
std::atomic<SlotFunction> g_slot_functions[kMaxSlots];

// This thread's slot addresses, looked up on its first call.
thread_local uint64_t *t_slots[kMaxSlots] __attribute__((tls_model("initial-exec")));

struct Registry {
  std::mutex mutex;
  std::unordered_map<uint64_t, Site> sites; // node-based: Site addresses are stable
};

Registry &registry() {
  static Registry *r =
      new Registry; // never destroyed: registrations may come from late destructors' libraries
  return *r;
}

} // namespace

std::atomic<size_t> g_slot_count{0};

uint64_t take_current() noexcept {
  size_t n = g_slot_count.load(std::memory_order_acquire);
  uint64_t id = 0;
  for (size_t i = 0; i < n; ++i) {
    uint64_t *&slot = t_slots[i];
    if (slot == nullptr)
      slot = g_slot_functions[i].load(std::memory_order_relaxed)();
    if (uint64_t v = *slot) {
      if (id == 0)
        id = v;
      *slot = 0;
    }
  }
  return id;
}

const Site *resolve(uint64_t id) noexcept {
  if (id == 0)
    return nullptr;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto found = r.sites.find(id);
  return found == r.sites.end() ? nullptr : &found->second;
}

} // namespace pilgrim::plugin_sites

extern "C" void pilgrim_plugin_register_sites_v1(const pilgrim_plugin_site_entry *sites,
                                                 size_t count, uint64_t *(*slot)(void)) {
  using namespace pilgrim::plugin_sites;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  try {
    for (size_t i = 0; i < count; ++i)
      r.sites.emplace(sites[i].id,
                      Site{sites[i].file, sites[i].line, sites[i].column, sites[i].function});
  } catch (...) {
    return; // out of memory at start-up: those sites stay unknown
  }
  if (slot == nullptr)
    return;
  size_t n = g_slot_count.load(std::memory_order_relaxed);
  for (size_t i = 0; i < n; ++i)
    if (g_slot_functions[i].load(std::memory_order_relaxed) == slot)
      return;
  if (n == kMaxSlots)
    return;
  g_slot_functions[n].store(slot, std::memory_order_relaxed);
  g_slot_count.store(n + 1, std::memory_order_release);
  pilgrim::rt::set_slow_call_bit(pilgrim::rt::kSlowPluginSites, true);
}
