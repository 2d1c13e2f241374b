// pilgrim-gen-wrappers: parses the MPI library's own mpi.h with Clang, joins
// it with the annotation sidecars and writes the PMPI wrappers, the function
// table and a coverage report into an output directory (the build tree).
#include "command_line.h"
#include "emitters.h"
#include "fortran_emitter.h"
#include "function_join.h"
#include "header_model.h"
#include "sidecar_loader.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#ifndef PILGRIM_CLANG_RESOURCE_DIR
#define PILGRIM_CLANG_RESOURCE_DIR ""
#endif

namespace {

constexpr int kWrapperFiles = 4;

const pilgrim::cli::Help kHelp = {
    "pilgrim-gen-wrappers --mpi-header MPI_H --annotations DIR -o OUTDIR [options] "
    "[-- CLANG_ARGS...]",
    "Parses MPI_H as a C translation unit (with CLANG_ARGS: the include paths and\n"
    "macros of the MPI compiler wrapper; MPI_H's own folder is searched after them),\n"
    "joins every MPI function it declares with the annotation sidecars in DIR\n"
    "(*.yaml, see docs/ANNOTATIONS.md) and writes:\n"
    "  OUTDIR/wrappers_0.cpp .. wrappers_3.cpp  one PMPI wrapper per function\n"
    "  OUTDIR/function_table.cpp                per function: id, name, parameter metadata\n"
    "  OUTDIR/encoding_driver.cpp               the wrappers' encoding on synthetic calls\n"
    "                                           (the encoding round-trip test, test/encoding)\n"
    "  OUTDIR/fortran_entries.cpp               the Fortran entry points: for each function\n"
    "                                           the Fortran library of NM_OUTPUT (`nm -D`)\n"
    "                                           exports and does not forward to C (none\n"
    "                                           without --fortran-symbols)\n"
    "  OUTDIR/coverage.txt                      functions declared, wrapped, annotated",
    {{"--mpi-header MPI_H", "the MPI library's mpi.h (required)"},
     {"--annotations DIR", "the annotation sidecars (required)"},
     {"-o OUTDIR", "where the generated files go (required)"},
     {"--report FILE", "the coverage report goes to FILE, not OUTDIR/coverage.txt"},
     {"--fortran-symbols NM_OUTPUT", "the `nm -D` output of the MPI's Fortran library"}},
    "the files were written",
    "",
    "a header or sidecar error, or a file that cannot be written",
    "pilgrim-gen-wrappers --mpi-header /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \\\n"
    "    --annotations generator/annotations -o generated",
    ""};

bool write_file(const std::filesystem::path &path, const std::string &text) {
  // Rewrite only on change, so that a re-run does not rebuild the runtime.
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (old == text)
      return true;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

} // namespace

int main(int argc, char **argv) {
  std::string header, annotations, outdir, report, fortran_symbols;
  std::vector<std::string> clang_args;
  pilgrim::cli::CommandLine cli("pilgrim-gen-wrappers", kHelp);
  cli.text({"--mpi-header"}, "a path", header)
      .text({"--annotations"}, "a directory", annotations)
      .text({"-o"}, "a directory", outdir)
      .text({"--report"}, "a path", report)
      .text({"--fortran-symbols"}, "a path", fortran_symbols)
      .pass_through(clang_args);
  if (const auto status = cli.parse(argc, argv))
    return *status;
  if (header.empty() || annotations.empty() || outdir.empty())
    return cli.fail("--mpi-header, --annotations and -o are required");
  if (!std::filesystem::is_regular_file(header)) {
    std::cerr << "pilgrim-gen-wrappers: " << header << ": no such file\n";
    return pilgrim::cli::kTrouble;
  }

  // The sidecars first: their errors are cheaper to find than a header parse.
  std::vector<pilgrim::gen::SidecarDiagnostic> diags;
  auto files = pilgrim::gen::sidecar_files_in(annotations, diags);
  auto sidecars = pilgrim::gen::load_sidecars(files, diags);
  if (!diags.empty()) {
    for (const auto &d : diags)
      std::cerr << d.str() << "\n";
    return pilgrim::cli::kTrouble;
  }

  bool has_resource_dir = false;
  for (const auto &a : clang_args)
    has_resource_dir |= a.rfind("-resource-dir", 0) == 0;
  if (!has_resource_dir && std::strlen(PILGRIM_CLANG_RESOURCE_DIR) > 0)
    clang_args.push_back(std::string("-resource-dir=") + PILGRIM_CLANG_RESOURCE_DIR);

  pilgrim::gen::HeaderModel model;
  if (!pilgrim::gen::read_header(header, clang_args, model)) {
    std::cerr << "pilgrim-gen-wrappers: " << header << ": the header does not parse\n";
    return pilgrim::cli::kTrouble;
  }
  if (model.functions.empty()) {
    std::cerr << "pilgrim-gen-wrappers: " << header << ": declares no MPI functions\n";
    return pilgrim::cli::kTrouble;
  }

  auto joined = pilgrim::gen::join(model, sidecars);
  bool failed = false;
  for (const auto &name : joined.unannotated) {
    std::cerr << "pilgrim-gen-wrappers: error: " << name << ": no annotation (add an entry to "
              << annotations << ")\n";
    failed = true;
  }
  for (const auto &d : joined.errors) {
    std::cerr << d.str() << "\n";
    failed = true;
  }
  for (const auto &e : joined.plain_errors) {
    std::cerr << "pilgrim-gen-wrappers: " << e << "\n";
    failed = true;
  }
  if (failed)
    return pilgrim::cli::kTrouble;

  std::error_code ec;
  std::filesystem::create_directories(outdir, ec);
  std::filesystem::path out(outdir);
  pilgrim::gen::FortranLibrary fortran_lib;
  std::string fortran_error;
  if (!fortran_symbols.empty() &&
      !pilgrim::gen::read_fortran_symbols(fortran_symbols, fortran_lib, fortran_error)) {
    std::cerr << "pilgrim-gen-wrappers: " << fortran_error << "\n";
    return pilgrim::cli::kTrouble;
  }
  std::ostringstream table, driver, cov, fortran;
  pilgrim::gen::FortranReport fortran_report;
  pilgrim::gen::emit_fortran_entries(joined, fortran_lib, fortran, fortran_report);
  // The wrappers after the Fortran entry points: those that convert their
  // arguments call their wrapper's pilgrim_site_<name>.
  size_t per_file = (joined.wrapped.size() + kWrapperFiles - 1) / kWrapperFiles;
  for (int k = 0; k < kWrapperFiles; ++k) {
    std::ostringstream s;
    pilgrim::gen::emit_wrappers(joined, fortran_report.site_entries, k * per_file,
                                (k + 1) * per_file, s);
    if (!write_file(out / ("wrappers_" + std::to_string(k) + ".cpp"), s.str())) {
      std::cerr << "pilgrim-gen-wrappers: cannot write " << (out / "wrappers").string() << "\n";
      return pilgrim::cli::kTrouble;
    }
  }
  pilgrim::gen::emit_function_table(joined, table);
  pilgrim::gen::emit_encoding_driver(joined, driver);
  pilgrim::gen::emit_coverage_report(header, model, joined, cov);
  pilgrim::gen::emit_fortran_coverage(fortran_symbols, fortran_report, cov);
  std::filesystem::path report_path =
      report.empty() ? out / "coverage.txt" : std::filesystem::path(report);
  if (!write_file(out / "function_table.cpp", table.str()) ||
      !write_file(out / "encoding_driver.cpp", driver.str()) ||
      !write_file(out / "fortran_entries.cpp", fortran.str()) ||
      !write_file(report_path, cov.str())) {
    std::cerr << "pilgrim-gen-wrappers: cannot write into " << outdir << "\n";
    return pilgrim::cli::kTrouble;
  }
  std::cout << "pilgrim-gen-wrappers: " << model.functions.size() << " declared, "
            << joined.wrapped.size() << " wrapped, "
            << joined.wrapped.size() - joined.defaulted.size() << " annotated, "
            << joined.defaulted.size() << " defaulted, 0 unannotated, "
            << joined.left_out_optional.size() << " left out, " << joined.sidecar_only.size()
            << " sidecar entries filtered; Fortran: " << fortran_report.entries.size()
            << " entry points, " << fortran_report.forwarded.size()
            << " around the MPI's Fortran binding, " << fortran_report.c_called.size()
            << " forwarded to C by the MPI, " << fortran_report.left.size() << " left to the MPI\n";
  return 0;
}
