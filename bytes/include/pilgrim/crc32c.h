// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value and
// final xor 0xFFFFFFFF), the checksum of the trace header, the section table
// and every section's stored bytes. crc32c("123456789") == 0xE3069283.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pilgrim {

uint32_t crc32c(const void *data, size_t size);

// Continues a CRC: crc32c(ab) == crc32c_extend(crc32c(a), b).
uint32_t crc32c_extend(uint32_t crc, const void *data, size_t size);

} // namespace pilgrim
