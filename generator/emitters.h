// Writers of the generated sources and of the coverage report.
#pragma once

#include "function_join.h"

#include <ostream>
#include <set>
#include <string>

namespace pilgrim::gen {

// function_table.cpp: the row of every wrapped function and of every record
// that is not an MPI call (pilgrim/function_table.h), sorted by id.
void emit_function_table(const JoinResult &joined, std::ostream &out);

// One PMPI wrapper per function; functions [begin, end) of joined.wrapped.
// Those named in `site_entries` also get pilgrim_site_<name>, the way in of
// their Fortran entry point, which passes the call site as an argument.
void emit_wrappers(const JoinResult &joined, const std::set<std::string> &site_entries, size_t begin,
                   size_t end, std::ostream &out);

// encoding_driver.cpp, for test/encoding: per function, the wrapper's encoding
// statements run on synthetic arguments instead of around the MPI call.
void emit_encoding_driver(const JoinResult &joined, std::ostream &out);

// The coverage report: declared, wrapped, annotated, left out, filtered.
void emit_coverage_report(const std::string &header_path, const HeaderModel &header,
                          const JoinResult &joined, std::ostream &out);

} // namespace pilgrim::gen
