// What a proxy makes of the records that are not MPI calls
// (proxygen/record_lines.h): a comment saying why it is not replayed, for
// the datatype layout fact and for any record of a kind or id this
// proxygen does not know; never an error. Markers are replayed.
#include "record_lines.h"

#include <gtest/gtest.h>

#include <string>

#include "../fuzz/sample_trace.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim::proxygen {
namespace {

std::vector<std::string> lines_of(const FunctionInfo &row, const std::string &bytes) {
  const FunctionLookup lookup = [&row](uint16_t id) -> const FunctionInfo * {
    return id == row.id ? &row : sample::lookup(id);
  };
  ProxySymbols symbols;
  const DecodedCall coded = decode_signature(lookup, bytes);
  return record_lines(
      resolve_call(coded), [](const HandleRef &) { return std::string("h"); }, symbols);
}

const ParamInfo kOneValue[] = {sample::value("level")};

TEST(RecordLines, CommentsEveryRecordItDoesNotReplay) {
  struct Case {
    uint16_t id;
    const char *name;
    std::string bytes; // function id, thread 0, level 1, return code 0
    const char *line;
  };
  const Case cases[] = {
      {0x3E01, "pilgrim_future_fact", std::string("\x81\x7c\x00\x02\x00", 5),
       "// pilgrim_future_fact (0x3E01): a fact the tracer stated, not a call: the proxy's own "
       "calls state it again"},
      {0x3D7F, "pilgrim_future_marker", std::string("\xff\x7a\x00\x02\x00", 5),
       "// pilgrim_future_marker (0x3D7F): a region or phase marker this proxygen does not know"},
      // A posix record whose row lacks what its replay reads (a newer writer's).
      {0x3000, "open", std::string("\x80\x60\x00\x02\x00", 5),
       "// open (0x3000): a POSIX record this proxygen does not replay"},
      {0x3013, "posix_future", std::string("\x93\x60\x00\x02\x00", 5),
       "// posix_future (0x3013): a POSIX record this proxygen does not replay"},
      {0x3F7F, "MPI_Future_callback", std::string("\xff\x7e\x00\x02\x00", 5),
       "// MPI_Future_callback (0x3F7F): a callback record this proxygen does not know"},
  };
  for (const Case &c : cases) {
    const FunctionInfo row{c.id, c.name, 1, kOneValue};
    const std::vector<std::string> lines = lines_of(row, c.bytes);
    ASSERT_EQ(lines.size(), 1u) << c.name;
    EXPECT_EQ(lines[0], c.line);
  }
}

// Markers are replayed (marker_replay.h): MPI_Pcontrol as called, a phase
// as a comment and the tracer's weak hook.
TEST(RecordLines, MarkersAreReplayed) {
  const FunctionInfo pcontrol{0x3D00, "pilgrim_pcontrol", 1, kOneValue};
  EXPECT_EQ(lines_of(pcontrol, std::string("\x80\x7a\x00\x02\x00", 5)),
            std::vector<std::string>{"MPI_Pcontrol(1);"});
  EXPECT_EQ(lines_of(pcontrol, std::string("\x80\x7a\x00\x00\x00", 5)),
            std::vector<std::string>{"MPI_Pcontrol(0);"});
  const FunctionInfo off{0x3D01, "pilgrim_trace_off", 0, nullptr};
  EXPECT_EQ(lines_of(off, std::string("\x81\x7a\x00\x00", 4)),
            std::vector<std::string>{"if (pilgrim_trace_off) pilgrim_trace_off();"});
  const FunctionInfo on{0x3D02, "pilgrim_trace_on", 0, nullptr};
  EXPECT_EQ(lines_of(on, std::string("\x82\x7a\x00\x00", 4)),
            std::vector<std::string>{"if (pilgrim_trace_on) pilgrim_trace_on();"});
  static const ParamInfo kName[] = {sample::param("name", "const char *", CType::Char, Role::String,
                                                  Direction::In, sample::P | sample::C)};
  const FunctionInfo phase{0x3D03, "pilgrim_phase", 1, kName};
  // docs/FORMAT.md §8.7's example: PILGRIM_PHASE("solve") on thread 0.
  EXPECT_EQ(lines_of(phase, std::string("\x83\x7a\x00\x06solve\x00", 10)),
            (std::vector<std::string>{"// phase \"solve\"",
                                      "if (pilgrim_phase) pilgrim_phase(\"solve\");"}));
}

TEST(RecordLines, TheDatatypeLayoutIsNoCall) {
  const std::string bytes = sample::datatype_layout_sig(sig::handle_user(0), 16, 16, 0, 16);
  ProxySymbols symbols;
  const DecodedCall coded = decode_signature(sample::lookup, bytes);
  const std::vector<std::string> lines = record_lines(
      resolve_call(coded), [](const HandleRef &) { return std::string("h"); }, symbols);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("// pilgrim_datatype_layout (0x3E00): a fact", 0), 0u) << lines[0];
}

} // namespace
} // namespace pilgrim::proxygen
