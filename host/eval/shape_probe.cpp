// shape_probe.cpp — calling a program's shape-typed functions with a size of their own per symbol.
#include "eval/shape_probe.h"

#include <algorithm>

#include "eval/interpreter.h"
#include "eval/shape_checks.h"
#include "resolve/objects.h"

namespace spl {

namespace {

// The sizes symbols get, each its own. Multiples of 32, so that a symbol that stands for an
// image side survives a network's downsampling and one that stands for an embedding divides
// among its heads; no two equal, and none a typical literal size (2, 3, 4, 10, 64...).
constexpr int64_t kSymbolSizes[] = {96, 160, 224, 352, 416, 544, 608, 736, 928, 992, 1184, 1312};

struct Probe {
    Value fn; // a function, or a method bound to an instance made for the probe
    const ast::FnProto* proto;
    std::shared_ptr<const ShapeSignature> sig;
};

// The function's shape types when every parameter has one (what a probe can make arguments for).
std::shared_ptr<const ShapeSignature> all_params_shaped(const ast::FnProto& p) {
    auto sig = p.params.empty() ? nullptr : shape_signature(p);
    return sig && sig->params.size() == p.params.size() ? sig : nullptr;
}

// The symbols the probe chooses sizes for: not those the resolver linked to an integer constant
// of the module (DimExpr::constant), which evaluate() reads as that constant.
void collect_symbols(const DimExpr& d, std::vector<std::string>& out) {
    if (d.kind == DimExpr::Kind::Symbol && d.constant && d.constant->is_int()) return;
    if (d.kind == DimExpr::Kind::Symbol || d.kind == DimExpr::Kind::Rest) {
        if (std::find(out.begin(), out.end(), d.name) == out.end()) out.push_back(d.name);
    } else if (d.kind == DimExpr::Kind::Binary) {
        collect_symbols(*d.lhs, out);
        collect_symbols(*d.rhs, out);
    }
}

// The class a parameter's shape type names (`Tensor`), when the module sees one with `empty`.
Value tensor_factory(const ModuleObj& m, const TypeExpr* t) {
    if (t && t->kind == TypeExpr::Kind::Optional) t = t->args[0].get();
    if (!t || t->kind != TypeExpr::Kind::Named) return Value();
    const int g = m.find_global(t->name);
    if (g < 0) return Value();
    const Value& cls = m.globals[static_cast<size_t>(g)];
    if (!cls.is(ObjType::Class)) return Value();
    auto it = cls.as<ClassObj>()->statics.find("empty");
    return it == cls.as<ClassObj>()->statics.end() ? Value() : it->second;
}

// The arguments of one probe call and the symbols' sizes as text; false when a size cannot be chosen.
bool make_arguments(Interpreter& in, const ModuleObj& m, const ast::FnProto& p, const ShapeSignature& sig,
                    std::vector<Value>& args, std::string& sizes_text) {
    std::vector<std::string> symbols;
    for (const auto& param : sig.params)
        for (const DimPtr& d : param.shape->dims) collect_symbols(*d, symbols);
    ShapeBindings bound;
    size_t next = 0;
    auto fresh = [&]() -> int64_t { return next < std::size(kSymbolSizes) ? kSymbolSizes[next++] : -1; };
    for (const std::string& s : symbols) {
        const int64_t size = fresh();
        if (size < 0) return false;
        bound.bind(s, {size}, "");
        sizes_text += (sizes_text.empty() ? "" : ", ") + s + " = " + std::to_string(size);
    }
    for (size_t i = 0; i < sig.params.size(); ++i) {
        const ShapeExpr& shape = *sig.params[i].shape;
        Value empty = tensor_factory(m, p.params[i].type.tree.get()); // every parameter has a shape type
        if (empty.is_nil()) return false;
        std::vector<Value> sizes;
        for (const DimPtr& d : shape.dims) {
            int64_t n = 0;
            if (d->kind == DimExpr::Kind::Rest) {
                for (int64_t k : bound.find(d->name)->sizes) sizes.push_back(Value::integer(k));
                continue;
            }
            if (d->kind == DimExpr::Kind::Any)
                n = fresh();
            else if (!evaluate(*d, bound, n))
                return false;
            if (n <= 0) return false; // a size not whole, or none left to choose
            sizes.push_back(Value::integer(n));
        }
        Value t = in.call_with(empty, {make_array(std::move(sizes))}, p.loc);
        if (!shape.dtype.empty()) {
            const char* dtype = torch_dtype(shape.dtype);
            Value to = in.find_method(t, "to");
            if (!dtype || to.is_nil()) return false;
            t = in.call_method(t, to, {make_str(dtype)}, p.loc);
        }
        args.push_back(std::move(t));
    }
    return true;
}

bool in_file(const ast::FnProto* p, const ModuleObj& m) { return p->loc.known() && p->loc.file->path() == m.path; }

// An instance of a class of the program made by `C()` (its `static fn new` with no arguments),
// for its methods' probes; nil when it takes arguments or fails (its methods are not probed).
Value probe_instance(Interpreter& in, const Value& cls) {
    const ClassObj* c = cls.as<ClassObj>();
    if (!c->ctor.is(ObjType::Function)) return Value();
    try {
        return in.call_with(cls, {}, c->ctor.as<FunctionObj>()->proto->loc);
    } catch (const ProgramError&) {
        return Value();
    }
}

} // namespace

std::vector<ProbeFailure> probe_shape_functions(Interpreter& in, const ModuleObj& m) {
    std::vector<Probe> probes;
    for (const auto& [name, slot] : m.global_index) {
        const Value& v = m.globals[static_cast<size_t>(slot)];
        auto consider = [&](const Value& f) {
            if (!f.is(ObjType::Function)) return;
            const ast::FnProto* p = f.as<FunctionObj>()->proto;
            if (p->is_method || !in_file(p, m)) return;
            if (auto sig = all_params_shaped(*p)) probes.push_back(Probe{f, p, std::move(sig)});
        };
        if (v.is(ObjType::Overloads))
            for (const Value& f : v.as<OverloadSetObj>()->fns) consider(f);
        else
            consider(v);
        // A class of the program: its shape-typed methods (a module's `forward`), on an instance.
        if (!v.is(ObjType::Class) || !v.as<ClassObj>()->ctor.is(ObjType::Function) ||
            !in_file(v.as<ClassObj>()->ctor.as<FunctionObj>()->proto, m))
            continue;
        Value instance;
        for (const auto& [method_name, method] : v.as<ClassObj>()->methods) {
            if (!method.is(ObjType::Function)) continue;
            const ast::FnProto* p = method.as<FunctionObj>()->proto;
            auto sig = all_params_shaped(*p);
            if (!sig) continue;
            if (instance.is_nil()) instance = probe_instance(in, v);
            if (instance.is_nil()) break;
            probes.push_back(Probe{Value(new BoundMethodObj(instance, method)), p, std::move(sig)});
        }
    }
    std::sort(probes.begin(), probes.end(),
              [](const Probe& a, const Probe& b) { return a.proto->loc.line < b.proto->loc.line; });
    std::vector<ProbeFailure> failures;
    for (const Probe& probe : probes) {
        std::vector<Value> args;
        std::string sizes;
        try {
            if (!make_arguments(in, m, *probe.proto, *probe.sig, args, sizes)) continue;
            ArgList list{args.data(), static_cast<int>(args.size())};
            in.call(probe.fn, list, probe.proto->loc);
        } catch (const ProgramError& e) {
            failures.push_back(ProbeFailure{e, sizes});
        }
    }
    return failures;
}

} // namespace spl
