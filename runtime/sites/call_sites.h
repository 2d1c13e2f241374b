// Where the application called: every traced call's site key, and what the
// keys become at MPI_Finalize (docs/design/call-sites.md).
//
// A site key is 64 bits. During the run it is the wrapper's return address
// (__builtin_return_address(0): one register or stack read), or the one a
// caller inside the tracer set in ThreadState::site_override (the Fortran
// glue sets its own return address, the application's call). A key with
// bit 63 set is reserved for the compiler plugin's site ids (the lead wires
// pilgrim::plugin_sites in; such keys are resolved by it, not by DWARF).
// 0 is no site (the runtime's own records, PILGRIM_SITES=off).
//
// Every CST key ends with the call's 8-byte site key (Recorder::record). At
// MPI_Finalize, agree() maps each rank's keys to one table for the whole
// run: a key becomes (module, link-time address), which is the same on every
// rank whatever ASLR did; the distinct ones are folded up the merge's tree
// to rank 0, which numbers them in sorted order, resolves them once from DWARF (elfutils libdw; the
// symbol table where there is no debug information) and broadcasts the numbering. rewrite() then
// replaces each key by its 4-byte reference, so the cross-rank merge keeps calls at different sites
// apart; rank 0 moves the references into CstEntry::site before writing (docs/FORMAT.md §5.1, META
// key 8).
#pragma once

#include "pilgrim/trace_model.h"

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace pilgrim::rt {

constexpr size_t kSiteKeyBytes = 8; // the suffix of a CST key during the run
constexpr size_t kSiteRefBytes = 4; // the suffix after rewrite(): little-endian reference
constexpr uint64_t kPluginSiteTag = uint64_t{1} << 63;

class CallSites {
public:
  // Collective over `comm`: numbers every rank's site keys (rank 0 resolves
  // them). `keys`: this rank's distinct keys (0 among them is ignored).
  void agree(const std::vector<uint64_t> &keys, MPI_Comm comm, int rank);
  // `key` (a CST key: signature + site key) with its site key replaced by the
  // 4-byte reference (0: none, k + 1: the table's entry k).
  void rewrite(std::string &key) const;
  // Rank 0 after agree(): the table.
  std::vector<CallSite> take_table() { return std::move(table_); }

private:
  std::unordered_map<uint64_t, uint32_t> refs_;
  std::vector<CallSite> table_;
};

// Splits the reference suffix rewrite() left off `signature` (rank 0, after
// the merge): returns it and shortens the signature.
uint32_t take_site_ref(std::string &signature);

// The site of the module-relative `address` in `module` (a path), from its
// DWARF line table, or its symbol table where it has none (file then "").
// Exposed for the tests.
CallSite resolve_site(const std::string &module, uint64_t address);

} // namespace pilgrim::rt
