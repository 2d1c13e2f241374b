// A plain driver for trace_reader_fuzzer.cpp (no libFuzzer): runs every
// file named on the command line, or found in a directory named there,
// through LLVMFuzzerTestOneInput once. CI builds it with any compiler so
// the seed corpus and past crashers are replayed on every test run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

int run_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "trace_reader_fuzz_replay: cannot read %s\n", path.c_str());
    return 1;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: trace_reader_fuzz_replay FILE_OR_DIR...\n");
    return 2;
  }
  size_t count = 0;
  int failures = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path p = argv[i];
    if (std::filesystem::is_directory(p)) {
      std::vector<std::filesystem::path> files;
      for (const auto &entry : std::filesystem::directory_iterator(p))
        if (entry.is_regular_file())
          files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (const auto &f : files) {
        failures += run_file(f);
        ++count;
      }
    } else {
      failures += run_file(p);
      ++count;
    }
  }
  std::printf("trace_reader_fuzz_replay: %zu inputs replayed\n", count);
  return failures ? 1 : 0;
}
