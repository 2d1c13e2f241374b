/* The three hooks in a library of their own, LD_PRELOADed the way
   libpilgrim.so is (pragmas.test): a plugin-built program finds them
   whether it is PIE or not. */
#include <stdio.h>

void pilgrim_phase(const char *name) { printf("preloaded hook: phase %s\n", name); }
void pilgrim_trace_off(void) { printf("preloaded hook: trace off\n"); }
void pilgrim_trace_on(void) { printf("preloaded hook: trace on\n"); }
