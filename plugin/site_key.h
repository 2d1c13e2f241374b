// A call site's stable id: the same source gives the same id on every rank
// and in every rebuild, whatever the build directory's absolute path.
#pragma once

#include <cstdint>
#include <string>

#include "llvm/ADT/StringRef.h"

namespace pilgrim::plugin {

// The path the site table records and the id hashes: relative to `root`
// (the compilation directory, or -fplugin-arg-pilgrim-root=) when the file
// lies under it, else absolute. Both paths are made absolute and cleaned
// (".", "..") first.
std::string site_path(llvm::StringRef file, llvm::StringRef root, llvm::StringRef working_dir);

// xxHash64 of path, line, column and function, shifted to 63 bits (the
// tracer's site key tags plugin ids with bit 63); never 0 (0 means "no site"
// to the runtime).
uint64_t site_id(llvm::StringRef path, unsigned line, unsigned column, llvm::StringRef function);

} // namespace pilgrim::plugin
