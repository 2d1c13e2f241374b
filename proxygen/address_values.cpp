#include "address_values.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "call_emitter.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::proxygen {

namespace {

// What a datatype whose displacements these are reaches from an address
// in them: the block's length times its type's extent (64 KiB for a
// derived type, whose extent is known only when the proxy runs).
constexpr int64_t kDerivedReach = 64 * 1024;

const CallElement *element_of(const Call &call, const char *name, size_t k) {
  const CallArg *a = call.arg(name);
  const CallValue *v = a ? a->any() : nullptr;
  if (!v || v->null || v->elements.empty())
    return nullptr;
  return v->array ? (k < v->elements.size() ? &v->elements[k] : nullptr) : &v->elements[0];
}

int64_t reach(const Call &call, size_t k) {
  int64_t blocks = 1;
  if (const CallElement *b = element_of(call, "array_of_blocklengths", k))
    blocks = b->integer;
  else if (const CallElement *b1 = element_of(call, "blocklength", k))
    blocks = b1->integer;
  const CallElement *t = element_of(call, "array_of_types", k);
  if (!t)
    t = element_of(call, "oldtype", k);
  int64_t extent = 0;
  if (t) {
    const HandleRef &h = t->handle;
    extent = h.predefined() ? predefined_extent(h.id) : h.user() ? kDerivedReach : 0;
  }
  return std::max<int64_t>(blocks, 0) * extent;
}

bool is_target_displacement(const ParamInfo &p) { return p.ref >= 0 && p.ref2 >= 0; }

// The runtime keeps this many bytes below a new address free of other
// addresses when it looks for the memory the address lies in
// (runtime/memory/address_anchors.h, kLayoutWindow).
constexpr uint64_t kLayoutWindow = 4096;

// The bytes id `id`'s memory needs: what the trace's addresses reach in it,
// and the ids laid out in it with what they need.
uint64_t needed_bytes(const ProxySymbols &symbols, uint64_t id,
                      const std::multimap<uint64_t, std::pair<uint64_t, int64_t>> &children,
                      int depth = 0) {
  uint64_t bytes = 0;
  const auto own = symbols.address_bytes.find(id);
  if (own != symbols.address_bytes.end())
    bytes = own->second;
  const auto buffer = symbols.buffers.find(id); // an id laid out here may be a buffer too
  if (buffer != symbols.buffers.end())
    bytes = std::max(bytes, buffer->second);
  if (depth > 64)
    return bytes; // a cycle cannot come from one run's addresses; do not recurse forever
  const auto range = children.equal_range(id);
  for (auto c = range.first; c != range.second; ++c)
    bytes = std::max(bytes, static_cast<uint64_t>(c->second.second) +
                                needed_bytes(symbols, c->second.first, children, depth + 1));
  return bytes;
}

std::multimap<uint64_t, std::pair<uint64_t, int64_t>> children_of(const ProxySymbols &symbols) {
  std::multimap<uint64_t, std::pair<uint64_t, int64_t>> children; // parent -> (child, offset)
  for (const auto &[child, parent, offset] : symbols.address_parents)
    children.emplace(parent, std::make_pair(child, offset));
  return children;
}

// The MPI_Get_address call's own placement of its new location: (id, the
// memory's id, offset), or false. Memory ids are per rank: the same id may
// lie in another id's memory on one rank and stand alone on another.
bool placement(const Call &call, uint64_t &id, uint64_t &in, int64_t &offset) {
  if (std::strcmp(call.function->name, "MPI_Get_address") != 0 || call.args.size() != 2 ||
      call.function->params[0].role != Role::Pointer ||
      call.function->params[1].role != Role::Address)
    return false;
  const CallValue *location = call.args[0].any(), *address = call.args[1].any();
  if (!location || !address || location->elements.size() != 1 || address->elements.size() != 1 ||
      location->elements[0].null || address->elements[0].memory < 0 ||
      address->elements[0].integer <= 0)
    return false;
  id = static_cast<uint64_t>(location->elements[0].memory);
  in = static_cast<uint64_t>(address->elements[0].memory);
  offset = address->elements[0].integer;
  return id != in;
}

} // namespace

void CallEmitter::learn_addresses(const Call &call) {
  // MPI_Get_address of a new location in memory the trace knows.
  uint64_t id = 0, in = 0;
  int64_t offset = 0;
  if (placement(call, id, in, offset)) {
    symbols_.address_parents.emplace(id, in, offset);
    symbols_.pointers.insert(id);
    symbols_.pointers.insert(in);
  }
  for (size_t p = 0; p < call.args.size(); ++p) {
    const ParamInfo &pi = call.function->params[p];
    const CallArg &dp = call.args[p];
    if (pi.role == Role::Buffer && dp.has_in)
      for (const CallElement &e : dp.in.elements)
        if (e.memory >= 0)
          addresses_.buffer_ids.insert(static_cast<uint64_t>(e.memory));
    if (pi.role != Role::Address || !dp.has_in)
      continue;
    for (size_t k = 0; k < dp.in.elements.size(); ++k) {
      const CallElement &e = dp.in.elements[k];
      if (e.memory < 0)
        continue;
      const uint64_t id = static_cast<uint64_t>(e.memory);
      if (is_target_displacement(pi)) {
        addresses_.slots.emplace(id, static_cast<int>(addresses_.slots.size()));
      } else if (e.integer >= 0) {
        uint64_t &bytes = symbols_.address_bytes[id];
        bytes = std::max(bytes,
                         static_cast<uint64_t>(e.integer + std::max<int64_t>(reach(call, k), 1)));
      }
    }
  }
  symbols_.directory_slots = addresses_.slots.size();
}

std::string CallEmitter::address_expr(const Call &call, size_t p, const CallElement &e) {
  const ParamInfo &pi = call.function->params[p];
  auto fail = [&](const std::string &what) {
    throw TraceError(std::string(call.function->name) + ": parameter " + (pi.name ? pi.name : "?") +
                     ": " + what + " cannot be replayed");
  };
  if (e.memory < 0) {
    if (e.coded->code == sig::kAddressPending) // the runtime never resolved it
      fail("an unresolved address");
    return int_literal(e.integer);
  }
  const uint64_t id = static_cast<uint64_t>(e.memory);
  if (!is_target_displacement(pi)) {
    if (e.integer < 0)
      fail("an address below its memory");
    symbols_.pointers.insert(id);
    return "proxy_address(pointer_" + std::to_string(id) + ", " + int_literal(e.integer) + ")";
  }
  // In the target's memory: its proxy published where that is.
  const auto slot = addresses_.slots.find(id);
  const CallValue *win = call.args[static_cast<size_t>(pi.ref)].any();
  const CallValue *rank = call.args[static_cast<size_t>(pi.ref2)].any();
  if (slot == addresses_.slots.end() || !win || win->elements.empty() || !rank ||
      rank->elements.empty())
    fail("a target displacement without its window");
  return "remote_address(" + handle_expr(win->elements[0].handle) + ", " +
         rank_expr(call, static_cast<size_t>(pi.ref2), rank->elements[0].rank) + ", " +
         std::to_string(slot->second) + ", " + int_literal(e.integer) + ")";
}

void CallEmitter::address_lines(const Call &call, const std::vector<std::string> &args,
                                std::vector<std::string> &pre, std::vector<std::string> &post) {
  const std::string name = call.function->name;
  uint64_t id = 0, in = 0;
  int64_t offset = 0;
  if (placement(call, id, in, offset)) {
    // One id, one memory: where the id is a buffer too, the buffer moves with it.
    pre.push_back("pointer_" + std::to_string(id) + " = static_cast<char *>(pointer_" +
                  std::to_string(in) + ") + " + std::to_string(offset) + ";");
    if (addresses_.buffer_ids.count(id))
      pre.push_back("buf_" + std::to_string(id) + " = static_cast<char *>(pointer_" +
                    std::to_string(id) + ");");
  }
  if (addresses_.slots.empty())
    return;
  if (name == "MPI_Finalize") {
    pre.push_back("close_address_directory();");
    return;
  }
  if (name != "MPI_Win_attach")
    return;
  // The base this rank attaches, where the trace addresses it from elsewhere.
  for (size_t p = 0; p < call.args.size() && p < args.size(); ++p) {
    const CallValue *v = call.args[p].any();
    if (call.function->params[p].role != Role::Buffer || !v || v->elements.empty() ||
        v->elements[0].memory < 0)
      continue;
    const auto slot = addresses_.slots.find(static_cast<uint64_t>(v->elements[0].memory));
    if (slot != addresses_.slots.end())
      post.push_back("publish_address(" + std::to_string(slot->second) + ", " + args[p] + ");");
  }
}

uint64_t address_storage_bytes(const ProxySymbols &symbols, uint64_t id, uint64_t bytes) {
  const uint64_t need = needed_bytes(symbols, id, children_of(symbols));
  return need <= bytes ? bytes : (need + 63) / 64 * 64;
}

std::vector<std::string> address_region_lines(const ProxySymbols &symbols) {
  const auto children = children_of(symbols);
  // Every id addresses are taken in or placed in (on a rank where it is
  // placed in another's memory, the MPI_Get_address call moves it there).
  std::set<uint64_t> roots;
  for (const auto &b : symbols.address_bytes)
    roots.insert(b.first);
  for (const auto &[child, parent, offset] : symbols.address_parents) {
    (void)offset;
    roots.insert(child);
    roots.insert(parent);
  }
  std::vector<std::string> lines;
  for (uint64_t id : roots) {
    if (symbols.buffers.count(id) || !symbols.pointers.count(id))
      continue; // a buffer is its own memory
    // Slack beyond the last offset: MPI_BOTTOM with a count above 1 reads
    // whole extents past the first element.
    const uint64_t bytes = (needed_bytes(symbols, id, children) + kLayoutWindow + 63) / 64 * 64;
    lines.push_back("pointer_" + std::to_string(id) + " = address_region(" + std::to_string(bytes) +
                    ");");
  }
  return lines;
}

std::vector<std::string> address_setup_lines(const ProxySymbols &symbols) {
  if (!symbols.directory_slots)
    return {};
  return {"open_address_directory(" + std::to_string(symbols.directory_slots) + ");"};
}

std::string address_prelude(const ProxySymbols &symbols) {
  std::string s;
  if (!symbols.address_bytes.empty() || !symbols.address_parents.empty())
    s += R"(// An address the trace took in the proxy's memory `base` (a datatype's
// displacement built with MPI_Get_address): `offset` bytes into it.
MPI_Aint proxy_address(const void *base, long long offset) {
  return reinterpret_cast<MPI_Aint>(static_cast<const char *>(base) + offset);
}

// Memory for addresses the trace takes in one object: zeroed, with )" +
         std::to_string(kLayoutWindow) + R"( bytes
// before it that hold no other address.
void *address_region(std::size_t bytes) {
  char *p = static_cast<char *>(std::calloc()" +
         std::to_string(kLayoutWindow) + R"( + bytes, 1));
  if (!p) {
    std::fprintf(stderr, "proxy: out of memory (%zu bytes)\n", bytes);
    std::exit(1);
  }
  return p + )" +
         std::to_string(kLayoutWindow) + R"(;
}

)";
  if (symbols.directory_slots)
    s += R"(// Target displacements into dynamic windows: each rank publishes the bases it
// attaches in a directory (a window made with PMPI, one MPI_Aint per entry),
// an origin reads the target's entry when it needs it.
MPI_Win proxy_address_directory = MPI_WIN_NULL;
MPI_Aint *proxy_address_table = nullptr;

void open_address_directory(int entries) {
  PMPI_Win_allocate(static_cast<MPI_Aint>(entries) * static_cast<MPI_Aint>(sizeof(MPI_Aint)),
                    sizeof(MPI_Aint), MPI_INFO_NULL, MPI_COMM_WORLD, &proxy_address_table,
                    &proxy_address_directory);
  PMPI_Win_lock_all(0, proxy_address_directory);
  for (int i = 0; i < entries; ++i)
    proxy_address_table[i] = 0;
  PMPI_Win_sync(proxy_address_directory);
  PMPI_Barrier(MPI_COMM_WORLD);
}

void close_address_directory() {
  if (proxy_address_directory == MPI_WIN_NULL)
    return;
  PMPI_Win_unlock_all(proxy_address_directory);
  PMPI_Win_free(&proxy_address_directory);
}

void publish_address(int entry, const void *base) {
  proxy_address_table[entry] = reinterpret_cast<MPI_Aint>(base);
  PMPI_Win_sync(proxy_address_directory);
}

// The address `offset` bytes into what rank `target` of `win` published
// as directory entry `entry`.
MPI_Aint remote_address(MPI_Win win, int target, int entry, long long offset) {
  MPI_Group group, world;
  int w = MPI_UNDEFINED;
  PMPI_Win_get_group(win, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_translate_ranks(group, 1, &target, world, &w);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  if (w == MPI_UNDEFINED) {
    std::fprintf(stderr, "proxy: window rank %d is not in MPI_COMM_WORLD\n", target);
    std::exit(1);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  MPI_Aint base = 0;
  for (;;) {
    if (w == world_rank) {
      PMPI_Win_sync(proxy_address_directory);
      base = proxy_address_table[entry];
    } else {
      PMPI_Fetch_and_op(nullptr, &base, MPI_AINT, w, entry, MPI_NO_OP, proxy_address_directory);
      PMPI_Win_flush(w, proxy_address_directory);
    }
    if (base != 0)
      break;
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "proxy: rank %d never attached the memory of directory entry %d\n", w,
                   entry);
      std::exit(1);
    }
  }
  return base + static_cast<MPI_Aint>(offset);
}

)";
  return s;
}

} // namespace pilgrim::proxygen
