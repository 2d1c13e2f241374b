/* The pilgrim pragmas lowered by the plugin (pragmas.test), with this test's
   own definitions of the three hooks that libpilgrim defines (they print
   their calls): #pragma lines, _Pragma from macros the way
   pilgrim/annotate.h writes them under the plugin, in a loop, inside an
   unbraced if/else, in a function that returns early. */
#include <stdio.h>

void pilgrim_phase(const char *name) { printf("hook: phase %s\n", name); }
void pilgrim_trace_off(void) { printf("hook: trace off\n"); }
void pilgrim_trace_on(void) { printf("hook: trace on\n"); }

#define PRAGMA(text) _Pragma(#text)
#define PHASE(name) PRAGMA(pilgrim phase(name))
#define TRACE_OFF() _Pragma("pilgrim trace off")
#define TRACE_ON() _Pragma("pilgrim trace on")

static int work(int i) {
  if (i == 1)
    TRACE_OFF();
  else
    TRACE_ON();
  printf("work %d\n", i);
  return i;
}

int main(void) {
#pragma pilgrim phase("setup")
  printf("setup\n");
  for (int i = 0; i < 3; ++i) {
    PHASE("step");
    work(i);
  }
#pragma pilgrim trace off
  printf("quiet\n");
#pragma pilgrim trace on
  printf("pragmas: OK\n");
  return 0;
}
