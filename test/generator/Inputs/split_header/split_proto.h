/* Beside split_header/mpi.h, which includes it with <...>: the
   declarations of the small header the error cases use. */
#include "../mini_mpi.h"
