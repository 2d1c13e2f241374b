#include "length_expression.h"

#include <cctype>

namespace pilgrim::gen {
namespace {

struct FunctionSpec {
  const char *name;
  LenOp op;
  bool takes_count;    // second argument (sum(a, n))
  const char *runtime; // C++ helper in the runtime
};

const FunctionSpec kFunctions[] = {
    {"peers", LenOp::Peers, false, "::pilgrim::rt::len_peers"},
    {"comm_size", LenOp::CommSize, false, "::pilgrim::rt::len_comm_size"},
    {"indegree", LenOp::InDegree, false, "::pilgrim::rt::len_indegree"},
    {"outdegree", LenOp::OutDegree, false, "::pilgrim::rt::len_outdegree"},
    {"group_size", LenOp::GroupSize, false, "::pilgrim::rt::len_group_size"},
    {"sum", LenOp::Sum, true, "::pilgrim::rt::len_sum"},
    {"nullterm", LenOp::NullTerm, false, "::pilgrim::rt::len_nullterm"},
    {"cart_dim", LenOp::CartDim, false, "::pilgrim::rt::len_cart_dim"},
};

const FunctionSpec *find_function(const std::string &name) {
  for (const auto &f : kFunctions)
    if (name == f.name)
      return &f;
  return nullptr;
}

class Parser {
public:
  explicit Parser(const std::string &text) : s_(text) {}

  std::unique_ptr<LengthExpr> parse() {
    auto e = expr();
    skip();
    if (pos_ != s_.size())
      fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return e;
  }

private:
  [[noreturn]] void fail(const std::string &what) {
    throw LengthParseError("bad length expression '" + s_ + "': " + what);
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  static std::unique_ptr<LengthExpr> binary(LengthExpr::Kind k, std::unique_ptr<LengthExpr> a,
                                            std::unique_ptr<LengthExpr> b) {
    auto e = std::make_unique<LengthExpr>();
    e->kind = k;
    e->lhs = std::move(a);
    e->rhs = std::move(b);
    return e;
  }
  std::unique_ptr<LengthExpr> expr() {
    auto e = term();
    for (;;) {
      if (eat('+'))
        e = binary(LengthExpr::Kind::Add, std::move(e), term());
      else if (eat('-'))
        e = binary(LengthExpr::Kind::Sub, std::move(e), term());
      else
        return e;
    }
  }
  std::unique_ptr<LengthExpr> term() {
    auto e = factor();
    while (eat('*'))
      e = binary(LengthExpr::Kind::Mul, std::move(e), factor());
    return e;
  }
  std::string identifier() {
    skip();
    size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      ++pos_;
    if (start == pos_ || std::isdigit(static_cast<unsigned char>(s_[start])))
      fail("expected a parameter name");
    return s_.substr(start, pos_ - start);
  }
  std::unique_ptr<LengthExpr> factor() {
    skip();
    if (pos_ >= s_.size())
      fail("unexpected end");
    auto e = std::make_unique<LengthExpr>();
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      auto inner = expr();
      if (!eat(')'))
        fail("missing ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        v = v * 10 + (s_[pos_] - '0');
        if (v > (int64_t{1} << 40))
          fail("constant too large");
        ++pos_;
      }
      e->kind = LengthExpr::Kind::Const;
      e->value = v;
      return e;
    }
    std::string name = identifier();
    if (eat('(')) {
      const FunctionSpec *f = find_function(name);
      if (!f)
        fail("unknown function '" + name + "'");
      e->kind = LengthExpr::Kind::Call;
      e->name = name;
      e->arg = identifier();
      if (f->takes_count) {
        if (!eat(','))
          fail(name + "() takes two arguments");
        e->lhs = expr();
      }
      if (!eat(')'))
        fail("missing ')' after " + name + "(");
      return e;
    }
    if (eat('[')) {
      e->kind = LengthExpr::Kind::Elem;
      e->name = name;
      e->lhs = expr();
      if (!eat(']'))
        fail("missing ']'");
      return e;
    }
    e->kind = LengthExpr::Kind::Param;
    e->name = name;
    return e;
  }

  const std::string &s_;
  size_t pos_ = 0;
};

} // namespace

bool is_known_length_function(const std::string &fn) { return find_function(fn) != nullptr; }

std::unique_ptr<LengthExpr> parse_length(const std::string &text) { return Parser(text).parse(); }

void length_param_names(const LengthExpr &e, std::vector<std::string> &out) {
  switch (e.kind) {
  case LengthExpr::Kind::Const:
    return;
  case LengthExpr::Kind::Param:
    out.push_back(e.name);
    return;
  case LengthExpr::Kind::Elem:
    out.push_back(e.name);
    length_param_names(*e.lhs, out);
    return;
  case LengthExpr::Kind::Call:
    out.push_back(e.arg);
    if (e.lhs)
      length_param_names(*e.lhs, out);
    return;
  default:
    length_param_names(*e.lhs, out);
    length_param_names(*e.rhs, out);
  }
}

std::vector<LenInstr> length_to_rpn(const LengthExpr &e,
                                    const std::function<int(const std::string &)> &index_of) {
  std::vector<LenInstr> out;
  std::function<void(const LengthExpr &)> walk = [&](const LengthExpr &x) {
    switch (x.kind) {
    case LengthExpr::Kind::Const:
      out.push_back({LenOp::Const, static_cast<int32_t>(x.value)});
      return;
    case LengthExpr::Kind::Param:
      out.push_back({LenOp::Param, index_of(x.name)});
      return;
    case LengthExpr::Kind::Elem:
      walk(*x.lhs);
      out.push_back({LenOp::Elem, index_of(x.name)});
      return;
    case LengthExpr::Kind::Call:
      if (x.lhs)
        walk(*x.lhs);
      out.push_back({find_function(x.name)->op, index_of(x.arg)});
      return;
    case LengthExpr::Kind::Add:
    case LengthExpr::Kind::Sub:
    case LengthExpr::Kind::Mul:
      walk(*x.lhs);
      walk(*x.rhs);
      out.push_back({x.kind == LengthExpr::Kind::Add   ? LenOp::Add
                     : x.kind == LengthExpr::Kind::Sub ? LenOp::Sub
                                                       : LenOp::Mul,
                     0});
      return;
    }
  };
  walk(e);
  return out;
}

std::string length_to_cxx(const LengthExpr &e,
                          const std::function<std::string(const std::string &)> &value_of,
                          const std::function<std::string(const std::string &)> &array_of) {
  auto rec = [&](const LengthExpr &x) { return length_to_cxx(x, value_of, array_of); };
  switch (e.kind) {
  case LengthExpr::Kind::Const:
    return std::to_string(e.value);
  case LengthExpr::Kind::Param:
    return value_of(e.name);
  case LengthExpr::Kind::Elem:
    return "::pilgrim::rt::len_elem(" + array_of(e.name) + ", " + rec(*e.lhs) + ")";
  case LengthExpr::Kind::Call: {
    const FunctionSpec *f = find_function(e.name);
    std::string arg = array_of(e.arg);
    if (f->takes_count)
      return std::string(f->runtime) + "(" + arg + ", " + rec(*e.lhs) + ")";
    return std::string(f->runtime) + "(" + arg + ")";
  }
  case LengthExpr::Kind::Add:
    return "(" + rec(*e.lhs) + " + " + rec(*e.rhs) + ")";
  case LengthExpr::Kind::Sub:
    return "(" + rec(*e.lhs) + " - " + rec(*e.rhs) + ")";
  case LengthExpr::Kind::Mul:
    return "(" + rec(*e.lhs) + " * " + rec(*e.rhs) + ")";
  }
  return "0";
}

} // namespace pilgrim::gen
