// The command line of every Pilgrim tool (pilgrim-dump, -stats, -diff,
// -verify, -check, -export, -proxygen, -gen-wrappers): one parser and one help
// layout, so that every tool spells options, values, --help, --version, usage
// errors and exit statuses alike.
//
//   --name, -n           a flag or an option; an option's value follows as the
//   --name VALUE         next argument, or after '=' in a long option
//   --name=VALUE
//   --                   ends the options: the rest are operands (or, for a
//                        tool that passes arguments through, those arguments)
//   -h, --help           prints the tool's help (help_text) on stdout, exit 0
//   -V, --version        prints "TOOL VERSION [(trace format version N)]", 0
//
// A bad command line prints ONE line on stderr,
//   TOOL: MESSAGE (see 'TOOL --help')
// and gives exit status 2; so do options that cannot apply together
// (conflicts, needs): "--a and --b cannot be used together", "--a needs --b".
//
// Exit status, as diff(1) and grep(1) have it, in every tool: 0 success,
// 1 a finding (the traces differ, the check found errors), 2 trouble (a
// usage error, a trace that cannot be read, an output that cannot be written).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pilgrim::cli {

// Thrown by a value's parser or a tool's own check: a usage error.
struct UsageError {
  std::string message;
};

// The exit statuses (above).
constexpr int kSuccess = 0, kFinding = 1, kTrouble = 2;

// A tool's --help, in the one layout every tool shares (help_text):
//   Usage: SYNOPSIS
//
//   DESCRIPTION
//
//   Options:
//     OPTION    WHAT IT DOES (wrapped to 79 columns; '\n' breaks the line)
//     -h, --help, -V, --version (added)
//
//   Exit status:
//     0  SUCCESS
//     1  FINDING (only where the tool has findings)
//     2  a usage error, or TROUBLE
//
//   Example:
//     EXAMPLE LINES
//
//   FOOTER
struct Help {
  std::string synopsis;    // after "Usage: "; further lines start "  or:  TOOL"
  std::string description; // paragraphs, as written
  std::vector<std::pair<std::string, std::string>> options; // {"--rank R", "only rank R"}
  std::string success, finding, trouble;
  std::string example; // lines
  std::string footer;  // "" or a last paragraph (where the format is described)
};
std::string help_text(const Help &help);

class CommandLine {
public:
  // usage: the --help text. format_version: when non-zero, --version also
  // names the trace format version the tool reads or writes.
  CommandLine(std::string program, std::string usage, unsigned format_version = 0);
  // The same, with the help written by help_text.
  CommandLine(std::string program, const Help &help, unsigned format_version = 0);

  // An option without a value: sets target to true.
  CommandLine &flag(std::vector<std::string> names, bool &target);
  // An option with a value: set parses it (and throws UsageError when it is
  // bad). what names the value in "NAME needs WHAT" when it is missing.
  CommandLine &value(std::vector<std::string> names, std::string what,
                     std::function<void(const std::string &)> set);
  // A non-empty text value.
  CommandLine &text(std::vector<std::string> names, std::string what, std::string &target);
  // A decimal integer in [min, max]: "NAME needs WHAT, got 'TEXT'" otherwise.
  template <class T>
  CommandLine &integer(std::vector<std::string> names, std::string what, uint64_t min, uint64_t max,
                       T &target) {
    const std::string name = names.front();
    return value(std::move(names), what, [name, what, min, max, &target](const std::string &v) {
      target = static_cast<T>(parse_integer(name, what, v, min, max));
    });
  }
  // A finite number >= 0: "NAME needs WHAT, got 'TEXT'" otherwise.
  CommandLine &non_negative_number(std::vector<std::string> names, std::string what,
                                   double &target);
  // One of a list of words: "NAME must be A, B or C, not 'TEXT'" otherwise.
  template <class T>
  CommandLine &choice(std::vector<std::string> names, std::vector<std::pair<std::string, T>> words,
                      T &target) {
    std::vector<std::string> spelled;
    for (const auto &w : words)
      spelled.push_back(w.first);
    const std::string name = names.front();
    return value(std::move(names), one_of(spelled),
                 [name, words, spelled, &target](const std::string &v) {
                   for (const auto &w : words)
                     if (w.first == v) {
                       target = w.second;
                       return;
                     }
                   throw UsageError{name + " must be " + one_of(spelled) + ", not '" + v + "'"};
                 });
  }

  // Operands fill slots in order; every slot is required. missing: the
  // message when one is missing; too_many: the message (followed by
  // " ('ARG')") for one more.
  CommandLine &operands(std::vector<std::string *> slots, std::string missing,
                        std::string too_many);
  // The arguments after "--" go to rest, untouched (and no operands are taken).
  CommandLine &pass_through(std::vector<std::string> &rest);

  // Options that cannot apply together: name with any of others is refused,
  // "A and B cannot be used together" (A, B in the command line's order).
  // Every name must be declared before.
  CommandLine &conflicts(const std::string &name, std::vector<std::string> others);
  // An option that means something only beside another: name without any of
  // others is refused, "NAME needs A or B".
  CommandLine &needs(const std::string &name, std::vector<std::string> others);

  // Parses argv. Returns the exit status when the tool is done (0 after
  // --help or --version, 2 after a usage error, printed), nothing when it
  // should run.
  std::optional<int> parse(int argc, char **argv);
  // Prints a usage error that the tool found itself; returns 2.
  int fail(const std::string &message) const;

private:
  struct Option {
    std::vector<std::string> names;
    std::string what;                             // empty: a flag
    std::function<void(const std::string &)> set; // called with the value ("" for a flag)
  };
  // A rule between options, by their first names.
  struct Rule {
    std::string name;
    std::vector<std::string> others;
  };
  void declared(const std::string &name) const; // throws std::logic_error if not
  bool was_given(const std::string &name) const;
  void check_rules() const;
  static uint64_t parse_integer(const std::string &name, const std::string &what,
                                const std::string &text, uint64_t min, uint64_t max);
  static std::string one_of(const std::vector<std::string> &words);
  void parse_or_throw(int argc, char **argv);
  // The option ARG names (NAME or NAME=VALUE); nullptr if none. Sets
  // inline_value when ARG carries its value.
  const Option *find(const std::string &arg, std::optional<std::string> &inline_value) const;

  std::string program_, usage_;
  unsigned format_version_;
  std::vector<Option> options_;
  std::vector<Rule> conflicts_, needs_;
  std::vector<std::string> given_; // first names of the options given, in order
  std::vector<std::string *> slots_;
  std::string missing_, too_many_;
  std::vector<std::string> *rest_ = nullptr;
  bool help_ = false, version_ = false;
};

} // namespace pilgrim::cli
