// absolute_addresses: derived datatypes whose displacements are absolute
// addresses from MPI_Get_address, used with MPI_BOTTOM.
//
// A struct type over the fields of a variable (send, receive: a ring with
// MPI_Sendrecv); an hindexed type over two separate arrays (send, receive);
// an hindexed_block type whose displacements are an address plus offsets
// (MPI_Pack and MPI_Unpack with MPI_BOTTOM; under MPICH, whose MPI_Pack
// rejects MPI_BOTTOM, MPI_Sendrecv); MPI_Put with MPI_BOTTOM as its
// origin; MPI_Type_get_extent of an absolute type (its lower bound is an
// address). Each type is built over the caller's own memory, which another
// run has at other addresses: a proxy that replayed the recorded numbers
// would hand MPI addresses of another process. Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <cstddef>
#include <vector>

namespace {

struct Record {
  int id;
  double weight[2];
  char tag;
};

// A struct datatype over the fields of `r`, for MPI_BOTTOM.
MPI_Datatype record_type(Record &r) {
  MPI_Aint disp[3];
  MPI_Get_address(&r.id, &disp[0]);
  MPI_Get_address(&r.weight[0], &disp[1]);
  MPI_Get_address(&r.tag, &disp[2]);
  const int blocklens[3] = {1, 2, 1};
  const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype t;
  MPI_Type_create_struct(3, blocklens, disp, types, &t);
  MPI_Type_commit(&t);
  return t;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("absolute_addresses");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), n = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;

  // --- a struct over a variable's fields: send and receive with MPI_BOTTOM ---
  {
    Record out{rank, {rank + 0.5, rank - 0.25}, char('a' + rank)};
    Record in{-1, {0, 0}, '?'};
    MPI_Datatype out_t = record_type(out), in_t = record_type(in);
    MPI_Aint lb = 0, extent = 0, id_address = 0;
    MPI_Type_get_extent(out_t, &lb, &extent);
    MPI_Get_address(&out.id, &id_address);
    CHECK(lb == id_address, "struct: lower bound %ld is not the first field's address %ld",
          long(lb), long(id_address));
    for (int round = 0; round < 3; ++round) {
      out.id = rank * 10 + round;
      MPI_Sendrecv(MPI_BOTTOM, 1, out_t, next, round, MPI_BOTTOM, 1, in_t, prev, round,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(in.id == prev * 10 + round && in.weight[0] == prev + 0.5 &&
                in.weight[1] == prev - 0.25 && in.tag == char('a' + prev),
            "struct: round %d received {%d, %g, %g, %c}", round, in.id, in.weight[0], in.weight[1],
            in.tag);
    }
    MPI_Type_free(&out_t);
    MPI_Type_free(&in_t);
  }

  // --- hindexed over two separate arrays -------------------------------------
  {
    std::vector<int> a(8), b(4);
    for (int i = 0; i < 8; ++i)
      a[size_t(i)] = rank * 100 + i;
    for (int i = 0; i < 4; ++i)
      b[size_t(i)] = -(rank * 100 + i);
    std::vector<int> ra(8, -1), rb(4, -1);
    MPI_Aint disp[2], rdisp[2];
    MPI_Get_address(a.data(), &disp[0]);
    MPI_Get_address(b.data(), &disp[1]);
    MPI_Get_address(ra.data(), &rdisp[0]);
    MPI_Get_address(rb.data(), &rdisp[1]);
    const int blocklens[2] = {8, 4};
    MPI_Datatype send_t, recv_t;
    MPI_Type_create_hindexed(2, blocklens, disp, MPI_INT, &send_t);
    MPI_Type_create_hindexed(2, blocklens, rdisp, MPI_INT, &recv_t);
    MPI_Type_commit(&send_t);
    MPI_Type_commit(&recv_t);
    MPI_Request req;
    MPI_Irecv(MPI_BOTTOM, 1, recv_t, prev, 7, MPI_COMM_WORLD, &req);
    MPI_Send(MPI_BOTTOM, 1, send_t, next, 7, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < 8; ++i)
      CHECK(ra[size_t(i)] == prev * 100 + i, "hindexed: a[%d] is %d", i, ra[size_t(i)]);
    for (int i = 0; i < 4; ++i)
      CHECK(rb[size_t(i)] == -(prev * 100 + i), "hindexed: b[%d] is %d", i, rb[size_t(i)]);
    MPI_Type_free(&send_t);
    MPI_Type_free(&recv_t);
  }

  // --- an address plus offsets: MPI_Pack and MPI_Unpack with MPI_BOTTOM ------
  {
    std::vector<double> v(16), w(16, -1.0);
    for (int i = 0; i < 16; ++i)
      v[size_t(i)] = rank + 0.125 * i;
    MPI_Aint base = 0, wbase = 0;
    MPI_Get_address(v.data(), &base);
    MPI_Get_address(w.data(), &wbase);
    MPI_Aint disp[4], wdisp[4];
    for (int k = 0; k < 4; ++k) {
      disp[k] = base + MPI_Aint(4 * k + 1) * MPI_Aint(sizeof(double)); // elements 1, 5, 9, 13
      wdisp[k] = wbase + MPI_Aint(4 * k + 2) * MPI_Aint(sizeof(double));
    }
    MPI_Datatype pick, place;
    MPI_Type_create_hindexed_block(4, 2, disp, MPI_DOUBLE, &pick); // 1-2, 5-6, 9-10, 13-14
    MPI_Type_create_hindexed_block(4, 2, wdisp, MPI_DOUBLE, &place);
    MPI_Type_commit(&pick);
    MPI_Type_commit(&place);
    int packed_size = 0;
    MPI_Pack_size(1, pick, MPI_COMM_WORLD, &packed_size);
    std::vector<char> packed(size_t(packed_size) + 16);
#if defined(MPICH)
    // MPICH 4.0's MPI_Pack and MPI_Unpack reject MPI_BOTTOM, which is NULL
    // there ("Null pointer in parameter inbuf"), against the standard: the
    // same two types move the data with MPI_Sendrecv to the caller itself.
    MPI_Sendrecv(MPI_BOTTOM, 1, pick, rank, 5, MPI_BOTTOM, 1, place, rank, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
#else
    int position = 0;
    MPI_Pack(MPI_BOTTOM, 1, pick, packed.data(), int(packed.size()), &position, MPI_COMM_WORLD);
    CHECK(position == 8 * int(sizeof(double)), "Pack: position %d", position);
    position = 0;
    MPI_Unpack(packed.data(), int(packed.size()), &position, MPI_BOTTOM, 1, place, MPI_COMM_WORLD);
#endif
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 2; ++j)
        CHECK(w[size_t(4 * k + 2 + j)] == v[size_t(4 * k + 1 + j)], "Unpack: w[%d] is %g",
              4 * k + 2 + j, w[size_t(4 * k + 2 + j)]);
    MPI_Type_free(&pick);
    MPI_Type_free(&place);
  }

  // --- MPI_Put from MPI_BOTTOM ------------------------------------------------
  {
    std::vector<int> mem(2 * size_t(n), -1);
    MPI_Win win;
    MPI_Win_create(mem.data(), MPI_Aint(mem.size() * sizeof(int)), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    int first = rank * 7, second = rank * 7 + 1;
    MPI_Aint disp[2];
    MPI_Get_address(&first, &disp[0]);
    MPI_Get_address(&second, &disp[1]);
    const int blocklens[2] = {1, 1};
    MPI_Datatype origin;
    MPI_Type_create_hindexed(2, blocklens, disp, MPI_INT, &origin);
    MPI_Type_commit(&origin);
    MPI_Win_fence(0, win);
    MPI_Put(MPI_BOTTOM, 1, origin, next, 2 * rank, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECK(mem[2 * size_t(prev)] == prev * 7 && mem[2 * size_t(prev) + 1] == prev * 7 + 1,
          "Put: slots hold %d %d", mem[2 * size_t(prev)], mem[2 * size_t(prev) + 1]);
    MPI_Type_free(&origin);
    MPI_Win_free(&win);
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
