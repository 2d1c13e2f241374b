// Constants of the trace file container (docs/FORMAT.md, "File layout").
#pragma once

#include <cstddef>
#include <cstdint>

namespace pilgrim {

// "PILGRIM\0"
constexpr char kTraceMagic[8] = {'P', 'I', 'L', 'G', 'R', 'I', 'M', '\0'};

// The newest format version this library reads, and what it writes for a
// merged trace; version 1 (one RANK section per rank) is still read, and
// written by the per-rank writer. Version 4 added role Address
// (kFirstAddressVersion): older files must not use it; it also added tracer
// records, outputs absent when their flag is false and kept keyval ids.
// Version 5 added communicator groups (kFirstMembershipVersion), the
// senders behind MPI_STATUS_IGNORE (Status kind 4), one function-id range
// for the records that are not MPI calls (record_ranges.h) and the datatype
// layout record.
// Version 6 added per-call timing (kFirstRankTimingVersion): a RANK_TIMING
// section per rank in the per-call timing modes, META's timing_spec and the
// timing modes 2 to 8.
// Version 7 adds I/O tracing: MPI-IO offsets that follow the rank and POSIX
// I/O records (docs/FORMAT.md §10).
// Every change to the bytes bumps kFormatVersion, and the reader keeps
// reading every version from kOldestFormatVersion on (docs/FORMAT.md §10;
// test/fixtures holds a file of each).
constexpr uint16_t kFormatVersion = 10;
constexpr uint16_t kOldestFormatVersion = 1;
constexpr uint16_t kFormatVersionPerRank = 1;
constexpr uint16_t kFirstAddressVersion = 4;
constexpr uint16_t kFirstMembershipVersion = 5;
constexpr uint16_t kFirstRankTimingVersion = 6;
// Offset parameters with kFlagRankStride: svarint(stride) svarint(base),
// the value base + stride x world rank (docs/FORMAT.md §8.3).
constexpr uint16_t kFirstRankOffsetVersion = 7;
// zfp timing chunks compress their values as a 3-D field of 4 x 4 x
// ceil(2n / 16) doubles instead of a 1-D field of 2n (docs/FORMAT.md §7.10).
constexpr uint16_t kFirstZfp3dVersion = 8;
// Timing kind 5: a timing of one sample stores that sample's code alone
// (docs/FORMAT.md §7.1), 3 bytes where kinds 1 to 4 take 9 or more.
constexpr uint16_t kFirstSingleSampleTimingVersion = 9;

// Call sites: META key 8, the site table (docs/FORMAT.md §5.1).
constexpr uint16_t kFirstSitesVersion = 8;

// Fixed header at offset 0:
//   0  8  magic            16  8  section table offset
//   8  2  format version   24  4  CRC-32C of the section table
//  10  2  reserved (0)     28  4  CRC-32C of header bytes 0..27
//  12  4  section count
constexpr size_t kHeaderSize = 32;

// Section table entry (the table sits at the end of the file):
//   0  2  type      8  8  offset        32  4  CRC-32C of the stored bytes
//   2  1  codec    16  8  stored size   36  4  reserved (0)
//   3  1  flags    24  8  raw size
//   4  4  rank
constexpr size_t kSectionEntrySize = 40;

// Section type ids. Never renumbered; new types are appended.
enum class SectionType : uint16_t {
  Meta = 1,      // trace header fields (TLV)
  Functions = 2, // the embedded function-table rows
  Rank = 3,      // one rank's CST, grammar and communicators (rank field = the rank)
  Timing = 4,    // one rank's quantized per-signature timing (not critical)
  // Format versions 2 and 3 (cross-rank merged data):
  MergedCst = 16,      // the CST shared by all ranks
  MergedGrammar = 17,  // the shared rule pool and each distinct grammar's root
  RankGrammarMap = 18, // rank ranges -> distinct grammar
  RankComms = 19,      // each rank's communicators
  MergedTiming = 20,   // quantized timing of the merged CST (not critical)
  // Format version 6:
  RankTiming = 21, // one rank's clock and per-call times (not critical; rank field = the rank)
  // Reserved: an unreleased draft of version 8 kept the call sites in a
  // section of this type; they are META key 8 (docs/FORMAT.md §4, §5.1).
  // Never reused; readers refuse a file that has one.
  SitesDraft = 22,
};

enum class SectionCodec : uint8_t {
  Stored = 0, // stored bytes are the payload
  Zstd = 1,   // stored bytes are one or more zstd frames
};

// Section flags.
constexpr uint8_t kSectionCritical = 1u << 0; // a reader that does not know the type must fail

// Rank field of sections that do not belong to one rank.
constexpr uint32_t kNoRank = 0xffffffffu;

// The largest raw (decompressed) size a v1 section may have (4 GiB).
constexpr uint64_t kMaxSectionRawSize = uint64_t{1} << 32;

// A zstd section may not expand more than this: raw_size <=
// stored_size * kMaxExpansion + kExpansionSlack. It bounds what a small
// hostile file can make a reader allocate (a "decompression bomb"); a writer
// whose data compresses better stores it uncompressed instead.
constexpr uint64_t kMaxExpansion = 1024;
constexpr uint64_t kExpansionSlack = 64 * 1024;
constexpr bool expansion_allowed(uint64_t stored_size, uint64_t raw_size) {
  return raw_size <= kExpansionSlack || stored_size > UINT64_MAX / kMaxExpansion ||
         raw_size - kExpansionSlack <= stored_size * kMaxExpansion;
}

// META keys (docs/FORMAT.md, "META section").
enum class MetaKey : uint64_t {
  MpiLibrary = 1,
  MpiVersion = 2,
  NRanks = 3,
  TimingMode = 4,
  CommandLine = 5,
  StartTimeUnixNs = 6,
  TimingSpec = 7, // version 6: PILGRIM_TIMING's canonical text, in the per-call modes
  Sites = 8,      // version 8: the site table (site_codec.h), when sites were recorded
};

// A name for messages: "META", "FUNCTIONS", "RANK", or "type N".
const char *section_type_name(uint16_t type);

} // namespace pilgrim
