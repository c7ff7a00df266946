// Every public runtime header in one translation unit, for clang-tidy (make lint).
#include <fastwire/buffer.h>
#include <fastwire/bytes.h>
#include <fastwire/decimal.h>
#include <fastwire/endian.h>
#include <fastwire/fastwire.h>
#include <fastwire/final.h>
#include <fastwire/final_model.h>
#include <fastwire/internal/kinds.h>
#include <fastwire/internal/model_bytes.h>
#include <fastwire/internal/runs.h>
#include <fastwire/internal/scalar.h>
#include <fastwire/internal/view_check.h>
#include <fastwire/internal/wide.h>
#include <fastwire/internal/wire.h>
#include <fastwire/json.h>
#include <fastwire/json_reader.h>
#include <fastwire/limits.h>
#include <fastwire/model.h>
#include <fastwire/net.h>
#include <fastwire/net_tls.h>
#include <fastwire/pmr.h>
#include <fastwire/print.h>
#include <fastwire/protocol.h>
#include <fastwire/schema.h>
#include <fastwire/status.h>
#include <fastwire/timestamp.h>
#include <fastwire/types.h>
#include <fastwire/uuid.h>
#include <fastwire/version.h>
#include <fastwire/versioned.h>
#include <fastwire/view.h>

int main() { return 0; }
