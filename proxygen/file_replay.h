// Files the proxy opens: the paths of a trace are the original run's
// (relative to a directory the proxy does not run in, or absolute on another
// machine), and what an open does depends on what existed before it. The
// proxy opens every file in a scratch directory of its own, each distinct
// path of the trace as one file there, and gives each the state the traced
// run found: a file the program opened without MPI_MODE_CREATE (or deleted,
// or failed to create with MPI_MODE_EXCL) exists, with the size the program
// first saw, and one it created with MPI_MODE_EXCL does not.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "pilgrim/decoded_call.h"
#include "pilgrim/trace_model.h"

namespace pilgrim::proxygen {

struct ProxyFile {
  std::string path;        // the original's path, as traced
  bool must_exist = false; // the traced run found it there
  int64_t size = 0;        // its size then, where the program asked for it
};

class FilePlan {
public:
  // Follows every rank's calls in order (only when the trace opens or
  // deletes files). `calls` are the decoded CST entries.
  FilePlan(const Trace &trace, const std::vector<Call> &calls);
  FilePlan() = default;

  // Nothing to prepare: no file opened through MPI-IO, no posix record
  // (posix_replay.h: those run in the scratch directory).
  bool empty() const { return files_.empty() && !posix_; }
  // The index of the file for a traced path (added if the walk missed it);
  // paths that are equal once normalized lexically ("./a", "a") are one.
  size_t index(const std::string &path);
  // The proxy's helpers and the scratch directory's setup: file scope code,
  // and the lines in main after MPI_Init. `io_dir`: --io-dir; `keep`:
  // --keep-io-files.
  std::string prelude(const std::string &io_dir, bool keep) const;
  std::vector<std::string> setup_lines() const;
  std::vector<std::string> cleanup_lines() const;

private:
  std::vector<ProxyFile> files_;
  std::map<std::string, size_t> index_; // normalized path -> file
  bool posix_ = false;                  // the trace has posix records
};

// True for the parameters that name a file (MPI_File_open, MPI_File_delete).
bool names_file(const Call &call, size_t param);

} // namespace pilgrim::proxygen
