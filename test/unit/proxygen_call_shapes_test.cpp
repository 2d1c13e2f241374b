// Calls as shapes with typed holes (proxygen/call_shapes.h): putting each
// hole's literal back gives the call's lines again; literals that are part of
// the code's structure stay; holes in an array's initializer take its element
// type; calls that differ only in literals share a shape.
#include "call_shapes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using pilgrim::proxygen::CallShapes;
using pilgrim::proxygen::Hole;
using pilgrim::proxygen::shape_of;
using pilgrim::proxygen::ShapedLines;

namespace {

std::string join(const std::vector<std::string> &lines) {
  std::string s;
  for (size_t i = 0; i < lines.size(); ++i)
    s += (i ? "\n" : "") + lines[i];
  return s;
}

// The shape with every hole's literal put back.
std::string fill(const ShapedLines &s) {
  std::string out;
  for (size_t i = 0; i < s.text.size(); ++i) {
    if (s.text[i] != '\x01') {
      out += s.text[i];
      continue;
    }
    const size_t end = s.text.find('\x02', i);
    out += s.holes.at(std::stoul(s.text.substr(i + 1, end - i - 1))).text;
    i = end;
  }
  return out;
}

std::vector<std::string> types(const ShapedLines &s) {
  std::vector<std::string> t;
  for (const Hole &h : s.holes)
    t.push_back(h.type);
  return t;
}

} // namespace

TEST(ProxygenCallShapes, LiteralsBecomeTypedHoles) {
  const ShapedLines s =
      shape_of({"compute(3.55e-05);", "MPI_Info_set(info_0, \"key\", \"7\\\"9\");",
                "status = make_status(world_rank - 1, 7, 32, 0);",
                "MPI_Send(buf_0, 4000000000LL, MPI_INT, 1u, 0x1f, MPI_COMM_WORLD);"});
  EXPECT_EQ(types(s), (std::vector<std::string>{"double", "const char *", "const char *",
                                                "long long", "long long", "long long", "long long",
                                                "long long", "unsigned long long", "long long"}));
  EXPECT_EQ(s.holes[0].text, "3.55e-05");
  EXPECT_EQ(s.holes[2].text, "\"7\\\"9\"");
  EXPECT_EQ(s.holes[7].text, "4000000000LL");
}

TEST(ProxygenCallShapes, InitializersTakeTheElementType) {
  const ShapedLines s =
      shape_of({"{", "  const MPI_Aint displs[2] = {0, 16};", "  int ranges[1][3] = {{0, 3, -1}};",
                "  double w[1] = {0.5};",
                "  MPI_Type_create_hindexed(2, counts, displs, MPI_INT, &type_0);", "}"});
  EXPECT_EQ(types(s), (std::vector<std::string>{"MPI_Aint", "MPI_Aint", "int", "int", "int",
                                                "double", "long long"}));
  // Array sizes and indices stay in the shape.
  EXPECT_NE(s.text.find("displs[2]"), std::string::npos);
  EXPECT_NE(s.text.find("ranges[1][3]"), std::string::npos);
}

TEST(ProxygenCallShapes, StructuralLiteralsStay) {
  const std::vector<std::string> lines = {
      "MPI_Comm_create_keyval(copy_attr<3, MPI_Comm>, delete_attr<3, MPI_Comm>, nullptr, "
      "&keyval_0);",
      "char name_0[16] = \"abc\";", "x = statuses[2].MPI_SOURCE; // 5 polls",
      "y = __builtin_nan(\"\");", "switch (v) { case 4: break; }"};
  const ShapedLines s = shape_of(lines);
  EXPECT_TRUE(s.holes.empty()) << s.holes.size() << " holes, first " << s.holes[0].text;
  EXPECT_EQ(s.text, join(lines));
}

// Random emitter-like lines: the shape with its literals put back is the
// text, whatever the mix.
TEST(ProxygenCallShapes, FillingTheHolesGivesTheLinesBack) {
  const std::vector<std::string> pieces = {"MPI_Bcast(buf_3, ",
                                           "17",
                                           ", MPI_BYTE, ",
                                           "0",
                                           ", MPI_COMM_SELF);",
                                           "compute(",
                                           "1.5e-06",
                                           ");",
                                           "{ const int c[3] = {",
                                           "1, 2, -3",
                                           "}; }",
                                           "\"s\\\\t\"",
                                           "// 12 x\n",
                                           " ",
                                           "\n",
                                           "-4",
                                           "[7]",
                                           "0x10",
                                           "'a'",
                                           "3.0",
                                           "/* 9 */"};
  uint64_t x = 12345;
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<std::string> lines(1);
    for (int k = 0; k < 12; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const std::string &p = pieces[(x >> 33) % pieces.size()];
      if (p == "\n")
        lines.emplace_back();
      else
        lines.back() += p;
    }
    const ShapedLines s = shape_of(lines);
    EXPECT_EQ(fill(s), join(lines)) << "trial " << trial;
  }
}

TEST(ProxygenCallShapes, CallsDifferingInLiteralsShareAShape) {
  CallShapes shapes;
  const auto a = shapes.add(0, {"MPI_Info_set(info_0, \"key\", \"1\");"});
  const auto b = shapes.add(1, {"MPI_Info_set(info_0, \"key\", \"2\");"});
  const auto c = shapes.add(2, {"MPI_Info_free(&info_0);"});
  const auto again = shapes.add(1, {"ignored: terminal 1 is known"});
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.second, 0u);
  EXPECT_EQ(b.second, 1u);
  EXPECT_NE(c.first, a.first);
  EXPECT_EQ(again, b);
  const uint32_t outer = shapes.reserve_run(), inner = shapes.reserve_run();
  shapes.set_run(inner, {{a.first, a.second, 1}, {b.first, b.second, 3}});
  shapes.set_run(outer, {{CallShapes::kRunStep, inner, 2}, {c.first, c.second, 1}});
  const std::string defs = join(shapes.definitions());
  // The key never varies: it stays in the shape; the values are a column.
  EXPECT_NE(defs.find("MPI_Info_set(info_0, \"key\", kShape0_1[r]);"), std::string::npos) << defs;
  EXPECT_NE(defs.find("static const char *const kShape0_1[] = {\n    \"1\", \"2\"};"),
            std::string::npos)
      << defs;
  // Runs may refer to runs numbered after them.
  EXPECT_NE(defs.find("static const ProxyStep kRun0[] = {\n    {kRunStep, 1, 2}, {1, 0, 1}};"),
            std::string::npos)
      << defs;
  EXPECT_NE(defs.find("static const ProxyStep kRun1[] = {\n    {0, 0, 1}, {0, 1, 3}};"),
            std::string::npos)
      << defs;
  EXPECT_NE(defs.find("{kRun0, 2}, {kRun1, 2},"), std::string::npos) << defs;
  // A shape without varying literals takes no row parameter name (no warning).
  EXPECT_NE(defs.find("static void shape_1(std::uint32_t) {"), std::string::npos) << defs;
}
