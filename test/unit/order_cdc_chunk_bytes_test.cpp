// A CDC chunk's bytes (order/include/pilgrim/cdc_chunk_bytes.h): random
// records round-trip through write_chunk -> read_chunk -> rows_of_chunk;
// every truncation, random corruptions and hostile but well-checksummed
// bytes are one TraceError, never a crash (the CI runs this under ASan and
// UBSan); what the reader accepts is exactly what the writer writes.
#include "pilgrim/byte_io.h"
#include "pilgrim/cdc_chunk.h"
#include "pilgrim/cdc_chunk_bytes.h"
#include "pilgrim/crc32c.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/trace_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace pilgrim::order {
namespace {

// A record of `n` messages from `senders` ranks, each sender's clocks
// growing, seen nearly in clock order (a few late or early), with runs of
// failed tests and with_next groups sprinkled in.
std::vector<EventRow> random_rows(std::mt19937_64 &rng, size_t n, int senders) {
  std::vector<uint64_t> clock(static_cast<size_t>(senders), 0);
  std::vector<std::pair<uint64_t, MessageId>> sent; // (arrival key, message)
  std::uniform_int_distribution<int> sender(0, senders - 1);
  std::uniform_int_distribution<uint64_t> step(1, 5), jitter(0, 12);
  uint64_t now = 0;
  for (size_t i = 0; i < n; ++i) {
    const int s = sender(rng);
    now += step(rng);
    clock[static_cast<size_t>(s)] = std::max(clock[static_cast<size_t>(s)] + 1, now);
    sent.push_back(
        {clock[static_cast<size_t>(s)] + jitter(rng), {s, clock[static_cast<size_t>(s)]}});
  }
  std::stable_sort(sent.begin(), sent.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<EventRow> rows;
  std::uniform_int_distribution<int> percent(0, 99);
  for (size_t i = 0; i < sent.size(); ++i) {
    if (percent(rng) < 20)
      rows.push_back(unmatched_row(1 + rng() % 50));
    const bool with_next = i + 1 < sent.size() && percent(rng) < 15;
    rows.push_back(matched_row(sent[i].second.rank, sent[i].second.clock, with_next));
  }
  if (percent(rng) < 30)
    rows.push_back(unmatched_row(1 + rng() % 1000));
  return rows;
}

void expect_same(const Chunk &a, const Chunk &b) {
  EXPECT_EQ(a.messages, b.messages);
  EXPECT_EQ(a.with_next, b.with_next);
  EXPECT_EQ(a.unmatched, b.unmatched);
  EXPECT_EQ(a.moves, b.moves);
  EXPECT_EQ(a.epoch.entries, b.epoch.entries);
}

// read_chunk must throw a one-line TraceError; returns its message.
std::string read_error(std::string_view bytes) {
  try {
    read_chunk(bytes);
  } catch (const TraceError &e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("CDC chunk: ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return what;
  }
  ADD_FAILURE() << "read_chunk accepted " << bytes.size() << " bytes";
  return "";
}

// A chunk of `codec`, raw size and body as given, with a correct CRC.
std::string sealed(uint8_t codec, uint64_t raw_size, const std::string &body) {
  std::string out;
  ByteWriter w(out);
  w.u8(codec);
  w.varint(raw_size);
  w.bytes(body);
  w.u32le(crc32c(out.data(), out.size()));
  return out;
}

std::string stored(const std::string &raw) { return sealed(0, raw.size(), raw); }

std::string from_hex(const std::string &text) {
  std::string out;
  for (size_t i = 0; i + 1 < text.size(); i += 3)
    out.push_back(static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return out;
}

std::vector<std::string> sample_chunks() {
  std::mt19937_64 rng(11);
  std::vector<std::string> chunks;
  for (size_t n : {0, 1, 2, 8, 30, 400})
    chunks.push_back(write_chunk(chunk_of_rows(random_rows(rng, n, 4))));
  return chunks;
}

TEST(CdcChunkBytes, RandomRecordsRoundTrip) {
  std::mt19937_64 rng(2024);
  int zstd_chunks = 0, stored_chunks = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = trial < 100 ? static_cast<size_t>(trial) : 1 + rng() % 3000;
    const std::vector<EventRow> rows = random_rows(rng, n, 1 + trial % 9);
    const Chunk chunk = chunk_of_rows(rows);
    const std::string bytes = write_chunk(chunk);
    (bytes[0] == 1 ? zstd_chunks : stored_chunks)++;
    const Chunk back = read_chunk(bytes);
    expect_same(chunk, back);
    std::vector<MessageId> received = split_rows(rows).matched;
    std::shuffle(received.begin(), received.end(), rng);
    ASSERT_EQ(rows_of_chunk(back, received), join_rows(split_rows(rows))) << "trial " << trial;
  }
  EXPECT_GT(zstd_chunks, 50);
  EXPECT_GT(stored_chunks, 20);
}

TEST(CdcChunkBytes, EveryTruncationIsATraceError) {
  for (const std::string &bytes : sample_chunks()) {
    for (size_t len = 0; len < bytes.size(); ++len)
      read_error(std::string_view(bytes).substr(0, len));
    read_error(bytes + '\0');
  }
}

TEST(CdcChunkBytes, RandomCorruptionsAreTraceErrors) {
  std::mt19937_64 rng(99);
  for (const std::string &bytes : sample_chunks()) {
    for (size_t bit = 0; bit < 8 * std::min<size_t>(bytes.size(), 64); ++bit) {
      std::string bad = bytes;
      bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
      read_error(bad);
    }
    for (int trial = 0; trial < 300; ++trial) {
      std::string bad = bytes;
      const int changes = 1 + trial % 4;
      for (int c = 0; c < changes; ++c)
        bad[rng() % bad.size()] = static_cast<char>(rng());
      if (bad != bytes)
        read_error(bad);
    }
  }
}

TEST(CdcChunkBytes, HostileButChecksummedBytes) {
  // The tables of Fig. 4 (order_cdc_paper_example_test.cpp), to spoil.
  const std::string fig4 =
      from_hex("08 01 03 03 03 02 02 08 07 02 03 01 02 00 08 04 02 03 00 00 00 "
               "12 13 08 ");
  ASSERT_NO_THROW(read_chunk(stored(fig4)));
  auto with = [&](size_t at, const std::string &hex) {
    std::string raw = fig4;
    const std::string b = from_hex(hex);
    raw.replace(at, b.size(), b);
    return stored(raw);
  };
  EXPECT_EQ(read_error(stored(from_hex("08 ff ff ff ff 0f 00 00 00 "))),
            "CDC chunk: tables: with_next rows 4294967295 exceeds the remaining 3 bytes at byte 1");
  EXPECT_EQ(read_error(stored(from_hex("80 80 80 80 08 00 00 00 00 "))),
            "CDC chunk: tables: messages 2147483648 out of range at byte 0");
  EXPECT_EQ(read_error(stored(fig4 + '\0')),
            "CDC chunk: tables: 1 bytes after the tables at byte 24");
  EXPECT_NE(read_error(with(5, "0e ")).find("with_next index 7 of a chunk of 8"),
            std::string::npos);
  EXPECT_NE(read_error(with(9, "00 ")).find("unmatched-test count 0"), std::string::npos);
  EXPECT_NE(read_error(with(15, "00 ")).find("permutation delay 0"), std::string::npos);
  EXPECT_NE(read_error(with(15, "10 ")).find("permutation delay 8"), std::string::npos);
  EXPECT_NE(read_error(with(12, "02 01 ")).find("permutation index 1 "), std::string::npos); // 1, 1
  EXPECT_NE(read_error(with(12, "01 ")).find("permutation index -1 is negative"),
            std::string::npos);
  EXPECT_NE(read_error(stored(from_hex("01 00 00 00 00 "))).find("an epoch line of 0 senders"),
            std::string::npos);
  // Epoch ranks 2^31 - 2, 2^31 - 1 and 2^31.
  EXPECT_NE(read_error(stored(from_hex("08 00 00 00 03 fe ff ff ff 07 00 00 01 02 03 ")))
                .find("epoch line rank 2147483648 out of range"),
            std::string::npos);
  EXPECT_NE(read_error(with(0, "00 ")).find("with_next index 1 of a chunk of 0"),
            std::string::npos);
  // LP residuals whose values leave int64.
  EXPECT_NE(
      read_error(stored(from_hex("08 00 00 02 00 fe ff ff ff ff ff ff ff ff 01 fe ff ff ff ff "
                                 "ff ff ff ff 01 02 02 ")))
          .find("past int64"),
      std::string::npos);
  // The envelope.
  EXPECT_EQ(read_error(sealed(7, fig4.size(), fig4)), "CDC chunk: unknown codec 7");
  EXPECT_EQ(read_error(sealed(0, fig4.size() + 1, fig4)),
            "CDC chunk: stored tables of 24 bytes, declared 25");
  const std::string packed = zstd_compress(std::string(4000, '\0'), 3);
  EXPECT_NE(read_error(sealed(1, packed.size() * 1024 + 65537, packed)).find("exceeds the bound"),
            std::string::npos);
  EXPECT_NE(read_error(sealed(1, 3999, packed)).find("more than the raw size"), std::string::npos);
  EXPECT_NE(read_error(sealed(1, 4001, packed)).find("expected 4001"), std::string::npos);
  EXPECT_NE(read_error(sealed(1, 10, "not zstd at all")).find("zstd"), std::string::npos);
  EXPECT_EQ(read_error(std::string(5, '\0')), "CDC chunk: truncated: 5 bytes");
}

TEST(CdcChunkBytes, TheReaderAcceptsOnlyWhatTheWriterWrites) {
  // Mutated table bytes, sealed with a good CRC: each is refused, or reads
  // as a chunk that writes the same table bytes again.
  std::mt19937_64 rng(404);
  std::vector<std::string> seeds;
  for (size_t n : {1, 3, 8, 40})
    seeds.push_back(chunk_table_bytes(chunk_of_rows(random_rows(rng, n, 3))));
  int accepted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string raw = seeds[static_cast<size_t>(trial) % seeds.size()];
    const int changes = 1 + trial % 3;
    for (int c = 0; c < changes; ++c) {
      const size_t at = rng() % raw.size();
      switch (rng() % 3) {
      case 0:
        raw[at] = static_cast<char>(rng() % 4 == 0 ? rng() : raw[at] + 1 - 2 * (rng() % 2));
        break;
      case 1:
        raw.erase(at, 1);
        break;
      default:
        raw.insert(at, 1, static_cast<char>(rng() % 8));
        break;
      }
      if (raw.empty())
        raw = "\x01";
    }
    try {
      const Chunk c = read_chunk(stored(raw));
      ++accepted;
      ASSERT_EQ(chunk_table_bytes(c), raw) << "trial " << trial;
    } catch (const TraceError &) {
    }
  }
  EXPECT_GT(accepted, 100);
}

TEST(CdcChunkBytes, WriterRefusesChunksNoRecordMakes) {
  Chunk c;
  c.messages = 2;
  c.epoch.entries = {{0, 1}};
  EXPECT_NO_THROW(write_chunk(c));
  Chunk bad = c;
  bad.moves = {{0, 0}};
  EXPECT_THROW(write_chunk(bad), std::invalid_argument);
  bad = c;
  bad.with_next = {1};
  EXPECT_THROW(write_chunk(bad), std::invalid_argument);
  bad.with_next = {UINT64_MAX}; // not the index 0 it would wrap to
  EXPECT_THROW(write_chunk(bad), std::invalid_argument);
  bad = c;
  bad.unmatched = {{0, 1}, {0, 1}};
  EXPECT_THROW(write_chunk(bad), std::invalid_argument);
  bad = c;
  bad.moves = {{2, 1}};
  EXPECT_THROW(write_chunk(bad), std::invalid_argument);
  bad = c;
  bad.epoch.entries = {{1, 1}, {0, 1}};
  EXPECT_THROW(write_chunk(bad), std::invalid_argument);
  bad = c;
  bad.messages = kMaxChunkMessages + 1;
  EXPECT_THROW(write_chunk(bad), std::invalid_argument);
}

} // namespace
} // namespace pilgrim::order
