#include "call_shapes.h"

#include <cctype>

namespace pilgrim::proxygen {

namespace {

enum class Kind { Space, Comment, String, Char, Number, Ident, Punct };

struct Token {
  Kind kind;
  std::string text;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The emitter's C++ as tokens; concatenating their texts gives it back.
std::vector<Token> tokenize(const std::string &s) {
  std::vector<Token> out;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    const size_t start = i;
    const char c = s[i];
    Kind kind;
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (i < n && std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
      kind = Kind::Space;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n')
        ++i;
      kind = Kind::Comment;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? n : end + 2;
      kind = Kind::Comment;
    } else if (c == '"' || c == '\'') {
      for (++i; i < n && s[i] != c; ++i)
        if (s[i] == '\\')
          ++i;
      i = i < n ? i + 1 : n;
      kind = c == '"' ? Kind::String : Kind::Char;
    } else if (digit(c) || (c == '.' && i + 1 < n && digit(s[i + 1]))) {
      const bool hex = c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X');
      for (++i; i < n; ++i) {
        const char d = s[i];
        const char p = s[i - 1];
        if (ident_char(d) || d == '.')
          continue;
        if ((d == '+' || d == '-') && (hex ? (p == 'p' || p == 'P') : (p == 'e' || p == 'E')))
          continue;
        break;
      }
      kind = Kind::Number;
    } else if (ident_start(c)) {
      while (i < n && ident_char(s[i]))
        ++i;
      kind = Kind::Ident;
    } else {
      ++i;
      kind = Kind::Punct;
    }
    out.push_back({kind, s.substr(start, i - start)});
  }
  return out;
}

bool significant(const Token &t) { return t.kind != Kind::Space && t.kind != Kind::Comment; }

// The type of a number's column outside an initializer.
std::string number_type(const std::string &text) {
  const bool hex = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (!hex && text.find_first_of(".eE") != std::string::npos)
    return "double";
  return text.find_first_of("uU") != std::string::npos ? "unsigned long long" : "long long";
}

// The element type of the array whose braced initializer opens at token
// `open` (`TYPE name[N]... = {`), or "" when the brace opens no initializer.
std::string initializer_type(const std::vector<Token> &t, size_t open) {
  std::vector<size_t> sig; // significant tokens before `open`, nearest first
  for (size_t k = open; k-- > 0;) {
    if (!significant(t[k]))
      continue;
    const std::string &x = t[k].text;
    if (x == ";" || x == "{" || x == "}")
      break;
    sig.push_back(k);
  }
  if (sig.size() < 2 || t[sig[0]].text != "=" || t[sig[1]].text != "]")
    return "";
  // Skip the declarator's brackets back to its name.
  size_t at = 1;
  while (at < sig.size() && t[sig[at]].text == "]") {
    while (at < sig.size() && t[sig[at]].text != "[")
      ++at;
    ++at;
  }
  if (at >= sig.size() || t[sig[at]].kind != Kind::Ident)
    return "";
  std::string type;
  for (size_t k = sig.size(); k-- > at + 1;) {
    const std::string &x = t[sig[k]].text;
    if (x == "const" || x == "static" || x == "constexpr")
      continue;
    if (!type.empty() && (ident_char(type.back()) && ident_char(x[0])))
      type += ' ';
    type += x;
  }
  return type;
}

std::string marker(size_t k) { return "\x01" + std::to_string(k) + "\x02"; }

} // namespace

ShapedLines shape_of(const std::vector<std::string> &lines) {
  std::string joined;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i)
      joined += '\n';
    joined += lines[i];
  }
  const std::vector<Token> t = tokenize(joined);
  ShapedLines out;
  std::vector<std::string> braces; // per open brace: its initializer's type, or ""
  auto previous = [&t](size_t k, size_t back) -> const Token * {
    for (size_t j = k; j-- > 0;)
      if (significant(t[j]) && back-- == 0)
        return &t[j];
    return nullptr;
  };
  auto next = [&t](size_t k) -> const Token * {
    for (size_t j = k + 1; j < t.size(); ++j)
      if (significant(t[j]))
        return &t[j];
    return nullptr;
  };
  for (size_t k = 0; k < t.size(); ++k) {
    const Token &x = t[k];
    if (x.kind == Kind::Punct && x.text == "{") {
      const std::string type = initializer_type(t, k);
      braces.push_back(!type.empty() ? type : (!braces.empty() ? braces.back() : ""));
    } else if (x.kind == Kind::Punct && x.text == "}" && !braces.empty()) {
      braces.pop_back();
    }
    bool hole = false;
    std::string type;
    if (x.kind == Kind::Number || x.kind == Kind::String) {
      const Token *p = previous(k, 0), *p2 = previous(k, 1), *nx = next(k);
      const std::string pt = p ? p->text : "", p2t = p2 ? p2->text : "";
      const bool structural = pt == "[" || pt == "<" || pt == "case" || (nx && nx->text == ">");
      if (x.kind == Kind::String) {
        // A char array's initializer, or a builtin's constant argument.
        hole = !(pt == "=" && p2t == "]") && !(pt == "(" && p2t.rfind("__builtin", 0) == 0);
        type = "const char *";
      } else if (!structural) {
        hole = true;
        type = !braces.empty() && !braces.back().empty() ? braces.back() : number_type(x.text);
      }
    }
    if (hole) {
      out.text += marker(out.holes.size());
      out.holes.push_back({type, x.text});
    } else {
      out.text += x.text;
    }
  }
  return out;
}

std::pair<uint32_t, uint32_t> CallShapes::add(uint64_t call,
                                              const std::vector<std::string> &lines) {
  auto known = calls_.find(call);
  if (known != calls_.end())
    return known->second;
  const ShapedLines s = shape_of(lines);
  std::string key = s.text;
  for (const Hole &h : s.holes)
    key += "\x03" + h.type;
  auto it = index_.find(key);
  if (it == index_.end()) {
    Shape shape;
    shape.text = s.text;
    for (const Hole &h : s.holes)
      shape.types.push_back(h.type);
    shape.values.resize(s.holes.size());
    shapes_.push_back(std::move(shape));
    it = index_.emplace(key, static_cast<uint32_t>(shapes_.size() - 1)).first;
  }
  Shape &shape = shapes_[it->second];
  const uint32_t row = shape.rows++;
  for (size_t c = 0; c < s.holes.size(); ++c)
    shape.values[c].push_back(s.holes[c].text);
  const std::pair<uint32_t, uint32_t> at{it->second, row};
  calls_.emplace(call, at);
  return at;
}

uint32_t CallShapes::reserve_run() {
  runs_.emplace_back();
  return static_cast<uint32_t>(runs_.size() - 1);
}

void CallShapes::set_run(uint32_t run, std::vector<Step> steps) {
  runs_.at(run) = std::move(steps);
}

std::vector<std::string> CallShapes::definitions() const {
  std::vector<std::string> out;
  out.push_back(
      "// ---- rules as data: long or many, they are tables of steps ---------------------");
  out.push_back("// Calls that differ only in literals share a shape: one function of a row");
  out.push_back("// index, whose varying literals come from the columns kShapeS_C.");
  out.push_back("");
  out.push_back("// A step replays row `row` of shape `shape`, or run `row` when `shape` is");
  out.push_back("// kRunStep, `count` times; a run is the steps of one rule.");
  out.push_back("struct ProxyStep {");
  out.push_back("  std::uint32_t shape, row;");
  out.push_back("  unsigned long long count;");
  out.push_back("};");
  out.push_back("struct ProxyRun {");
  out.push_back("  const ProxyStep *steps;");
  out.push_back("  std::size_t size;");
  out.push_back("};");
  out.push_back("const std::uint32_t kRunStep = " + std::to_string(kRunStep) + "u;");
  out.push_back("");
  for (size_t s = 0; s < shapes_.size(); ++s) {
    const Shape &shape = shapes_[s];
    // A column whose value never varies is written into the shape.
    std::vector<std::string> use(shape.types.size());
    bool uses_row = false;
    for (size_t c = 0; c < shape.types.size(); ++c) {
      const std::vector<std::string> &v = shape.values[c];
      bool same = true;
      for (const std::string &x : v)
        same = same && x == v[0];
      if (same && !v.empty()) {
        use[c] = v[0];
        continue;
      }
      const std::string name = "kShape" + std::to_string(s) + "_" + std::to_string(c);
      const std::string &type = shape.types[c];
      // "const char *" columns are arrays of const pointers.
      std::string def = type.back() == '*' ? "static " + type + "const " + name + "[] = {"
                                           : "static const " + type + " " + name + "[] = {";
      for (size_t r = 0; r < v.size(); ++r) {
        def += r % 8 == 0 ? (r ? ",\n    " : "\n    ") : ", ";
        def += v[r];
      }
      def += "};";
      out.push_back(def);
      use[c] = name + "[r]";
      uses_row = true;
    }
    std::string body;
    for (size_t i = 0; i < shape.text.size(); ++i) {
      if (shape.text[i] != '\x01') {
        body += shape.text[i];
        continue;
      }
      const size_t end = shape.text.find('\x02', i);
      body += use[std::stoul(shape.text.substr(i + 1, end - i - 1))];
      i = end;
    }
    out.push_back("static void shape_" + std::to_string(s) + "(std::uint32_t" +
                  (uses_row ? " r" : "") + ") {");
    size_t from = 0;
    while (from <= body.size()) {
      const size_t nl = body.find('\n', from);
      out.push_back("  " +
                    body.substr(from, nl == std::string::npos ? std::string::npos : nl - from));
      if (nl == std::string::npos)
        break;
      from = nl + 1;
    }
    out.push_back("}");
  }
  out.push_back("");
  std::string table = "static void (*const kShapes[])(std::uint32_t) = {";
  if (shapes_.empty())
    table += "nullptr";
  for (size_t s = 0; s < shapes_.size(); ++s)
    table += (s ? ", shape_" : "shape_") + std::to_string(s);
  out.push_back(table + "};");
  out.push_back("");
  for (size_t r = 0; r < runs_.size(); ++r) {
    // A run of nothing (a rule of failed polls only) still needs an element.
    std::string def = "static const ProxyStep kRun" + std::to_string(r) +
                      (runs_[r].empty() ? "[1] = {{0, 0, 0" : "[] = {");
    for (size_t i = 0; i < runs_[r].size(); ++i) {
      const Step &st = runs_[r][i];
      def += i % 6 == 0 ? (i ? ",\n    " : "\n    ") : ", ";
      def += "{" + (st.shape == kRunStep ? std::string("kRunStep") : std::to_string(st.shape)) +
             ", " + std::to_string(st.row) + ", " + std::to_string(st.count) + "}";
    }
    out.push_back(def + (runs_[r].empty() ? "}};" : "};"));
  }
  std::string runs = "const ProxyRun kRuns[] = {";
  for (size_t r = 0; r < runs_.size(); ++r)
    runs += (r % 4 == 0 ? "\n    " : " ") + std::string("{kRun") + std::to_string(r) + ", " +
            std::to_string(runs_[r].size()) + "},";
  out.push_back(runs + "};");
  out.push_back("");
  out.push_back("void replay_run(std::uint32_t run) {");
  out.push_back("  const ProxyRun &r = kRuns[run];");
  out.push_back("  for (std::size_t i = 0; i < r.size; ++i) {");
  out.push_back("    const ProxyStep &step = r.steps[i];");
  out.push_back("    for (unsigned long long k = 0; k < step.count; ++k) {");
  out.push_back("      if (step.shape == kRunStep)");
  out.push_back("        replay_run(step.row);");
  out.push_back("      else");
  out.push_back("        kShapes[step.shape](step.row);");
  out.push_back("    }");
  out.push_back("  }");
  out.push_back("}");
  out.push_back("");
  return out;
}

} // namespace pilgrim::proxygen
