// The communication matrix's data structure and heat map
// (tools/pilgrim-stats/matrix_model.h, matrix_svg.h): sums saturate, cells
// sort by sender then receiver, the labels thin out as ranks grow, and the
// SVG has one square per pair with something, whatever the ranks.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "matrix_model.h"
#include "matrix_svg.h"

namespace pilgrim::stats {
namespace {

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

TEST(SparseMatrix, AddsSortsAndSaturates) {
  SparseMatrix m;
  m.add(3, 1, 2, 100);
  m.add(0, 2, 1, 8);
  m.add(3, 1, 1, UINT64_MAX);
  SparseMatrix t;
  t.add(m);
  t.add(0, 2, 1, 8);
  const auto cells = t.sorted();
  ASSERT_EQ(cells.size(), 2u);
  auto it = cells.begin();
  EXPECT_EQ(it->first, std::make_pair(0u, 2u));
  EXPECT_EQ(it->second.messages, 2u);
  EXPECT_EQ(it->second.bytes, 16u);
  ++it;
  EXPECT_EQ(it->first, std::make_pair(3u, 1u));
  EXPECT_EQ(it->second.messages, 3u);
  EXPECT_EQ(it->second.bytes, UINT64_MAX);
}

TEST(MatrixSvg, LabelsThinOutAsRanksGrow) {
  EXPECT_EQ(label_step(1, 512, 24), 1u);
  EXPECT_EQ(label_step(9, 512, 24), 1u);
  EXPECT_EQ(label_step(21, 512, 24), 1u);
  EXPECT_EQ(label_step(22, 512, 24), 2u);
  EXPECT_EQ(label_step(256, 512, 24), 20u);
  EXPECT_EQ(label_step(1000, 512, 24), 50u);
  EXPECT_EQ(label_step(1u << 20, 512, 24), 50000u);
}

TEST(MatrixSvg, OneSquarePerPairAndAFixedSize) {
  SparseMatrix m;
  for (uint32_t r = 0; r < 256; ++r)
    m.add(r, (r + 1) % 256, 1, 8 * (r + 1));
  HeatMapSpec spec;
  spec.title = "T <&>";
  spec.unit = "bytes";
  const std::string svg = matrix_svg(m, 256, spec);
  EXPECT_NE(svg.find("width=\"720\" height=\"650\""), std::string::npos);
  EXPECT_NE(svg.find(">T &lt;&amp;&gt;</text>"), std::string::npos);
  // 256 cells, the plot's background, its frame, the bar and the "none" swatch.
  EXPECT_EQ(count(svg, "<rect "), 256u + 5u);
  EXPECT_EQ(count(svg, "text-anchor=\"end\" font-size=\"10\""), 13u); // 0, 20, ..., 240
  // An empty matrix is a grey plot, not an error.
  EXPECT_EQ(count(matrix_svg(SparseMatrix(), 4, spec), "<rect "), 5u);
}

} // namespace
} // namespace pilgrim::stats
