#include "consumers.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "mpi_names.h"
#include "plugin_state.h"
#include "site_key.h"

namespace pilgrim::plugin {
namespace {

using namespace clang;

// The enclosing function's name as the site table records it: qualified,
// with template arguments, and with no path in it (a lambda prints as
// "(lambda)" inside its enclosing function, not "(lambda at /abs/path...)"),
// so that the id is the same whatever the build directory.
std::string function_name(const FunctionDecl *fd, const PrintingPolicy &policy) {
  if (fd == nullptr)
    return "(global)";
  if (const auto *method = dyn_cast<CXXMethodDecl>(fd); method && method->getParent()->isLambda()) {
    const DeclContext *dc = method->getParent()->getDeclContext();
    while (dc != nullptr && !isa<FunctionDecl>(dc))
      dc = dc->getParent();
    std::string outer =
        dc == nullptr ? std::string() : function_name(cast<FunctionDecl>(dc), policy) + "::";
    return outer + "(lambda)";
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  fd->getNameForDiagnostic(os, policy, /*Qualified=*/true);
  return os.str();
}

class Marker : public RecursiveASTVisitor<Marker> {
public:
  Marker(CompilerInstance &ci, std::string root, std::string working_dir)
      : ci_(ci), root_(std::move(root)), working_dir_(std::move(working_dir)),
        policy_(ci.getLangOpts()) {
    policy_.AnonymousTagLocations = false;
    policy_.SuppressUnwrittenScope = true;
  }

  // Template patterns are never compiled: their instantiations reach the
  // consumer on their own (HandleTopLevelDecl) and are marked then.
  bool TraverseDecl(Decl *d) {
    if (d == nullptr)
      return true;
    if (const auto *dc = dyn_cast<DeclContext>(d); dc != nullptr && dc->isDependentContext())
      return true;
    auto *fd = dyn_cast<FunctionDecl>(d);
    if (fd == nullptr)
      return RecursiveASTVisitor::TraverseDecl(d);
    const FunctionDecl *saved = function_;
    function_ = fd;
    bool ok = RecursiveASTVisitor::TraverseDecl(d);
    function_ = saved;
    return ok;
  }

  bool TraverseLambdaExpr(LambdaExpr *e) {
    if (e->getCallOperator()->isDependentContext())
      return true;
    const FunctionDecl *saved = function_;
    function_ = e->getCallOperator();
    bool ok = RecursiveASTVisitor::TraverseLambdaExpr(e);
    function_ = saved;
    return ok;
  }

  bool VisitCallExpr(CallExpr *call) {
    FunctionDecl *callee = call->getDirectCallee();
    if (callee == nullptr || !callee->isExternC() || !is_traced_mpi_function(callee->getName()))
      return true;
    auto *ref = dyn_cast<DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts());
    if (ref == nullptr || ref->getDecl() != callee)
      return true;
    SourceManager &sm = ci_.getSourceManager();
    PresumedLoc where = sm.getPresumedLoc(sm.getFileLoc(call->getBeginLoc()));
    if (where.isInvalid())
      return true;
    SiteRecord site;
    site.file = site_path(where.getFilename(), root_, working_dir_);
    site.line = where.getLine();
    site.column = where.getColumn();
    site.function = function_name(function_, policy_);
    uint64_t id = site_id(site.file, site.line, site.column, site.function);
    ref->setDecl(marker(callee, id));
    state().sites.emplace(id, std::move(site));
    return true;
  }

private:
  // One marker declaration per (id, callee): same type and parameters as
  // the callee, in its (extern "C") context, so that its name is not mangled.
  FunctionDecl *marker(FunctionDecl *callee, uint64_t id) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << kMarkerPrefix << llvm::format_hex_no_prefix(id, 16) << '.' << callee->getName();
    os.flush();
    FunctionDecl *&slot = markers_[name];
    if (slot != nullptr)
      return slot;
    ASTContext &ctx = ci_.getASTContext();
    SourceLocation loc = callee->getLocation();
    FunctionDecl *m = FunctionDecl::Create(
        ctx, callee->getDeclContext(), loc, loc, DeclarationName(&ctx.Idents.get(name)),
        callee->getType(), callee->getTypeSourceInfo(), SC_Extern);
    llvm::SmallVector<ParmVarDecl *, 8> params;
    for (const ParmVarDecl *p : callee->parameters())
      params.push_back(ParmVarDecl::Create(ctx, m, loc, loc, nullptr, p->getType(),
                                           p->getTypeSourceInfo(), SC_None, nullptr));
    m->setParams(params);
    m->setImplicit();
    slot = m;
    return m;
  }

  CompilerInstance &ci_;
  std::string root_;
  std::string working_dir_;
  PrintingPolicy policy_;
  const FunctionDecl *function_ = nullptr;
  llvm::StringMap<FunctionDecl *> markers_;
};

class MarkerConsumer : public ASTConsumer {
public:
  MarkerConsumer(CompilerInstance &ci, std::string root)
      : marker_(ci, std::move(root), working_dir(ci)) {}

  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl *d : group)
      marker_.TraverseDecl(d);
    return true;
  }
  void HandleInlineFunctionDefinition(FunctionDecl *fd) override { marker_.TraverseDecl(fd); }
  void HandleCXXStaticMemberVarInstantiation(VarDecl *vd) override { marker_.TraverseDecl(vd); }

private:
  static std::string working_dir(CompilerInstance &ci) {
    const std::string &set = ci.getFileSystemOpts().WorkingDir;
    if (!set.empty())
      return set;
    llvm::SmallString<256> cwd;
    if (llvm::sys::fs::current_path(cwd))
      return std::string();
    return std::string(cwd.str());
  }

  Marker marker_;
};

} // namespace

std::unique_ptr<clang::ASTConsumer> make_call_site_marker(clang::CompilerInstance &ci,
                                                          std::string root) {
  return std::make_unique<MarkerConsumer>(ci, std::move(root));
}

} // namespace pilgrim::plugin
