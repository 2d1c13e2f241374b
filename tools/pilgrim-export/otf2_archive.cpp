#include "otf2_archive.h"

#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <sys/stat.h>

namespace pilgrim::exporter {

namespace {

// OTF2's last error message, instead of OTF2 printing it.
std::string &last_message() {
  static std::string message;
  return message;
}

OTF2_ErrorCode capture(void *, const char *, uint64_t, const char *, OTF2_ErrorCode code,
                       const char *format, va_list va) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, va);
  last_message() = text;
  return code;
}

OTF2_FlushType pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) {
  return OTF2_FLUSH;
}

OTF2_TimeStamp post_flush(void *, OTF2_FileType, OTF2_LocationRef) { return 0; }

const OTF2_FlushCallbacks kFlush = {pre_flush, post_flush};

bool exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

} // namespace

void otf2_check(OTF2_ErrorCode code, const char *what) {
  if (code == OTF2_SUCCESS)
    return;
  std::string line = std::string(what) + ": " + OTF2_Error_GetDescription(code);
  if (!last_message().empty())
    line += " (" + last_message() + ")";
  last_message().clear();
  throw Otf2Error(line);
}

Otf2Archive::Otf2Archive(const std::string &dir) {
  OTF2_Error_RegisterCallback(capture, nullptr);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw Otf2Error("cannot create the directory: " +
                    (ec ? ec.message() : std::string("not a directory")));
  if (exists(dir + "/traces.otf2"))
    throw Otf2Error("already holds an OTF2 archive (traces.otf2): remove it or name "
                    "another directory");
  archive_ = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                               OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive_)
    throw Otf2Error("cannot create an OTF2 archive there" +
                    (last_message().empty() ? "" : " (" + last_message() + ")"));
  otf2_check(OTF2_Archive_SetFlushCallbacks(archive_, &kFlush, nullptr), "flush callbacks");
  otf2_check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collective callbacks");
}

void Otf2Archive::close() {
  OTF2_Archive *a = archive_;
  archive_ = nullptr;
  otf2_check(OTF2_Archive_Close(a), "closing the archive");
}

Otf2Archive::~Otf2Archive() {
  if (archive_)
    OTF2_Archive_Close(archive_);
}

} // namespace pilgrim::exporter
