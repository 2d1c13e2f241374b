// datatypes: derived datatypes, their layout and packing.
//
// MPI_Type_contiguous, MPI_Type_vector, MPI_Type_create_hvector,
// MPI_Type_indexed, MPI_Type_create_hindexed, MPI_Type_create_indexed_block,
// MPI_Type_create_struct (displacements from MPI_Get_address and
// MPI_Aint_diff), MPI_Type_create_subarray, MPI_Type_create_resized,
// MPI_Type_dup, MPI_Type_commit, MPI_Type_free, MPI_Type_size,
// MPI_Type_get_extent, MPI_Type_get_true_extent, MPI_Type_get_envelope,
// MPI_Type_get_contents, MPI_Get_count/MPI_Get_elements with derived types,
// MPI_Pack, MPI_Unpack, MPI_Pack_size and MPI_PACKED messages.
// Every type is sent around the ring (to the next rank, from the previous)
// both as "derived -> contiguous" and "contiguous -> derived" and the
// received layout is checked element by element.  Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <cstddef>
#include <vector>

namespace {

int g_rank = 0, g_next = 0, g_prev = 0;

int base(int r) { return 1000 * (r + 1); }

void sendrecv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
              MPI_Datatype rtype, MPI_Status *st) {
  MPI_Sendrecv(sbuf, scount, stype, g_next, 0, rbuf, rcount, rtype, g_prev, 0, MPI_COMM_WORLD, st);
}

void check_extent(MPI_Datatype t, const char *name, int size, MPI_Aint lb, MPI_Aint extent) {
  int got_size = -1;
  MPI_Aint got_lb = -1, got_extent = -1;
  MPI_Type_size(t, &got_size);
  MPI_Type_get_extent(t, &got_lb, &got_extent);
  CHECK(got_size == size && got_lb == lb && got_extent == extent,
        "%s: size/lb/extent %d/%ld/%ld, expected %d/%ld/%ld", name, got_size, long(got_lb),
        long(got_extent), size, long(lb), long(extent));
}

// Test a committed type made of ints whose type map selects the int offsets
// `offsets` (in order) from a buffer of `span` ints.
void test_int_type(MPI_Datatype t, const char *name, const std::vector<int> &offsets, int span) {
  const int k = int(offsets.size());
  std::vector<int> src(span);
  for (int i = 0; i < span; ++i) src[i] = base(g_rank) + i;

  // derived -> contiguous: the selected elements arrive packed in order.
  std::vector<int> packed(k + 1, -1);
  MPI_Status st;
  sendrecv(src.data(), 1, t, packed.data(), k + 1, MPI_INT, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == k, "%s: received %d ints, expected %d", name, count, k);
  for (int i = 0; i < k; ++i)
    CHECK(packed[i] == base(g_prev) + offsets[i], "%s: packed element %d is %d, expected %d", name,
          i, packed[i], base(g_prev) + offsets[i]);

  // contiguous -> derived: the elements are scattered to the offsets and
  // nothing else in the buffer is touched.
  std::vector<int> plain(k), scattered(span, -1);
  for (int i = 0; i < k; ++i) plain[i] = base(g_rank) + 100 + i;
  sendrecv(plain.data(), k, MPI_INT, scattered.data(), 1, t, &st);
  MPI_Get_count(&st, t, &count);
  int elements = -1;
  MPI_Get_elements(&st, t, &elements);
  CHECK(count == 1 && elements == k, "%s: Get_count %d Get_elements %d", name, count, elements);
  std::vector<int> want(span, -1);
  for (int i = 0; i < k; ++i) want[offsets[i]] = base(g_prev) + 100 + i;
  for (int i = 0; i < span; ++i)
    CHECK(scattered[i] == want[i], "%s: scattered buffer element %d is %d, expected %d", name, i,
          scattered[i], want[i]);
}

void free_type(MPI_Datatype *t) {
  MPI_Type_free(t);
  CHECK(*t == MPI_DATATYPE_NULL, "Type_free did not reset the handle");
}

struct Particle {
  int id;
  double pos[2];
  char kind;
};

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("datatypes");
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  g_next = (g_rank + 1) % size;
  g_prev = (g_rank + size - 1) % size;
  const MPI_Aint I = sizeof(int);

  // --- contiguous ----------------------------------------------------------
  MPI_Datatype contig;
  MPI_Type_contiguous(4, MPI_INT, &contig);
  MPI_Type_commit(&contig);
  check_extent(contig, "contiguous", 16, 0, 16);
  test_int_type(contig, "contiguous", {0, 1, 2, 3}, 4);

  // --- vector: 3 blocks of 2, stride 4 -------------------------------------
  MPI_Datatype vec;
  MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  check_extent(vec, "vector", 24, 0, 10 * I);
  test_int_type(vec, "vector", {0, 1, 4, 5, 8, 9}, 12);
  {
    int ni = -1, na = -1, nd = -1, combiner = -1;
    MPI_Type_get_envelope(vec, &ni, &na, &nd, &combiner);
    CHECK(combiner == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1,
          "vector envelope: combiner %d, %d ints %d addresses %d types", combiner, ni, na, nd);
    int ints[3] = {0, 0, 0};
    MPI_Aint addrs[1] = {0};
    MPI_Datatype types[1] = {MPI_DATATYPE_NULL};
    MPI_Type_get_contents(vec, 3, 0, 1, ints, addrs, types);
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && types[0] == MPI_INT,
          "vector contents: %d %d %d", ints[0], ints[1], ints[2]);
  }

  // --- hvector: 3 blocks of 2, stride 20 bytes -----------------------------
  MPI_Datatype hvec;
  MPI_Type_create_hvector(3, 2, 5 * I, MPI_INT, &hvec);
  MPI_Type_commit(&hvec);
  check_extent(hvec, "hvector", 24, 0, 12 * I);
  test_int_type(hvec, "hvector", {0, 1, 5, 6, 10, 11}, 12);

  // --- indexed ---------------------------------------------------------------
  MPI_Datatype idx;
  {
    const int blocklens[3] = {1, 2, 3}, displs[3] = {0, 3, 7};
    MPI_Type_indexed(3, blocklens, displs, MPI_INT, &idx);
  }
  MPI_Type_commit(&idx);
  check_extent(idx, "indexed", 24, 0, 10 * I);
  test_int_type(idx, "indexed", {0, 3, 4, 7, 8, 9}, 10);

  // --- indexed_block ---------------------------------------------------------
  MPI_Datatype idxb;
  {
    const int displs[3] = {1, 5, 8};
    MPI_Type_create_indexed_block(3, 2, displs, MPI_INT, &idxb);
  }
  MPI_Type_commit(&idxb);
  check_extent(idxb, "indexed_block", 24, I, 9 * I);
  test_int_type(idxb, "indexed_block", {1, 2, 5, 6, 8, 9}, 10);

  // --- subarray: 3x2 block at (2,1) of a 6x5 C array ------------------------
  MPI_Datatype sub;
  {
    const int sizes[2] = {6, 5}, subsizes[2] = {3, 2}, starts[2] = {2, 1};
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
  }
  MPI_Type_commit(&sub);
  check_extent(sub, "subarray", 24, 0, 30 * I);
  test_int_type(sub, "subarray", {11, 12, 16, 17, 21, 22}, 30);

  // --- resized: a matrix column with the extent of one int -> transpose ----
  MPI_Datatype column, col_resized;
  MPI_Type_vector(4, 1, 4, MPI_INT, &column);
  MPI_Type_create_resized(column, 0, I, &col_resized);
  MPI_Type_commit(&col_resized);
  check_extent(col_resized, "resized column", 16, 0, I);
  {
    MPI_Aint tlb = -1, textent = -1;
    MPI_Type_get_true_extent(col_resized, &tlb, &textent);
    CHECK(tlb == 0 && textent == 13 * I, "resized column: true lb/extent %ld/%ld", long(tlb),
          long(textent));
    int m[16], t[16];
    for (int i = 0; i < 16; ++i) {
      m[i] = base(g_rank) + i;
      t[i] = -1;
    }
    MPI_Status st;
    sendrecv(m, 4, col_resized, t, 16, MPI_INT, &st);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        CHECK(t[j * 4 + i] == base(g_prev) + i * 4 + j, "transpose: t[%d][%d] is %d", j, i,
              t[j * 4 + i]);
  }

  // --- dup -----------------------------------------------------------------
  MPI_Datatype vec_dup;
  MPI_Type_dup(vec, &vec_dup);
  check_extent(vec_dup, "dup", 24, 0, 10 * I);
  {
    int ni = -1, na = -1, nd = -1, combiner = -1;
    MPI_Type_get_envelope(vec_dup, &ni, &na, &nd, &combiner);
    CHECK(combiner == MPI_COMBINER_DUP, "dup envelope: combiner %d", combiner);
    // Sender uses the duplicate, receiver the original.
    int src[12], dst[12];
    for (int i = 0; i < 12; ++i) {
      src[i] = base(g_rank) + i;
      dst[i] = -1;
    }
    MPI_Sendrecv(src, 1, vec_dup, g_next, 1, dst, 1, vec, g_prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 12; ++i) {
      const bool selected = i % 4 < 2 && i < 10;
      CHECK(dst[i] == (selected ? base(g_prev) + i : -1), "dup: element %d is %d", i, dst[i]);
    }
  }

  // --- hindexed on doubles -----------------------------------------------------
  MPI_Datatype hidx;
  {
    const int blocklens[2] = {2, 1};
    const MPI_Aint displs[2] = {8, 32};
    MPI_Type_create_hindexed(2, blocklens, displs, MPI_DOUBLE, &hidx);
  }
  MPI_Type_commit(&hidx);
  check_extent(hidx, "hindexed", 24, 8, 32);
  {
    double src[6], dst[6];
    for (int i = 0; i < 6; ++i) {
      src[i] = base(g_rank) + 0.5 * i;
      dst[i] = -1.0;
    }
    MPI_Status st;
    sendrecv(src, 1, hidx, dst, 1, hidx, &st);
    for (int i = 0; i < 6; ++i) {
      const bool selected = i == 1 || i == 2 || i == 4;
      CHECK(dst[i] == (selected ? base(g_prev) + 0.5 * i : -1.0), "hindexed: element %d is %g",
            i, dst[i]);
    }
    int elements = -1;
    MPI_Get_elements(&st, hidx, &elements);
    CHECK(elements == 3, "hindexed: Get_elements gave %d", elements);
  }

  // --- struct with displacements from MPI_Get_address, resized to the C++ size
  MPI_Datatype particle_raw, particle;
  {
    Particle p;
    MPI_Aint a_base, a_id, a_pos, a_kind;
    MPI_Get_address(&p, &a_base);
    MPI_Get_address(&p.id, &a_id);
    MPI_Get_address(&p.pos[0], &a_pos);
    MPI_Get_address(&p.kind, &a_kind);
    const int blocklens[3] = {1, 2, 1};
    const MPI_Aint displs[3] = {MPI_Aint_diff(a_id, a_base), MPI_Aint_diff(a_pos, a_base),
                                MPI_Aint_diff(a_kind, a_base)};
    CHECK(displs[0] == MPI_Aint(offsetof(Particle, id)) &&
              displs[1] == MPI_Aint(offsetof(Particle, pos)) &&
              displs[2] == MPI_Aint(offsetof(Particle, kind)),
          "Get_address displacements %ld %ld %ld", long(displs[0]), long(displs[1]),
          long(displs[2]));
    const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(3, blocklens, displs, types, &particle_raw);
    MPI_Type_create_resized(particle_raw, 0, sizeof(Particle), &particle);
    MPI_Type_commit(&particle);
  }
  check_extent(particle, "struct", 4 + 16 + 1, 0, sizeof(Particle));
  {
    Particle src[3], dst[3];
    for (int i = 0; i < 3; ++i) {
      src[i].id = base(g_rank) + i;
      src[i].pos[0] = g_rank + 0.25 * i;
      src[i].pos[1] = -g_rank - 0.5 * i;
      src[i].kind = char('a' + g_rank + i);
      dst[i].id = -1;
      dst[i].pos[0] = dst[i].pos[1] = 0.0;
      dst[i].kind = '?';
    }
    MPI_Status st;
    sendrecv(src, 3, particle, dst, 3, particle, &st);
    int count = -1, elements = -1;
    MPI_Get_count(&st, particle, &count);
    MPI_Get_elements(&st, particle, &elements);
    CHECK(count == 3 && elements == 12, "struct: Get_count %d Get_elements %d", count, elements);
    for (int i = 0; i < 3; ++i)
      CHECK(dst[i].id == base(g_prev) + i && dst[i].pos[0] == g_prev + 0.25 * i &&
                dst[i].pos[1] == -g_prev - 0.5 * i && dst[i].kind == char('a' + g_prev + i),
            "struct: particle %d is {%d, %g, %g, %c}", i, dst[i].id, dst[i].pos[0], dst[i].pos[1],
            dst[i].kind);
  }

  // --- Pack / Unpack / Pack_size -----------------------------------------------
  {
    int sz_int = 0, sz_vec = 0, sz_dbl = 0;
    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &sz_int);
    MPI_Pack_size(1, vec, MPI_COMM_WORLD, &sz_vec);
    MPI_Pack_size(2, MPI_DOUBLE, MPI_COMM_WORLD, &sz_dbl);
    const int bound = sz_int + sz_vec + sz_dbl;
    CHECK(sz_vec >= 24 && sz_dbl >= 16, "Pack_size too small: %d %d", sz_vec, sz_dbl);
    std::vector<char> packbuf(bound);
    int header = base(g_rank), matrix[12];
    for (int i = 0; i < 12; ++i) matrix[i] = base(g_rank) + 50 + i;
    const double tail[2] = {g_rank + 0.125, g_rank - 0.125};
    int position = 0;
    MPI_Pack(&header, 1, MPI_INT, packbuf.data(), bound, &position, MPI_COMM_WORLD);
    MPI_Pack(matrix, 1, vec, packbuf.data(), bound, &position, MPI_COMM_WORLD);
    MPI_Pack(tail, 2, MPI_DOUBLE, packbuf.data(), bound, &position, MPI_COMM_WORLD);
    CHECK(position > 0 && position <= bound, "Pack position %d, bound %d", position, bound);

    std::vector<char> inbuf(bound);
    MPI_Status st;
    sendrecv(packbuf.data(), position, MPI_PACKED, inbuf.data(), bound, MPI_PACKED, &st);
    int received = -1;
    MPI_Get_count(&st, MPI_PACKED, &received);
    CHECK(received == position, "MPI_PACKED message has %d bytes, expected %d", received,
          position);
    int in_header = -1, in_matrix[12], pos = 0;
    double in_tail[2] = {0.0, 0.0};
    for (int &x : in_matrix) x = -1;
    MPI_Unpack(inbuf.data(), received, &pos, &in_header, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack(inbuf.data(), received, &pos, in_matrix, 1, vec, MPI_COMM_WORLD);
    MPI_Unpack(inbuf.data(), received, &pos, in_tail, 2, MPI_DOUBLE, MPI_COMM_WORLD);
    CHECK(pos == received, "Unpack consumed %d of %d bytes", pos, received);
    CHECK(in_header == base(g_prev), "Unpack: header is %d", in_header);
    for (int i = 0; i < 12; ++i) {
      const bool selected = i % 4 < 2 && i < 10;
      CHECK(in_matrix[i] == (selected ? base(g_prev) + 50 + i : -1),
            "Unpack: matrix element %d is %d", i, in_matrix[i]);
    }
    CHECK(in_tail[0] == g_prev + 0.125 && in_tail[1] == g_prev - 0.125, "Unpack: tail %g %g",
          in_tail[0], in_tail[1]);
  }

  for (MPI_Datatype *t : {&contig, &vec, &hvec, &idx, &idxb, &sub, &column, &col_resized,
                          &vec_dup, &hidx, &particle_raw, &particle})
    free_type(t);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
