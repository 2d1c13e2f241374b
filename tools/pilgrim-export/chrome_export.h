// pilgrim-export --chrome FILE TRACE: trace-event JSON for the Perfetto UI
// and chrome://tracing (docs/EXPORT.md, "Chrome / Perfetto").
#pragma once

#include <string>

#include "export_options.h"
#include "pilgrim/reader.h"

namespace pilgrim::exporter {

// Writes options.chrome ("-": stdout). False with a one-line error (no
// "pilgrim-export: " prefix) in `error`.
bool write_chrome(const reader::TraceFile &trace, const ExportOptions &options, std::string &error);

} // namespace pilgrim::exporter
