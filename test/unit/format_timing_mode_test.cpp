// META's timing mode and its names (pilgrim/timing_mode.h, docs/FORMAT.md §5).
#include <gtest/gtest.h>

#include "pilgrim/timing_mode.h"

namespace pilgrim {
namespace {

TEST(FormatTimingMode, NamesAndUnknownValues) {
  EXPECT_EQ(timing_mode_text(static_cast<uint8_t>(TimingMode::None)), "none");
  EXPECT_EQ(timing_mode_text(static_cast<uint8_t>(TimingMode::Aggregate)), "aggregate");
  EXPECT_EQ(timing_mode_text(7), "pred-clustered");
  EXPECT_EQ(timing_mode_text(9), "unknown (9)");
  EXPECT_EQ(timing_mode_text(255), "unknown (255)");
}

} // namespace
} // namespace pilgrim
