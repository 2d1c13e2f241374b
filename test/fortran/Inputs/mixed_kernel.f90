! The Fortran half of mixed_main.c: MPI_IN_PLACE, MPI_STATUS_IGNORE and
! MPI_STATUSES_IGNORE from Fortran in a program whose MPI_Init was C's.
subroutine mixed_kernel(errors)
  use mpi
  implicit none
  integer, intent(inout) :: errors
  integer :: ierr, rank, nranks, sum, token, peer, reqs(2), sent
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  sum = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (sum /= nranks * (nranks + 1) / 2) errors = errors + 1
  peer = ieor(rank, 1)
  sent = 100 + rank
  token = -1
  call MPI_Irecv(token, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sent, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  if (token /= 100 + peer) errors = errors + 1
  token = -1
  call MPI_Sendrecv(sent, 1, MPI_INTEGER, peer, 6, token, 1, MPI_INTEGER, peer, 6, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (token /= 100 + peer) errors = errors + 1
end subroutine mixed_kernel
