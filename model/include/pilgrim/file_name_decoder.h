// The file names of posix records (docs/FORMAT.md §8.6.1): a String element
// of a posix record holds a name's coded form, whose digit fields may depend
// on the caller's rank and on the previous name with the same text on the
// same thread. The decoder keeps that state for one rank's walk, in call
// order (rank_calls.h applies it); runtime/preload/file_name_coder.h writes the form.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/file_name_form.h"
#include "pilgrim/record_ranges.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim {

// Whether `function_id` is a posix record's, whose String elements are
// coded names.
constexpr bool is_posix_record(uint16_t function_id) {
  return record_kind(function_id) == RecordKind::Posix;
}

class FileNameDecoder {
public:
  // Names made by the threads of world rank `rank`.
  explicit FileNameDecoder(int64_t rank) : rank_(rank) {}
  // The name `coded` stands for, made by thread `thread` after every name
  // decoded before; remembered as that thread's last name with its text.
  // Throws TraceError when `coded` is not a coded name.
  std::string decode(uint64_t thread, const std::string &coded);
  // Every String element of posix record `call` decoded in order (in values
  // before out values, parameter by parameter): one name per element, ""
  // for a NULL one.
  void decode_call(const DecodedCall &call, std::vector<std::string> &names);

private:
  int64_t rank_;
  file_name_form::State state_;
};

} // namespace pilgrim
