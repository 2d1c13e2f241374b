// The coded file names of posix records (docs/FORMAT.md §8.6.1): what the
// runtime's coder writes (runtime/preload/file_name_coder.h), the model's decoder
// reads back, whatever the names, ranks, threads and order; and a checkpoint
// named by rank and step codes alike on every rank and at every step.
#include "preload/file_name_coder.h"
#include "pilgrim/file_name_decoder.h"
#include "pilgrim/trace_error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace pilgrim {
namespace {

std::string coded(rt::FileNameCoder &coder, const std::string &name, int64_t rank) {
  std::string out;
  coder.code(name.c_str(), rank, out);
  return out;
}

std::string ckpt(int step, int rank) {
  char b[64];
  std::snprintf(b, sizeof b, "ckpt-%04d-rank%d.dat", step, rank);
  return b;
}

TEST(FileNameCoding, CheckpointIsOneSignatureAfterTheFirstStep) {
  std::set<std::string> first, later;
  for (int rank = 0; rank < 16; ++rank) {
    rt::FileNameCoder coder;
    FileNameDecoder decoder(rank);
    for (int step = 0; step < 120; ++step) {
      const std::string name = ckpt(step, rank);
      const std::string c = coded(coder, name, rank);
      EXPECT_EQ(c.find('\0'), std::string::npos); // a String element's bytes
      EXPECT_EQ(decoder.decode(0, c), name);
      (step == 0 ? first : later).insert(c);
    }
  }
  EXPECT_EQ(later.size(), 1u);
  // Step 0: rank 0's step field equals its rank (coded from the rank), the
  // others' is the literal 0.
  EXPECT_EQ(first.size(), 2u);
}

TEST(FileNameCoding, PaddingSurvivesACarry) {
  rt::FileNameCoder coder;
  FileNameDecoder decoder(3);
  std::set<std::string> forms;
  for (int step = 995; step < 1005; ++step) {
    const std::string name = ckpt(step, 3);
    const std::string c = coded(coder, name, 3);
    EXPECT_EQ(decoder.decode(0, c), name);
    if (step > 995)
      forms.insert(c);
  }
  EXPECT_EQ(forms.size(), 1u); // 0999 -> 1000 keeps width 4
  for (const char *n : {"a9", "a10", "a010", "a0", "a00", "a000000000000000000000123", "x\x01y7",
                        "\x01\x01", "7\x01", "", "0", "/tmp/x/0/1/2"}) {
    EXPECT_EQ(decoder.decode(1, coded(coder, n, 3)), n);
  }
}

TEST(FileNameCoding, RandomNamesRoundTrip) {
  std::mt19937_64 rng(15);
  const std::string alphabet = "ab-_./\x01";
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t rank = static_cast<int64_t>(rng() % 64);
    rt::FileNameCoder coders[2]; // one per thread
    FileNameDecoder decoder(rank);
    std::vector<std::string> templates;
    for (int t = 0; t < 4; ++t) {
      std::string s;
      const int parts = static_cast<int>(rng() % 6);
      for (int p = 0; p < parts; ++p) {
        s += alphabet[rng() % alphabet.size()];
        if (rng() % 2)
          s += '#'; // a field
      }
      templates.push_back(s);
    }
    for (int i = 0; i < 50; ++i) {
      const std::string &t = templates[rng() % templates.size()];
      std::string name;
      for (char c : t) {
        if (c != '#') {
          name += c;
          continue;
        }
        const int digits = 1 + static_cast<int>(rng() % 22); // some over 18: text
        const bool small = rng() % 2;
        std::string d = std::to_string(small ? rng() % 20 + static_cast<uint64_t>(rank) : rng());
        if (rng() % 3 == 0 && static_cast<int>(d.size()) < digits)
          d.insert(0, digits - d.size(), '0');
        name += d;
      }
      const unsigned thread = rng() % 2;
      const std::string c = coded(coders[thread], name, rank);
      ASSERT_EQ(c.find('\0'), std::string::npos) << name;
      ASSERT_EQ(decoder.decode(thread, c), name) << "trial " << trial << " name " << name;
    }
  }
}

TEST(FileNameCoding, MalformedFormsAreErrors) {
  FileNameDecoder decoder(0);
  EXPECT_THROW(decoder.decode(0, "a\x01"), TraceError);         // ends in a field
  EXPECT_THROW(decoder.decode(0, "a\x01\x02"), TraceError);     // no code
  EXPECT_THROW(decoder.decode(0, "a\x01\x02\x0c"), TraceError); // mode 3
  EXPECT_THROW(decoder.decode(0, "b\x01\x02\x03"), TraceError); // previous, none
  EXPECT_THROW(decoder.decode(0, "c\x01\x02\x06"), TraceError); // rank 0 - 1 < 0
}

TEST(FileNameCoding, RandomBytesDecodeOrFailCleanly) {
  std::mt19937_64 rng(7);
  FileNameDecoder decoder(5);
  size_t decoded = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string coded(rng() % 12, '\0');
    for (char &c : coded)
      c = static_cast<char>(rng() % 4 == 0 ? 1 : rng() % 256);
    try {
      decoder.decode(rng() % 3, coded);
      ++decoded;
    } catch (const TraceError &) {
    }
  }
  EXPECT_GT(decoded, 0u);
}

} // namespace
} // namespace pilgrim
