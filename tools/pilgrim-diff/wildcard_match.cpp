#include "wildcard_match.h"

#include "pilgrim/call_context.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/value_codes.h"

namespace pilgrim::diff {

namespace {

// The single element of a parameter's value before the call, or nullptr.
const DecodedElement *in_element(const DecodedCall &call, size_t p) {
  const DecodedParam &dp = call.params[p];
  return dp.has_in && !dp.in.null && dp.in.elements.size() == 1 ? &dp.in.elements[0] : nullptr;
}

// The first parameter holding a handle of `kind` before the call (not one
// the call creates), or -1.
int handle_in(const DecodedCall &call, HandleKind kind) {
  const FunctionInfo &f = *call.function;
  for (size_t p = 0; p < call.params.size() && p < f.nparams; ++p)
    if (f.params[p].role == Role::Handle && f.params[p].handle_kind == kind &&
        f.params[p].action != HandleAction::Create && call.params[p].has_in)
      return static_cast<int>(p);
  return -1;
}

// The call's own MPI_ANY_SOURCE and MPI_ANY_TAG arguments. A send's
// destination and tag cannot be wildcards, so any Rank or Tag argument that
// is one belongs to a receive or probe (MPI_Sendrecv's source, recvtag).
Wildcards own_wildcards(const DecodedCall &call) {
  Wildcards w;
  const FunctionInfo &f = *call.function;
  for (size_t p = 0; p < call.params.size() && p < f.nparams; ++p) {
    const DecodedElement *e = in_element(call, p);
    if (!e || f.params[p].dir == Direction::Out)
      continue;
    if (f.params[p].role == Role::Rank && e->code == sig::kRankAnySource)
      w.source = true;
    if (f.params[p].role == Role::Tag && e->code == sig::kTagAny)
      w.tag = true;
  }
  return w;
}

// The wildcards a call gives what it creates: its own, or those of the
// message it receives (MPI_Imrecv).
Wildcards creation_wildcards(const DecodedCall &call,
                             const std::unordered_map<uint64_t, Wildcards> &messages) {
  const int m = handle_in(call, HandleKind::Message);
  if (m < 0)
    return own_wildcards(call);
  const DecodedElement *e = in_element(call, static_cast<size_t>(m));
  const auto it = e ? messages.find(e->code) : messages.end();
  return it == messages.end() ? Wildcards{} : it->second;
}

bool status_equal(const DecodedStatus &x, const DecodedStatus &y) {
  return x.kind == y.kind && x.source_code == y.source_code && x.tag_code == y.tag_code &&
         x.count_bytes == y.count_bytes;
}

bool relaxed_status_equal(const DecodedStatus &x, const DecodedStatus &y, Wildcards w) {
  if (status_equal(x, y))
    return true;
  const bool full_x = x.kind == sig::kStatusFull, full_y = y.kind == sig::kStatusFull;
  const bool count_x = x.kind == sig::kStatusCountOnly, count_y = y.kind == sig::kStatusCountOnly;
  if ((full_x && count_y) || (count_x && full_y)) // a --deterministic proxy: the same message
    return x.count_bytes == y.count_bytes;
  // MPI_STATUS_IGNORE: a --deterministic proxy receives from the kept sender
  // without a wildcard (kind 0); two wildcards may match different senders.
  const bool kept_x = x.kind == sig::kStatusSourceKept, kept_y = y.kind == sig::kStatusSourceKept;
  if ((kept_x && y.kind == sig::kStatusIgnored) || (x.kind == sig::kStatusIgnored && kept_y))
    return true;
  if (kept_x && kept_y)
    return w.source;
  if (!full_x || !full_y || !w.any())
    return false;
  return (x.source_code == y.source_code || w.source) && (x.tag_code == y.tag_code || w.tag);
}

} // namespace

Wildcards WildcardTracker::of_status(const DecodedCall &call, size_t param, size_t element) const {
  if (!call.function)
    return {};
  if (handle_in(call, HandleKind::Comm) >= 0)
    return own_wildcards(call); // a receive or probe naming its communicator
  if (handle_in(call, HandleKind::Message) >= 0)
    return creation_wildcards(call, messages_); // MPI_Mrecv
  const DecodedElement *r = status_request(call, param, element);
  const auto it = r ? requests_.find(r->code) : requests_.end();
  return it == requests_.end() ? Wildcards{} : it->second;
}

void WildcardTracker::apply(const DecodedCall &call) {
  if (!call.function)
    return;
  const FunctionInfo &f = *call.function;
  for (size_t p = 0; p < call.params.size() && p < f.nparams; ++p) {
    const ParamInfo &pi = f.params[p];
    if (pi.role != Role::Handle || pi.action != HandleAction::Create || !call.params[p].has_out)
      continue;
    std::unordered_map<uint64_t, Wildcards> *ids =
        pi.handle_kind == HandleKind::Request   ? &requests_
        : pi.handle_kind == HandleKind::Message ? &messages_
                                                : nullptr;
    if (!ids)
      continue;
    const Wildcards w = creation_wildcards(call, messages_);
    for (const DecodedElement &e : call.params[p].out.elements) {
      if (decode_handle_code(e.code).kind != HandleCode::User)
        continue;
      if (w.any())
        (*ids)[e.code] = w;
      else
        ids->erase(e.code);
    }
  }
}

bool relaxed_statuses_equal(const DecodedCall &a, const DecodedCall &b, size_t param,
                            const WildcardTracker &wa, const WildcardTracker &wb) {
  const DecodedValue *va = a.params[param].any(), *vb = b.params[param].any();
  if (!va || !vb)
    return false;
  // MPI_STATUSES_IGNORE with kept senders, and a --deterministic proxy's
  // MPI_STATUSES_IGNORE, whose receives name their senders.
  if ((va->null && kept_sources(*vb)) || (vb->null && kept_sources(*va)))
    return true;
  if (va->null != vb->null || va->elements.size() != vb->elements.size())
    return false;
  for (size_t i = 0; i < va->elements.size(); ++i) {
    const Wildcards w = wa.of_status(a, param, i) | wb.of_status(b, param, i);
    if (!relaxed_status_equal(va->elements[i].status, vb->elements[i].status, w))
      return false;
  }
  return true;
}

} // namespace pilgrim::diff
