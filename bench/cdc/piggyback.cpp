// The two ways a Lamport clock can travel with a message (issue 29; the CDC
// paper, Def. 4 and §4.3), measured against a plain message in one program:
//   plain     the user's message alone;
//   datatype  one message of a struct datatype {the 8-byte clock, the user's
//             buffer}, both at absolute addresses (MPI_BOTTOM), built,
//             committed and freed around every send and receive, as the
//             paper's PnMPI layer does; the receiver's MPI_Get_count is then
//             in struct units and must be corrected (checked here);
//   message   the clock as a separate 8-byte message on a private duplicate of
//             the user's communicator, with the user's tag, sent before the
//             data: MPI's non-overtaking rule pairs the k-th clock from a
//             sender and tag with its k-th data message, and the receiver
//             learns sender and tag from the data's status.
// Ranks 0 and 1 ping-pong N round trips of SIZE bytes (the other ranks,
// if any, wait); rank 0 prints one line per mode with ns per round trip. The
// receiver checks every payload and clock (clock = max(own, received) + 1).
//   piggyback [-n ROUNDS] [-s BYTES] [-r REPEATS]
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "piggyback: FAIL: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

struct Channel {
  MPI_Comm comm = MPI_COMM_WORLD, clocks = MPI_COMM_NULL;
  long long clock = 0;
};

enum class Mode { Plain, Datatype, Message };

// A struct type {clock, buffer}: both at absolute addresses.
MPI_Datatype clock_and(long long *clock, void *buf, int count, MPI_Datatype type) {
  int lengths[2] = {1, count};
  MPI_Aint where[2];
  MPI_Get_address(clock, &where[0]);
  MPI_Get_address(buf, &where[1]);
  MPI_Datatype types[2] = {MPI_LONG_LONG, type};
  MPI_Datatype t;
  MPI_Type_create_struct(2, lengths, where, types, &t);
  MPI_Type_commit(&t);
  return t;
}

void send(Mode m, Channel &ch, void *buf, int count, int dest, int tag) {
  if (m == Mode::Plain) {
    MPI_Send(buf, count, MPI_BYTE, dest, tag, ch.comm);
    return;
  }
  long long c = ch.clock++;
  if (m == Mode::Datatype) {
    MPI_Datatype t = clock_and(&c, buf, count, MPI_BYTE);
    MPI_Send(MPI_BOTTOM, 1, t, dest, tag, ch.comm);
    MPI_Type_free(&t);
  } else {
    MPI_Send(&c, 1, MPI_LONG_LONG, dest, tag, ch.clocks);
    MPI_Send(buf, count, MPI_BYTE, dest, tag, ch.comm);
  }
}

// Receives from any sender; returns the byte count the application sees.
int recv(Mode m, Channel &ch, void *buf, int count, int tag) {
  MPI_Status st;
  int got = 0;
  long long c = -1;
  if (m == Mode::Plain) {
    MPI_Recv(buf, count, MPI_BYTE, MPI_ANY_SOURCE, tag, ch.comm, &st);
    MPI_Get_count(&st, MPI_BYTE, &got);
    return got;
  }
  if (m == Mode::Datatype) {
    MPI_Datatype t = clock_and(&c, buf, count, MPI_BYTE);
    MPI_Recv(MPI_BOTTOM, 1, t, MPI_ANY_SOURCE, tag, ch.comm, &st);
    MPI_Type_free(&t);
    // MPI_Get_count in the struct's units says 1 (or MPI_UNDEFINED for a
    // shorter message); the application's count: the elements in bytes,
    // less the clock's 8.
    MPI_Get_elements(&st, MPI_BYTE, &got);
    got -= static_cast<int>(sizeof c);
  } else {
    MPI_Recv(buf, count, MPI_BYTE, MPI_ANY_SOURCE, tag, ch.comm, &st);
    MPI_Recv(&c, 1, MPI_LONG_LONG, st.MPI_SOURCE, st.MPI_TAG, ch.clocks, MPI_STATUS_IGNORE);
    MPI_Get_count(&st, MPI_BYTE, &got);
  }
  if (c < 0)
    fail("no clock came with the message");
  ch.clock = std::max(ch.clock, c) + 1;
  return got;
}

double run(Mode m, Channel &ch, int rank, int rounds, std::vector<unsigned char> &buf) {
  const int size = static_cast<int>(buf.size());
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank <= 1) {
    for (int i = 0; i < rounds; ++i) {
      const unsigned char mark = static_cast<unsigned char>(i * 7 + 1);
      if (rank == 0) {
        std::memset(buf.data(), mark, buf.size());
        send(m, ch, buf.data(), size, 1, 5);
        std::memset(buf.data(), 0, buf.size());
        if (recv(m, ch, buf.data(), size, 5) != size || buf.front() != mark || buf.back() != mark)
          fail("rank 0 received the wrong reply");
      } else {
        std::memset(buf.data(), 0, buf.size());
        if (recv(m, ch, buf.data(), size, 5) != size || buf.front() != mark || buf.back() != mark)
          fail("rank 1 received the wrong message");
        send(m, ch, buf.data(), size, 0, 5);
      }
    }
  }
  const double t = MPI_Wtime() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  // Each round trip is two messages, each advancing the sender's clock by 1
  // and the receiver's to max + 1: rank 0 ends at 2 * rounds for every mode
  // that carries clocks.
  if (m != Mode::Plain && rank == 0 && ch.clock != 2LL * rounds)
    fail("rank 0's clock is not twice the rounds");
  return t;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rounds = 20000, bytes = 8, repeats = 5;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string o = argv[a];
    const int v = std::atoi(argv[a + 1]);
    if (v <= 0)
      fail("option values are positive integers");
    if (o == "-n")
      rounds = v;
    else if (o == "-s")
      bytes = v;
    else if (o == "-r")
      repeats = v;
    else
      fail("usage: piggyback [-n ROUNDS] [-s BYTES] [-r REPEATS]");
  }
  int rank = 0, nranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks < 2)
    fail("needs 2 ranks");
  std::vector<unsigned char> buf(static_cast<size_t>(bytes));
  const Mode modes[3] = {Mode::Plain, Mode::Datatype, Mode::Message};
  const char *names[3] = {"plain", "datatype", "message"};
  double best[3] = {1e30, 1e30, 1e30};
  // Interleaved repeats, the best of each: load on a shared machine only
  // ever adds time.
  for (int r = 0; r < repeats; ++r)
    for (int k = 0; k < 3; ++k) {
      Channel ch;
      MPI_Comm_dup(MPI_COMM_WORLD, &ch.clocks);
      best[k] = std::min(best[k], run(modes[k], ch, rank, rounds, buf));
      MPI_Comm_free(&ch.clocks);
    }
  if (rank == 0)
    for (int k = 0; k < 3; ++k)
      std::printf("%s %d %.1f %.3f\n", names[k], bytes, best[k] / rounds * 1e9, best[k] / best[0]);
  MPI_Finalize();
  return 0;
}
