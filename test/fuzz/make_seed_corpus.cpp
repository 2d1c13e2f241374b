// Writes the seed corpus of trace_reader_fuzzer into a directory: valid
// files and payloads for each mode (see the fuzzer's header comment).
//   make_seed_corpus DIR
#include <cstdio>
#include <fstream>
#include <string>

#include "pilgrim/function_table_codec.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/rank_clock.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/site_codec.h"
#include "pilgrim/timing_chunk.h"
#include "pilgrim/timing_stream.h"
#include "pilgrim/timing_synthetic.h"
#include "pilgrim/trace_reader.h"
#include "pilgrim/varint.h"
#include "sample_trace.h"
#include "timing_samples.h"

namespace {

void put(const std::string &dir, const std::string &name, char mode, const std::string &bytes) {
  std::ofstream out(dir + "/" + name, std::ios::binary);
  out.put(mode);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

} // namespace

int main(int argc, char **argv) {
  using namespace pilgrim;
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seed_corpus DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  put(dir, "file-ring-1", 0, sample::ring_trace_bytes(1));
  put(dir, "file-ring-3", 0, sample::ring_trace_bytes(3));
  put(dir, "file-ring-2-notiming", 0, sample::ring_trace_bytes(2, false));
  // Merged traces whose communicator and window ids are reused (FORMAT.md §7.7).
  put(dir, "file-comm-reuse-v3", 0, sample::comm_reuse_trace_bytes(3, 3));
  put(dir, "file-comm-reuse-v2", 0, sample::comm_reuse_trace_bytes(3, 2));
  // Format version 4: Address elements (memory id + offset, plain values).
  put(dir, "file-addresses-v4", 0, sample::address_trace_bytes(3));
  {
    TraceHeader h = sample::ring_header(1);
    put(dir, "file-empty", 0, write_trace_to_memory(h, {}, {serialize_rank(RankTrace{})}));
  }
  // A timing payload per mode: two chunks (150 and 90 calls) of a stencil stream.
  for (size_t m = 0; m < sample::kTimingSpecCount; ++m) {
    timing::Spec spec;
    std::string error;
    timing::parse_spec(sample::kTimingSpecs[m], spec, error);
    timing::TickStream s;
    timing::synthetic_stream("stencil", 240, 1, s);
    for (size_t i = 0; i < s.size(); ++i)
      s.group[i] = sample::timing_group(i);
    std::string payload(1, static_cast<char>(m));
    for (size_t from : {size_t{0}, size_t{150}}) {
      const size_t n = from ? 90 : 150;
      std::vector<uint8_t> chunk;
      timing::encode_chunk(spec, std::vector<double>(3, spec.bound),
                           {n, &s.start[from], &s.end[from], &s.group[from]}, chunk);
      uint8_t frame[2 * kMaxVarintBytes], *p = frame;
      put_varint(p, n);
      put_varint(p, chunk.size());
      payload.append(reinterpret_cast<char *>(frame), static_cast<size_t>(p - frame));
      payload.append(chunk.begin(), chunk.end());
    }
    put(dir, "timing-" + std::to_string(m), 6, payload);
  }
  put(dir, "meta", 1, encode_meta(sample::ring_header(1)));
  {
    // The site table of the 2-rank ring's CST (mode 8).
    std::vector<CstEntry> cst = read_trace_from_memory(sample::ring_trace_bytes(2)).merged.cst;
    sample::give_sites(cst);
    put(dir, "sites", 8, encode_sites(sample::ring_sites(), cst));
  }
  put(dir, "functions", 2, encode_function_table(sample::all_functions()));
  const std::string rank = serialize_rank(sample::ring_rank(0));
  put(dir, "rank", 3, rank);
  {
    const std::string z = zstd_compress(rank, 19);
    std::string in;
    for (int i = 0; i < 4; ++i)
      in.push_back(static_cast<char>((rank.size() >> (8 * i)) & 0xff));
    put(dir, "rank-zstd", 4, in + z);
  }
  {
    // A RANK_TIMING payload of the 2-rank ring's rank 0 (mode 7): a clock
    // block, then its calls' ticks as the runtime's StreamWriter codes them.
    const Trace ring = read_trace_from_memory(sample::ring_trace_bytes(2));
    timing::Spec spec;
    std::string why;
    timing::parse_spec("lossless", spec, why);
    timing::StreamWriter w;
    const std::string spill = dir + "/.rank-timing.spill";
    if (!w.open(spill, spec, why)) {
      std::fprintf(stderr, "make_seed_corpus: %s\n", why.c_str());
      return 1;
    }
    const RankView v = ring.rank(0);
    for (uint32_t t = 0; t < v.cst->size(); ++t)
      w.set_group_bound(t, 0);
    GrammarWalker walker(*v.rules, v.root);
    uint64_t t;
    for (int64_t i = 1; walker.next(t); ++i)
      w.add(1000 * i, 1000 * i + 100, static_cast<uint32_t>(t));
    std::vector<uint8_t> block, chunks;
    encode_rank_clock(RankClock{}, block);
    if (!w.finish(why)) {
      std::fprintf(stderr, "make_seed_corpus: %s\n", why.c_str());
      return 1;
    }
    w.copy_payload(
        [&](const uint8_t *data, size_t n) {
          chunks.insert(chunks.end(), data, data + n);
          return true;
        },
        why);
    w.remove();
    std::string payload(1, static_cast<char>(block.size()));
    payload.append(block.begin(), block.end());
    payload.append(chunks.begin(), chunks.end());
    put(dir, "rank-timing", 7, payload);
  }
  // One signature per sample row, each role at least once.
  using sample::SigBuilder;
  namespace s = sig;
  const std::string sigs[] = {
      sample::ring_rank(0).cst[2].signature,
      sample::ring_rank(0).cst[4].signature,
      SigBuilder("MPI_Recv")
          .v(s::buffer_id(4))
          .i(16)
          .v(sample::kInt)
          .v(s::kRankAnySource)
          .v(s::kTagAny)
          .v(sample::kWorld)
          .v(s::kStatusFull)
          .v(s::rank_absolute(3))
          .v(s::tag_value(9))
          .i(64)
          .done(),
      SigBuilder("MPI_Gatherv")
          .v(s::kBufferInPlace)
          .i(2)
          .v(sample::kInt)
          .v(s::buffer_id(2))
          .arr(3)
          .i(1)
          .i(2)
          .i(3)
          .arr(3)
          .i(0)
          .i(1)
          .i(3)
          .v(sample::kInt)
          .v(s::rank_relative(0))
          .v(sample::kWorld)
          .done(),
      SigBuilder("MPI_Group_range_incl")
          .v(s::handle_user(1))
          .i(2)
          .arr(2)
          .v(s::rank_absolute(0))
          .v(s::rank_absolute(6))
          .v(s::rank_absolute(2))
          .v(s::rank_absolute(1))
          .v(s::rank_absolute(7))
          .v(s::rank_absolute(3))
          .arr(1)
          .v(s::handle_user(2))
          .done(),
      SigBuilder("MPI_Comm_spawn")
          .s("./worker")
          .v(3)
          .s("-n")
          .s("4")
          .i(2)
          .v(s::kHandleNull)
          .v(s::rank_relative(0))
          .v(sample::kWorld)
          .arr(1)
          .v(s::handle_user(5))
          .arr(2)
          .i(0)
          .i(0)
          .done(),
      SigBuilder("MPI_Comm_spawn_multiple")
          .i(2)
          .v(3)
          .s("a")
          .s("b")
          .v(3)
          .v(2)
          .s("x")
          .v(0)
          .arr(2)
          .i(1)
          .i(1)
          .arr(2)
          .v(s::kHandleNull)
          .v(s::handle_predefined(0))
          .v(s::rank_absolute(0))
          .v(sample::kWorld)
          .arr(1)
          .v(s::handle_user(6))
          .arr(2)
          .i(0)
          .i(0)
          .done(),
      SigBuilder("MPI_Comm_create_keyval")
          .v(s::callback_predefined(0))
          .v(s::callback_user(3))
          .v(s::pointer_id(0))
          .arr(1)
          .v(s::handle_user(0))
          .done(),
      SigBuilder("MPI_Pcontrol").i(1).done(),
      SigBuilder("MPI_File_open")
          .v(sample::kWorld)
          .s("out.dat")
          .i(37)
          .v(s::kHandleNull)
          .arr(1)
          .v(s::handle_user(0))
          .done(),
      SigBuilder("PILGRIM_Fake_double")
          .d(0.5)
          .arr(1)
          .d(1.5)
          .arr(1)
          .i(3)
          .arr(1)
          .d(-2.25)
          .arr(1)
          .i(4)
          .done(-3),
      // Format version 4: Address elements.
      sample::address_rank(0, 2).cst[1].signature,
      sample::address_rank(0, 2).cst[2].signature,
  };
  int n = 0;
  for (const std::string &sg : sigs)
    put(dir, "sig-" + std::to_string(n++), 5, sg);
  return 0;
}
