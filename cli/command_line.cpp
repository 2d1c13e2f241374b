#include "command_line.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#ifndef PILGRIM_VERSION
#define PILGRIM_VERSION "0.1.0"
#endif

namespace pilgrim::cli {

CommandLine::CommandLine(std::string program, std::string usage, unsigned format_version)
    : program_(std::move(program)), usage_(std::move(usage)), format_version_(format_version) {}

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
      if (arg == "--version") {
        version_ = true;
        continue;
      }
      std::optional<std::string> inline_value;
      const Option *o = find(arg, inline_value);
      if (!o)
        throw UsageError{"unknown option '" + arg + "'"};
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
  if (!help_ && !version_ && given < slots_.size())
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
  return 2;
}

} // namespace pilgrim::cli
