! Collectives, a communicator split, derived datatypes and a Waitsome loop in
! Fortran (mpif.h): Bcast; Allreduce, Reduce and Allgather with MPI_IN_PLACE;
! Gather, Alltoall; MPI_Comm_split with a name set with trailing blanks;
! contiguous, vector and struct datatypes through a Sendrecv ring, and an
! hindexed one of MPI_Get_address's addresses sent from MPI_BOTTOM; rank 0
! completes one receive per MPI_Waitsome (each sender waits for its token),
! so every index is known: 1-based, in 1..incount. Checks every result; prints
! "fcollectives: OK". Its C twin, fcollectives_c.c, makes the same MPI calls.
program fcollectives
  implicit none
  include 'mpif.h'
  integer, parameter :: nmax = 16
  integer :: ierr, rank, nranks, sub, subrank, subsize, bad, i, k, left, right
  integer :: ibuf(nmax), rbuf(nmax), gath(nmax), a2a_s(nmax), a2a_r(nmax)
  double precision :: dsum(4)
  integer :: vec, pair, ctype, blocklens(2), types(2)
  integer(kind=MPI_ADDRESS_KIND) :: displs(2), lb, extent, addrs(2)
  integer :: abstype
  integer :: req(nmax), idx(nmax), sts(MPI_STATUS_SIZE, nmax), outcount, token, count
  integer :: st(MPI_STATUS_SIZE), resultlen, total
  character(len=16) :: name
  character(len=MPI_MAX_OBJECT_NAME) :: got

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  bad = 0

  ! Bcast
  ibuf = 0
  if (rank == 0) ibuf(1:4) = (/ 1, 2, 3, 4 /)
  call MPI_Bcast(ibuf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (any(ibuf(1:4) /= (/ 1, 2, 3, 4 /))) bad = bad + 1

  ! Allreduce in place
  dsum = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, dsum, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (any(abs(dsum - nranks * (nranks + 1) / 2) > 0.5d0)) bad = bad + 1

  ! Reduce in place at the root
  ibuf(1) = rank * 3
  if (rank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, ibuf, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
    if (ibuf(1) /= (nranks - 1) * 3) bad = bad + 1
  else
    call MPI_Reduce(ibuf, rbuf, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  end if

  ! Gather, Allgather in place, Alltoall
  ibuf(1) = rank * 10
  call MPI_Gather(ibuf, 1, MPI_INTEGER, gath, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    do k = 1, nranks
      if (gath(k) /= (k - 1) * 10) bad = bad + 1
    end do
  end if
  gath(rank + 1) = rank + 7
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gath, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do k = 1, nranks
    if (gath(k) /= k + 6) bad = bad + 1
  end do
  do k = 1, nranks
    a2a_s(k) = rank * 100 + k - 1
  end do
  call MPI_Alltoall(a2a_s, 1, MPI_INTEGER, a2a_r, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do k = 1, nranks
    if (a2a_r(k) /= (k - 1) * 100 + rank) bad = bad + 1
  end do

  ! Split into even and odd ranks, in reverse order; a name with trailing blanks
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, sub, ierr)
  call MPI_Comm_rank(sub, subrank, ierr)
  call MPI_Comm_size(sub, subsize, ierr)
  if (subsize /= (nranks + 1 - mod(rank, 2)) / 2) bad = bad + 1
  if (subrank /= subsize - 1 - rank / 2) bad = bad + 1
  name = 'half'
  call MPI_Comm_set_name(sub, name, ierr)
  got = 'x'
  call MPI_Comm_get_name(sub, got, resultlen, ierr)
  if (resultlen /= 4 .or. got /= 'half') bad = bad + 1
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, sub, ierr)
  k = 0
  do i = mod(rank, 2), nranks - 1, 2
    k = k + i
  end do
  if (total /= k) bad = bad + 1
  call MPI_Comm_free(sub, ierr)
  if (sub /= MPI_COMM_NULL) bad = bad + 1

  ! Derived datatypes: elements 1 and 3 (a vector) to the right, into two
  ! contiguous integers from the left
  call MPI_Type_vector(2, 1, 2, MPI_INTEGER, vec, ierr)
  call MPI_Type_contiguous(2, MPI_INTEGER, pair, ierr)
  blocklens = 1
  displs(1) = 0
  displs(2) = 8
  types(1) = MPI_INTEGER
  types(2) = MPI_DOUBLE_PRECISION
  call MPI_Type_create_struct(2, blocklens, displs, types, ctype, ierr)
  call MPI_Type_commit(vec, ierr)
  call MPI_Type_commit(pair, ierr)
  call MPI_Type_commit(ctype, ierr)
  call MPI_Type_get_extent(ctype, lb, extent, ierr)
  if (lb /= 0 .or. extent /= 16) bad = bad + 1
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  do k = 1, 4
    ibuf(k) = rank * 10 + k
  end do
  rbuf = -1
  call MPI_Sendrecv(ibuf, 1, vec, right, 5, rbuf, 1, pair, left, 5, MPI_COMM_WORLD, st, ierr)
  if (rbuf(1) /= left * 10 + 1 .or. rbuf(2) /= left * 10 + 3 .or. rbuf(3) /= -1) bad = bad + 1
  call MPI_Get_count(st, pair, count, ierr)
  if (count /= 1 .or. st(MPI_SOURCE) /= left) bad = bad + 1
  call MPI_Type_free(vec, ierr)
  call MPI_Type_free(pair, ierr)
  call MPI_Type_free(ctype, ierr)

  ! Absolute addresses: elements 1 and 3 from MPI_BOTTOM
  call MPI_Get_address(ibuf(1), addrs(1), ierr)
  call MPI_Get_address(ibuf(3), addrs(2), ierr)
  call MPI_Type_create_hindexed(2, blocklens, addrs, MPI_INTEGER, abstype, ierr)
  call MPI_Type_commit(abstype, ierr)
  rbuf = -1
  call MPI_Sendrecv(MPI_BOTTOM, 1, abstype, right, 6, rbuf, 2, MPI_INTEGER, left, 6, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (rbuf(1) /= left * 10 + 1 .or. rbuf(2) /= left * 10 + 3 .or. rbuf(3) /= -1) bad = bad + 1
  call MPI_Type_free(abstype, ierr)

  ! A Waitsome loop: one receive completes per call
  if (rank == 0) then
    do k = 1, nranks - 1
      call MPI_Irecv(rbuf(k), 1, MPI_INTEGER, k, 7, MPI_COMM_WORLD, req(k), ierr)
    end do
    do k = 1, nranks - 1
      token = k
      call MPI_Send(token, 1, MPI_INTEGER, k, 8, MPI_COMM_WORLD, ierr)
      call MPI_Waitsome(nranks - 1, req, outcount, idx, sts, ierr)
      if (outcount /= 1 .or. idx(1) /= k) bad = bad + 1
      if (sts(MPI_SOURCE, 1) /= k .or. sts(MPI_TAG, 1) /= 7 .or. rbuf(k) /= k * 11) bad = bad + 1
      if (req(k) /= MPI_REQUEST_NULL) bad = bad + 1
    end do
    call MPI_Waitsome(nranks - 1, req, outcount, idx, MPI_STATUSES_IGNORE, ierr)
    if (outcount /= MPI_UNDEFINED) bad = bad + 1
  else
    call MPI_Recv(token, 1, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (token /= rank) bad = bad + 1
    token = rank * 11
    call MPI_Send(token, 1, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, ierr)
  end if

  if (bad /= 0) then
    print '(a, i0, a, i0)', 'fcollectives: rank ', rank, ' FAILED checks: ', bad
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  if (rank == 0) print '(a)', 'fcollectives: OK'
  call MPI_Finalize(ierr)
end program fcollectives
