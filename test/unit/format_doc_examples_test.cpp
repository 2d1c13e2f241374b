// The whole-file worked examples of docs/FORMAT.md §13, pinned: each test
// builds the example with the reference writer and requires the doc's hex
// dump (the fenced block after `<!-- pinned: NAME -->`) to be exactly the
// dump of those bytes. When the format changes, the failure message prints
// the new dump, to paste into the doc (then update the explanation below it).
#include <gtest/gtest.h>

#include "../fuzz/sample_trace.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pilgrim/call_formatter.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/function_table.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/timing_mode.h"
#include "pilgrim/trace_reader.h"
#include "pilgrim/trace_writer.h"

namespace pilgrim {
namespace {

// `xxd` layout: offset, 16 bytes as 8 groups of 4 hex digits, the bytes as
// ASCII ('.' for the rest).
std::string hex_dump(const std::string &bytes) {
  std::string out;
  for (size_t at = 0; at < bytes.size(); at += 16) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%08zx:", at);
    std::string hex = buf, text;
    for (size_t i = at; i < at + 16; ++i) {
      if (i % 2 == 0)
        hex += ' ';
      if (i < bytes.size()) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        std::snprintf(buf, sizeof buf, "%02x", c);
        hex += buf;
        text += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '.';
      } else {
        hex += "  ";
      }
    }
    std::string line = hex + "  " + text;
    line.erase(line.find_last_not_of(' ') + 1); // as the doc keeps it: no trailing spaces
    out += line + "\n";
  }
  return out;
}

// The fenced block that follows `<!-- pinned: NAME -->` in docs/FORMAT.md.
std::string doc_block(const std::string &name) {
  std::ifstream in(std::string(PILGRIM_SOURCE_DIR) + "/docs/FORMAT.md");
  std::string line, block;
  bool marked = false, inside = false;
  while (std::getline(in, line)) {
    if (!marked) {
      marked = line == "<!-- pinned: " + name + " -->";
    } else if (!inside) {
      inside = line.rfind("```", 0) == 0;
    } else if (line.rfind("```", 0) == 0) {
      return block;
    } else {
      line.erase(line.find_last_not_of(' ') + 1);
      block += line + "\n";
    }
  }
  ADD_FAILURE() << "docs/FORMAT.md has no block after <!-- pinned: " << name << " -->";
  return "";
}

void expect_doc_shows(const std::string &name, const std::string &bytes) {
  const std::string want = hex_dump(bytes);
  EXPECT_EQ(doc_block(name), want)
      << "docs/FORMAT.md's example '" << name << "' is out of date; the writer now makes "
      << bytes.size() << " bytes:\n"
      << want;
}

TraceHeader example_header(uint32_t nranks) {
  TraceHeader h;
  h.mpi_library = "MPICH";
  h.mpi_version = "4.1";
  h.nranks = nranks;
  h.timing_mode = static_cast<uint8_t>(TimingMode::None);
  h.command_line = "./a.out";
  h.start_time_unix_ns = 0;
  return h;
}

// §13.2: version 1, one rank, no calls.
TEST(FormatDocExamples, EmptyVersion1File) {
  const std::string file =
      write_trace_to_memory(example_header(1), {}, {serialize_rank(RankTrace{})});
  ASSERT_EQ(file.size(), 186u);
  expect_doc_shows("v1-empty", file);
  EXPECT_EQ(read_trace_from_memory(file).header.version, 1);
}

// The rows of generator/annotations (ids 176 and 269), as the generator
// writes them.
const ParamInfo kBarrierParams[] = {
    {"comm", "MPI_Comm", CType::Handle, Role::Handle, Direction::In, HandleKind::Comm,
     HandleAction::Use, 0, -1, -1, -1, 0, nullptr, nullptr},
};
const ParamInfo kCommRankParams[] = {
    {"comm", "MPI_Comm", CType::Handle, Role::Handle, Direction::In, HandleKind::Comm,
     HandleAction::Use, 0, -1, -1, -1, 0, nullptr, nullptr},
    {"rank", "int *", CType::Int, Role::Rank, Direction::Out, HandleKind::None, HandleAction::None,
     kFlagPointer | kFlagRelative, 0, -1, -1, 0, nullptr, nullptr},
};
const FunctionInfo kBarrier{176, "MPI_Barrier", 1, kBarrierParams};
const FunctionInfo kCommRank{269, "MPI_Comm_rank", 2, kCommRankParams};

// §13.3: version 4, two ranks that each call MPI_Comm_rank once and
// MPI_Barrier three times.
TEST(FormatDocExamples, TwoRankVersion4File) {
  MergedTrace m;
  m.cst.resize(2);
  // MPI_Comm_rank(MPI_COMM_WORLD, &rank): function 269, thread 0, comm,
  // out rank as a pointer to one Rank (+0), MPI_SUCCESS.
  m.cst[0].signature = std::string("\x8d\x02\x00\x01\x02\x05\x00", 7);
  m.cst[0].count = 2;
  // MPI_Barrier(MPI_COMM_WORLD): function 176, thread 0, comm, MPI_SUCCESS.
  m.cst[1].signature = std::string("\xb0\x01\x00\x01\x00", 5);
  m.cst[1].count = 6;
  m.rules.rules = {{GrammarSymbol::terminal(0), GrammarSymbol::terminal(1, 3)}};
  m.roots = {0};
  m.rank_map = {RankRange{0, 2, 0}};
  WriteOptions stored; // every byte explainable: no zstd
  stored.compress = false;
  // Version 5 kept the layout of version 4 and this trace has none of what
  // it added (records that are not MPI calls): the writer's bytes with the
  // header's version set back to 4 are the version-4 file.
  const std::string file = sample::with_version(
      write_merged_trace_to_memory(example_header(2), {&kBarrier, &kCommRank}, m, stored), 4);
  expect_doc_shows("v4-two-ranks", file);

  // And it reads back as the doc says.
  const Trace t = read_trace_from_memory(file);
  EXPECT_EQ(t.header.version, 4);
  ASSERT_EQ(t.functions.size(), 2u);
  EXPECT_EQ(t.functions[0].info().params[0].len_text, nullptr);
  std::vector<DecodedCall> cst;
  for (const CstEntry &e : t.merged.cst)
    cst.push_back(decode_signature(t, e.signature));
  for (uint32_t r = 0; r < 2; ++r) {
    const RankView v = t.rank(r);
    CreationTracker state = CreationTracker::for_rank(t, r, cst);
    std::vector<std::string> calls;
    GrammarWalker walk(*v.rules, v.root);
    for (uint64_t terminal; walk.next(terminal);) {
      calls.push_back(format_call(cst[terminal], state.context()));
      state.apply(cst[terminal]);
    }
    const std::string rank_call =
        "MPI_Comm_rank(comm=MPI_COMM_WORLD, rank=" + std::to_string(r) + " (+0)) = MPI_SUCCESS";
    const std::string barrier = "MPI_Barrier(comm=MPI_COMM_WORLD) = MPI_SUCCESS";
    EXPECT_EQ(calls, (std::vector<std::string>{rank_call, barrier, barrier, barrier}));
  }
}

} // namespace
} // namespace pilgrim
