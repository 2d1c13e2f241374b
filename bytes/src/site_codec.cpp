#include "pilgrim/site_codec.h"

#include <map>

#include "pilgrim/byte_io.h"
#include "pilgrim/count_text.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

// 0 for "", k + 1 for text k.
uint64_t text_ref(const std::map<std::string, uint64_t> &index, const std::string &s) {
  return s.empty() ? 0 : index.at(s) + 1;
}

// One column of text references as (value, run length) pairs: the sites of
// one module, file or function are mostly neighbours.
void put_runs(ByteWriter &w, const std::vector<uint64_t> &column) {
  for (size_t i = 0; i < column.size();) {
    size_t j = i + 1;
    while (j < column.size() && column[j] == column[i])
      ++j;
    w.varint(column[i]);
    w.varint(j - i);
    i = j;
  }
}

} // namespace

std::string encode_sites(const std::vector<CallSite> &sites, const std::vector<CstEntry> &cst) {
  // The texts once, sorted, each coded by what it shares with the one
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
  std::vector<uint64_t> modules, files, functions;
  for (const CallSite &s : sites) {
    modules.push_back(text_ref(index, s.module));
    files.push_back(text_ref(index, s.file));
    functions.push_back(text_ref(index, s.function));
  }
  put_runs(w, modules);
  put_runs(w, files);
  put_runs(w, functions);
  int64_t line = 0;
  for (const CallSite &s : sites) {
    w.svarint(static_cast<int64_t>(s.line) - line);
    line = s.line;
  }
  for (const CallSite &s : sites)
    w.varint(s.column);
  // Addresses only where there is no file to show instead (no debug
  // information; a plugin site id the plugin's table did not resolve).
  uint64_t address = 0;
  for (const CallSite &s : sites)
    if (s.file.empty()) {
      w.svarint(static_cast<int64_t>(s.address - address)); // mod 2^64
      address = s.address;
    }
  // Each entry's reference as the difference from "the site after the
  // previous entry's": CST entries mostly come in the order of their sites.
  w.varint(cst.size());
  int64_t previous_ref = 0;
  for (const CstEntry &e : cst) {
    if (e.site > sites.size())
      throw TraceError("CST entry's site " + std::to_string(e.site) + " is not in the table (" +
                       count_text(sites.size(), "site") + ")");
    w.svarint(static_cast<int64_t>(e.site) - (previous_ref + 1));
    previous_ref = e.site;
  }
  return out;
}

void decode_sites(std::string_view value, std::vector<CallSite> &sites,
                  std::vector<CstEntry> &cst) {
  ByteReader r(value);
  // A text is at least 2 bytes: varint(shared) and an empty suffix.
  const uint64_t ntexts = r.count(2, "site text count");
  std::vector<std::string> texts(static_cast<size_t>(ntexts));
  // Shared prefixes let texts outgrow the value: bounded like a section's
  // expansion (file_layout.h), so a hostile count allocates little.
  uint64_t total = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    const uint64_t shared = r.varint();
    if (shared > (i ? texts[i - 1].size() : 0))
      throw TraceError("sites: text " + std::to_string(i) + " shares " + std::to_string(shared) +
                       " bytes with a shorter one");
    total += shared;
    if (!expansion_allowed(value.size(), total))
      throw TraceError("sites: texts longer than the value allows");
    texts[i] = (i ? texts[i - 1].substr(0, static_cast<size_t>(shared)) : std::string()) +
               std::string(r.string());
  }
  // A site is at least 2 bytes: its line difference and its column.
  const uint64_t n = r.count(2, "site count");
  if (n > UINT32_MAX)
    throw TraceError("sites: " + std::to_string(n) + " sites, more than references can name");
  sites.assign(static_cast<size_t>(n), CallSite{});
  auto read_runs = [&](const char *what, std::string CallSite::*field) {
    for (size_t i = 0; i < sites.size();) {
      const uint64_t ref = r.varint_max(ntexts, what);
      const uint64_t run = r.varint();
      if (run == 0 || run > sites.size() - i)
        throw TraceError(std::string("sites: ") + what + " run of " + std::to_string(run) +
                         " at site " + std::to_string(i) + " of " + std::to_string(n));
      for (const size_t end = i + static_cast<size_t>(run); i < end; ++i)
        sites[i].*field = ref == 0 ? std::string() : texts[static_cast<size_t>(ref - 1)];
    }
  };
  read_runs("module", &CallSite::module);
  read_runs("file", &CallSite::file);
  read_runs("function", &CallSite::function);
  int64_t line = 0;
  for (CallSite &s : sites) {
    const int64_t delta = r.svarint();
    if (delta < -line || delta > int64_t{UINT32_MAX} - line)
      throw TraceError("sites: site line out of range");
    line += delta;
    s.line = static_cast<uint32_t>(line);
  }
  for (CallSite &s : sites)
    s.column = static_cast<uint32_t>(r.varint_max(UINT32_MAX, "site column"));
  uint64_t address = 0;
  for (CallSite &s : sites)
    if (s.file.empty()) {
      address += static_cast<uint64_t>(r.svarint()); // mod 2^64
      s.address = address;
    }
  const uint64_t ncst = r.varint();
  if (ncst != cst.size())
    throw TraceError("sites: " + std::to_string(ncst) + " references for " +
                     std::to_string(cst.size()) + " CST entries");
  int64_t previous_ref = 0;
  for (CstEntry &e : cst) {
    // previous_ref <= n < 2^62 (a count of 2-byte sites): no overflow.
    const int64_t expected = previous_ref + 1;
    const int64_t delta = r.svarint();
    if (delta < -expected || delta > static_cast<int64_t>(n) - expected)
      throw TraceError("sites: reference out of range (" + count_text(n, "site") + ")");
    previous_ref = expected + delta;
    e.site = static_cast<uint32_t>(previous_ref);
  }
  if (!r.at_end())
    throw TraceError("sites: " + std::to_string(r.remaining()) + " trailing bytes");
}

} // namespace pilgrim
