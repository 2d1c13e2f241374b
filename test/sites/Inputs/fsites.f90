! A Fortran program whose MPI calls sit at known lines: test/sites/fortran_sites.test.
program fsites
  use mpi
  implicit none
  integer :: ierr, rank, peer, rbuf, namelen, status(MPI_STATUS_SIZE)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  ! A CHARACTER argument (its hidden length) and thirteen arguments (some on the stack)
  call MPI_Comm_set_name(MPI_COMM_WORLD, 'fsites world', ierr)
  call MPI_Comm_get_name(MPI_COMM_WORLD, name, namelen, ierr)
  if (name(1:namelen) /= 'fsites world') error stop 'MPI_Comm_get_name'
  peer = 1 - rank
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, peer, 7, rbuf, 1, MPI_INTEGER, peer, 7, &
                    MPI_COMM_WORLD, status, ierr)
  if (rbuf /= peer .or. status(MPI_SOURCE) /= peer) error stop 'MPI_Sendrecv'
  call MPI_Finalize(ierr)
end program fsites
