// anysource: wildcard receives completed in arrival order.
//
// Rank 0 receives K messages from every other rank with MPI_ANY_SOURCE /
// MPI_ANY_TAG, three times:
//   phase 1: MPI_Irecv + MPI_Waitany loop,
//   phase 2: MPI_Irecv + MPI_Testsome polling loop,
//   phase 3: MPI_Irecv + MPI_Waitsome loop.
// Sources, tags, counts and payloads are verified from the statuses; every
// (source, message) pair must arrive exactly once.  Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <vector>

namespace {

const int K = 3;  // messages per sender and phase

int tag_of(int phase, int src, int k) { return phase * 1000 + src * 10 + k; }
int count_of(int src, int k) { return 1 + (src + k) % 3; }
int payload(int phase, int src, int k, int i) { return tag_of(phase, src, k) * 10 + i; }

class Tracker {
 public:
  Tracker(int phase, int size) : phase_(phase), size_(size), index_(size * K, -1) {}

  // Validate one completed receive, posted as request number `index`.
  void record(const MPI_Status &st, const int *buf, int index) {
    const int src = st.MPI_SOURCE;
    CHECK(src >= 1 && src < size_, "phase %d: unexpected source %d", phase_, src);
    const int k = st.MPI_TAG - tag_of(phase_, src, 0);
    CHECK(k >= 0 && k < K, "phase %d: unexpected tag %d from %d", phase_, st.MPI_TAG, src);
    CHECK(index_[src * K + k] < 0, "phase %d: message %d from %d received twice", phase_, k,
          src);
    index_[src * K + k] = index;
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == count_of(src, k), "phase %d: message %d from %d has count %d, expected %d",
          phase_, k, src, count, count_of(src, k));
    for (int i = 0; i < count; ++i)
      CHECK(buf[i] == payload(phase_, src, k, i), "phase %d: message %d from %d element %d is %d",
            phase_, k, src, i, buf[i]);
    ++received_;
  }

  void finish() const {
    CHECK(received_ == (size_ - 1) * K, "phase %d: received %d messages, expected %d", phase_,
          received_, (size_ - 1) * K);
    // Messages from one sender are non-overtaking: they match the wildcard
    // receives in the order in which those were posted.
    for (int src = 1; src < size_; ++src)
      for (int k = 1; k < K; ++k)
        CHECK(index_[src * K + k - 1] < index_[src * K + k],
              "phase %d: message %d from %d matched receive %d, message %d matched receive %d",
              phase_, k - 1, src, index_[src * K + k - 1], k, index_[src * K + k]);
  }

 private:
  int phase_, size_;
  std::vector<int> index_;  // request index that received (source, k)
  int received_ = 0;
};

void send_phase(int phase, int rank) {
  for (int k = 0; k < K; ++k) {
    int buf[3];
    for (int i = 0; i < count_of(rank, k); ++i) buf[i] = payload(phase, rank, k, i);
    MPI_Send(buf, count_of(rank, k), MPI_INT, 0, tag_of(phase, rank, k), MPI_COMM_WORLD);
  }
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("anysource");
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  const int total = (size - 1) * K;

  for (int phase = 1; phase <= 3; ++phase) {
    if (rank != 0) {
      send_phase(phase, rank);
    } else {
      std::vector<int> bufs(total * 3, -1);
      std::vector<MPI_Request> reqs(total);
      for (int m = 0; m < total; ++m)
        MPI_Irecv(&bufs[m * 3], 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                  &reqs[m]);
      Tracker tracker(phase, size);
      std::vector<int> done(total, 0);
      if (phase == 1) {
        for (int n = 0; n < total; ++n) {
          int index = -1;
          MPI_Status st;
          MPI_Waitany(total, reqs.data(), &index, &st);
          CHECK(index >= 0 && index < total && !done[index], "Waitany returned index %d", index);
          CHECK(reqs[index] == MPI_REQUEST_NULL, "Waitany did not free request %d", index);
          done[index] = 1;
          tracker.record(st, &bufs[index * 3], index);
        }
        // All requests are inactive now.
        int index = 0;
        MPI_Status st;
        MPI_Waitany(total, reqs.data(), &index, &st);
        CHECK(index == MPI_UNDEFINED, "Waitany on null requests returned index %d", index);
      } else {
        std::vector<int> indices(total);
        std::vector<MPI_Status> sts(total);
        int completed = 0;
        while (completed < total) {
          int outcount = 0;
          if (phase == 2)
            MPI_Testsome(total, reqs.data(), &outcount, indices.data(), sts.data());
          else
            MPI_Waitsome(total, reqs.data(), &outcount, indices.data(), sts.data());
          CHECK(outcount != MPI_UNDEFINED && outcount >= 0 && outcount <= total - completed,
                "phase %d: outcount %d with %d requests pending", phase, outcount,
                total - completed);
          if (phase == 3) CHECK(outcount > 0, "Waitsome returned without completions");
          for (int c = 0; c < outcount; ++c) {
            const int index = indices[c];
            CHECK(index >= 0 && index < total && !done[index], "phase %d: bad index %d", phase,
                  index);
            done[index] = 1;
            tracker.record(sts[c], &bufs[index * 3], index);
          }
          completed += outcount;
        }
        int outcount = 0;
        MPI_Testsome(total, reqs.data(), &outcount, indices.data(), sts.data());
        CHECK(outcount == MPI_UNDEFINED, "Testsome on null requests returned %d", outcount);
      }
      tracker.finish();
    }
    // Keep the phases apart: no message of the next phase may be matched by
    // a wildcard receive of this one.
    MPI_Barrier(MPI_COMM_WORLD);
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
