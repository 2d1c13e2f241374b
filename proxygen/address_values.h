// Addresses the trace stores as (memory id, offset) (docs/FORMAT.md §8.3,
// Addresses), rebuilt over the proxy's own memory:
//
//  - in the caller's memory (a datatype's displacements built with
//    MPI_Get_address, used with MPI_BOTTOM): `proxy_address(pointer_5, 8)`,
//    the address of the proxy's memory for id 5 plus 8 bytes. An
//    MPI_Get_address whose result the trace places in known memory (id 3
//    is the struct field 8 bytes into id 5) sets `pointer_3 = pointer_5 + 8`
//    before the call, so the proxy's memory has the program's layout and
//    datatypes over it the program's extents. The memory of an id that
//    others lie in, or that addresses are taken in, is a region of its own
//    (address_region): large enough for every offset used in it plus what a
//    datatype reaches from there, and with 4 KiB before it that nothing
//    else uses, so that the tracer, coding the proxy's addresses, finds in
//    it what it found in the program's memory (runtime/memory/address_anchors.h);
//  - in a dynamic window's target (a target displacement): the target's
//    memory for the id is its own proxy's, at an address only the target
//    knows. Each rank publishes the base it attaches (MPI_Win_attach) in a
//    directory, a window of one MPI_Aint per published id made with PMPI at
//    start-up, and an origin reads the target's entry (MPI_Fetch_and_op
//    with MPI_NO_OP) when it makes the call: `remote_address(win_0,
//    win_rank(win_0) + 1, 0, 4)`. The program only used an address it had
//    received from the target after the target attached it, and the proxy
//    makes the same calls in the same order, so the entry is there; an
//    origin that finds none waits for it (10 s at most).
//
// The directory is made with PMPI, so a tracer does not see it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pilgrim::proxygen {

struct ProxySymbols;

// What the emitter learns about addresses before it emits any call.
struct AddressPlan {
  std::map<uint64_t, int> slots; // target memory id -> directory slot
  std::set<uint64_t> buffer_ids; // ids the trace uses as buffers
};

// The helpers the proxy needs for addresses (empty when it needs none).
std::string address_prelude(const ProxySymbols &symbols);
// main's lines after allocate_buffers(): opening the directory.
std::vector<std::string> address_setup_lines(const ProxySymbols &symbols);
// allocate_buffers()'s lines giving address regions their memory.
std::vector<std::string> address_region_lines(const ProxySymbols &symbols);
// The bytes the proxy's memory for id `id` needs: at least `bytes`, and
// enough for every address the trace takes in it.
uint64_t address_storage_bytes(const ProxySymbols &symbols, uint64_t id, uint64_t bytes);

} // namespace pilgrim::proxygen
