// Writing a trace file (docs/FORMAT.md).
//
// Version 3 (what the runtime writes): the ranks' data merged across ranks
// (MergedTrace), added with add_merged() or write_merged_trace().
// Version 1: one RANK section per rank, from each rank's serialize_rank()
// bytes, added with add_rank() or write_trace(); kept for tests and tools
// that produce per-rank traces.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/function_table.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

struct WriteOptions {
  // zstd level for every section; 0 = automatic: 19 for META, FUNCTIONS and
  // the first 4 MiB of RANK payload, then by section size (9 up to 1 MiB,
  // 6 up to 16 MiB, 3 above; see section_compression.h).
  int compression_level = 0;
  // false: every section stored (codec 0), as docs/FORMAT.md's examples are.
  bool compress = true;
  // Also decode every CST signature against the function table before
  // writing (slower; catches encoder bugs at write time).
  bool verify_signatures = false;
  // The merged writer: the format version to write, 2 to kFormatVersion (0:
  // kFormatVersion). An older version gets its own layout (no communicator
  // groups before 5); the caller's data must mean what that version means
  // (tests and the fixtures of test/fixtures write older versions).
  uint16_t format_version = 0;
};

class TraceWriter {
public:
  // To a file: writes `path`.tmp, renamed to `path` by finish(). Throws
  // TraceError on I/O failure or an invalid function table.
  TraceWriter(const std::string &path, const TraceHeader &header,
              const std::vector<const FunctionInfo *> &used_functions,
              const WriteOptions &options = {});
  // To memory: the finished file is appended to *out.
  TraceWriter(std::string *out, const TraceHeader &header,
              const std::vector<const FunctionInfo *> &used_functions,
              const WriteOptions &options = {});
  ~TraceWriter(); // an unfinished file is removed
  TraceWriter(const TraceWriter &) = delete;
  TraceWriter &operator=(const TraceWriter &) = delete;

  // Adds rank `rank` (< header.nranks, each once). The bytes are checked
  // with parse_rank and every signature's function id must be in
  // used_functions. Throws TraceError "rank R: ...".
  void add_rank(uint32_t rank, std::string_view serialized_rank);

  // Adds the whole merged trace (version 4); not together with add_rank().
  // Checks it (check_merged, and every signature's function id is in
  // used_functions). Throws TraceError.
  void add_merged(const MergedTrace &merged);

  // Version 6, per-call timing modes: rank `rank`'s RANK_TIMING payload
  // (docs/FORMAT.md §7.9), after add_merged(); stored, not critical. Throws
  // TraceError when the version written is older than 6, the rank is out of
  // range or was given twice.
  void add_rank_timing(uint32_t rank, std::string_view payload);

  // The same when the ranks write their own sections into the file (MPI-IO
  // at MPI_Finalize): begin_external() flushes what was written so far and
  // returns where the first external section starts (the file target only;
  // the file is temp_path()); add_external() then takes each section's entry
  // in file order, the first at that offset and each right after the last
  // (stored, raw size = stored size), before finish().
  uint64_t begin_external();
  void add_external(uint32_t rank, uint64_t offset, uint64_t size, uint32_t crc);
  const std::string &temp_path() const;

  // Requires every rank to have been added. Writes the section table and
  // header, closes and renames the file.
  void finish();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// All ranks at once: serialized_ranks[r] is rank r (its size sets nranks,
// which must equal header.nranks).
void write_trace(const std::string &path, const TraceHeader &header,
                 const std::vector<const FunctionInfo *> &used_functions,
                 const std::vector<std::string> &serialized_ranks,
                 const WriteOptions &options = {});

void write_merged_trace(const std::string &path, const TraceHeader &header,
                        const std::vector<const FunctionInfo *> &used_functions,
                        const MergedTrace &merged, const WriteOptions &options = {});

std::string write_merged_trace_to_memory(const TraceHeader &header,
                                         const std::vector<const FunctionInfo *> &used_functions,
                                         const MergedTrace &merged,
                                         const WriteOptions &options = {});

std::string write_trace_to_memory(const TraceHeader &header,
                                  const std::vector<const FunctionInfo *> &used_functions,
                                  const std::vector<std::string> &serialized_ranks,
                                  const WriteOptions &options = {});

} // namespace pilgrim
