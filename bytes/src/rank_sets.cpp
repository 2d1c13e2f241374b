#include "pilgrim/rank_sets.h"

#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

// Members' span: last member - first + 1.
uint64_t extent(const std::vector<RankDim> &dims) {
  uint64_t e = 1;
  for (const RankDim &d : dims)
    e += static_cast<uint64_t>(d.stride) * (d.count - 1);
  return e;
}

bool same_dims(const std::vector<RankDim> &a, const std::vector<RankDim> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].count != b[i].count || a[i].stride != b[i].stride)
      return false;
  return true;
}

} // namespace

std::vector<RankBox> boxes_from_ranges(const std::vector<std::pair<uint32_t, uint32_t>> &ranges) {
  std::vector<RankBox> items;
  for (const auto &r : ranges) {
    RankBox b;
    b.first = r.first;
    if (r.second > 1)
      b.dims.push_back(RankDim{r.second, 1});
    items.push_back(std::move(b));
  }
  for (int level = 0; level < 3 && items.size() > 1; ++level) {
    std::vector<RankBox> out;
    size_t i = 0;
    while (i < items.size()) {
      size_t j = i + 1;
      uint64_t gap = 0;
      if (j < items.size() && same_dims(items[j].dims, items[i].dims)) {
        gap = static_cast<uint64_t>(items[j].first) - items[i].first;
        if (gap >= extent(items[i].dims) && gap <= UINT32_MAX) {
          while (j + 1 < items.size() && same_dims(items[j + 1].dims, items[i].dims) &&
                 static_cast<uint64_t>(items[j + 1].first) - items[j].first == gap)
            ++j;
          ++j;
        } else {
          j = i + 1;
        }
      }
      RankBox b = items[i];
      if (j - i > 1)
        b.dims.push_back(RankDim{static_cast<uint32_t>(j - i), static_cast<uint32_t>(gap)});
      out.push_back(std::move(b));
      i = j;
    }
    if (out.size() == items.size())
      break;
    items = std::move(out);
  }
  return items;
}

void put_box(ByteWriter &w, const RankBox &box) {
  w.varint(box.first);
  w.varint(box.dims.size());
  for (const RankDim &d : box.dims) {
    w.varint(d.count);
    w.varint(d.stride);
  }
}

RankBox get_box(ByteReader &r, uint32_t nranks) {
  RankBox b;
  const uint64_t first = r.varint();
  const uint64_t ndims = r.varint();
  if (ndims > 8)
    r.fail("rank set with " + std::to_string(ndims) + " dimensions (at most 8)");
  if (first >= nranks)
    r.fail("rank set starts at rank " + std::to_string(first) + " of " + std::to_string(nranks));
  b.first = static_cast<uint32_t>(first);
  uint64_t span = 1;
  for (uint64_t k = 0; k < ndims; ++k) {
    const uint64_t count = r.varint(), stride = r.varint();
    if (count == 0 || stride == 0 || count > nranks || stride > nranks)
      r.fail("rank set dimension " + std::to_string(k) + ": bad count or stride");
    if (stride < span)
      r.fail("rank set dimension " + std::to_string(k) + ": stride " + std::to_string(stride) +
             " overlaps the " + std::to_string(span) + " ranks inside it");
    span += stride * (count - 1);
    if (first + span > nranks)
      r.fail("rank set reaches past rank " + std::to_string(nranks - 1));
    b.dims.push_back(RankDim{static_cast<uint32_t>(count), static_cast<uint32_t>(stride)});
  }
  return b;
}

void append_runs(const RankBox &box, std::vector<std::pair<uint32_t, uint32_t>> &runs,
                 size_t max_runs) {
  // The innermost dimension with stride 1 is one run; the others enumerate.
  size_t outer_begin = 0;
  uint32_t run = 1;
  if (!box.dims.empty() && box.dims[0].stride == 1) {
    run = box.dims[0].count;
    outer_begin = 1;
  }
  uint64_t nruns = 1;
  for (size_t k = outer_begin; k < box.dims.size(); ++k)
    if (__builtin_mul_overflow(nruns, box.dims[k].count, &nruns) || nruns > max_runs)
      throw TraceError("rank sets expand to more than " + std::to_string(max_runs) + " runs");
  if (runs.size() + nruns > max_runs)
    throw TraceError("rank sets expand to more than " + std::to_string(max_runs) + " runs");
  runs.reserve(runs.size() + static_cast<size_t>(nruns));
  std::vector<uint32_t> index(box.dims.size(), 0);
  for (;;) {
    uint64_t start = box.first;
    for (size_t k = outer_begin; k < box.dims.size(); ++k)
      start += static_cast<uint64_t>(index[k]) * box.dims[k].stride;
    runs.emplace_back(static_cast<uint32_t>(start), run);
    size_t k = outer_begin;
    while (k < box.dims.size() && ++index[k] == box.dims[k].count)
      index[k++] = 0;
    if (k == box.dims.size())
      return;
  }
}

} // namespace pilgrim
