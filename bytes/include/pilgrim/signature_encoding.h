// Signature encoding: the byte string of one CST entry (docs/FORMAT.md,
// "Signature encoding"). Header-only and allocation-free: the runtime's
// wrappers encode every intercepted call with these primitives into a
// preallocated buffer; the format library's decoder (signature_decoder.h)
// reads them back.
//
//   signature     := varint(function_id) varint(thread_id)
//                    in_part out_part deferred_part varint(zigzag(return_code))
//   in_part       := value before the call of each parameter, in order, for
//                    which in_part_includes() is true
//   out_part      := value after the call of each parameter, in order, for
//                    which out_part_includes() is true
//   deferred_part := value after the call of each parameter, in order, for
//                    which deferred_part_includes() is true
//
// A parameter's value is `varint(n + 1)` then n elements when
// has_array_prefix() (varint(0): NULL / absent), otherwise one element.
#pragma once

#include <cstdint>
#include <cstring>

#include "pilgrim/function_table.h"
#include "pilgrim/varint.h"

namespace pilgrim {
namespace sig {

// --- which part(s) of the signature a parameter goes to -------------------

inline bool is_request_create(const ParamInfo &p) {
  return p.role == Role::Handle && p.handle_kind == HandleKind::Request &&
         p.action == HandleAction::Create;
}

// In or InOut, plus every Buffer whatever its direction (the buffer id is
// taken before the call).
inline bool in_part_includes(const ParamInfo &p) {
  return p.dir == Direction::In || p.dir == Direction::InOut || p.role == Role::Buffer;
}

// Out or InOut, except Buffers and created requests.
inline bool out_part_includes(const ParamInfo &p) {
  return (p.dir == Direction::Out || p.dir == Direction::InOut) && p.role != Role::Buffer &&
         !is_request_create(p);
}

// Created requests: their ids come from a pool keyed by the rest of the
// signature, so they are appended last.
inline bool deferred_part_includes(const ParamInfo &p) { return is_request_create(p); }

// Whether the parameter's value starts with the array prefix varint(n + 1).
// StringArray, ArgvArray and Varargs never do (a StringArray / ArgvArray
// element carries its own count). Status pointers without kFlagArray are a
// single element (kStatusIgnored stands for MPI_STATUS_IGNORE).
inline bool has_array_prefix(const ParamInfo &p) {
  switch (p.role) {
  case Role::StringArray:
  case Role::ArgvArray:
  case Role::Varargs:
    return false;
  default:
    break;
  }
  if (p.flags & kFlagArray)
    return true;
  if (!(p.flags & kFlagPointer))
    return false;
  switch (p.role) {
  case Role::Value:
  case Role::Rank:
  case Role::Tag:
  case Role::Handle:
  case Role::Offset:
  case Role::Double:
  case Role::Callback:
  case Role::Address:
    return true;
  default:
    return false;
  }
}

// Elements per array entry: 3 for kFlagMatrix3 (n counts rows), else 1.
inline uint64_t elements_per_entry(const ParamInfo &p) { return (p.flags & kFlagMatrix3) ? 3 : 1; }

// --- array prefix ---------------------------------------------------------

constexpr uint64_t kArrayNull = 0; // NULL pointer / array absent at this rank / STATUSES_IGNORE
constexpr uint64_t array_prefix(uint64_t n) { return n + 1; }

// --- Rank -----------------------------------------------------------------

constexpr uint64_t kRankAnySource = 0;
constexpr uint64_t kRankProcNull = 1;
constexpr uint64_t kRankRoot = 2;
constexpr uint64_t kRankUndefined = 3;
constexpr uint64_t kRankFirstValue = 4;
// Absolute ranks are never negative, so the codes a negative "absolute" rank
// would take (4 + 4k + 2) carry the third kind, a Cartesian offset
// (cartesian_offset.h): code mod 4 is 0 absolute, 2 Cartesian, 1 or 3 relative.
constexpr uint64_t rank_absolute(int64_t rank) { return kRankFirstValue + 2 * zigzag_encode(rank); }
// y = the caller's displacement to the rank in its Cartesian communicator
constexpr uint64_t rank_cartesian(int64_t y) { return kRankFirstValue + 4 * zigzag_encode(y) + 2; }
// offset = rank - caller's rank in the same communicator / group
constexpr uint64_t rank_relative(int64_t offset) {
  return kRankFirstValue + 2 * zigzag_encode(offset) + 1;
}

// --- Tag ------------------------------------------------------------------

constexpr uint64_t kTagAny = 0;
constexpr uint64_t tag_value(int64_t tag) { return 1 + zigzag_encode(tag); }

// --- Handle (and Callback, same scheme) -----------------------------------

constexpr uint64_t kHandleNull = 0;
// k = index in the kind's predefined name table (predefined_handles.h)
constexpr uint64_t handle_predefined(uint64_t k) { return 2 * k + 1; }
// u = symbolic id from the kind's pool
constexpr uint64_t handle_user(uint64_t u) { return 2 * u + 2; }

constexpr uint64_t kCallbackNull = 0;
constexpr uint64_t callback_predefined(uint64_t k) { return 2 * k + 1; }
constexpr uint64_t callback_user(uint64_t u) { return 2 * u + 2; }

// --- Buffer ---------------------------------------------------------------

constexpr uint64_t kBufferNull = 0;
constexpr uint64_t kBufferInPlace = 1;
constexpr uint64_t kBufferBottom = 2;
constexpr uint64_t kBufferFirstId = 3;
constexpr uint64_t buffer_id(uint64_t u) { return kBufferFirstId + u; }

// --- Pointer --------------------------------------------------------------

constexpr uint64_t kPointerNull = 0;
constexpr uint64_t pointer_id(uint64_t u) { return 1 + u; }

// --- Address: varint(code) svarint(x) ---------------------------------------
// An MPI_Aint that may hold an absolute address (format version 4): a
// datatype displacement or lower bound, or the target displacement of a
// window (ParamInfo::ref). code 0: x is the value itself; code 2 + u: the
// address of memory id u (the id space of Buffer and Pointer codes) plus x
// bytes: in the caller's memory, or, in the target displacement of a dynamic
// window, in the target's. Code 1 is the runtime's placeholder for a target
// displacement resolved only at MPI_Finalize; it never appears in a file.

constexpr uint64_t kAddressValue = 0;
constexpr uint64_t kAddressPending = 1;
constexpr uint64_t kAddressFirstId = 2;
constexpr uint64_t address_id(uint64_t u) { return kAddressFirstId + u; }

// --- Offset (kFlagRankStride, version 7): svarint(stride) svarint(base) ----
// An MPI_Offset whose value is base + stride x the caller's rank in
// MPI_COMM_WORLD (docs/FORMAT.md §8.3, "Offsets that follow the rank").
// Stride 0: base is the value. Any (stride, base) that gives the value is
// valid. The reference runtime records (0, value) and at MPI_Finalize fits
// the line through its own value and the value its neighbor rank (rank - 1;
// rank 1 for rank 0) has at the same place (runtime/merge/rank_offsets.h), so
// that `a + b x rank` is (b, a) on every rank and a constant is (0, c).

struct OffsetCode {
  int64_t stride = 0;
  int64_t base = 0;
  friend constexpr bool operator==(const OffsetCode &x, const OffsetCode &y) {
    return x.stride == y.stride && x.base == y.base;
  }
};

// The line through (rank, value) and (neighbor, neighbor_value), neighbor =
// rank +- 1; (0, value) where it would overflow or the ranks are not
// neighbors. base + stride x rank is always `value`.
constexpr OffsetCode offset_fit(int64_t value, int64_t rank, int64_t neighbor_value,
                                int64_t neighbor) noexcept {
  const int64_t step = rank - neighbor;
  int64_t diff = 0, stride = 0, product = 0, base = 0;
  if ((step != 1 && step != -1) || __builtin_sub_overflow(value, neighbor_value, &diff) ||
      __builtin_mul_overflow(diff, step, &stride) ||
      __builtin_mul_overflow(stride, rank, &product) ||
      __builtin_sub_overflow(value, product, &base))
    return {0, value};
  return {stride, base};
}

// --- String / StringArray / ArgvArray: varint(len + 1) or 0 ---------------

constexpr uint64_t kStringNull = 0;

// --- Status ---------------------------------------------------------------

constexpr uint64_t kStatusIgnored = 0;   // MPI_STATUS_IGNORE
constexpr uint64_t kStatusEmpty = 1;     // nothing worth keeping (e.g. completed send)
constexpr uint64_t kStatusFull = 2;      // rank-coded source, tag-coded tag, svarint count
constexpr uint64_t kStatusCountOnly = 3; // svarint count (source and tag known from the call)
// MPI_STATUS_IGNORE passed to a wildcard receive, whose matched sender the
// tracer kept in a status of its own: rank-coded source (format version 5).
constexpr uint64_t kStatusSourceKept = 4;
// MPI_STATUS_IGNORE passed to a receive that named MPI_ANY_SOURCE or
// MPI_ANY_TAG (or to the completion of one), whose matched sender, tag and
// count the tracer kept in a status of its own: rank-coded source,
// tag-coded tag, svarint count, as kind 2 (format version 10; writers of
// version 10 write it where they wrote kind 4).
constexpr uint64_t kStatusMatchKept = 5;

// --- Opaque: one byte -------------------------------------------------------

constexpr uint8_t kOpaqueNull = 0;
constexpr uint8_t kOpaqueNonNull = 1;

// --- writers (caller guarantees room) ---------------------------------------

inline void put_double(uint8_t *&p, double v) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; ++i)
    *p++ = static_cast<uint8_t>(bits >> (8 * i));
}

inline void put_bytes(uint8_t *&p, const void *data, size_t n) noexcept {
  if (n)
    std::memcpy(p, data, n);
  p += n;
}

// Bytes put_string writes for `s` (NULL allowed).
inline size_t string_encoded_size(const char *s) noexcept {
  if (!s)
    return 1;
  const size_t n = std::strlen(s);
  return varint_size(n + 1) + n;
}

// String element: varint(len + 1) then the bytes (no NUL), or varint(0).
inline void put_string(uint8_t *&p, const char *s) noexcept {
  if (!s) {
    put_varint(p, kStringNull);
    return;
  }
  const size_t n = std::strlen(s);
  put_varint(p, n + 1);
  put_bytes(p, s, n);
}

// Status element (pass the already rank/tag-coded source and tag).
inline void put_status_full(uint8_t *&p, uint64_t source_code, uint64_t tag_code,
                            int64_t count_bytes) noexcept {
  put_varint(p, kStatusFull);
  put_varint(p, source_code);
  put_varint(p, tag_code);
  put_svarint(p, count_bytes);
}
inline void put_status_count_only(uint8_t *&p, int64_t count_bytes) noexcept {
  put_varint(p, kStatusCountOnly);
  put_svarint(p, count_bytes);
}

} // namespace sig
} // namespace pilgrim
