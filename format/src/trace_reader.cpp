#include "pilgrim/trace_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "pilgrim/file_layout.h"
#include "pilgrim/function_table_codec.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/timing_codec.h"
#include "pilgrim/trace_container.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

std::string read_file(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    throw TraceError(path + ": cannot open: " + std::strerror(errno));
  std::string data;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    data.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  const int err = errno;
  std::fclose(f);
  if (failed)
    throw TraceError(path + ": read failed: " + std::strerror(err));
  return data;
}

} // namespace

Trace read_trace_from_memory(std::string_view bytes, const std::string &name) {
  const Container c = parse_container(bytes, name);
  auto fail = [&](const std::string &message) -> void { throw TraceError(name + ": " + message); };

  int meta = -1, functions = -1;
  for (size_t i = 0; i < c.sections.size(); ++i) {
    const SectionEntry &e = c.sections[i];
    switch (static_cast<SectionType>(e.type)) {
    case SectionType::Meta:
      if (meta >= 0)
        fail(c.label(i) + ": second META section");
      meta = static_cast<int>(i);
      break;
    case SectionType::Functions:
      if (functions >= 0)
        fail(c.label(i) + ": second FUNCTIONS section");
      functions = static_cast<int>(i);
      break;
    case SectionType::Rank:
    case SectionType::Timing:
      break;
    default:
      if (e.flags & kSectionCritical)
        fail(c.label(i) + ": unsupported critical section type " + std::to_string(e.type));
      break; // ancillary section of a later writer: skip
    }
  }
  if (meta < 0)
    fail("no META section");
  if (functions < 0)
    fail("no FUNCTIONS section");

  Trace trace;
  {
    const std::string payload = c.payload(static_cast<size_t>(meta));
    try {
      trace.header = decode_meta(payload);
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(static_cast<size_t>(meta)), e);
    }
  }
  trace.header.version = c.version;

  // Map ranks to sections before allocating anything per rank: nranks
  // cannot exceed the number of RANK sections.
  const uint32_t nranks = trace.header.nranks;
  size_t rank_sections = 0;
  for (const SectionEntry &e : c.sections)
    if (e.type == static_cast<uint16_t>(SectionType::Rank))
      ++rank_sections;
  if (rank_sections != nranks)
    fail("META says " + std::to_string(nranks) + " ranks but the file has " +
         std::to_string(rank_sections) + " RANK sections");
  std::vector<int64_t> section_of_rank(nranks, -1);
  for (size_t i = 0; i < c.sections.size(); ++i) {
    const SectionEntry &e = c.sections[i];
    if (e.type != static_cast<uint16_t>(SectionType::Rank))
      continue;
    if (e.rank >= nranks)
      fail(c.label(i) + ": rank out of range (" + std::to_string(nranks) + " ranks)");
    if (section_of_rank[e.rank] >= 0)
      fail(c.label(i) + ": second RANK section for rank " + std::to_string(e.rank));
    section_of_rank[e.rank] = static_cast<int64_t>(i);
  }
  std::vector<int64_t> timing_of_rank(nranks, -1);
  for (size_t i = 0; i < c.sections.size(); ++i) {
    const SectionEntry &e = c.sections[i];
    if (e.type != static_cast<uint16_t>(SectionType::Timing))
      continue;
    if (e.rank >= nranks)
      fail(c.label(i) + ": rank out of range (" + std::to_string(nranks) + " ranks)");
    if (timing_of_rank[e.rank] >= 0)
      fail(c.label(i) + ": second TIMING section for rank " + std::to_string(e.rank));
    timing_of_rank[e.rank] = static_cast<int64_t>(i);
  }

  {
    const std::string payload = c.payload(static_cast<size_t>(functions));
    try {
      trace.functions = decode_function_table(payload);
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(static_cast<size_t>(functions)), e);
    }
  }

  trace.ranks.resize(nranks);
  for (uint32_t r = 0; r < nranks; ++r) {
    const size_t s = static_cast<size_t>(section_of_rank[r]);
    RankTrace &rank = trace.ranks[r];
    const std::string payload = c.payload(s);
    try {
      rank = parse_rank(payload);
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(s), e);
    }
    if (timing_of_rank[r] >= 0) {
      const size_t ts = static_cast<size_t>(timing_of_rank[r]);
      try {
        apply_timing(rank, c.payload(ts));
      } catch (const TraceError &e) {
        rethrow_with_context(name + ": " + c.label(ts), e);
      }
    }
    for (size_t i = 0; i < rank.cst.size(); ++i) {
      try {
        const uint16_t id = signature_function_id(rank.cst[i].signature);
        if (!trace.function(id))
          throw TraceError("unknown function id " + std::to_string(id));
      } catch (const TraceError &e) {
        rethrow_with_context(name + ": " + c.label(s) + ": CST entry " + std::to_string(i), e);
      }
    }
  }
  return trace;
}

Trace read_trace(const std::string &path) { return read_trace_from_memory(read_file(path), path); }

} // namespace pilgrim
