// An IrDiff as text for people (generated/upgrade-*.txt) and as JSON for
// tools (generated/upgrade-*.json). Both say the same; neither decides
// anything.
#pragma once

#include "diff/ir_diff.h"

#include <nlohmann/json.hpp>

#include <string>

namespace codegen::diff {

// "added 345, removed 187, changed 339": the operators an upgrade adds,
// removes and changes the signature of.
std::string summary_line(const IrDiff& d);

std::string text_report(const IrDiff& d);
nlohmann::ordered_json json_report(const IrDiff& d);

} // namespace codegen::diff
