// pilgrim.so as a front-end plugin (-fplugin=pilgrim.so). It runs before
// the main action of every compilation and:
//  * adds its own path to the code-generation options' pass plugins, so the
//    same file is loaded as the pass plugin (lowering_pass.cpp) when code is
//    generated: -fplugin alone is enough, no -fpass-plugin, no -Xclang;
//  * predefines PILGRIM_PLUGIN=1 and declares the pragma functions;
//  * marks every MPI call site (call_site_marker.cpp) and runs the static
//    request check (request_check.cpp).
// Argument: -fplugin-arg-pilgrim-root=DIR, the directory site paths are
// relative to (default: the compilation directory).
#include <dlfcn.h>

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"

#include "consumers.h"
#include "plugin_state.h"

namespace pilgrim::plugin {

PluginState &state() {
  static PluginState s;
  return s;
}

namespace {

using namespace clang;

constexpr const char *kPredefines = "#define PILGRIM_PLUGIN 1\n"
                                    "#ifdef __cplusplus\n"
                                    "extern \"C\" {\n"
                                    "#endif\n"
                                    "void __pilgrim_pragma_phase(const char*);\n"
                                    "void __pilgrim_pragma_trace_off(void);\n"
                                    "void __pilgrim_pragma_trace_on(void);\n"
                                    "#ifdef __cplusplus\n"
                                    "}\n"
                                    "#endif\n";

// The path of this shared object, as the dynamic loader knows it.
std::string own_path() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&own_path), &info) == 0 || info.dli_fname == nullptr)
    return std::string();
  return info.dli_fname;
}

class PilgrimAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    state().compiler = &ci;
    state().sites.clear();
    std::vector<std::string> &passes = ci.getCodeGenOpts().PassPlugins;
    std::string self = own_path();
    if (!self.empty() && std::find(passes.begin(), passes.end(), self) == passes.end())
      passes.push_back(self);
    Preprocessor &pp = ci.getPreprocessor();
    pp.setPredefines(pp.getPredefines() + kPredefines);
    std::vector<std::unique_ptr<ASTConsumer>> consumers;
    // The check first: it reads MPI callees by name, which the marker then
    // redirects to its site markers.
    if (check_)
      consumers.push_back(make_request_check(ci));
    consumers.push_back(make_call_site_marker(ci, root_));
    return std::make_unique<MultiplexConsumer>(std::move(consumers));
  }

  bool ParseArgs(const CompilerInstance &ci, const std::vector<std::string> &args) override {
    for (const std::string &arg : args) {
      llvm::StringRef a(arg);
      if (a.consume_front("root=")) {
        root_ = a.str();
      } else if (a == "check=off") {
        check_ = false;
      } else {
        DiagnosticsEngine &diags = ci.getDiagnostics();
        diags.Report(diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "unknown pilgrim plugin argument '%0' (known: root=DIR, check=off)"))
            << arg;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  std::string root_;
  bool check_ = true;
};

FrontendPluginRegistry::Add<PilgrimAction>
    registered("pilgrim", "Pilgrim call sites, pragmas and request check");

} // namespace
} // namespace pilgrim::plugin
