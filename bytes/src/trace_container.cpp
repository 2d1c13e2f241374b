#include "pilgrim/trace_container.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "pilgrim/byte_io.h"
#include "pilgrim/crc32c.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

const char *section_type_name(uint16_t type) {
  switch (static_cast<SectionType>(type)) {
  case SectionType::Meta:
    return "META";
  case SectionType::Functions:
    return "FUNCTIONS";
  case SectionType::Rank:
    return "RANK";
  case SectionType::Timing:
    return "TIMING";
  case SectionType::MergedCst:
    return "MERGED_CST";
  case SectionType::MergedGrammar:
    return "MERGED_GRAMMAR";
  case SectionType::RankComms:
    return "RANK_COMMS";
  case SectionType::MergedTiming:
    return "MERGED_TIMING";
  case SectionType::RankGrammarMap:
    return "RANK_GRAMMAR_MAP";
  case SectionType::RankTiming:
    return "RANK_TIMING";
  case SectionType::SitesDraft:
    return "SITES (draft)";
  }
  return nullptr;
}

void StringSink::write(const void *data, size_t size) {
  out_.append(static_cast<const char *>(data), size);
}

void StringSink::write_header(const void *data, size_t size) {
  if (out_.size() < size)
    out_.resize(size);
  std::memcpy(out_.data(), data, size);
}

void StringSink::skip(uint64_t size) { out_.append(static_cast<size_t>(size), '\0'); }

void FileSink::flush() {
  if (std::fflush(file_) != 0)
    throw TraceError(name_ + ": write failed: " + std::strerror(errno));
}

void FileSink::skip(uint64_t size) {
  flush();
  if (size > static_cast<uint64_t>(INT64_MAX) ||
      ::fseeko(file_, static_cast<off_t>(size), SEEK_CUR) != 0)
    throw TraceError(name_ + ": seek failed: " + std::strerror(errno));
}

void FileSink::write(const void *data, size_t size) {
  if (size && std::fwrite(data, 1, size, file_) != size)
    throw TraceError(name_ + ": write failed: " + std::strerror(errno));
}

void FileSink::write_header(const void *data, size_t size) {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0 ||
      std::fwrite(data, 1, size, file_) != size || std::fflush(file_) != 0)
    throw TraceError(name_ + ": write failed: " + std::strerror(errno));
  std::fseek(file_, 0, SEEK_END);
}

ContainerWriter::ContainerWriter(ByteSink &sink) : sink_(sink) {
  const char zeros[kHeaderSize] = {};
  sink_.write(zeros, sizeof zeros);
  offset_ = kHeaderSize;
}

void ContainerWriter::add_section(uint16_t type, uint32_t rank, uint8_t flags, std::string_view raw,
                                  int level) {
  if (raw.size() > kMaxSectionRawSize)
    throw TraceError(std::string("section ") +
                     (section_type_name(type) ? section_type_name(type) : "?") + " of " +
                     std::to_string(raw.size()) + " bytes exceeds the format's limit of " +
                     std::to_string(kMaxSectionRawSize) + " bytes");
  // A section under kMinCompressedSection bytes is stored: zstd's frame
  // costs about 9 of them, so whether it wins there is a coin toss on the
  // bytes, and it made the same trace of a longer run 1% larger or smaller.
  if (compress_ && raw.size() >= kMinCompressedSection) {
    std::string z = zstd_compress(raw, level > 0 ? level : default_compression_level(raw.size()));
    if (z.size() < raw.size() && expansion_allowed(z.size(), raw.size())) {
      add_encoded_section(type, rank, flags, static_cast<uint8_t>(SectionCodec::Zstd), z,
                          raw.size());
      return;
    }
  }
  add_encoded_section(type, rank, flags, static_cast<uint8_t>(SectionCodec::Stored), raw,
                      raw.size());
}

void ContainerWriter::add_encoded_section(uint16_t type, uint32_t rank, uint8_t flags,
                                          uint8_t codec, std::string_view stored,
                                          uint64_t raw_size) {
  SectionEntry e;
  e.type = type;
  e.codec = codec;
  e.flags = flags;
  e.rank = rank;
  e.offset = offset_;
  e.stored_size = stored.size();
  e.raw_size = raw_size;
  e.crc = crc32c(stored.data(), stored.size());
  sink_.write(stored.data(), stored.size());
  offset_ += stored.size();
  sections_.push_back(e);
}

void ContainerWriter::add_external_section(const SectionEntry &e) {
  if (e.offset != offset_)
    throw TraceError("external section at offset " + std::to_string(e.offset) + ", expected " +
                     std::to_string(offset_));
  if (e.raw_size > kMaxSectionRawSize)
    throw TraceError("external section of " + std::to_string(e.raw_size) +
                     " bytes exceeds the format's limit of " + std::to_string(kMaxSectionRawSize) +
                     " bytes");
  sink_.skip(e.stored_size);
  offset_ += e.stored_size;
  sections_.push_back(e);
}

void ContainerWriter::finish() {
  if (finished_)
    return;
  finished_ = true;
  std::string table;
  table.reserve(sections_.size() * kSectionEntrySize);
  ByteWriter t(table);
  for (const SectionEntry &e : sections_) {
    t.u16le(e.type);
    t.u8(e.codec);
    t.u8(e.flags);
    t.u32le(e.rank);
    t.u64le(e.offset);
    t.u64le(e.stored_size);
    t.u64le(e.raw_size);
    t.u32le(e.crc);
    t.u32le(0);
  }
  const uint64_t table_offset = offset_;
  sink_.write(table.data(), table.size());

  std::string header;
  ByteWriter h(header);
  h.bytes(std::string_view(kTraceMagic, sizeof kTraceMagic));
  h.u16le(version_);
  h.u16le(0);
  h.u32le(static_cast<uint32_t>(sections_.size()));
  h.u64le(table_offset);
  h.u32le(crc32c(table.data(), table.size()));
  h.u32le(crc32c(header.data(), header.size()));
  sink_.write_header(header.data(), header.size());
}

std::string Container::label(size_t index) const {
  const SectionEntry &e = sections[index];
  const char *tname = section_type_name(e.type);
  std::string s = "section " + std::to_string(index) + " (";
  s += tname ? tname : "type " + std::to_string(e.type);
  if (e.rank != kNoRank)
    s += " rank " + std::to_string(e.rank);
  return s + ")";
}

std::string Container::payload(size_t index) const {
  const SectionEntry &e = sections[index];
  const std::string_view stored =
      bytes.substr(static_cast<size_t>(e.offset), static_cast<size_t>(e.stored_size));
  try {
    switch (static_cast<SectionCodec>(e.codec)) {
    case SectionCodec::Stored:
      return std::string(stored);
    case SectionCodec::Zstd:
      return zstd_decompress(stored, e.raw_size);
    }
  } catch (const TraceError &err) {
    rethrow_with_context(name + ": " + label(index), err);
  }
  throw TraceError(name + ": " + label(index) + ": unknown codec " + std::to_string(e.codec));
}

Container parse_container(std::string_view bytes, const std::string &name) {
  auto fail = [&](const std::string &message) -> void { throw TraceError(name + ": " + message); };
  Container c;
  c.name = name;
  c.bytes = bytes;
  const uint64_t size = bytes.size();
  if (size < sizeof kTraceMagic || std::memcmp(bytes.data(), kTraceMagic, sizeof kTraceMagic) != 0)
    fail("not a Pilgrim trace (bad magic)");
  if (size < 10)
    fail("truncated header (" + std::to_string(size) + " of " + std::to_string(kHeaderSize) +
         " bytes)");
  ByteReader h(bytes.substr(0, kHeaderSize));
  h.bytes(sizeof kTraceMagic);
  c.version = h.u16le();
  if (c.version == 0)
    fail("invalid format version 0");
  if (c.version > kFormatVersion)
    fail("format version " + std::to_string(c.version) + " is newer than this reader (reads " +
         std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion) +
         "): update Pilgrim");
  if (size < kHeaderSize)
    fail("truncated header (" + std::to_string(size) + " of " + std::to_string(kHeaderSize) +
         " bytes)");
  h.u16le(); // reserved
  const uint32_t count = h.u32le();
  const uint64_t table_offset = h.u64le();
  const uint32_t table_crc = h.u32le();
  const uint32_t header_crc = h.u32le();
  if (crc32c(bytes.data(), kHeaderSize - 4) != header_crc)
    fail("header checksum mismatch");

  const uint64_t table_size = static_cast<uint64_t>(count) * kSectionEntrySize;
  if (table_offset < kHeaderSize || table_offset > size || table_size > size - table_offset)
    fail("truncated file: section table [" + std::to_string(table_offset) + ", +" +
         std::to_string(table_size) + ") is beyond the end of the file (" + std::to_string(size) +
         " bytes)");
  if (table_offset + table_size != size)
    fail(std::to_string(size - table_offset - table_size) +
         " unexpected bytes after the section table");
  const std::string_view table =
      bytes.substr(static_cast<size_t>(table_offset), static_cast<size_t>(table_size));
  if (crc32c(table.data(), table.size()) != table_crc)
    fail("section table checksum mismatch");

  ByteReader t(table);
  c.sections.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    SectionEntry &e = c.sections[i];
    e.type = t.u16le();
    e.codec = t.u8();
    e.flags = t.u8();
    e.rank = t.u32le();
    e.offset = t.u64le();
    e.stored_size = t.u64le();
    e.raw_size = t.u64le();
    e.crc = t.u32le();
    t.u32le(); // reserved
    if (e.offset < kHeaderSize || e.offset > table_offset ||
        e.stored_size > table_offset - e.offset)
      fail("truncated " + c.label(i) + ": bytes [" + std::to_string(e.offset) + ", +" +
           std::to_string(e.stored_size) + ") outside the data area [" +
           std::to_string(kHeaderSize) + ", " + std::to_string(table_offset) + ")");
    if (e.raw_size > kMaxSectionRawSize)
      fail(c.label(i) + ": raw size " + std::to_string(e.raw_size) + " exceeds the limit of " +
           std::to_string(kMaxSectionRawSize) + " bytes");
    if (e.codec == static_cast<uint8_t>(SectionCodec::Stored) && e.raw_size != e.stored_size)
      fail(c.label(i) + ": stored section with raw size " + std::to_string(e.raw_size) +
           " != stored size " + std::to_string(e.stored_size));
    if (!expansion_allowed(e.stored_size, e.raw_size))
      fail(c.label(i) + ": raw size " + std::to_string(e.raw_size) + " is more than " +
           std::to_string(kMaxExpansion) + " times the stored size " +
           std::to_string(e.stored_size));
    if (crc32c(bytes.data() + e.offset, static_cast<size_t>(e.stored_size)) != e.crc)
      fail(c.label(i) + ": checksum mismatch");
  }
  return c;
}

} // namespace pilgrim
