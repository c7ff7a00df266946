// fastwire/types.h - what a generated domain header (<package>.h) needs: the value types
// of the schema language, the type descriptions the runtime reads, and printing. The
// wire-format models live in model.h, which generated <package>_models.h headers include,
// so code that only uses the types does not compile the codecs.
//
//   #include "proto.h"              // generated; includes <fastwire/types.h>
//   proto::Balance b{"USD", 1000.0};
//   std::cout << b;                 // Balance(currency="USD",amount=1000)
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fastwire/bytes.h>
#include <fastwire/decimal.h>
#include <fastwire/print.h>
#include <fastwire/schema.h>
#include <fastwire/timestamp.h>
#include <fastwire/uuid.h>
