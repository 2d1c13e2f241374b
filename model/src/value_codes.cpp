#include "pilgrim/value_codes.h"

#include "pilgrim/signature_encoding.h"
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

} // namespace pilgrim
