#include "pilgrim/temp_file.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace pilgrim {

namespace {
mode_t current_umask() {
  const mode_t m = ::umask(022); // reading the umask means setting it
  ::umask(m);
  return m;
}
} // namespace

int create_temp_beside(const std::string &path, std::string &tmp_path) {
  std::string name = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    return -1;
  // mkstemp creates 0600; a trace is as readable as any file the user makes.
  ::fchmod(fd, static_cast<mode_t>(0666) & ~current_umask());
  tmp_path = std::move(name);
  return fd;
}

bool can_write_beside(const std::string &path, std::string &why) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    why = std::strerror(EISDIR);
    return false;
  }
  std::string probe;
  const int fd = create_temp_beside(path, probe);
  if (fd < 0) {
    why = std::strerror(errno);
    return false;
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

} // namespace pilgrim
