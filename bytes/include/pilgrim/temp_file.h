// A trace is written under a temporary name beside its final path and
// renamed over it once complete, so a reader never sees half a file and a
// killed run leaves nothing under the trace's name. The temporary name is
// unique (mkstemp), so two runs writing the same path do not collide on it;
// the last rename wins.
#pragma once

#include <string>

namespace pilgrim {

// Creates and opens, for writing, a new file named `path` + ".tmp.XXXXXX"
// (the X's unique), with the permissions a plain create would give (0666
// less the umask). Returns its descriptor and sets `tmp_path`; on failure
// returns -1 with errno set.
int create_temp_beside(const std::string &path, std::string &tmp_path);

// Whether a trace could be written to `path` (a temporary file can be
// created beside it, and `path` is not a directory), without leaving any
// file behind. On failure `why` says what went wrong (strerror text).
bool can_write_beside(const std::string &path, std::string &why);

} // namespace pilgrim
