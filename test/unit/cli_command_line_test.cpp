// The shared command-line parser (cli/command_line.h): both spellings of a
// value, "--" and operands, one stderr line with exit status 2 for each
// usage error (options that cannot apply together included), and the help
// layout every tool shares.
#include "command_line.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using pilgrim::cli::CommandLine;
using pilgrim::cli::Help;
using pilgrim::cli::help_text;

enum class Mode { A, B, C };

struct Parsed {
  bool flag = false;
  int64_t count = -1;
  double number = 0.5;
  Mode mode = Mode::A;
  std::string name, first, second;
  std::vector<std::string> rest;
  std::optional<int> status;
  std::string out, err; // what parse printed
};

// rules: --flag cannot be used with --name or --mode; --number needs
// --count or --mode.
CommandLine make(Parsed &p, bool pass_through = false, bool rules = false) {
  CommandLine c("tool", "Usage: tool [options] FIRST SECOND\n", 7);
  c.flag({"--flag", "-f"}, p.flag)
      .integer({"--count"}, "a count", 1, 100, p.count)
      .non_negative_number({"--number"}, "a number", p.number)
      .choice({"--mode"}, {{"a", Mode::A}, {"b", Mode::B}, {"c", Mode::C}}, p.mode)
      .text({"--name", "-n"}, "a name", p.name);
  if (pass_through)
    c.pass_through(p.rest);
  else
    c.operands({&p.first, &p.second}, "two operands are needed", "more than two operands");
  if (rules)
    c.conflicts("--flag", {"--name", "--mode"}).needs("--number", {"--count", "--mode"});
  return c;
}

Parsed parse(std::vector<std::string> args, bool pass_through = false, bool rules = false) {
  Parsed p;
  std::vector<char *> argv;
  std::string prog = "tool";
  argv.push_back(prog.data());
  for (auto &a : args)
    argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  p.status = make(p, pass_through, rules).parse(static_cast<int>(argv.size()), argv.data());
  p.out = testing::internal::GetCapturedStdout();
  p.err = testing::internal::GetCapturedStderr();
  return p;
}

TEST(CommandLine, BindsFlagsValuesAndOperands) {
  const Parsed p =
      parse({"-f", "--count", "7", "--number=0.25", "--mode", "c", "-n", "x", "A", "B"});
  EXPECT_FALSE(p.status);
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.count, 7);
  EXPECT_EQ(p.number, 0.25);
  EXPECT_EQ(p.mode, Mode::C);
  EXPECT_EQ(p.name, "x");
  EXPECT_EQ(p.first, "A");
  EXPECT_EQ(p.second, "B");
  EXPECT_EQ(p.err, "");
}

TEST(CommandLine, ValueAfterEqualsOrAsNextArgument) {
  EXPECT_EQ(parse({"--count=9", "A", "B"}).count, 9);
  EXPECT_EQ(parse({"A", "--count", "9", "B"}).count, 9);
  EXPECT_EQ(parse({"--name=", "A", "B"}).err, "tool: --name needs a name (see 'tool --help')\n");
  // Short options take no "=".
  EXPECT_EQ(parse({"-n=x", "A", "B"}).err, "tool: unknown option '-n=x' (see 'tool --help')\n");
}

TEST(CommandLine, DoubleDashEndsOptions) {
  const Parsed p = parse({"--", "-f", "--count"});
  EXPECT_FALSE(p.status);
  EXPECT_FALSE(p.flag);
  EXPECT_EQ(p.first, "-f");
  EXPECT_EQ(p.second, "--count");
  EXPECT_EQ(parse({"-", "B"}).first, "-"); // a lone "-" is an operand
}

TEST(CommandLine, PassThroughTakesTheRestAfterDoubleDash) {
  const Parsed p = parse({"-f", "--", "-I/x", "--count"}, true);
  EXPECT_FALSE(p.status);
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.rest, (std::vector<std::string>{"-I/x", "--count"}));
  EXPECT_EQ(parse({"A"}, true).err, "tool: unexpected argument 'A' (see 'tool --help')\n");
}

TEST(CommandLine, HelpAndVersionPrintAndExitZero) {
  Parsed p = parse({"--help"});
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out, "Usage: tool [options] FIRST SECOND\n");
  p = parse({"-h"});
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out, "Usage: tool [options] FIRST SECOND\n");
  p = parse({"--version"});
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out.rfind("tool ", 0), 0u);
  EXPECT_NE(p.out.find(" (trace format version 7)\n"), std::string::npos);
  EXPECT_EQ(p.err, "");
  EXPECT_EQ(parse({"-V"}).out, p.out);
}

TEST(CommandLine, ConflictingOptionsAreRefusedInOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"-f", "--name", "x", "A", "B"}, "--flag and --name cannot be used together"},
      // In the command line's order, by the option's first name.
      {{"-n", "x", "--flag", "A", "B"}, "--name and --flag cannot be used together"},
      {{"--mode=b", "-f", "-f", "A", "B"}, "--mode and --flag cannot be used together"},
      // Before a missing operand: the conflict is what the user must fix.
      {{"-f", "--mode", "a"}, "--flag and --mode cannot be used together"},
      {{"--number", "1", "A", "B"}, "--number needs --count or --mode"},
  };
  for (const auto &[args, message] : cases) {
    const Parsed p = parse(args, false, true);
    EXPECT_EQ(p.status, 2) << message;
    EXPECT_EQ(p.err, "tool: " + message + " (see 'tool --help')\n");
  }
  // What the rules allow.
  EXPECT_FALSE(parse({"-f", "--count", "2", "A", "B"}, false, true).status);
  EXPECT_FALSE(parse({"--number", "1", "--mode", "b", "A", "B"}, false, true).status);
  EXPECT_FALSE(parse({"--name", "x", "--mode", "b", "A", "B"}, false, true).status);
  // --help and --version win over the rules.
  EXPECT_EQ(parse({"-f", "-n", "x", "--help"}, false, true).status, 0);
}

TEST(CommandLine, ARuleMustNameDeclaredOptions) {
  Parsed p;
  CommandLine c = make(p);
  EXPECT_THROW(c.conflicts("--flag", {"--nmae"}), std::logic_error);
  EXPECT_THROW(c.needs("--bogus", {"--count"}), std::logic_error);
  EXPECT_THROW(c.needs("-f", {"--count"}), std::logic_error); // by first name
}

TEST(HelpText, OneLayoutForEveryTool) {
  Help h;
  h.synopsis = "tool [--count N] TRACE";
  h.description = "Does one thing.";
  h.options = {{"--count N", "how many times, from one to a hundred: the text wraps at the "
                             "79th column and goes on under the first line"},
               {"--a-very-long-option=VALUE", "its text on the next line\nand a line of its own"}};
  h.success = "done";
  h.finding = "found";
  h.trouble = "a trace that cannot be read";
  h.example = "tool --count 2 a.pilgrim";
  h.footer = "See docs/TOOL.md.";
  EXPECT_EQ(help_text(h), "Usage: tool [--count N] TRACE\n"
                          "\n"
                          "Does one thing.\n"
                          "\n"
                          "Options:\n"
                          "  --count N      how many times, from one to a hundred: the text "
                          "wraps at the\n"
                          "                 79th column and goes on under the first line\n"
                          "  --a-very-long-option=VALUE\n"
                          "                 its text on the next line\n"
                          "                 and a line of its own\n"
                          "  -h, --help     show this help and exit\n"
                          "  -V, --version  show the version and exit\n"
                          "\n"
                          "Exit status:\n"
                          "  0  done\n"
                          "  1  found\n"
                          "  2  a usage error, or a trace that cannot be read\n"
                          "\n"
                          "Example:\n"
                          "  tool --count 2 a.pilgrim\n"
                          "\n"
                          "See docs/TOOL.md.\n");
  // Without findings there is no status 1.
  h.finding.clear();
  EXPECT_EQ(help_text(h).find("  1  "), std::string::npos);
}

TEST(CommandLine, EachUsageErrorIsOneLineAndStatusTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--bogus", "A", "B"}, "unknown option '--bogus'"},
      {{"A"}, "two operands are needed"},
      {{"A", "B", "C"}, "more than two operands ('C')"},
      {{"A", "B", "--count"}, "--count needs a count"},
      {{"--count", "0", "A", "B"}, "--count needs a count, got '0'"},
      {{"--count=101", "A", "B"}, "--count needs a count, got '101'"},
      {{"--count=-1", "A", "B"}, "--count needs a count, got '-1'"},
      {{"--count=+5", "A", "B"}, "--count needs a count, got '+5'"},
      {{"--count=99999999999999999999999", "A", "B"},
       "--count needs a count, got '99999999999999999999999'"},
      {{"--number=-1", "A", "B"}, "--number needs a number, got '-1'"},
      {{"--number=inf", "A", "B"}, "--number needs a number, got 'inf'"},
      {{"--mode=d", "A", "B"}, "--mode must be a, b or c, not 'd'"},
      {{"--mode"}, "--mode needs a, b or c"},
  };
  for (const auto &[args, message] : cases) {
    const Parsed p = parse(args);
    EXPECT_EQ(p.status, 2) << message;
    EXPECT_EQ(p.out, "") << message;
    EXPECT_EQ(p.err, "tool: " + message + " (see 'tool --help')\n");
  }
}

TEST(CommandLine, FailReportsAToolsOwnCheck) {
  Parsed p;
  CommandLine c = make(p);
  testing::internal::CaptureStderr();
  EXPECT_EQ(c.fail("--a and --b are required"), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "tool: --a and --b are required (see 'tool --help')\n");
}

} // namespace
