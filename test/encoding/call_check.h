// Whether a decoded signature says what a synthetic call meant (call_model.h).
//
// "Equal" is as far as a trace can represent:
//  * values, doubles, tags, strings, string arrays, opaque null-ness: exactly;
//  * NULL pointers, absent arrays, MPI_STATUS(ES)_IGNORE and array lengths:
//    exactly (an array significant only at the root is absent elsewhere; an
//    out string of a failed call is NULL);
//  * ranks: the sentinel, or the rank the code resolves to: an absolute rank
//    as is; a relative one (only where the parameter allows it) from the
//    caller's rank in the parameter's communicator, group or window; a
//    Cartesian one (only in a communicator with a grid) through that grid.
//    A parameter that allows relative ranks, with the caller's rank known,
//    must not be stored absolute, and one that does not must be;
//  * handles, buffers, pointers, callbacks are symbols, not values: the null
//    handle is code 0, a predefined one its name in the format's table, a
//    user one an id, and within one call equal values have equal ids and
//    different values different ids (per handle kind; buffers and pointers
//    share one address space);
//  * statuses: MPI_STATUS_IGNORE is kind 0; a kept source, tag and count
//    are the status's; a status the application passes in keeps its count
//    only (kind 3); what the status rules choose not to keep (kind 1) is
//    not checked here.
#pragma once

#include "call_model.h"
#include "pilgrim/signature_decoder.h"

#include <string>
#include <vector>

namespace pilgrim::enctest {

// One line per disagreement; empty when the decoded call is the model.
// `compared` grows by the number of elements compared.
std::vector<std::string> check_call(const DecodedCall &decoded, const CallModel &model,
                                    size_t &compared);

} // namespace pilgrim::enctest
