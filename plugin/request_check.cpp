#include "request_check.h"

#include "clang/AST/ASTConsumer.h"

namespace pilgrim::plugin {

std::unique_ptr<clang::ASTConsumer> make_request_check(clang::CompilerInstance &) {
  return std::make_unique<clang::ASTConsumer>();
}

} // namespace pilgrim::plugin
