// Where a trace's calls were made (format version 8, docs/FORMAT.md §5.1):
// the site of a CST entry, and the one text every reader shows for it
// (pilgrim-dump's `at halo.cpp:42:5 in exchange()`, stats --sites' rows,
// the proxy's comments; docs/DUMP.md).
#pragma once

#include <cstdint>
#include <string>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// The site of CST entry `terminal`, or nullptr: a trace without sites
// (older versions, PILGRIM_SITES=off), or a record the application did not
// make (callbacks, the tracer's facts).
const CallSite *call_site(const Trace &trace, uint64_t terminal);

// `file:line:col in function()`: the source file's last path component;
// the column only where known (`file:line`); without debug information the
// module and the address in it, `prog+0x11d9 in main()`; ` in f()` only
// where the function is known; a name without a parameter list (C, or the
// symbol table's) gets `()`.
std::string site_text(const CallSite &site);

} // namespace pilgrim
