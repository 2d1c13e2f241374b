// The pass half of pilgrim.so (loaded as a pass plugin by the front end,
// see plugin_action.cpp). At the start of the optimisation pipeline, at
// every -O level:
//  * each call of a marker __pilgrim_site.<id>.<callee> becomes
//      store i64 <id>, @__pilgrim_site_slot (thread-local); call <callee>
//  * the module gets its site table (id, file, function, line, column) and a
//    constructor that hands the table and the slot's address function to
//    pilgrim_plugin_register_sites_v1 (runtime/sites/plugin_sites.h) when a tracer
//    defines it, found as a weak reference or else with
//    dlsym(RTLD_DEFAULT, ...), which also finds it in an LD_PRELOADed
//    library that a non-PIE executable's weak reference was resolved without;
//  * the pragma functions get bodies that call the weak hooks the same way.
// A program run without the tracer only stores to its own thread-local.
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "plugin_state.h"

namespace pilgrim::plugin {
namespace {

using namespace llvm;

constexpr const char *kSlot = "__pilgrim_site_slot";
constexpr const char *kSlotAddress = "__pilgrim_site_slot_address";
constexpr const char *kRegister = "pilgrim_plugin_register_sites_v1";

class Lowering {
public:
  explicit Lowering(Module &m) : m_(m), ctx_(m.getContext()), i8p_(Type::getInt8PtrTy(ctx_)) {}

  bool run() {
    bool changed = lower_sites();
    changed |= lower_pragma(kPragmaPhase, "pilgrim_phase");
    changed |= lower_pragma(kPragmaTraceOff, "pilgrim_trace_off");
    changed |= lower_pragma(kPragmaTraceOn, "pilgrim_trace_on");
    return changed;
  }

private:
  bool lower_sites() {
    std::vector<Function *> markers;
    for (Function &f : m_)
      if (f.getName().startswith(kMarkerPrefix))
        markers.push_back(&f);
    if (markers.empty())
      return false;
    GlobalVariable *slot = slot_variable();
    std::vector<uint64_t> ids;
    for (Function *marker : markers) {
      StringRef rest = marker->getName().drop_front(StringRef(kMarkerPrefix).size());
      uint64_t id = 0;
      if (rest.size() < 18 || rest.substr(0, 16).getAsInteger(16, id) || rest[16] != '.')
        continue;
      StringRef callee_name = rest.drop_front(17);
      FunctionCallee callee = m_.getOrInsertFunction(callee_name, marker->getFunctionType());
      if (auto *real = dyn_cast<Function>(callee.getCallee()); real && real->isDeclaration()) {
        // The MPI library's function, whatever -fvisibility says.
        real->setVisibility(GlobalValue::DefaultVisibility);
        real->setDSOLocal(false);
      }
      bool used = false;
      for (Use &use : make_early_inc_range(marker->uses())) {
        auto *call = dyn_cast<CallBase>(use.getUser());
        if (call == nullptr || !call->isCallee(&use))
          continue;
        IRBuilder<> b(call);
        b.CreateStore(b.getInt64(id), slot);
        call->setCalledOperand(callee.getCallee());
        used = true;
      }
      if (!marker->use_empty())
        marker->replaceAllUsesWith(
            ConstantExpr::getBitCast(cast<Constant>(callee.getCallee()), marker->getType()));
      marker->eraseFromParent();
      if (used)
        ids.push_back(id);
    }
    if (!ids.empty())
      register_table(ids);
    return true;
  }

  // One thread-local id per shared object: linkonce_odr and hidden, so the
  // translation units of one executable or library share it.
  GlobalVariable *slot_variable() {
    Type *i64 = Type::getInt64Ty(ctx_);
    auto *slot = dyn_cast_or_null<GlobalVariable>(m_.getNamedValue(kSlot));
    if (slot == nullptr) {
      slot = new GlobalVariable(m_, i64, false, GlobalValue::LinkOnceODRLinkage,
                                ConstantInt::get(i64, 0), kSlot, nullptr,
                                GlobalValue::GeneralDynamicTLSModel);
      slot->setVisibility(GlobalValue::HiddenVisibility);
      slot->setDSOLocal(true);
      slot->setComdat(m_.getOrInsertComdat(kSlot));
    }
    return slot;
  }

  // uint64_t* __pilgrim_site_slot_address(void): the calling thread's slot.
  Function *slot_address(GlobalVariable *slot) {
    if (Function *f = m_.getFunction(kSlotAddress))
      return f;
    auto *type = FunctionType::get(slot->getType(), false);
    Function *f = Function::Create(type, GlobalValue::LinkOnceODRLinkage, kSlotAddress, m_);
    f->setVisibility(GlobalValue::HiddenVisibility);
    f->setDSOLocal(true);
    f->setComdat(m_.getOrInsertComdat(kSlotAddress));
    f->addFnAttr(Attribute::NoUnwind);
    IRBuilder<> b(BasicBlock::Create(ctx_, "", f));
    b.CreateRet(slot);
    return f;
  }

  Constant *cstring(StringRef text) {
    Constant *&out = strings_[text];
    if (out == nullptr) {
      Constant *data = ConstantDataArray::getString(ctx_, text);
      auto *gv = new GlobalVariable(m_, data->getType(), true, GlobalValue::PrivateLinkage, data,
                                    ".pilgrim.str");
      gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
      gv->setAlignment(Align(1));
      out = ConstantExpr::getPointerCast(gv, i8p_);
    }
    return out;
  }

  // The callee of a weak hook `name` of type `type`: the weak reference when
  // the link resolved it, else what dlsym(RTLD_DEFAULT, name) finds, looked
  // up once and kept in a private cache (1 standing for "absent"). Emits the
  // choice at `b` and returns the pointer (null when absent) cast to the
  // hook's type.
  Value *find_hook(IRBuilder<> &b, StringRef name, FunctionType *type) {
    FunctionCallee weak = m_.getOrInsertFunction(name, type);
    if (auto *f = dyn_cast<Function>(weak.getCallee()); f && f->isDeclaration())
      f->setLinkage(GlobalValue::ExternalWeakLinkage);
    FunctionCallee dlsym = m_.getOrInsertFunction("dlsym", i8p_, i8p_, i8p_);
    auto *cache = new GlobalVariable(m_, i8p_, false, GlobalValue::InternalLinkage,
                                     ConstantPointerNull::get(i8p_), ".pilgrim.hook");
    Constant *absent = ConstantExpr::getIntToPtr(b.getInt64(1), i8p_);
    Value *weak_ptr = b.CreatePointerCast(weak.getCallee(), i8p_);
    Function *f = b.GetInsertBlock()->getParent();
    BasicBlock *here = b.GetInsertBlock();
    BasicBlock *lookup = BasicBlock::Create(ctx_, "lookup", f);
    BasicBlock *resolve = BasicBlock::Create(ctx_, "resolve", f);
    BasicBlock *cached = BasicBlock::Create(ctx_, "cached", f);
    BasicBlock *done = BasicBlock::Create(ctx_, "found", f);
    b.CreateCondBr(b.CreateIsNotNull(weak_ptr), done, lookup);
    b.SetInsertPoint(lookup);
    LoadInst *seen = b.CreateLoad(i8p_, cache);
    seen->setAtomic(AtomicOrdering::Monotonic);
    seen->setAlignment(Align(8));
    b.CreateCondBr(b.CreateIsNull(seen), resolve, cached);
    b.SetInsertPoint(resolve);
    Value *looked_up = b.CreateCall(dlsym, {ConstantPointerNull::get(i8p_), cstring(name)});
    Value *to_keep = b.CreateSelect(b.CreateIsNull(looked_up), absent, looked_up);
    StoreInst *keep = b.CreateStore(to_keep, cache);
    keep->setAtomic(AtomicOrdering::Monotonic);
    keep->setAlignment(Align(8));
    b.CreateBr(cached);
    b.SetInsertPoint(cached);
    PHINode *kept = b.CreatePHI(i8p_, 2);
    kept->addIncoming(seen, lookup);
    kept->addIncoming(to_keep, resolve);
    Value *found =
        b.CreateSelect(b.CreateICmpEQ(kept, absent), ConstantPointerNull::get(i8p_), kept);
    b.CreateBr(done);
    b.SetInsertPoint(done);
    PHINode *hook = b.CreatePHI(i8p_, 2);
    hook->addIncoming(weak_ptr, here);
    hook->addIncoming(found, cached);
    return b.CreatePointerCast(hook, type->getPointerTo());
  }

  // if (hook) hook(args...); at b, which ends its block.
  void call_if_present(IRBuilder<> &b, Value *hook, FunctionType *type, ArrayRef<Value *> args) {
    Function *f = b.GetInsertBlock()->getParent();
    BasicBlock *call = BasicBlock::Create(ctx_, "call", f);
    BasicBlock *end = BasicBlock::Create(ctx_, "end", f);
    b.CreateCondBr(b.CreateIsNotNull(hook), call, end);
    b.SetInsertPoint(call);
    b.CreateCall(type, hook, args);
    b.CreateBr(end);
    b.SetInsertPoint(end);
    b.CreateRetVoid();
  }

  void register_table(std::vector<uint64_t> &ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    Type *i32 = Type::getInt32Ty(ctx_);
    Type *i64 = Type::getInt64Ty(ctx_);
    // struct pilgrim_plugin_site_entry (runtime/sites/plugin_sites.h)
    StructType *entry = StructType::get(ctx_, {i64, i8p_, i8p_, i32, i32});
    std::vector<Constant *> rows;
    for (uint64_t id : ids) {
      auto found = state().sites.find(id);
      SiteRecord unknown{"?", 0, 0, "?"};
      const SiteRecord &site = found == state().sites.end() ? unknown : found->second;
      rows.push_back(ConstantStruct::get(
          entry, {ConstantInt::get(i64, id), cstring(site.file), cstring(site.function),
                  ConstantInt::get(i32, site.line), ConstantInt::get(i32, site.column)}));
    }
    ArrayType *table_type = ArrayType::get(entry, rows.size());
    auto *table = new GlobalVariable(m_, table_type, true, GlobalValue::PrivateLinkage,
                                     ConstantArray::get(table_type, rows), ".pilgrim.sites");
    Function *address = slot_address(slot_variable());
    auto *reg_type = FunctionType::get(Type::getVoidTy(ctx_),
                                       {entry->getPointerTo(), i64, address->getType()}, false);
    Function *ctor = Function::Create(FunctionType::get(Type::getVoidTy(ctx_), false),
                                      GlobalValue::InternalLinkage, "__pilgrim_sites_register", m_);
    ctor->addFnAttr(Attribute::NoUnwind);
    IRBuilder<> b(BasicBlock::Create(ctx_, "", ctor));
    Value *reg = find_hook(b, kRegister, reg_type);
    Constant *first = ConstantExpr::getInBoundsGetElementPtr(
        table_type, table, ArrayRef<Constant *>{b.getInt64(0), b.getInt64(0)});
    call_if_present(b, reg, reg_type, {first, b.getInt64(rows.size()), address});
    appendToGlobalCtors(m_, ctor, 65535);
  }

  // The body of a pragma function: call the hook if present.
  bool lower_pragma(StringRef pragma, StringRef hook_name) {
    Function *f = m_.getFunction(pragma);
    if (f == nullptr || !f->isDeclaration())
      return false;
    if (f->use_empty()) {
      f->eraseFromParent();
      return true;
    }
    f->setLinkage(GlobalValue::InternalLinkage);
    f->setVisibility(GlobalValue::DefaultVisibility);
    f->addFnAttr(Attribute::NoInline);
    IRBuilder<> b(BasicBlock::Create(ctx_, "", f));
    std::vector<Value *> args;
    for (Argument &a : f->args())
      args.push_back(&a);
    Value *hook = find_hook(b, hook_name, f->getFunctionType());
    call_if_present(b, hook, f->getFunctionType(), args);
    return true;
  }

  Module &m_;
  LLVMContext &ctx_;
  PointerType *i8p_;
  StringMap<Constant *> strings_;
};

struct LoweringPass : PassInfoMixin<LoweringPass> {
  PreservedAnalyses run(Module &m, ModuleAnalysisManager &) {
    bool changed = Lowering(m).run();
    state().sites.clear();
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

} // namespace
} // namespace pilgrim::plugin

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "pilgrim", "1", [](llvm::PassBuilder &pb) {
            pb.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
                  mpm.addPass(pilgrim::plugin::LoweringPass());
                });
          }};
}
