// What a synthetic call means: per parameter, the value the test gave it
// before the MPI call and the value the "MPI call" left in it, in the terms
// a trace can keep (docs/FORMAT.md §8): numbers, rank and tag sentinels,
// handles as null / predefined name / user handle, addresses, strings,
// statuses. The encoding round-trip test compares a decoded signature with
// this model (call_check.h).
#pragma once

#include "pilgrim/function_table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::enctest {

// The argument sets every function is driven with.
enum class Case : uint8_t {
  Several, // arrays of several elements, user handles, relative ranks, statuses kept
  Empty, // empty arrays, predefined handles, MPI_STATUS(ES)_IGNORE, MPI_PROC_NULL, MPI_IN_PLACE, ""
  Null,  // NULL pointers, null handles, MPI_ANY_SOURCE / MPI_ROOT, MPI_ANY_TAG
  One,   // arrays of one, other user handles, Cartesian ranks, MPI_ANY_TAG statuses, inout
         // handles set to null (requests completed), a failed return code
};
constexpr Case kCases[] = {Case::Several, Case::Empty, Case::Null, Case::One};
const char *case_name(Case c);

// What a Handle, Buffer, Pointer or Callback element names.
enum class Sym : uint8_t { None, Null, Predefined, User, InPlace, Bottom };

struct Element {
  int64_t integer = 0;  // Value, Offset, Rank, Tag (sentinels as mpi.h has them); Opaque 0/1
  double real = 0;      // Double
  Sym sym = Sym::None;  // Handle, Buffer, Pointer, Callback
  std::string name;     // Sym::Predefined: its name in the format's table
  uint64_t key = 0;     // Handle: its value (handle_key); Buffer, Pointer, Callback: the address
  bool present = false; // String, StringArray, ArgvArray: not NULL; Status: not ignored
  std::string text;     // String
  std::vector<Element> items; // StringArray: its Strings; ArgvArray: its StringArrays
  int source = 0, tag = 0;    // Status
  int64_t count = 0;          // Status: count in bytes (key: 1 for MPI_STATUS_IGNORE, 0 for NULL)
};

// A parameter's value at one moment. With an array prefix: `null` for a
// NULL / absent array, else the elements (3 per row for kFlagMatrix3).
// Without: exactly one element, which says itself whether it is NULL.
struct Value {
  bool null = false;
  std::vector<Element> elements;
};

// The caller's rank in a communicator, group or window, and its Cartesian
// grid if it has one: what a relative or Cartesian rank code is resolved with.
struct RankBase {
  bool known = false;
  int rank = -1;
  std::vector<int> dims, periods; // empty: no grid
};

struct ParamModel {
  Value before, after; // in_part / out_part (or deferred_part) values
  RankBase base;       // Rank: resolved against the `ref` parameter
  bool absent = false; // significant only at the root and the caller is not, or written only
                       // when a flag is true and it is false: stored as absent
};

struct CallModel {
  uint16_t function_id = 0;
  std::string function_name;
  Case c = Case::Several;
  int64_t return_code = 0;
  std::vector<ParamModel> params;
  RankBase status_base; // a status's source: the first by-value communicator, else MPI_COMM_WORLD
};

} // namespace pilgrim::enctest
