// The layouts of a rank's user datatypes, from the tracer's fact records
// (pilgrim_datatype_layout, function id 0x3E00, docs/FORMAT.md §8.5): a
// trace of version 5 states each datatype's size, bounds and extents right
// after the call that committed (or duplicated) it. A reader walking a
// rank's calls in order applies each record; a datatype id freed and
// created again gets the layout of its next record.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "pilgrim/signature_decoder.h"

namespace pilgrim {

struct DatatypeLayout {
  int64_t size = -1; // MPI_Type_size: the bytes of data one element holds
  int64_t extent = 0, true_extent = 0;
  // The lower bounds; an absolute address (a type built on MPI_BOTTOM) is
  // its offset from the memory its Address code names (lb_code != 0).
  int64_t lb = 0, true_lb = 0;
  uint64_t lb_code = 0, true_lb_code = 0;
};

// Whether `call` is a datatype layout record (its id, and a row with
// `datatype` and `size` as the record's rows have them); if so, the handle
// code of its datatype and its layout.
bool datatype_layout_record(const DecodedCall &call, uint64_t &datatype_code,
                            DatatypeLayout &layout);

class DatatypeLayouts {
public:
  // Takes the layout of a datatype layout record; true when that changed
  // what find() answers.
  bool apply(const DecodedCall &call);
  // The layout of the datatype with this handle code, nullptr when no
  // record stated it.
  const DatatypeLayout *find(uint64_t datatype_code) const;

private:
  std::unordered_map<uint64_t, DatatypeLayout> by_code_;
};

} // namespace pilgrim
