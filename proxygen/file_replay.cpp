#include "file_replay.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

#include "pilgrim/call_formatter.h"
#include "pilgrim/file_name_decoder.h"
#include "pilgrim/grammar_walker.h"
#include "posix_replay.h"

namespace pilgrim::proxygen {

namespace {

// MPI_MODE_CREATE and MPI_MODE_EXCL have these values in Open MPI and MPICH
// alike (named_constants.cpp).
constexpr int64_t kModeCreate = 1;
constexpr int64_t kModeExcl = 64;

bool is(const Call &c, const char *name) {
  return c.function && c.function->name && std::strcmp(c.function->name, name) == 0;
}

bool starts(const Call &c, const char *prefix) {
  return c.function && c.function->name &&
         std::strncmp(c.function->name, prefix, std::strlen(prefix)) == 0;
}

const CallElement *element(const Call &c, const char *name, bool out) {
  const CallArg *d = c.arg(name);
  if (!d)
    return nullptr;
  const CallValue *v = out ? (d->has_out ? &d->out : nullptr) : d->any();
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
}

// The user id of file handle `name` (in or out), or -1.
int64_t file_id(const Call &c, const char *name, bool out) {
  const CallElement *e = element(c, name, out);
  return e && e->handle.user() ? static_cast<int64_t>(e->handle.id) : -1;
}

// Calls that change a file's contents or size.
bool writes(const Call &c) {
  return starts(c, "MPI_File_write") || starts(c, "MPI_File_iwrite") ||
         is(c, "MPI_File_set_size") || is(c, "MPI_File_preallocate");
}

// What the first open or delete of a path on a rank says the traced run
// found: 1 the file, -1 no file, 0 either.
int found(const Call &c) {
  const bool ok = c.return_code == 0; // MPI_SUCCESS
  if (is(c, "MPI_File_delete"))
    return ok ? 1 : -1;
  const CallElement *mode = element(c, "amode", false);
  const int64_t amode = mode ? mode->integer : 0;
  const bool create = (amode & kModeCreate) != 0, excl = (amode & kModeExcl) != 0;
  if (ok)
    return !create ? 1 : excl ? -1 : 0;
  return create && excl ? 1 : !create ? -1 : 0;
}

std::string base_name(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  if (b.empty() || b == "." || b == "..")
    b = "file";
  return b;
}

} // namespace

bool names_file(const Call &call, size_t param) {
  const char *n = call.function->params[param].name;
  return (is(call, "MPI_File_open") || is(call, "MPI_File_delete")) && n &&
         std::strcmp(n, "filename") == 0;
}

FilePlan::FilePlan(const Trace &trace, const std::vector<Call> &calls) {
  posix_ = std::any_of(calls.begin(), calls.end(),
                       [](const Call &c) { return is_posix_record(c.function_id); });
  if (std::none_of(calls.begin(), calls.end(), [](const Call &c) {
        return is(c, "MPI_File_open") || is(c, "MPI_File_delete");
      }))
    return;
  std::map<size_t, int> verdict; // file -> what the traced run found
  for (uint32_t rank = 0; rank < trace.nranks(); ++rank) {
    const RankView view = trace.rank(rank);
    GrammarWalker walker(*view.rules, view.root);
    std::set<size_t> seen;             // files this rank opened or deleted
    std::set<size_t> written;          // files this rank changed
    std::map<int64_t, size_t> handles; // file handle id -> file
    uint64_t t = 0;
    while (walker.next(t)) {
      if (t >= calls.size() || !calls[t].function)
        continue;
      const Call &c = calls[t];
      if (is(c, "MPI_File_open") || is(c, "MPI_File_delete")) {
        const CallElement *name = element(c, "filename", false);
        if (!name || name->null)
          continue;
        const size_t f = index(name->text);
        if (seen.insert(f).second) {
          const int v = found(c);
          int &w = verdict[f];
          w = v > 0 || w > 0 ? 1 : v < 0 ? -1 : w;
        }
        const int64_t id = is(c, "MPI_File_open") ? file_id(c, "fh", true) : -1;
        if (id >= 0)
          handles[id] = f;
        continue;
      }
      const int64_t id = file_id(c, "fh", false);
      const auto h = handles.find(id);
      if (h == handles.end())
        continue;
      if (writes(c))
        written.insert(h->second);
      const CallElement *size = is(c, "MPI_File_get_size") ? element(c, "size", true) : nullptr;
      if (size && !written.count(h->second))
        files_[h->second].size = std::max(files_[h->second].size, size->offset_at(rank));
    }
  }
  for (const auto &[f, v] : verdict)
    files_[f].must_exist = v > 0;
}

size_t FilePlan::index(const std::string &path) {
  // "./out/a.dat" and "out/b/../a.dat" name one file.
  const std::string key = std::filesystem::path(path).lexically_normal().string();
  const auto it = index_.find(key);
  if (it != index_.end())
    return it->second;
  index_[key] = files_.size();
  files_.push_back(ProxyFile{path, false, 0});
  return files_.size() - 1;
}

std::string FilePlan::prelude(const std::string &io_dir, bool keep) const {
  if (empty())
    return "";
  // A file keeps its base name in the scratch directory, unless two paths
  // share it (then K-name; every file so, should that meet another name).
  std::map<std::string, size_t> bases;
  for (const ProxyFile &f : files_)
    ++bases[base_name(f.path)];
  std::vector<std::string> scratch;
  for (size_t k = 0; k < files_.size(); ++k) {
    const std::string b = base_name(files_[k].path);
    scratch.push_back(bases[b] > 1 ? std::to_string(k) + "-" + b : b);
  }
  if (std::set<std::string>(scratch.begin(), scratch.end()).size() != scratch.size())
    for (size_t k = 0; k < files_.size(); ++k)
      scratch[k] = std::to_string(k) + "-" + base_name(files_[k].path);
  std::string names, exists, sizes;
  for (size_t k = 0; k < files_.size(); ++k) {
    const ProxyFile &f = files_[k];
    names += "    " + quote_string(scratch[k]) + ", // " + quote_string(f.path) + "\n";
    exists += std::string(k ? ", " : "") + (f.must_exist ? "true" : "false");
    sizes += std::string(k ? ", " : "") + std::to_string(f.size) + "LL";
  }
  const std::string n = std::to_string(files_.size());
  const std::string n1 = std::to_string(std::max<size_t>(files_.size(), 1)); // no empty arrays
  if (files_.empty()) {
    names = "    nullptr\n";
    exists = "false";
    sizes = "0";
  }
  return (posix_ ? posix_prelude() : std::string()) + R"(
// ---- files ----------------------------------------------------------------------
// The traced paths, each one file in the proxy's scratch directory:
// $PILGRIM_PROXY_FILES if set, else )" +
         (io_dir.empty() ? std::string("a new proxy-files.XXXXXX in the current directory")
                         : "--io-dir " + io_dir) +
         R"(. Before the first call, the files
// the traced run found are made (with the size it saw) and the others removed.
// At the end the proxy removes its files, and the directory if it made it,
// unless it was generated with --keep-io-files or PILGRIM_PROXY_KEEP_FILES
// is set (not to 0).
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/syscall.h>
#include <system_error>
#include <unistd.h>

const std::size_t kFileCount = )" +
         n + ";\nconst char *const kFileNames[" + n1 + "] = {\n" + names +
         "};\nconst bool kFileFound[" + n1 + "] = {" + exists + "};\nconst long long kFileSizes[" +
         n1 + "] = {" + sizes + "};\nconst char *const kIoDir = " + quote_string(io_dir) +
         ";\nconst bool kKeepIoFiles = " + (keep ? "true" : "false") +
         ";\nconst bool kPosixInScratch = " + (posix_ ? "true" : "false") +
         ";\nstd::string file_paths[" + n1 + R"(];
std::string scratch_dir;
bool scratch_owned = false; // rank 0 made the directory
std::string home_dir; // where the proxy started (kPosixInScratch: it works in scratch_dir)

const char *proxy_file(int k) { return file_paths[k].c_str(); }

void prepare_files() {
  char dir[4096] = {};
  if (world_rank == 0) {
    const char *env = std::getenv("PILGRIM_PROXY_FILES");
    std::string d = env && *env ? env : kIoDir;
    std::error_code ec;
    if (d.empty()) {
      char tmpl[] = "proxy-files.XXXXXX";
      if (!mkdtemp(tmpl)) {
        std::perror("proxy: cannot make a scratch directory for files");
        PMPI_Abort(MPI_COMM_WORLD, 1);
      }
      d = tmpl;
      scratch_owned = true;
    } else if (!std::filesystem::is_directory(d, ec)) {
      if (!std::filesystem::create_directories(d, ec)) {
        std::fprintf(stderr, "proxy: cannot make the scratch directory %s\n", d.c_str());
        PMPI_Abort(MPI_COMM_WORLD, 1);
      }
      scratch_owned = true;
    }
    std::snprintf(dir, sizeof dir, "%s", std::filesystem::absolute(d, ec).c_str());
  }
  PMPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  scratch_dir = dir;
  for (std::size_t k = 0; k < kFileCount; ++k) {
    file_paths[k] = scratch_dir + "/" + kFileNames[k];
    if (world_rank != 0)
      continue;
    std::error_code ec;
    std::filesystem::remove(file_paths[k], ec);
    if (kFileFound[k]) {
      // Made by the kernel, not through open(): traced with PILGRIM_POSIX=on,
      // the proxy records only the program's calls.
      const long fd = syscall(SYS_openat, AT_FDCWD, file_paths[k].c_str(),
                              O_CREAT | O_WRONLY | O_TRUNC, 0644);
      if (fd >= 0)
        syscall(SYS_close, fd);
      std::filesystem::resize_file(file_paths[k], static_cast<std::uintmax_t>(kFileSizes[k]), ec);
    }
  }
  PMPI_Barrier(MPI_COMM_WORLD);
  if (kPosixInScratch) { // the POSIX calls' relative names are the traced ones
    std::error_code ec;
    home_dir = std::filesystem::current_path(ec).string();
    if (chdir(scratch_dir.c_str()) != 0) {
      std::fprintf(stderr, "proxy: cannot work in %s\n", scratch_dir.c_str());
      PMPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

// After MPI_Finalize: every rank has closed its files.
void remove_scratch() {
  const char *keep = std::getenv("PILGRIM_PROXY_KEEP_FILES");
  if (kKeepIoFiles || (keep && *keep && std::string(keep) != "0"))
    return;
)" +
         std::string(posix_
                         ? "  remove_posix_files(); // each rank the files its POSIX calls named\n"
                         : "") +
         R"(  if (world_rank != 0)
    return;
  std::error_code ec;
  if (kPosixInScratch && !home_dir.empty() && chdir(home_dir.c_str()) != 0)
    std::fprintf(stderr, "proxy: cannot go back to %s\n", home_dir.c_str());
  if (scratch_owned) { // the proxy's own directory, whatever MPI left in it
    std::filesystem::remove_all(scratch_dir, ec);
    return;
  }
  for (const std::string &p : file_paths) // a directory of the user's: only the proxy's files
    std::filesystem::remove(p, ec);
}

)";
}

std::vector<std::string> FilePlan::setup_lines() const {
  if (empty())
    return {};
  return {"prepare_files();"};
}

std::vector<std::string> FilePlan::cleanup_lines() const {
  if (empty())
    return {};
  return {"remove_scratch();"};
}

} // namespace pilgrim::proxygen
