// What the codes of a signature's elements mean (docs/FORMAT.md §8.3): rank
// sentinels, absolute, relative and Cartesian ranks, tags, null, predefined
// and user handles. Only the model interprets codes; tools read the decoded
// call (decoded_call.h), which carries them already interpreted.
#pragma once

#include <cstdint>

namespace pilgrim {

struct RankCode {
  enum Kind { AnySource, ProcNull, Root, Undefined, Absolute, Relative, Cartesian } kind;
  // Absolute: the rank; Relative: the offset from the caller's rank;
  // Cartesian: the caller's offset y in its communicator's grid
  // (cartesian_offset.h)
  int64_t value;
};
RankCode decode_rank_code(uint64_t code);
// The MPI name of a sentinel rank (MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT,
// MPI_UNDEFINED); nullptr for a rank that is a number.
const char *rank_sentinel_name(RankCode::Kind kind);

// Tag code: true and the tag, or false for MPI_ANY_TAG.
bool decode_tag_code(uint64_t code, int64_t &tag);

struct HandleCode {
  enum Kind { Null, Predefined, User } kind;
  uint64_t index; // Predefined: name-table index; User: symbolic id
};
HandleCode decode_handle_code(uint64_t code); // also Callback codes

// An Offset element of format version 7 (kFlagRankStride): the value is
// base + stride x the caller's rank in MPI_COMM_WORLD. True and the value
// when the rank is known (>= 0); false when it is not (-1). Throws
// TraceError when the value does not fit in 64 bits (no writer stores that).
bool offset_at_rank(int64_t stride, int64_t base, int64_t world_rank, int64_t &value);

} // namespace pilgrim
