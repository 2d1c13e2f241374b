// The tracer's own records: calls of the application's attribute callbacks.
//
// MPI calls the copy and delete callbacks of a keyval from inside other MPI
// calls (MPI_Comm_dup copies, MPI_Comm_free and MPI_Comm_set_attr delete),
// and what they return decides what those calls do: whether a duplicate has
// the attribute, and whether the call fails. The runtime wraps the
// application's callbacks when a keyval is created and records each
// invocation as a call of the callback's type, with a function id of its
// own (docs/FORMAT.md §8.4), right before the MPI call that made it; a
// proxy's stand-in callbacks replay those outcomes in order.
//
// Their rows (generator/annotations/records.yaml, kind callback) have the
// shape of the callback types of the MPI standard
// (MPI_Comm_copy_attr_function, ...), with the application's function as
// the first parameter. THEIR IDS AND LAYOUT ARE PART OF THE TRACE FORMAT.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pilgrim/function_table.h"
#include "pilgrim/record_ranges.h"

namespace pilgrim {

// In the callback range of the records that are not MPI calls
// (record_ranges.h).
enum CallbackRecordId : uint16_t {
  kCommCopyRecord = 0x3F00,   // MPI_Comm_copy_attr_function (and MPI_Copy_function)
  kCommDeleteRecord = 0x3F01, // MPI_Comm_delete_attr_function (and MPI_Delete_function)
  kTypeCopyRecord = 0x3F02,   // MPI_Type_copy_attr_function
  kTypeDeleteRecord = 0x3F03, // MPI_Type_delete_attr_function
  kWinCopyRecord = 0x3F04,    // MPI_Win_copy_attr_function
  kWinDeleteRecord = 0x3F05,  // MPI_Win_delete_attr_function
};

// What a callback record is about.
struct CallbackRecordKind {
  bool copy = false;                    // a copy callback (else a delete callback)
  HandleKind object = HandleKind::None; // Comm, Datatype or Win
};
// The kind of record `function_id`; false when it is not a callback record.
bool callback_record_kind(uint16_t function_id, CallbackRecordKind &kind);

} // namespace pilgrim
