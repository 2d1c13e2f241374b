// The tracer's datatype layout records (datatype_layouts.h, docs/FORMAT.md
// §8.5): a reader walking a rank's calls takes each datatype's layout from
// the last record of its id, and counts the bytes of its buffers with it;
// a record of a kind a reader does not know still prints from its row.
#include <gtest/gtest.h>

#include <string>

#include "../fuzz/sample_trace.h"
#include "pilgrim/call_formatter.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/datatype_layouts.h"
#include "pilgrim/message_volume.h"
#include "pilgrim/record_ranges.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim {
namespace {

using sample::SigBuilder;
namespace s = sig;

DecodedCall decode(const std::string &bytes) { return decode_signature(sample::lookup, bytes); }

std::string layout_sig(uint64_t type, int64_t size, int64_t extent) {
  return sample::datatype_layout_sig(type, size, extent, 4, extent - 4);
}

std::string send_sig(uint64_t type, int64_t count) {
  return SigBuilder("MPI_Send")
      .v(s::buffer_id(0))
      .i(count)
      .v(type)
      .v(s::rank_absolute(1))
      .v(s::tag_value(0))
      .v(sample::kWorld)
      .done();
}

TEST(DatatypeLayouts, ReadsTheRecord) {
  uint64_t code = 0;
  DatatypeLayout l;
  ASSERT_TRUE(datatype_layout_record(decode(layout_sig(s::handle_user(3), 24, 40)), code, l));
  EXPECT_EQ(code, s::handle_user(3));
  EXPECT_EQ(l.size, 24);
  EXPECT_EQ(l.lb.value, 0);
  EXPECT_EQ(l.extent(), 40);
  EXPECT_EQ(l.true_lb.value, 4);
  EXPECT_EQ(l.true_extent(), 36);
  // Bounds in two memories have no extent a reader can know.
  l.ub.code = s::address_id(1);
  EXPECT_EQ(l.extent(), -1);
  EXPECT_FALSE(datatype_layout_record(decode(send_sig(sample::kInt, 1)), code, l));
}

TEST(DatatypeLayouts, SizeBuffersOfDerivedDatatypesFromTheLastRecord) {
  CreationTracker tracker(0, kFormatVersion, {}, {});
  const uint64_t t0 = s::handle_user(0);
  const DecodedCall send = decode(send_sig(t0, 3));
  MessageVolume v = message_volume(send, tracker.context());
  EXPECT_FALSE(v.complete); // no record yet: unsized
  const uint64_t before = tracker.version();
  tracker.apply(decode(layout_sig(t0, 16, 16)));
  EXPECT_NE(tracker.version(), before);
  v = message_volume(send, tracker.context());
  EXPECT_TRUE(v.complete);
  EXPECT_EQ(v.bytes, 48u);
  // The id freed and made again: the next record's layout applies.
  tracker.apply(decode(layout_sig(t0, 8, 12)));
  EXPECT_EQ(message_volume(send, tracker.context()).bytes, 24u);
  // The same layout again changes nothing a context depends on.
  const uint64_t same = tracker.version();
  tracker.apply(decode(layout_sig(t0, 8, 12)));
  EXPECT_EQ(tracker.version(), same);
  // Another datatype stays unsized; predefined ones keep their sizes.
  EXPECT_FALSE(message_volume(decode(send_sig(s::handle_user(1), 1)), tracker.context()).complete);
  EXPECT_EQ(message_volume(decode(send_sig(sample::kInt, 2)), tracker.context()).bytes, 8u);
}

// A record of a kind this build does not know (a marker, say) prints from
// its row like any call.
const ParamInfo kMarkerParams[] = {sample::value("level"), sample::value("phase")};
const FunctionInfo kMarker{0x3D42, "pilgrim_future_marker", 2, kMarkerParams};

TEST(DatatypeLayouts, AnUnknownRecordKindPrintsFromItsRow) {
  EXPECT_EQ(record_kind(kMarker.id), RecordKind::Marker);
  const FunctionLookup lookup = [](uint16_t id) -> const FunctionInfo * {
    return id == kMarker.id ? &kMarker : sample::lookup(id);
  };
  // Function id 0x3D42 (varint c2 7a), thread 0, level 1 and phase 7
  // (zigzag), return code 0.
  const std::string bytes("\xc2\x7a\x00\x02\x0e\x00", 6);
  const DecodedCall call = decode_signature(lookup, bytes);
  EXPECT_EQ(format_call(call), "pilgrim_future_marker(level=1, phase=7) = MPI_SUCCESS");
}

} // namespace
} // namespace pilgrim
