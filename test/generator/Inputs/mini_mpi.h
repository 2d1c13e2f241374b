/* A tiny stand-in for mpi.h, for the generator's error cases. */
typedef int MPI_Comm;
typedef int MPI_Datatype;
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Pcontrol(const int level, ...);
int PMPI_Pcontrol(const int level, ...);
int MPI_Scalar_only(int a, long b);
int PMPI_Scalar_only(int a, long b);
