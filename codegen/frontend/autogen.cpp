// The rules are torchgen's (native_function_generation.py and
// FunctionSchema.signature in model.py), restated over our model. Where
// torchgen only asserts (lists of known exceptions it refuses to grow), we
// skip instead: the headers are the reference, not the assertions.
#include "frontend/autogen.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <stdexcept>

#include "model/operator_name.h"

namespace codegen {

namespace {

bool same_alias(const std::optional<Alias>& a, const std::optional<Alias>& b) {
    if (!a || !b) return !a && !b;
    return a->before_set == b->before_set && a->is_write == b->is_write && a->after_set == b->after_set;
}

Type without_alias(Type t) {
    t.alias.reset();
    return t;
}

bool is_tensor_like(const Type& t) { return t.base == "Tensor"; }

bool is_plain_tensor(const Type& t) { return t.base == "Tensor" && !t.is_list && !t.optional && !t.elem_optional; }

// Index of the positional `self`, or -1.
int self_index(const FunctionSchema& s) {
    for (size_t i = 0; i < s.arguments.size(); ++i)
        if (!s.arguments[i].kwarg_only && s.arguments[i].name == "self") return static_cast<int>(i);
    return -1;
}

// torchgen's TensorOptions bundle: keyword-only dtype, layout, device,
// pin_memory (each possibly optional) in a row. Returns the index of dtype.
int tensor_options_index(const FunctionSchema& s) {
    static constexpr std::array<std::pair<const char*, const char*>, 4> bundle = {
        {{"dtype", "ScalarType"}, {"layout", "Layout"}, {"device", "Device"}, {"pin_memory", "bool"}}};
    const auto& args = s.arguments;
    for (size_t i = 0; i + bundle.size() <= args.size(); ++i) {
        bool match = true;
        for (size_t k = 0; k < bundle.size() && match; ++k) {
            const Argument& a = args[i + k];
            match = a.kwarg_only && !a.is_out && a.name == bundle[k].first && a.type.base == bundle[k].second &&
                    !a.type.is_list && !a.type.alias;
        }
        if (match) return static_cast<int>(i);
    }
    return -1;
}

// Arguments.signature(): aliases stripped, out= and TensorOptions dropped.
std::vector<Argument> argument_signature(const FunctionSchema& s) {
    std::vector<Argument> out;
    const int options = tensor_options_index(s);
    for (size_t i = 0; i < s.arguments.size(); ++i) {
        const Argument& a = s.arguments[i];
        if (a.is_out) continue;
        if (options >= 0 && static_cast<int>(i) >= options && static_cast<int>(i) < options + 4) continue;
        Argument copy = a;
        copy.type = without_alias(a.type);
        out.push_back(std::move(copy));
    }
    return out;
}

// The written inputs that a functional variant must return, in torchgen's
// order: self, the out= arguments, then the positionals after self.
std::vector<const Argument*> written_inputs_in_return_order(const FunctionSchema& s) {
    std::vector<const Argument*> order;
    const int self = self_index(s);
    if (self >= 0) order.push_back(&s.arguments[self]);
    for (const Argument& a : s.arguments)
        if (a.is_out) order.push_back(&a);
    for (size_t i = self >= 0 ? self + 1 : 0; i < s.arguments.size(); ++i)
        if (!s.arguments[i].kwarg_only) order.push_back(&s.arguments[i]);
    return order;
}

std::string out_overload(const std::string& overload) { return overload.empty() ? "out" : overload + "_out"; }

Argument out_argument(std::string name, Type type) {
    Argument a;
    a.name = std::move(name);
    a.type = std::move(type);
    a.kwarg_only = true;
    a.is_out = true;
    return a;
}

// generate_out_args_from_schema: one `Tensor(x!) out`/`outN` per tensor-like
// return, with alias letters no argument uses yet. The returns become those
// outs when they were all plain tensors, else only the non-tensor returns stay.
void add_out_arguments_for_returns(const FunctionSchema& from, FunctionSchema& to) {
    std::set<std::string> used;
    for (const Argument& a : from.arguments)
        if (a.type.alias) used.insert(a.type.alias->before_set.begin(), a.type.alias->before_set.end());
    std::vector<std::string> free_letters;
    for (char c = 'a'; c <= 'z'; ++c)
        if (!used.count(std::string(1, c))) free_letters.emplace_back(1, c);

    const bool all_plain =
        std::all_of(from.returns.begin(), from.returns.end(), [](const Return& r) { return is_plain_tensor(r.type); });
    to.returns.clear();
    for (size_t i = 0; i < from.returns.size(); ++i) {
        const Return& r = from.returns[i];
        if (!is_tensor_like(r.type)) {
            to.returns.push_back(r);
            continue;
        }
        if (i >= free_letters.size()) throw std::runtime_error("out of alias letters for " + from.str());
        Type t = r.type;
        t.alias = Alias{{free_letters[i]}, true, {}, false};
        to.arguments.push_back(out_argument(from.returns.size() == 1 ? "out" : "out" + std::to_string(i), t));
        if (all_plain) to.returns.push_back(Return{std::nullopt, t});
    }
}

FunctionSchema out_from_inplace(const FunctionSchema& f) {
    FunctionSchema s = f;
    s.name = without_inplace(f.name);
    s.overload_name = out_overload(f.overload_name);
    s.returns_tuple_syntax = false;
    Argument& self = s.arguments[self_index(s)];
    const Type self_type = self.type;
    self.type.alias.reset();
    s.arguments.push_back(out_argument("out", self_type));
    return s;
}

FunctionSchema out_from_functional(const FunctionSchema& f) {
    FunctionSchema s;
    s.name = f.name;
    s.overload_name = out_overload(f.overload_name);
    s.arguments = argument_signature(f);
    add_out_arguments_for_returns(f, s);
    return s;
}

FunctionSchema out_from_mutable(const FunctionSchema& f) {
    FunctionSchema s = f;
    s.name = without_inplace(f.name);
    s.overload_name = out_overload(f.overload_name);
    s.returns_tuple_syntax = false;
    add_out_arguments_for_returns(f, s);
    return s;
}

FunctionSchema generate_out(const FunctionSchema& base) {
    switch (base.kind()) {
    case SchemaKind::inplace: return out_from_inplace(base);
    case SchemaKind::mutable_: return out_from_mutable(base);
    case SchemaKind::functional: return out_from_functional(base);
    case SchemaKind::out: break;
    }
    throw std::logic_error("generate_out from an out= schema");
}

// A mutable base gets `<name>_functional` so that the two do not overload
// on alias annotations alone (torchgen's functional_overload).
FunctionSchema generate_functional(const FunctionSchema& base) {
    FunctionSchema s = signature(base, /*keep_return_names=*/true);
    s.name = without_inplace(base.name) + (base.kind() == SchemaKind::mutable_ ? "_functional" : "");
    s.overload_name = base.overload_name;
    return s;
}

// NativeFunction.is_view_op
bool is_view_op(const Operator& op) {
    const FunctionSchema& s = op.schema;
    for (const Return& r : s.returns)
        if (r.type.alias && !r.type.alias->is_write) return true;
    const std::string qname = s.qualified_name();
    if (std::count(op.tags.begin(), op.tags.end(), "inplace_view") && qname != "resize_" && qname != "resize_as_")
        return true;
    for (const Argument& a : s.arguments)
        if (a.type.alias && std::count(a.type.alias->after_set.begin(), a.type.alias->after_set.end(), "*"))
            return true;
    return false;
}

bool has_tag(const Operator& op, const char* tag) { return std::count(op.tags.begin(), op.tags.end(), tag) > 0; }

Operator generated_operator(const NativeEntry& base, FunctionSchema schema) {
    Operator op;
    op.schema = std::move(schema);
    op.variants = {"function"};
    // torchgen tags generated ops "generated" and keeps these two of the base's.
    op.tags = {"generated"};
    for (const char* inherited : {"nondeterministic_seeded", "view_copy"})
        if (has_tag(base.op, inherited)) op.tags.push_back(inherited);
    std::sort(op.tags.begin(), op.tags.end());
    op.autogen = true;
    op.origin = base.op.origin;
    return op;
}

constexpr size_t kind_count = 4;
size_t kind_slot(SchemaKind k) { return static_cast<size_t>(k); }

struct Group {
    std::array<const NativeEntry*, kind_count> by_kind{};
    const NativeEntry* get(SchemaKind k) const { return by_kind[kind_slot(k)]; }
    size_t size() const {
        return std::count_if(by_kind.begin(), by_kind.end(), [](auto* e) { return e != nullptr; });
    }
    template <class Pred>
    bool all(Pred p) const {
        return std::all_of(by_kind.begin(), by_kind.end(), [&](auto* e) { return !e || p(*e); });
    }
    template <class Pred>
    bool any(Pred p) const {
        return std::any_of(by_kind.begin(), by_kind.end(), [&](auto* e) { return e && p(*e); });
    }
};

// torchgen's pre_group_native_functions. std::map keeps the walk ordered.
std::map<std::string, Group> group_by_signature(const std::vector<NativeEntry>& entries) {
    std::map<std::string, Group> groups;
    for (const NativeEntry& e : entries) {
        Group& g = groups[signature(e.op.schema, false).str()];
        const NativeEntry*& slot = g.by_kind[kind_slot(e.op.schema.kind())];
        if (slot)
            throw std::runtime_error(e.op.origin + ": " + e.op.schema.qualified_name() +
                                     " has the same signature and kind as " + slot->op.schema.qualified_name() + " (" +
                                     slot->op.origin + ")");
        slot = &e;
    }
    return groups;
}

// torchgen's own exception: polygamma_ takes its `n` before self, unlike
// polygamma, so it is left alone rather than grouped.
bool is_ungroupable_inplace(const NativeEntry* e) { return e && e->op.schema.qualified_name() == "polygamma_"; }

// The part of add_generated_native_functions that decides, for one group,
// what to generate.
std::vector<Operator> expand_group(const Group& g) {
    const bool has_functional = g.get(SchemaKind::functional);
    const bool has_inplace = g.get(SchemaKind::inplace);
    const bool has_mutable = g.get(SchemaKind::mutable_);
    const bool has_out = g.get(SchemaKind::out);

    // Manual bindings bypass the dispatcher; views get *_copy ops instead
    // (set_ is the in-place op that happens to be tagged a view); composite
    // implicit ops decompose, unless they are core ATen.
    const bool are_manual = g.all([](const NativeEntry& e) { return e.manual_cpp_binding; });
    const bool has_view_ops =
        g.any([](const NativeEntry& e) { return is_view_op(e.op) && e.op.schema.name != "set_"; });
    const bool are_composite_implicit = g.all([](const NativeEntry& e) { return e.composite_implicit; });
    const bool is_core = g.any([](const NativeEntry& e) { return has_tag(e.op, "core"); });
    if (are_manual || has_view_ops || (are_composite_implicit && !is_core)) return {};
    if (has_out && g.size() == 1) return {};
    if (has_inplace && is_ungroupable_inplace(g.get(SchemaKind::inplace))) return {};

    const NativeEntry& base = *(has_mutable   ? g.get(SchemaKind::mutable_)
                                : has_inplace ? g.get(SchemaKind::inplace)
                                : has_out     ? g.get(SchemaKind::out)
                                              : g.get(SchemaKind::functional));
    const FunctionSchema& bs = base.op.schema;
    const bool base_can_have_out =
        bs.kind() == SchemaKind::inplace ||
        std::any_of(bs.returns.begin(), bs.returns.end(), [](const Return& r) { return is_tensor_like(r.type); });
    // Only an explicit request gets an out= variant (torchgen's needs_out).
    const bool out_requested = std::any_of(base.autogen.begin(), base.autogen.end(),
                                           [](const std::string& n) { return n.find("out") != std::string::npos; });
    const bool gets_out = !has_out && base_can_have_out && out_requested;

    std::vector<Operator> generated;
    if (gets_out) generated.push_back(generated_operator(base, generate_out(bs)));
    if (!has_functional && (has_out || gets_out))
        generated.push_back(generated_operator(base, generate_functional(bs)));
    return generated;
}

// NativeFunctionsGroup's check: a group that ends up complete (functional
// and out=) lists under `autogen:` exactly what was generated for it, and
// whatever is generated must be listed.
void check_autogen_lists(const Group& g, const std::vector<Operator>& generated) {
    std::map<std::string, const NativeEntry*> declared;
    for (const NativeEntry* e : g.by_kind)
        if (e)
            for (const std::string& name : e->autogen) declared.emplace(name, e);
    bool has_functional = g.get(SchemaKind::functional);
    bool has_out = g.get(SchemaKind::out);
    std::set<std::string> made;
    for (const Operator& op : generated) {
        made.insert(op.schema.qualified_name());
        has_functional |= op.schema.kind() == SchemaKind::functional;
        has_out |= op.schema.kind() == SchemaKind::out;
        if (!declared.count(op.schema.qualified_name()))
            throw std::runtime_error(op.origin + ": torchgen generates " + op.schema.qualified_name() +
                                     " from this entry; it must be listed under `autogen:`");
    }
    if (!(has_functional && has_out)) return;
    for (const auto& [name, entry] : declared)
        if (!made.count(name))
            throw std::runtime_error(entry->op.origin + ": `autogen:` lists " + name +
                                     " but torchgen generates no such variant of " + entry->op.schema.qualified_name());
}

} // namespace

FunctionSchema signature(const FunctionSchema& s, bool keep_return_names) {
    FunctionSchema sig;
    sig.name = group_base_name(s.name);
    sig.arguments = argument_signature(s);
    // torchgen's note [bernoulli.p schema]: bernoulli.p lacks the default its
    // in-place sibling bernoulli_.float has; patched so the two group.
    if (s.qualified_name() == "bernoulli.p")
        for (Argument& a : sig.arguments)
            if (a.name == "p" && !a.default_value) a.default_value = "0.5";

    for (const Return& r : s.returns)
        sig.returns.push_back(Return{keep_return_names ? r.name : std::nullopt, without_alias(r.type)});
    for (const Argument* a : written_inputs_in_return_order(s)) {
        if (!a->type.is_written()) continue;
        const bool already_returned = std::any_of(s.returns.begin(), s.returns.end(), [&](const Return& r) {
            return same_alias(r.type.alias, a->type.alias);
        });
        if (!already_returned)
            sig.returns.push_back(
                Return{keep_return_names ? std::optional<std::string>(a->name + "_out") : std::nullopt,
                       without_alias(a->type)});
    }
    return sig;
}

std::vector<Operator> expand_autogen(const std::vector<NativeEntry>& entries) {
    std::vector<Operator> all;
    for (const auto& [key, group] : group_by_signature(entries)) {
        std::vector<Operator> generated = expand_group(group);
        check_autogen_lists(group, generated);
        for (Operator& op : generated) all.push_back(std::move(op));
    }
    return all;
}

} // namespace codegen
