// Signature encoding (signature_encoding.h) and decoding/formatting
// (signature_decoder.h, call_formatter.h) for every role, sentinel and NULL.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../fuzz/sample_trace.h"
#include "pilgrim/call_formatter.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/message_volume.h"
#include "pilgrim/predefined_handles.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_model.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {
namespace {

using sample::SigBuilder;
namespace s = sig;

DecodedCall decode(const std::string &bytes) { return decode_signature(sample::lookup, bytes); }

// The call's text on a rank with world rank `world_rank` whose communicators
// `comms` all exist from its first call (one entry each, no creation).
std::string text(const std::string &bytes, int64_t world_rank = 2,
                 const std::vector<CommInfo> *comms = nullptr) {
  const CreationTracker state(world_rank, kFormatVersion, comms ? *comms : std::vector<CommInfo>{},
                              {});
  return format_call(decode(bytes), state.context());
}

std::string hex(const std::string &b) {
  static const char d[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    if (!out.empty())
      out += ' ';
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

TEST(FormatSignature, PartMembership) {
  const FunctionInfo &irecv = sample::function("MPI_Irecv");
  EXPECT_TRUE(s::in_part_includes(irecv.params[0])); // out buffer: id taken before the call
  EXPECT_FALSE(s::out_part_includes(irecv.params[0]));
  EXPECT_FALSE(s::out_part_includes(irecv.params[6]));     // created request...
  EXPECT_TRUE(s::deferred_part_includes(irecv.params[6])); // ...is deferred
  const FunctionInfo &waitall = sample::function("MPI_Waitall");
  EXPECT_TRUE(s::in_part_includes(waitall.params[1])); // inout: both
  EXPECT_TRUE(s::out_part_includes(waitall.params[1]));
  EXPECT_FALSE(s::deferred_part_includes(waitall.params[1])); // freed, not created
}

TEST(FormatSignature, ArrayPrefixRule) {
  const FunctionInfo &spawn = sample::function("MPI_Comm_spawn");
  EXPECT_FALSE(s::has_array_prefix(spawn.params[0])); // String
  EXPECT_FALSE(s::has_array_prefix(spawn.params[1])); // StringArray, even with kFlagArray
  EXPECT_TRUE(s::has_array_prefix(spawn.params[6]));  // Handle pointer
  EXPECT_TRUE(s::has_array_prefix(spawn.params[7]));  // int array
  const FunctionInfo &recv = sample::function("MPI_Recv");
  EXPECT_FALSE(s::has_array_prefix(recv.params[0])); // Buffer pointer: one element
  EXPECT_FALSE(s::has_array_prefix(recv.params[6])); // Status pointer: one element
  EXPECT_TRUE(s::has_array_prefix(sample::function("MPI_Waitall").params[2])); // Status array
  EXPECT_FALSE(s::has_array_prefix(sample::function("MPI_Init").params[0]));   // Opaque
  EXPECT_TRUE(s::has_array_prefix(sample::function("PILGRIM_Fake_double").params[1]));
  EXPECT_FALSE(s::has_array_prefix(sample::function("PILGRIM_Fake_double").params[0]));
}

TEST(FormatSignature, CodeConstants) {
  EXPECT_EQ(s::rank_absolute(0), 4u);
  EXPECT_EQ(s::rank_relative(0), 5u);
  EXPECT_EQ(s::rank_absolute(3), 4u + 2 * 6);
  EXPECT_EQ(s::rank_relative(-1), 4u + 2 * 1 + 1);
  EXPECT_EQ(s::tag_value(0), 1u);
  EXPECT_EQ(s::tag_value(-1), 2u);
  EXPECT_EQ(s::handle_predefined(0), 1u);
  EXPECT_EQ(s::handle_user(0), 2u);
  EXPECT_EQ(s::buffer_id(0), 3u);
  EXPECT_EQ(s::pointer_id(0), 1u);
  EXPECT_EQ(s::array_prefix(0), 1u);
  EXPECT_EQ(s::string_encoded_size(nullptr), 1u);
  EXPECT_EQ(s::string_encoded_size("abc"), 4u);
}

// The worked example of docs/FORMAT.md.
TEST(FormatSignature, WorkedExampleFromFormatDoc) {
  const std::string bytes = SigBuilder(3) // MPI_Isend, thread 0
                                .v(s::buffer_id(2))
                                .i(8)
                                .v(s::handle_predefined(6)) // MPI_INT
                                .v(s::rank_relative(1))
                                .v(s::tag_value(7))
                                .v(s::handle_predefined(0)) // MPI_COMM_WORLD
                                .arr(1)
                                .v(s::handle_user(0))
                                .done(0);
  EXPECT_EQ(hex(bytes), "03 00 05 10 0d 09 0f 01 02 02 00");
  EXPECT_EQ(
      text(bytes, 0),
      "MPI_Isend(buf=buf#2, count=8, datatype=MPI_INT, dest=1 (+1), tag=7, comm=MPI_COMM_WORLD, "
      "request=req#0.0) = MPI_SUCCESS");
}

TEST(FormatSignature, RankSentinelsAndEncodings) {
  auto recv_source = [](uint64_t source_code) {
    return SigBuilder("MPI_Send")
        .v(s::buffer_id(0))
        .i(1)
        .v(sample::kInt)
        .v(source_code)
        .v(s::tag_value(0))
        .v(sample::kWorld)
        .done();
  };
  EXPECT_NE(text(recv_source(s::kRankAnySource)).find("dest=MPI_ANY_SOURCE,"), std::string::npos);
  EXPECT_NE(text(recv_source(s::kRankProcNull)).find("dest=MPI_PROC_NULL,"), std::string::npos);
  EXPECT_NE(text(recv_source(s::kRankRoot)).find("dest=MPI_ROOT,"), std::string::npos);
  EXPECT_NE(text(recv_source(s::kRankUndefined)).find("dest=MPI_UNDEFINED,"), std::string::npos);
  EXPECT_NE(text(recv_source(s::rank_absolute(5))).find("dest=5,"), std::string::npos);
  EXPECT_NE(text(recv_source(s::rank_relative(-2)), 2).find("dest=0 (-2),"), std::string::npos);
  EXPECT_NE(text(recv_source(s::rank_relative(0)), 2).find("dest=2 (+0),"), std::string::npos);
  EXPECT_NE(text(recv_source(s::rank_relative(3)), -1).find("dest=self+3,"), std::string::npos);

  const RankCode rc = decode_rank_code(s::rank_relative(-7));
  EXPECT_EQ(rc.kind, RankCode::Relative);
  EXPECT_EQ(rc.value, -7);
  EXPECT_EQ(decode_rank_code(s::rank_absolute(1 << 30)).value, 1 << 30);
}

TEST(FormatSignature, RelativeRanksUseTheCommsTable) {
  // comm#4: this rank is rank 1 there.
  const std::vector<CommInfo> comms = {CommInfo{4, 1, 3, -1}};
  const std::string bytes = SigBuilder("MPI_Send")
                                .v(s::buffer_id(0))
                                .i(1)
                                .v(sample::kInt)
                                .v(s::rank_relative(1))
                                .v(s::tag_value(0))
                                .v(s::handle_user(4))
                                .done();
  EXPECT_NE(text(bytes, 7, &comms).find("dest=2 (+1),"), std::string::npos);
  EXPECT_NE(text(bytes, 7, nullptr).find("dest=self+1,"), std::string::npos);
  // MPI_COMM_SELF: rank 0.
  const std::string self = SigBuilder("MPI_Send")
                               .v(s::buffer_id(0))
                               .i(1)
                               .v(sample::kInt)
                               .v(s::rank_relative(0))
                               .v(s::tag_value(0))
                               .v(s::handle_predefined(1))
                               .done();
  EXPECT_NE(text(self, 7).find("dest=0 (+0), tag=0, comm=MPI_COMM_SELF"), std::string::npos);
}

TEST(FormatSignature, RmaRanksUseTheWindowsCreator) {
  // comm#4: this rank is rank 1 there; in MPI_COMM_WORLD it is rank 7.
  const std::vector<CommInfo> comms = {CommInfo{4, 1, 3, -1}};
  auto create = sample::win_create_sig;
  auto put = sample::put_sig;
  // The rank's calls in order: each window's rank is its creator's rank in
  // the creating call's communicator at that call.
  CreationTracker state(7, kFormatVersion, comms, {});
  auto put_text = [&](int64_t offset, uint64_t win) {
    return format_call(decode(put(offset, win)), state.context());
  };
  auto run = [&](const std::string &sig) { state.apply(decode(sig)); };
  EXPECT_NE(put_text(1, 0).find("target_rank=self+1,"), std::string::npos); // not created yet
  run(create(s::handle_user(4), 0)); // win#0 over comm#4: rank 1
  run(create(sample::kWorld, 1));    // win#1 over WORLD: rank 7
  EXPECT_NE(put_text(1, 0).find("target_rank=2 (+1),"), std::string::npos);
  EXPECT_NE(put_text(-2, 1).find("target_rank=5 (-2),"), std::string::npos);
  run(create(s::handle_predefined(1), 1)); // win#1 reused over SELF: rank 0
  EXPECT_NE(put_text(0, 1).find("target_rank=0 (+0),"), std::string::npos);
  EXPECT_NE(put_text(1, 9).find("target_rank=self+1,"), std::string::npos); // never created
  EXPECT_NE(format_call(decode(put(1, 0)), CallContext{7}).find("target_rank=self+1,"),
            std::string::npos); // no state: nothing known of windows
}

TEST(FormatSignature, TagsBuffersHandles) {
  const std::string any = SigBuilder("MPI_Recv")
                              .v(s::kBufferBottom)
                              .i(0)
                              .v(s::kHandleNull)
                              .v(s::kRankAnySource)
                              .v(s::kTagAny)
                              .v(s::kHandleNull)
                              .v(s::kStatusIgnored)
                              .done(-5);
  EXPECT_EQ(text(any), "MPI_Recv(buf=MPI_BOTTOM, count=0, datatype=MPI_DATATYPE_NULL, "
                       "source=MPI_ANY_SOURCE, tag=MPI_ANY_TAG, "
                       "comm=MPI_COMM_NULL, status=MPI_STATUS_IGNORE) = -5");
  const std::string neg = SigBuilder("MPI_Send")
                              .v(s::kBufferNull)
                              .i(-3)
                              .v(s::handle_user(2))
                              .v(s::rank_absolute(0))
                              .v(s::tag_value(-9))
                              .v(s::handle_predefined(999))
                              .done();
  EXPECT_EQ(text(neg), "MPI_Send(buf=NULL, count=-3, datatype=type#2, dest=0, tag=-9, "
                       "comm=predefined-comm#999) = MPI_SUCCESS");
}

TEST(FormatSignature, StatusKinds) {
  const std::string full = SigBuilder("MPI_Recv")
                               .v(s::buffer_id(0))
                               .i(4)
                               .v(sample::kInt)
                               .v(s::kRankAnySource)
                               .v(s::kTagAny)
                               .v(sample::kWorld)
                               .v(s::kStatusFull)
                               .v(s::rank_relative(1))
                               .v(s::tag_value(7))
                               .i(16)
                               .done();
  EXPECT_NE(text(full, 0).find("status={source=1 (+1), tag=7, count=16}"), std::string::npos);
  const DecodedCall c = decode(full);
  EXPECT_EQ(c.params[6].out.elements[0].status.kind, s::kStatusFull);
  EXPECT_EQ(c.params[6].out.elements[0].status.count_bytes, 16);

  const std::string ignored = SigBuilder("MPI_Waitall")
                                  .i(1)
                                  .arr(1)
                                  .v(s::handle_user(0))
                                  .arr(1)
                                  .v(s::kHandleNull)
                                  .null()
                                  .done();
  EXPECT_EQ(text(ignored), "MPI_Waitall(count=1, array_of_requests=[req#0.0]->[MPI_REQUEST_NULL], "
                           "array_of_statuses=MPI_STATUSES_IGNORE) = MPI_SUCCESS");
  const std::string bad = SigBuilder("MPI_Recv")
                              .v(s::buffer_id(0))
                              .i(4)
                              .v(sample::kInt)
                              .v(s::kRankAnySource)
                              .v(s::kTagAny)
                              .v(sample::kWorld)
                              .v(4)
                              .done();
  EXPECT_THROW(decode(bad), TraceError);
}

TEST(FormatSignature, StringsArraysAndNulls) {
  const std::string spawn = SigBuilder("MPI_Comm_spawn")
                                .s("./w \"x\"\n")
                                .v(4)
                                .s("-n")
                                .s("")
                                .s(nullptr)
                                .i(2)
                                .v(s::handle_predefined(0))
                                .v(s::rank_relative(0))
                                .v(sample::kWorld)
                                .arr(1)
                                .v(s::handle_user(3))
                                .arr(2)
                                .i(0)
                                .i(-1)
                                .done();
  EXPECT_EQ(text(spawn, 0), "MPI_Comm_spawn(command=\"./w \\\"x\\\"\\n\", argv=[\"-n\", \"\", "
                            "NULL], maxprocs=2, info=MPI_INFO_ENV, "
                            "root=0 (+0), comm=MPI_COMM_WORLD, intercomm=comm#3, "
                            "array_of_errcodes=[0, -1]) = MPI_SUCCESS");
  const std::string nulls = SigBuilder("MPI_Comm_spawn")
                                .s(nullptr)
                                .v(s::kStringNull)
                                .i(0)
                                .v(s::kHandleNull)
                                .v(s::kRankRoot)
                                .v(sample::kWorld)
                                .null()
                                .null()
                                .done();
  EXPECT_EQ(
      text(nulls),
      "MPI_Comm_spawn(command=NULL, argv=NULL, maxprocs=0, info=MPI_INFO_NULL, root=MPI_ROOT, "
      "comm=MPI_COMM_WORLD, intercomm=NULL, array_of_errcodes=NULL) = MPI_SUCCESS");
}

TEST(FormatSignature, ArgvArrays) {
  const std::string sm = SigBuilder("MPI_Comm_spawn_multiple")
                             .i(2)
                             .v(3)
                             .s("a")
                             .s("b")
                             .v(3)
                             .v(2)
                             .s("x")
                             .v(0)
                             .arr(2)
                             .i(1)
                             .i(1)
                             .arr(2)
                             .v(s::kHandleNull)
                             .v(s::handle_predefined(0))
                             .v(s::rank_absolute(0))
                             .v(sample::kWorld)
                             .arr(1)
                             .v(s::handle_user(6))
                             .arr(2)
                             .i(0)
                             .i(0)
                             .done();
  EXPECT_EQ(text(sm), "MPI_Comm_spawn_multiple(count=2, array_of_commands=[\"a\", \"b\"], "
                      "array_of_argv=[[\"x\"], NULL], "
                      "array_of_maxprocs=[1, 1], array_of_info=[MPI_INFO_NULL, MPI_INFO_ENV], "
                      "root=0, comm=MPI_COMM_WORLD, "
                      "intercomm=comm#6, array_of_errcodes=[0, 0]) = MPI_SUCCESS");
  const DecodedCall c = decode(sm);
  ASSERT_EQ(c.params[2].in.elements.size(), 1u);
  ASSERT_EQ(c.params[2].in.elements[0].items.size(), 2u);
  EXPECT_EQ(c.params[2].in.elements[0].items[0].items[0].text, "x");
  EXPECT_EQ(c.params[2].in.elements[0].items[1].code, 0u);
}

// int [][3] rows are plain svarint values whatever the role (FORMAT.md §8.3):
// a stride is not a rank, and may be negative.
TEST(FormatSignature, Matrix3Rows) {
  const std::string g = SigBuilder("MPI_Group_range_incl")
                            .v(s::handle_predefined(0))
                            .i(2)
                            .arr(2)
                            .i(0)
                            .i(6)
                            .i(2)
                            .i(7)
                            .i(1)
                            .i(-3)
                            .arr(1)
                            .v(s::handle_user(2))
                            .done();
  EXPECT_EQ(text(g), "MPI_Group_range_incl(group=MPI_GROUP_EMPTY, n=2, ranges=[[0, 6, 2], [7, 1, "
                     "-3]], newgroup=group#2) = "
                     "MPI_SUCCESS");
  const DecodedCall c = decode(g);
  ASSERT_EQ(c.params[2].in.elements.size(), 6u);
  EXPECT_EQ(c.params[2].in.elements[5].integer, -3);
}

TEST(FormatSignature, CallbacksPointersKeyvals) {
  const std::string k = SigBuilder("MPI_Comm_create_keyval")
                            .v(s::callback_predefined(0))
                            .v(s::callback_user(3))
                            .v(s::pointer_id(0))
                            .arr(1)
                            .v(s::handle_user(0))
                            .done();
  EXPECT_EQ(
      text(k),
      "MPI_Comm_create_keyval(comm_copy_attr_fn=MPI_COMM_NULL_COPY_FN, comm_delete_attr_fn=fn#3, "
      "comm_keyval=keyval#0, extra_state=ptr#0) = MPI_SUCCESS");
  const std::string n = SigBuilder("MPI_Comm_create_keyval")
                            .v(s::kCallbackNull)
                            .v(s::callback_predefined(500))
                            .v(s::kPointerNull)
                            .arr(1)
                            .v(s::kHandleNull)
                            .done();
  EXPECT_EQ(text(n),
            "MPI_Comm_create_keyval(comm_copy_attr_fn=NULL, comm_delete_attr_fn=predefined-fn#500, "
            "comm_keyval=MPI_KEYVAL_INVALID, extra_state=NULL) = MPI_SUCCESS");
  const std::string a = SigBuilder("MPI_Comm_set_attr")
                            .v(sample::kWorld)
                            .v(s::handle_predefined(0))
                            .v(s::pointer_id(9))
                            .done();
  EXPECT_EQ(text(a),
            "MPI_Comm_set_attr(comm=MPI_COMM_WORLD, comm_keyval=MPI_TAG_UB, attribute_val=ptr#9) = "
            "MPI_SUCCESS");
}

TEST(FormatSignature, OpaqueVarargsOffsetDoubleInOut) {
  EXPECT_EQ(text(SigBuilder("MPI_Init").byte(0).byte(1).done()),
            "MPI_Init(argc=NULL, argv=non-NULL) = MPI_SUCCESS");
  EXPECT_THROW(decode(SigBuilder("MPI_Init").byte(2).byte(1).done()), TraceError);
  EXPECT_EQ(text(SigBuilder("MPI_Pcontrol").i(-1).done()),
            "MPI_Pcontrol(level=-1, ...) = MPI_SUCCESS");
  EXPECT_EQ(
      text(SigBuilder("MPI_File_write_at")
               .v(s::handle_user(0))
               .i(int64_t{1} << 40)
               .v(s::buffer_id(1))
               .i(3)
               .v(sample::kDouble)
               .v(s::kStatusCountOnly)
               .i(24)
               .done()),
      "MPI_File_write_at(fh=file#0, offset=1099511627776, buf=buf#1, count=3, datatype=MPI_DOUBLE, "
      "status={count=24}) = MPI_SUCCESS");
  const std::string d =
      SigBuilder("PILGRIM_Fake_double").d(0.1).arr(1).d(1.5).null().arr(1).d(-2.25).null().done(3);
  EXPECT_EQ(text(d), "PILGRIM_Fake_double(x=0.1, y=1.5->-2.25, flag=NULL->NULL) = 3");
  const DecodedCall c = decode(SigBuilder("PILGRIM_Fake_double")
                                   .d(std::numeric_limits<double>::infinity())
                                   .arr(1)
                                   .d(std::nan(""))
                                   .arr(1)
                                   .i(1)
                                   .arr(1)
                                   .d(-0.0)
                                   .arr(1)
                                   .i(2)
                                   .done());
  EXPECT_TRUE(std::isinf(c.params[0].in.elements[0].real));
  EXPECT_TRUE(std::isnan(c.params[1].in.elements[0].real));
  EXPECT_TRUE(std::signbit(c.params[1].out.elements[0].real));
  EXPECT_EQ(c.params[2].out.elements[0].integer, 2);
}

TEST(FormatSignature, ThreadIdAndReturnCode) {
  const DecodedCall c = decode(SigBuilder("MPI_Finalize", 12345).done(-77));
  EXPECT_EQ(c.thread_id, 12345u);
  EXPECT_EQ(c.return_code, -77);
  EXPECT_EQ(c.function_id, 23);
  EXPECT_TRUE(c.params.empty());
}

TEST(FormatSignature, MalformedInputsThrow) {
  const std::string good = sample::ring_rank(0).cst[2].signature; // MPI_Irecv
  ASSERT_NO_THROW(decode(good));
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_THROW(decode(good.substr(0, n)), TraceError) << n;
  EXPECT_THROW(decode(good + std::string("\x00", 1)), TraceError); // trailing
  EXPECT_THROW(decode(SigBuilder(777).done()), TraceError);        // unknown function
  EXPECT_THROW(decode("\xff\xff\x04"), TraceError);                // id > 0xffff
  // A huge array count with few bytes behind it.
  EXPECT_THROW(decode(SigBuilder("MPI_Waitall").i(1).v(uint64_t{1} << 60).done()), TraceError);
  // Overlong varint in the thread id.
  EXPECT_THROW(decode(std::string("\x17\x80\x00\x00", 4)), TraceError);
  try {
    decode(good.substr(0, good.size() - 2));
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_EQ(std::string(e.what()).find("MPI_Irecv parameter request (out): "), 0u) << e.what();
  }
}

TEST(FormatSignature, MessageVolume) {
  auto vol = [](const std::string &b, int64_t world = 0) {
    return message_volume(decode(b), CallContext{world});
  };
  const auto &ring = sample::ring_rank(0).cst;
  EXPECT_EQ(vol(ring[3].signature).bytes, 32u); // 8 x MPI_INT
  EXPECT_TRUE(vol(ring[3].signature).complete);
  EXPECT_EQ(vol(ring[5].signature).bytes, 16u); // Allreduce 1 double, both buffers
  // User datatype: unknown.
  const MessageVolume u = vol(SigBuilder("MPI_Send")
                                  .v(s::buffer_id(0))
                                  .i(4)
                                  .v(s::handle_user(0))
                                  .v(s::rank_absolute(1))
                                  .v(s::tag_value(0))
                                  .v(sample::kWorld)
                                  .done());
  EXPECT_FALSE(u.complete);
  EXPECT_EQ(u.bytes, 0u);
  // Gatherv at the root: IN_PLACE send, recvcounts summed.
  const std::string gv = SigBuilder("MPI_Gatherv")
                             .v(s::kBufferInPlace)
                             .i(2)
                             .v(sample::kInt)
                             .v(s::buffer_id(2))
                             .arr(3)
                             .i(1)
                             .i(2)
                             .i(3)
                             .arr(3)
                             .i(0)
                             .i(1)
                             .i(3)
                             .v(sample::kDouble)
                             .v(s::rank_relative(0))
                             .v(sample::kWorld)
                             .done();
  EXPECT_EQ(vol(gv).bytes, 48u);
  // Same call at a non-root (root = absolute 0, caller world rank 1): recvbuf ignored.
  const std::string gv1 = SigBuilder("MPI_Gatherv")
                              .v(s::buffer_id(0))
                              .i(2)
                              .v(sample::kInt)
                              .v(s::buffer_id(2))
                              .null()
                              .null()
                              .v(sample::kDouble)
                              .v(s::rank_absolute(0))
                              .v(sample::kWorld)
                              .done();
  EXPECT_EQ(vol(gv1, 1).bytes, 8u);
}

// Role Address (format version 4): the value itself, or a memory id of the
// buf#/ptr# space plus an offset; code 1 is the runtime's placeholder, which
// a file never holds.
TEST(FormatSignature, AddressElements) {
  const RankTrace rt = sample::address_rank(0, 2);
  EXPECT_EQ(text(rt.cst[1].signature),
            "MPI_Type_create_hindexed(count=3, array_of_blocklengths=[1, 2, 1], "
            "array_of_displacements=[ptr#0, ptr#0+8, 16], oldtype=MPI_INT, newtype=type#0) = "
            "MPI_SUCCESS");
  EXPECT_EQ(text(rt.cst[2].signature, 0),
            "MPI_Get(origin_addr=buf#2, origin_count=1, origin_datatype=MPI_INT, "
            "target_rank=self+1, target_disp=ptr#1+4, target_count=1, target_datatype=MPI_INT, "
            "win=win#0) = MPI_SUCCESS");
  const std::string negative = SigBuilder("MPI_Type_create_hindexed")
                                   .i(2)
                                   .arr(2)
                                   .i(1)
                                   .i(1)
                                   .arr(2)
                                   .v(s::address_id(3))
                                   .i(-8)
                                   .v(s::kAddressValue)
                                   .i(-1)
                                   .v(sample::kInt)
                                   .arr(1)
                                   .v(s::handle_user(0))
                                   .done();
  EXPECT_NE(text(negative).find("array_of_displacements=[ptr#3-8, -1]"), std::string::npos);
  const DecodedCall d = decode(negative);
  ASSERT_EQ(d.params[2].in.elements.size(), 2u);
  EXPECT_EQ(d.params[2].in.elements[0].code, s::address_id(3));
  EXPECT_EQ(d.params[2].in.elements[0].integer, -8);
  EXPECT_EQ(d.params[2].in.elements[1].code, s::kAddressValue);
  EXPECT_EQ(d.params[2].in.elements[1].integer, -1);
}

TEST(FormatSignature, AddressPlaceholderIsOnlyForTheRuntime) {
  const std::string head = SigBuilder("MPI_Get")
                               .v(s::buffer_id(2))
                               .i(1)
                               .v(sample::kInt)
                               .v(s::rank_relative(1))
                               .done()
                               .substr(0, 6); // function, thread and the four elements
  const std::string tail = SigBuilder("MPI_Get").i(1).v(sample::kInt).v(s::handle_user(0)).done();
  const std::string placeholder = SigBuilder("MPI_Get").v(s::kAddressPending).i(7).done();
  // function id + thread id are 2 bytes; the placeholder is varint(1) svarint(7).
  const std::string bytes = head + placeholder.substr(2, 2) + tail.substr(2);
  try {
    decode(bytes);
    ADD_FAILURE() << "a placeholder decoded";
  } catch (const TraceError &e) {
    EXPECT_NE(std::string(e.what()).find("unresolved address (code 1)"), std::string::npos)
        << e.what();
  }
  std::vector<PendingAddress> pending;
  const DecodedCall d = decode_signature(sample::lookup, bytes, &pending);
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].begin, 6u);
  EXPECT_EQ(pending[0].end, 8u);
  EXPECT_EQ(pending[0].index, 7);
  EXPECT_EQ(d.params[4].in.elements[0].code, s::kAddressPending);
}

} // namespace
} // namespace pilgrim
