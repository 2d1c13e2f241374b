#include "callback_outcomes.h"

#include "pilgrim/callback_records.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::proxygen {

namespace {

const CallValue *param_value(const Call &call, const char *name) {
  const CallArg *a = call.arg(name);
  return a ? a->any() : nullptr;
}

const CallElement *single(const CallValue *v) {
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
}

} // namespace

std::vector<std::string>
callback_outcome_lines(const Call &call,
                       const std::function<std::string(const HandleRef &)> &handle,
                       ProxySymbols &symbols) {
  CallbackRecordKind kind;
  if (!callback_record_kind(call.function_id, kind))
    throw TraceError(std::string(call.function->name) +
                     ": a tracer record this proxygen does not know");
  const char *keyval_name = kind.object == HandleKind::Comm       ? "comm_keyval"
                            : kind.object == HandleKind::Datatype ? "type_keyval"
                                                                  : "win_keyval";
  const CallElement *keyval = single(param_value(call, keyval_name));
  if (!keyval)
    throw TraceError(std::string(call.function->name) + ": no keyval");
  HandleRef keyval_handle = keyval->handle; // a Keyval, whatever the row says
  keyval_handle.handle_kind = HandleKind::Keyval;
  const std::string key = handle(keyval_handle);
  const std::string rc = std::to_string(call.return_code);
  if (!kind.copy)
    return {"expect_delete(" + key + ", " + rc + ");"};
  const CallElement *flag = single(param_value(call, "flag"));
  const CallElement *out = single(param_value(call, "attribute_val_out"));
  std::string value = "nullptr";
  if (out && !out->null) {
    const uint64_t id = static_cast<uint64_t>(out->memory);
    symbols.pointers.insert(id);
    value = "pointer_" + std::to_string(id);
  }
  const bool copied = flag && flag->integer != 0;
  return {"expect_copy(" + key + ", " + (copied ? "1" : "0") + ", " + value + ", " + rc + ");"};
}

} // namespace pilgrim::proxygen
