// shape_checks.cpp — binding a call's shape symbols from its arguments, and checking them.
#include "eval/shape_checks.h"

#include <algorithm>

namespace spl {

namespace {

const ShapeExpr* shape_of(const TypeExpr* t) {
    if (!t) return nullptr;
    if (t->kind == TypeExpr::Kind::Optional) return shape_of(t->args[0].get()); // `Tensor<[B]>?`: nil passes
    return t->kind == TypeExpr::Kind::Named ? t->shape.get() : nullptr;
}

} // namespace

const char* torch_dtype(const std::string& simple) {
    static const std::pair<const char*, const char*> names[] = {
        {"f16", "float16"},
        {"bf16", "bfloat16"},
        {"f32", "float32"},
        {"f64", "float64"},
        {"i8", "int8"},
        {"i16", "int16"},
        {"i32", "int32"},
        {"i64", "int64"},
        {"u8", "uint8"},
        {"bool", "bool"},
        {"c64", "complex64"},
        {"c128", "complex128"},
        // the seeds' names (`Tensor<Float32, [Batch, 3, 224, 224]>`)
        {"Float16", "float16"},
        {"BFloat16", "bfloat16"},
        {"Float32", "float32"},
        {"Float64", "float64"},
        {"Int8", "int8"},
        {"Int16", "int16"},
        {"Int32", "int32"},
        {"Int64", "int64"},
        {"UInt8", "uint8"},
        {"Bool", "bool"}};
    for (const auto& [s, t] : names)
        if (simple == s) return t;
    return nullptr;
}

namespace {

std::string sizes_text(const std::vector<int64_t>& sizes) {
    std::string out = "[";
    for (size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + std::to_string(sizes[i]);
    return out + "]";
}

std::string quoted(const std::string& name) { return "`" + name + "`"; }

} // namespace

bool evaluate(const DimExpr& d, const ShapeBindings& bound, int64_t& out) {
    switch (d.kind) {
    case DimExpr::Kind::Size: out = d.size; return true;
    case DimExpr::Kind::Symbol: {
        if (d.constant && d.constant->is_int()) {
            out = d.constant->as_int();
            return true;
        }
        const ShapeBindings::Binding* b = bound.find(d.name);
        if (!b || b->sizes.size() != 1) return false;
        out = b->sizes[0];
        return true;
    }
    case DimExpr::Kind::Any:
    case DimExpr::Kind::Rest: return false;
    case DimExpr::Kind::Binary: {
        int64_t l = 0, r = 0;
        if (!evaluate(*d.lhs, bound, l) || !evaluate(*d.rhs, bound, r)) return false;
        switch (d.op) {
        case '+': out = l + r; return true;
        case '-': out = l - r; return true;
        case '*': out = l * r; return true;
        default: out = (l != kNotWhole && r != kNotWhole && r != 0 && l % r == 0) ? l / r : kNotWhole; return true;
        }
    }
    }
    return false;
}

namespace {

// One value against one shape type: its sizes (and dtype) read through the value's own size()
// and dtype, symbols bound or compared, expressions left in `pending` for when all are bound.
class Checker {
public:
    Checker(Interpreter& in, SourceLoc loc, std::string context, ShapeBindings& bound)
        : in_(in), loc_(loc), context_(std::move(context)), bound_(bound) {}

    void check(const Value& v, const ShapeExpr& shape, const std::string& what) {
        if (v.is_nil()) return; // a `Tensor<[...]>?` given nil; a plain one refused nil already
        if (!shape.dtype.empty()) check_dtype(v, shape.dtype, what);
        const std::vector<int64_t> sizes = sizes_of(v, what);
        const auto rest = std::find_if(shape.dims.begin(), shape.dims.end(),
                                       [](const DimPtr& d) { return d->kind == DimExpr::Kind::Rest; });
        const size_t n = shape.dims.size();
        const bool has_rest = rest != shape.dims.end();
        if (has_rest ? sizes.size() + 1 < n : sizes.size() != n)
            fail(what + ": expected " + (has_rest ? "at least " + std::to_string(n - 1) : std::to_string(n)) +
                 " dimensions " + to_text(shape) + ", got " + std::to_string(sizes.size()) + " (" + sizes_text(sizes) +
                 ")");
        const size_t r = static_cast<size_t>(rest - shape.dims.begin());
        const size_t extra = has_rest ? sizes.size() + 1 - n : 0; // how many dimensions `*name` covers
        for (size_t i = 0; i < n; ++i) {
            const DimExpr& d = *shape.dims[i];
            const size_t at = has_rest && i > r ? i + extra - 1 : i;
            if (d.kind == DimExpr::Kind::Rest) {
                bind_rest(d.name,
                          std::vector<int64_t>(sizes.begin() + static_cast<long>(i),
                                               sizes.begin() + static_cast<long>(i + extra)),
                          what, i);
                continue;
            }
            dim(d, at, sizes[at], what);
        }
    }

    // The expressions (`C * H`) whose symbols are all bound now.
    void check_pending() {
        for (const Pending& p : pending_) {
            int64_t want = 0;
            if (!evaluate(*p.dim, bound_, want)) continue; // a symbol no argument bound: not checked
            if (p.actual != want)
                fail(p.what + ": dimension " + std::to_string(p.index) + " is " + std::to_string(p.actual) + " but " +
                     quoted(to_text(*p.dim)) +
                     (want == kNotWhole ? " is not a whole size" : " is " + std::to_string(want)));
        }
        pending_.clear();
    }

private:
    struct Pending {
        const DimExpr* dim;
        size_t index;
        int64_t actual;
        std::string what;
    };

    [[noreturn]] void fail(const std::string& message) {
        runtime_error_from(ErrorOrigin::ShapeType, loc_, context_ + ": " + message);
    }

    std::vector<int64_t> sizes_of(const Value& v, const std::string& what) {
        Value size = in_.find_method(v, "size");
        if (size.is_nil()) fail(what + ": a shape type needs a tensor, got " + in_.type_name(v));
        Value r = in_.call_method(v, size, {}, loc_);
        std::vector<int64_t> sizes;
        if (r.is(ObjType::Array))
            for (const Value& x : r.as<ArrayObj>()->items) sizes.push_back(x.is_int() ? x.as_int() : -1);
        return sizes;
    }

    void check_dtype(const Value& v, const std::string& simple, const std::string& what) {
        const char* want = torch_dtype(simple);
        if (!want) fail("the shape type of " + what + " names no dtype " + quoted(simple));
        Value dtype = in_.find_method(v, "dtype");
        if (dtype.is_nil()) return;
        Value got = in_.call_method(v, dtype, {}, loc_);
        if (got.is(ObjType::Str) && got.as<StrObj>()->str != want)
            fail(what + ": dtype is " + got.as<StrObj>()->str + " but the type says " + simple + " (" + want + ")");
    }

    void dim(const DimExpr& d, size_t index, int64_t actual, const std::string& what) {
        const std::string at = what + ": dimension " + std::to_string(index) + " is " + std::to_string(actual);
        switch (d.kind) {
        case DimExpr::Kind::Size:
            if (actual != d.size) fail(at + " but the type says " + std::to_string(d.size));
            return;
        case DimExpr::Kind::Any:
        case DimExpr::Kind::Rest: return;
        case DimExpr::Kind::Symbol:
            if (d.constant && d.constant->is_int()) { // an integer constant of the module
                if (actual != d.constant->as_int())
                    fail(at + " but " + quoted(d.name) + " is " + std::to_string(d.constant->as_int()));
                return;
            }
            if (const ShapeBindings::Binding* b = bound_.find(d.name)) {
                if (b->sizes.size() == 1 && b->sizes[0] != actual)
                    fail(at + " but " + quoted(d.name) + " is " + std::to_string(b->sizes[0]) + " from " + b->from);
                return;
            }
            bound_.bind(d.name, {actual}, what);
            return;
        case DimExpr::Kind::Binary: pending_.push_back(Pending{&d, index, actual, what}); return;
        }
    }

    void bind_rest(const std::string& name, std::vector<int64_t> sizes, const std::string& what, size_t first) {
        if (const ShapeBindings::Binding* b = bound_.find(name)) {
            if (b->sizes != sizes)
                fail(what + ": dimensions from " + std::to_string(first) + " are " + sizes_text(sizes) + " but " +
                     quoted("*" + name) + " is " + sizes_text(b->sizes) + " from " + b->from);
            return;
        }
        bound_.bind(name, std::move(sizes), what);
    }

    Interpreter& in_;
    SourceLoc loc_;
    std::string context_;
    ShapeBindings& bound_;
    std::vector<Pending> pending_;
};

} // namespace

const ShapeBindings::Binding* ShapeBindings::find(const std::string& symbol) const {
    for (const Binding& b : bindings_)
        if (b.symbol == symbol) return &b;
    return nullptr;
}

void ShapeBindings::bind(std::string symbol, std::vector<int64_t> sizes, std::string from) {
    bindings_.push_back(Binding{std::move(symbol), std::move(sizes), std::move(from)});
}

std::shared_ptr<const ShapeSignature> shape_signature(const ast::FnProto& p) {
    auto sig = std::make_shared<ShapeSignature>();
    const size_t first = p.is_method ? 1 : 0;
    for (size_t i = 0; i < p.params.size(); ++i)
        if (const ShapeExpr* s = shape_of(p.params[i].type.tree.get()))
            sig->params.push_back(ShapeSignature::Param{first + i, quoted(p.params[i].name), s});
    sig->result = shape_of(p.return_type.tree.get());
    if (sig->params.empty() && !sig->result) return nullptr;
    return sig;
}

void check_parameter_shapes(Interpreter& in, const ShapeSignature& sig, const ast::FnProto& p, const Value* slots,
                            SourceLoc loc, ShapeBindings& bound) {
    Checker c(in, loc, "shape mismatch calling " + p.qualified_name, bound);
    for (const ShapeSignature::Param& param : sig.params) c.check(slots[param.slot], *param.shape, param.name);
    c.check_pending();
}

void check_field_shapes(Interpreter& in, const ast::FnProto& init, const Value* fields, SourceLoc loc) {
    const auto sig = shape_signature(init);
    if (!sig) return;
    ShapeBindings bound;
    check_parameter_shapes(in, *sig, init, fields, loc, bound);
}

void check_local_shape(Interpreter& in, const ShapeExpr& shape, const Value& v, const std::string& name, SourceLoc loc,
                       ShapeBindings* bound) {
    ShapeBindings own;
    Checker c(in, loc, "shape mismatch", bound ? *bound : own);
    c.check(v, shape, name.empty() ? "the value" : quoted(name));
    c.check_pending();
}

void check_result_shape(Interpreter& in, const ShapeSignature& sig, const ast::FnProto& p, const Value& result,
                        SourceLoc loc, ShapeBindings& bound) {
    if (!sig.result) return;
    Checker c(in, loc, "shape mismatch in the result of " + p.qualified_name, bound);
    c.check(result, *sig.result, "the result");
    c.check_pending();
}

} // namespace spl
