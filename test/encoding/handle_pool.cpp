#include "handle_pool.h"

#include "recorder.h"

#include "common/handle_key.h"
#include "pilgrim/predefined_handles.h"
#include "untraced.h"

#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>

namespace pilgrim::enctest {
namespace {

using rt::handle_from_key;
using rt::handle_key;

[[noreturn]] void die(const char *what) {
  std::fprintf(stderr, "encoding_roundtrip: cannot make %s\n", what);
  std::exit(2);
}

void check(int rc, const char *what) {
  if (rc != MPI_SUCCESS)
    die(what);
}

void user_op(void *, void *, int *, MPI_Datatype *) {}
void comm_errhandler(MPI_Comm *, int *, ...) {}

template <class H> Element handle_element(Sym sym, H h, const char *name = "") {
  Element e;
  e.sym = sym;
  e.key = handle_key(h);
  e.name = name;
  return e;
}

struct Named {
  HandleKind kind;
  const char *name;
  uint64_t key;
};

// The predefined handles synthetic calls pass, by the names the format's
// tables give them.
std::vector<Named> predefined_handles() {
  using K = HandleKind;
  std::vector<Named> all = {
      {K::Comm, "MPI_COMM_WORLD", handle_key(MPI_COMM_WORLD)},
      {K::Comm, "MPI_COMM_SELF", handle_key(MPI_COMM_SELF)},
      {K::Group, "MPI_GROUP_EMPTY", handle_key(MPI_GROUP_EMPTY)},
      {K::Datatype, "MPI_INT", handle_key(MPI_INT)},
      {K::Datatype, "MPI_DOUBLE", handle_key(MPI_DOUBLE)},
      {K::Datatype, "MPI_BYTE", handle_key(MPI_BYTE)},
      {K::Op, "MPI_SUM", handle_key(MPI_SUM)},
      {K::Op, "MPI_MAXLOC", handle_key(MPI_MAXLOC)},
#ifdef MPI_INFO_ENV
      {K::Info, "MPI_INFO_ENV", handle_key(MPI_INFO_ENV)},
#endif
      {K::Errhandler, "MPI_ERRORS_RETURN", handle_key(MPI_ERRORS_RETURN)},
      {K::Errhandler, "MPI_ERRORS_ARE_FATAL", handle_key(MPI_ERRORS_ARE_FATAL)},
#ifdef MPI_MESSAGE_NO_PROC
      {K::Message, "MPI_MESSAGE_NO_PROC", handle_key(MPI_MESSAGE_NO_PROC)},
#endif
      {K::Keyval, "MPI_TAG_UB", handle_key(static_cast<int>(MPI_TAG_UB))},
      {K::Keyval, "MPI_WIN_BASE", handle_key(static_cast<int>(MPI_WIN_BASE))},
  };
  std::vector<Named> known;
  for (const Named &n : all)
    if (find_predefined_handle(n.kind, n.name) >= 0)
      known.push_back(n);
  return known;
}

} // namespace

// Every long-lived handle is made here, before any fresh one: a fresh handle
// is freed behind the runtime's back (untraced), and a long-lived handle made
// later could get its value and, with it, the facts the runtime keeps of it.
HandlePool::HandlePool(std::string scratch_dir) : scratch_dir_(std::move(scratch_dir)) {
  for (int k = 1; k < kHandleKindCount; ++k) {
    const HandleKind kind = static_cast<HandleKind>(k);
#ifndef MPI_SESSION_NULL
    if (kind == HandleKind::Session)
      continue;
#endif
    if (kind == HandleKind::Fd || kind == HandleKind::Stream)
      continue; // POSIX records only: no MPI function takes them
    user(kind, 0);
  }
  for (CommShape shape : {CommShape::DistGraph, CommShape::Cart3, CommShape::Cart1})
    user(HandleKind::Comm, 0, shape);
}

HandlePool::~HandlePool() {
  release_fresh();
  for (auto &[kind_shape, keys] : users_)
    for (uint64_t key : keys)
      destroy(static_cast<HandleKind>(kind_shape.first), key);
}

Element HandlePool::null(HandleKind k) const {
  using K = HandleKind;
  switch (k) {
  case K::Comm:
    return handle_element(Sym::Null, MPI_COMM_NULL);
  case K::Group:
    return handle_element(Sym::Null, MPI_GROUP_NULL);
  case K::Datatype:
    return handle_element(Sym::Null, MPI_DATATYPE_NULL);
  case K::Op:
    return handle_element(Sym::Null, MPI_OP_NULL);
  case K::Info:
    return handle_element(Sym::Null, MPI_INFO_NULL);
  case K::Errhandler:
    return handle_element(Sym::Null, MPI_ERRHANDLER_NULL);
  case K::File:
    return handle_element(Sym::Null, MPI_FILE_NULL);
  case K::Win:
    return handle_element(Sym::Null, MPI_WIN_NULL);
  case K::Request:
    return handle_element(Sym::Null, MPI_REQUEST_NULL);
  case K::Message:
    return handle_element(Sym::Null, MPI_MESSAGE_NULL);
#ifdef MPI_SESSION_NULL
  case K::Session:
    return handle_element(Sym::Null, MPI_SESSION_NULL);
#endif
  case K::Keyval:
    return handle_element(Sym::Null, static_cast<int>(MPI_KEYVAL_INVALID));
  default:
    break;
  }
  Element e;
  e.sym = Sym::Null;
  return e;
}

Element HandlePool::predefined(HandleKind k, int j) const {
  static const std::vector<Named> all = predefined_handles();
  std::vector<const Named *> of_kind;
  for (const Named &n : all)
    if (n.kind == k)
      of_kind.push_back(&n);
  if (of_kind.empty())
    return null(k);
  const Named &n = *of_kind[static_cast<size_t>(j) % of_kind.size()];
  Element e;
  e.sym = Sym::Predefined;
  e.key = n.key;
  e.name = n.name;
  return e;
}

Element HandlePool::user(HandleKind k, int j, CommShape shape) {
  if (k != HandleKind::Comm)
    shape = CommShape::Plain;
  std::vector<uint64_t> &keys = users_[{static_cast<int>(k), static_cast<int>(shape)}];
  const size_t want = k == HandleKind::Request ? 16 : 2;
  while (keys.size() < want)
    keys.push_back(make(k, shape));
  Element e;
  e.sym = Sym::User;
  e.key = keys[static_cast<size_t>(j) % keys.size()];
  return e;
}

Element HandlePool::fresh(HandleKind k) {
  Element e;
  e.sym = Sym::User;
  e.key = make(k, CommShape::Plain);
  fresh_.push_back({k, e.key});
  return e;
}

void HandlePool::release_fresh() {
  for (auto &[k, key] : fresh_)
    destroy(k, key);
  fresh_.clear();
}

uint64_t HandlePool::make(HandleKind k, CommShape shape) {
  Untraced untraced;
  using K = HandleKind;
  switch (k) {
  case K::Comm: {
    MPI_Comm c = MPI_COMM_NULL;
    const int zeros[3] = {0, 0, 0}, ones[3] = {1, 1, 1}, periods[3] = {1, 0, 1};
    switch (shape) {
    case CommShape::Plain:
      check(PMPI_Comm_dup(MPI_COMM_WORLD, &c), "a communicator");
      break;
    case CommShape::DistGraph:
      check(PMPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 2, zeros, MPI_UNWEIGHTED, 3, zeros,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
            "a distributed graph communicator");
      break;
    case CommShape::Cart3:
      check(PMPI_Cart_create(MPI_COMM_SELF, 3, ones, periods, 0, &c), "a Cartesian communicator");
      break;
    case CommShape::Cart1:
      check(PMPI_Cart_create(MPI_COMM_SELF, 1, ones, periods, 0, &c), "a Cartesian communicator");
      break;
    }
    return handle_key(c);
  }
  case K::Group: {
    MPI_Group world = MPI_GROUP_NULL, g = MPI_GROUP_NULL;
    const int zero = 0;
    check(PMPI_Comm_group(MPI_COMM_WORLD, &world), "a group");
    check(PMPI_Group_incl(world, 1, &zero, &g), "a group");
    PMPI_Group_free(&world);
    return handle_key(g);
  }
  case K::Datatype: {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    check(PMPI_Type_contiguous(2, MPI_INT, &t), "a datatype");
    return handle_key(t);
  }
  case K::Op: {
    MPI_Op op = MPI_OP_NULL;
    check(PMPI_Op_create(user_op, 1, &op), "an operation");
    return handle_key(op);
  }
  case K::Info: {
    MPI_Info info = MPI_INFO_NULL;
    check(PMPI_Info_create(&info), "an info");
    return handle_key(info);
  }
  case K::Errhandler: {
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    check(PMPI_Comm_create_errhandler(comm_errhandler, &eh), "an error handler");
    return handle_key(eh);
  }
  case K::File: {
    MPI_File f = MPI_FILE_NULL;
    std::string path = scratch_dir_ + "/encoding_roundtrip." + std::to_string(files_++) + ".tmp";
    check(PMPI_File_open(MPI_COMM_SELF, path.c_str(),
                         MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                         &f),
          "a file");
    return handle_key(f);
  }
  case K::Win: {
    // MPI_Win_allocate: Open MPI's singleton has no component for MPI_Win_create.
    MPI_Win w = MPI_WIN_NULL;
    void *base = nullptr;
    check(PMPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_SELF, &base, &w), "a window");
    return handle_key(w);
  }
  case K::Request: {
    MPI_Request r = MPI_REQUEST_NULL;
    check(PMPI_Send_init(buffers_, 0, MPI_BYTE, 0, 0, MPI_COMM_SELF, &r), "a request");
    return handle_key(r);
  }
  case K::Message: {
    // A message sent to this process and probed; the send completes when
    // destroy() receives it.
    const int tag = ++messages_;
    MPI_Request sent = MPI_REQUEST_NULL;
    check(PMPI_Isend(buffers_, 1, MPI_BYTE, 0, tag, MPI_COMM_SELF, &sent), "a message");
    MPI_Message m = MPI_MESSAGE_NULL;
    int flag = 0;
    while (!flag)
      check(PMPI_Improbe(0, tag, MPI_COMM_SELF, &flag, &m, MPI_STATUS_IGNORE), "a message");
    sends_[handle_key(m)] = handle_key(sent);
    return handle_key(m);
  }
#ifdef MPI_SESSION_NULL
  case K::Session: {
    MPI_Session s = MPI_SESSION_NULL;
    check(PMPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s), "a session");
    return handle_key(s);
  }
#endif
  case K::Keyval: {
    int kv = MPI_KEYVAL_INVALID;
    check(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, nullptr),
          "a keyval");
    return handle_key(kv);
  }
  default:
    break;
  }
  die("a handle of an unknown kind");
}

void HandlePool::destroy(HandleKind k, uint64_t key) {
  Untraced untraced;
  using K = HandleKind;
  switch (k) {
  case K::Comm: {
    MPI_Comm c = handle_from_key<MPI_Comm>(key);
    PMPI_Comm_free(&c);
    break;
  }
  case K::Group: {
    MPI_Group g = handle_from_key<MPI_Group>(key);
    PMPI_Group_free(&g);
    break;
  }
  case K::Datatype: {
    MPI_Datatype t = handle_from_key<MPI_Datatype>(key);
    PMPI_Type_free(&t);
    break;
  }
  case K::Op: {
    MPI_Op op = handle_from_key<MPI_Op>(key);
    PMPI_Op_free(&op);
    break;
  }
  case K::Info: {
    MPI_Info info = handle_from_key<MPI_Info>(key);
    PMPI_Info_free(&info);
    break;
  }
  case K::Errhandler: {
    MPI_Errhandler eh = handle_from_key<MPI_Errhandler>(key);
    PMPI_Errhandler_free(&eh);
    break;
  }
  case K::File: {
    MPI_File f = handle_from_key<MPI_File>(key);
    PMPI_File_close(&f);
    break;
  }
  case K::Win: {
    MPI_Win w = handle_from_key<MPI_Win>(key);
    PMPI_Win_free(&w);
    break;
  }
  case K::Request: {
    MPI_Request r = handle_from_key<MPI_Request>(key);
    PMPI_Request_free(&r);
    break;
  }
  case K::Message: {
    MPI_Message m = handle_from_key<MPI_Message>(key);
    char byte = 0;
    PMPI_Mrecv(&byte, 1, MPI_BYTE, &m, MPI_STATUS_IGNORE);
    MPI_Request sent = handle_from_key<MPI_Request>(sends_[key]);
    PMPI_Wait(&sent, MPI_STATUS_IGNORE);
    sends_.erase(key);
    break;
  }
#ifdef MPI_SESSION_NULL
  case K::Session: {
    MPI_Session s = handle_from_key<MPI_Session>(key);
    PMPI_Session_finalize(&s);
    break;
  }
#endif
  case K::Keyval: {
    int kv = handle_from_key<int>(key);
    PMPI_Comm_free_keyval(&kv);
    break;
  }
  default:
    break;
  }
}

RankBase HandlePool::base(HandleKind k, uint64_t key) const {
  Untraced untraced;
  RankBase b;
  int rank = MPI_UNDEFINED;
  if (k == HandleKind::Comm && key != handle_key(MPI_COMM_NULL)) {
    MPI_Comm c = handle_from_key<MPI_Comm>(key);
    PMPI_Comm_rank(c, &rank);
    int topo = MPI_UNDEFINED;
    PMPI_Topo_test(c, &topo);
    if (topo == MPI_CART) {
      int ndims = 0;
      PMPI_Cartdim_get(c, &ndims);
      b.dims.resize(static_cast<size_t>(ndims));
      b.periods.resize(static_cast<size_t>(ndims));
      std::vector<int> coords(static_cast<size_t>(ndims));
      PMPI_Cart_get(c, ndims, b.dims.data(), b.periods.data(), coords.data());
    }
  } else if (k == HandleKind::Group && key != handle_key(MPI_GROUP_NULL)) {
    PMPI_Group_rank(handle_from_key<MPI_Group>(key), &rank);
  } else if (k == HandleKind::Win && key != handle_key(MPI_WIN_NULL)) {
    MPI_Group g = MPI_GROUP_NULL;
    PMPI_Win_get_group(handle_from_key<MPI_Win>(key), &g);
    PMPI_Group_rank(g, &rank);
    PMPI_Group_free(&g);
  }
  b.known = rank != MPI_UNDEFINED && rank >= 0;
  b.rank = b.known ? rank : -1;
  return b;
}

int64_t HandlePool::fact(LenOp op, HandleKind k, uint64_t key) const {
  Untraced untraced;
  if (k == HandleKind::Group) {
    int n = 0;
    if (op == LenOp::GroupSize && key != handle_key(MPI_GROUP_NULL))
      PMPI_Group_size(handle_from_key<MPI_Group>(key), &n);
    return n;
  }
  if (k != HandleKind::Comm || key == handle_key(MPI_COMM_NULL))
    return 0;
  MPI_Comm c = handle_from_key<MPI_Comm>(key);
  int size = 0, inter = 0, topo = MPI_UNDEFINED, rank = 0;
  PMPI_Comm_size(c, &size);
  PMPI_Comm_rank(c, &rank);
  PMPI_Comm_test_inter(c, &inter);
  if (!inter)
    PMPI_Topo_test(c, &topo);
  int ndims = 0, in = 0, out = 0, weighted = 0;
  if (topo == MPI_CART) {
    PMPI_Cartdim_get(c, &ndims);
    in = out = 2 * ndims; // a neighborhood collective's neighbors on a grid
  } else if (topo == MPI_GRAPH) {
    PMPI_Graph_neighbors_count(c, rank, &in);
    out = in;
  } else if (topo == MPI_DIST_GRAPH) {
    PMPI_Dist_graph_neighbors_count(c, &in, &out, &weighted);
  }
  switch (op) {
  case LenOp::Peers: {
    if (!inter)
      return size;
    int remote = 0;
    PMPI_Comm_remote_size(c, &remote);
    return remote;
  }
  case LenOp::CommSize:
    return size;
  case LenOp::InDegree:
    return in;
  case LenOp::OutDegree:
    return out;
  case LenOp::CartDim:
    return ndims;
  default:
    return 0;
  }
}

uint64_t HandlePool::buffer_address(int slot) const {
  return reinterpret_cast<uintptr_t>(buffers_ + 64 * (slot % 64));
}

uint64_t HandlePool::pointer_address(int slot) const {
  return reinterpret_cast<uintptr_t>(pointers_ + 64 * (slot % 16));
}

uint64_t HandlePool::anchor_address() {
  static const uint64_t page = [] {
    void *p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "encoding_roundtrip: mmap failed\n");
      std::exit(2);
    }
    rt::Recorder::get().addresses.pin(p);
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
  }();
  return page;
}

} // namespace pilgrim::enctest
