#include "pilgrim/value_codes.h"

#include <string>

#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/varint.h"

namespace pilgrim {

const char *rank_sentinel_name(RankCode::Kind kind) {
  switch (kind) {
  case RankCode::AnySource:
    return "MPI_ANY_SOURCE";
  case RankCode::ProcNull:
    return "MPI_PROC_NULL";
  case RankCode::Root:
    return "MPI_ROOT";
  case RankCode::Undefined:
    return "MPI_UNDEFINED";
  default:
    return nullptr;
  }
}

RankCode decode_rank_code(uint64_t code) {
  switch (code) {
  case sig::kRankAnySource:
    return {RankCode::AnySource, 0};
  case sig::kRankProcNull:
    return {RankCode::ProcNull, 0};
  case sig::kRankRoot:
    return {RankCode::Root, 0};
  case sig::kRankUndefined:
    return {RankCode::Undefined, 0};
  default:
    break;
  }
  const uint64_t v = code - sig::kRankFirstValue;
  if (v & 1)
    return {RankCode::Relative, zigzag_decode(v >> 1)};
  if (v & 2)
    return {RankCode::Cartesian, zigzag_decode(v >> 2)};
  return {RankCode::Absolute, static_cast<int64_t>(v >> 2)};
}

bool decode_tag_code(uint64_t code, int64_t &tag) {
  if (code == sig::kTagAny)
    return false;
  tag = zigzag_decode(code - 1);
  return true;
}

HandleCode decode_handle_code(uint64_t code) {
  if (code == 0)
    return {HandleCode::Null, 0};
  if (code & 1)
    return {HandleCode::Predefined, (code - 1) / 2};
  return {HandleCode::User, (code - 2) / 2};
}

bool offset_at_rank(int64_t stride, int64_t base, int64_t world_rank, int64_t &value) {
  if (world_rank < 0)
    return false;
  int64_t product = 0;
  if (__builtin_mul_overflow(stride, world_rank, &product) ||
      __builtin_add_overflow(base, product, &value))
    throw TraceError("offset " + std::to_string(base) + " + " + std::to_string(stride) +
                     " x rank " + std::to_string(world_rank) + " overflows 64 bits");
  return true;
}

} // namespace pilgrim
