#include "pilgrim/meta_codec.h"

#include <set>

#include "pilgrim/byte_io.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

void put_record(ByteWriter &w, MetaKey key, std::string_view value) {
  w.varint(static_cast<uint64_t>(key));
  w.string(value);
}

std::string varint_bytes(uint64_t v) {
  std::string s;
  ByteWriter(s).varint(v);
  return s;
}

// A record value holding exactly one varint.
uint64_t record_varint(std::string_view value, const char *what) {
  ByteReader r(value);
  uint64_t v = r.varint();
  if (!r.at_end())
    throw TraceError(std::string(what) + ": trailing bytes in the value");
  return v;
}

} // namespace

std::string encode_meta(const TraceHeader &h, std::string_view sites) {
  std::string out;
  ByteWriter w(out);
  put_record(w, MetaKey::MpiLibrary, h.mpi_library);
  put_record(w, MetaKey::MpiVersion, h.mpi_version);
  put_record(w, MetaKey::NRanks, varint_bytes(h.nranks));
  put_record(w, MetaKey::TimingMode, varint_bytes(h.timing_mode));
  put_record(w, MetaKey::CommandLine, h.command_line);
  put_record(w, MetaKey::StartTimeUnixNs, varint_bytes(zigzag_encode(h.start_time_unix_ns)));
  if (!h.timing_spec.empty())
    put_record(w, MetaKey::TimingSpec, h.timing_spec);
  if (!sites.empty())
    put_record(w, MetaKey::Sites, sites);
  return out;
}

TraceHeader decode_meta(std::string_view payload, std::string *sites) {
  TraceHeader h;
  if (sites)
    sites->clear();
  ByteReader r(payload);
  std::set<uint64_t> seen;
  while (!r.at_end()) {
    const size_t at = r.offset();
    const uint64_t key = r.varint();
    const std::string_view value = r.string();
    if (!seen.insert(key).second)
      r.fail_at("duplicate META key " + std::to_string(key), at);
    try {
      switch (static_cast<MetaKey>(key)) {
      case MetaKey::MpiLibrary:
        h.mpi_library = std::string(value);
        break;
      case MetaKey::MpiVersion:
        h.mpi_version = std::string(value);
        break;
      case MetaKey::NRanks: {
        uint64_t n = record_varint(value, "rank count");
        if (n > UINT32_MAX)
          throw TraceError("rank count " + std::to_string(n) + " out of range");
        h.nranks = static_cast<uint32_t>(n);
        break;
      }
      case MetaKey::TimingMode: {
        uint64_t m = record_varint(value, "timing mode");
        if (m > 255)
          throw TraceError("timing mode " + std::to_string(m) + " out of range");
        h.timing_mode = static_cast<uint8_t>(m);
        break;
      }
      case MetaKey::CommandLine:
        h.command_line = std::string(value);
        break;
      case MetaKey::StartTimeUnixNs:
        h.start_time_unix_ns = zigzag_decode(record_varint(value, "start time"));
        break;
      case MetaKey::TimingSpec:
        h.timing_spec = std::string(value);
        break;
      case MetaKey::Sites:
        if (value.empty()) // an empty table still has its counts
          throw TraceError("empty site table");
        if (sites)
          *sites = std::string(value);
        break;
      default:
        break; // a later writer's field: skip
      }
    } catch (const TraceError &e) {
      r.fail_at(std::string("META key ") + std::to_string(key) + ": " + e.what(), at);
    }
  }
  if (!seen.count(static_cast<uint64_t>(MetaKey::NRanks)))
    throw TraceError("META has no rank count (key 3)");
  return h;
}

} // namespace pilgrim
