// A CDC chunk's bytes (docs/design/cdc.md, "A chunk's bytes"): the tables
// as varints, index columns linearly predicted, then zstd over the whole
// (kept only where it is smaller), with a CRC-32C at the end. The reader
// takes untrusted bytes: anything truncated, corrupt or inconsistent is one
// TraceError, and no count read makes it allocate more than the bytes left
// could hold.
#pragma once

#include "pilgrim/cdc_chunk.h"

#include <string>
#include <string_view>

namespace pilgrim::order {

// The zstd level of chunks, which the record compresses while the run goes
// on: a fast one.
inline constexpr int kChunkZstdLevel = 3;

// The chunk's uncompressed table bytes, and the whole chunk. `chunk` must be
// one chunk_of_rows makes or read_chunk accepts (else std::invalid_argument).
std::string chunk_table_bytes(const Chunk &chunk);
std::string write_chunk(const Chunk &chunk, int zstd_level = kChunkZstdLevel);

// The chunk of exactly the bytes `bytes`. Throws TraceError ("CDC chunk:
// ...") on truncated, corrupt or inconsistent bytes.
Chunk read_chunk(std::string_view bytes);

} // namespace pilgrim::order
