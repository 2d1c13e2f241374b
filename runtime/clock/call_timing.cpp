#include "call_timing.h"

#include "pilgrim/crc32c.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace pilgrim::rt {

bool CallTiming::open(const timing::Spec &spec, double seconds_per_tick, const std::string &output,
                      int rank, bool verify, bool background, std::string &error) {
  spec_ = spec;
  unit_ = spec.absolute() ? 1.0 / seconds_per_tick : 1.0;
  // Beside the trace's temporary name (output.tmp.XXXXXX), one per rank and
  // process, unlinked once open (call_timing.h).
  const std::string spill = output + ".tmp.timing." + std::to_string(rank) + "." +
                            std::to_string(static_cast<long>(::getpid()));
  if (!writer_.open(spill, spec, error, background))
    return false;
  ::unlink(spill.c_str());
  if (verify) {
    verify_path_ = output + ".verify." + std::to_string(rank) + ".times";
    verify_ = std::fopen(verify_path_.c_str(), "wb");
    if (!verify_) {
      error = "pilgrim: cannot write " + verify_path_ + ": " + std::strerror(errno);
      writer_.remove();
      return false;
    }
  }
  active_ = true;
  return true;
}

void CallTiming::add_exact(int64_t t0, int64_t t1) {
  if (!verify_)
    return;
  uint8_t b[16];
  for (int i = 0; i < 8; ++i) {
    b[i] = static_cast<uint8_t>(static_cast<uint64_t>(t0) >> (8 * i));
    b[8 + i] = static_cast<uint8_t>(static_cast<uint64_t>(t1) >> (8 * i));
  }
  std::fwrite(b, 1, sizeof b, verify_);
}

namespace {

// The section's head: varint(clock size), then the clock block.
std::string section_head(const std::string &clock) {
  std::string head;
  uint64_t v = clock.size();
  while (v >= 0x80) {
    head.push_back(static_cast<char>(static_cast<uint8_t>(v) | 0x80));
    v >>= 7;
  }
  head.push_back(static_cast<char>(v));
  return head + clock;
}

bool write_at(MPI_File file, uint64_t offset, const void *data, size_t n, std::string &error) {
  const char *p = static_cast<const char *>(data);
  while (n > 0) {
    const int piece = static_cast<int>(std::min<size_t>(n, size_t{1} << 30));
    MPI_Status st;
    if (PMPI_File_write_at(file, static_cast<MPI_Offset>(offset), p, piece, MPI_BYTE, &st) !=
        MPI_SUCCESS) {
      error = "pilgrim: MPI-IO write of the timing section failed";
      return false;
    }
    p += piece;
    offset += static_cast<uint64_t>(piece);
    n -= static_cast<size_t>(piece);
  }
  return true;
}

} // namespace

bool CallTiming::write_section(MPI_Comm comm, MPI_File file, uint64_t base,
                               const std::string &clock, uint64_t &offset, uint64_t &size,
                               uint32_t &crc, std::string &error) {
  bool ok = true;
  if (verify_) {
    ok = std::fclose(verify_) == 0;
    verify_ = nullptr;
    if (!ok)
      error = "pilgrim: cannot write " + verify_path_ + ": " + std::strerror(errno);
  }
  ok = ok && writer_.finish(error);
  const std::string head = section_head(clock);
  size = head.size() + (ok ? writer_.payload_size() : 0);
  unsigned long long mine = size, before = 0;
  PMPI_Exscan(&mine, &before, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0)
    before = 0; // MPI_Exscan leaves rank 0's result undefined
  offset = base + before;
  if (!ok)
    return false;
  crc = crc32c(head.data(), head.size());
  if (!write_at(file, offset, head.data(), head.size(), error))
    return false;
  // The chunks, a bounded piece at a time: memory stays flat.
  uint64_t at = offset + head.size();
  return writer_.copy_payload(
      [&](const uint8_t *data, size_t n) {
        crc = crc32c_extend(crc, data, n);
        if (!write_at(file, at, data, n, error))
          return false;
        at += n;
        return true;
      },
      error);
}

void CallTiming::close() {
  if (verify_) {
    std::fclose(verify_);
    verify_ = nullptr;
  }
  writer_.remove();
  active_ = false;
}

} // namespace pilgrim::rt
