// What the tracer tells the user about its output (README, "Tracing"): the
// default trace path, which never replaces an earlier trace, the line rank 0
// prints at MPI_Finalize, and the warning for PILGRIM_* variables that no
// part of Pilgrim reads.
#pragma once

#include <cstdint>
#include <string>

namespace pilgrim::rt {

// For the default path ./PROGRAM.pilgrim (absolute `path`, `shown` as the user
// reads it): when a file is there, the first free ./PROGRAM.N.pilgrim (N = 1,
// 2, ...), so that a second run keeps the first one's trace. Both change.
void first_free_output(std::string &path, std::string &shown);

// "pilgrim: wrote 5,628 calls of 4 ranks to ./halo2d.pilgrim (1.8 KB)".
std::string written_line(uint64_t calls, int ranks, const std::string &shown, uint64_t bytes);

// The file's size in bytes; 0 when it cannot be read.
uint64_t file_size_or_zero(const std::string &path);

// One line on stderr for each PILGRIM_* variable of the environment that the
// settings table does not know, naming the closest known one.
void warn_unknown_settings();

} // namespace pilgrim::rt
