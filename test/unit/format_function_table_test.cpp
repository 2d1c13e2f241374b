// FUNCTIONS codec, OwnedFunction views and Trace::function lookup.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../fuzz/sample_trace.h"
#include "pilgrim/byte_io.h"
#include "pilgrim/function_table_codec.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {
namespace {

TEST(FormatFunctionTable, CodecRoundTripIsSortedAndStable) {
  std::vector<const FunctionInfo *> fns = sample::all_functions();
  std::reverse(fns.begin(), fns.end());
  const std::string bytes = encode_function_table(fns);
  const std::vector<OwnedFunction> back = decode_function_table(bytes);
  ASSERT_EQ(back.size(), fns.size());
  for (size_t i = 1; i < back.size(); ++i)
    EXPECT_LT(back[i - 1].id(), back[i].id());
  // Re-encoding the decoded rows gives the same bytes.
  std::vector<const FunctionInfo *> again;
  for (const OwnedFunction &f : back)
    again.push_back(&f.info());
  EXPECT_EQ(encode_function_table(again), bytes);
}

TEST(FormatFunctionTable, OwnedFunctionViewsSurviveCopiesAndMoves) {
  OwnedFunction a(sample::function("MPI_Gatherv"));
  std::vector<OwnedFunction> v;
  for (int i = 0; i < 50; ++i)
    v.push_back(a); // reallocations move elements
  OwnedFunction b = std::move(v[7]);
  OwnedFunction c;
  c = b;
  for (const OwnedFunction *f : {&a, &b, &c, &v[49]}) {
    const FunctionInfo &info = f->info();
    EXPECT_STREQ(info.name, "MPI_Gatherv");
    ASSERT_EQ(info.nparams, 9);
    EXPECT_STREQ(info.params[4].name, "recvcounts");
    EXPECT_STREQ(info.params[4].len_text, "peers(comm)");
    ASSERT_EQ(info.params[4].len_size, 1);
    EXPECT_EQ(info.params[4].len[0].op, LenOp::Peers);
    EXPECT_EQ(info.params[0].len, nullptr);
    EXPECT_EQ(info.params[0].len_text, nullptr);
    EXPECT_EQ(info.params[3].ref3, 7);
  }
}

TEST(FormatFunctionTable, TraceLookup) {
  Trace t;
  for (const FunctionInfo *f : sample::all_functions())
    t.functions.emplace_back(*f);
  EXPECT_STREQ(t.function(900)->name, "PILGRIM_Fake_double");
  EXPECT_EQ(t.function(0), nullptr);
  std::reverse(t.functions.begin(), t.functions.end()); // unsorted: linear fallback
  EXPECT_STREQ(t.function(5)->name, "MPI_Waitall");
  EXPECT_EQ(t.function(901), nullptr);
}

TEST(FormatFunctionTable, RejectsBadRows) {
  ParamInfo p = sample::function("MPI_Send").params[3];
  p.ref = 9; // beyond nparams
  FunctionInfo f{1, "MPI_Bad", 1, &p};
  EXPECT_THROW(encode_function_table({&f}), TraceError);
  p.ref = -1;
  p.role = static_cast<Role>(77);
  EXPECT_THROW(encode_function_table({&f}), TraceError);

  const std::string good =
      encode_function_table({&sample::function("MPI_Send"), &sample::function("MPI_Recv")});
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_THROW(decode_function_table(good.substr(0, n)), TraceError) << n;
  EXPECT_THROW(decode_function_table(good + "x"), TraceError);
  // Ids must be strictly increasing.
  std::string twice;
  ByteWriter w(twice);
  w.varint(2);
  for (int i = 0; i < 2; ++i) {
    w.varint(5);
    w.string("MPI_X");
    w.u8(0);
  }
  EXPECT_THROW(decode_function_table(twice), TraceError);
  // An enum value out of range inside a row.
  std::string bad_role;
  ByteWriter b(bad_role);
  b.varint(1);
  b.varint(5);
  b.string("MPI_X");
  b.u8(1);
  b.string("x");
  b.string("int");
  for (uint8_t v : {1, 99, 0, 0, 0})
    b.u8(v);
  b.u16le(0);
  for (uint8_t v : {0xff, 0xff, 0xff, 0})
    b.u8(v);
  b.nullable_string(nullptr);
  try {
    decode_function_table(bad_role);
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_STREQ(e.what(), "function MPI_X parameter x: role 99 out of range at byte 15");
  }
}

// A parameter without a length expression has len_text NULL (FORMAT.md
// §6): written as varint(0) whether the row says nullptr or "", and the ""
// (varint(1)) of files from older writers reads as NULL too.
TEST(FormatFunctionTable, NoLengthExpressionIsNull) {
  auto one_param_row = [](const char *len_text) {
    ParamInfo p = sample::function("MPI_Send").params[1]; // count: no length
    p.len_text = len_text;
    const FunctionInfo f{5, "MPI_X", 1, &p};
    return encode_function_table({&f});
  };
  const std::string null_row = one_param_row(nullptr);
  EXPECT_EQ(null_row.back(), '\0'); // len_text is the row's last field
  EXPECT_EQ(one_param_row(""), null_row);
  const std::vector<OwnedFunction> back = decode_function_table(null_row);
  EXPECT_EQ(back.at(0).info().params[0].len_text, nullptr);

  std::string old_row = null_row;
  old_row.back() = '\1'; // varint(0 + 1): the empty string
  const std::vector<OwnedFunction> old = decode_function_table(old_row);
  EXPECT_EQ(old.at(0).info().params[0].len_text, nullptr);
  EXPECT_STREQ(decode_function_table(one_param_row("count")).at(0).info().params[0].len_text,
               "count");
}

} // namespace
} // namespace pilgrim
