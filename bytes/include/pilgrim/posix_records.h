// Function ids of the POSIX I/O records (kind posix, 0x3000..0x3BFF;
// generator/annotations/records.yaml, docs/FORMAT.md §8.6). THE IDS ARE
// PART OF THE TRACE FORMAT.
#pragma once

#include <cstdint>

namespace pilgrim {

constexpr uint16_t kPosixOpen = 0x3000;
constexpr uint16_t kPosixOpen64 = 0x3001;
constexpr uint16_t kPosixOpenat = 0x3002;
constexpr uint16_t kPosixOpenat64 = 0x3003;
constexpr uint16_t kPosixClose = 0x3004;
constexpr uint16_t kPosixRead = 0x3005;
constexpr uint16_t kPosixWrite = 0x3006;
constexpr uint16_t kPosixPread = 0x3007;
constexpr uint16_t kPosixPread64 = 0x3008;
constexpr uint16_t kPosixPwrite = 0x3009;
constexpr uint16_t kPosixPwrite64 = 0x300A;
constexpr uint16_t kPosixLseek = 0x300B;
constexpr uint16_t kPosixLseek64 = 0x300C;
constexpr uint16_t kPosixFsync = 0x300D;
constexpr uint16_t kPosixFopen = 0x300E;
constexpr uint16_t kPosixFopen64 = 0x300F;
constexpr uint16_t kPosixFread = 0x3010;
constexpr uint16_t kPosixFwrite = 0x3011;
constexpr uint16_t kPosixFclose = 0x3012;

} // namespace pilgrim
