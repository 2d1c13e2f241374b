#include "comm_listing.h"

#include <algorithm>
#include <string>

#include "pilgrim/communicator_instances.h"
#include "pilgrim/count_text.h"

namespace pilgrim::dump {
namespace {

std::string group_text(const std::vector<int64_t> &members) {
  std::string s = count_text(members.size(), "rank") + " [";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i)
      s += ", ";
    s += members[i] < 0 ? "?" : std::to_string(members[i]);
  }
  return s + "]";
}

bool holds(const std::vector<int64_t> &members, int64_t rank) {
  return std::find(members.begin(), members.end(), rank) != members.end();
}

} // namespace

void print_comms(TextOutput &out, const Trace &trace, int64_t rank) {
  if (!membership_recorded(trace.header.version)) {
    out << "# communicators: not recorded (format version " + std::to_string(trace.header.version) +
               ")\n";
    return;
  }
  std::vector<CommInstance> all = communicator_instances(trace.merged);
  if (rank >= 0)
    all.erase(std::remove_if(all.begin(), all.end(),
                             [&](const CommInstance &c) {
                               return !holds(c.members, rank) && !holds(c.remote_members, rank);
                             }),
              all.end());
  out << "# communicators: " + std::to_string(all.size()) +
             (rank >= 0 ? " with rank " + std::to_string(rank) : std::string()) + "\n";
  for (const CommInstance &c : all) {
    std::string line = "comm#" + std::to_string(c.comm_id);
    if (c.occurrence)
      line += " (instance " + std::to_string(c.occurrence + 1) + ")";
    line += ": ";
    if (c.inter)
      line +=
          "intercommunicator, " + group_text(c.members) + " and " + group_text(c.remote_members);
    else
      line += group_text(c.members);
    if (!c.consistent)
      line += " (entries disagree)";
    out << line << '\n';
  }
}

} // namespace pilgrim::dump
