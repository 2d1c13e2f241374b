// An OTF2 archive being written by one offline process (the sequence of
// ../shared/exports.md): opened with flush and serial collective callbacks,
// closed on destruction. OTF2's own error printing is captured, so that a
// failure is one line of pilgrim-export's (Otf2Error), never OTF2's stderr.
#pragma once

#include <otf2/otf2.h>
#include <stdexcept>
#include <string>

namespace pilgrim::exporter {

struct Otf2Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws Otf2Error naming `what` and OTF2's description of `code` when
// `code` is not OTF2_SUCCESS.
void otf2_check(OTF2_ErrorCode code, const char *what);

class Otf2Archive {
public:
  // DIR/traces.otf2, DIR/traces.def and DIR/traces/. Throws Otf2Error when
  // DIR already holds an archive or cannot be written.
  explicit Otf2Archive(const std::string &dir);
  ~Otf2Archive();
  Otf2Archive(const Otf2Archive &) = delete;
  Otf2Archive &operator=(const Otf2Archive &) = delete;

  OTF2_Archive *get() const { return archive_; }
  // Finishes the archive (its files complete on disk); throws Otf2Error.
  void close();

private:
  OTF2_Archive *archive_ = nullptr;
};

} // namespace pilgrim::exporter
