/* pilgrim/annotate.h: phases and tracing regions for programs traced with
 * Pilgrim (README "Regions and phases"). C and C++, any compiler.
 *
 *   PILGRIM_PHASE("solve");  the calls from here on are phase "solve" on this
 *                            rank, until its next PILGRIM_PHASE
 *   PILGRIM_TRACE_OFF();     tracing off (like MPI_Pcontrol(0))
 *   PILGRIM_TRACE_ON();      tracing on (like MPI_Pcontrol(1))
 *
 * Each is a marker in the trace. Without the tracer (libpilgrim neither
 * linked nor preloaded) they do nothing: the hooks are weak and called only
 * where the tracer defines them. Built with Pilgrim's compiler plugin, which
 * predefines PILGRIM_PLUGIN, they are the plugin's pragmas instead, which it
 * lowers to calls of the same hooks.
 *
 * A weak reference is resolved when the program is loaded: a program built
 * as PIE (the default of Debian's and Ubuntu's compilers) or linked with
 * -lpilgrim finds the hooks of an LD_PRELOADed libpilgrim; a non-PIE program
 * (-no-pie) finds them only when linked with -lpilgrim. */
#ifndef PILGRIM_ANNOTATE_H
#define PILGRIM_ANNOTATE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by libpilgrim (runtime/regions.cpp). */
extern void pilgrim_phase(const char *name) __attribute__((weak));
extern void pilgrim_trace_off(void) __attribute__((weak));
extern void pilgrim_trace_on(void) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#if defined(PILGRIM_PLUGIN) && PILGRIM_PLUGIN
#define PILGRIM_ANNOTATE_PRAGMA_(text) _Pragma(#text)
#define PILGRIM_PHASE(name) PILGRIM_ANNOTATE_PRAGMA_(pilgrim phase(name))
#define PILGRIM_TRACE_OFF() _Pragma("pilgrim trace off")
#define PILGRIM_TRACE_ON() _Pragma("pilgrim trace on")
#else
#define PILGRIM_PHASE(name)                                                                        \
  do {                                                                                             \
    if (pilgrim_phase)                                                                             \
      pilgrim_phase(name);                                                                         \
  } while (0)
#define PILGRIM_TRACE_OFF()                                                                        \
  do {                                                                                             \
    if (pilgrim_trace_off)                                                                         \
      pilgrim_trace_off();                                                                         \
  } while (0)
#define PILGRIM_TRACE_ON()                                                                         \
  do {                                                                                             \
    if (pilgrim_trace_on)                                                                          \
      pilgrim_trace_on();                                                                          \
  } while (0)
#endif

#endif /* PILGRIM_ANNOTATE_H */
