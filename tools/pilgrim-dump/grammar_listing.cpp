#include "grammar_listing.h"

#include <string>
#include <vector>

#include "call_listing.h"
#include "pilgrim/grammar_walker.h"

namespace pilgrim::dump {

void print_grammar(TextOutput &out, const Trace &trace, uint32_t rank) {
  const RankTrace &rt = trace.ranks[rank];
  const std::vector<std::string> texts = format_cst(trace, rank);
  const std::string r = std::to_string(rank);
  out << "# rank " << r << " CST: " << std::to_string(rt.cst.size()) << " entries\n";
  for (size_t i = 0; i < rt.cst.size(); ++i)
    out << "t" << std::to_string(i) << " count=" << std::to_string(rt.cst[i].count) << ": "
        << texts[i] << '\n';
  out << "# rank " << r << " grammar: " << std::to_string(rt.grammar.rules.size()) << " rules, "
      << std::to_string(expanded_length(rt.grammar)) << " calls\n";
  for (size_t k = 0; k < rt.grammar.rules.size(); ++k) {
    out << "R" << std::to_string(k) << " ->";
    for (const GrammarSymbol &s : rt.grammar.rules[k]) {
      out << ' '
          << (is_terminal(s) ? "t" + std::to_string(s.value) : "R" + std::to_string(rule_index(s)));
      if (s.exp != 1)
        out << '^' << std::to_string(s.exp);
    }
    out << '\n';
  }
}

} // namespace pilgrim::dump
