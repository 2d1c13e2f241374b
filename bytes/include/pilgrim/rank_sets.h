// Sets of ranks as regular boxes, so that which ranks have which grammar (or
// which communicator table) takes the same few bytes at any scale: a 2-D
// stencil's interior ranks are one box (a run of x ranks, repeated every px
// ranks, y times), however large the grid. docs/FORMAT.md §7.5.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/byte_io.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

struct RankDim {
  uint32_t count = 1;
  uint32_t stride = 1;
};

// { first + sum_k i_k * dims[k].stride : 0 <= i_k < dims[k].count }, dims
// innermost first; each stride is at least the extent of the dims inside it,
// so the members are distinct and increasing.
struct RankBox {
  uint32_t first = 0;
  std::vector<RankDim> dims;
};

// The boxes covering a sorted list of disjoint ranges (of one key), found
// greedily: runs, then runs repeated at a constant stride, and so on up to
// four dimensions.
std::vector<RankBox> boxes_from_ranges(const std::vector<std::pair<uint32_t, uint32_t>> &ranges);

// box := varint(first) varint(ndims) (varint(count) varint(stride)){ndims}
void put_box(ByteWriter &w, const RankBox &box);
// Reads and checks a box (ndims <= 8, counts and strides >= 1, nesting, all
// members < nranks); throws TraceError.
RankBox get_box(ByteReader &r, uint32_t nranks);
// Appends the box's members as (first, count) runs; throws TraceError when
// `runs` would exceed `max_runs`.
void append_runs(const RankBox &box, std::vector<std::pair<uint32_t, uint32_t>> &runs,
                 size_t max_runs);

} // namespace pilgrim
