#include "command_line.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#ifndef PILGRIM_VERSION
#define PILGRIM_VERSION "0.1.0"
#endif

namespace pilgrim::cli {

namespace {

constexpr size_t kWidth = 79;   // help lines end by this column
constexpr size_t kMaxSpec = 22; // a longer option gets its own line, its text the next

// Appends text from column `column` on (the caller has written up to it):
// words wrapped at kWidth, each line after the first indented to column;
// '\n' in text starts a new line.
void wrap(std::string &out, const std::string &text, size_t column) {
  std::istringstream lines(text);
  std::string line;
  for (bool first = true; std::getline(lines, line); first = false) {
    if (!first)
      out += "\n" + std::string(column, ' ');
    std::istringstream words(line);
    std::string word;
    size_t at = column;
    for (bool first_word = true; words >> word; first_word = false) {
      if (!first_word && at + 1 + word.size() > kWidth) {
        out += "\n" + std::string(column, ' ');
        at = column;
      } else if (!first_word) {
        out += ' ';
        ++at;
      }
      out += word;
      at += word.size();
    }
  }
  out += '\n';
}

} // namespace

std::string help_text(const Help &help) {
  std::vector<std::pair<std::string, std::string>> options = help.options;
  options.push_back({"-h, --help", "show this help and exit"});
  options.push_back({"-V, --version", "show the version and exit"});
  size_t spec_width = 0;
  for (const auto &o : options)
    if (o.first.size() <= kMaxSpec)
      spec_width = std::max(spec_width, o.first.size());
  const size_t column = 2 + spec_width + 2;

  std::string s = "Usage: " + help.synopsis + "\n\n" + help.description + "\n\nOptions:\n";
  for (const auto &o : options) {
    s += "  " + o.first;
    if (o.first.size() > spec_width)
      s += "\n" + std::string(column, ' ');
    else
      s += std::string(column - 2 - o.first.size(), ' ');
    wrap(s, o.second, column);
  }
  s += "\nExit status:\n  0  ";
  wrap(s, help.success, 5);
  if (!help.finding.empty()) {
    s += "  1  ";
    wrap(s, help.finding, 5);
  }
  s += "  2  ";
  wrap(s, "a usage error" + (help.trouble.empty() ? "" : ", or " + help.trouble), 5);
  s += "\nExample:\n";
  std::istringstream lines(help.example);
  for (std::string line; std::getline(lines, line);)
    s += "  " + line + "\n";
  if (!help.footer.empty())
    s += "\n" + help.footer + "\n";
  return s;
}

CommandLine::CommandLine(std::string program, std::string usage, unsigned format_version)
    : program_(std::move(program)), usage_(std::move(usage)), format_version_(format_version) {}

CommandLine::CommandLine(std::string program, const Help &help, unsigned format_version)
    : CommandLine(std::move(program), help_text(help), format_version) {}

CommandLine &CommandLine::flag(std::vector<std::string> names, bool &target) {
  options_.push_back({std::move(names), "", [&target](const std::string &) { target = true; }});
  return *this;
}

CommandLine &CommandLine::value(std::vector<std::string> names, std::string what,
                                std::function<void(const std::string &)> set) {
  options_.push_back({std::move(names), std::move(what), std::move(set)});
  return *this;
}

CommandLine &CommandLine::text(std::vector<std::string> names, std::string what,
                               std::string &target) {
  const std::string message = names.front() + " needs " + what;
  return value(std::move(names), std::move(what), [message, &target](const std::string &v) {
    if (v.empty())
      throw UsageError{message};
    target = v;
  });
}

CommandLine &CommandLine::non_negative_number(std::vector<std::string> names, std::string what,
                                              double &target) {
  const std::string name = names.front();
  return value(std::move(names), what, [name, what, &target](const std::string &text) {
    errno = 0;
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || errno || *end || !std::isfinite(v) || v < 0)
      throw UsageError{name + " needs " + what + ", got '" + text + "'"};
    target = v;
  });
}

void CommandLine::declared(const std::string &name) const {
  for (const Option &o : options_)
    if (o.names.front() == name)
      return;
  throw std::logic_error(program_ + ": a rule names '" + name + "', which is not an option");
}

CommandLine &CommandLine::conflicts(const std::string &name, std::vector<std::string> others) {
  declared(name);
  for (const std::string &o : others)
    declared(o);
  conflicts_.push_back({name, std::move(others)});
  return *this;
}

CommandLine &CommandLine::needs(const std::string &name, std::vector<std::string> others) {
  declared(name);
  for (const std::string &o : others)
    declared(o);
  needs_.push_back({name, std::move(others)});
  return *this;
}

bool CommandLine::was_given(const std::string &name) const {
  return std::find(given_.begin(), given_.end(), name) != given_.end();
}

void CommandLine::check_rules() const {
  // The first pair in the command line's order: "A and B", A given first.
  for (size_t i = 0; i < given_.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      for (const Rule &r : conflicts_) {
        const auto in = [&r](const std::string &n) {
          return std::find(r.others.begin(), r.others.end(), n) != r.others.end();
        };
        if ((r.name == given_[j] && in(given_[i])) || (r.name == given_[i] && in(given_[j])))
          throw UsageError{given_[j] + " and " + given_[i] + " cannot be used together"};
      }
  for (const Rule &r : needs_)
    if (was_given(r.name) &&
        std::none_of(r.others.begin(), r.others.end(), [this](const std::string &n) {
          return was_given(n);
        }))
      throw UsageError{r.name + " needs " + one_of(r.others)};
}

CommandLine &CommandLine::operands(std::vector<std::string *> slots, std::string missing,
                                   std::string too_many) {
  slots_ = std::move(slots);
  missing_ = std::move(missing);
  too_many_ = std::move(too_many);
  return *this;
}

CommandLine &CommandLine::pass_through(std::vector<std::string> &rest) {
  rest_ = &rest;
  return *this;
}

uint64_t CommandLine::parse_integer(const std::string &name, const std::string &what,
                                    const std::string &text, uint64_t min, uint64_t max) {
  const UsageError bad{name + " needs " + what + ", got '" + text + "'"};
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw bad;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno || v < min || v > max)
    throw bad;
  return v;
}

std::string CommandLine::one_of(const std::vector<std::string> &words) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i)
    s += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return s;
}

const CommandLine::Option *CommandLine::find(const std::string &arg,
                                             std::optional<std::string> &inline_value) const {
  for (const Option &o : options_)
    for (const std::string &n : o.names) {
      if (arg == n)
        return &o;
      // NAME=VALUE: long options with a value only.
      if (!o.what.empty() && n.rfind("--", 0) == 0 && arg.size() > n.size() &&
          arg.compare(0, n.size(), n) == 0 && arg[n.size()] == '=') {
        inline_value = arg.substr(n.size() + 1);
        return &o;
      }
    }
  return nullptr;
}

void CommandLine::parse_or_throw(int argc, char **argv) {
  size_t given = 0;
  bool only_operands = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!only_operands && arg.size() > 1 && arg[0] == '-') {
      if (arg == "--") {
        if (rest_) {
          rest_->assign(argv + i + 1, argv + argc);
          break;
        }
        only_operands = true;
        continue;
      }
      if (arg == "--help" || arg == "-h") {
        help_ = true;
        continue;
      }
      if (arg == "--version" || arg == "-V") {
        version_ = true;
        continue;
      }
      std::optional<std::string> inline_value;
      const Option *o = find(arg, inline_value);
      if (!o)
        throw UsageError{"unknown option '" + arg + "'"};
      if (!was_given(o->names.front()))
        given_.push_back(o->names.front());
      if (o->what.empty()) {
        o->set("");
      } else if (inline_value) {
        o->set(*inline_value);
      } else {
        if (i + 1 >= argc)
          throw UsageError{arg + " needs " + o->what};
        o->set(argv[++i]);
      }
      continue;
    }
    if (given == slots_.size()) {
      if (slots_.empty())
        throw UsageError{"unexpected argument '" + arg + "'"};
      throw UsageError{too_many_ + " ('" + arg + "')"};
    }
    *slots_[given++] = arg;
  }
  if (help_ || version_)
    return;
  check_rules();
  if (given < slots_.size())
    throw UsageError{missing_};
}

std::optional<int> CommandLine::parse(int argc, char **argv) {
  try {
    parse_or_throw(argc, argv);
  } catch (const UsageError &e) {
    return fail(e.message);
  }
  if (help_) {
    std::fputs(usage_.c_str(), stdout);
    return 0;
  }
  if (version_) {
    std::printf("%s %s", program_.c_str(), PILGRIM_VERSION);
    if (format_version_)
      std::printf(" (trace format version %u)", format_version_);
    std::printf("\n");
    return 0;
  }
  return std::nullopt;
}

int CommandLine::fail(const std::string &message) const {
  std::fprintf(stderr, "%s: %s (see '%s --help')\n", program_.c_str(), message.c_str(),
               program_.c_str());
  return kTrouble;
}

} // namespace pilgrim::cli
