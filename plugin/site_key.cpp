#include "site_key.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace pilgrim::plugin {
namespace {

llvm::SmallString<256> absolute_clean(llvm::StringRef path, llvm::StringRef working_dir) {
  llvm::SmallString<256> out(path);
  if (!llvm::sys::path::is_absolute(out) && !working_dir.empty()) {
    out = working_dir;
    llvm::sys::path::append(out, path);
  }
  llvm::sys::path::remove_dots(out, /*remove_dot_dot=*/true);
  return out;
}

} // namespace

std::string site_path(llvm::StringRef file, llvm::StringRef root, llvm::StringRef working_dir) {
  llvm::SmallString<256> abs = absolute_clean(file, working_dir);
  llvm::SmallString<256> base = absolute_clean(root.empty() ? working_dir : root, working_dir);
  llvm::StringRef a = abs.str();
  llvm::StringRef b = base.str();
  if (!b.empty() && a.startswith(b) && a.size() > b.size() &&
      (b.endswith("/") || a[b.size()] == '/'))
    return a.drop_front(b.size()).ltrim('/').str();
  return a.str();
}

uint64_t site_id(llvm::StringRef path, unsigned line, unsigned column, llvm::StringRef function) {
  std::string key;
  key.reserve(path.size() + function.size() + 24);
  key.append(path.data(), path.size());
  key.push_back('\0');
  key.append(std::to_string(line));
  key.push_back(':');
  key.append(std::to_string(column));
  key.push_back('\0');
  key.append(function.data(), function.size());
  // 63 bits: the tracer tags a plugin id with bit 63 to tell it from a
  // return address in one 64-bit site key (runtime/sites/call_sites.h).
  uint64_t id = llvm::xxHash64(key) >> 1;
  return id == 0 ? 1 : id;
}

} // namespace pilgrim::plugin
