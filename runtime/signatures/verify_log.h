// The verify log (PILGRIM_VERIFY): each call's signature as varint(length)
// then the bytes. What rewrites signatures at MPI_Finalize (dynamic windows'
// target displacements, offsets fitted to the rank) rewrites the log alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/varint.h"

namespace pilgrim::rt {

// Calls `rewrite(std::string &sig)` on each logged signature, in order.
template <class Rewrite>
void rewrite_logged_signatures(std::vector<uint8_t> &log, Rewrite rewrite) {
  std::vector<uint8_t> out;
  out.reserve(log.size());
  for (size_t at = 0; at < log.size();) {
    uint64_t n = 0;
    for (int shift = 0; at < log.size(); shift += 7) {
      const uint8_t b = log[at++];
      n |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80))
        break;
    }
    n = std::min<uint64_t>(n, log.size() - at);
    std::string sig(reinterpret_cast<const char *>(log.data() + at), static_cast<size_t>(n));
    at += static_cast<size_t>(n);
    rewrite(sig);
    uint8_t len[kMaxVarintBytes];
    uint8_t *p = len;
    put_varint(p, sig.size());
    out.insert(out.end(), len, p);
    out.insert(out.end(), sig.begin(), sig.end());
  }
  log.swap(out);
}

} // namespace pilgrim::rt
