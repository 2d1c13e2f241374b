// Long irregular runs of calls as data: the proxy's size follows the
// grammar's structure and the number of call shapes, not the number of
// distinct calls.
//
// A call's lines (CallEmitter, with its compute() gap) become a *shape*: the
// same text with its literals (numbers, strings) taken out as typed holes.
// Calls that differ only in literals share a shape; the shape is emitted once
// as a function of a row index, and each literal that varies between the
// calls of a shape becomes a column: a static array of its values. A rule
// becomes a run: a table of steps (shape and row, or another run, and a
// repetition count) that replay_run walks. Literals that are part of the code's structure stay in
// the shape: array sizes and indices (after '['), template arguments (after '<'), and anything in
// comments.
//
// Holes are typed by where they stand: inside the braced initializer of a
// declared array they take its element type (`const int counts[3] = {...}`
// gives int), so the initializer never narrows; elsewhere an integer is a
// long long (unsigned long long with a 'u' suffix), a number with a point or
// exponent a double and a string literal a const char *.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pilgrim::proxygen {

// One literal taken out of a call's lines.
struct Hole {
  std::string type; // the C type of its column
  std::string text; // the literal as written
};

// A call's lines with their literals replaced by markers "\x01<k>\x02" (k
// the hole's index; control characters appear nowhere in the emitter's code,
// whose string literals escape them).
struct ShapedLines {
  std::string text;
  std::vector<Hole> holes;
};
ShapedLines shape_of(const std::vector<std::string> &lines);

// The shapes and runs of one proxy.
class CallShapes {
public:
  // The step that replays another run (a rule) instead of a shape.
  static constexpr uint32_t kRunStep = 0xffffffffu;

  // The shape and row of the call at `key` (its grammar position, so that
  // the gap replayed before it is its own) whose lines are `lines` (a key is
  // added once; later calls return its first answer).
  std::pair<uint32_t, uint32_t> add(uint64_t key, const std::vector<std::string> &lines);
  // A run: steps of a shape's row (or, with kRunStep, of another run),
  // `count` times each. Runs are numbered when reserved, so that a run may
  // refer to one built later.
  struct Step {
    uint32_t shape = 0, row = 0;
    uint64_t count = 1;
  };
  uint32_t reserve_run();
  void set_run(uint32_t run, std::vector<Step> steps);
  bool empty() const { return runs_.empty(); }
  // The file-scope definitions: the step and run types, the columns, one
  // function per shape, the runs and replay_run(run).
  std::vector<std::string> definitions() const;

private:
  struct Shape {
    std::string text;
    std::vector<std::string> types;               // per column
    std::vector<std::vector<std::string>> values; // per column, per row
    uint32_t rows = 0;
  };
  std::vector<Shape> shapes_;
  std::map<std::string, uint32_t> index_;                   // text and types -> shape
  std::map<uint64_t, std::pair<uint32_t, uint32_t>> calls_; // by add's key
  std::vector<std::vector<Step>> runs_;
};

} // namespace pilgrim::proxygen
