! A 2-D stencil in Fortran (`use mpi`): a periodic Cartesian grid of ranks,
! each holding an n x n block with a halo; per iteration the four halos are
! exchanged with MPI_Irecv/MPI_Isend/MPI_Waitall (rows through a vector
! datatype) and the block sums are combined with MPI_Allreduce. Checks every
! halo value, the statuses' sources and the global sum; prints
! "stencil2d: OK". (Every value is a whole number, exact in double precision:
! differences above 0.5 are the program's inequality tests.) Its C twin, stencil2d_c.c, makes the same MPI calls.
program stencil2d
  use mpi
  implicit none
  integer, parameter :: n = 6, iters = 4
  double precision, save :: u(0:n+1, 0:n+1)
  integer :: ierr, rank, nranks, cart, dims(2), left, right, down, up, rowtype
  integer :: it, i, j, r, bad
  logical :: periods(2)
  integer :: req(8), stats(MPI_STATUS_SIZE, 8)
  double precision :: local, global, expect

  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  dims = 0
  call MPI_Dims_create(nranks, 2, dims, ierr)
  periods = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Comm_rank(cart, rank, ierr)
  call MPI_Cart_shift(cart, 0, 1, left, right, ierr)
  call MPI_Cart_shift(cart, 1, 1, down, up, ierr)
  call MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE_PRECISION, rowtype, ierr)
  call MPI_Type_commit(rowtype, ierr)

  bad = 0
  do it = 1, iters
    u = -1
    do j = 1, n
      do i = 1, n
        u(i, j) = val(rank, it, i, j)
      end do
    end do
    call MPI_Irecv(u(0, 1), 1, rowtype, left, 0, cart, req(1), ierr)
    call MPI_Irecv(u(n + 1, 1), 1, rowtype, right, 1, cart, req(2), ierr)
    call MPI_Irecv(u(1, 0), n, MPI_DOUBLE_PRECISION, down, 2, cart, req(3), ierr)
    call MPI_Irecv(u(1, n + 1), n, MPI_DOUBLE_PRECISION, up, 3, cart, req(4), ierr)
    call MPI_Isend(u(n, 1), 1, rowtype, right, 0, cart, req(5), ierr)
    call MPI_Isend(u(1, 1), 1, rowtype, left, 1, cart, req(6), ierr)
    call MPI_Isend(u(1, n), n, MPI_DOUBLE_PRECISION, up, 2, cart, req(7), ierr)
    call MPI_Isend(u(1, 1), n, MPI_DOUBLE_PRECISION, down, 3, cart, req(8), ierr)
    call MPI_Waitall(8, req, stats, ierr)
    if (ierr /= MPI_SUCCESS) bad = bad + 1
    do i = 1, 8
      if (req(i) /= MPI_REQUEST_NULL) bad = bad + 1
    end do
    if (stats(MPI_SOURCE, 1) /= left .or. stats(MPI_SOURCE, 2) /= right) bad = bad + 1
    if (stats(MPI_SOURCE, 3) /= down .or. stats(MPI_SOURCE, 4) /= up) bad = bad + 1
    if (stats(MPI_TAG, 3) /= 2) bad = bad + 1
    do j = 1, n
      if (abs(u(0, j) - val(left, it, n, j)) > 0.5d0) bad = bad + 1
      if (abs(u(n + 1, j) - val(right, it, 1, j)) > 0.5d0) bad = bad + 1
    end do
    do i = 1, n
      if (abs(u(i, 0) - val(down, it, i, n)) > 0.5d0) bad = bad + 1
      if (abs(u(i, n + 1) - val(up, it, i, 1)) > 0.5d0) bad = bad + 1
    end do
    local = sum(u(1:n, 1:n))
    call MPI_Allreduce(local, global, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart, ierr)
    expect = 0
    do r = 0, nranks - 1
      do j = 1, n
        do i = 1, n
          expect = expect + val(r, it, i, j)
        end do
      end do
    end do
    if (abs(global - expect) > 0.5d0) bad = bad + 1
  end do

  call MPI_Type_free(rowtype, ierr)
  if (rowtype /= MPI_DATATYPE_NULL) bad = bad + 1
  call MPI_Comm_free(cart, ierr)
  if (cart /= MPI_COMM_NULL) bad = bad + 1
  if (bad /= 0) then
    print '(a, i0, a, i0)', 'stencil2d: rank ', rank, ' FAILED checks: ', bad
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  if (rank == 0) print '(a)', 'stencil2d: OK'
  call MPI_Finalize(ierr)

contains

  double precision function val(r, it, i, j)
    integer, intent(in) :: r, it, i, j
    val = r * 100000 + it * 10000 + i * 100 + j
  end function val

end program stencil2d
