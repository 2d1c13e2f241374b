// The site table (format version 8, docs/FORMAT.md §5.1): the trace's call
// sites and each merged CST entry's reference to one, stored as the value of
// META key 8 (`sites`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// The value for `sites` and the references in `cst` (CstEntry::site). The
// link-time address is written only for sites without a source file: a site
// read back with a file has address 0.
std::string encode_sites(const std::vector<CallSite> &sites, const std::vector<CstEntry> &cst);

// Reads the value into `sites` and each entry's CstEntry::site. Throws
// TraceError when malformed: a count that is not the CST's, a reference past
// the table, runs that do not cover the table, a line or column over
// 2^32 - 1, trailing bytes.
void decode_sites(std::string_view value, std::vector<CallSite> &sites, std::vector<CstEntry> &cst);

} // namespace pilgrim
