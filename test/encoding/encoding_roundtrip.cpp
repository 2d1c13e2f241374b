// encoding_roundtrip: every function the wrappers can write, the readers can
// read back as it was written.
//
//   encoding_roundtrip TRACE_PATH
//
// For every function of the generated function table (all of the build's
// MPI's functions) and four argument sets (call_model.h: several elements /
// empty / NULL / one element; user, predefined and null handles; relative,
// Cartesian, absolute and sentinel ranks; MPI_STATUS_IGNORE and kept
// statuses; inout values that change; a failed return code), the generated
// driver (encoding_driver.cpp, from pilgrim-gen-wrappers) runs the wrapper's
// own encoding statements on the synthetic arguments and records the call.
// No MPI function is called: play() stands for it. At MPI_Finalize the
// runtime writes the trace and, with PILGRIM_VERIFY=1, the uncompressed call
// sequence; this program then reads the trace with the format library (every
// CST entry decodes, as pilgrim-dump decodes them) and decodes each recorded
// signature with the trace's own function table, and requires it to equal
// what the synthetic call meant (call_check.h says what "equal" means).
//
// Live MPI state, no seam: the encoders ask MPI about communicators, groups
// and windows, agree on ids over the communicators they see created, and
// read counts with PMPI_Get_elements_x, so the test is a singleton MPI program
// (one process, run without mpirun) whose handles are real: MPI's predefined
// ones and ones made with PMPI outside any traced call (handle_pool.h). In a
// singleton every communicator has one process, the caller, rank 0: relative
// ranks resolve against 0, every Cartesian grid has one process (the caller
// codes as offset 0, other ranks as relative offsets), and arrays as long as
// a communicator are one element long; longer arrays come from counts and
// from topologies (a distributed graph of in-degree 2 and out-degree 3, a
// grid of 3 dimensions).
//
// Exit status 0 when every call round-trips; 1 with one line per
// disagreement; 2 when the test itself cannot run.
#include "call_check.h"
#include "signatures/generated_function_table.h"
#include "synthetic_call.h"

#include "pilgrim/byte_io.h"
#include "pilgrim/record_ranges.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace pilgrim;
using namespace pilgrim::enctest;

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "encoding_roundtrip: %s\n", what.c_str());
  std::exit(2);
}

// The runtime's uncompressed call log (PILGRIM_VERIFY=1): varint(length) then
// the signature, per call.
std::vector<std::string> read_call_log(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    die("cannot read " + path);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ByteReader r(bytes);
  std::vector<std::string> calls;
  while (!r.at_end()) {
    const uint64_t n = r.varint();
    if (n > r.remaining())
      die(path + ": truncated");
    calls.emplace_back(r.bytes(static_cast<size_t>(n)));
  }
  return calls;
}

std::string directory_of(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: encoding_roundtrip TRACE_PATH\n");
    return 2;
  }
  const std::string trace_path = argv[1];
  setenv("PILGRIM_OUTPUT", trace_path.c_str(), 1);
  setenv("PILGRIM_VERIFY", "1", 1);
  setenv("PILGRIM_TIMING", "none", 1);
  setenv("PILGRIM_RANKS", "cartesian", 1);
  unsetenv("PILGRIM_SUMMARY");

  MPI_Init(&argc, &argv); // the wrapper: the recorder starts
  int size = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1)
    die("run it as a singleton, without mpirun (" + std::to_string(size) + " processes)");

  // Every MPI function of the table; its records that are not MPI calls
  // (records.yaml) have no wrapper and no driver.
  size_t mpi_functions = 0;
  for (size_t i = 0; i < kGeneratedFunctionCount; ++i)
    mpi_functions += is_record(kGeneratedFunctions[i].id) ? 0 : 1;
  if (kEncodingDriverCount != mpi_functions)
    die("the encoding driver covers " + std::to_string(kEncodingDriverCount) + " of the " +
        std::to_string(mpi_functions) + " MPI functions of the table");
  std::vector<CallModel> models;
  {
    HandlePool pool(directory_of(trace_path));
    for (size_t d = 0; d < kEncodingDriverCount; ++d) {
      const FunctionInfo *f = generated_function(kEncodingDrivers[d].id);
      if (!f)
        die("driver of function id " + std::to_string(kEncodingDrivers[d].id) + " has no row");
      for (Case c : kCases) {
        SyntheticCall call(pool, *f, c);
        kEncodingDrivers[d].drive(call);
        models.push_back(call.model());
        pool.release_fresh();
      }
    }
  }
  MPI_Finalize(); // the wrapper: the trace and the call log are written

  std::vector<std::string> problems;
  Trace trace;
  try {
    trace = read_trace(trace_path);
  } catch (const TraceError &e) {
    die(trace_path + ": " + e.what());
  }
  for (size_t i = 0; i < trace.merged.cst.size(); ++i) {
    try {
      decode_signature(trace, trace.merged.cst[i].signature);
    } catch (const TraceError &e) {
      problems.push_back("CST entry " + std::to_string(i) + ": " + e.what());
    }
  }
  const std::vector<std::string> calls = read_call_log(trace_path + ".verify.0");
  if (calls.size() != models.size() + 2) // MPI_Init first, MPI_Finalize last
    die("the call log holds " + std::to_string(calls.size()) + " calls, expected " +
        std::to_string(models.size() + 2));
  size_t compared = 0;
  for (size_t k = 0; k < models.size(); ++k) {
    try {
      const DecodedCall decoded = decode_signature(trace, calls[k + 1]);
      for (std::string &p : check_call(decoded, models[k], compared))
        problems.push_back(std::move(p));
    } catch (const TraceError &e) {
      problems.push_back(models[k].function_name + " [" + case_name(models[k].c) +
                         "]: " + e.what());
    }
  }
  for (const std::string &p : problems)
    std::printf("%s\n", p.c_str());
  std::printf("encoding_roundtrip: %zu functions x %zu cases, %zu calls, %zu elements compared, "
              "%zu disagreements\n",
              kEncodingDriverCount, std::size(kCases), models.size(), compared, problems.size());
  if (!problems.empty())
    return 1;
  std::printf("encoding_roundtrip: OK\n");
  return 0;
}
