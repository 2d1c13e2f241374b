/* The pilgrim pragmas without any definition of the hooks: a plugin-built
   program runs as if they were not there; with the hooks preloaded, each
   pragma calls its hook every time it runs (pragmas.test). */
#include <stdio.h>

int main(void) {
#pragma pilgrim phase("alone")
  printf("before\n");
  for (int i = 0; i < 2; ++i) {
#pragma pilgrim phase("loop")
  }
#pragma pilgrim trace off
#pragma pilgrim trace on
  printf("pragmas_absent: OK\n");
  return 0;
}
