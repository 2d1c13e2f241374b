typedef int MPI_Comm;
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)   /* missing semicolon */
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
