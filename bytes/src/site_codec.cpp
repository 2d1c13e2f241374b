#include "pilgrim/site_codec.h"

#include "pilgrim/byte_io.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

std::string encode_sites(const std::vector<CallSite> &sites, const std::vector<CstEntry> &cst) {
  std::string out;
  ByteWriter w(out);
  w.varint(sites.size());
  for (const CallSite &s : sites) {
    w.string(s.module);
    w.varint(s.address);
    w.string(s.file);
    w.varint(s.line);
    w.varint(s.column);
    w.string(s.function);
  }
  w.varint(cst.size());
  for (const CstEntry &e : cst)
    w.varint(e.site);
  return out;
}

void decode_sites(std::string_view payload, std::vector<CallSite> &sites,
                  std::vector<CstEntry> &cst) {
  ByteReader r(payload);
  // A site is at least 6 bytes: three empty strings and three varints.
  const uint64_t n = r.count(6, "site count");
  sites.assign(static_cast<size_t>(n), CallSite{});
  for (CallSite &s : sites) {
    s.module = std::string(r.string());
    s.address = r.varint();
    s.file = std::string(r.string());
    s.line = static_cast<uint32_t>(r.varint_max(UINT32_MAX, "site line"));
    s.column = static_cast<uint32_t>(r.varint_max(UINT32_MAX, "site column"));
    s.function = std::string(r.string());
  }
  const uint64_t ncst = r.varint();
  if (ncst != cst.size())
    throw TraceError("SITES: " + std::to_string(ncst) + " references for " +
                     std::to_string(cst.size()) + " CST entries");
  for (CstEntry &e : cst)
    e.site = static_cast<uint32_t>(r.varint_max(n, "site reference"));
  if (!r.at_end())
    throw TraceError("SITES: " + std::to_string(r.remaining()) + " trailing bytes");
}

} // namespace pilgrim
