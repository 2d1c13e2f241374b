#include "wildcard_match.h"

#include "pilgrim/signature_encoding.h"

namespace pilgrim::diff {

namespace {

// The single element of an argument's value before the call, or nullptr.
const CallElement *in_element(const CallArg &arg) {
  return arg.has_in && !arg.in.null && arg.in.elements.size() == 1 ? &arg.in.elements[0] : nullptr;
}

// The first argument holding a handle of `kind` before the call (not one
// the call creates), or -1.
int handle_in(const Call &call, HandleKind kind) {
  for (size_t p = 0; p < call.args.size(); ++p) {
    const ParamInfo &pi = *call.args[p].param;
    if (pi.role == Role::Handle && pi.handle_kind == kind && pi.action != HandleAction::Create &&
        call.args[p].has_in)
      return static_cast<int>(p);
  }
  return -1;
}

// The call's own MPI_ANY_SOURCE and MPI_ANY_TAG arguments. A send's
// destination and tag cannot be wildcards, so any Rank or Tag argument that
// is one belongs to a receive or probe (MPI_Sendrecv's source, recvtag).
Wildcards own_wildcards(const Call &call) {
  Wildcards w;
  for (const CallArg &a : call.args) {
    const CallElement *e = in_element(a);
    if (!e || a.param->dir == Direction::Out)
      continue;
    if (a.role() == Role::Rank && e->rank.kind == RankCode::AnySource)
      w.source = true;
    if (a.role() == Role::Tag && e->tag.any)
      w.tag = true;
  }
  return w;
}

// The wildcards of user handle `h` in `ids`; none when it has none or
// is not a user handle.
Wildcards wildcards_of(const HandleRef &h, const std::unordered_map<uint64_t, Wildcards> &ids) {
  const auto it = h.user() ? ids.find(h.id) : ids.end();
  return it == ids.end() ? Wildcards{} : it->second;
}

// The wildcards a call gives what it creates: its own, or those of the
// message it receives (MPI_Imrecv).
Wildcards creation_wildcards(const Call &call,
                             const std::unordered_map<uint64_t, Wildcards> &messages) {
  const int m = handle_in(call, HandleKind::Message);
  if (m < 0)
    return own_wildcards(call);
  const CallElement *e = in_element(call.args[static_cast<size_t>(m)]);
  return e ? wildcards_of(e->handle, messages) : Wildcards{};
}

bool same_rank(const RankRef &x, const RankRef &y) {
  return x.kind == y.kind && x.offset == y.offset;
}
bool same_tag(const TagRef &x, const TagRef &y) { return x.any == y.any && x.tag == y.tag; }

bool status_equal(const StatusRef &x, const StatusRef &y) {
  return x.kind == y.kind && same_rank(x.source, y.source) && same_tag(x.tag, y.tag) &&
         x.count_bytes == y.count_bytes;
}

bool relaxed_status_equal(const StatusRef &x, const StatusRef &y, Wildcards w) {
  if (status_equal(x, y))
    return true;
  const bool full_x = x.kind == sig::kStatusFull, full_y = y.kind == sig::kStatusFull;
  const bool count_x = x.kind == sig::kStatusCountOnly, count_y = y.kind == sig::kStatusCountOnly;
  if ((full_x && count_y) || (count_x && full_y)) // a --deterministic proxy: the same message
    return x.count_bytes == y.count_bytes;
  // MPI_STATUS_IGNORE: a --deterministic proxy receives from the kept sender
  // without a wildcard (kind 0); two wildcards may match different senders
  // (and tags, kept since format version 10).
  const bool kept_x = x.kind == sig::kStatusSourceKept || x.kind == sig::kStatusMatchKept,
             kept_y = y.kind == sig::kStatusSourceKept || y.kind == sig::kStatusMatchKept;
  if ((kept_x && y.kind == sig::kStatusIgnored) || (x.kind == sig::kStatusIgnored && kept_y))
    return true;
  if (x.kind == sig::kStatusMatchKept && y.kind == sig::kStatusMatchKept)
    return (same_rank(x.source, y.source) || w.source) && (same_tag(x.tag, y.tag) || w.tag);
  if (kept_x && kept_y)
    return w.source;
  if (!full_x || !full_y || !w.any())
    return false;
  return (same_rank(x.source, y.source) || w.source) && (same_tag(x.tag, y.tag) || w.tag);
}

} // namespace

Wildcards WildcardTracker::of_status(const Call &call, size_t param, size_t element) const {
  if (!call.function)
    return {};
  if (handle_in(call, HandleKind::Comm) >= 0)
    return own_wildcards(call); // a receive or probe naming its communicator
  if (handle_in(call, HandleKind::Message) >= 0)
    return creation_wildcards(call, messages_); // MPI_Mrecv
  const CallElement *r = status_request(call, param, element);
  return r ? wildcards_of(r->handle, requests_) : Wildcards{};
}

void WildcardTracker::apply(const Call &call) {
  if (!call.function)
    return;
  for (const CallArg &a : call.args) {
    const ParamInfo &pi = *a.param;
    if (pi.role != Role::Handle || pi.action != HandleAction::Create || !a.has_out)
      continue;
    std::unordered_map<uint64_t, Wildcards> *ids =
        pi.handle_kind == HandleKind::Request   ? &requests_
        : pi.handle_kind == HandleKind::Message ? &messages_
                                                : nullptr;
    if (!ids)
      continue;
    const Wildcards w = creation_wildcards(call, messages_);
    for (const CallElement &e : a.out.elements) {
      if (!e.handle.user())
        continue;
      if (w.any())
        (*ids)[e.handle.id] = w;
      else
        ids->erase(e.handle.id);
    }
  }
}

bool relaxed_statuses_equal(const Call &a, const Call &b, size_t param, const WildcardTracker &wa,
                            const WildcardTracker &wb) {
  const CallValue *va = a.args[param].any(), *vb = b.args[param].any();
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
