! The smallest `use mpi_f08` program: MPI_Init without ierror, a rank, a
! barrier. Under Open MPI it is traced; under MPICH, whose mpi_f08 calls
! PMPI_* itself, the tracer says in one line that it is not
! (test/fortran/f08_init.test). Prints "f08_init: OK".
program f08_init
  use mpi_f08
  implicit none
  integer :: rank
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) print '(a)', 'f08_init: OK'
  call MPI_Finalize()
end program f08_init
