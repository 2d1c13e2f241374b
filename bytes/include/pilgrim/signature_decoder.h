// Decoding a signature (a CST entry's bytes) against the function table
// (docs/FORMAT.md, "Signature encoding"). Values are kept in their coded
// form where the code carries meaning (rank sentinels, relative ranks,
// predefined vs user handles); the model interprets them (value_codes.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/function_table.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

struct DecodedStatus {
  uint64_t kind = 0;        // sig::kStatusIgnored / Empty / Full / CountOnly / SourceKept / MatchKept
  uint64_t source_code = 0; // Full, SourceKept, MatchKept: rank-coded source
  uint64_t tag_code = 0;    // Full, MatchKept: tag-coded tag
  int64_t count_bytes = 0;  // Full, CountOnly, MatchKept
  // (What the kinds mean, e.g. whether a status holds a sender, is the
  // model's: StatusRef, decoded_call.h.)
};

struct DecodedElement {
  // Rank, Tag, Handle, Buffer, Pointer, Callback, Address: the element's code.
  // Opaque: 0 NULL / 1 non-NULL. String, StringArray: 0 NULL / 1 present.
  uint64_t code = 0;
  int64_t integer = 0; // Value, Offset; Address: the value (code 0) or the offset
  // Offset with kFlagRankStride (version 7): the value is integer + stride x
  // the caller's rank in MPI_COMM_WORLD (the model resolves it).
  int64_t stride = 0;
  double real = 0;      // Double
  std::string text;     // String (when code == 1)
  DecodedStatus status; // Status
  // StringArray (code == 1): its strings (String elements);
  // ArgvArray element: its StringArrays.
  std::vector<DecodedElement> items;
};

struct DecodedValue {
  bool array = false; // the value had an array prefix
  bool null = false;  // array prefix 0: NULL pointer / absent array / STATUSES_IGNORE
  std::vector<DecodedElement> elements; // Matrix3: 3 per row
};

struct DecodedParam {
  bool has_in = false;  // in_part: value before the call
  bool has_out = false; // out_part or deferred_part: value after the call
  DecodedValue in;
  DecodedValue out;
  // The value that best describes the parameter: `in` if present, else `out`.
  const DecodedValue *any() const { return has_in ? &in : has_out ? &out : nullptr; }
};

struct DecodedCall {
  uint16_t function_id = 0;
  const FunctionInfo *function = nullptr; // points into the lookup's table
  uint64_t thread_id = 0;
  std::vector<DecodedParam> params; // one per FunctionInfo parameter
  int64_t return_code = 0;
};

using FunctionLookup = std::function<const FunctionInfo *(uint16_t id)>;

// An Address element with the runtime's placeholder code 1
// (sig::kAddressPending): its bytes [begin, end) in the signature and the
// placeholder's index.
struct PendingAddress {
  size_t begin = 0, end = 0;
  int64_t index = 0;
};

// Throws TraceError on malformed bytes: truncation, overlong varints,
// an unknown function id, element counts larger than the bytes left,
// unknown codes (e.g. a Status kind > 4), trailing bytes. The placeholder
// Address code 1 is malformed too, unless `pending` is given: the runtime,
// which resolves placeholders at MPI_Finalize, gets them listed there.
DecodedCall decode_signature(const FunctionLookup &lookup, std::string_view sig,
                             std::vector<PendingAddress> *pending = nullptr);
DecodedCall decode_signature(const Trace &trace, std::string_view sig);

// An Offset element of format version 7 (kFlagRankStride): its bytes
// [begin, end) in the signature, its stride and base.
struct OffsetSpan {
  size_t begin = 0, end = 0;
  int64_t stride = 0, base = 0;
};
// decode_signature, listing the Offset elements of version 7 in `offsets`
// (the runtime fits them to the rank at MPI_Finalize).
DecodedCall decode_signature_offsets(const FunctionLookup &lookup, std::string_view sig,
                                     std::vector<OffsetSpan> &offsets);

// Only the leading function id (throws TraceError if unreadable).
uint16_t signature_function_id(std::string_view sig);

} // namespace pilgrim
