#include "pilgrim/site_codec.h"

#include <algorithm>
#include <map>

#include "pilgrim/byte_io.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

// 0 for "", k + 1 for strings[k].
uint64_t string_ref(const std::map<std::string, uint64_t> &index, const std::string &s) {
  return s.empty() ? 0 : index.at(s) + 1;
}

} // namespace

std::string encode_sites(const std::vector<CallSite> &sites, const std::vector<CstEntry> &cst) {
  // The strings once, sorted, each coded by what it shares with the one
  // before (paths share their directories).
  std::map<std::string, uint64_t> index;
  for (const CallSite &s : sites)
    for (const std::string *t : {&s.module, &s.file, &s.function})
      if (!t->empty())
        index.emplace(*t, 0);
  std::string out;
  ByteWriter w(out);
  w.varint(index.size());
  const std::string *previous = nullptr;
  uint64_t k = 0;
  for (auto &kv : index) {
    kv.second = k++;
    size_t shared = 0;
    if (previous)
      while (shared < previous->size() && shared < kv.first.size() &&
             (*previous)[shared] == kv.first[shared])
        ++shared;
    w.varint(shared);
    w.string(std::string_view(kv.first).substr(shared));
    previous = &kv.first;
  }
  w.varint(sites.size());
  uint64_t address = 0;
  int64_t line = 0;
  for (const CallSite &s : sites) {
    w.varint(string_ref(index, s.module));
    w.svarint(static_cast<int64_t>(s.address - address)); // mod 2^64
    address = s.address;
    w.varint(string_ref(index, s.file));
    w.svarint(static_cast<int64_t>(s.line) - line);
    line = s.line;
    w.varint(s.column);
    w.varint(string_ref(index, s.function));
  }
  w.varint(cst.size());
  for (const CstEntry &e : cst)
    w.varint(e.site);
  return out;
}

void decode_sites(std::string_view payload, std::vector<CallSite> &sites,
                  std::vector<CstEntry> &cst) {
  ByteReader r(payload);
  // A string is at least 2 bytes: varint(shared) and an empty suffix.
  const uint64_t nstrings = r.count(2, "site string count");
  std::vector<std::string> strings(static_cast<size_t>(nstrings));
  // Shared prefixes let strings outgrow the payload: bounded like a
  // section's expansion (file_layout.h), so a hostile count allocates little.
  uint64_t total = 0;
  for (size_t i = 0; i < strings.size(); ++i) {
    const uint64_t shared = r.varint();
    if (shared > (i ? strings[i - 1].size() : 0))
      throw TraceError("SITES: string " + std::to_string(i) + " shares " + std::to_string(shared) +
                       " bytes with a shorter one");
    total += shared;
    if (!expansion_allowed(payload.size(), total))
      throw TraceError("SITES: strings longer than the section allows");
    strings[i] = (i ? strings[i - 1].substr(0, static_cast<size_t>(shared)) : std::string()) +
                 std::string(r.string());
  }
  auto string_at = [&](const char *what) {
    const uint64_t ref = r.varint_max(nstrings, what);
    return ref == 0 ? std::string() : strings[static_cast<size_t>(ref - 1)];
  };
  // A site is at least 6 bytes.
  const uint64_t n = r.count(6, "site count");
  sites.assign(static_cast<size_t>(n), CallSite{});
  uint64_t address = 0;
  int64_t line = 0;
  for (CallSite &s : sites) {
    s.module = string_at("site module");
    address += static_cast<uint64_t>(r.svarint()); // mod 2^64
    s.address = address;
    s.file = string_at("site file");
    const int64_t delta = r.svarint();
    if ((delta < 0 && -delta > line) || (delta > 0 && delta > int64_t{UINT32_MAX} - line))
      throw TraceError("SITES: site line out of range");
    line += delta;
    s.line = static_cast<uint32_t>(line);
    s.column = static_cast<uint32_t>(r.varint_max(UINT32_MAX, "site column"));
    s.function = string_at("site function");
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
