// The container level of a trace file: fixed header, sections, section
// table, checksums and compression (docs/FORMAT.md, "File layout"). Knows
// nothing about what the sections mean; trace_writer / trace_reader do.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/file_layout.h"

namespace pilgrim {

struct SectionEntry {
  uint16_t type = 0;
  uint8_t codec = 0;
  uint8_t flags = 0;
  uint32_t rank = kNoRank;
  uint64_t offset = 0;
  uint64_t stored_size = 0;
  uint64_t raw_size = 0;
  uint32_t crc = 0;
};

// Where container bytes go: appended in order, plus one rewrite of the
// header at offset 0 when the container is finished.
class ByteSink {
public:
  virtual ~ByteSink() = default;
  virtual void write(const void *data, size_t size) = 0;
  virtual void write_header(const void *data, size_t size) = 0;
  // Leaves `size` bytes that someone else writes (the ranks' RANK_TIMING
  // sections, written with MPI-IO); the next write() goes after them.
  virtual void skip(uint64_t size) = 0;
};

class StringSink : public ByteSink {
public:
  explicit StringSink(std::string &out) : out_(out) {}
  void write(const void *data, size_t size) override;
  void write_header(const void *data, size_t size) override;
  void skip(uint64_t size) override; // zeros

private:
  std::string &out_;
};

// Writes to an open FILE* (seekable). Throws TraceError (with `name`) on I/O errors.
class FileSink : public ByteSink {
public:
  FileSink(std::FILE *file, std::string name) : file_(file), name_(std::move(name)) {}
  void write(const void *data, size_t size) override;
  void write_header(const void *data, size_t size) override;
  void skip(uint64_t size) override; // flushes, then seeks past the bytes
  // Flushes what was written, so that others can write beside it.
  void flush();

private:
  std::FILE *file_;
  std::string name_;
};

class ContainerWriter {
public:
  // Writes a placeholder header.
  explicit ContainerWriter(ByteSink &sink);

  // Compresses `raw` (level <= 0: default_compression_level) and keeps the
  // smaller of the zstd and stored forms; stores it after set_compress(false).
  void add_section(uint16_t type, uint32_t rank, uint8_t flags, std::string_view raw,
                   int level = 0);

  // Adds already-encoded bytes as they are (tests and fuzzers craft odd
  // sections with this; the CRC is computed here).
  void add_encoded_section(uint16_t type, uint32_t rank, uint8_t flags, uint8_t codec,
                           std::string_view stored, uint64_t raw_size);

  // A section whose stored bytes someone else writes at `e.offset`, which
  // must be where the next section would start (offset()); its entry
  // (codec, sizes, CRC) is taken as given.
  void add_external_section(const SectionEntry &e);
  // Where the next section starts.
  uint64_t offset() const { return offset_; }

  // The version the header will carry (default kFormatVersion).
  void set_version(uint16_t version) { version_ = version; }
  // Whether add_section may use zstd (default true).
  void set_compress(bool compress) { compress_ = compress; }

  // Writes the section table and the real header.
  void finish();

  const std::vector<SectionEntry> &sections() const { return sections_; }

private:
  ByteSink &sink_;
  uint16_t version_ = kFormatVersion;
  bool compress_ = true;
  uint64_t offset_ = 0;
  std::vector<SectionEntry> sections_;
  bool finished_ = false;
};

// A parsed container: header and table checked (bounds, CRCs of the header,
// the table and every section), payloads not yet decompressed.
struct Container {
  std::string name; // for messages
  std::string_view bytes;
  uint16_t version = 0;
  std::vector<SectionEntry> sections;

  // "section 3 (RANK rank 1)"
  std::string label(size_t index) const;
  // The decompressed payload of section `index`. Throws TraceError
  // "NAME: section 3 (RANK rank 1): ...".
  std::string payload(size_t index) const;
};

// Throws TraceError "NAME: ..." on a bad header, table or checksum, or a
// format version newer than kFormatVersion ("NAME: format version 5 is newer
// than this reader (reads 1 to 4): update Pilgrim").
Container parse_container(std::string_view bytes, const std::string &name);

} // namespace pilgrim
