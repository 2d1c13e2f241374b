# Finds LLVM and Clang 14 or later, for the wrapper generator (LibTooling) and
# the compiler plugin: -DLLVM_DIR and -DClang_DIR where given, else the
# version `llvm-config` on PATH reports, else the newest Debian
# /usr/lib/llvm-N. Sets PILGRIM_CLANG and PILGRIM_CLANGXX: that version's
# clang and clang++, which pilgrim-cc and pilgrim-cxx run by default.
set(_pilgrim_llvm_hints)
find_program(_pilgrim_llvm_config NAMES llvm-config NO_CACHE)
if(_pilgrim_llvm_config)
  execute_process(COMMAND ${_pilgrim_llvm_config} --cmakedir OUTPUT_VARIABLE _dir
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  list(APPEND _pilgrim_llvm_hints ${_dir})
endif()
foreach(v RANGE 30 14 -1)
  if(EXISTS /usr/lib/llvm-${v}/lib/cmake/llvm)
    list(APPEND _pilgrim_llvm_hints /usr/lib/llvm-${v}/lib/cmake/llvm)
  endif()
endforeach()
find_package(LLVM REQUIRED CONFIG HINTS ${_pilgrim_llvm_hints})
if(LLVM_VERSION_MAJOR LESS 14)
  message(FATAL_ERROR "LLVM ${LLVM_PACKAGE_VERSION} (${LLVM_DIR}) is older than 14: give "
                      "-DLLVM_DIR=/path/to/llvm-14-or-later/lib/cmake/llvm")
endif()
find_package(Clang REQUIRED CONFIG HINTS ${LLVM_LIBRARY_DIR}/cmake/clang ${LLVM_DIR}/../clang)
find_program(PILGRIM_CLANG NAMES clang clang-${LLVM_VERSION_MAJOR}
             HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
find_program(PILGRIM_CLANGXX NAMES clang++ clang++-${LLVM_VERSION_MAJOR}
             HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
message(STATUS "Pilgrim: LLVM and Clang ${LLVM_PACKAGE_VERSION} (${LLVM_DIR}), clang "
               "${PILGRIM_CLANG}")
