// Placeholder until the Chrome writer lands (issue 14): says so plainly.
#include "chrome_export.h"

namespace pilgrim::exporter {

bool write_chrome(const reader::TraceFile &, const ExportOptions &, std::string &error) {
  error = "--chrome: this build has no trace-event writer yet";
  return false;
}

} // namespace pilgrim::exporter
