// The committed trace of every format version (test/fixtures/version-N.pilgrim,
// docs/FORMAT.md §10) reads, and its copy in the fuzz corpus is the same
// file. A new kFormatVersion fails here until its fixture is added.
#include <gtest/gtest.h>

#include <string>

#include "../fixtures/fixture_files.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_reader.h"

namespace pilgrim {
namespace {

using test::file_bytes;
using test::fixture_path;

TEST(FormatVersionFixtures, EveryVersionReads) {
  for (unsigned v = kOldestFormatVersion; v <= kFormatVersion; ++v) {
    SCOPED_TRACE("version " + std::to_string(v));
    const Trace t = read_trace(fixture_path(v));
    EXPECT_EQ(t.header.version, v);
    EXPECT_EQ(t.nranks(), 4u);
    ASSERT_FALSE(t.merged.cst.empty());
    for (const CstEntry &e : t.merged.cst)
      EXPECT_NE(decode_signature(t, e.signature).function, nullptr);
    for (uint32_t r = 0; r < t.nranks(); ++r)
      EXPECT_FALSE(t.rank_trace(r).grammar.rules.empty());
  }
}

TEST(FormatVersionFixtures, FuzzCorpusHoldsEveryVersion) {
  for (unsigned v = kOldestFormatVersion; v <= kFormatVersion; ++v) {
    SCOPED_TRACE("version " + std::to_string(v));
    // Mode byte 0: a whole file (test/fuzz/trace_reader_fuzzer.cpp).
    EXPECT_EQ(file_bytes(std::string(PILGRIM_SOURCE_DIR) + "/test/fuzz/corpus/file-version-" +
                         std::to_string(v)),
              std::string(1, '\0') + file_bytes(fixture_path(v)));
  }
}

} // namespace
} // namespace pilgrim
