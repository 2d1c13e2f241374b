// For --deterministic: the source an MPI_Irecv with MPI_ANY_SOURCE matched
// in the traced run, which only the status of the call that completed its
// request records.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "pilgrim/decoded_call.h"
#include "pilgrim/trace_model.h"

namespace pilgrim::proxygen {

// A rank that does not make the call.
constexpr int64_t kNoSource = -1;

// CST entry of an MPI_Irecv(MPI_ANY_SOURCE, ..., MPI_COMM_WORLD) -> per
// rank, the world rank every one of its calls matched (kNoSource for ranks
// that do not make it). `calls` are the decoded CST entries. An entry is
// left out when one of its receives matched something unknown (the status
// was ignored; the request was freed, cancelled or never completed) or when
// two of a rank's receives matched different sources.
std::map<uint64_t, std::vector<int64_t>> irecv_sources(const Trace &trace,
                                                       const std::vector<Call> &calls);

} // namespace pilgrim::proxygen
