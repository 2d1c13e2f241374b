// libFuzzer target for every reader path of the format library.
//
// The first input byte picks what the rest is:
//   0 (and any value > 8): a whole trace file, read with read_trace_from_memory
//   1: a META payload        } wrapped into an otherwise valid file (stored
//   2: a FUNCTIONS payload   } codec, correct CRCs), so the fuzzer reaches the
//   3: a RANK payload        } payload parsers without having to fix checksums
//   4: a zstd-coded RANK section: 4 bytes raw size (LE), then the stored bytes
//   5: a signature, decoded against the sample function table
//   6: a per-call timing payload (docs/FORMAT.md §7.10): the next byte picks
//      the mode (timing_samples.h), the rest is walked chunk by chunk and
//      every chunk decoded, call i in group i % 5 (zfp: TOL in ticks)
//   7: a RANK_TIMING payload (clock block and chunks, docs/FORMAT.md §7.9),
//      given to every rank of a valid 2-rank lossless ring (version 6)
//   8: a site table (META key 8, docs/FORMAT.md §5.1) in the META of a
//      valid 2-rank merged ring (version 8)
// Whatever parses is then used the way pilgrim-dump uses it: every signature
// decoded and formatted, message volumes computed, grammar expanded (up to a
// bound). Expected failures are TraceError; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/call_formatter.h"
#include "pilgrim/call_sites.h"
#include "pilgrim/call_times.h"
#include "pilgrim/context_walk.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/function_table_codec.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/length_eval.h"
#include "pilgrim/merged_codec.h"
#include "pilgrim/message_volume.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/timing_payload.h"
#include "pilgrim/trace_container.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"
#include "pilgrim/trace_writer.h"
#include "sample_trace.h"
#include "timing_samples.h"

namespace {

using namespace pilgrim;

std::string wrap(std::string_view meta, std::string_view functions, std::string_view rank,
                 uint8_t rank_codec, uint64_t rank_raw_size) {
  std::string out;
  StringSink sink(out);
  ContainerWriter w(sink);
  w.set_version(kFormatVersionPerRank); // a RANK section: the per-rank layout
  w.add_encoded_section(static_cast<uint16_t>(SectionType::Meta), kNoRank, kSectionCritical, 0,
                        meta, meta.size());
  w.add_encoded_section(static_cast<uint16_t>(SectionType::Functions), kNoRank, kSectionCritical, 0,
                        functions, functions.size());
  w.add_encoded_section(static_cast<uint16_t>(SectionType::Rank), 0, kSectionCritical, rank_codec,
                        rank, rank_raw_size);
  w.finish();
  return out;
}

const std::string &valid_meta() {
  static const std::string s = encode_meta(sample::ring_header(1));
  return s;
}
const std::string &valid_functions() {
  static const std::string s = encode_function_table(sample::all_functions());
  return s;
}
const std::string &valid_rank() {
  static const std::string s = serialize_rank(sample::ring_rank(0));
  return s;
}

void use_call(const DecodedCall &call, const CallContext &ctx) {
  std::string text = format_call(call, ctx);
  (void)message_volume(call, ctx);
  // Exercise the length programs with accessors over the decoded values.
  LengthAccessors acc;
  acc.value = [&](int p) -> int64_t {
    const DecodedValue *v = call.params[static_cast<size_t>(p)].any();
    return v && !v->elements.empty() ? v->elements[0].integer : 0;
  };
  acc.element = [&](int p, int64_t i) -> int64_t {
    const DecodedValue *v = call.params[static_cast<size_t>(p)].any();
    if (!v || i < 0 || static_cast<uint64_t>(i) >= v->elements.size())
      throw TraceError("index out of range");
    return v->elements[static_cast<size_t>(i)].integer;
  };
  acc.comm_fact = [](LenOp, int) -> int64_t { return 4; };
  acc.null_terminated_length = [](int) -> int64_t { return 2; };
  for (uint8_t i = 0; i < call.function->nparams; ++i) {
    if (!call.function->params[i].len)
      continue;
    try {
      (void)eval_length(*call.function, i, acc);
    } catch (const TraceError &) {
    }
  }
}

// A valid 2-rank ring of format version 6 (per-call timing, lossless)
// whose ranks' RANK_TIMING payloads are `payload`.
std::string with_rank_timing(std::string_view payload) {
  static const MergedTrace ring = read_trace_from_memory(sample::ring_trace_bytes(2)).merged;
  TraceHeader h = sample::ring_header(2);
  h.timing_mode = 2;
  h.timing_spec = "lossless";
  MergedTrace m = ring;
  for (CstEntry &e : m.cst)
    e.duration = e.interval = TimingStats{};
  std::string out;
  TraceWriter w(&out, h, sample::ring_functions());
  w.add_merged(m);
  for (uint32_t r = 0; r < 2; ++r)
    w.add_rank_timing(r, payload);
  w.finish();
  return out;
}

// A valid 2-rank merged ring (version 8) whose META has `sites` as key 8's
// value (none when empty).
std::string with_sites(std::string_view sites) {
  static const MergedTrace ring = read_trace_from_memory(sample::ring_trace_bytes(2)).merged;
  std::string out;
  StringSink sink(out);
  ContainerWriter w(sink);
  w.set_version(kFormatVersion);
  auto add = [&w](SectionType type, std::string_view payload) {
    w.add_encoded_section(static_cast<uint16_t>(type), kNoRank, kSectionCritical, 0, payload,
                          payload.size());
  };
  add(SectionType::Meta, encode_meta(sample::ring_header(2), sites));
  add(SectionType::Functions, encode_function_table(sample::ring_functions()));
  add(SectionType::MergedCst, encode_merged_cst(ring.cst));
  add(SectionType::MergedGrammar, encode_merged_grammar(ring.rules, ring.roots));
  add(SectionType::RankGrammarMap, encode_rank_map(ring.rank_map));
  if (!ring.comms.empty())
    add(SectionType::RankComms, encode_rank_comms(ring.comms, kFormatVersion));
  w.finish();
  return out;
}

void use_trace(const Trace &trace) {
  // Each entry's site, as pilgrim-dump prints it.
  for (uint64_t t = 0; t < trace.merged.cst.size(); ++t)
    if (const CallSite *site = call_site(trace, t))
      (void)site_text(*site);
  // Per-call times, as pilgrim-dump reads them (decoding stops at the
  // first error; a bounded number of ranks).
  if (has_call_times(trace))
    for (uint32_t r = 0; r < trace.nranks() && r < 16; ++r) {
      std::vector<CallTime> times;
      std::string error;
      (void)read_call_times(trace, r, times, error);
    }
  // Every CST entry decoded once (function nullptr where it does not).
  std::vector<DecodedCall> calls(trace.merged.cst.size());
  for (size_t t = 0; t < calls.size(); ++t) {
    try {
      calls[t] = decode_signature(trace, trace.merged.cst[t].signature);
    } catch (const TraceError &) {
    }
  }
  // Ranks share grammars: look at a bounded number of them.
  for (uint32_t r = 0; r < trace.nranks() && r < 64; ++r) {
    const RankView v = trace.rank(r);
    // As pilgrim-dump --grammar and --stats: each entry in the contexts of its uses.
    CreationTracker per_entry = CreationTracker::for_rank(trace, r, calls);
    walk_in_context(*v.rules, v.root, calls, per_entry,
                    [&](uint64_t t, uint64_t, const CallContext &ctx) {
                      if (t >= v.cst->size())
                        __builtin_trap(); // checked at read time
                      if (calls[t].function)
                        use_call(calls[t], ctx);
                    });
    (void)expanded_length(*v.rules, v.root);
    (void)trace.rank_trace(r);
    // As the call listing: each call in the context of its position.
    CreationTracker per_call = CreationTracker::for_rank(trace, r, calls);
    GrammarWalker walker(*v.rules, v.root);
    uint64_t t;
    for (int n = 0; n < 100000 && walker.next(t); ++n) {
      if (t >= v.cst->size())
        __builtin_trap(); // the walker must stay in range
      if (n < 1000 && calls[t].function)
        use_call(calls[t], per_call.context());
      per_call.apply(calls[t]);
    }
  }
}

void use_timing_payload(std::string_view in) {
  if (in.empty())
    return;
  pilgrim::timing::Spec spec;
  std::string error;
  if (!pilgrim::timing::parse_spec(
          sample::kTimingSpecs[static_cast<uint8_t>(in[0]) % sample::kTimingSpecCount], spec,
          error))
    __builtin_trap();
  in.remove_prefix(1);
  pilgrim::timing::PayloadReader reader(spec, std::vector<double>(3, spec.bound),
                                        reinterpret_cast<const uint8_t *>(in.data()), in.size());
  std::vector<uint32_t> group(pilgrim::timing::kChunkCalls);
  std::vector<int64_t> start(group.size()), end(group.size());
  size_t n = 0;
  while (reader.next(n, error)) {
    if (n > group.size())
      __builtin_trap(); // the reader checks the frame
    for (size_t i = 0; i < n; ++i)
      group[i] = sample::timing_group(reader.calls_read() + i);
    if (!reader.decode(group.data(), start.data(), end.data(), error))
      return;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  const uint8_t mode = data[0];
  const std::string_view in(reinterpret_cast<const char *>(data + 1), size - 1);
  try {
    switch (mode) {
    case 1:
      use_trace(read_trace_from_memory(
          wrap(in, valid_functions(), valid_rank(), 0, valid_rank().size())));
      break;
    case 2:
      use_trace(
          read_trace_from_memory(wrap(valid_meta(), in, valid_rank(), 0, valid_rank().size())));
      break;
    case 3:
      use_trace(read_trace_from_memory(wrap(valid_meta(), valid_functions(), in, 0, in.size())));
      break;
    case 4: {
      if (in.size() < 4)
        return 0;
      uint64_t raw = 0;
      for (int i = 0; i < 4; ++i)
        raw |= static_cast<uint64_t>(static_cast<uint8_t>(in[i])) << (8 * i);
      use_trace(
          read_trace_from_memory(wrap(valid_meta(), valid_functions(), in.substr(4), 1, raw)));
      break;
    }
    case 5: {
      const DecodedCall call = decode_signature(sample::lookup, in);
      // Communicators 0 and 1 exist from the start (one entry each, no creation).
      const CreationTracker state(1, kFormatVersion, {CommInfo{0, 1, 4, -1}, CommInfo{1, 0, 2, 3}},
                                  {});
      use_call(call, state.context());
      break;
    }
    case 6:
      use_timing_payload(in);
      break;
    case 7:
      use_trace(read_trace_from_memory(with_rank_timing(in)));
      break;
    case 8:
      use_trace(read_trace_from_memory(with_sites(in)));
      break;
    default:
      use_trace(read_trace_from_memory(in));
      break;
    }
  } catch (const TraceError &) {
  }
  return 0;
}
