// Bytes a call's buffers hold, for statistics (pilgrim-stats):
// for each Buffer parameter, count x size of its datatype, when the datatype
// is predefined (datatype_sizes.h) or a user datatype whose layout the trace
// states (version 5, datatype_layouts.h) and the count is recorded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pilgrim/call_context.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim {

// Which buffers count: all of them, those the call sends from (In and
// InOut buffers: sendbuf, Sendrecv_replace's buf) or those it receives into
// (Out and InOut: recvbuf). OTF2's collective events carry the two apart.
enum class BufferSide { All, Sent, Received };

struct MessageVolume {
  uint64_t bytes = 0;   // sum over the buffers whose size is known
  bool complete = true; // false when some buffer's size could not be computed
};

// The bytes of Buffer parameter `buffer` (an index into call.args) block by
// block, whatever its memory (NULL, MPI_IN_PLACE): one block per element of
// its count parameter (one for a scalar count, one per peer for the count
// array of a v or w collective), count x the size of its datatype (of
// datatype k, with a datatype array). A block whose count is negative or
// whose datatype's size is unknown (with a non-zero count) is not `known`
// (its bytes 0) and makes the whole incomplete, as is a buffer whose count
// or datatype parameter is missing (no blocks). An absent count array gives
// no blocks and stays complete. The communication matrix
// (pilgrim-stats --matrix) sends block k to peer k.
struct BufferBlocks {
  std::vector<uint64_t> bytes;
  std::vector<bool> known;
  bool complete = true;
};
BufferBlocks buffer_blocks(const Call &call, size_t buffer);

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
MessageVolume message_volume(const Call &call, BufferSide side = BufferSide::All);
// The same rules for one Buffer argument, args[arg] (nothing, complete, for
// an argument that is not a Buffer): the bytes one message buffer holds
// (pilgrim-check's send size and receive capacity).
MessageVolume buffer_volume(const Call &call, size_t arg);
// The same, for `call` resolved in `ctx` (resolve_call).
MessageVolume message_volume(const DecodedCall &call, const CallContext &ctx = {});

} // namespace pilgrim
