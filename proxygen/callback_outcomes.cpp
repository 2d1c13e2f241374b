#include "callback_outcomes.h"

#include "pilgrim/callback_records.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::proxygen {

namespace {

const DecodedValue *param_value(const DecodedCall &call, const char *name) {
  for (size_t p = 0; p < call.params.size(); ++p)
    if (std::string(call.function->params[p].name) == name)
      return call.params[p].any();
  return nullptr;
}

const DecodedElement *single(const DecodedValue *v) {
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
}

} // namespace

std::vector<std::string>
callback_outcome_lines(const DecodedCall &call,
                       const std::function<std::string(HandleKind, uint64_t)> &handle,
                       ProxySymbols &symbols) {
  CallbackRecordKind kind;
  if (!callback_record_kind(call.function_id, kind))
    throw TraceError(std::string(call.function->name) +
                     ": a tracer record this proxygen does not know");
  const char *keyval_name = kind.object == HandleKind::Comm       ? "comm_keyval"
                            : kind.object == HandleKind::Datatype ? "type_keyval"
                                                                  : "win_keyval";
  const DecodedElement *keyval = single(param_value(call, keyval_name));
  if (!keyval)
    throw TraceError(std::string(call.function->name) + ": no keyval");
  const std::string key = handle(HandleKind::Keyval, keyval->code);
  const std::string rc = std::to_string(call.return_code);
  if (!kind.copy)
    return {"expect_delete(" + key + ", " + rc + ");"};
  const DecodedElement *flag = single(param_value(call, "flag"));
  const DecodedElement *out = single(param_value(call, "attribute_val_out"));
  std::string value = "nullptr";
  if (out && out->code != 0) {
    symbols.pointers.insert(out->code - 1);
    value = "pointer_" + std::to_string(out->code - 1);
  }
  const bool copied = flag && flag->integer != 0;
  return {"expect_copy(" + key + ", " + (copied ? "1" : "0") + ", " + value + ", " + rc + ");"};
}

} // namespace pilgrim::proxygen
