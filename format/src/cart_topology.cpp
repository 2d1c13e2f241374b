#include "pilgrim/cart_topology.h"

#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_error.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace pilgrim {

namespace {

// A creation found in the CST: the new id, and either its own grid or the
// communicator it inherits one from.
struct GridSource {
  uint64_t child = 0;
  bool own = false;        // Cart_create: dims/periods are the grid
  uint64_t parent = 0;     // otherwise: the parent's user id
  bool parent_user = false;
  std::vector<int> dims, periods, remain; // remain: Cart_sub's kept dims
  bool sub = false;
};

const DecodedValue *param(const DecodedCall &call, std::string_view name) {
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams; ++i)
    if (f.params[i].name && name == f.params[i].name)
      return call.params[i].any();
  return nullptr;
}

bool user_comm(const DecodedValue *v, uint64_t &id) {
  if (!v || v->null || v->elements.size() != 1)
    return false;
  const HandleCode h = decode_handle_code(v->elements[0].code);
  id = h.index;
  return h.kind == HandleCode::User;
}

std::vector<int> ints(const DecodedValue *v) {
  std::vector<int> out;
  if (v && !v->null)
    for (const DecodedElement &e : v->elements)
      out.push_back(static_cast<int>(e.integer));
  return out;
}

bool grid_source(const DecodedCall &call, GridSource &g) {
  const std::string_view name = call.function->name ? call.function->name : "";
  if (name == "MPI_Cart_create") {
    g.own = true;
    g.dims = ints(param(call, "dims"));
    g.periods = ints(param(call, "periods"));
    return g.dims.size() == g.periods.size() && user_comm(param(call, "comm_cart"), g.child);
  }
  const char *parent = "comm", *child = "newcomm";
  if (name == "MPI_Cart_sub") {
    g.sub = true;
    g.remain = ints(param(call, "remain_dims"));
  } else if (name != "MPI_Comm_dup" && name != "MPI_Comm_dup_with_info" &&
             name != "MPI_Comm_idup" && name != "MPI_Comm_idup_with_info") {
    return false;
  }
  g.parent_user = user_comm(param(call, parent), g.parent);
  return g.parent_user && user_comm(param(call, child), g.child);
}

} // namespace

const CartTopology *find_cart(const std::vector<CartTopology> &carts, uint64_t comm_id) {
  auto it = std::lower_bound(carts.begin(), carts.end(), comm_id,
                             [](const CartTopology &c, uint64_t id) { return c.comm_id < id; });
  return it != carts.end() && it->comm_id == comm_id && it->known ? &*it : nullptr;
}

std::vector<CartTopology> cart_topologies(const Trace &trace, const std::vector<CstEntry> &cst) {
  std::vector<GridSource> sources;
  for (const CstEntry &e : cst) {
    try {
      const FunctionInfo *f = trace.function(signature_function_id(e.signature));
      if (!f || !f->name || std::strncmp(f->name, "MPI_C", 5) != 0)
        continue;
      const DecodedCall call = decode_signature(trace, e.signature);
      GridSource g;
      if (grid_source(call, g))
        sources.push_back(std::move(g));
    } catch (const TraceError &) {
      continue;
    }
  }
  // Grids inherited from grids: resolve in passes (a chain of dups and subs
  // is at most as long as the list).
  std::vector<CartTopology> out;
  std::vector<bool> done(sources.size(), false);
  auto add = [&out](uint64_t id, bool known, std::vector<int> dims, std::vector<int> periods) {
    for (CartTopology &c : out) {
      if (c.comm_id != id)
        continue;
      if (!known || c.dims != dims || c.periods != periods)
        c.known = false;
      return;
    }
    out.push_back(CartTopology{id, known, std::move(dims), std::move(periods)});
  };
  for (size_t pass = 0; pass <= sources.size(); ++pass) {
    bool progress = false;
    for (size_t i = 0; i < sources.size(); ++i) {
      if (done[i])
        continue;
      const GridSource &g = sources[i];
      if (g.own) {
        add(g.child, true, g.dims, g.periods);
      } else {
        const CartTopology *p = nullptr;
        for (const CartTopology &c : out)
          if (c.comm_id == g.parent)
            p = &c;
        if (!p)
          continue;
        if (!p->known) {
          add(g.child, false, {}, {});
        } else if (!g.sub) {
          add(g.child, true, p->dims, p->periods);
        } else {
          if (g.remain.size() != p->dims.size())
            continue;
          std::vector<int> dims, periods;
          for (size_t d = 0; d < g.remain.size(); ++d)
            if (g.remain[d]) {
              dims.push_back(p->dims[d]);
              periods.push_back(p->periods[d]);
            }
          add(g.child, true, std::move(dims), std::move(periods));
        }
      }
      done[i] = progress = true;
    }
    if (!progress)
      break;
  }
  std::sort(out.begin(), out.end(),
            [](const CartTopology &a, const CartTopology &b) { return a.comm_id < b.comm_id; });
  return out;
}

} // namespace pilgrim
