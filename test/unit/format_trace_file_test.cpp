// Whole trace files: model -> file -> model, container checks (CRC,
// truncation, versions, section rules) and writer-side validation.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "../fuzz/sample_trace.h"
#include "pilgrim/byte_io.h"
#include "pilgrim/crc32c.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/function_table_codec.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/timing_codec.h"
#include "pilgrim/trace_container.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"
#include "pilgrim/trace_writer.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {
namespace {

// Timing is stored quantized (timing_codec.h); quantizing twice changes
// nothing, so a written and a read timing agree once both are quantized.
void expect_same_stats(const TimingStats &a, const TimingStats &b) {
  const TimingStats qa = quantize_timing(a), qb = quantize_timing(b);
  EXPECT_EQ(qa.n, qb.n);
  EXPECT_EQ(qa.mean, qb.mean);
  EXPECT_EQ(qa.m2, qb.m2);
  EXPECT_EQ(qa.min, qb.min);
  EXPECT_EQ(qa.max, qb.max);
}

void expect_same_rank(const RankTrace &a, const RankTrace &b) {
  ASSERT_EQ(a.cst.size(), b.cst.size());
  for (size_t i = 0; i < a.cst.size(); ++i) {
    EXPECT_EQ(a.cst[i].signature, b.cst[i].signature);
    EXPECT_EQ(a.cst[i].count, b.cst[i].count);
    expect_same_stats(a.cst[i].duration, b.cst[i].duration);
    expect_same_stats(a.cst[i].interval, b.cst[i].interval);
  }
  ASSERT_EQ(a.grammar.rules.size(), b.grammar.rules.size());
  for (size_t r = 0; r < a.grammar.rules.size(); ++r) {
    ASSERT_EQ(a.grammar.rules[r].size(), b.grammar.rules[r].size());
    for (size_t k = 0; k < a.grammar.rules[r].size(); ++k) {
      EXPECT_EQ(a.grammar.rules[r][k].value, b.grammar.rules[r][k].value);
      EXPECT_EQ(a.grammar.rules[r][k].exp, b.grammar.rules[r][k].exp);
    }
  }
  ASSERT_EQ(a.comms.size(), b.comms.size());
  for (size_t i = 0; i < a.comms.size(); ++i) {
    EXPECT_EQ(a.comms[i].comm_id, b.comms[i].comm_id);
    EXPECT_EQ(a.comms[i].rank, b.comms[i].rank);
    EXPECT_EQ(a.comms[i].size, b.comms[i].size);
    EXPECT_EQ(a.comms[i].remote_size, b.comms[i].remote_size);
  }
}

std::string error_of(std::string_view bytes) {
  try {
    read_trace_from_memory(bytes, "t.pilgrim");
  } catch (const TraceError &e) {
    std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos);
    EXPECT_EQ(m.rfind("t.pilgrim: ", 0), 0u) << m;
    return m;
  }
  return "";
}

// Rewrites the header CRC after editing header bytes.
void fix_header_crc(std::string &file) {
  const uint32_t crc = crc32c(file.data(), kHeaderSize - 4);
  for (int i = 0; i < 4; ++i)
    file[kHeaderSize - 4 + i] = static_cast<char>(crc >> (8 * i));
}

TEST(FormatTraceFile, RoundTripInMemory) {
  const uint32_t n = 3;
  const std::string bytes = sample::ring_trace_bytes(n);
  const Trace t = read_trace_from_memory(bytes);
  EXPECT_EQ(t.header.version, kFormatVersionPerRank); // one RANK section per rank
  EXPECT_EQ(t.header.mpi_library, "Open MPI");
  EXPECT_EQ(t.header.mpi_version, "4.1.4");
  EXPECT_EQ(t.header.nranks, n);
  EXPECT_EQ(t.header.timing_mode, 1);
  EXPECT_EQ(t.header.command_line, "mpirun -np 4 ./ring --iterations 10");
  EXPECT_EQ(t.header.start_time_unix_ns, 1714566896123456789);
  ASSERT_EQ(t.nranks(), n);
  for (uint32_t r = 0; r < n; ++r)
    expect_same_rank(t.rank_trace(r), sample::ring_rank(static_cast<int>(r)));
  // Only the used rows are embedded, sorted by id.
  ASSERT_EQ(t.functions.size(), 7u);
  for (size_t i = 1; i < t.functions.size(); ++i)
    EXPECT_LT(t.functions[i - 1].id(), t.functions[i].id());
  ASSERT_NE(t.function(3), nullptr);
  EXPECT_STREQ(t.function(3)->name, "MPI_Isend");
  EXPECT_EQ(t.function(1), nullptr); // MPI_Send: not used by the ring
}

TEST(FormatTraceFile, RoundTripOnDisk) {
  const std::string path =
      ::testing::TempDir() + "format_round_trip_" + std::to_string(getpid()) + ".pilgrim";
  std::vector<std::string> ranks = {serialize_rank(sample::ring_rank(0)),
                                    serialize_rank(sample::ring_rank(1))};
  write_trace(path, sample::ring_header(2), sample::ring_functions(), ranks);
  EXPECT_NE(access(path.c_str(), F_OK), -1);
  EXPECT_EQ(access((path + ".tmp").c_str(), F_OK), -1); // renamed into place
  const Trace t = read_trace(path);
  ASSERT_EQ(t.nranks(), 2u);
  expect_same_rank(t.rank_trace(1), sample::ring_rank(1));
  // The file equals the in-memory form.
  std::ifstream in(path, std::ios::binary);
  const std::string disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(disk, write_trace_to_memory(sample::ring_header(2), sample::ring_functions(), ranks));
  std::remove(path.c_str());
}

TEST(FormatTraceFile, FullFunctionTableRoundTrips) {
  // A merged (current version) file: the table has role Address (version 4).
  const std::vector<const FunctionInfo *> all = sample::all_functions();
  const std::string bytes = write_merged_trace_to_memory(sample::ring_header(1), all,
                                                         merged_from_ranks({sample::ring_rank(0)}));
  const Trace t = read_trace_from_memory(bytes);
  ASSERT_EQ(t.functions.size(), all.size());
  for (const FunctionInfo *f : all) {
    const FunctionInfo *g = t.function(f->id);
    ASSERT_NE(g, nullptr);
    EXPECT_STREQ(g->name, f->name);
    ASSERT_EQ(g->nparams, f->nparams);
    for (uint8_t i = 0; i < f->nparams; ++i) {
      const ParamInfo &a = f->params[i], &b = g->params[i];
      EXPECT_STREQ(a.name, b.name);
      EXPECT_STREQ(a.c_type, b.c_type);
      EXPECT_EQ(a.base, b.base);
      EXPECT_EQ(a.role, b.role);
      EXPECT_EQ(a.dir, b.dir);
      EXPECT_EQ(a.handle_kind, b.handle_kind);
      EXPECT_EQ(a.action, b.action);
      EXPECT_EQ(a.flags, b.flags);
      EXPECT_EQ(a.ref, b.ref);
      EXPECT_EQ(a.ref2, b.ref2);
      EXPECT_EQ(a.ref3, b.ref3);
      ASSERT_EQ(a.len_size, b.len_size);
      for (uint8_t k = 0; k < a.len_size; ++k) {
        EXPECT_EQ(a.len[k].op, b.len[k].op);
        EXPECT_EQ(a.len[k].arg, b.len[k].arg);
      }
      if (a.len_text) {
        EXPECT_STREQ(a.len_text, b.len_text);
      } else {
        EXPECT_EQ(b.len_text, nullptr);
      }
    }
  }
}

TEST(FormatTraceFile, EmptyTraceSizes) {
  const std::string empty =
      write_trace_to_memory(sample::ring_header(1), {}, {serialize_rank(RankTrace{})});
  const Trace t = read_trace_from_memory(empty);
  EXPECT_EQ(t.nranks(), 1u);
  EXPECT_TRUE(t.rank_trace(0).cst.empty());
  EXPECT_LT(empty.size(), 256u);
  std::printf("[ sizes  ] empty 1-rank trace: %zu bytes; ring 1 rank: %zu; ring 4 ranks: %zu; ring "
              "64 ranks: %zu\n",
              empty.size(), sample::ring_trace_bytes(1).size(), sample::ring_trace_bytes(4).size(),
              sample::ring_trace_bytes(64).size());
  // A trace with no ranks at all is valid too.
  TraceHeader h = sample::ring_header(0);
  EXPECT_EQ(read_trace_from_memory(write_trace_to_memory(h, {}, {})).nranks(), 0u);
}

TEST(FormatTraceFile, EveryTruncationIsATraceError) {
  const std::string bytes = sample::ring_trace_bytes(2);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string m = error_of(std::string_view(bytes).substr(0, n));
    EXPECT_FALSE(m.empty()) << "prefix " << n << " was accepted";
  }
  EXPECT_EQ(error_of(bytes), "");
  EXPECT_NE(error_of(std::string_view(bytes).substr(0, bytes.size() - 1)).find("truncated file"),
            std::string::npos);
  EXPECT_EQ(error_of(""), "t.pilgrim: not a Pilgrim trace (bad magic)");
}

TEST(FormatTraceFile, EveryFlippedByteIsDetected) {
  const std::string bytes = sample::ring_trace_bytes(2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t bit : {uint8_t{0x01}, uint8_t{0x80}}) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ bit);
      const std::string m = error_of(bad);
      EXPECT_FALSE(m.empty()) << "flip of byte " << i << " went unnoticed";
    }
  }
}

TEST(FormatTraceFile, ChecksumMessagesNameTheSection) {
  std::string bytes = sample::ring_trace_bytes(2);
  const Container c = parse_container(bytes, "x");
  for (size_t i = 0; i < c.sections.size(); ++i) {
    const SectionEntry &e = c.sections[i];
    if (e.rank != 1u)
      continue;
    std::string bad = bytes;
    bad[e.offset] = static_cast<char>(bad[e.offset] ^ 0x10);
    const std::string type = e.type == static_cast<uint16_t>(SectionType::Rank) ? "RANK" : "TIMING";
    EXPECT_EQ(error_of(bad), "t.pilgrim: section " + std::to_string(i) + " (" + type +
                                 " rank 1): checksum mismatch");
  }
}

TEST(FormatTraceFile, NewerVersionIsRejected) {
  std::string bytes = sample::ring_trace_bytes(1);
  const std::string newer = std::to_string(kFormatVersion + 1);
  const std::string reads = " is newer than this reader (reads 1 to " +
                            std::to_string(kFormatVersion) + "): update Pilgrim";
  bytes[8] = static_cast<char>(kFormatVersion + 1);
  EXPECT_EQ(error_of(bytes), "t.pilgrim: format version " + newer + reads);
  // Even when the rest of the header is unreadable (a newer layout may differ).
  EXPECT_EQ(error_of(bytes.substr(0, 10)), "t.pilgrim: format version " + newer + reads);
  bytes[9] = 1; // the version is two bytes, little-endian
  EXPECT_EQ(error_of(bytes),
            "t.pilgrim: format version " + std::to_string(256 + kFormatVersion + 1) + reads);
  bytes[9] = 0;
  bytes[8] = 0;
  fix_header_crc(bytes);
  EXPECT_EQ(error_of(bytes), "t.pilgrim: invalid format version 0");
}

TEST(FormatTraceFile, MergedTracesAreVersion10AndVersions9To2StillRead) {
  std::vector<RankTrace> ranks;
  for (int r = 0; r < 3; ++r)
    ranks.push_back(sample::ring_rank(r));
  const MergedTrace merged = merged_from_ranks(ranks);
  std::string bytes =
      write_merged_trace_to_memory(sample::ring_header(3), sample::ring_functions(), merged);
  // Version 3 changed the meaning of completion statuses, version 4 added
  // role Address, tracer records and outputs absent when their flag is false,
  // version 5 communicator groups and kept senders, version 6 per-call
  // timing, version 7 I/O tracing, version 8 regions, phases and call sites,
  // version 9 one-sample timings, version 10 what wildcards matched behind
  // MPI_STATUS_IGNORE (FORMAT.md §10); the layout is version 2's but for the groups (and
  // RANK_TIMING and SITES sections, when the run has them).
  EXPECT_EQ(bytes[8], static_cast<char>(kFormatVersion));
  const Trace v4 = read_trace_from_memory(bytes, "t.pilgrim");
  EXPECT_EQ(v4.header.version, 10u);
  for (char older : {9, 8, 7, 6, 5, 4, 3, 2}) {
    WriteOptions o;
    o.format_version = static_cast<uint16_t>(older);
    bytes =
        write_merged_trace_to_memory(sample::ring_header(3), sample::ring_functions(), merged, o);
    const Trace t = read_trace_from_memory(bytes, "t.pilgrim");
    EXPECT_EQ(t.header.version, static_cast<uint16_t>(older));
    EXPECT_EQ(t.merged.rank_map, v4.merged.rank_map);
    EXPECT_EQ(t.merged.comms, v4.merged.comms);
    ASSERT_EQ(t.merged.cst.size(), v4.merged.cst.size());
    for (size_t i = 0; i < t.merged.cst.size(); ++i)
      EXPECT_EQ(t.merged.cst[i].signature, v4.merged.cst[i].signature);
  }
}

// Role Address came with version 4: a file of an older version that embeds
// it is rejected, since an older reader would misread its signatures.
TEST(FormatTraceFile, AddressRoleNeedsVersion4) {
  std::string bytes = sample::address_trace_bytes(2);
  EXPECT_EQ(bytes[8], static_cast<char>(kFormatVersion));
  const Trace t = read_trace_from_memory(bytes, "t.pilgrim");
  for (const CstEntry &e : t.merged.cst)
    EXPECT_NO_THROW(decode_signature(t, e.signature));
  bytes[8] = 3;
  fix_header_crc(bytes);
  EXPECT_EQ(error_of(bytes),
            "t.pilgrim: section 1 (FUNCTIONS): function MPI_Type_create_hindexed parameter "
            "array_of_displacements: role 15 needs format version 4");
}

TEST(FormatTraceFile, HeaderChecks) {
  std::string bytes = sample::ring_trace_bytes(1);
  std::string bad = bytes;
  bad[0] = 'X';
  EXPECT_EQ(error_of(bad), "t.pilgrim: not a Pilgrim trace (bad magic)");
  bad = bytes;
  bad[12] = 100; // section count, CRC fixed: table now runs past the end
  fix_header_crc(bad);
  EXPECT_NE(error_of(bad).find("truncated file: section table"), std::string::npos);
  bad = bytes;
  bad[13] = 1;
  EXPECT_EQ(error_of(bad), "t.pilgrim: header checksum mismatch");
  EXPECT_NE(error_of(bytes + "junk").find("unexpected bytes after the section table"),
            std::string::npos);
}

// Builds a container by hand for section-level rule checks.
struct Builder { // a version-1 (per-rank) file
  std::string out;
  StringSink sink{out};
  ContainerWriter w{sink};
  Builder() { w.set_version(kFormatVersionPerRank); }
  Builder &meta(uint32_t nranks) {
    w.add_section(static_cast<uint16_t>(SectionType::Meta), kNoRank, kSectionCritical,
                  encode_meta(sample::ring_header(nranks)));
    return *this;
  }
  Builder &functions() {
    w.add_section(static_cast<uint16_t>(SectionType::Functions), kNoRank, kSectionCritical,
                  encode_function_table(sample::ring_functions()));
    return *this;
  }
  Builder &rank(uint32_t r, const std::string &payload) {
    w.add_section(static_cast<uint16_t>(SectionType::Rank), r, kSectionCritical, payload);
    return *this;
  }
  Builder &rank(uint32_t r) {
    return rank(r, serialize_rank(sample::ring_rank(static_cast<int>(r))));
  }
  Builder &other(uint16_t type, uint8_t flags) {
    w.add_section(type, kNoRank, flags, "future data");
    return *this;
  }
  std::string done() {
    w.finish();
    return out;
  }
};

TEST(FormatTraceFile, SectionRules) {
  EXPECT_EQ(error_of(Builder().meta(1).functions().rank(0).done()), "");
  // Unknown ancillary sections are skipped, unknown critical ones are not.
  EXPECT_EQ(error_of(Builder().meta(1).other(16, 0).functions().rank(0).other(999, 0).done()), "");
  EXPECT_EQ(error_of(Builder().meta(1).functions().rank(0).other(999, kSectionCritical).done()),
            "t.pilgrim: section 3 (type 999): unsupported critical section type 999");
  EXPECT_EQ(error_of(Builder().functions().rank(0).done()), "t.pilgrim: no META section");
  EXPECT_EQ(error_of(Builder().meta(1).rank(0).done()), "t.pilgrim: no FUNCTIONS section");
  EXPECT_EQ(error_of(Builder().meta(1).meta(1).functions().rank(0).done()),
            "t.pilgrim: section 1 (META): second META section");
  EXPECT_EQ(error_of(Builder().meta(2).functions().rank(0).done()),
            "t.pilgrim: META says 2 ranks but the file has 1 RANK sections");
  EXPECT_EQ(error_of(Builder().meta(2).functions().rank(0).rank(0).done()),
            "t.pilgrim: section 3 (RANK rank 0): second RANK section for rank 0");
  EXPECT_EQ(error_of(Builder().meta(1).functions().rank(5).done()),
            "t.pilgrim: section 2 (RANK rank 5): rank out of range (1 rank)");
  // Sections may come in any order.
  EXPECT_EQ(error_of(Builder().rank(1).meta(2).rank(0).functions().done()), "");
}

TEST(FormatTraceFile, BadPayloadsAreReportedWithTheirSection) {
  EXPECT_EQ(error_of(Builder().meta(1).functions().rank(0, "\x01").done())
                .rfind("t.pilgrim: section 2 (RANK rank 0): ", 0),
            0u);
  // A signature whose function is not in FUNCTIONS.
  RankTrace rt = sample::ring_rank(0);
  rt.cst[3].signature = sample::SigBuilder("MPI_Send").done();
  EXPECT_EQ(error_of(Builder().meta(1).functions().rank(0, serialize_rank(rt)).done()),
            "t.pilgrim: section 2 (RANK rank 0): CST entry 3: unknown function id 1");
  // A grammar cycle.
  rt = sample::ring_rank(0);
  rt.grammar.rules[1].push_back(GrammarSymbol{rule_symbol_value(1), 1});
  EXPECT_EQ(error_of(Builder().meta(1).functions().rank(0, serialize_rank(rt)).done()),
            "t.pilgrim: section 2 (RANK rank 0): grammar rule 1 expands to itself");
}

TEST(FormatTraceFile, StoredSectionsMustHaveMatchingSizesAndLimits) {
  std::string out;
  StringSink sink(out);
  ContainerWriter w(sink);
  w.add_encoded_section(static_cast<uint16_t>(SectionType::Meta), kNoRank, kSectionCritical, 0,
                        "abc", 4);
  w.finish();
  EXPECT_NE(error_of(out).find("stored section with raw size 4 != stored size 3"),
            std::string::npos);

  std::string out2;
  StringSink sink2(out2);
  ContainerWriter w2(sink2);
  w2.add_encoded_section(static_cast<uint16_t>(SectionType::Meta), kNoRank, kSectionCritical, 1,
                         "abc", kMaxSectionRawSize + 1);
  w2.finish();
  EXPECT_NE(error_of(out2).find("exceeds the limit"), std::string::npos);
}

// One zstd frame of `raw`.
std::string zstd_of(const std::string &raw) { return zstd_compress(raw, 19); }

// A container holding one section, declared with `raw_size`.
std::string one_section(uint8_t codec, const std::string &stored, uint64_t raw_size) {
  std::string out;
  StringSink sink(out);
  ContainerWriter w(sink);
  w.add_encoded_section(99, kNoRank, kSectionCritical, codec, stored, raw_size);
  w.finish();
  return out;
}

TEST(FormatTraceFile, LyingRawSizeOfZstdSection) {
  const std::string raw(1000, 'a');
  const std::string z = zstd_of(raw);
  for (uint64_t declared : {uint64_t{0}, uint64_t{999}, uint64_t{1001}, uint64_t{60000}}) {
    const std::string file = one_section(1, z, declared);
    const Container c = parse_container(file, "t.pilgrim");
    try {
      c.payload(0);
      ADD_FAILURE() << declared << " accepted";
    } catch (const TraceError &e) {
      EXPECT_EQ(std::string(e.what()).rfind("t.pilgrim: section 0 (type 99): ", 0), 0u) << e.what();
    }
  }
  EXPECT_EQ(parse_container(one_section(1, z, 1000), "t").payload(0), raw);
  // Corrupt zstd bytes (with a valid CRC) are reported, not trusted.
  std::string bad = z;
  bad[bad.size() / 2] = static_cast<char>(bad[bad.size() / 2] ^ 0x55);
  EXPECT_THROW(parse_container(one_section(1, bad, 1000), "t").payload(0), TraceError);
  EXPECT_THROW(parse_container(one_section(1, "", 0), "t").payload(0), TraceError);
  EXPECT_THROW(parse_container(one_section(7, "abc", 3), "t").payload(0), TraceError); // codec
}

TEST(FormatTraceFile, DecompressionBombsAreRejectedBeforeDecompressing) {
  // 8 MiB of zeros compress to a few hundred bytes: far beyond the allowed
  // expansion, so the reader refuses the section outright...
  const std::string zeros(8 << 20, '\0');
  const std::string z = zstd_of(zeros);
  ASSERT_LT(z.size() * kMaxExpansion + kExpansionSlack, zeros.size());
  try {
    parse_container(one_section(1, z, zeros.size()), "bomb.pilgrim");
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_NE(std::string(e.what()).find("times the stored size"), std::string::npos) << e.what();
  }
  // ...and the writer, given such data, stores it uncompressed instead.
  std::string out;
  StringSink sink(out);
  ContainerWriter w(sink);
  w.add_section(99, kNoRank, 0, zeros);
  w.finish();
  const Container c = parse_container(out, "t");
  EXPECT_EQ(c.sections[0].codec, static_cast<uint8_t>(SectionCodec::Stored));
  // At the limit it still compresses.
  EXPECT_TRUE(expansion_allowed(100, 100 * kMaxExpansion + kExpansionSlack));
  EXPECT_FALSE(expansion_allowed(100, 100 * kMaxExpansion + kExpansionSlack + 1));
  EXPECT_TRUE(expansion_allowed(0, kExpansionSlack));
  EXPECT_TRUE(expansion_allowed(UINT64_MAX, UINT64_MAX));
}

TEST(FormatTraceFile, WriterValidatesItsInput) {
  const std::string r0 = serialize_rank(sample::ring_rank(0));
  EXPECT_THROW(write_trace_to_memory(sample::ring_header(2), sample::ring_functions(), {r0}),
               TraceError);
  // A signature using a function missing from used_functions.
  std::vector<const FunctionInfo *> fewer = sample::ring_functions();
  fewer.pop_back(); // MPI_Finalize
  try {
    write_trace_to_memory(sample::ring_header(1), fewer, {r0});
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_STREQ(e.what(), "rank 0 CST entry 6: function id 23 is not in the used function table");
  }
  // Duplicate function ids, null entries.
  std::vector<const FunctionInfo *> dup = sample::ring_functions();
  dup.push_back(dup[0]);
  EXPECT_THROW(write_trace_to_memory(sample::ring_header(1), dup, {r0}), TraceError);
  EXPECT_THROW(write_trace_to_memory(sample::ring_header(1), {nullptr}, {r0}), TraceError);
  // Garbage rank bytes.
  EXPECT_THROW(write_trace_to_memory(sample::ring_header(1), sample::ring_functions(), {"\x05"}),
               TraceError);
  // verify_signatures decodes every entry.
  RankTrace rt = sample::ring_rank(0);
  rt.cst[6].signature += '\x01'; // MPI_Finalize with a trailing byte
  WriteOptions strict;
  strict.verify_signatures = true;
  EXPECT_NO_THROW(write_trace_to_memory(sample::ring_header(1), sample::ring_functions(),
                                        {serialize_rank(rt)}));
  EXPECT_THROW(write_trace_to_memory(sample::ring_header(1), sample::ring_functions(),
                                     {serialize_rank(rt)}, strict),
               TraceError);
}

TEST(FormatTraceFile, StreamingWriterChecksRanks) {
  std::string out;
  TraceWriter w(&out, sample::ring_header(3), sample::ring_functions());
  w.add_rank(2, serialize_rank(sample::ring_rank(2)));
  w.add_rank(0, serialize_rank(sample::ring_rank(0)));
  EXPECT_THROW(w.add_rank(0, serialize_rank(sample::ring_rank(0))), TraceError);
  EXPECT_THROW(w.add_rank(3, serialize_rank(sample::ring_rank(0))), TraceError);
  EXPECT_THROW(w.finish(), TraceError); // rank 1 missing
  w.add_rank(1, serialize_rank(sample::ring_rank(1)));
  w.finish();
  const Trace t = read_trace_from_memory(out);
  expect_same_rank(t.rank_trace(1), sample::ring_rank(1));
  expect_same_rank(t.rank_trace(2), sample::ring_rank(2));
}

TEST(FormatTraceFile, UnwritablePathAndMissingFile) {
  EXPECT_THROW(write_trace("/nonexistent-dir/x.pilgrim", sample::ring_header(0), {}, {}),
               TraceError);
  try {
    read_trace("/nonexistent-dir/x.pilgrim");
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent-dir/x.pilgrim: cannot open: No such file or directory");
  }
}

TEST(FormatTraceFile, MetaRecords) {
  TraceHeader h = sample::ring_header(7);
  h.start_time_unix_ns = -5;
  h.command_line = std::string("a\0b", 3);
  std::string meta = encode_meta(h);
  const TraceHeader back = decode_meta(meta);
  EXPECT_EQ(back.nranks, 7u);
  EXPECT_EQ(back.start_time_unix_ns, -5);
  EXPECT_EQ(back.command_line, h.command_line);
  // Unknown keys are skipped; duplicates and a missing rank count are errors.
  std::string extra = meta;
  ByteWriter(extra).varint(77);
  ByteWriter(extra).string("whatever");
  EXPECT_EQ(decode_meta(extra).nranks, 7u);
  std::string dup = meta;
  ByteWriter(dup).varint(3);
  ByteWriter(dup).string("\x01");
  EXPECT_THROW(decode_meta(dup), TraceError);
  EXPECT_THROW(decode_meta(""), TraceError);
}

TEST(FormatRankCodec, RoundTripAndValidation) {
  RankTrace rt = sample::ring_rank(1);
  rt.comms.push_back(CommInfo{UINT64_MAX, INT32_MAX, INT32_MIN, 17});
  rt.cst[0].signature = std::string("\x16\x00\x01\x01\x00", 5);
  rt.cst[1].duration = TimingStats{};                         // no samples: nothing else stored
  rt.cst[2].interval.n = 3;                                   // fewer samples than calls
  rt.cst[3].duration.n = rt.cst[3].count = uint64_t{1} << 40; // n == count, large
  rt.cst[4].interval.n = UINT64_MAX - 2;                      // the largest n != count
  RankTrace back = parse_rank(serialize_rank(rt));
  expect_same_rank(back, rt);
  expect_same_rank(parse_rank(serialize_rank(RankTrace{})), RankTrace{});

  RankTrace bad = rt;
  bad.grammar.rules[0].push_back(GrammarSymbol{99, 1});
  EXPECT_THROW(parse_rank(serialize_rank(bad)), TraceError);
  bad = rt;
  bad.grammar.rules[0][0].exp = 0;
  EXPECT_THROW(parse_rank(serialize_rank(bad)), TraceError);
  bad = rt;
  bad.grammar.rules[0].push_back(GrammarSymbol{rule_symbol_value(5), 1});
  EXPECT_THROW(parse_rank(serialize_rank(bad)), TraceError);
  const std::string good = serialize_rank(rt);
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_THROW(parse_rank(good.substr(0, n)), TraceError) << n;
  EXPECT_THROW(parse_rank(good + "x"), TraceError);
}

} // namespace
} // namespace pilgrim
