// The SITES section (format version 8, docs/FORMAT.md §7.11): the trace's
// call sites and each merged CST entry's reference to one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// The payload for `sites` and the references in `cst` (CstEntry::site).
std::string encode_sites(const std::vector<CallSite> &sites, const std::vector<CstEntry> &cst);

// Reads the payload into `sites` and each entry's CstEntry::site. Throws
// TraceError when malformed: a count that is not the CST's, a reference past
// the table, a line or column over 2^32 - 1, trailing bytes.
void decode_sites(std::string_view payload, std::vector<CallSite> &sites,
                  std::vector<CstEntry> &cst);

} // namespace pilgrim
