// Request lifetimes of one rank, for the Chrome export's async slices: from
// the call that made a request active (MPI_Isend, MPI_Irecv, MPI_Ibarrier,
// ..., or MPI_Start/MPI_Startall for a persistent one) to the call that
// completed it (MPI_Wait*, a successful MPI_Test*) or freed it
// (MPI_Request_free). A request still active after the rank's last call ends
// there, marked never completed. Memory: the requests active at once.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "chrome_placement.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/request_lifecycle.h"

namespace pilgrim::exporter {

struct RequestLifetime {
  std::string name;    // the function that activated it ("MPI_Isend")
  std::string request; // "req#0.1"
  uint64_t thread = 0; // the activating call's thread
  uint64_t begin_call = 0, end_call = 0;
  Span begin, end; // the two calls' spans as placed
  Span begin_raw, end_raw;
  // How it ended: completed, freed while active (MPI_Request_free), or
  // never (still active after the rank's last call, or created again).
  enum class End { Completed, Freed, Never } how = End::Completed;
};

class RequestLifetimes {
public:
  // Feeds the rank's call `index` (in order) with its spans as recorded and
  // as placed; appends the lifetimes it ends to `done`.
  void call(const Call &call, uint64_t index, const Span &raw, const Span &placed,
            std::vector<RequestLifetime> &done);
  // Ends the lifetimes still open at the last call, `index`.
  void finish(uint64_t index, const Span &raw, const Span &placed,
              std::vector<RequestLifetime> &done);

private:
  struct Live {
    bool active = false;
    bool persistent = false;
    RequestLifetime life;
  };
  void close(uint64_t code, RequestLifetime::End how, uint64_t index, const Span &raw,
             const Span &placed, std::vector<RequestLifetime> &done);
  std::unordered_map<uint64_t, Live> live_;
  RequestEvents events_;
};

} // namespace pilgrim::exporter
