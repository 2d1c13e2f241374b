#include "settings_report.h"

#include "pilgrim/timing_spec.h"

#include <cstdlib>

namespace pilgrim::settings {
namespace {

std::string current(const Setting &s) {
  const char *v = std::getenv(s.name);
  return v ? std::string("'") + v + "'" : "not set";
}

// A roff line must not start with '.' or '\''; backslashes are escaped.
std::string roff(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\''))
    out = "\\&" + out;
  return out;
}

} // namespace

std::vector<const Setting *> selected(std::optional<Reader> reader) {
  std::vector<const Setting *> rows;
  for (const Setting &s : table())
    if (!reader || s.reader == *reader)
      rows.push_back(&s);
  return rows;
}

void print_listing(std::ostream &out, const std::vector<const Setting *> &rows) {
  for (const Setting *s : rows) {
    out << s->name << "  [" << reader_name(s->reader) << "]  now: " << current(*s) << "\n"
        << "    " << s->summary << "\n"
        << "    values: " << allowed_values(*s) << "\n"
        << "    default: " << s->fallback << "\n";
  }
}

void print_markdown(std::ostream &out, const std::vector<const Setting *> &rows) {
  out << "| Variable | Read by | Values | Default | What it does |\n"
      << "| --- | --- | --- | --- | --- |\n";
  for (const Setting *s : rows) {
    std::string values;
    if (s->choices.empty()) {
      values = s->values;
    } else {
      for (size_t i = 0; i < s->choices.size(); ++i)
        values += (i ? ", `" : "`") + s->choices[i] + "`";
    }
    out << "| `" << s->name << "` | " << reader_name(s->reader) << " | " << values << " | "
        << s->fallback << " | " << s->summary << " |\n";
  }
}

void print_man(std::ostream &out, const std::string &version) {
  out << ".TH LIBPILGRIM 7 \"\" \"Pilgrim " << version << "\" \"Pilgrim\"\n"
      << ".SH NAME\nlibpilgrim \\- the Pilgrim MPI tracer and its settings\n"
      << ".SH SYNOPSIS\n.B mpirun\n[\\fIoptions\\fR] \\fBenv LD_PRELOAD=\\fR"
      << "\\fIPREFIX\\fR\\fB/lib/libpilgrim.so\\fR \\fIprogram\\fR [\\fIargs\\fR]\n"
      << ".SH DESCRIPTION\n"
      << "libpilgrim.so records every MPI call of a run, with every parameter, into one\n"
      << "trace file written by rank 0 at MPI_Finalize. Preload it, or link the program\n"
      << "with \\-lpilgrim before the MPI library. At MPI_Finalize rank 0 prints one line\n"
      << "saying where the trace went, how many calls of how many ranks it holds and its\n"
      << "size. The settings below are environment variables, read at MPI_Init; an\n"
      << "invalid value stops the run there with one line naming the variable, and a\n"
      << "PILGRIM_* variable that no part of Pilgrim reads draws a warning naming the\n"
      << "closest known one.\n"
      << ".PP\n"
      << "\\fBpilgrim\\-config\\fR(1) lists the settings with their current values, and\n"
      << "\\fBpilgrim\\-config \\-\\-check\\fR validates the environment.\n";
  const Reader sections[] = {Reader::Tracer, Reader::Proxy, Reader::Compiler};
  const char *titles[] = {"TRACER SETTINGS", "PROXY SETTINGS", "COMPILER WRAPPER SETTINGS"};
  for (size_t k = 0; k < 3; ++k) {
    out << ".SH " << titles[k] << "\n";
    for (const Setting *s : selected(sections[k])) {
      out << ".TP\n.B " << roff(s->name) << "\n" << roff(s->summary) << ".\n.br\nValues: "
          << roff(allowed_values(*s)) << ".\n.br\nDefault: " << roff(s->fallback) << ".\n";
    }
  }
  out << ".SH FILES\n.TP\n.I ./PROGRAM.pilgrim\nThe default trace. When it exists, the trace goes to "
         "the first free\n.IR ./PROGRAM.N.pilgrim \" (N = 1, 2, ...)\" instead, so that no run "
         "replaces\nan earlier one; an explicit PILGRIM_OUTPUT is replaced.\n"
      << ".SH SEE ALSO\n\\fBpilgrim\\-config\\fR(1), \\fBpilgrim\\-dump\\fR(1), "
         "\\fBpilgrim\\-stats\\fR(1), \\fBpilgrim\\-proxygen\\fR(1), \\fBpilgrim\\-check\\fR(1)\n";
}

std::vector<std::string> check_environment(char **environ) {
  std::vector<std::string> problems;
  for (const std::string &name : unknown_in(environ))
    problems.push_back(not_a_setting(name));
  for (const Setting &s : table()) {
    const char *v = std::getenv(s.name);
    if (!v)
      continue;
    bool ok = true;
    if (!s.choices.empty()) {
      ok = false;
      for (const std::string &c : s.choices)
        ok = ok || c == v;
      if (!ok)
        problems.push_back(invalid_value(s, v));
    } else if (std::string(s.name) == "PILGRIM_TIMING") {
      timing::Spec spec;
      std::string why;
      if (!timing::parse_spec(v, spec, why)) {
        const std::string prefix = "pilgrim: ";
        problems.push_back(why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why);
      }
    } else if (std::string(s.name) == "PILGRIM_OUTPUT" && !*v) {
      problems.push_back(invalid_value(s, v));
    }
  }
  return problems;
}

} // namespace pilgrim::settings
