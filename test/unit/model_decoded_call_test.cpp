// The decoded call (pilgrim/decoded_call.h) and the walk over a rank's calls
// (pilgrim/rank_calls.h): every argument typed and resolved at its position,
// with the communicator-epoch rule of docs/FORMAT.md §7.7 applied by the
// model, so that no tool interprets a code itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../fuzz/sample_trace.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"

namespace pilgrim {
namespace {

using sample::SigBuilder;

// The single element of argument `param` (its `in`, else its `out`).
const CallElement &element(const Call &call, const char *param) {
  const CallArg *a = call.arg(param);
  EXPECT_NE(a, nullptr) << param;
  const CallValue *v = a->any();
  EXPECT_NE(v, nullptr) << param;
  EXPECT_FALSE(v->elements.empty()) << param;
  return v->elements.at(0);
}

TEST(DecodedCall, WithoutAContextRelativeRanksStayRelative) {
  const std::string sig = sample::send_sig(-2, sample::kWorld);
  const DecodedCall coded = decode_signature(sample::lookup, sig);
  const Call call = resolve_call(coded);
  EXPECT_STREQ(call.name(), "MPI_Send");
  EXPECT_EQ(call.coded, &coded);
  ASSERT_EQ(call.args.size(), 6u);
  const RankRef &dest = element(call, "dest").rank;
  EXPECT_EQ(dest.kind, RankCode::Relative);
  EXPECT_EQ(dest.offset, -2);
  EXPECT_FALSE(dest.known());
  EXPECT_FALSE(dest.sentinel());
  EXPECT_EQ(dest.caller, -1);
  // Handles: predefined with their names; a buffer as its memory id.
  const HandleRef &comm = element(call, "comm").handle;
  EXPECT_TRUE(comm.predefined());
  EXPECT_STREQ(comm.name, "MPI_COMM_WORLD");
  EXPECT_EQ(comm.handle_kind, HandleKind::Comm);
  EXPECT_STREQ(element(call, "datatype").handle.name, "MPI_INT");
  EXPECT_EQ(element(call, "buf").memory, 1);
  EXPECT_EQ(element(call, "count").integer, 1);
  const TagRef &tag = element(call, "tag").tag;
  EXPECT_FALSE(tag.any);
  EXPECT_EQ(tag.tag, 0);
  EXPECT_EQ(call.arg("no such parameter"), nullptr);

  // The same call in a context: MPI_COMM_WORLD's rank is known.
  CallContext ctx;
  ctx.world_rank = 5;
  const Call in_context = resolve_call(coded, ctx);
  const RankRef &at5 = element(in_context, "dest").rank;
  EXPECT_EQ(at5.rank, 3);
  EXPECT_EQ(at5.caller, 5);
}

TEST(DecodedCall, SentinelsWildcardsAndUserHandles) {
  const DecodedCall coded =
      decode_signature(sample::lookup, sample::any_source_irecv_sig(sig::handle_user(3)));
  const Call call = resolve_call(coded);
  const RankRef &source = element(call, "source").rank;
  EXPECT_EQ(source.kind, RankCode::AnySource);
  EXPECT_TRUE(source.sentinel());
  EXPECT_STREQ(source.sentinel_name(), "MPI_ANY_SOURCE");
  EXPECT_FALSE(source.known());
  const HandleRef &comm = element(call, "comm").handle;
  EXPECT_TRUE(comm.user());
  EXPECT_EQ(comm.id, 3u);
  EXPECT_EQ(comm.name, nullptr);
  const HandleRef &request = element(call, "request").handle;
  EXPECT_TRUE(request.user());
  EXPECT_EQ(request.handle_kind, HandleKind::Request);
  EXPECT_EQ(request.id, 0u);

  EXPECT_TRUE(resolve_tag(sig::kTagAny).any);
  EXPECT_EQ(resolve_tag(sig::tag_value(-7)).tag, -7);
  EXPECT_TRUE(resolve_handle(HandleKind::Comm, sig::kHandleNull).null());
  EXPECT_STREQ(resolve_rank(sig::kRankProcNull, RankBase{}).sentinel_name(), "MPI_PROC_NULL");
  const RankRef abs = resolve_rank(sig::rank_absolute(6), RankBase{});
  EXPECT_EQ(abs.kind, RankCode::Absolute);
  EXPECT_EQ(abs.rank, 6);
}

// What one call of the walk says: its function, and the rank its Rank or
// Status argument names.
struct Seen {
  std::string function;
  int64_t rank = -1;   // dest, target_rank or the status's source
  int64_t caller = -1; // the caller's rank in the communicator or window
};

std::vector<Seen> walk(const Trace &trace, const std::vector<DecodedCall> &cst, uint32_t rank) {
  std::vector<Seen> seen;
  RankCalls calls(trace, cst, rank);
  uint64_t expected_index = 0;
  while (calls.advance()) {
    EXPECT_EQ(calls.index(), expected_index++);
    const Call &call = calls.call();
    EXPECT_EQ(call.coded, &cst[calls.terminal()]);
    EXPECT_EQ(&calls.call(), &call); // resolved once at this position
    Seen s;
    s.function = call.name();
    const RankRef *r = nullptr;
    if (s.function == "MPI_Send")
      r = &element(call, "dest").rank;
    else if (s.function == "MPI_Put")
      r = &element(call, "target_rank").rank;
    else if (s.function == "MPI_Waitall") {
      const StatusRef &status = element(call, "array_of_statuses").status;
      EXPECT_EQ(status.kind, sig::kStatusFull);
      EXPECT_EQ(status.count_bytes, 4);
      EXPECT_FALSE(status.tag.any);
      EXPECT_EQ(status.source.kind, RankCode::Relative);
      EXPECT_EQ(status.source.offset, -1);
      r = &status.source;
      // The request the status belongs to.
      const CallElement *request = status_request(call, 2, 0);
      EXPECT_NE(request, nullptr);
      if (request) {
        EXPECT_TRUE(request->handle.user());
        EXPECT_EQ(request->handle.id, 0u);
      }
    }
    if (r) {
      s.rank = r->rank;
      s.caller = r->caller;
    }
    seen.push_back(s);
  }
  EXPECT_FALSE(calls.advance());
  return seen;
}

TEST(RankCalls, RelativeRanksFollowTheCommunicatorEpochAtTheirPosition) {
  // Rank 1 of 4: rank 2 of comm#0 (a split with reversed keys), which it
  // frees; then rank 1 of the split that re-creates comm#0 with the same id.
  // The same CST entries (send +1, the completion's source -1, put +1) name
  // other ranks in each epoch.
  const Trace trace = read_trace_from_memory(sample::comm_reuse_trace_bytes(4, 3), "t.pilgrim");
  const std::vector<DecodedCall> cst = decode_cst(trace);
  ASSERT_EQ(cst.size(), trace.merged.cst.size());
  const std::vector<Seen> seen = walk(trace, cst, 1);
  const std::vector<std::string> functions = {
      "MPI_Comm_split", "MPI_Irecv",      "MPI_Send",       "MPI_Waitall", "MPI_Win_create",
      "MPI_Put",        "MPI_Comm_free",  "MPI_Comm_split", "MPI_Irecv",   "MPI_Send",
      "MPI_Waitall",    "MPI_Win_create", "MPI_Put"};
  ASSERT_EQ(seen.size(), functions.size());
  for (size_t i = 0; i < seen.size(); ++i)
    EXPECT_EQ(seen[i].function, functions[i]) << i;
  // First epoch: rank 2 of comm#0.
  EXPECT_EQ(seen[2].rank, 3);
  EXPECT_EQ(seen[2].caller, 2);
  EXPECT_EQ(seen[3].rank, 1); // relative to the request's communicator
  EXPECT_EQ(seen[5].rank, 3); // win#0 over comm#0
  // Second epoch: rank 1 of the re-created comm#0.
  EXPECT_EQ(seen[9].rank, 2);
  EXPECT_EQ(seen[9].caller, 1);
  EXPECT_EQ(seen[10].rank, 0);
  EXPECT_EQ(seen[12].rank, 2);
}

TEST(RankCalls, VersionTwoCompletionsAreRelativeToTheWorldRank) {
  const Trace trace = read_trace_from_memory(sample::comm_reuse_trace_bytes(4, 2), "t.pilgrim");
  const std::vector<DecodedCall> cst = decode_cst(trace);
  const std::vector<Seen> seen = walk(trace, cst, 1);
  ASSERT_EQ(seen.size(), 13u);
  EXPECT_EQ(seen[3].rank, 0); // world rank 1, -1
  EXPECT_EQ(seen[10].rank, 0);
  EXPECT_EQ(seen[9].rank, 2); // a send's dest: still its communicator's
}

TEST(RankCalls, ARankOutOfRangeIsAnError) {
  const Trace trace = read_trace_from_memory(sample::comm_reuse_trace_bytes(2, 3), "t.pilgrim");
  const std::vector<DecodedCall> cst = decode_cst(trace);
  EXPECT_THROW(RankCalls(trace, cst, 2), TraceError);
}

} // namespace
} // namespace pilgrim
