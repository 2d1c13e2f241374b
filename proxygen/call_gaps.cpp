#include "call_gaps.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "pilgrim/grammar_walker.h"
#include "pilgrim/trace_error.h"
#include "rank_classes.h"

namespace pilgrim::proxygen {

GrammarPositions::GrammarPositions(const Grammar &rules) {
  first.reserve(rules.rules.size());
  for (const auto &body : rules.rules) {
    first.push_back(count);
    count += body.size();
  }
}

double tracer_overhead(const std::vector<CallTime> &times) {
  double least = kMaxTracerOverhead;
  for (size_t i = 1; i < times.size(); ++i)
    least = std::min(least, times[i].start - times[i - 1].end);
  return times.size() < 2 ? 0 : std::max(0.0, least);
}

namespace {

// The quantile points of one slot's gaps (sorted here), scaled to their mean.
SlotGaps summarize(std::vector<float> &gaps) {
  SlotGaps s;
  s.n = gaps.size();
  if (gaps.empty())
    return s;
  double sum = 0;
  for (float g : gaps)
    sum += g;
  s.mean = sum / static_cast<double>(gaps.size());
  std::sort(gaps.begin(), gaps.end());
  const double last = static_cast<double>(gaps.size() - 1);
  for (int k = 0; k < kGapPoints; ++k) {
    const double at = last * k / (kGapPoints - 1);
    const size_t lo = static_cast<size_t>(at);
    const size_t hi = std::min(lo + 1, gaps.size() - 1);
    s.points[k] = gaps[lo] + (at - static_cast<double>(lo)) * (gaps[hi] - gaps[lo]);
  }
  // The mean of the piecewise-linear inverse CDF the proxy samples.
  double table = (s.points[0] + s.points[kGapPoints - 1]) / 2;
  for (int k = 1; k + 1 < kGapPoints; ++k)
    table += s.points[k];
  table /= kGapPoints - 1;
  if (table > 0)
    for (double &p : s.points)
      p *= s.mean / table;
  return s;
}

// Each slot's gaps in rank order, and where each rank's begin.
struct SlotSamples {
  std::vector<float> gaps;
  std::vector<std::pair<uint32_t, size_t>> begins; // (rank, index of its first gap)

  void add(uint32_t rank, double gap) {
    if (begins.empty() || begins.back().first != rank)
      begins.emplace_back(rank, gaps.size());
    gaps.push_back(static_cast<float>(gap));
  }
  size_t end_of(size_t segment) const {
    return segment + 1 < begins.size() ? begins[segment + 1].second : gaps.size();
  }
};

// Each rank's per-slot sums, for grouping the ranks into classes.
std::vector<RankSlotSums> rank_sums(const std::vector<SlotSamples> &samples,
                                    const std::vector<double> &spans) {
  std::vector<RankSlotSums> ranks(spans.size());
  for (size_t r = 0; r < spans.size(); ++r)
    ranks[r].span = spans[r];
  for (size_t s = 0; s < samples.size(); ++s)
    for (size_t k = 0; k < samples[s].begins.size(); ++k) {
      RankSlotSums &rank = ranks[samples[s].begins[k].first];
      double sum = 0;
      for (size_t i = samples[s].begins[k].second; i < samples[s].end_of(k); ++i)
        sum += samples[s].gaps[i];
      rank.slot.push_back(s);
      rank.n.push_back(samples[s].end_of(k) - samples[s].begins[k].second);
      rank.sum.push_back(sum);
    }
  return ranks;
}

void put_u64(std::string &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

} // namespace

MeasuredGaps measure_gaps(const Trace &trace, const GrammarPositions &positions,
                          const std::vector<int64_t> &slot_of, size_t slots, bool keep_exact) {
  if (!has_call_times(trace))
    throw TraceError("the trace keeps no per-call times (timing mode aggregate or none): "
                     "trace with PILGRIM_TIMING=lossless, hist:..., cfg:..., pred:... or zfp:...");
  MeasuredGaps out;
  std::vector<SlotSamples> samples(slots);
  std::vector<double> spans(trace.nranks());
  out.overhead.resize(trace.nranks());
  if (keep_exact)
    out.exact.resize(trace.nranks());
  std::vector<CallTime> times;
  std::string error;
  for (uint32_t r = 0; r < trace.nranks(); ++r) {
    if (!read_call_times(trace, r, times, error))
      throw TraceError(error);
    const double overhead = tracer_overhead(times);
    out.overhead[r] = overhead;
    if (!times.empty())
      spans[r] = times.back().end - times.front().start;
    const RankView view = trace.rank(r);
    GrammarWalker walk(*view.rules, view.root);
    uint64_t terminal = 0;
    double carry = 0;
    for (size_t i = 0; walk.next(terminal); ++i) {
      if (i >= times.size())
        throw TraceError("rank " + std::to_string(r) + " has more calls than times");
      if (i == 0)
        continue; // no call before the first: no gap
      carry += std::max(0.0, times[i].start - times[i - 1].end - overhead);
      const uint64_t p = positions.of(walk.rule(), walk.position());
      const int64_t slot = p < slot_of.size() ? slot_of[p] : -1;
      if (slot < 0)
        continue;
      samples[static_cast<size_t>(slot)].add(r, carry);
      if (keep_exact)
        out.exact[r].push_back(carry);
      carry = 0;
    }
  }
  const RankClasses classes = group_ranks(rank_sums(samples, spans), slots);
  out.class_of = classes.class_of;
  out.classes.assign(classes.count, std::vector<SlotGaps>(slots));
  std::vector<float> pooled;
  for (size_t s = 0; s < slots; ++s) {
    for (uint32_t c = 0; c < classes.count; ++c) {
      pooled.clear();
      for (size_t k = 0; k < samples[s].begins.size(); ++k)
        if (classes.class_of[samples[s].begins[k].first] == c)
          for (size_t i = samples[s].begins[k].second; i < samples[s].end_of(k); ++i)
            pooled.push_back(samples[s].gaps[i]);
      out.classes[c][s] = summarize(pooled);
    }
    std::vector<float>().swap(samples[s].gaps);
  }
  return out;
}

std::string exact_gaps_file(const MeasuredGaps &gaps, uint64_t fingerprint) {
  std::string out("PILGRIMGAPS1\n\0\0\0", 16);
  put_u64(out, fingerprint);
  put_u64(out, gaps.exact.size());
  uint64_t offset = 0;
  put_u64(out, offset);
  for (const auto &rank : gaps.exact)
    put_u64(out, offset += rank.size());
  for (const auto &rank : gaps.exact)
    for (double g : rank) {
      uint64_t bits = 0;
      std::memcpy(&bits, &g, sizeof bits);
      put_u64(out, bits);
    }
  return out;
}

} // namespace pilgrim::proxygen
