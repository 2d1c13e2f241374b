// Placeholder until the OTF2 writer lands (issue 14): says so plainly.
#include "otf2_export.h"

namespace pilgrim::exporter {

bool otf2_available() { return false; }

bool write_otf2(const reader::TraceFile &, const ExportOptions &, std::string &error) {
  error = "--otf2: this build has no OTF2 writer yet";
  return false;
}

} // namespace pilgrim::exporter
