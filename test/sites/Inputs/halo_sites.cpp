// A ring exchange in C++ whose MPI calls sit at known lines and columns, in
// a namespace, a class, a template and a lambda: the lit tests in
// test/sites check them in the dump. Keep the lines where they are, or
// update the tests.
#include <mpi.h>

#include <cstdio>

namespace halo {

class Ring {
public:
  explicit Ring(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  int exchange(int value) const {
    int got = -1;
    MPI_Sendrecv(&value, 1, MPI_INT, (rank_ + 1) % size_, 7, &got, 1, MPI_INT,
                 (rank_ + size_ - 1) % size_, 7, comm_, MPI_STATUS_IGNORE);
    return got;
  }
  int rank() const { return rank_; }
  int size() const { return size_; }

private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 0;
};

template <class T> T total(T v, MPI_Datatype type) {
  T sum{};
  MPI_Allreduce(&v, &sum, 1, type, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

} // namespace halo

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  bool ok = true;
  {
    halo::Ring ring(MPI_COMM_WORLD);
    for (int step = 0; step < 3; ++step)
      ok = ok && ring.exchange(100 * step + ring.rank()) ==
                     100 * step + (ring.rank() + ring.size() - 1) % ring.size();
    auto sync = [] { MPI_Barrier(MPI_COMM_WORLD); };
    sync();
    const int bad = halo::total<int>(ok ? 0 : 1, MPI_INT);
    ok = bad == 0;
    if (ring.rank() == 0)
      std::printf("halo_sites_cpp: %s\n", ok ? "OK" : "FAILED");
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
