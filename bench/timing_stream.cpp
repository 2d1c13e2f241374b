// Drives the timing StreamWriter and PayloadReader with a synthetic stream
// of N calls, generated on the fly (nothing of size N is held), and prints
// the peak resident memory and the throughput:
//   timing_stream N MODE DIR
// writes the spill file and the payload under DIR and removes both.
// bench/timing_stream.sh runs it at 10^6 and 10^7 calls (CI: peak memory
// flat) and at 10^9 on demand.
#include "pilgrim/timing_stream.h"
#include "pilgrim/timing_payload.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace pilgrim::timing;

namespace {

// VmHWM, the peak resident set, in KiB.
long peak_kib() {
  FILE *f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmHWM:", 6) == 0)
      kib = std::atol(line + 6);
  if (f)
    std::fclose(f);
  return kib;
}

// A stencil-like call i: a 14-call loop, deterministic noise.
struct Calls {
  uint64_t x = 88172645463325252ull;
  int64_t t = 1'000'000'000;
  uint64_t noise() {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  }
  void next(uint64_t i, int64_t &s, int64_t &e, uint32_t &g) {
    g = static_cast<uint32_t>(i % 14);
    t += (g == 0 ? 1'000'000 : 120) + static_cast<int64_t>(noise() % 64);
    s = t;
    t += (g == 8 ? 4000 : 400) + static_cast<int64_t>(noise() % 128);
    e = t;
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: timing_stream N MODE DIR\n");
    return 2;
  }
  const uint64_t n = std::stoull(argv[1]);
  Spec spec;
  std::string error;
  if (!parse_spec(argv[2], spec, error) || !spec.per_call()) {
    std::fprintf(stderr, "timing_stream: %s\n",
                 error.empty() ? "not a per-call mode" : error.c_str());
    return 2;
  }
  const std::string spill =
      std::string(argv[3]) + "/timing_stream.spill." + std::to_string(getpid());
  const std::string payload =
      std::string(argv[3]) + "/timing_stream.payload." + std::to_string(getpid());
  StreamWriter w;
  if (!w.open(spill, spec, error)) {
    std::fprintf(stderr, "timing_stream: %s\n", error.c_str());
    return 1;
  }
  const double bound = spec.absolute() ? 1000 : spec.bound; // zfp: TOL taken as ticks
  for (uint32_t g = 0; g < 14; ++g)
    w.set_group_bound(g, bound);
  Calls gen;
  auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    int64_t s, e;
    uint32_t g;
    gen.next(i, s, e, g);
    w.add(s, e, g);
  }
  bool ok = w.finish(error);
  const double write_s = seconds_since(t0);
  const int fd = ok ? ::open(payload.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600) : -1;
  ok = ok && fd >= 0 &&
       w.copy_payload(
           [&](const uint8_t *p, size_t k) { return ::write(fd, p, k) == static_cast<ssize_t>(k); },
           error);
  const uint64_t bytes = w.payload_size();
  w.remove();
  // Read it back chunk by chunk from the file.
  std::vector<uint32_t> group(kChunkCalls);
  std::vector<int64_t> start(kChunkCalls), end(kChunkCalls);
  PayloadReader r(spec, std::vector<double>(14, bound), bytes,
                  [&](uint64_t off, size_t k, uint8_t *out) {
                    return ::pread(fd, out, k, static_cast<off_t>(off)) == static_cast<ssize_t>(k);
                  });
  Calls check;
  uint64_t done = 0, mismatches = 0;
  size_t k = 0;
  t0 = std::chrono::steady_clock::now();
  while (ok && r.next(k, error)) {
    std::vector<int64_t> s(k), e(k);
    for (size_t j = 0; j < k; ++j)
      check.next(done + j, s[j], e[j], group[j]);
    if (!r.decode(group.data(), start.data(), end.data(), error)) {
      ok = false;
      break;
    }
    if (!spec.lossy())
      for (size_t j = 0; j < k; ++j)
        mismatches += start[j] != s[j] || end[j] != e[j];
    done += k;
  }
  const double read_s = seconds_since(t0);
  if (fd >= 0) {
    ::close(fd);
    ::unlink(payload.c_str());
  }
  if (!ok || !error.empty() || done != n || mismatches) {
    std::fprintf(stderr, "timing_stream: %s (read %llu of %llu calls, %llu mismatches)\n",
                 error.empty() ? "failed" : error.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(n), static_cast<unsigned long long>(mismatches));
    return 1;
  }
  std::printf("calls %llu mode %s payload %.3f B/call peak_kib %ld write %.1f ns/call read %.1f "
              "ns/call\n",
              static_cast<unsigned long long>(n), argv[2],
              static_cast<double>(bytes) / static_cast<double>(n), peak_kib(),
              write_s * 1e9 / static_cast<double>(n), read_s * 1e9 / static_cast<double>(n));
  return 0;
}
