// The encoding statements of one function, as its PMPI wrapper runs them:
//
//   <prologue: the in-values>  rc_ = PMPI_X(...);  <epilogue: the out-values>
//
// written against the names the wrapper gives the parameters (the sidecar's),
// a `::pilgrim::rt::Call c_` and the return code `rc_`. The wrappers
// (wrapper_emitter.cpp) and the encoding driver of test/encoding
// (encoding_driver_emitter.cpp) both use it, so the test drives exactly the
// statements the wrappers run.
#pragma once

#include "function_join.h"

#include <memory>
#include <ostream>

namespace pilgrim::gen {

class EncodingWriter {
public:
  EncodingWriter(const JoinedFunction &f, std::ostream &out);
  ~EncodingWriter();
  // Before the MPI call: the in-values (and every buffer), and the handles a
  // Free action needs to remember (`before_NAME_`).
  void prologue();
  // After the MPI call: the out-values, then the requests the call created.
  void epilogue();

private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace pilgrim::gen
