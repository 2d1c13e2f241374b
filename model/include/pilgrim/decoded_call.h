// The decoded call: what every consumer of a trace reads (dump, diff,
// verify, stats, proxygen, the reader library). One call of a rank, with
// every argument typed and interpreted: ranks resolved to absolute and
// relative (the epoch rule of docs/FORMAT.md §7.7 applied once, by the
// CallContext the call was resolved in), handles as kind plus id or
// predefined name, buffers and memory as ids, statuses, strings and arrays.
// Nothing here needs a `decode_*_code` function: the codes stay reachable
// (`coded`) for the few tools that compare bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/call_context.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {

// A rank as the call names it (a Rank element, or a status's source).
struct RankRef {
  RankCode::Kind kind = RankCode::Undefined;
  // Absolute: the rank. Relative: the offset from the caller's rank.
  // Cartesian: the caller's offset y in its communicator's grid.
  int64_t offset = 0;
  // The rank in its communicator (or window), whatever the coding: always
  // for Absolute; for Relative and Cartesian when the caller's rank (and
  // grid) are known at this call; -1 otherwise and for sentinels.
  int64_t rank = -1;
  // The caller's rank in the same communicator or window; -1 unknown.
  int64_t caller = -1;
  // Cartesian: the communicator's grid at this call; nullptr unknown.
  const CartTopology *grid = nullptr;

  bool sentinel() const { return rank_sentinel_name(kind) != nullptr; }
  // MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT, MPI_UNDEFINED; nullptr otherwise.
  const char *sentinel_name() const { return rank_sentinel_name(kind); }
  bool known() const { return rank >= 0; }
};

// A tag: a number, or MPI_ANY_TAG.
struct TagRef {
  bool any = false;
  int64_t tag = 0;
};

// A handle (or a callback: a Callback element is a handle of its own kind).
struct HandleRef {
  HandleKind handle_kind = HandleKind::None;
  HandleCode::Kind kind = HandleCode::Null;
  // Predefined: the index in the name table (FORMAT.md §9); User: the
  // symbolic id.
  uint64_t id = 0;
  // Predefined: its MPI name (MPI_COMM_WORLD, MPI_INT, MPI_COMM_DUP_FN);
  // nullptr for a null handle, a user one, or an index this build does not
  // know.
  const char *name = nullptr;
  // A datatype (handle_kind Datatype): its size in bytes (MPI_Type_size) at
  // this call: a predefined one's from datatype_sizes.h, a user one's from
  // its layout record (pilgrim_datatype_layout, format version 5) as the
  // rank's walk applied it; -1 unknown; -2 the null datatype ("size 0, valid
  // only for zero counts"). -1 for other kinds.
  int64_t size = -1;

  bool null() const { return kind == HandleCode::Null; }
  bool predefined() const { return kind == HandleCode::Predefined; }
  bool user() const { return kind == HandleCode::User; }
};

// A Status element.
struct StatusRef {
  uint64_t kind = 0;       // sig::kStatusIgnored / Empty / Full / CountOnly / SourceKept / MatchKept
  RankRef source;          // Full, SourceKept, MatchKept: the matched sender
  TagRef tag;              // Full, MatchKept
  int64_t count_bytes = 0; // Full, CountOnly, MatchKept
  // Whether it holds the sender (kinds Full, SourceKept and MatchKept).
  bool has_source() const {
    return kind == sig::kStatusFull || kind == sig::kStatusSourceKept ||
           kind == sig::kStatusMatchKept;
  }
  // Whether it holds the tag and count as MPI wrote them (Full, MatchKept).
  bool has_match() const { return kind == sig::kStatusFull || kind == sig::kStatusMatchKept; }
  // Whether the application passed MPI_STATUS_IGNORE (kinds Ignored,
  // SourceKept and MatchKept).
  bool ignored() const {
    return kind == sig::kStatusIgnored || kind == sig::kStatusSourceKept ||
           kind == sig::kStatusMatchKept;
  }
};

// One element of an argument's value, by the parameter's role:
//  Rank -> rank; Tag -> tag; Handle, Callback -> handle; Status -> status;
//  Value -> integer; Offset -> integer (the value at this rank; where the
//  world rank is unknown, the value at rank 0), rank_stride (its coefficient
//  of the caller's rank in MPI_COMM_WORLD: the value is
//  integer + rank_stride x rank in the proxy's terms; 0 where it does not
//  follow the rank) and offset_known; Double -> real; Address -> memory (the memory
//  id, -1 for a plain value) and integer (the value, or the offset into the
//  memory); Buffer -> memory (-1 NULL, -2 MPI_IN_PLACE, -3 MPI_BOTTOM);
//  Pointer -> memory (-1 NULL); String -> text (null: NULL);
//  StringArray, ArgvArray -> items (null: NULL); Opaque -> null.
struct CallElement {
  RankRef rank;
  TagRef tag;
  HandleRef handle;
  StatusRef status;
  int64_t integer = 0;
  double real = 0;
  int64_t memory = -1;
  bool null = false;
  std::string text;
  std::vector<CallElement> items;
  const DecodedElement *coded = nullptr; // the stored codes
  // Reader 1.1 (format version 7), appended so that 1.0's members keep their
  // places (docs/READER.md, "Compatibility"):
  // Offset: the value is rank_base + rank_stride x the caller's rank in
  // MPI_COMM_WORLD (FORMAT.md §8.3); offset_known: whether `integer` is that
  // value at this call (the world rank is known), else it is rank_base.
  int64_t rank_stride = 0;
  int64_t rank_base = 0;
  bool offset_known = true;
  // Offset: the value at world rank `world_rank` (a CallElement resolved
  // without a rank, as proxygen does); throws TraceError where it does not
  // fit in 64 bits.
  int64_t offset_at(int64_t world_rank) const;
};

constexpr int64_t kMemoryNull = -1;
constexpr int64_t kMemoryInPlace = -2; // Buffer: MPI_IN_PLACE
constexpr int64_t kMemoryBottom = -3;  // Buffer: MPI_BOTTOM

// A parameter's value before (in) or after (out) the call.
struct CallValue {
  bool array = false;                // the value had an array prefix
  bool null = false;                 // a NULL pointer / absent array / MPI_STATUSES_IGNORE
  std::vector<CallElement> elements; // Matrix3: 3 per row
};

// Whether a Status value is MPI_STATUSES_IGNORE with the senders of its
// wildcard receives kept (format version 5; with tags and counts, 10): an
// array with an element of kind SourceKept or MatchKept, whose other
// elements are kind Ignored.
bool kept_sources(const CallValue &v);

// One parameter of the call.
struct CallArg {
  const ParamInfo *param = nullptr; // name, role, direction, handle kind, flags
  bool has_in = false;
  bool has_out = false;
  CallValue in;
  CallValue out;
  // The value that best describes the parameter: `in` if present, else `out`.
  const CallValue *any() const { return has_in ? &in : has_out ? &out : nullptr; }
  Role role() const { return param ? param->role : Role::Value; }
};

struct Call {
  uint16_t function_id = 0;
  const FunctionInfo *function = nullptr; // nullptr: the trace has no row for it
  uint64_t thread = 0;
  int64_t return_code = 0;
  std::vector<CallArg> args;          // one per FunctionInfo parameter
  const DecodedCall *coded = nullptr; // the stored codes (outlives this Call)
  // (Start and end times come with the timing issue.)

  const char *name() const { return function ? function->name : nullptr; }
  // The argument of the parameter named `param` (as in the function table);
  // nullptr when the function has none.
  const CallArg *arg(const char *param) const;
};

// `coded` resolved in `ctx` (its position in the rank's walk; an empty
// context resolves only MPI_COMM_WORLD-free codes: relative ranks stay
// relative). The result points into `coded`, which must outlive it.
Call resolve_call(const DecodedCall &coded, const CallContext &ctx = {});
// The same, into `call`, reusing its storage (its vectors and strings): a
// walk that re-resolves calls allocates only when a call is larger than the
// one it replaces.
void resolve_call_into(Call &call, const DecodedCall &coded, const CallContext &ctx = {});

// The request element that status `element` of Status argument `param`
// belongs to, in a call that completes requests (status_request() of
// call_context.h, on the decoded call); nullptr when none.
const CallElement *status_request(const Call &call, size_t param, size_t element);

// Interpreting one code (the building blocks of resolve_call).
RankRef resolve_rank(uint64_t rank_code, const RankBase &base);
TagRef resolve_tag(uint64_t tag_code);
HandleRef resolve_handle(HandleKind kind, uint64_t handle_code);
HandleRef resolve_callback(uint64_t callback_code);

} // namespace pilgrim
