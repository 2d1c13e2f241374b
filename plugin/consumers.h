// The AST consumers of the front-end plugin (plugin_action.cpp chains them:
// the check first, since it reads MPI callees by name, which the marker then
// redirects).
#pragma once

#include <memory>
#include <string>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace pilgrim::plugin {

// The front-end half of the call-site ids (call_site_marker.cpp): every call
// of an MPI_* function (not PMPI_*, mpi_names.h) in code that will be compiled is
// redirected, in the AST and before code generation sees it, to a marker
// declaration named __pilgrim_site.<id>.<callee> with the callee's type. The
// pass (lowering_pass.cpp) turns each marker call back into a call of the
// callee, preceded by the one thread-local store of <id>. Site paths are
// relative to `root` (empty: the compilation directory).
std::unique_ptr<clang::ASTConsumer> make_call_site_marker(clang::CompilerInstance &ci,
                                                          std::string root);

// The static check of nonblocking calls (request_check.cpp; README,
// "Compiler plugin"): warns where a request or buffer of a nonblocking call
// is a local variable whose lifetime ends before a completing call, and where
// a request is overwritten or goes out of scope without being completed or
// freed.
std::unique_ptr<clang::ASTConsumer> make_request_check(clang::CompilerInstance &ci);

} // namespace pilgrim::plugin
