#include "posix_replay.h"

#include "file_name_form_text.h"
#include "pilgrim/call_formatter.h"
#include "pilgrim/posix_records.h"
#include "pilgrim/trace_error.h"

#include <cstdio>
#include <cstring>

namespace pilgrim::proxygen {

namespace {

const CallElement *element(const Call &c, const char *name) {
  const CallArg *a = c.arg(name);
  const CallValue *v = a ? a->any() : nullptr;
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
}

// A value: long long (counts, offsets), or int (flags, mode, whence: open's
// mode is read as an int from its variadic arguments).
std::string integer(const Call &c, const char *name, bool as_int = false) {
  const CallElement *e = element(c, name);
  if (!e)
    return "0";
  return as_int ? "static_cast<int>(" + std::to_string(e->integer) + "LL)"
                : std::to_string(e->integer) + "LL";
}

// A file name or fopen mode: decoded by the proxy, at this call, from the
// coded form the trace holds (the element's text as the CST entry has it).
std::string name(const Call &c, const char *param) {
  const CallElement *e = element(c, param);
  if (!e || e->null || !e->coded)
    return "nullptr";
  // A path is remembered, so that the proxy can remove what it made.
  return std::string(std::strcmp(param, "path") == 0 ? "posix_path(" : "posix_name(") +
         std::to_string(c.thread) + ", " + quote_string(e->coded->text) + ", " +
         std::to_string(e->coded->text.size()) + ")";
}

std::string fd(const Call &c, const char *param,
               const std::function<std::string(const HandleRef &)> &handle) {
  const CallElement *e = element(c, param);
  return e ? handle(e->handle) : "-1";
}

// The descriptor or stream an open made (its out value).
std::string made(const Call &c, const char *param,
                 const std::function<std::string(const HandleRef &)> &handle) {
  const CallArg *a = c.arg(param);
  if (!a || !a->has_out || a->out.elements.size() != 1 || !a->out.elements[0].handle.user())
    return "";
  return handle(a->out.elements[0].handle) + " = ";
}

// Whether the call's row has every parameter the replay of `id` reads (a
// newer writer's row may not).
bool known_row(const Call &c, uint16_t id) {
  std::vector<const char *> need;
  switch (id) {
  case kPosixOpen:
  case kPosixOpen64:
    need = {"path", "flags", "mode", "fd"};
    break;
  case kPosixOpenat:
  case kPosixOpenat64:
    need = {"dirfd", "path", "flags", "mode", "fd"};
    break;
  case kPosixClose:
  case kPosixFsync:
    need = {"fd"};
    break;
  case kPosixRead:
  case kPosixWrite:
    need = {"fd", "count"};
    break;
  case kPosixPread:
  case kPosixPread64:
  case kPosixPwrite:
  case kPosixPwrite64:
    need = {"fd", "count", "offset"};
    break;
  case kPosixLseek:
  case kPosixLseek64:
    need = {"fd", "offset", "whence"};
    break;
  case kPosixFopen:
  case kPosixFopen64:
    need = {"path", "mode", "stream"};
    break;
  case kPosixFread:
  case kPosixFwrite:
    need = {"size", "nmemb", "stream"};
    break;
  case kPosixFclose:
    need = {"stream"};
    break;
  default:
    return false;
  }
  for (const char *n : need)
    if (!c.arg(n))
      return false;
  return true;
}

} // namespace

std::vector<std::string> posix_lines(const Call &call,
                                     const std::function<std::string(const HandleRef &)> &handle) {
  const uint16_t id = call.function_id;
  const std::string f = call.function && call.function->name ? call.function->name : "";
  const std::string n = integer(call, "count"), off = integer(call, "offset");
  if (!known_row(call, id)) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%04X", static_cast<unsigned>(id));
    return {"// " + sanitize_for_message(f.empty() ? "record" : f, 200) + " (" + hex +
            "): a POSIX record this proxygen does not replay"};
  }
  switch (id) {
  case kPosixOpen:
  case kPosixOpen64:
    return {made(call, "fd", handle) + f + "(" + name(call, "path") + ", " +
            integer(call, "flags", true) + ", " + integer(call, "mode", true) + ");"};
  case kPosixOpenat:
  case kPosixOpenat64:
    return {made(call, "fd", handle) + f + "(" + fd(call, "dirfd", handle) + ", " +
            name(call, "path") + ", " + integer(call, "flags", true) + ", " +
            integer(call, "mode", true) + ");"};
  case kPosixClose:
    return {"close(" + fd(call, "fd", handle) + ");"};
  case kPosixRead:
  case kPosixWrite:
    return {f + "(" + fd(call, "fd", handle) + ", posix_buffer(" + n + "), " + n + ");"};
  case kPosixPread:
  case kPosixPread64:
  case kPosixPwrite:
  case kPosixPwrite64:
    return {f + "(" + fd(call, "fd", handle) + ", posix_buffer(" + n + "), " + n + ", " + off +
            ");"};
  case kPosixLseek:
  case kPosixLseek64:
    return {f + "(" + fd(call, "fd", handle) + ", " + off + ", " + integer(call, "whence", true) +
            ");"};
  case kPosixFsync:
    return {"fsync(" + fd(call, "fd", handle) + ");"};
  case kPosixFopen:
  case kPosixFopen64:
    return {made(call, "stream", handle) + f + "(" + name(call, "path") + ", " +
            name(call, "mode") + ");"};
  case kPosixFread:
  case kPosixFwrite: {
    const std::string size = integer(call, "size"), nmemb = integer(call, "nmemb");
    return {f + "(posix_buffer(" + size + " * " + nmemb + "), " + size + ", " + nmemb + ", " +
            fd(call, "stream", handle) + ");"};
  }
  case kPosixFclose:
    return {"fclose(" + fd(call, "stream", handle) + ");"};
  default: // known_row() knows every id below
    return {};
  }
}

std::string posix_prelude() {
  std::string form = kFileNameFormSource;
  const size_t once = form.find("#pragma once\n");
  if (once != std::string::npos) // the proxy is a main file
    form.erase(once, std::strlen("#pragma once\n"));
  return R"(
// ---- POSIX I/O (posix_replay.h) --------------------------------------------------
// The traced program's POSIX calls, in the scratch directory: names decoded
// at run time as the model decodes them (model/include/pilgrim/file_name_form.h).
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>
)" + form +
         R"(
pilgrim::file_name_form::State posix_names;
std::string posix_name_text[2];
int posix_name_slot = 0;

// The name a coded form stands for at this call (relative: an absolute
// name loses its leading '/'). Two at a time (fopen's path and mode).
const char *posix_name(unsigned long long thread, const char *coded, std::size_t n) {
  std::string &out = posix_name_text[posix_name_slot ^= 1];
  if (const char *e = pilgrim::file_name_form::decode(posix_names, world_rank, thread,
                                                       std::string(coded, n), out)) {
    std::fprintf(stderr, "proxy: %s\n", e);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  const std::size_t rel = out.find_first_not_of('/');
  if (rel != 0 && rel != std::string::npos)
    out.erase(0, rel);
  return out.c_str();
}

// The files this rank's POSIX calls named, as absolute paths: removed at the
// end from a scratch directory of the user's (file_replay.h) unless kept.
extern std::string scratch_dir; // the files' part of the proxy (file_replay.h)
std::set<std::string> posix_paths;
const char *posix_path(unsigned long long thread, const char *coded, std::size_t n) {
  const char *name = posix_name(thread, coded, n);
  posix_paths.insert(scratch_dir + "/" + name);
  return name;
}
void remove_posix_files() {
  std::error_code ec;
  for (const std::string &p : posix_paths)
    std::filesystem::remove(p, ec);
}

std::vector<char> posix_data;
char *posix_buffer(long long n) {
  if (n > 0 && posix_data.size() < static_cast<std::size_t>(n))
    posix_data.resize(static_cast<std::size_t>(n), 'p');
  return posix_data.data();
}
)";
}

} // namespace pilgrim::proxygen
