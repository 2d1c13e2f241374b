// Bytes a call's buffers hold, for statistics (pilgrim-stats):
// for each Buffer parameter, count x size of its datatype, when the datatype
// is predefined (datatype_sizes.h) or a user datatype whose layout the trace
// states (version 5, datatype_layouts.h) and the count is recorded.
#pragma once

#include <cstdint>

#include "pilgrim/call_context.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim {

struct MessageVolume {
  uint64_t bytes = 0;   // sum over the buffers whose size is known
  bool complete = true; // false when some buffer's size could not be computed
};

// Rules (docs/STATS.md, "Function table"):
//  - NULL and MPI_IN_PLACE buffers hold 0 bytes;
//  - a root-only buffer (kFlagRootOnly) at a caller known not to be the root holds 0 bytes;
//  - ref2 == -1: the count parameter (ref) counts bytes;
//  - a count array (v collectives) is summed; with a datatype array (w
//    collectives) count[i] x size(type[i]) is summed;
//  - an absent (NULL) count array counts 0;
//  - a user datatype without a layout record (traces before version 5),
//    an unknown datatype, a negative count, a missing count
//    reference or a MPI_DATATYPE_NULL with a non-zero count make the
//    volume incomplete.
MessageVolume message_volume(const Call &call);
// The same rules for one Buffer argument, args[arg] (nothing, complete, for
// an argument that is not a Buffer): the bytes one message buffer holds
// (pilgrim-check's send size and receive capacity).
MessageVolume buffer_volume(const Call &call, size_t arg);
// The same, for `call` resolved in `ctx` (resolve_call).
MessageVolume message_volume(const DecodedCall &call, const CallContext &ctx = {});

} // namespace pilgrim
