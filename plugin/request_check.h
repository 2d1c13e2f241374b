// The static check of nonblocking calls (README, "Compiler plugin"): warns
// where a request or buffer of a nonblocking call is a local variable whose
// lifetime ends before a completing call, and where a request is overwritten
// or goes out of scope without being completed or freed.
#pragma once

#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace pilgrim::plugin {

std::unique_ptr<clang::ASTConsumer> make_request_check(clang::CompilerInstance &ci);

} // namespace pilgrim::plugin
