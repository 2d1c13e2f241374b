// wildcard_master: a master (rank 0) that receives from MPI_ANY_SOURCE, so
// that which worker's message each call matches depends on the run.
//
// Each worker w sends, phase by phase (a barrier between phases):
//   0. one message of S*w ints, tag 1, received with the source and tag
//      named (MPI_Recv from w, in order of w): deterministic;
//   1. R messages of w+k ints, tag 2: MPI_Probe(MPI_ANY_SOURCE, 2),
//      MPI_Get_count on its status, MPI_Recv from the source it found;
//   2. R messages of w ints, tag 30+k: MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG);
//   3. R messages of w ints, tag 4: MPI_Irecv(MPI_ANY_SOURCE, 4) + MPI_Wait,
//      one at a time;
//   4. R messages of w ints, tag 5: every MPI_Irecv(MPI_ANY_SOURCE, 5)
//      posted, then one MPI_Waitall;
//   5. R messages of w ints, tag 6: MPI_Iprobe(MPI_ANY_SOURCE, 6) until a
//      message is there, then MPI_Mprobe(MPI_ANY_SOURCE, 6) + MPI_Mrecv.
// Wildcard receives use a buffer of kMax ints: another run may match another
// worker's message. The master checks every message's source, tag, count
// and payload, and that each (worker, k) arrives exactly once.
//
//   wildcard_master [-s S]   S: the scale of phase 0's counts (default 1)
//
// Runs with 2 or more ranks (3 or more for the matches to vary).
#include "mpi_test_util.h"

#include <cstring>
#include <vector>

namespace {

const int R = 3;     // messages per worker and wildcard phase
const int kMax = 64; // capacity of a wildcard receive, in ints

int payload(int phase, int w, int k, int i) { return phase * 100000 + w * 1000 + k * 100 + i; }

struct Message {
  int tag, count;
};

// What worker w sends as its k-th message of `phase` (phases 1-5).
Message message(int phase, int w, int k) {
  switch (phase) {
  case 1:
    return {2, w + k};
  case 2:
    return {30 + k, w};
  default:
    return {phase + 1, w};
  }
}

class Master {
public:
  Master(int phase, int size) : phase_(phase), size_(size), seen_(size * R, 0) {}
  // A received message: which k it is follows from the tag (phase 2) or
  // from how many of w's messages came before (messages from one sender
  // do not overtake each other).
  void check(const MPI_Status &st, const int *buf) {
    const int w = st.MPI_SOURCE;
    CHECK(w >= 1 && w < size_, "phase %d: source %d", phase_, w);
    int k = 0;
    while (k < R && seen_[w * R + k])
      ++k;
    CHECK(k < R, "phase %d: more than %d messages from %d", phase_, R, w);
    const Message m = message(phase_, w, k);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(st.MPI_TAG == m.tag && count == m.count,
          "phase %d: message %d from %d: tag %d count %d, expected %d/%d", phase_, k, w, st.MPI_TAG,
          count, m.tag, m.count);
    for (int i = 0; i < count; ++i)
      CHECK(buf[i] == payload(phase_, w, k, i), "phase %d: message %d from %d: element %d is %d",
            phase_, k, w, i, buf[i]);
    seen_[w * R + k] = 1;
  }
  void finish() const {
    for (int w = 1; w < size_; ++w)
      for (int k = 0; k < R; ++k)
        CHECK(seen_[w * R + k], "phase %d: message %d from %d never arrived", phase_, k, w);
  }

private:
  int phase_, size_;
  std::vector<int> seen_;
};

void worker(int w, int scale) {
  std::vector<int> buf(kMax * 8);
  for (int i = 0; i < scale * w; ++i)
    buf[i] = payload(0, w, 0, i);
  MPI_Send(buf.data(), scale * w, MPI_INT, 0, 1, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int phase = 1; phase <= 5; ++phase) {
    for (int k = 0; k < R; ++k) {
      const Message m = message(phase, w, k);
      for (int i = 0; i < m.count; ++i)
        buf[i] = payload(phase, w, k, i);
      MPI_Send(buf.data(), m.count, MPI_INT, 0, m.tag, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

void master(int size, int scale) {
  const int n = (size - 1) * R;
  std::vector<int> buf(kMax * n);
  MPI_Status st;
  for (int w = 1; w < size; ++w) { // 0: named source and tag
    MPI_Recv(buf.data(), kMax * 8, MPI_INT, w, 1, MPI_COMM_WORLD, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == scale * w, "phase 0: %d ints from %d, expected %d", count, w, scale * w);
    for (int i = 0; i < count; ++i)
      CHECK(buf[i] == payload(0, w, 0, i), "phase 0: element %d from %d is %d", i, w, buf[i]);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  Master probed(1, size); // 1: MPI_Probe, then MPI_Recv from the source found
  for (int m = 0; m < n; ++m) {
    MPI_Probe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    MPI_Recv(buf.data(), count, MPI_INT, st.MPI_SOURCE, 2, MPI_COMM_WORLD, &st);
    probed.check(st, buf.data());
  }
  probed.finish();
  MPI_Barrier(MPI_COMM_WORLD);

  Master any(2, size); // 2: MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG)
  for (int m = 0; m < n; ++m) {
    MPI_Recv(buf.data(), kMax, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    any.check(st, buf.data());
  }
  any.finish();
  MPI_Barrier(MPI_COMM_WORLD);

  Master waited(3, size); // 3: MPI_Irecv + MPI_Wait
  for (int m = 0; m < n; ++m) {
    MPI_Request req;
    MPI_Irecv(buf.data(), kMax, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, &st);
    waited.check(st, buf.data());
  }
  waited.finish();
  MPI_Barrier(MPI_COMM_WORLD);

  Master all(4, size); // 4: MPI_Irecv each, one MPI_Waitall
  std::vector<MPI_Request> reqs(n);
  std::vector<MPI_Status> sts(n);
  for (int m = 0; m < n; ++m)
    MPI_Irecv(&buf[m * kMax], kMax, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &reqs[m]);
  MPI_Waitall(n, reqs.data(), sts.data());
  for (int m = 0; m < n; ++m)
    all.check(sts[m], &buf[m * kMax]);
  all.finish();
  MPI_Barrier(MPI_COMM_WORLD);

  Master matched(5, size); // 5: MPI_Iprobe until there, MPI_Mprobe + MPI_Mrecv
  for (int m = 0; m < n; ++m) {
    int flag = 0;
    while (!flag)
      MPI_Iprobe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &flag, &st);
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Mprobe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(buf.data(), kMax, MPI_INT, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NULL, "MPI_Mrecv left the message handle set");
    matched.check(st, buf.data());
  }
  matched.finish();
  MPI_Barrier(MPI_COMM_WORLD);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("wildcard_master");
  int scale = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      scale = mpitest::parse_count(argv[++i], "-s", 1);
    else
      mpitest::fail("unknown argument '%s' (usage: wildcard_master [-s S])", argv[i]);
  }
  CHECK(scale <= 8, "-s %d: at most 8", scale);
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  const int size = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  if (rank == 0)
    master(size, scale);
  else
    worker(rank, scale);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
