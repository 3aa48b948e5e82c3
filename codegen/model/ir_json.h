// Model <-> JSON IR (format: docs/ir-and-layout.md, schema/ir.schema.json).
// The IR is what emitters read; it must be deterministic so that generated
// files only change when the operator set does.
#pragma once

#include <nlohmann/json.hpp>

#include "model/schema.h"

namespace codegen {

inline constexpr int ir_version = 1;

const char* kind_name(SchemaKind kind); // "functional" | "inplace" | "out" | "mutable"

// Keys in the documented order; operators in the set's order.
nlohmann::ordered_json to_json(const OperatorSet& set);

// Rebuilds the model by re-parsing each operator's "schema" text; the
// redundant fields (name, overload, kind, arguments, returns) are checked
// against it. Throws std::runtime_error (SchemaError for bad schema text)
// naming the operator's origin.
OperatorSet from_json(const nlohmann::json& ir);
OperatorSet from_json(const nlohmann::ordered_json& ir);

} // namespace codegen
