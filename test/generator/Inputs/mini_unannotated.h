/* MPI_Comm_dup takes a handle: it may not default and must be annotated. */
typedef int MPI_Comm;
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
