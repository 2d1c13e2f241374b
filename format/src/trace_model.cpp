#include "pilgrim/trace_model.h"

namespace pilgrim {

OwnedFunction::OwnedFunction() { rebuild_view(); }

OwnedFunction::OwnedFunction(const FunctionInfo &info)
    : id_(info.id), name_(info.name ? info.name : "") {
  params_.reserve(info.nparams);
  for (uint8_t i = 0; i < info.nparams; ++i) {
    const ParamInfo &p = info.params[i];
    OwnedParam o;
    o.name = p.name ? p.name : "";
    o.c_type = p.c_type ? p.c_type : "";
    o.base = p.base;
    o.role = p.role;
    o.dir = p.dir;
    o.handle_kind = p.handle_kind;
    o.action = p.action;
    o.flags = p.flags;
    o.ref = p.ref;
    o.ref2 = p.ref2;
    o.ref3 = p.ref3;
    if (p.len)
      o.len.assign(p.len, p.len + p.len_size);
    o.has_len_text = p.len_text != nullptr;
    if (p.len_text)
      o.len_text = p.len_text;
    params_.push_back(std::move(o));
  }
  rebuild_view();
}

OwnedFunction::OwnedFunction(uint16_t id, std::string name, std::vector<OwnedParam> params)
    : id_(id), name_(std::move(name)), params_(std::move(params)) {
  if (params_.size() > 255)
    params_.resize(255);
  for (OwnedParam &p : params_)
    if (p.len.size() > 255)
      p.len.resize(255);
  rebuild_view();
}

OwnedFunction::OwnedFunction(const OwnedFunction &other)
    : id_(other.id_), name_(other.name_), params_(other.params_) {
  rebuild_view();
}

OwnedFunction::OwnedFunction(OwnedFunction &&other) noexcept
    : id_(other.id_), name_(std::move(other.name_)), params_(std::move(other.params_)) {
  rebuild_view();
  other.rebuild_view();
}

OwnedFunction &OwnedFunction::operator=(const OwnedFunction &other) {
  if (this != &other) {
    id_ = other.id_;
    name_ = other.name_;
    params_ = other.params_;
    rebuild_view();
  }
  return *this;
}

OwnedFunction &OwnedFunction::operator=(OwnedFunction &&other) noexcept {
  if (this != &other) {
    id_ = other.id_;
    name_ = std::move(other.name_);
    params_ = std::move(other.params_);
    rebuild_view();
    other.rebuild_view();
  }
  return *this;
}

void OwnedFunction::rebuild_view() {
  param_views_.clear();
  param_views_.reserve(params_.size());
  for (const OwnedParam &p : params_) {
    ParamInfo v{};
    v.name = p.name.c_str();
    v.c_type = p.c_type.c_str();
    v.base = p.base;
    v.role = p.role;
    v.dir = p.dir;
    v.handle_kind = p.handle_kind;
    v.action = p.action;
    v.flags = p.flags;
    v.ref = p.ref;
    v.ref2 = p.ref2;
    v.ref3 = p.ref3;
    v.len_size = static_cast<uint8_t>(p.len.size());
    v.len = p.len.empty() ? nullptr : p.len.data();
    v.len_text = p.has_len_text ? p.len_text.c_str() : nullptr;
    param_views_.push_back(v);
  }
  info_.id = id_;
  info_.name = name_.c_str();
  info_.nparams = static_cast<uint8_t>(param_views_.size());
  info_.params = param_views_.empty() ? nullptr : param_views_.data();
}

const FunctionInfo *Trace::function(uint16_t id) const {
  // Binary search (exact when sorted, merely inconclusive otherwise), then
  // a linear scan.
  size_t lo = 0, hi = functions.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const uint16_t v = functions[mid].id();
    if (v == id)
      return &functions[mid].info();
    if (v < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (const OwnedFunction &f : functions)
    if (f.id() == id)
      return &f.info();
  return nullptr;
}

} // namespace pilgrim
