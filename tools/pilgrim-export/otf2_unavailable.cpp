// pilgrim-export --otf2 in a build without OTF2 (libopen-trace-format2-dev
// was not found at configure time): one clear line, no archive.
#include "otf2_export.h"

namespace pilgrim::exporter {

bool otf2_available() { return false; }

bool write_otf2(const reader::TraceFile &, const ExportOptions &, std::string &error) {
  error = "--otf2: this build has no OTF2 (install libopen-trace-format2-dev, "
          "scripts/bootstrap.sh does, and rebuild)";
  return false;
}

} // namespace pilgrim::exporter
