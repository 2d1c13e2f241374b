// The archive's communicators: MPI_COMM_WORLD (OTF2 comm 0), MPI_COMM_SELF
// (1) and every user communicator instance of the run (2 + its index in
// TraceFile::communicators()). Which one a handle names at a call is the
// matcher's CommResolver's (tools/matching/comm_resolver.h) answer, the same
// the matcher and pilgrim-check use.
#pragma once

#include <cstdint>
#include <otf2/OTF2_GeneralDefinitions.h>

namespace pilgrim::exporter {

constexpr OTF2_CommRef kOtf2CommWorld = 0;
constexpr OTF2_CommRef kOtf2CommSelf = 1;
inline OTF2_CommRef comm_ref_of_instance(uint64_t instance) {
  return static_cast<OTF2_CommRef>(2 + instance);
}
// The OTF2 communicator of a CommResolver key (kCommWorld, kCommSelf, an
// instance index); OTF2_UNDEFINED_COMM for kCommUnknown.
OTF2_CommRef otf2_comm(uint64_t key);

} // namespace pilgrim::exporter
