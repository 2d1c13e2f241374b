/* A stand-in for MPICH's mpi.h, which includes <mpi_proto.h> from its own
   folder; it also needs a macro that only the flags after "--" define. */
#ifndef SPLIT_HEADER_FLAG
#error "the flags after -- did not arrive"
#endif
#include <split_proto.h>
