#include "dynamic_windows.h"
#include "signatures/verify_log.h"

#include "signatures/generated_function_table.h"
#include "common/handle_key.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/varint.h"

#include <algorithm>

namespace pilgrim::rt {

DynamicWindows::WinFacts &DynamicWindows::facts(MPI_Win win) {
  const uint64_t key = handle_key(win);
  if (const uint32_t *i = windows_.find(key))
    return facts_[*i];
  uint32_t i;
  if (!free_facts_.empty()) {
    i = free_facts_.back();
    free_facts_.pop_back();
  } else {
    i = static_cast<uint32_t>(facts_.size());
    facts_.emplace_back();
  }
  WinFacts &f = facts_[i];
  f = WinFacts{};
  int *flavor = nullptr;
  int flag = 0;
  if (PMPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag) == MPI_SUCCESS && flag &&
      flavor)
    f.dynamic = *flavor == MPI_WIN_FLAVOR_DYNAMIC;
  windows_.set(key, i);
  return f;
}

bool DynamicWindows::is_dynamic(MPI_Win win) { return win != MPI_WIN_NULL && facts(win).dynamic; }

int DynamicWindows::world_rank(MPI_Win win, int target) {
  if (win == MPI_WIN_NULL || target < 0)
    return -1;
  WinFacts &f = facts(win);
  if (f.world.empty()) {
    MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
    int n = 0;
    if (PMPI_Win_get_group(win, &group) == MPI_SUCCESS && group != MPI_GROUP_NULL &&
        PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS &&
        PMPI_Group_size(group, &n) == MPI_SUCCESS && n > 0) {
      std::vector<int> ranks(static_cast<size_t>(n));
      for (int r = 0; r < n; ++r)
        ranks[static_cast<size_t>(r)] = r;
      f.world.assign(static_cast<size_t>(n), MPI_UNDEFINED);
      PMPI_Group_translate_ranks(group, n, ranks.data(), world, f.world.data());
    }
    if (group != MPI_GROUP_NULL)
      PMPI_Group_free(&group);
    if (world != MPI_GROUP_NULL)
      PMPI_Group_free(&world);
  }
  if (static_cast<size_t>(target) >= f.world.size())
    return -1;
  const int w = f.world[static_cast<size_t>(target)];
  return w == MPI_UNDEFINED ? -1 : w;
}

void DynamicWindows::forget(MPI_Win win) {
  const uint64_t key = handle_key(win);
  if (const uint32_t *i = windows_.find(key)) {
    facts_[*i] = WinFacts{};
    free_facts_.push_back(*i);
    windows_.erase(key);
  }
}

uint64_t DynamicWindows::placeholder(int world, int64_t v) {
  if (static_cast<size_t>(world) >= by_target_.size())
    by_target_.resize(static_cast<size_t>(world) + 1);
  FlatMap &m = by_target_[static_cast<size_t>(world)];
  if (const uint32_t *j = m.find(static_cast<uint64_t>(v)))
    return *j;
  const uint32_t j = static_cast<uint32_t>(placeholders_.size());
  placeholders_.push_back({world, v});
  m.set(static_cast<uint64_t>(v), j);
  return j;
}

void DynamicWindows::note_attach(const void *base, int64_t bytes, uint32_t id) {
  const Region r{reinterpret_cast<uintptr_t>(base),
                 static_cast<uint64_t>(std::max<int64_t>(bytes, 0)), id};
  for (const Region &a : attached_)
    if (a.base == r.base && a.bytes == r.bytes && a.id == r.id)
      return; // attached again: nothing new
  attached_.push_back(r);
}

namespace {

std::string address_element(uint64_t code, int64_t x) {
  uint8_t bytes[2 * kMaxVarintBytes];
  uint8_t *p = bytes;
  put_varint(p, code);
  put_svarint(p, x);
  return std::string(reinterpret_cast<const char *>(bytes), static_cast<size_t>(p - bytes));
}

} // namespace

void DynamicWindows::resolve(MPI_Comm comm) {
  int local = placeholders_.empty() && attached_.empty() ? 0 : 1, any = 0;
  PMPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, comm);
  if (!any)
    return;
  int size = 1;
  PMPI_Comm_size(comm, &size);
  std::vector<uint64_t> mine;
  for (const Region &r : attached_)
    mine.insert(mine.end(), {r.base, r.bytes, r.id});
  const int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<size_t>(size)), displs(static_cast<size_t>(size));
  PMPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[static_cast<size_t>(r)] = total;
    total += counts[static_cast<size_t>(r)];
  }
  std::vector<uint64_t> all(static_cast<size_t>(std::max(total, 1)));
  PMPI_Allgatherv(mine.data(), n, MPI_UINT64_T, all.data(), counts.data(), displs.data(),
                  MPI_UINT64_T, comm);
  // Each rank's regions by base address.
  std::vector<std::vector<Region>> regions(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) {
    const size_t first = static_cast<size_t>(displs[static_cast<size_t>(r)]);
    for (size_t k = 0; k + 2 < static_cast<size_t>(counts[static_cast<size_t>(r)]); k += 3)
      regions[static_cast<size_t>(r)].push_back(
          {all[first + k], all[first + k + 1], all[first + k + 2]});
    std::sort(regions[static_cast<size_t>(r)].begin(), regions[static_cast<size_t>(r)].end(),
              [](const Region &a, const Region &b) { return a.base < b.base; });
  }
  // A displacement is in the region with the highest base at or below it
  // that holds it (its end included: a zero-length access there is legal).
  resolved_.clear();
  for (const Placeholder &ph : placeholders_) {
    const uint64_t v = static_cast<uint64_t>(ph.value);
    const std::vector<Region> *mine_of =
        ph.world >= 0 && ph.world < size ? &regions[static_cast<size_t>(ph.world)] : nullptr;
    std::string element = address_element(sig::kAddressValue, ph.value);
    if (mine_of) {
      auto at = std::upper_bound(mine_of->begin(), mine_of->end(), v,
                                 [](uint64_t x, const Region &r) { return x < r.base; });
      while (at != mine_of->begin()) {
        --at;
        if (v - at->base <= at->bytes) {
          element = address_element(sig::address_id(at->id), static_cast<int64_t>(v - at->base));
          break;
        }
      }
    }
    resolved_.push_back(std::move(element));
  }
}

bool DynamicWindows::rewrite(std::string &sig) const {
  if (placeholders_.empty() || sig.empty())
    return false;
  const uint16_t fid = signature_function_id(sig);
  const FunctionInfo *f = generated_function(fid);
  if (!f)
    return false;
  bool has_target = false;
  for (uint8_t i = 0; i < f->nparams; ++i)
    has_target |= f->params[i].role == Role::Address && f->params[i].ref >= 0;
  if (!has_target)
    return false;
  std::vector<PendingAddress> pending;
  try {
    decode_signature([](uint16_t id) { return generated_function(id); }, sig, &pending);
  } catch (const std::exception &) {
    return false; // the runtime wrote it: cannot happen, and must not stop MPI_Finalize
  }
  if (pending.empty())
    return false;
  std::string out;
  size_t from = 0;
  for (const PendingAddress &p : pending) {
    out.append(sig, from, p.begin - from);
    const size_t j = static_cast<size_t>(p.index);
    out += j < resolved_.size() ? resolved_[j]
                                : address_element(sig::kAddressValue, placeholders_.at(j).value);
    from = p.end;
  }
  out.append(sig, from, std::string::npos);
  sig = std::move(out);
  return true;
}

void DynamicWindows::rewrite_log(std::vector<uint8_t> &log) const {
  if (placeholders_.empty())
    return;
  rewrite_logged_signatures(log, [this](std::string &sig) { rewrite(sig); });
}

size_t DynamicWindows::memory_bytes() const {
  size_t m = windows_.memory_bytes() + facts_.capacity() * sizeof(WinFacts) +
             placeholders_.capacity() * sizeof(Placeholder) + attached_.capacity() * sizeof(Region);
  for (const WinFacts &f : facts_)
    m += f.world.capacity() * sizeof(int);
  for (const FlatMap &t : by_target_)
    m += t.memory_bytes();
  return m;
}

DynamicWindows &dynamic_windows() {
  static DynamicWindows registry;
  return registry;
}

} // namespace pilgrim::rt
