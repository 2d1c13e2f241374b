// Symbolic ids for one kind of object: a released id is handed out again
// before any new one, smallest first, so a loop that creates and frees the
// same objects sees the same ids in every iteration.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace pilgrim::rt {

class SymbolPool {
public:
  uint32_t acquire() {
    if (!free_.empty()) {
      uint32_t id = free_.top();
      free_.pop();
      return id;
    }
    return next_++;
  }
  void release(uint32_t id) { free_.push(id); }
  uint32_t high_water() const { return next_; }
  size_t in_use() const { return next_ - free_.size(); }
  size_t memory_bytes() const { return free_.size() * sizeof(uint32_t); }

private:
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> free_;
  uint32_t next_ = 0;
};

}  // namespace pilgrim::rt
