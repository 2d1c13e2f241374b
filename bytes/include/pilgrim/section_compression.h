// zstd compression of section payloads with hard bounds on the output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pilgrim {

// zstd levels the trace writer uses when the caller does not choose one.
// Level 19 compresses CST payloads 2-8% better than 9 but runs at about
// 2 MB/s, so it is kept for META, FUNCTIONS and the first kHighLevelBudget
// bytes of RANK payload (about 2 s at most); the remaining RANK sections get
// default_compression_level(size): 9 up to 1 MiB, 6 up to 16 MiB, 3 above.
constexpr int kSmallSectionLevel = 19;
constexpr uint64_t kHighLevelBudget = uint64_t{4} << 20;
int default_compression_level(uint64_t raw_size);
// Sections smaller than this are stored, not compressed (docs/FORMAT.md §3.3).
constexpr uint64_t kMinCompressedSection = 128;

// Throws TraceError on failure.
std::string zstd_compress(std::string_view raw, int level);

// Decompresses `stored` (one or more complete zstd frames) into exactly
// `raw_size` bytes. Memory grows with the bytes actually produced, never
// beyond raw_size. Throws TraceError on corrupt data, on a size mismatch and
// on frames that need a window over 128 MiB.
std::string zstd_decompress(std::string_view stored, uint64_t raw_size);

} // namespace pilgrim
