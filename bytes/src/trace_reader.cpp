#include "pilgrim/trace_reader.h"
#include "pilgrim/count_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "pilgrim/file_layout.h"
#include "pilgrim/function_table_codec.h"
#include "pilgrim/merged_codec.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/site_codec.h"
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

namespace {

// Section indices of the types that occur at most once (-1 when absent).
struct Singles {
  int meta = -1, functions = -1, merged_cst = -1, merged_grammar = -1, rank_map = -1,
      rank_comms = -1, merged_timing = -1;
};

void read_per_rank(const Container &c, const std::string &name, Trace &trace) {
  auto fail = [&](const std::string &message) -> void { throw TraceError(name + ": " + message); };
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
  std::vector<int64_t> section_of_rank(nranks, -1), timing_of_rank(nranks, -1);
  for (size_t i = 0; i < c.sections.size(); ++i) {
    const SectionEntry &e = c.sections[i];
    const bool rank = e.type == static_cast<uint16_t>(SectionType::Rank);
    if (!rank && e.type != static_cast<uint16_t>(SectionType::Timing))
      continue;
    if (e.rank >= nranks)
      fail(c.label(i) + ": rank out of range (" + count_text(nranks, "rank") + ")");
    std::vector<int64_t> &of = rank ? section_of_rank : timing_of_rank;
    if (of[e.rank] >= 0)
      fail(c.label(i) + ": second " + (rank ? "RANK" : "TIMING") + " section for rank " +
           std::to_string(e.rank));
    of[e.rank] = static_cast<int64_t>(i);
  }

  std::vector<RankTrace> ranks(nranks);
  for (uint32_t r = 0; r < nranks; ++r) {
    const size_t s = static_cast<size_t>(section_of_rank[r]);
    RankTrace &rank = ranks[r];
    try {
      rank = parse_rank(c.payload(s));
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(s), e);
    }
    if (timing_of_rank[r] >= 0) {
      const size_t ts = static_cast<size_t>(timing_of_rank[r]);
      try {
        apply_timing(rank.cst, c.payload(ts), c.version);
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
  trace.merged = merged_from_ranks(std::move(ranks));
}

// `sites`: META key 8's value, "" when absent.
void read_merged(const Container &c, const std::string &name, const Singles &at,
                 const std::string &sites, Trace &trace) {
  auto fail = [&](const std::string &message) -> void { throw TraceError(name + ": " + message); };
  for (size_t i = 0; i < c.sections.size(); ++i)
    if (c.sections[i].type == static_cast<uint16_t>(SectionType::Rank) ||
        c.sections[i].type == static_cast<uint16_t>(SectionType::Timing))
      fail(c.label(i) + ": per-rank section in a version-" + std::to_string(c.version) + " file");
  if (at.merged_cst < 0)
    fail("no MERGED_CST section");
  if (at.merged_grammar < 0)
    fail("no MERGED_GRAMMAR section");
  if (at.rank_map < 0)
    fail("no RANK_GRAMMAR_MAP section");
  MergedTrace &m = trace.merged;
  auto parse = [&](int index, auto &&body) {
    const size_t i = static_cast<size_t>(index);
    try {
      body(c.payload(i));
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(i), e);
    }
  };
  parse(at.merged_cst, [&](const std::string &p) { m.cst = parse_merged_cst(p); });
  parse(at.merged_grammar,
        [&](const std::string &p) { parse_merged_grammar(p, m.rules, m.roots); });
  parse(at.rank_map,
        [&](const std::string &p) { m.rank_map = parse_rank_map(p, trace.header.nranks); });
  if (at.rank_comms >= 0)
    parse(at.rank_comms, [&](const std::string &p) {
      m.comms = parse_rank_comms(p, trace.header.nranks, trace.header.version);
    });
  if (!sites.empty()) {
    try {
      decode_sites(sites, m.sites, m.cst);
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(static_cast<size_t>(at.meta)) + ": key 8 (sites)",
                           e);
    }
  }
  try {
    check_merged(m, trace.header.nranks);
  } catch (const TraceError &e) {
    rethrow_with_context(name, e);
  }
  derive_counts(m);
  if (c.version >= kFirstRankTimingVersion) {
    // Kept as stored: decoded, and checked, only when timing is read.
    for (size_t i = 0; i < c.sections.size(); ++i) {
      const SectionEntry &e = c.sections[i];
      if (e.type != static_cast<uint16_t>(SectionType::RankTiming))
        continue;
      if (e.rank >= trace.header.nranks)
        fail(c.label(i) + ": rank out of range (" + count_text(trace.header.nranks, "rank") + ")");
      if (trace.rank_timing.count(e.rank))
        fail(c.label(i) + ": second RANK_TIMING section for rank " + std::to_string(e.rank));
      trace.rank_timing[e.rank] = c.payload(i);
    }
  }
  if (at.merged_timing >= 0)
    parse(at.merged_timing, [&](const std::string &p) { apply_timing(m.cst, p, c.version); });
  for (size_t i = 0; i < m.cst.size(); ++i) {
    try {
      const uint16_t id = signature_function_id(m.cst[i].signature);
      if (!trace.function(id))
        throw TraceError("unknown function id " + std::to_string(id));
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(static_cast<size_t>(at.merged_cst)) +
                               ": CST entry " + std::to_string(i),
                           e);
    }
  }
}

} // namespace

Trace read_trace_from_memory(std::string_view bytes, const std::string &name) {
  const Container c = parse_container(bytes, name);
  auto fail = [&](const std::string &message) -> void { throw TraceError(name + ": " + message); };

  Singles at;
  for (size_t i = 0; i < c.sections.size(); ++i) {
    const SectionEntry &e = c.sections[i];
    int *slot = nullptr;
    switch (static_cast<SectionType>(e.type)) {
    case SectionType::Meta:
      slot = &at.meta;
      break;
    case SectionType::Functions:
      slot = &at.functions;
      break;
    case SectionType::MergedCst:
      slot = &at.merged_cst;
      break;
    case SectionType::MergedGrammar:
      slot = &at.merged_grammar;
      break;
    case SectionType::RankGrammarMap:
      slot = &at.rank_map;
      break;
    case SectionType::RankComms:
      slot = &at.rank_comms;
      break;
    case SectionType::MergedTiming:
      slot = &at.merged_timing;
      break;
    case SectionType::SitesDraft:
      fail(c.label(i) + ": section type 22 is reserved (an unreleased draft of format version 8 "
                        "kept call sites there); trace the program again");
      break;
    case SectionType::Rank:
    case SectionType::Timing:
    case SectionType::RankTiming:
      break;
    default:
      if (e.flags & kSectionCritical)
        fail(c.label(i) + ": unsupported critical section type " + std::to_string(e.type));
      break; // ancillary section of a later writer: skip
    }
    if (slot) {
      if (*slot >= 0)
        fail(c.label(i) + ": second " + section_type_name(e.type) + " section");
      *slot = static_cast<int>(i);
    }
  }
  if (at.meta < 0)
    fail("no META section");
  if (at.functions < 0)
    fail("no FUNCTIONS section");

  Trace trace;
  std::string sites; // META key 8 (version 8 on; an unknown key before)
  {
    const std::string payload = c.payload(static_cast<size_t>(at.meta));
    try {
      trace.header = decode_meta(payload, &sites);
      if (c.version < kFirstSitesVersion)
        sites.clear();
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(static_cast<size_t>(at.meta)), e);
    }
  }
  trace.header.version = c.version;
  {
    const std::string payload = c.payload(static_cast<size_t>(at.functions));
    try {
      trace.functions = decode_function_table(payload);
      // Role Address came with version 4: an older file that has it is not
      // a file of its version (its signatures would be misread).
      if (c.version < kFirstAddressVersion)
        for (const OwnedFunction &f : trace.functions)
          for (const OwnedParam &p : f.params())
            if (p.role == Role::Address)
              throw TraceError("function " + sanitize_for_message(f.name()) + " parameter " +
                               sanitize_for_message(p.name) + ": role " +
                               std::to_string(static_cast<int>(Role::Address)) +
                               " needs format version " + std::to_string(kFirstAddressVersion));
      // So did offsets that follow the rank with version 7 (§8.3).
      if (c.version < kFirstRankOffsetVersion)
        for (const OwnedFunction &f : trace.functions)
          for (const OwnedParam &p : f.params())
            if (p.flags & kFlagRankStride)
              throw TraceError("function " + sanitize_for_message(f.name()) + " parameter " +
                               sanitize_for_message(p.name) +
                               ": offsets that follow the rank (flag 0x200) need format version " +
                               std::to_string(kFirstRankOffsetVersion));
    } catch (const TraceError &e) {
      rethrow_with_context(name + ": " + c.label(static_cast<size_t>(at.functions)), e);
    }
  }
  if (c.version == kFormatVersionPerRank)
    read_per_rank(c, name, trace);
  else
    read_merged(c, name, at, sites, trace);
  return trace;
}

Trace read_trace(const std::string &path) { return read_trace_from_memory(read_file(path), path); }

} // namespace pilgrim
