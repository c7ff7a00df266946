// cases.h — runner-side helpers around Case (not needed by peers).
#pragma once

#include "registry.h"

namespace fwb {

// The memcpy floor over an existing encoding (the bytes are copied into the case).
std::unique_ptr<Case> make_memcpy_case(ByteView source);

}  // namespace fwb
