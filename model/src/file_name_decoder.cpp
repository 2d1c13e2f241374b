#include "pilgrim/file_name_decoder.h"

#include "pilgrim/trace_error.h"

namespace pilgrim {

std::string FileNameDecoder::decode(uint64_t thread, const std::string &coded) {
  std::string name;
  if (const char *error = file_name_form::decode(state_, rank_, thread, coded, name))
    throw TraceError(error);
  return name;
}

void FileNameDecoder::decode_call(const DecodedCall &call, std::vector<std::string> &names) {
  names.clear();
  if (!call.function)
    return;
  for (size_t p = 0; p < call.params.size() && p < call.function->nparams; ++p) {
    if (call.function->params[p].role != Role::String)
      continue;
    const DecodedParam &d = call.params[p];
    for (const DecodedValue *v : {d.has_in ? &d.in : nullptr, d.has_out ? &d.out : nullptr})
      if (v)
        for (const DecodedElement &e : v->elements)
          names.push_back(e.code == 0 ? std::string() : decode(call.thread_id, e.text));
  }
}

} // namespace pilgrim
