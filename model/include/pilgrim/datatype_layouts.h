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

// A bound as the record stores it (role Address): a number (code 0), or an
// absolute address (a type built on MPI_BOTTOM) as an offset into the
// memory its code names; unknown (NULL) for a datatype over several
// memories.
struct DatatypeBound {
  bool known = false;
  uint64_t code = 0;
  int64_t value = 0;
  bool operator==(const DatatypeBound &o) const {
    return known == o.known && code == o.code && value == o.value;
  }
};

struct DatatypeLayout {
  int64_t size = -1; // MPI_Type_size: the bytes of data one element holds
  DatatypeBound lb, ub, true_lb, true_ub;
  // ub - lb (MPI_Type_get_extent's extent), true_ub - true_lb; -1 when the
  // bounds are unknown (the datatype lies in several memories).
  int64_t extent() const { return distance(lb, ub); }
  int64_t true_extent() const { return distance(true_lb, true_ub); }
  bool operator==(const DatatypeLayout &o) const {
    return size == o.size && lb == o.lb && ub == o.ub && true_lb == o.true_lb &&
           true_ub == o.true_ub;
  }

private:
  static int64_t distance(const DatatypeBound &a, const DatatypeBound &b) {
    return a.known && b.known && a.code == b.code ? b.value - a.value : -1;
  }
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
