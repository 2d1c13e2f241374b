// What design (b) of call sites would add to a trace (bench/sites_cost.sh):
// sites as side information per terminal, the CST and grammar left as
// without sites. Reads a trace written with sites (design (a), the format's:
// the site is part of a terminal's identity, docs/FORMAT.md §5.1) and
// prints the bytes design (b)'s site table would add to the file: the same
// site table, then per distinct signature the list of its sites
// (varint(n) varint(ref){n}), as META key 8, by how much it grows META
// compressed as the writer compresses META. Design (b)'s trace is then the
// trace without sites (PILGRIM_SITES=off) plus this.
//   site_designs TRACE  ->  "a_terminals N b_terminals M b_sites_bytes B"
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pilgrim/byte_io.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/site_codec.h"
#include "pilgrim/trace_reader.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: site_designs TRACE\n");
    return 2;
  }
  try {
    const pilgrim::Trace t = pilgrim::read_trace(argv[1]);
    // Per signature, in first-seen order (the order design (b)'s CST has).
    std::map<std::string, size_t> index;
    std::vector<std::set<uint32_t>> refs;
    for (const pilgrim::CstEntry &e : t.merged.cst) {
      auto it = index.emplace(e.signature, refs.size()).first;
      if (it->second == refs.size())
        refs.emplace_back();
      refs[it->second].insert(e.site);
    }
    // The site table as design (a) writes it (encode_sites with no
    // references), then the per-signature lists.
    std::string raw = pilgrim::encode_sites(t.merged.sites, {});
    raw.pop_back(); // encode_sites's varint(0) reference count
    pilgrim::ByteWriter w(raw);
    w.varint(refs.size());
    for (const std::set<uint32_t> &r : refs) {
      w.varint(r.size());
      for (uint32_t ref : r)
        w.varint(ref);
    }
    // In META, as the format keeps design (a)'s table (docs/FORMAT.md
    // §5.1): what META grows by, compressed as the writer compresses it.
    auto stored = [](const std::string &payload) {
      return pilgrim::zstd_compress(payload, pilgrim::kSmallSectionLevel).size();
    };
    const size_t added = stored(pilgrim::encode_meta(t.header, raw)) -
                         std::min(stored(pilgrim::encode_meta(t.header)),
                                  stored(pilgrim::encode_meta(t.header, raw)));
    std::printf("a_terminals %zu b_terminals %zu b_sites_bytes %zu\n", t.merged.cst.size(),
                refs.size(), added);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "site_designs: %s\n", e.what());
    return 1;
  }
}
