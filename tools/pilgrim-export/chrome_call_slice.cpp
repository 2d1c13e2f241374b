#include "chrome_call_slice.h"

#include <cctype>
#include <string_view>

#include "pilgrim/call_formatter.h"
#include "pilgrim/collective_call.h"
#include "pilgrim/message_volume.h"

namespace pilgrim::exporter {

std::string call_name(const Call &call) {
  return call.name() ? call.name() : "function#" + std::to_string(call.function_id);
}

const char *call_category(const Call &call) {
  if (!call.function)
    return "mpi";
  const std::string_view name = call.function->name;
  // MPI_Ibcast -> MPI_Bcast; MPI_Bcast_init -> MPI_Bcast.
  const auto collective = [](std::string_view n) {
    if (is_blocking_collective(n))
      return true;
    if (n.size() > 6 && n.substr(0, 5) == "MPI_I" &&
        is_blocking_collective("MPI_" + std::string(1, static_cast<char>(std::toupper(n[5]))) +
                               std::string(n.substr(6))))
      return true;
    const size_t init = n.rfind("_init");
    return init != std::string_view::npos && is_blocking_collective(n.substr(0, init));
  };
  if (collective(name))
    return "mpi.collective";
  if (name.substr(0, 8) == "MPI_Wait" || name.substr(0, 8) == "MPI_Test")
    return "mpi.wait";
  bool rank = false, tag = false;
  for (const CallArg &a : call.args) {
    rank = rank || a.role() == Role::Rank;
    tag = tag || a.role() == Role::Tag;
  }
  return rank && tag ? "mpi.p2p" : "mpi";
}

JsonObject call_args(const Call &call, uint64_t index) {
  JsonObject args;
  args.integer("call", static_cast<int64_t>(index));
  if (call.thread != 0)
    args.integer("thread", static_cast<int64_t>(call.thread));
  for (const CallArg &a : call.args)
    if (a.param && (a.has_in || a.has_out))
      args.text(a.param->name ? a.param->name : "?", format_arg(a));
  const MessageVolume volume = message_volume(call);
  if (volume.complete && volume.bytes > 0)
    args.integer("bytes", static_cast<int64_t>(volume.bytes));
  if (call.return_code != 0)
    args.text("return", format_return_code(call.return_code));
  return args;
}

} // namespace pilgrim::exporter
