/* The pilgrim pragmas without any definition of the hooks: a plugin-built
   program runs as if they were not there (pragmas.test). */
#include <stdio.h>

int main(void) {
#pragma pilgrim phase("alone")
  printf("before\n");
#pragma pilgrim trace off
#pragma pilgrim trace on
  printf("pragmas_absent: OK\n");
  return 0;
}
