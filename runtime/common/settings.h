// The tracer's PILGRIM_* environment variables, parsed and validated at
// MPI_Init. Their names, allowed values and defaults are the settings table's
// (settings/include/pilgrim/settings_table.h), which pilgrim-config prints.
#pragma once

#include <string>

#include "pilgrim/timing_mode.h"
#include "pilgrim/timing_spec.h"

namespace pilgrim::rt {

// The values are the trace's META timing mode (docs/FORMAT.md §5).
using TimingMode = ::pilgrim::TimingMode;

struct Settings {
  std::string output;                        // PILGRIM_OUTPUT (default ./<program>.pilgrim), absolute
  std::string output_shown;                  // ... as the user gave it (or the default), for messages
  bool output_given = false;                 // PILGRIM_OUTPUT was set: replace what is there
  bool quiet = false;                        // PILGRIM_QUIET=0|1: no line at MPI_Finalize
  bool summary = false;                      // PILGRIM_SUMMARY=0|1
  bool verify = false;                       // PILGRIM_VERIFY=0|1
  TimingMode timing = TimingMode::Aggregate; // PILGRIM_TIMING's mode (README "PILGRIM_TIMING")
  timing::Spec timing_spec;                  // ... and its bounds
  bool timing_thread = true;                 // PILGRIM_TIMING_THREAD=0|1: encode on a thread
  bool per_call_timing() const { return timing_spec.per_call(); }
  bool relative_ranks = true;  // PILGRIM_RANKS=cartesian|relative|absolute
  bool cartesian_ranks = true; // ... cartesian (the default): grid offsets in Cartesian comms
  bool posix = false;          // PILGRIM_POSIX=on|off: record POSIX I/O (posix_io.cpp)
  bool start_on = true;        // PILGRIM_START=on|off: tracing on at MPI_Init (regions.h)
  bool sites = true;           // PILGRIM_SITES=on|off: calls carry their source site (call_sites.h)
  std::string replay;          // PILGRIM_REPLAY: the trace whose order to replay (replay/), absolute
  double replay_watchdog = 60; // PILGRIM_REPLAY_WATCHDOG: seconds before a divergence is reported
};

// Parses the environment. On an invalid value returns false and sets `error`
// to one line naming the variable and the allowed values.
bool parse_settings(Settings &out, std::string &error);

// The program's name and command line, from /proc/self/cmdline.
std::string program_name();
std::string command_line();

} // namespace pilgrim::rt
