// pilgrim-proxygen: writes a C++ proxy app that replays a trace's MPI calls.
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>

#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"
#include "proxy_options.h"
#include "proxy_writer.h"

namespace {

void write_file(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  out.close();
  if (!out)
    throw pilgrim::TraceError("cannot write " + path);
}

} // namespace

int main(int argc, char **argv) {
  using namespace pilgrim::proxygen;
  ProxyOptions o;
  if (const auto status = command_line(o).parse(argc, argv))
    return *status;
  try {
    const pilgrim::Trace trace = pilgrim::read_trace(o.trace_path);
    if (o.ranks >= 0 && static_cast<uint64_t>(o.ranks) != trace.nranks())
      throw pilgrim::TraceError(o.trace_path + " has " + std::to_string(trace.nranks()) +
                                " ranks, not the " + std::to_string(o.ranks) +
                                " that --ranks asks for");
    ProxySource proxy;
    try {
      proxy = write_proxy(trace, o);
    } catch (const pilgrim::TraceError &e) {
      pilgrim::rethrow_with_context(o.trace_path, e);
    }
    if (o.output_path.empty() || o.output_path == "-") {
      std::fwrite(proxy.source.data(), 1, proxy.source.size(), stdout);
      return 0;
    }
    write_file(o.output_path, proxy.source);
    if (o.gaps == Gaps::Exact)
      write_file(o.output_path + ".gaps", proxy.gaps_file);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pilgrim-proxygen: %s\n", e.what());
    return pilgrim::cli::kTrouble;
  }
}
