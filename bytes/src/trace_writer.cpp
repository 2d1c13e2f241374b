#include "pilgrim/trace_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_set>

#include <unistd.h>

#include "pilgrim/file_layout.h"
#include "pilgrim/function_table_codec.h"
#include "pilgrim/merged_codec.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/site_codec.h"
#include "pilgrim/temp_file.h"
#include "pilgrim/timing_codec.h"
#include "pilgrim/trace_container.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

struct TraceWriter::Impl {
  TraceHeader header;
  WriteOptions options;
  std::vector<const FunctionInfo *> functions;
  std::unordered_set<uint16_t> function_ids;
  std::vector<bool> have_rank;
  std::vector<bool> have_rank_timing;
  uint32_t ranks_added = 0;
  bool merged_added = false;
  bool head_added = false;       // META and FUNCTIONS (write_head)
  std::string functions_payload; // FUNCTIONS, kept until write_head
  uint64_t high_level_bytes = 0; // RANK payload compressed at kSmallSectionLevel so far

  std::string path, tmp_path; // file target
  std::FILE *file = nullptr;
  std::string *memory_out = nullptr;
  std::string memory; // memory target, moved to *memory_out by finish()
  std::unique_ptr<ByteSink> sink;
  std::unique_ptr<ContainerWriter> container;
  bool finished = false;

  // The merged layout's version (WriteOptions::format_version).
  uint16_t version() const {
    return options.format_version ? options.format_version : kFormatVersion;
  }

  void start(const TraceHeader &h, const std::vector<const FunctionInfo *> &used,
             const WriteOptions &o) {
    header = h;
    header.version = 0; // set by finish() from what was added
    options = o;
    if (o.format_version != 0 && (o.format_version < 2 || o.format_version > kFormatVersion))
      throw TraceError("the merged writer writes format versions 2 to " +
                       std::to_string(kFormatVersion) + ", not " +
                       std::to_string(o.format_version));
    if (version() < kFirstRankTimingVersion &&
        (header.timing_mode > 1 || !header.timing_spec.empty()))
      throw TraceError("format version " + std::to_string(version()) +
                       " has no per-call timing modes");
    functions = used;
    functions_payload = encode_function_table(used); // validates
    for (const FunctionInfo *f : used)
      function_ids.insert(f->id);
    have_rank.assign(header.nranks, false);
    container = std::make_unique<ContainerWriter>(*sink);
    container->set_compress(options.compress);
  }

  // META and FUNCTIONS, first in the file, before the first RANK or merged
  // section: META carries the site table (key 8), known only with the
  // merged trace. `sites` is encode_sites's value, or "" for none.
  void write_head(std::string_view sites) {
    if (head_added)
      return;
    // Written once and small: compress them hard.
    const int once_level =
        options.compression_level > 0 ? options.compression_level : kSmallSectionLevel;
    // A large program's site table makes META large: then the level of a
    // large section, as for the merged sections.
    const std::string meta = encode_meta(header, sites);
    container->add_section(
        static_cast<uint16_t>(SectionType::Meta), kNoRank, kSectionCritical, meta,
        meta.size() <= kHighLevelBudget ? once_level : default_compression_level(meta.size()));
    container->add_section(static_cast<uint16_t>(SectionType::Functions), kNoRank, kSectionCritical,
                           functions_payload, once_level);
    head_added = true;
  }

  const FunctionInfo *lookup(uint16_t id) const {
    for (const FunctionInfo *f : functions)
      if (f->id == id)
        return f;
    return nullptr;
  }

  // Checks that rank `rank` may get a RANK_TIMING section now.
  void check_rank_timing(uint32_t rank) {
    const std::string where = "rank " + std::to_string(rank) + " timing";
    if (finished)
      throw TraceError(where + ": trace already finished");
    if (!merged_added)
      throw TraceError(where + ": add the merged trace first");
    if (version() < kFirstRankTimingVersion)
      throw TraceError(where + ": format version " + std::to_string(version()) +
                       " has no per-call timing");
    if (rank >= header.nranks)
      throw TraceError(where + ": out of range (the header says " + std::to_string(header.nranks) +
                       " ranks)");
    if (have_rank_timing.empty())
      have_rank_timing.assign(header.nranks, false);
    if (have_rank_timing[rank])
      throw TraceError(where + ": added twice");
    have_rank_timing[rank] = true;
  }

  void cleanup_file() {
    if (file) {
      std::fclose(file);
      file = nullptr;
      std::remove(tmp_path.c_str());
    }
  }
};

TraceWriter::TraceWriter(const std::string &path, const TraceHeader &header,
                         const std::vector<const FunctionInfo *> &used_functions,
                         const WriteOptions &options)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  const int fd = create_temp_beside(path, impl_->tmp_path);
  if (fd < 0)
    throw TraceError(path + ".tmp.XXXXXX: cannot create: " + std::strerror(errno));
  impl_->file = ::fdopen(fd, "wb");
  if (!impl_->file) {
    const int err = errno;
    ::close(fd);
    std::remove(impl_->tmp_path.c_str());
    throw TraceError(impl_->tmp_path + ": cannot open: " + std::strerror(err));
  }
  impl_->sink = std::make_unique<FileSink>(impl_->file, impl_->tmp_path);
  try {
    impl_->start(header, used_functions, options);
  } catch (...) {
    impl_->cleanup_file();
    throw;
  }
}

TraceWriter::TraceWriter(std::string *out, const TraceHeader &header,
                         const std::vector<const FunctionInfo *> &used_functions,
                         const WriteOptions &options)
    : impl_(std::make_unique<Impl>()) {
  impl_->memory_out = out;
  impl_->sink = std::make_unique<StringSink>(impl_->memory);
  impl_->start(header, used_functions, options);
}

TraceWriter::~TraceWriter() {
  if (impl_)
    impl_->cleanup_file();
}

void TraceWriter::add_rank(uint32_t rank, std::string_view serialized) {
  Impl &w = *impl_;
  const std::string where = "rank " + std::to_string(rank);
  if (w.finished)
    throw TraceError(where + ": trace already finished");
  if (rank >= w.header.nranks)
    throw TraceError(where + ": out of range (the header says " + std::to_string(w.header.nranks) +
                     " ranks)");
  if (w.have_rank[rank])
    throw TraceError(where + ": added twice");
  if (w.merged_added)
    throw TraceError(where + ": the merged trace was added already");
  RankTrace parsed;
  try {
    parsed = parse_rank(serialized);
  } catch (const TraceError &e) {
    rethrow_with_context(where, e);
  }
  for (size_t i = 0; i < parsed.cst.size(); ++i) {
    try {
      const uint16_t id = signature_function_id(parsed.cst[i].signature);
      if (!w.function_ids.count(id))
        throw TraceError("function id " + std::to_string(id) +
                         " is not in the used function table");
      if (w.options.verify_signatures)
        decode_signature([&w](uint16_t fid) { return w.lookup(fid); }, parsed.cst[i].signature);
    } catch (const TraceError &e) {
      rethrow_with_context(where + " CST entry " + std::to_string(i), e);
    }
  }
  // Timing goes to its own stored TIMING section: quantized codes do not
  // compress, and kept apart they leave the RANK section's compressed size
  // depending only on the calls.
  std::string without_timing, timing;
  if (has_timing(parsed.cst)) {
    timing = serialize_timing(parsed.cst, kFormatVersionPerRank);
    for (CstEntry &e : parsed.cst)
      e.duration = e.interval = TimingStats{};
    without_timing = serialize_rank(parsed);
    serialized = without_timing;
  }
  w.write_head({});
  int level = w.options.compression_level;
  if (level <= 0) {
    // The first kHighLevelBudget bytes of RANK payload (in add order) get the
    // small-section level: small traces come out as small as possible, and
    // huge ones spend at most a couple of seconds on it.
    if (serialized.size() <= kHighLevelBudget - std::min(kHighLevelBudget, w.high_level_bytes)) {
      level = kSmallSectionLevel;
      w.high_level_bytes += serialized.size();
    } else {
      level = default_compression_level(serialized.size());
    }
  }
  w.container->add_section(static_cast<uint16_t>(SectionType::Rank), rank, kSectionCritical,
                           serialized, level);
  if (!timing.empty())
    w.container->add_encoded_section(static_cast<uint16_t>(SectionType::Timing), rank, 0,
                                     static_cast<uint8_t>(SectionCodec::Stored), timing,
                                     timing.size());
  w.have_rank[rank] = true;
  ++w.ranks_added;
}

void TraceWriter::add_merged(const MergedTrace &m) {
  Impl &w = *impl_;
  if (w.finished)
    throw TraceError("trace already finished");
  if (w.merged_added || w.ranks_added > 0)
    throw TraceError("the merged trace must be added once, without per-rank sections");
  check_merged(m, w.header.nranks);
  for (size_t i = 0; i < m.cst.size(); ++i) {
    try {
      const uint16_t id = signature_function_id(m.cst[i].signature);
      if (!w.function_ids.count(id))
        throw TraceError("function id " + std::to_string(id) +
                         " is not in the used function table");
      if (w.options.verify_signatures)
        decode_signature([&w](uint16_t fid) { return w.lookup(fid); }, m.cst[i].signature);
    } catch (const TraceError &e) {
      rethrow_with_context("merged CST entry " + std::to_string(i), e);
    }
  }
  std::string sites;
  if (!m.sites.empty()) {
    if (w.version() < kFirstSitesVersion)
      throw TraceError("call sites need format version " + std::to_string(kFirstSitesVersion));
    sites = encode_sites(m.sites, m.cst);
  }
  w.write_head(sites);
  const int level =
      w.options.compression_level > 0 ? w.options.compression_level : kSmallSectionLevel;
  auto add = [&](SectionType type, const std::string &payload) {
    w.container->add_section(
        static_cast<uint16_t>(type), kNoRank, kSectionCritical, payload,
        payload.size() <= kHighLevelBudget ? level : default_compression_level(payload.size()));
  };
  add(SectionType::MergedCst, encode_merged_cst(m.cst));
  add(SectionType::MergedGrammar, encode_merged_grammar(m.rules, m.roots));
  add(SectionType::RankGrammarMap, encode_rank_map(m.rank_map));
  if (!m.comms.empty())
    add(SectionType::RankComms, encode_rank_comms(m.comms, w.version()));
  if (has_timing(m.cst)) {
    // Timing kinds refer to the counts a reader derives: derive them here too.
    MergedTrace counted = m;
    derive_counts(counted);
    // Stored, so the file's size does not depend on the times measured.
    const std::string timing = serialize_timing(counted.cst, w.version());
    w.container->add_encoded_section(static_cast<uint16_t>(SectionType::MergedTiming), kNoRank, 0,
                                     static_cast<uint8_t>(SectionCodec::Stored), timing,
                                     timing.size());
  }
  w.merged_added = true;
}

void TraceWriter::add_rank_timing(uint32_t rank, std::string_view payload) {
  impl_->check_rank_timing(rank);
  impl_->container->add_encoded_section(static_cast<uint16_t>(SectionType::RankTiming), rank, 0,
                                        static_cast<uint8_t>(SectionCodec::Stored), payload,
                                        payload.size());
}

uint64_t TraceWriter::begin_external() {
  Impl &w = *impl_;
  if (!w.file)
    throw TraceError("external sections need a file target");
  static_cast<FileSink &>(*w.sink).flush();
  return w.container->offset();
}

void TraceWriter::add_external(uint32_t rank, uint64_t offset, uint64_t size, uint32_t crc) {
  impl_->check_rank_timing(rank);
  SectionEntry e;
  e.type = static_cast<uint16_t>(SectionType::RankTiming);
  e.codec = static_cast<uint8_t>(SectionCodec::Stored);
  e.rank = rank;
  e.offset = offset;
  e.stored_size = e.raw_size = size;
  e.crc = crc;
  impl_->container->add_external_section(e);
}

const std::string &TraceWriter::temp_path() const { return impl_->tmp_path; }

void TraceWriter::finish() {
  Impl &w = *impl_;
  if (w.finished)
    return;
  w.write_head({}); // a per-rank trace of no ranks
  if (w.merged_added) {
    w.container->set_version(w.version());
  } else if (w.ranks_added != w.header.nranks) {
    for (uint32_t r = 0; r < w.header.nranks; ++r)
      if (!w.have_rank[r])
        throw TraceError("rank " + std::to_string(r) + " was never added");
  }
  if (!w.merged_added)
    w.container->set_version(kFormatVersionPerRank);
  w.container->finish();
  w.finished = true;
  if (w.file) {
    std::FILE *f = w.file;
    w.file = nullptr;
    bool ok = std::fflush(f) == 0;
    ok = (fsync(fileno(f)) == 0 || errno == EINVAL || errno == EROFS) && ok;
    const int saved = errno;
    ok = std::fclose(f) == 0 && ok;
    if (!ok) {
      std::remove(w.tmp_path.c_str());
      throw TraceError(w.tmp_path + ": write failed: " + std::strerror(saved));
    }
    if (std::rename(w.tmp_path.c_str(), w.path.c_str()) != 0) {
      const int err = errno;
      std::remove(w.tmp_path.c_str());
      throw TraceError(w.path + ": cannot rename " + w.tmp_path + ": " + std::strerror(err));
    }
  } else if (w.memory_out) {
    w.memory_out->append(w.memory);
    w.memory.clear();
  }
}

namespace {

TraceHeader checked_header(const TraceHeader &header, const std::vector<std::string> &ranks) {
  if (ranks.size() != header.nranks)
    throw TraceError("header says " + std::to_string(header.nranks) + " ranks but " +
                     std::to_string(ranks.size()) + " were given");
  return header;
}

} // namespace

void write_trace(const std::string &path, const TraceHeader &header,
                 const std::vector<const FunctionInfo *> &used_functions,
                 const std::vector<std::string> &serialized_ranks, const WriteOptions &options) {
  TraceWriter w(path, checked_header(header, serialized_ranks), used_functions, options);
  for (size_t r = 0; r < serialized_ranks.size(); ++r)
    w.add_rank(static_cast<uint32_t>(r), serialized_ranks[r]);
  w.finish();
}

std::string write_trace_to_memory(const TraceHeader &header,
                                  const std::vector<const FunctionInfo *> &used_functions,
                                  const std::vector<std::string> &serialized_ranks,
                                  const WriteOptions &options) {
  std::string out;
  TraceWriter w(&out, checked_header(header, serialized_ranks), used_functions, options);
  for (size_t r = 0; r < serialized_ranks.size(); ++r)
    w.add_rank(static_cast<uint32_t>(r), serialized_ranks[r]);
  w.finish();
  return out;
}

void write_merged_trace(const std::string &path, const TraceHeader &header,
                        const std::vector<const FunctionInfo *> &used_functions,
                        const MergedTrace &merged, const WriteOptions &options) {
  TraceWriter w(path, header, used_functions, options);
  w.add_merged(merged);
  w.finish();
}

std::string write_merged_trace_to_memory(const TraceHeader &header,
                                         const std::vector<const FunctionInfo *> &used_functions,
                                         const MergedTrace &merged, const WriteOptions &options) {
  std::string out;
  TraceWriter w(&out, header, used_functions, options);
  w.add_merged(merged);
  w.finish();
  return out;
}

} // namespace pilgrim
