# Finds the MPI Pilgrim builds against, whatever its compiler wrapper is called
# (docs/guide/install.md), in this order:
#   1. -DPILGRIM_MPI=openmpi|mpich: Debian's mpicc.openmpi / mpicc.mpich;
#   2. -DMPI_C_COMPILER=/path/to/mpicc: FindMPI's own variable (a Spack, Cray,
#      Intel or from-source MPI);
#   3. `mpicc` on PATH;
#   4. Debian's names, Open MPI first.
# The C++ and Fortran wrappers and the launcher are taken beside the C wrapper
# (mpicxx / mpic++ / mpiCC, mpifort / mpif90, mpirun / mpiexec, with the C
# wrapper's suffix) unless given (MPI_CXX_COMPILER, MPI_Fortran_COMPILER,
# MPIEXEC_EXECUTABLE). Which MPI it is (PILGRIM_MPI_FLAVOR: openmpi, or mpich
# for MPICH and its derivatives) comes from the header's own macros, not
# from any name.
#
# Sets: PILGRIM_MPICC, PILGRIM_MPICXX, PILGRIM_MPIRUN, PILGRIM_MPIFORT (may be
# empty), PILGRIM_MPI_HEADER, PILGRIM_MPI_FLAVOR, PILGRIM_MPI_DESCRIPTION,
# PILGRIM_MPI_CLANG_ARGS (-I and -D of the MPI's C wrapper).

set(PILGRIM_MPI "" CACHE STRING
    "Shorthand for Debian's MPIs: openmpi or mpich; empty: MPI_C_COMPILER, else mpicc on PATH")
set_property(CACHE PILGRIM_MPI PROPERTY STRINGS "" openmpi mpich)

if(PILGRIM_MPI)
  if(NOT PILGRIM_MPI MATCHES "^(openmpi|mpich)$")
    message(FATAL_ERROR "PILGRIM_MPI must be openmpi or mpich (Debian's MPIs), not "
                        "'${PILGRIM_MPI}'; for another MPI give -DMPI_C_COMPILER=/path/to/mpicc")
  endif()
  find_program(_pilgrim_debian_mpicc NAMES mpicc.${PILGRIM_MPI} NO_CACHE)
  if(NOT _pilgrim_debian_mpicc)
    message(FATAL_ERROR "PILGRIM_MPI=${PILGRIM_MPI}: mpicc.${PILGRIM_MPI} is not on PATH "
                        "(Debian's package: ${PILGRIM_MPI}-bin or libmpich-dev)")
  endif()
  set(MPI_C_COMPILER ${_pilgrim_debian_mpicc} CACHE FILEPATH "MPI C compiler wrapper" FORCE)
elseif(NOT MPI_C_COMPILER)
  find_program(_pilgrim_path_mpicc NAMES mpicc mpicc.openmpi mpicc.mpich NO_CACHE)
  if(NOT _pilgrim_path_mpicc)
    message(FATAL_ERROR "No MPI found: put its mpicc on PATH, or give "
                        "-DMPI_C_COMPILER=/path/to/mpicc (or -DPILGRIM_MPI=openmpi|mpich for "
                        "Debian's MPIs)")
  endif()
  set(MPI_C_COMPILER ${_pilgrim_path_mpicc} CACHE FILEPATH "MPI C compiler wrapper")
endif()

# The C wrapper's folder and name, for its siblings: mpicc.openmpi ->
# mpicxx.openmpi; /opt/x/bin/mpicc -> /opt/x/bin/mpicxx. A wrapper whose name
# has no "mpicc" in it (Cray's cc, Intel's mpiicc) leaves the siblings to
# FindMPI and the caller's variables.
get_filename_component(_pilgrim_mpi_dir ${MPI_C_COMPILER} DIRECTORY)
get_filename_component(_pilgrim_mpi_name ${MPI_C_COMPILER} NAME)
function(_pilgrim_mpi_sibling out)
  set(${out} "" PARENT_SCOPE)
  if(NOT _pilgrim_mpi_name MATCHES "^mpicc(.*)$")
    return()
  endif()
  set(suffix ${CMAKE_MATCH_1})
  set(names)
  foreach(base ${ARGN})
    list(APPEND names ${base}${suffix})
  endforeach()
  find_program(_found NAMES ${names} PATHS ${_pilgrim_mpi_dir} NO_DEFAULT_PATH NO_CACHE)
  if(_found)
    set(${out} ${_found} PARENT_SCOPE)
  endif()
endfunction()

# Siblings found for an earlier C wrapper of this build folder are found
# again when the C wrapper changed (a reconfigure with another MPI).
set(_pilgrim_force)
if(DEFINED PILGRIM_MPI_SIBLINGS_OF AND NOT PILGRIM_MPI_SIBLINGS_OF STREQUAL MPI_C_COMPILER)
  set(_pilgrim_force FORCE)
  # What FindMPI learnt from the earlier wrapper (include paths, libraries)
  # would outlive it: forget it, so that it asks the new one.
  get_cmake_property(_pilgrim_cached CACHE_VARIABLES)
  foreach(_var ${_pilgrim_cached})
    if(_var MATCHES "^(MPI_|MPIEXEC_)" AND NOT _var STREQUAL "MPI_C_COMPILER")
      unset(${_var} CACHE)
    endif()
  endforeach()
  message(STATUS "Pilgrim: the MPI changed (${PILGRIM_MPI_SIBLINGS_OF} -> ${MPI_C_COMPILER})")
endif()
foreach(spec "MPI_CXX_COMPILER;mpicxx mpic++ mpiCC;MPI C++ compiler wrapper"
             "MPIEXEC_EXECUTABLE;mpirun mpiexec;MPI launcher"
             "MPI_Fortran_COMPILER;mpifort mpif90;MPI Fortran compiler wrapper")
  list(GET spec 0 _var)
  list(GET spec 1 _names)
  list(GET spec 2 _doc)
  if(NOT ${_var} OR _pilgrim_force)
    string(REPLACE " " ";" _names "${_names}")
    _pilgrim_mpi_sibling(_pilgrim_sibling ${_names})
    if(_pilgrim_sibling)
      set(${_var} ${_pilgrim_sibling} CACHE FILEPATH "${_doc}" ${_pilgrim_force})
    endif()
  endif()
endforeach()

find_package(MPI REQUIRED COMPONENTS C CXX)
if(NOT MPIEXEC_EXECUTABLE)
  message(FATAL_ERROR "No MPI launcher found beside ${MPI_C_COMPILER}: give "
                      "-DMPIEXEC_EXECUTABLE=/path/to/mpirun")
endif()
set(PILGRIM_MPICC ${MPI_C_COMPILER})
set(PILGRIM_MPICXX ${MPI_CXX_COMPILER})
set(PILGRIM_MPIRUN ${MPIEXEC_EXECUTABLE})
set(PILGRIM_MPIFORT ${MPI_Fortran_COMPILER})
find_file(PILGRIM_MPI_HEADER mpi.h PATHS ${MPI_C_INCLUDE_DIRS} NO_DEFAULT_PATH NO_CACHE)
if(NOT PILGRIM_MPI_HEADER)
  message(FATAL_ERROR "${MPI_C_COMPILER}'s include path (${MPI_C_INCLUDE_DIRS}) has no mpi.h")
endif()

# Which MPI: the macros mpi.h defines, as the C compiler sees them.
set(_pilgrim_probe ${CMAKE_BINARY_DIR}/CMakeFiles/pilgrim_mpi_probe.c)
file(WRITE ${_pilgrim_probe} "#include <mpi.h>\n")
# The MPI compiler wrapper's include paths and macros, as FindMPI reported
# them: the probe's, and the wrapper generator's when it parses mpi.h
# (runtime/CMakeLists.txt).
set(PILGRIM_MPI_CLANG_ARGS)
foreach(dir ${MPI_C_INCLUDE_DIRS})
  list(APPEND PILGRIM_MPI_CLANG_ARGS -I${dir})
endforeach()
foreach(def ${MPI_C_COMPILE_DEFINITIONS})
  list(APPEND PILGRIM_MPI_CLANG_ARGS -D${def})
endforeach()
set(PILGRIM_MPI_CLANG_ARGS ${PILGRIM_MPI_CLANG_ARGS} CACHE INTERNAL "")
execute_process(COMMAND ${CMAKE_C_COMPILER} -E -dM ${PILGRIM_MPI_CLANG_ARGS} ${_pilgrim_probe}
                OUTPUT_VARIABLE _pilgrim_mpi_macros RESULT_VARIABLE _pilgrim_probe_rc
                ERROR_VARIABLE _pilgrim_probe_err)
if(NOT _pilgrim_probe_rc EQUAL 0)
  message(FATAL_ERROR "Cannot preprocess ${PILGRIM_MPI_HEADER}: ${_pilgrim_probe_err}")
endif()
function(_pilgrim_macro name out)
  if(_pilgrim_mpi_macros MATCHES "#define ${name} \"?([^\"\n]*)\"?\n")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
_pilgrim_macro(OPEN_MPI _pilgrim_open_mpi)
_pilgrim_macro(MPICH_VERSION _pilgrim_mpich_version)
if(_pilgrim_open_mpi)
  set(PILGRIM_MPI_FLAVOR openmpi)
  _pilgrim_macro(OMPI_MAJOR_VERSION _ma)
  _pilgrim_macro(OMPI_MINOR_VERSION _mi)
  _pilgrim_macro(OMPI_RELEASE_VERSION _re)
  set(PILGRIM_MPI_DESCRIPTION "Open MPI ${_ma}.${_mi}.${_re}")
elseif(_pilgrim_mpich_version)
  set(PILGRIM_MPI_FLAVOR mpich)
  set(PILGRIM_MPI_DESCRIPTION "MPICH ${_pilgrim_mpich_version}")
  # Derivatives say who they are beside MPICH_VERSION.
  foreach(pair "I_MPI_VERSION;Intel MPI" "MVAPICH2_VERSION;MVAPICH2" "MVAPICH_VERSION;MVAPICH"
               "CRAY_MPICH_VERSION;Cray MPICH")
    list(GET pair 0 _macro)
    list(GET pair 1 _what)
    _pilgrim_macro(${_macro} _v)
    if(_v)
      set(PILGRIM_MPI_DESCRIPTION "${_what} ${_v} (MPICH ${_pilgrim_mpich_version})")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "${PILGRIM_MPI_HEADER} is neither Open MPI's (OPEN_MPI) nor MPICH's or a "
                      "derivative's (MPICH_VERSION): Pilgrim supports those two families")
endif()
if(PILGRIM_MPI AND NOT PILGRIM_MPI STREQUAL PILGRIM_MPI_FLAVOR)
  message(FATAL_ERROR "PILGRIM_MPI=${PILGRIM_MPI}, but ${PILGRIM_MPI_HEADER} is "
                      "${PILGRIM_MPI_DESCRIPTION}")
endif()
# Code that differs between the families keys on this (test/, lit's `mpi`).
set(_pilgrim_mpi_suffix ${PILGRIM_MPI_FLAVOR})
message(STATUS "Pilgrim: MPI ${PILGRIM_MPI_DESCRIPTION}: ${PILGRIM_MPICC}, ${PILGRIM_MPICXX}, "
               "${PILGRIM_MPIRUN}, header ${PILGRIM_MPI_HEADER}")
# Only now, with the MPI known good: what its siblings were found for.
set(PILGRIM_MPI_SIBLINGS_OF ${MPI_C_COMPILER} CACHE INTERNAL "")
