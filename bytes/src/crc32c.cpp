#include "pilgrim/crc32c.h"

#include <array>

namespace pilgrim {

namespace {

constexpr uint32_t kPolynomial = 0x82F63B78u;

// Slicing-by-8 tables: table[0] is the classic byte-wise table, table[k][b]
// the CRC of byte b followed by k zero bytes.
struct Tables {
  uint32_t t[8][256];
};

constexpr Tables make_tables() {
  Tables tables{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int i = 0; i < 8; ++i)
      crc = (crc & 1) ? (crc >> 1) ^ kPolynomial : crc >> 1;
    tables.t[0][b] = crc;
  }
  for (uint32_t b = 0; b < 256; ++b)
    for (int k = 1; k < 8; ++k)
      tables.t[k][b] = (tables.t[k - 1][b] >> 8) ^ tables.t[0][tables.t[k - 1][b] & 0xff];
  return tables;
}

constexpr Tables kTables = make_tables();

} // namespace

uint32_t crc32c_extend(uint32_t crc, const void *data, size_t size) {
  const auto *p = static_cast<const uint8_t *>(data);
  const auto &t = kTables.t;
  uint32_t c = ~crc;
  while (size >= 8) {
    const uint32_t lo = c ^ (static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
                             static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24);
    c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
        t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    p += 8;
    size -= 8;
  }
  while (size--)
    c = (c >> 8) ^ t[0][(c ^ *p++) & 0xff];
  return ~c;
}

uint32_t crc32c(const void *data, size_t size) { return crc32c_extend(0, data, size); }

} // namespace pilgrim
