#include "matrix_report.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "matrix_counting.h"
#include "matrix_csv.h"
#include "matrix_svg.h"

namespace pilgrim::stats {

namespace {

void write_file(const std::string &path, const std::string &bytes) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok)
    throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
}

std::string base_name(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

void print_matrix(TextOutput &out, const TraceInput &input, const MatrixRequest &request) {
  const CommunicationMatrix m = communication_matrix(input);
  if (!request.svg_path.empty()) {
    HeatMapSpec spec;
    spec.bytes = request.bytes;
    spec.unit = request.bytes ? "bytes" : "messages";
    spec.title = std::string(request.p2p ? "Point-to-point" : "Collective") + " " + spec.unit +
                 " from sender to receiver";
    spec.subtitle = base_name(input.path) + ": " + std::to_string(m.nranks) + " ranks, " +
                    (input.rank < 0 ? std::string("all senders")
                                    : "sender rank " + std::to_string(input.rank)) +
                    ", all communicators" + (request.p2p ? std::string() : ", by logical pattern");
    write_file(request.svg_path,
               matrix_svg(m.total(request.p2p ? MatrixKind::PointToPoint : MatrixKind::Collective),
                          m.nranks, spec));
  }
  // After the file, so that a file that cannot be written leaves stdout empty.
  if (request.csv)
    print_matrix_csv(out, m);
  const std::string notes = matrix_notes(m);
  size_t begin = 0;
  while (begin < notes.size()) {
    const size_t end = notes.find('\n', begin);
    std::fprintf(stderr, "pilgrim-stats: note: %s\n", notes.substr(begin, end - begin).c_str());
    begin = end + 1;
  }
}

} // namespace pilgrim::stats
