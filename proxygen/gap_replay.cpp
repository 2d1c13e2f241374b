#include "gap_replay.h"

#include <algorithm>
#include <cstdio>

namespace pilgrim::proxygen {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string c_string(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned char>(c));
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// Shared by every mode: the draws' generator (splitmix64, seeded per rank)
// and the exact file's reader, kept whole so the three proxies differ in
// their data only.
const char kGapCode[] = R"(
unsigned long long gap_state = 0;
double gap_uniform() {
  unsigned long long z = (gap_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0);
}

#if PROXY_GAPS == 2
// --gaps=exact: this rank's gaps, in call order, from the gaps file.
extern const unsigned long long kGapsFingerprint;
std::vector<double> exact_gaps;
std::size_t exact_next = 0;

unsigned long long gaps_u64(const unsigned char *b) {
  unsigned long long v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | b[i];
  return v;
}

// "" when this rank's gaps are loaded, else why not.
std::string load_exact_gaps(const char *path) {
  std::FILE *f = std::fopen(path, "rb");
  if (!f)
    return std::string("cannot open the gaps file ") + path + " (" + std::strerror(errno) +
           "): pilgrim-proxygen --gaps=exact writes it beside the proxy; PILGRIM_PROXY_GAPS names another";
  unsigned char head[32];
  std::string error;
  if (std::fread(head, 1, sizeof head, f) != sizeof head || std::memcmp(head, "PILGRIMGAPS1\n", 13) != 0)
    error = std::string(path) + " is not a gaps file of pilgrim-proxygen";
  else if (gaps_u64(head + 16) != kGapsFingerprint)
    error = std::string(path) + " was written with another proxy: generate both again with pilgrim-proxygen --gaps=exact";
  else if (gaps_u64(head + 24) != static_cast<unsigned long long>(world_size))
    error = std::string(path) + " holds the gaps of another number of ranks";
  unsigned char range[16];
  if (error.empty() && (std::fseek(f, static_cast<long>(32 + 8 * world_rank), SEEK_SET) != 0 ||
                        std::fread(range, 1, sizeof range, f) != sizeof range))
    error = std::string(path) + " is truncated";
  if (error.empty()) {
    const unsigned long long first = gaps_u64(range), last = gaps_u64(range + 8);
    const long at = static_cast<long>(32 + 8 * (world_size + 1) + 8 * first);
    exact_gaps.resize(last >= first ? last - first : 0);
    std::vector<unsigned char> bytes(8 * exact_gaps.size());
    if (last < first || std::fseek(f, at, SEEK_SET) != 0 ||
        std::fread(bytes.data(), 1, bytes.size(), f) != bytes.size())
      error = std::string(path) + " is truncated";
    for (std::size_t i = 0; error.empty() && i < exact_gaps.size(); ++i) {
      const unsigned long long bits = gaps_u64(&bytes[8 * i]);
      std::memcpy(&exact_gaps[i], &bits, sizeof bits);
    }
  }
  std::fclose(f);
  return error;
}
#endif

// False (after one line from the lowest rank that failed) when the gaps
// cannot be replayed.
bool setup_gaps() {
  gap_state = 0x2545F4914F6CDD1Dull * static_cast<unsigned long long>(world_rank + 1);
  std::string error;
#if PROXY_GAPS != 2
  for (const GapClassRange &r : kGapClassMap)
    if (world_rank >= r.first && world_rank < r.first + r.count)
      gap_class = r.gap_class;
#endif
#if PROXY_GAPS == 2
  const char *path = std::getenv("PILGRIM_PROXY_GAPS");
  error = load_exact_gaps(path && *path ? path : kGapsFile);
#endif
  int mine = error.empty() ? world_size : world_rank, first = world_size;
  PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == world_rank)
    std::fprintf(stderr, "proxy: %s\n", error.c_str());
  return first == world_size;
}

void gap(int slot) {
#if PROXY_GAPS == 2
  (void)slot;
  if (exact_next >= exact_gaps.size()) {
    std::fprintf(stderr, "proxy: rank %d makes more calls than its %zu gaps in the gaps file: it was not written for this proxy\n",
                 world_rank, exact_gaps.size());
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  compute(exact_gaps[exact_next++]);
#elif PROXY_GAPS == 1
  const double at = gap_uniform() * (kGapPoints - 1);
  const int k = at >= kGapPoints - 1 ? kGapPoints - 2 : static_cast<int>(at);
  const double *p = kGapTable[gap_class][slot];
  compute(p[k] + (at - k) * (p[k + 1] - p[k]));
#else
  compute(kGapMean[gap_class][slot]);
#endif
}
)";

// Consecutive ranks of one class, as the proxy's kGapClassMap lists them.
struct ClassRun {
  size_t first, count;
  uint32_t gap_class;
};

std::vector<ClassRun> class_runs(const std::vector<uint32_t> &class_of) {
  std::vector<ClassRun> runs;
  for (size_t r = 0; r < class_of.size(); ++r)
    if (!runs.empty() && runs.back().gap_class == class_of[r])
      ++runs.back().count;
    else
      runs.push_back(ClassRun{r, 1, class_of[r]});
  return runs;
}

} // namespace

std::vector<std::string> gap_replay_code(const MeasuredGaps &gaps, GapMode mode,
                                         const std::string &gaps_path) {
  std::vector<std::string> lines;
  const int code = mode == GapMode::Exact ? 2 : mode == GapMode::Distribution ? 1 : 0;
  lines.push_back("// ---- per-call gaps (pilgrim-proxygen --gaps=" +
                  std::string(code == 2   ? "exact"
                              : code == 1 ? "distribution"
                                          : "mean") +
                  ") ---------------------------");
  lines.push_back("// Seconds of computation before the calls of each grammar position, the");
  lines.push_back("// tracer's own cost taken off (per rank, up to " +
                  number(kMaxTracerOverhead * 1e9) + " ns:");
  double most = 0;
  for (double o : gaps.overhead)
    most = std::max(most, o);
  lines.push_back("// at most " + number(most * 1e9) + " ns here).");
  lines.push_back("#define PROXY_GAPS " + std::to_string(code));
  const size_t n = gaps.classes.empty() ? 0 : gaps.classes[0].size();
  const std::string classes = std::to_string(std::max<size_t>(gaps.classes.size(), 1));
  const std::string slots = std::to_string(n ? n : 1);
  if (code != 2)
    lines.push_back("// Rank classes: ranks whose gaps agree share one table (" +
                    std::to_string(gaps.classes.size()) + " here); rows by class.");
  if (code == 0) {
    lines.push_back("const double kGapMean[" + classes + "][" + slots + "] = {");
    for (const std::vector<SlotGaps> &table : gaps.classes) {
      std::string row = "    {";
      for (size_t i = 0; i < n; ++i)
        row += (i ? ", " : "") + number(table[i].mean);
      lines.push_back(row + "},");
    }
    if (gaps.classes.empty())
      lines.push_back("    {},");
    lines.push_back("};");
  } else if (code == 1) {
    lines.push_back("// The inverse CDF at 0, 1/8, ..., 1, linear in between, scaled to the mean.");
    lines.push_back("const int kGapPoints = " + std::to_string(kGapPoints) + ";");
    lines.push_back("const double kGapTable[" + classes + "][" + slots + "][kGapPoints] = {");
    for (const std::vector<SlotGaps> &table : gaps.classes) {
      lines.push_back("    {");
      for (const SlotGaps &s : table) {
        std::string row = "        {";
        for (int k = 0; k < kGapPoints; ++k)
          row += (k ? ", " : "") + number(s.points[static_cast<size_t>(k)]);
        lines.push_back(row + "},");
      }
      lines.push_back("    },");
    }
    lines.push_back("};");
  } else {
    lines.push_back(
        "// Each call's own gap, read at start-up from this file (or $PILGRIM_PROXY_GAPS).");
    lines.push_back("const char *const kGapsFile = " + c_string(gaps_path) + ";");
  }
  if (code != 2) {
    lines.push_back("// Ranks [first, first + count) replay the gaps of class `gap_class`.");
    lines.push_back("struct GapClassRange {");
    lines.push_back("  int first, count, gap_class;");
    lines.push_back("};");
    lines.push_back("const GapClassRange kGapClassMap[] = {");
    for (const ClassRun &run : class_runs(gaps.class_of))
      lines.push_back("    {" + std::to_string(run.first) + ", " + std::to_string(run.count) +
                      ", " + std::to_string(run.gap_class) + "},");
    if (gaps.class_of.empty())
      lines.push_back("    {0, 0, 0},");
    lines.push_back("};");
    lines.push_back("int gap_class = 0;");
  }
  lines.push_back(std::string(kGapCode));
  return lines;
}

uint64_t source_fingerprint(const std::string &source) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : source) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

} // namespace pilgrim::proxygen
