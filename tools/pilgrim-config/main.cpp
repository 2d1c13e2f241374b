// pilgrim-config: every PILGRIM_* environment variable any part of Pilgrim
// reads, from the same table the tracer parses them with (settings/), with
// its allowed values, default and current value.
#include "command_line.h"
#include "settings_report.h"

#include <iostream>
#include <optional>

extern char **environ;

namespace {

const pilgrim::cli::Help kHelp = {
    "pilgrim-config [--reader WHO] [--check | --markdown | --man | --names]",
    "Lists every PILGRIM_* environment variable that Pilgrim reads: the tracer\n"
    "(libpilgrim.so), the proxies, the compiler wrappers, the scripts, tests and\n"
    "benchmarks, each with its allowed values, its default and its value now. The\n"
    "list is the table the tracer parses its settings with.",
    {{"--reader WHO", "only the variables WHO reads: tracer, proxy, compiler,\n"
                      "scripts, tests or bench"},
     {"--check", "check the environment instead: one line per PILGRIM_*\n"
                 "variable that is unknown or has a value it does not allow"},
     {"--markdown", "the list as a Markdown table"},
     {"--man", "the libpilgrim(7) man page (roff)"},
     {"--names", "the names only, one per line"}},
    "listed; with --check, every PILGRIM_* variable set is known and valid",
    "with --check, a variable is unknown or has an invalid value",
    "",
    "pilgrim-config --reader tracer\n"
    "PILGRIM_TIMMING=lossless pilgrim-config --check",
    ""};

} // namespace

int main(int argc, char **argv) {
  using pilgrim::settings::Reader;
  std::optional<Reader> reader;
  bool check = false, markdown = false, man = false, names = false;
  pilgrim::cli::CommandLine cl("pilgrim-config", kHelp);
  cl.value({"--reader"}, "tracer, proxy, compiler, scripts, tests or bench",
           [&reader](const std::string &v) {
             for (Reader r : {Reader::Tracer, Reader::Proxy, Reader::Compiler, Reader::Scripts,
                              Reader::Tests, Reader::Bench})
               if (v == pilgrim::settings::reader_name(r))
                 reader = r;
             if (!reader)
               throw pilgrim::cli::UsageError{
                   "--reader must be tracer, proxy, compiler, scripts, tests or bench, not '" + v +
                   "'"};
           })
      .flag({"--check"}, check)
      .flag({"--markdown"}, markdown)
      .flag({"--man"}, man)
      .flag({"--names"}, names)
      .conflicts("--check", {"--markdown", "--man", "--names", "--reader"})
      .conflicts("--markdown", {"--man", "--names"})
      .conflicts("--man", {"--names", "--reader"});
  if (const auto done = cl.parse(argc, argv))
    return *done;
  if (check) {
    const auto problems = pilgrim::settings::check_environment(environ);
    for (const std::string &p : problems)
      std::cout << "pilgrim-config: " << p << "\n";
    if (problems.empty())
      std::cout << "pilgrim-config: every PILGRIM_* variable set is a known setting with a valid "
                   "value\n";
    return problems.empty() ? 0 : 1;
  }
  const auto rows = pilgrim::settings::selected(reader);
  if (markdown)
    pilgrim::settings::print_markdown(std::cout, rows);
  else if (man)
    pilgrim::settings::print_man(std::cout, PILGRIM_VERSION);
  else if (names)
    for (const auto *s : rows)
      std::cout << s->name << "\n";
  else
    pilgrim::settings::print_listing(std::cout, rows);
  return 0;
}
