// call_counts: how many calls a traced run made, per function and, for
// every rank argument it is given (dest, source, root, ...), per peer; the
// example program of docs/READER.md.
//
//   call_counts TRACE
//
// prints, for each function in name order, its calls over all ranks, then
// one line per rank argument and peer, the peer being the rank in the
// call's communicator (or the MPI name of a sentinel such as
// MPI_ANY_SOURCE):
//   MPI_Send: 40 calls
//     dest 1: 40 calls
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <tuple>

#include <pilgrim/reader.h>

namespace {

// A peer of a rank argument: (parameter name, rank, how it prints); rank -1
// for a sentinel or a rank the trace cannot resolve (sorted by parameter,
// then rank).
using Peer = std::tuple<std::string, int64_t, std::string>;

Peer peer(const char *param, const pilgrim::RankRef &r) {
  if (r.known())
    return {param, r.rank, std::to_string(r.rank)};
  return {param, -1, r.sentinel() ? r.sentinel_name() : "?"};
}

struct Counts {
  uint64_t calls = 0;
  std::map<Peer, uint64_t> peers;
};

void count_call(const pilgrim::Call &call, std::map<std::string, Counts> &counts) {
  Counts &c = counts[call.name() ? call.name() : "function " + std::to_string(call.function_id)];
  ++c.calls;
  for (const pilgrim::CallArg &arg : call.args) {
    // A rank the call is given (MPI_Comm_rank's is one it returns).
    if (arg.role() != pilgrim::Role::Rank || !arg.has_in)
      continue;
    for (const pilgrim::CallElement &e : arg.in.elements)
      ++c.peers[peer(arg.param->name, e.rank)];
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: call_counts TRACE\n";
    return 2;
  }
  try {
    const pilgrim::reader::TraceFile trace(argv[1]);
    const pilgrim::TraceHeader &h = trace.header();
    std::cout << "# " << h.nranks << " ranks, format version " << h.version << ", " << h.mpi_library
              << '\n';

    std::map<std::string, Counts> counts;
    for (uint32_t rank = 0; rank < trace.nranks(); ++rank)
      for (pilgrim::reader::CallCursor cursor = trace.calls(rank); cursor.next();)
        count_call(cursor.call(), counts);

    for (const auto &[function, c] : counts) {
      std::cout << function << ": " << c.calls << " calls\n";
      for (const auto &[p, n] : c.peers)
        std::cout << "  " << std::get<0>(p) << ' ' << std::get<2>(p) << ": " << n << " calls\n";
    }
  } catch (const pilgrim::TraceError &e) {
    std::cerr << "call_counts: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
