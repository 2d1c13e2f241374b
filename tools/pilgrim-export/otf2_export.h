// pilgrim-export --otf2 DIR TRACE: an OTF2 archive (docs/EXPORT.md, "OTF2").
#pragma once

#include <string>

#include "export_options.h"
#include "pilgrim/reader.h"

namespace pilgrim::exporter {

// Whether this build has OTF2 (Debian's libopen-trace-format2-dev at
// configure time).
bool otf2_available();
// Writes the archive at options.otf2_dir. False with a one-line error (no
// "pilgrim-export: " prefix) in `error`.
bool write_otf2(const reader::TraceFile &trace, const ExportOptions &options, std::string &error);

} // namespace pilgrim::exporter
