! What a traced Fortran call costs (bench/sites_cost.sh): N calls of
! MPI_Comm_rank from Fortran, through the tracer's Fortran entry point, which
! hands the application's call site to the C wrapper (README, "Call sites").
! Run as a singleton under callgrind at two N, so that start-up and
! MPI_Finalize cancel out.
!   overhead_fortran N
program overhead_fortran
  use mpi
  implicit none
  integer :: ierr, rank, i, n
  character(len=32) :: arg
  call get_command_argument(1, arg)
  read (arg, *) n
  call MPI_Init(ierr)
  do i = 1, n
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  end do
  if (rank /= 0) stop 1 ! a singleton is rank 0
  call MPI_Finalize(ierr)
end program overhead_fortran
