#include "pilgrim/section_compression.h"

#include <zstd.h>

#include <algorithm>
#include <memory>

#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

struct CCtxDeleter {
  void operator()(ZSTD_CCtx *c) const { ZSTD_freeCCtx(c); }
};
struct DCtxDeleter {
  void operator()(ZSTD_DCtx *d) const { ZSTD_freeDCtx(d); }
};

constexpr int kMaxWindowLog = 27; // 128 MiB, zstd's default decoder limit

} // namespace

// Measured on synthetic CST payloads (test/fuzz/sample_trace.h signatures):
// level 19 gains 2-8% over 9 but costs 5-50x the time (about 2 MB/s), which
// adds up over thousands of RANK sections at MPI_Finalize; 9 -> 6 -> 3
// trade a few percent of size for 2-3x speed each on larger sections.
int default_compression_level(uint64_t raw_size) {
  if (raw_size <= (uint64_t{1} << 20))
    return 9;
  if (raw_size <= (uint64_t{16} << 20))
    return 6;
  return 3;
}

std::string zstd_compress(std::string_view raw, int level) {
  std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx(ZSTD_createCCtx());
  if (!cctx)
    throw TraceError("zstd: cannot create a compression context");
  level = std::max(ZSTD_minCLevel(), std::min(level, ZSTD_maxCLevel()));
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 0); // the section CRC covers it
  // Keep the window within what every reader accepts.
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_windowLog, 0);
  ZSTD_CCtx_setPledgedSrcSize(cctx.get(), raw.size());
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  const size_t n = ZSTD_compress2(cctx.get(), out.data(), out.size(), raw.data(), raw.size());
  if (ZSTD_isError(n))
    throw TraceError(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::string zstd_decompress(std::string_view stored, uint64_t raw_size) {
  if (raw_size > SIZE_MAX / 2)
    throw TraceError("raw size too large for this machine");
  std::unique_ptr<ZSTD_DCtx, DCtxDeleter> dctx(ZSTD_createDCtx());
  if (!dctx)
    throw TraceError("zstd: cannot create a decompression context");
  ZSTD_DCtx_setParameter(dctx.get(), ZSTD_d_windowLogMax, kMaxWindowLog);

  const size_t want = static_cast<size_t>(raw_size);
  std::string out;
  // Start small and grow as output actually appears: a lying raw_size
  // cannot make us allocate more than the data really expands to.
  out.resize(std::min<size_t>(want, std::max<size_t>(stored.size() * 4, 64 * 1024)));
  ZSTD_inBuffer in{stored.data(), stored.size(), 0};
  size_t produced = 0;
  while (true) {
    if (produced == out.size() && out.size() < want)
      out.resize(std::min<size_t>(want, std::max<size_t>(out.size() * 2, 64 * 1024)));
    // Once raw_size bytes are out, offer one spare byte: zstd filling it
    // means the data is longer than raw_size.
    char spare;
    const bool full = produced == out.size();
    ZSTD_outBuffer ob{full ? static_cast<void *>(&spare)
                           : static_cast<void *>(out.data() + produced),
                      full ? 1 : out.size() - produced, 0};
    const size_t in_before = in.pos;
    const size_t hint = ZSTD_decompressStream(dctx.get(), &ob, &in);
    if (ZSTD_isError(hint))
      throw TraceError(std::string("corrupt zstd data: ") + ZSTD_getErrorName(hint));
    if (full && ob.pos)
      throw TraceError("data decompresses to more than the raw size " + std::to_string(raw_size));
    if (!full)
      produced += ob.pos;
    if (hint == 0 && in.pos == in.size)
      break; // last frame complete and flushed
    if (ob.pos == 0 && in.pos == in_before)
      throw TraceError(in.pos == in.size ? "truncated zstd data" : "zstd made no progress");
  }
  if (produced != want)
    throw TraceError("data decompresses to " + std::to_string(produced) + " bytes, expected " +
                     std::to_string(raw_size));
  out.resize(produced);
  return out;
}

} // namespace pilgrim
