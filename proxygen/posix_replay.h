// What a proxy makes of a posix record (PILGRIM_POSIX=on, docs/FORMAT.md
// §8.6): the same C call, on the same relative file name, with the same
// byte counts, offsets and flags, inside the proxy's scratch directory
// (file_replay.h: --io-dir, $PILGRIM_PROXY_FILES, or a directory of its
// own), where every rank works from MPI_Init to MPI_Finalize. A name is
// decoded at run time from its coded form (§8.6.1) by the model's own code,
// so a record in a loop names the file of each iteration; an absolute name
// loses its leading '/' (it lands in the scratch directory). The data
// written are bytes of the proxy's, and reads read what the proxy wrote.
// So the proxy's trace with PILGRIM_POSIX=on equals the original's where the
// program used relative names and read only what it wrote.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pilgrim/decoded_call.h"

namespace pilgrim::proxygen {

// The lines of posix record `call` (a CST entry); `handle` names a
// descriptor or stream.
std::vector<std::string> posix_lines(const Call &call,
                                     const std::function<std::string(const HandleRef &)> &handle);

// File-scope code the lines use: the name decoder and the data buffer.
std::string posix_prelude();

} // namespace pilgrim::proxygen
