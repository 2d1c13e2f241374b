// Site keys to the run's site table at MPI_Finalize (call_sites.h).
#include "call_sites.h"
#include "plugin_sites.h"
#include "merge/tree_fold.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <utility>

namespace pilgrim::rt {
namespace {

constexpr int kTag = 11; // on the runtime's private communicator only

// A key as something every rank agrees on: the module's path and the
// address in the module's own (link-time) addresses. The load bias of a
// PIE or a shared library is gone; a non-PIE executable's bias is 0.
struct Identity {
  std::string module;
  uint64_t address = 0;
  bool operator<(const Identity &o) const {
    return module != o.module ? module < o.module : address < o.address;
  }
};

std::string self_exe() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string();
}

Identity identify(uint64_t key) {
  Identity id;
  if (key & kPluginSiteTag) { // a plugin's site id: resolved by the plugin's table
    id.module = "<plugin>";
    id.address = key & ~kPluginSiteTag;
    return id;
  }
  Dl_info info;
  link_map *map = nullptr;
  const void *at = reinterpret_cast<const void *>(static_cast<uintptr_t>(key));
  if (dladdr1(at, &info, reinterpret_cast<void **>(&map), RTLD_DL_LINKMAP) == 0 || !map) {
    id.address = key; // in no module the loader knows (JIT code): kept as is
    return id;
  }
  id.module = map->l_name && *map->l_name ? map->l_name : self_exe();
  id.address = key - map->l_addr;
  return id;
}

void put_u64(std::string &out, uint64_t v) { out.append(reinterpret_cast<const char *>(&v), 8); }

std::string serialize(const std::vector<Identity> &ids) {
  std::string out;
  for (const Identity &i : ids) {
    put_u64(out, i.module.size());
    out += i.module;
    put_u64(out, i.address);
  }
  return out;
}

std::vector<Identity> parse(const std::string &bytes) {
  std::vector<Identity> ids;
  size_t at = 0;
  auto u64 = [&](uint64_t &v) {
    if (bytes.size() - at < 8)
      return false;
    std::memcpy(&v, bytes.data() + at, 8);
    at += 8;
    return true;
  };
  while (at < bytes.size()) {
    Identity i;
    uint64_t n = 0;
    if (!u64(n) || bytes.size() - at < n)
      break;
    i.module.assign(bytes, at, static_cast<size_t>(n));
    at += static_cast<size_t>(n);
    if (!u64(i.address))
      break;
    ids.push_back(std::move(i));
  }
  return ids;
}

std::string demangle(const char *name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                            std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(name);
}

// A compiler plugin's site (plugin_sites.h): its id and the table's row,
// which needs no debug information.
CallSite plugin_site(uint64_t id) {
  CallSite s{"<plugin>", id, "", 0, 0, ""};
  if (const plugin_sites::Site *p = plugin_sites::resolve(id)) {
    s.file = p->file ? p->file : "";
    s.line = p->line;
    s.column = p->column;
    s.function = p->function ? p->function : "";
  }
  return s;
}

// The modules opened so far, each once (rank 0 resolves every site).
class Resolver {
public:
  Resolver() {
    static const Dwfl_Callbacks callbacks = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                                             dwfl_offline_section_address, nullptr};
    dwfl_ = dwfl_begin(&callbacks);
  }
  ~Resolver() {
    if (dwfl_)
      dwfl_end(dwfl_);
  }
  Resolver(const Resolver &) = delete;
  Resolver &operator=(const Resolver &) = delete;

  CallSite resolve(const std::string &module, uint64_t address) {
    CallSite s;
    s.module = module;
    s.address = address;
    Dwfl_Module *m = this->module(module);
    if (!m || address == 0)
      return s;
    // The return address follows the call: the call's own bytes end one
    // byte before it.
    const Dwarf_Addr pc = address - 1;
    if (Dwfl_Line *line = dwfl_module_getsrc(m, pc)) {
      int l = 0, c = 0;
      if (const char *file = dwfl_lineinfo(line, nullptr, &l, &c, nullptr, nullptr)) {
        s.file = file;
        s.line = l > 0 ? static_cast<uint32_t>(l) : 0;
        s.column = c > 0 ? static_cast<uint32_t>(c) : 0;
      }
    } else {
      line_from_units(m, pc, s);
    }
    if (const char *name = dwfl_module_addrname(m, pc))
      s.function = demangle(name);
    return s;
  }

private:
  // dwfl_module_getsrc finds a unit by .debug_aranges, which clang does not
  // emit by default (elfutils 0.188 has no fallback): the units' own
  // address ranges (DW_AT_low_pc/high_pc, DW_AT_ranges, DWARF 4 and 5).
  static void line_from_units(Dwfl_Module *m, Dwarf_Addr pc, CallSite &s) {
    Dwarf_Addr bias = 0;
    Dwarf *dwarf = dwfl_module_getdwarf(m, &bias);
    if (!dwarf)
      return;
    const Dwarf_Addr at = pc - bias;
    Dwarf_Off offset = 0, next = 0;
    size_t header = 0;
    while (dwarf_nextcu(dwarf, offset, &next, &header, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die unit;
      if (dwarf_offdie(dwarf, offset + header, &unit) && dwarf_haspc(&unit, at) == 1) {
        if (Dwarf_Line *line = dwarf_getsrc_die(&unit, at)) {
          int l = 0, c = 0;
          dwarf_lineno(line, &l);
          dwarf_linecol(line, &c);
          if (const char *file = dwarf_linesrc(line, nullptr, nullptr)) {
            s.file = file;
            s.line = l > 0 ? static_cast<uint32_t>(l) : 0;
            s.column = c > 0 ? static_cast<uint32_t>(c) : 0;
          }
        }
        return;
      }
      offset = next;
    }
  }

  Dwfl_Module *module(const std::string &path) {
    auto it = modules_.find(path);
    if (it != modules_.end())
      return it->second;
    Dwfl_Module *m = nullptr;
    if (dwfl_ && !path.empty() && path[0] == '/') {
      dwfl_report_begin_add(dwfl_);
      // Base 0: the module's addresses are its link-time ones, the
      // identities' (for a non-PIE executable they are its load addresses).
      m = dwfl_report_elf(dwfl_, path.c_str(), path.c_str(), -1, 0, false);
      dwfl_report_end(dwfl_, nullptr, nullptr);
    }
    modules_.emplace(path, m);
    return m;
  }
  Dwfl *dwfl_ = nullptr;
  std::map<std::string, Dwfl_Module *> modules_;
};

} // namespace

CallSite resolve_site(const std::string &module, uint64_t address) {
  Resolver r;
  return r.resolve(module, address);
}

void CallSites::agree(const std::vector<uint64_t> &keys, MPI_Comm comm, int rank) {
  std::map<Identity, std::vector<uint64_t>> mine;
  for (uint64_t k : keys)
    if (k != 0)
      mine[identify(k)].push_back(k);
  // The distinct identities of all ranks, folded up the same tree as the
  // trace merge (tree_fold.h): each rank holds its subtree's union, whose
  // size follows the distinct sites of the program, not P.
  std::set<Identity> every;
  for (const auto &m : mine)
    every.insert(m.first);
  fold_to_root(
      comm, kTag,
      [&] {
        return serialize({every.begin(), every.end()});
      },
      [&](const std::string &bytes) {
        for (Identity &i : parse(bytes))
          every.insert(std::move(i));
      });
  std::string order;
  if (rank == 0) {
    std::vector<Identity> sorted(every.begin(), every.end());
    Resolver resolver;
    table_.reserve(sorted.size());
    for (const Identity &i : sorted) {
      table_.push_back(i.module == "<plugin>" ? plugin_site(i.address)
                                              : resolver.resolve(i.module, i.address));
      // The trace names the module by its file name: what readers show, and
      // the same on every machine the run's binaries are copied to.
      const size_t slash = table_.back().module.rfind('/');
      if (slash != std::string::npos)
        table_.back().module.erase(0, slash + 1);
    }
    order = serialize(sorted);
  }
  uint64_t order_size = order.size();
  PMPI_Bcast(&order_size, 1, MPI_UINT64_T, 0, comm);
  order.resize(static_cast<size_t>(order_size));
  PMPI_Bcast(order.data(), static_cast<int>(order_size), MPI_BYTE, 0, comm);
  const std::vector<Identity> numbered = parse(order);
  for (size_t k = 0; k < numbered.size(); ++k) {
    auto it = mine.find(numbered[k]);
    if (it != mine.end())
      for (uint64_t key : it->second)
        refs_[key] = static_cast<uint32_t>(k + 1);
  }
}

void CallSites::rewrite(std::string &key) const {
  if (key.size() < kSiteKeyBytes)
    return;
  uint64_t site = 0;
  std::memcpy(&site, key.data() + key.size() - kSiteKeyBytes, kSiteKeyBytes);
  key.resize(key.size() - kSiteKeyBytes);
  uint32_t ref = 0;
  if (site != 0) {
    auto it = refs_.find(site);
    if (it != refs_.end())
      ref = it->second;
  }
  const uint8_t b[kSiteRefBytes] = {static_cast<uint8_t>(ref), static_cast<uint8_t>(ref >> 8),
                                    static_cast<uint8_t>(ref >> 16),
                                    static_cast<uint8_t>(ref >> 24)};
  key.append(reinterpret_cast<const char *>(b), kSiteRefBytes);
}

uint32_t take_site_ref(std::string &signature) {
  if (signature.size() < kSiteRefBytes)
    return 0;
  const auto *b =
      reinterpret_cast<const uint8_t *>(signature.data() + signature.size() - kSiteRefBytes);
  const uint32_t ref = b[0] | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
  signature.resize(signature.size() - kSiteRefBytes);
  return ref;
}

} // namespace pilgrim::rt
