! MPI_Comm_spawn from Fortran (`use mpi`): the parents spawn one child, this
! program itself with the arguments "child" (a CHARACTER array ended by a
! blank entry); the child finds its parent, checks its argument and sends
! 43 to parent rank 0, which checks it and MPI_Comm_spawn's error code. Its
! C twin, fspawn_c.c, makes the same MPI calls. Prints "fspawn: OK".
program fspawn
  use mpi
  implicit none
  integer :: ierr, parent, inter, errcodes(1), rank, n, bad
  character(len=256) :: self
  character(len=16) :: args(2)
  call MPI_Init(ierr)
  call MPI_Comm_get_parent(parent, ierr)
  if (parent == MPI_COMM_NULL) then
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call get_command_argument(0, self)
    args(1) = 'child  '
    args(2) = ' '
    errcodes(1) = -1
    call MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
    bad = 0
    if (ierr /= MPI_SUCCESS) bad = bad + 1
    if (rank == 0) then
      call MPI_Recv(n, 1, MPI_INTEGER, 0, 5, inter, MPI_STATUS_IGNORE, ierr)
      if (n /= 43 .or. errcodes(1) /= MPI_SUCCESS) bad = bad + 1
    end if
    call MPI_Comm_disconnect(inter, ierr)
    call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. bad == 0) print '(a)', 'fspawn: OK'
    if (rank == 0 .and. bad /= 0) print '(a,i0)', 'fspawn: FAILED ', bad
  else
    call get_command_argument(1, args(1))
    n = 0
    if (trim(args(1)) == 'child') n = 43
    call MPI_Send(n, 1, MPI_INTEGER, 0, 5, parent, ierr)
    call MPI_Comm_disconnect(parent, ierr)
  end if
  call MPI_Finalize(ierr)
end program fspawn
