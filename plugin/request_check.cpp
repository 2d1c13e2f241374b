#include "consumers.h"

#include <vector>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseSet.h"

#include "mpi_names.h"

namespace pilgrim::plugin {
namespace {

using namespace clang;

// Calls that start a request the program must complete: MPI_I* (the
// nonblocking operations, MPI_File_i* included) and the request-based RMA
// operations. Persistent requests (MPI_*_init) are left alone: completing
// one does not free it, a lifetime this check does not follow.
bool starts_request(llvm::StringRef name) {
  return name.startswith("MPI_I") || name.startswith("MPI_File_i") || name == "MPI_Rput" ||
         name == "MPI_Rget" || name == "MPI_Raccumulate" || name == "MPI_Rget_accumulate";
}

// Calls after which the request is no longer the program's worry on this
// path: completed (Wait*, and Test*, which may), or freed.
bool handles_request(llvm::StringRef name) {
  return name.startswith("MPI_Wait") || name.startswith("MPI_Test") || name == "MPI_Request_free";
}

bool is_request_pointer(QualType type) {
  const auto *pointer = type->getAs<PointerType>();
  if (pointer == nullptr)
    return false;
  const auto *typedef_type = pointer->getPointeeType()->getAs<TypedefType>();
  return typedef_type != nullptr && typedef_type->getDecl()->getName() == "MPI_Request";
}

// The local variable (automatic storage, in this function) whose storage
// the pointer `e` points into: &v, &v[i], v (an array), v + i. Null for
// anything else (a pointer variable, a member, the heap: not followed).
const VarDecl *local_storage(const Expr *e, const FunctionDecl *function) {
  e = e->IgnoreParenImpCasts();
  if (const auto *unary = dyn_cast<UnaryOperator>(e); unary && unary->getOpcode() == UO_AddrOf) {
    e = unary->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(e))
      e = subscript->getBase()->IgnoreParenImpCasts();
  } else if (const auto *binary = dyn_cast<BinaryOperator>(e); binary && binary->isAdditiveOp()) {
    e = binary->getLHS()->IgnoreParenImpCasts();
    if (!e->getType()->isArrayType())
      return nullptr;
  } else if (!e->getType()->isArrayType()) {
    return nullptr;
  }
  const auto *ref = dyn_cast<DeclRefExpr>(e);
  const auto *var = ref == nullptr ? nullptr : dyn_cast<VarDecl>(ref->getDecl());
  if (var == nullptr || !var->hasLocalStorage() || isa<ParmVarDecl>(var) ||
      var->getType()->isReferenceType())
    return nullptr;
  if (var->getParentFunctionOrMethod() != function)
    return nullptr; // a lambda's capture, say
  return var;
}

// What a mention of the tracked request variable does on a path.
enum class Role { kNeutral, kHandled, kStarted, kOverwritten };

class FunctionCheck {
public:
  FunctionCheck(CompilerInstance &ci, const FunctionDecl *function)
      : ci_(ci), function_(function), parents_(function->getBody()) {}

  void run() {
    CFG::BuildOptions options;
    options.AddLifetime = true;
    options.setAllAlwaysAdd();
    std::unique_ptr<CFG> cfg =
        CFG::buildCFG(function_, function_->getBody(), &function_->getASTContext(), options);
    if (cfg == nullptr)
      return;
    for (const CFGBlock *block : *cfg)
      for (size_t i = 0; i < block->size(); ++i)
        if (auto element = (*block)[i].getAs<CFGStmt>())
          if (const auto *call = dyn_cast<CallExpr>(element->getStmt()))
            check_start(call, block, i);
  }

private:
  struct Start {
    const CallExpr *call;
    llvm::StringRef name;
    const VarDecl *request; // local storage of the request
    const VarDecl *buffer;  // local storage of the buffer, or null
    bool scalar;            // a single MPI_Request, not an array of them
  };

  void check_start(const CallExpr *call, const CFGBlock *block, size_t index) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (callee == nullptr || !starts_request(callee->getName()))
      return;
    Start start{call, callee->getName(), nullptr, nullptr, false};
    for (unsigned a = 0; a < call->getNumArgs() && a < callee->getNumParams(); ++a) {
      QualType param = callee->getParamDecl(a)->getType();
      if (is_request_pointer(param)) {
        start.request = local_storage(call->getArg(a), function_);
        start.scalar = start.request != nullptr && !start.request->getType()->isArrayType();
      } else if (a == 0 && param->isVoidPointerType()) {
        start.buffer = local_storage(call->getArg(a), function_);
      }
    }
    if (start.request == nullptr)
      return;
    walk(start, block, index + 1);
  }

  // Depth-first over the paths from just after the call: each ends at a
  // handling of the request; the first problem found is reported.
  void walk(const Start &start, const CFGBlock *first, size_t first_index) {
    llvm::DenseSet<const CFGBlock *> seen;
    std::vector<std::pair<const CFGBlock *, size_t>> todo{{first, first_index}};
    while (!todo.empty()) {
      auto [block, index] = todo.back();
      todo.pop_back();
      bool path_done = false;
      for (size_t i = index; i < block->size() && !path_done; ++i) {
        const CFGElement &element = (*block)[i];
        if (auto ends = element.getAs<CFGLifetimeEnds>()) {
          const VarDecl *var = ends->getVarDecl();
          if (var == start.request)
            return report(start, ends->getTriggerStmt(), kRequestOutOfScope);
          if (var == start.buffer)
            return report(start, ends->getTriggerStmt(), kBufferOutOfScope);
          continue;
        }
        auto stmt = element.getAs<CFGStmt>();
        if (!stmt)
          continue;
        const auto *ref = dyn_cast<DeclRefExpr>(stmt->getStmt());
        if (ref == nullptr || ref->getDecl() != start.request)
          continue;
        switch (role(ref, start)) {
        case Role::kNeutral:
          break;
        case Role::kHandled:
          path_done = true;
          break;
        case Role::kStarted:
          // Started again before completion: an overwrite for a single
          // request; an array's next element otherwise.
          if (start.scalar)
            return report(start, ref, kOverwritten);
          path_done = true;
          break;
        case Role::kOverwritten:
          return report(start, ref, kOverwritten);
        }
      }
      // A loop that completes the request somewhere in its body (a test
      // loop, say) is taken to complete it on every path through it.
      if (path_done || handling_loops(start).count(block->getTerminatorStmt()) != 0)
        continue;
      for (const CFGBlock::AdjacentBlock &next : block->succs())
        if (const CFGBlock *b = next.getReachableBlock(); b != nullptr && seen.insert(b).second)
          todo.push_back({b, 0});
    }
  }

  // The loops whose bodies handle (complete, free, pass on) the request.
  const llvm::DenseSet<const Stmt *> &handling_loops(const Start &start) {
    auto [it, added] = loops_.try_emplace(start.request);
    if (!added)
      return it->second;
    struct Mentions : RecursiveASTVisitor<Mentions> {
      const VarDecl *var = nullptr;
      std::vector<const DeclRefExpr *> found;
      bool VisitDeclRefExpr(DeclRefExpr *ref) {
        if (ref->getDecl() == var)
          found.push_back(ref);
        return true;
      }
    } mentions;
    mentions.var = start.request;
    mentions.TraverseStmt(function_->getBody());
    llvm::DenseSet<const Stmt *> loops;
    for (const DeclRefExpr *ref : mentions.found) {
      if (role(ref, start) != Role::kHandled)
        continue;
      for (const Stmt *s = parents_.getParent(ref); s != nullptr; s = parents_.getParent(s))
        if (isa<WhileStmt, DoStmt, ForStmt, CXXForRangeStmt>(s))
          loops.insert(s);
    }
    it = loops_.find(start.request);
    it->second = std::move(loops);
    return it->second;
  }

  // The role of a mention of the request variable, from its context.
  Role role(const DeclRefExpr *ref, const Start &start) {
    const Stmt *child = ref;
    const Stmt *parent = parents_.getParent(child);
    while (parent != nullptr) {
      if (isa<ParenExpr, ImplicitCastExpr, ArraySubscriptExpr>(parent) ||
          (isa<UnaryOperator>(parent) && cast<UnaryOperator>(parent)->getOpcode() == UO_AddrOf) ||
          (isa<BinaryOperator>(parent) && cast<BinaryOperator>(parent)->isAdditiveOp())) {
        if (const auto *cast_expr = dyn_cast<ImplicitCastExpr>(parent);
            cast_expr && cast_expr->getCastKind() == CK_LValueToRValue) {
          // The request's value is read: copied somewhere, or compared with
          // MPI_REQUEST_NULL by a program that follows its state itself.
          // Handled either way, conservatively.
          return Role::kHandled;
        }
        child = parent;
        parent = parents_.getParent(child);
        continue;
      }
      break;
    }
    if (const auto *call = dyn_cast_or_null<CallExpr>(parent); call && call->getCallee() != child) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (callee == nullptr || !is_mpi_function(callee->getName()))
        return Role::kHandled; // escapes
      if (handles_request(callee->getName()))
        return Role::kHandled;
      if (starts_request(callee->getName()))
        return call == start.call ? Role::kNeutral : Role::kStarted;
      return Role::kNeutral; // MPI_Request_get_status, MPI_Start, ...
    }
    if (const auto *assign = dyn_cast_or_null<BinaryOperator>(parent);
        assign && assign->isAssignmentOp() && assign->getLHS() == child)
      return start.scalar ? Role::kOverwritten : Role::kHandled;
    return Role::kHandled; // stored, returned, passed on: assumed handled
  }

  enum Problem { kRequestOutOfScope, kBufferOutOfScope, kOverwritten };

  void report(const Start &start, const Stmt *where, Problem problem) {
    DiagnosticsEngine &diags = ci_.getDiagnostics();
    using Level = DiagnosticsEngine::Level;
    unsigned text = 0;
    unsigned note = 0;
    const VarDecl *var = start.request;
    switch (problem) {
    case kRequestOutOfScope:
      text = diags.getCustomDiagID(
          Level::Warning,
          "request '%0' of this %1 goes out of scope before it is completed or freed");
      note = diags.getCustomDiagID(Level::Note, "'%0' goes out of scope here");
      break;
    case kBufferOutOfScope:
      text = diags.getCustomDiagID(
          Level::Warning,
          "buffer '%0' of this %1 goes out of scope before its request is completed");
      note = diags.getCustomDiagID(Level::Note, "'%0' goes out of scope here");
      var = start.buffer;
      break;
    case kOverwritten:
      text = diags.getCustomDiagID(
          Level::Warning, "request '%0' of this %1 is overwritten before it is completed or freed");
      note = diags.getCustomDiagID(Level::Note, "'%0' is overwritten here");
      break;
    }
    diags.Report(start.call->getBeginLoc(), text) << var->getName() << start.name;
    SourceLocation at = where == nullptr ? function_->getBodyRBrace() : where->getEndLoc();
    if (const auto *compound = dyn_cast_or_null<CompoundStmt>(where))
      at = compound->getRBracLoc();
    if (at.isValid())
      diags.Report(at, note) << var->getName();
  }

  CompilerInstance &ci_;
  const FunctionDecl *function_;
  ParentMap parents_;
  llvm::DenseMap<const VarDecl *, llvm::DenseSet<const Stmt *>> loops_;
};

// Finds, in what will be compiled, the functions (and lambdas) that start a
// request, and checks each.
class Finder : public RecursiveASTVisitor<Finder> {
public:
  explicit Finder(CompilerInstance &ci) : ci_(ci) {}

  bool TraverseDecl(Decl *d) {
    if (d == nullptr)
      return true;
    if (const auto *dc = dyn_cast<DeclContext>(d); dc != nullptr && dc->isDependentContext())
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    check(fd);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *e) {
    check(e->getCallOperator());
    return true;
  }

private:
  struct HasStart : RecursiveASTVisitor<HasStart> {
    bool found = false;
    bool VisitCallExpr(CallExpr *call) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (callee != nullptr && callee->isExternC() && starts_request(callee->getName()))
        found = true;
      return !found;
    }
  };

  void check(FunctionDecl *fd) {
    if (!fd->doesThisDeclarationHaveABody() || fd->isDependentContext() ||
        !checked_.insert(fd).second)
      return;
    if (ci_.getSourceManager().isInSystemHeader(fd->getLocation()))
      return;
    HasStart has;
    has.TraverseStmt(fd->getBody());
    if (has.found)
      FunctionCheck(ci_, fd).run();
  }

  CompilerInstance &ci_;
  llvm::DenseSet<const FunctionDecl *> checked_;
};

class CheckConsumer : public ASTConsumer {
public:
  explicit CheckConsumer(CompilerInstance &ci) : finder_(ci) {}
  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl *d : group)
      finder_.TraverseDecl(d);
    return true;
  }
  void HandleInlineFunctionDefinition(FunctionDecl *fd) override { finder_.TraverseDecl(fd); }

private:
  Finder finder_;
};

} // namespace

std::unique_ptr<ASTConsumer> make_request_check(CompilerInstance &ci) {
  return std::make_unique<CheckConsumer>(ci);
}

} // namespace pilgrim::plugin
