// The front-end half of the call-site ids: every call of an MPI_* or
// PMPI_* function in code that will be compiled is redirected, in the AST
// and before code generation sees it, to a marker declaration named
// __pilgrim_site.<id>.<callee> with the callee's type. The pass
// (lowering_pass.cpp) turns each marker call back into a call of the callee,
// preceded by the one thread-local store of <id>.
#pragma once

#include <memory>
#include <string>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace pilgrim::plugin {

std::unique_ptr<clang::ASTConsumer> make_call_site_marker(clang::CompilerInstance &ci,
                                                          std::string root);

} // namespace pilgrim::plugin
