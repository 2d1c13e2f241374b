! `use mpi_f08` (Open MPI only, README "Fortran"): a ring of nonblocking
! messages (Irecv/Isend/Waitall with statuses), a Waitany loop, an Allreduce
! with MPI_IN_PLACE, MPI_Comm_split and a named communicator, with the
! optional ierror left out of most calls. Open MPI's mpi_f08 module calls the
! same Fortran code as mpif.h (ompi_*_f), where the tracer's entry points
! take the calls. Checks every result; prints "f08_ring: OK".
program f08_ring
  use mpi_f08
  implicit none
  integer :: rank, nranks, left, right, k, idx, bad, ierr, resultlen
  integer :: sendv(3), recvv(3), sums(2)
  type(MPI_Request) :: req(2)
  type(MPI_Status) :: sts(2), st
  type(MPI_Comm) :: half
  character(len=MPI_MAX_OBJECT_NAME) :: got

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  bad = 0
  if (ierr /= MPI_SUCCESS) bad = bad + 1

  do k = 1, 3
    sendv = rank * 10 + k
    recvv = -1
    call MPI_Irecv(recvv, 3, MPI_INTEGER, left, k, MPI_COMM_WORLD, req(1))
    call MPI_Isend(sendv, 3, MPI_INTEGER, right, k, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, sts)
    if (any(recvv /= left * 10 + k)) bad = bad + 1
    if (sts(1)%MPI_SOURCE /= left .or. sts(1)%MPI_TAG /= k) bad = bad + 1
    if (req(1) /= MPI_REQUEST_NULL .or. req(2) /= MPI_REQUEST_NULL) bad = bad + 1
  end do

  ! Waitany until both complete: every index in 1..2, each once
  call MPI_Irecv(recvv, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, req(1))
  call MPI_Isend(sendv, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, req(2))
  sums = 0
  do k = 1, 2
    call MPI_Waitany(2, req, idx, st)
    if (idx < 1 .or. idx > 2) then
      bad = bad + 1
    else
      sums(idx) = sums(idx) + 1
    end if
  end do
  if (any(sums /= 1)) bad = bad + 1

  sums = rank
  call MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (any(sums /= nranks * (nranks - 1) / 2)) bad = bad + 1

  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
  call MPI_Comm_set_name(half, 'ring half   ')
  call MPI_Comm_get_name(half, got, resultlen)
  if (got /= 'ring half' .or. resultlen /= 9) bad = bad + 1
  call MPI_Barrier(half)
  call MPI_Comm_free(half)
  if (half /= MPI_COMM_NULL) bad = bad + 1

  if (bad /= 0) then
    print '(a, i0, a, i0)', 'f08_ring: rank ', rank, ' FAILED checks: ', bad
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  if (rank == 0) print '(a)', 'f08_ring: OK'
  call MPI_Finalize()
end program f08_ring
