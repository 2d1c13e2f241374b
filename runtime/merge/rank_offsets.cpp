#include "rank_offsets.h"

#include "signatures/generated_function_table.h"
#include "pilgrim/byte_io.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"
#include "signatures/verify_log.h"

#include <functional>
#include <map>
#include <string_view>
#include <utility>

namespace pilgrim::rt {

namespace {

constexpr int kTag = 9; // on the runtime's private communicator only

// One CST entry with offsets: where it is among the entries of its shape
// (the signature without its offsets), and its offsets' spans.
struct Entry {
  uint64_t shape = 0;
  uint64_t nth = 0;
  size_t index = 0; // in the rank's signatures
  std::vector<OffsetSpan> spans;
};

uint64_t shape_hash(std::string_view sig, const std::vector<OffsetSpan> &spans) {
  std::string shape;
  size_t from = 0;
  for (const OffsetSpan &s : spans) {
    shape.append(sig.data() + from, s.begin - from);
    shape.push_back('\0');
    from = s.end;
  }
  shape.append(sig.data() + from, sig.size() - from);
  // The same function on every rank: one library, one binary.
  return std::hash<std::string>{}(shape);
}

std::vector<Entry> entries_with_offsets(const std::vector<std::string> &signatures) {
  std::vector<Entry> out;
  std::map<uint64_t, uint64_t> seen; // shape -> entries so far
  for (size_t i = 0; i < signatures.size(); ++i) {
    Entry e;
    try {
      decode_signature_offsets([](uint16_t id) { return generated_function(id); }, signatures[i],
                               e.spans);
    } catch (const std::exception &) {
      continue; // the runtime wrote it: cannot happen, and must not stop MPI_Finalize
    }
    if (e.spans.empty())
      continue;
    e.shape = shape_hash(signatures[i], e.spans);
    e.nth = seen[e.shape]++;
    e.index = i;
    out.push_back(std::move(e));
  }
  return out;
}

// What the neighbor needs: per entry with offsets, its shape, its place
// among the entries of that shape, and its offsets' values.
std::string serialize(const std::vector<Entry> &entries) {
  std::string out;
  ByteWriter w(out);
  for (const Entry &e : entries) {
    w.u64le(e.shape);
    w.varint(e.nth);
    w.varint(e.spans.size());
    for (const OffsetSpan &s : e.spans)
      w.svarint(s.base);
  }
  return out;
}

using Values = std::map<std::pair<uint64_t, uint64_t>, std::vector<int64_t>>;

Values parse(std::string_view bytes) {
  Values out;
  try {
    ByteReader r(bytes);
    while (!r.at_end()) {
      const uint64_t shape = r.u64le(), nth = r.varint();
      const uint64_t n = r.count(1, "offsets");
      std::vector<int64_t> v(static_cast<size_t>(n));
      for (int64_t &x : v)
        x = r.svarint();
      out.emplace(std::make_pair(shape, nth), std::move(v));
    }
  } catch (const TraceError &) {
    // Our own bytes: cannot happen; what was read is kept.
  }
  return out;
}

std::string exchange(const std::string &mine, MPI_Comm comm, int rank, int size, int neighbor) {
  // Rank r sends to r + 1, and rank 1 to rank 0 too: each rank hears from
  // its neighbor.
  MPI_Request reqs[2];
  int nreqs = 0;
  const int n = static_cast<int>(mine.size());
  if (rank + 1 < size)
    PMPI_Isend(mine.data(), n, MPI_BYTE, rank + 1, kTag, comm, &reqs[nreqs++]);
  if (rank == 1)
    PMPI_Isend(mine.data(), n, MPI_BYTE, 0, kTag, comm, &reqs[nreqs++]);
  MPI_Status st;
  PMPI_Probe(neighbor, kTag, comm, &st);
  int count = 0;
  PMPI_Get_count(&st, MPI_BYTE, &count);
  std::string theirs(static_cast<size_t>(count), '\0');
  PMPI_Recv(theirs.data(), count, MPI_BYTE, neighbor, kTag, comm, MPI_STATUS_IGNORE);
  PMPI_Waitall(nreqs, reqs, MPI_STATUSES_IGNORE);
  return theirs;
}

std::string offset_element(const sig::OffsetCode &c) {
  std::string out;
  ByteWriter w(out);
  w.svarint(c.stride);
  w.svarint(c.base);
  return out;
}

} // namespace

void RankOffsets::fit(const std::vector<std::string> &signatures, MPI_Comm comm, int rank,
                      int size) {
  fitted_.clear();
  if (size < 2)
    return;
  const std::vector<Entry> entries = entries_with_offsets(signatures);
  const int neighbor = rank == 0 ? 1 : rank - 1;
  const Values theirs = parse(exchange(serialize(entries), comm, rank, size, neighbor));
  for (const Entry &e : entries) {
    const auto it = theirs.find({e.shape, e.nth});
    if (it == theirs.end() || it->second.size() != e.spans.size())
      continue;
    const std::string &sig = signatures[e.index];
    std::string out;
    size_t from = 0;
    bool changed = false;
    for (size_t k = 0; k < e.spans.size(); ++k) {
      const OffsetSpan &s = e.spans[k];
      const sig::OffsetCode c = sig::offset_fit(s.base, rank, it->second[k], neighbor);
      changed |= c.stride != 0;
      out.append(sig, from, s.begin - from);
      out += offset_element(c);
      from = s.end;
    }
    out.append(sig, from, std::string::npos);
    if (changed)
      fitted_.emplace(sig, std::move(out));
  }
}

void RankOffsets::rewrite(std::string &sig) const {
  if (fitted_.empty())
    return;
  const auto it = fitted_.find(sig);
  if (it != fitted_.end())
    sig = it->second;
}

void RankOffsets::rewrite_log(std::vector<uint8_t> &log) const {
  if (fitted_.empty())
    return;
  rewrite_logged_signatures(log, [this](std::string &sig) { rewrite(sig); });
}

RankOffsets &rank_offsets() {
  static RankOffsets registry;
  return registry;
}

} // namespace pilgrim::rt
