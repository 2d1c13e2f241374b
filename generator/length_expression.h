// Array-length expressions of the sidecars (docs/ANNOTATIONS.md, "Lengths"):
// parsed into a small tree, then lowered to the RPN program stored in the
// function table and to the C expression the wrappers evaluate.
#pragma once

#include "pilgrim/function_table.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pilgrim::gen {

struct LengthExpr {
  enum class Kind { Const, Param, Elem, Add, Sub, Mul, Call };
  Kind kind = Kind::Const;
  int64_t value = 0;                    // Const
  std::string name;                     // Param / Elem array / Call function name
  std::string arg;                      // Call: first argument (a parameter name)
  std::unique_ptr<LengthExpr> lhs, rhs; // binary ops; Elem: lhs = index; Call: lhs = 2nd arg
};

class LengthParseError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Parses `text`; throws LengthParseError with a one-line message.
std::unique_ptr<LengthExpr> parse_length(const std::string &text);

// Every parameter name the expression mentions.
void length_param_names(const LengthExpr &e, std::vector<std::string> &out);

// Lowers to RPN; `index_of` maps a parameter name to its position.
std::vector<LenInstr> length_to_rpn(const LengthExpr &e,
                                    const std::function<int(const std::string &)> &index_of);

// Lowers to a C++ expression; `value_of(name)` gives the C++ text of a
// parameter's (dereferenced) value, `array_of(name)` the parameter itself as
// an object: the array pointer, or the handle a length function asks about.
std::string length_to_cxx(const LengthExpr &e,
                          const std::function<std::string(const std::string &)> &value_of,
                          const std::function<std::string(const std::string &)> &array_of);

// True if the expression calls a function whose argument is `name`.
bool is_known_length_function(const std::string &fn);

} // namespace pilgrim::gen
