// #pragma pilgrim phase("name") | trace off | trace on, and the same
// through _Pragma (the PILGRIM_* macros of pilgrim/annotate.h under the
// plugin). A well-formed pragma inside a function body becomes a call of
// __pilgrim_pragma_phase("name") / __pilgrim_pragma_trace_off() /
// __pilgrim_pragma_trace_on() (declared in the predefines, see
// plugin_action.cpp), injected as tokens where the pragma stood; the pass
// gives those functions bodies that call the weak hooks pilgrim_phase,
// pilgrim_trace_off and pilgrim_trace_on when present. Anything else gets a
// warning at its location and is dropped.
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"

#include "plugin_state.h"

namespace pilgrim::plugin {
namespace {

using namespace clang;

class PilgrimPragmaHandler : public PragmaHandler {
public:
  PilgrimPragmaHandler() : PragmaHandler("pilgrim") {}

  void HandlePragma(Preprocessor &pp, PragmaIntroducer introducer, Token &first) override {
    SourceLocation at = first.getLocation();
    Token tok;
    pp.Lex(tok);
    llvm::SmallVector<Token, 6> call;
    if (tok.is(tok::identifier) && tok.getIdentifierInfo()->getName() == "phase") {
      Token lparen, name, rparen;
      pp.Lex(lparen);
      if (lparen.isNot(tok::l_paren))
        return malformed(pp, lparen, "expected '(' after 'phase'");
      pp.Lex(name);
      if (!tok::isStringLiteral(name.getKind()))
        return malformed(pp, name, "expected a string literal: phase(\"name\")");
      // Adjacent literals ("a" "b") and prefixes other than none are not
      // names the hooks can take.
      if (name.getKind() != tok::string_literal)
        return malformed(pp, name, "the phase name must be a plain string literal");
      pp.Lex(rparen);
      if (rparen.isNot(tok::r_paren))
        return malformed(pp, rparen, "expected ')' after the phase name");
      if (!at_end(pp))
        return;
      call.push_back(identifier(pp, kPragmaPhase, at));
      call.push_back(punct(tok::l_paren, at));
      Token literal = name;
      literal.setLocation(name.getLocation());
      call.push_back(literal);
      call.push_back(punct(tok::r_paren, at));
    } else if (tok.is(tok::identifier) && tok.getIdentifierInfo()->getName() == "trace") {
      Token which;
      pp.Lex(which);
      llvm::StringRef word = which.is(tok::identifier) ? which.getIdentifierInfo()->getName() : "";
      if (word != "off" && word != "on")
        return malformed(pp, which, "expected 'off' or 'on' after 'trace'");
      if (!at_end(pp))
        return;
      call.push_back(identifier(pp, word == "off" ? kPragmaTraceOff : kPragmaTraceOn, at));
      call.push_back(punct(tok::l_paren, at));
      call.push_back(punct(tok::r_paren, at));
    } else {
      return malformed(
          pp, tok,
          "unknown '#pragma pilgrim' directive; expected phase(\"name\"), trace off or trace on");
    }
    CompilerInstance *ci = state().compiler;
    if (ci == nullptr)
      return; // no AST action (-E): nothing to lower
    if (!ci->hasSema() || ci->getSema().getCurFunctionOrMethodDecl() == nullptr) {
      warn(pp, at, "'#pragma pilgrim' outside a function body is ignored");
      return;
    }
    // #pragma stands on its own line: it is a whole statement. _Pragma comes
    // from a macro that the user ends with ';' like a call.
    if (introducer.Kind == PIK_HashPragma)
      call.push_back(punct(tok::semi, at));
    auto tokens = std::make_unique<Token[]>(call.size());
    std::copy(call.begin(), call.end(), tokens.get());
    pp.EnterTokenStream(std::move(tokens), call.size(), /*DisableMacroExpansion=*/true,
                        /*IsReinject=*/false);
  }

private:
  static Token identifier(Preprocessor &pp, const char *name, SourceLocation at) {
    Token t;
    t.startToken();
    t.setKind(tok::identifier);
    t.setIdentifierInfo(pp.getIdentifierInfo(name));
    t.setLocation(at);
    t.setLength(0);
    return t;
  }
  static Token punct(tok::TokenKind kind, SourceLocation at) {
    Token t;
    t.startToken();
    t.setKind(kind);
    t.setLocation(at);
    t.setLength(0);
    return t;
  }
  static void warn(Preprocessor &pp, SourceLocation at, llvm::StringRef message) {
    DiagnosticsEngine &diags = pp.getDiagnostics();
    unsigned id = diags.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    diags.Report(at, id) << message;
  }
  // Warns at `tok` and drops the rest of the directive.
  static void malformed(Preprocessor &pp, Token &tok, llvm::StringRef message) {
    warn(pp, tok.getLocation(), llvm::Twine("malformed '#pragma pilgrim': ").concat(message).str());
    while (tok.isNot(tok::eod) && tok.isNot(tok::eof))
      pp.Lex(tok);
  }
  // True at the end of the directive; else warns and drops the rest.
  static bool at_end(Preprocessor &pp) {
    Token tok;
    pp.Lex(tok);
    if (tok.is(tok::eod) || tok.is(tok::eof))
      return true;
    malformed(pp, tok, "extra tokens at the end of the directive");
    return false;
  }
};

PragmaHandlerRegistry::Add<PilgrimPragmaHandler> registered("pilgrim",
                                                            "#pragma pilgrim phase/trace");

} // namespace
} // namespace pilgrim::plugin
