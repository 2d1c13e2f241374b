#include "header_model.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace pilgrim::gen {
namespace {

const std::map<std::string, CType> kTypedefs = {
    {"MPI_Comm", CType::Handle},     {"MPI_Group", CType::Handle},
    {"MPI_Datatype", CType::Handle}, {"MPI_Op", CType::Handle},
    {"MPI_Info", CType::Handle},     {"MPI_Errhandler", CType::Handle},
    {"MPI_File", CType::Handle},     {"MPI_Win", CType::Handle},
    {"MPI_Request", CType::Handle},  {"MPI_Message", CType::Handle},
    {"MPI_Session", CType::Handle},  {"MPI_Aint", CType::Aint},
    {"MPI_Count", CType::Count},     {"MPI_Offset", CType::Offset},
    {"MPI_Fint", CType::Fint},       {"MPI_Status", CType::Status},
};

CType builtin_ctype(const clang::BuiltinType *bt) {
  using K = clang::BuiltinType::Kind;
  switch (bt->getKind()) {
  case K::Void:
    return CType::Void;
  case K::Int:
  case K::UInt:
  case K::Short:
  case K::UShort:
    return CType::Int;
  case K::Long:
  case K::ULong:
  case K::LongLong:
  case K::ULongLong:
    return CType::Long;
  case K::Char_S:
  case K::Char_U:
  case K::SChar:
  case K::UChar:
    return CType::Char;
  case K::Double:
    return CType::Double;
  default:
    return CType::Other;
  }
}

// Strips sugar that carries no name (parens, elaborated, attributed).
clang::QualType strip_nameless(clang::QualType t) {
  for (;;) {
    if (auto *p = llvm::dyn_cast<clang::ParenType>(t.getTypePtr()))
      t = p->getInnerType().withFastQualifiers(t.getLocalFastQualifiers());
    else if (auto *e = llvm::dyn_cast<clang::ElaboratedType>(t.getTypePtr()))
      t = e->getNamedType().withFastQualifiers(t.getLocalFastQualifiers());
    else if (auto *a = llvm::dyn_cast<clang::AttributedType>(t.getTypePtr()))
      t = a->getModifiedType().withFastQualifiers(t.getLocalFastQualifiers());
    else
      return t;
  }
}

void classify(clang::QualType t, HeaderParam &p) {
  bool first_level = true;
  for (;;) {
    t = strip_nameless(t);
    if (auto *td = llvm::dyn_cast<clang::TypedefType>(t.getTypePtr())) {
      std::string name = td->getDecl()->getName().str();
      auto it = kTypedefs.find(name);
      if (it != kTypedefs.end()) {
        p.base_name = name;
        p.base = it->second;
        if (p.pointer_depth > 0 && t.isConstQualified())
          p.is_const = true;
        return;
      }
      clang::QualType under = td->desugar();
      if (under->isFunctionType()) {
        p.base_name = name;
        p.base = CType::Function;
        p.is_function = true;
        if (p.pointer_depth > 0)
          --p.pointer_depth; // `F *fn` is one function pointer
        return;
      }
      t = under.withFastQualifiers(t.getLocalFastQualifiers());
      continue;
    }
    if (auto *at = llvm::dyn_cast<clang::ArrayType>(t.getTypePtr())) {
      if (first_level)
        p.is_array = true;
      else if (auto *ca = llvm::dyn_cast<clang::ConstantArrayType>(at);
               ca && ca->getSize() == 3 && p.is_array && p.pointer_depth == 1)
        p.is_matrix3 = true;
      ++p.pointer_depth;
      first_level = false;
      t = at->getElementType();
      continue;
    }
    if (auto *pt = llvm::dyn_cast<clang::PointerType>(t.getTypePtr())) {
      clang::QualType pointee = pt->getPointeeType();
      if (strip_nameless(pointee)->isFunctionType()) {
        p.base = CType::Function;
        p.is_function = true;
        // `MPI_Comm_copy_attr_function *fn`: the callback type's own name,
        // which tells apart predefined callbacks that share one function.
        auto *td = llvm::dyn_cast<clang::TypedefType>(strip_nameless(pointee).getTypePtr());
        p.base_name = td ? td->getDecl()->getName().str() : "function";
        return;
      }
      ++p.pointer_depth;
      first_level = false;
      t = pointee;
      if (p.pointer_depth == 1 && pointee.isConstQualified())
        p.is_const = true;
      continue;
    }
    if (auto *bt = llvm::dyn_cast<clang::BuiltinType>(t.getTypePtr())) {
      p.base = builtin_ctype(bt);
      p.base_name = t.getUnqualifiedType().getAsString();
      if (p.pointer_depth > 0 && t.isConstQualified())
        p.is_const = true;
      return;
    }
    p.base = CType::Other;
    p.base_name = t.getAsString();
    return;
  }
}

class Collector : public clang::ASTConsumer {
public:
  explicit Collector(HeaderModel &out) : out_(out) {}

  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    clang::PrintingPolicy pp(ctx.getLangOpts());
    pp.SuppressTagKeyword = false;
    std::map<std::string, HeaderFunction> mpi;
    std::set<std::string> pmpi;
    std::set<std::string> ext;
    for (clang::Decl *d : ctx.getTranslationUnitDecl()->decls()) {
      auto *fd = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!fd || !fd->getIdentifier())
        continue;
      std::string name = fd->getName().str();
      if (name.rfind("PMPI_", 0) == 0) {
        pmpi.insert(name.substr(1));
        continue;
      }
      if (name.rfind("MPIX_", 0) == 0) {
        ext.insert(name);
        continue;
      }
      if (name.rfind("MPI_", 0) != 0 || mpi.count(name))
        continue;
      HeaderFunction f;
      f.name = name;
      f.return_type = fd->getReturnType().getAsString(pp);
      HeaderParam ret;
      classify(fd->getReturnType(), ret);
      f.return_base = ret.base;
      f.variadic = fd->isVariadic();
      auto ploc = ctx.getSourceManager().getPresumedLoc(fd->getLocation());
      if (ploc.isValid())
        f.location = std::string(ploc.getFilename()) + ":" + std::to_string(ploc.getLine());
      for (const clang::ParmVarDecl *pd : fd->parameters()) {
        HeaderParam p;
        p.header_name = pd->getName().str();
        clang::QualType t = pd->getOriginalType();
        p.type = t.getAsString(pp);
        std::string pattern;
        llvm::raw_string_ostream os(pattern);
        t.print(os, pp, "@NAME@");
        os.flush();
        p.decl_pattern = pattern;
        classify(t, p);
        f.params.push_back(std::move(p));
      }
      mpi.emplace(name, std::move(f));
    }
    for (auto &kv : mpi) {
      kv.second.has_pmpi = pmpi.count(kv.first) > 0;
      if (kv.second.has_pmpi)
        out_.functions.push_back(std::move(kv.second));
      else
        out_.without_pmpi.push_back(kv.first);
    }
    out_.extensions.assign(ext.begin(), ext.end());
  }

private:
  HeaderModel &out_;
};

class CollectAction : public clang::ASTFrontendAction {
public:
  explicit CollectAction(HeaderModel &out) : out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<Collector>(out_);
  }

private:
  HeaderModel &out_;
};

}  // namespace

std::string HeaderParam::declare(const std::string &name) const {
  std::string s = decl_pattern;
  auto pos = s.find("@NAME@");
  if (pos == std::string::npos)
    return s + " " + name;
  return s.replace(pos, 6, name);
}

bool read_header(const std::string &header, const std::vector<std::string> &clang_args,
                 HeaderModel &out) {
  // A translation unit that includes the header, as an application does.
  std::string code = "#include \"" + header + "\"\n";
  std::vector<std::string> args = {"-x", "c", "-std=gnu11", "-fsyntax-only"};
  args.insert(args.end(), clang_args.begin(), clang_args.end());
  // The header's own folder, searched after the caller's -I flags: MPICH's
  // mpi.h includes <mpi_proto.h> from beside itself.
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::absolute(header, ec).parent_path();
  if (!ec && !folder.empty())
    args.push_back("-I" + folder.string());
  return clang::tooling::runToolOnCodeWithArgs(std::make_unique<CollectAction>(out), code, args,
                                               "pilgrim-mpi-header-probe.c",
                                               "pilgrim-gen-wrappers");
}

}  // namespace pilgrim::gen
