#include "pilgrim/communicator_instances.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "pilgrim/file_layout.h"
#include "pilgrim/group_hash.h"

namespace pilgrim {
namespace {

// What every member of one communicator records alike: its id and its two
// groups' hashes, the smaller first for an intercommunicator (whose groups
// see them the other way round).
using GroupKey = std::tuple<uint64_t, uint32_t, uint32_t>;

struct Gathered {
  CommInstance instance;
  uint32_t hash[2] = {0, 0};
  int32_t size[2] = {0, 0};
};

int64_t lowest(const std::vector<int64_t> &members) {
  int64_t low = -1;
  for (int64_t w : members)
    if (w >= 0 && (low < 0 || w < low))
      low = w;
  return low;
}

} // namespace

uint32_t group_hash_of(const std::vector<int64_t> &members) {
  GroupHash h(static_cast<uint32_t>(members.size()));
  for (int64_t w : members)
    h.add(w < 0 ? kOutsideWorld : static_cast<uint32_t>(w));
  return h.value();
}

bool membership_recorded(uint16_t format_version) {
  return format_version >= kFirstMembershipVersion;
}

std::vector<CommInstance> communicator_instances(const MergedTrace &trace) {
  std::map<std::tuple<uint64_t, uint32_t, uint32_t, uint32_t>, size_t> index;
  std::vector<Gathered> found;
  for (const RankComms &rc : trace.comms) {
    std::map<GroupKey, uint32_t> seen; // this rank's earlier entries of each key
    for (const CommInfo &c : rc.comms) {
      if (c.group == 0)
        continue; // not recorded (a trace before version 5)
      const bool inter = c.remote_size >= 0;
      const uint32_t a = inter ? std::min(c.group, c.remote_group) : c.group;
      const uint32_t b = inter ? std::max(c.group, c.remote_group) : 0;
      const uint32_t k = seen[GroupKey{c.comm_id, a, b}]++;
      const auto it = index.emplace(std::make_tuple(c.comm_id, a, b, k), found.size());
      if (it.second) {
        Gathered g;
        g.instance.comm_id = c.comm_id;
        g.instance.occurrence = k;
        g.instance.inter = inter;
        g.hash[0] = a;
        g.hash[1] = b;
        found.push_back(std::move(g));
      }
      Gathered &g = found[it.first->second];
      const int side = inter && c.group != a ? 1 : 0;
      std::vector<int64_t> &members = side ? g.instance.remote_members : g.instance.members;
      if (g.size[side] == 0 && c.size > 0) {
        g.size[side] = c.size;
        members.assign(static_cast<size_t>(c.size), -1);
        if (inter && c.remote_size > 0 && g.size[1 - side] == 0) {
          g.size[1 - side] = c.remote_size;
          (side ? g.instance.members : g.instance.remote_members)
              .assign(static_cast<size_t>(c.remote_size), -1);
        }
      }
      if (c.size != g.size[side] || c.rank < 0 || c.rank >= c.size ||
          members[static_cast<size_t>(c.rank)] >= 0) {
        g.instance.consistent = false;
        continue;
      }
      members[static_cast<size_t>(c.rank)] = rc.rank;
    }
  }
  std::vector<CommInstance> out;
  out.reserve(found.size());
  for (Gathered &g : found) {
    CommInstance &in = g.instance;
    if (group_hash_of(in.members) != g.hash[0] ||
        (in.inter && group_hash_of(in.remote_members) != g.hash[1]))
      in.consistent = false;
    // An intercommunicator: the group with the lowest world rank first.
    const int64_t l0 = lowest(in.members), l1 = lowest(in.remote_members);
    if (in.inter && l1 >= 0 && (l0 < 0 || l1 < l0))
      std::swap(in.members, in.remote_members);
    out.push_back(std::move(in));
  }
  std::sort(out.begin(), out.end(), [](const CommInstance &x, const CommInstance &y) {
    return std::make_tuple(x.comm_id, x.occurrence, lowest(x.members)) <
           std::make_tuple(y.comm_id, y.occurrence, lowest(y.members));
  });
  return out;
}

} // namespace pilgrim
