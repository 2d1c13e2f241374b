// zstd compression of section payloads with hard bounds on the output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pilgrim {

// The zstd level the writer uses for a payload of `raw_size` bytes when the
// caller does not choose one: high for small sections, lower for big ones so
// that writing stays fast at MPI_Finalize.
int default_compression_level(uint64_t raw_size);

// Throws TraceError on failure.
std::string zstd_compress(std::string_view raw, int level);

// Decompresses `stored` (one or more complete zstd frames) into exactly
// `raw_size` bytes. Memory grows with the bytes actually produced, never
// beyond raw_size. Throws TraceError on corrupt data, on a size mismatch and
// on frames that need a window over 128 MiB.
std::string zstd_decompress(std::string_view stored, uint64_t raw_size);

}  // namespace pilgrim
