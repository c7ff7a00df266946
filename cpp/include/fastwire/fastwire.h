// fastwire/fastwire.h - the whole runtime in one include, for application code. Generated
// headers include only what they need (types.h, model.h, final_model.h, …).
//
//   #include <fastwire/fastwire.h>
//   fastwire::model<proto::Account> model;   // serialize / verify / deserialize
//
// The pieces, one header per concept:
//   version.h    FASTWIRE_VERSION, the C++17 check, generated code's version check
//   endian.h     little-endian loads and stores through memcpy
//   status.h     errc and status (results of verify and deserialize)
//   limits.h     bounds for untrusted input (depth, message size)
//   buffer.h     owning growable buffer, non-owning buffer_view
//   bytes.h      the schema's `bytes`
//   decimal.h    the schema's `decimal` (exact 96-bit)
//   uuid.h       the schema's `uuid`, with v1/v4 generators
//   timestamp.h  the schema's `timestamp` helpers (utc(), epoch())
//   schema.h     struct_schema / enum_traits: how generated types describe themselves
//   types.h      what a generated domain header needs (value types, schema, printing)
//   versioned.h  codecs of the versioned format
//   model.h      model<S>: the versioned root model
//   final.h      codecs of the final (compact) format
//   final_model.h final_model<S>: the final root model
//   print.h      operator<< helpers
#pragma once

#include <fastwire/buffer.h>
#include <fastwire/bytes.h>
#include <fastwire/decimal.h>
#include <fastwire/endian.h>
#include <fastwire/final.h>
#include <fastwire/final_model.h>
#include <fastwire/limits.h>
#include <fastwire/model.h>
#include <fastwire/pmr.h>
#include <fastwire/print.h>
#include <fastwire/schema.h>
#include <fastwire/status.h>
#include <fastwire/timestamp.h>
#include <fastwire/types.h>
#include <fastwire/uuid.h>
#include <fastwire/version.h>
#include <fastwire/versioned.h>
