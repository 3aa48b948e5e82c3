// Emits coverage.txt: bound and excluded operators, with counts (text only).
#include "emit/emitters.h"

#include "api/type_table.h"
#include "api/word_layout.h"

#include <iomanip>
#include <sstream>

namespace codegen::emit {
namespace {

struct Counts {
    size_t total = 0, bound = 0, out_bound = 0, inplace_bound = 0;
    size_t with_generator = 0, with_dimname = 0, with_memory_format = 0, mixed_tuples = 0;
    size_t word_adapters = 0, word_blocks = 0; // the word convention: adapters, and those taking an argument block
};

// Whether every parameter has a word layout, and how many words they take.
bool word_layout(const api::OperatorBinding& b, int* words) {
    *words = 0;
    try {
        for (const auto& p : b.params) *words += api::word_count(api::word_param_code(p.type.simple_type));
        api::word_result_code(b.result.simple_type);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

Counts count(const api::BoundSet& set) {
    Counts c;
    c.total = set.ir->operators.size();
    c.bound = set.bound.size();
    for (const auto& b : set.bound) {
        const auto kind = b.op->schema.kind();
        c.out_bound += kind == SchemaKind::out;
        c.inplace_bound += kind == SchemaKind::inplace;
        bool gen = false, dim = false, mem = false;
        for (const auto& a : b.op->schema.arguments) {
            const api::CountedType t = api::counted_type(a.type);
            gen |= t == api::CountedType::Generator;
            dim |= t == api::CountedType::Dimname;
            mem |= t == api::CountedType::MemoryFormat;
        }
        c.with_generator += gen;
        c.with_dimname += dim;
        c.with_memory_format += mem;
        c.mixed_tuples += b.result.is_mixed_tuple;
        int words = 0;
        if (word_layout(b, &words)) {
            ++c.word_adapters;
            c.word_blocks += words > api::kMaxWords;
        }
    }
    return c;
}

std::string percent(size_t part, size_t whole) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << (whole ? 100.0 * part / whole : 100.0) << "%";
    return s.str();
}

} // namespace

std::string coverage_summary(const api::BoundSet& set) {
    const Counts c = count(set);
    std::ostringstream s;
    s << "coverage: " << c.bound << " of " << c.total << " operator overloads bound (" << percent(c.bound, c.total)
      << "), " << set.excluded.size() << " excluded by schema/policy.json\n"
      << "  out= variants " << c.out_bound << ", in-place " << c.inplace_bound << ", with Generator "
      << c.with_generator << ", with Dimname " << c.with_dimname << ", with MemoryFormat " << c.with_memory_format
      << ", mixed tuple returns " << c.mixed_tuples << "\n"
      << "word adapters (spl_w_*, for the real Simple runtime): " << c.word_adapters << " of " << c.bound
      << " bound overloads (" << percent(c.word_adapters, c.bound) << "), " << c.word_blocks << " of them over "
      << api::kMaxWords << " words (an argument block)\n";
    return s.str();
}

OutputFile emit_coverage(const api::BoundSet& set) {
    std::ostringstream out;
    out << banner(*set.ir, "#");
    out << coverage_summary(set);
    out << "\nexcluded (" << set.excluded.size() << "):\n";
    for (const auto& e : set.excluded) out << "  " << e.op->schema.qualified_name() << ": " << e.reason << "\n";
    if (!set.unused_policy_entries.empty()) {
        out << "\npolicy entries naming operators this LibTorch does not have:\n";
        for (const auto& name : set.unused_policy_entries) out << "  " << name << "\n";
    }
    return {"coverage.txt", out.str()};
}

} // namespace codegen::emit
