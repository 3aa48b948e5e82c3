// calls.cpp — calling functions, methods, constructors; creating classes and enums.
#include "eval/arg_binding.h"
#include "eval/builtins.h"
#include "ffi/extern_call.h"
#include "eval/interpreter.h"
#include "eval/overloads.h"
#include "eval/one_call_body.h"
#include "eval/shape_checks.h"

#include <algorithm>
#include <unordered_set>

namespace spl {

using namespace ast;

namespace {

// A call of an extern: its arguments matched to the declaration's parameters (positional, then
// by name, as for any call: arg_binding.h), then made through the typed symbol or the boxed
// thunk (ffi/extern_call.h). Kept out of Interpreter::call, whose frame every Simple call uses.
[[gnu::noinline]] Value call_extern(Interpreter& in, const ExternObj& ex, ArgList& args, ArgPlan* plan, SourceLoc loc) {
    const ast::ExternDecl& d = *ex.decl;
    const size_t nparams = d.params.size();
    // The plugin needs at least its required parameters.
    const size_t nrequired = static_cast<size_t>(ex.fn->nrequired);
    constexpr size_t kInline = 12;
    const Value* by_param_inline[kInline] = {};
    std::vector<const Value*> by_param_heap;
    const Value** by_param = by_param_inline;
    if (nparams > kInline) {
        by_param_heap.assign(nparams, nullptr);
        by_param = by_param_heap.data();
    }
    size_t nargs = 0;
    if (!args.has_names()) {
        // Positional: argument i fills parameter i, defaults fill the rest.
        if (static_cast<size_t>(args.count) > nparams)
            arity_error(loc, Arity{d.name, nrequired, nparams}, static_cast<size_t>(args.count));
        for (int i = 0; i < args.count; ++i) by_param[i] = &args.values[i];
        nargs = std::max(static_cast<size_t>(args.count), nrequired);
    } else {
        // Which parameter each argument fills.
        std::vector<int32_t> scratch;
        const auto& target = arg_targets(
            &ex, plan, scratch, args, nparams, [&](size_t i) -> const std::string& { return d.params[i].name; }, loc,
            [&] {
                return Arity{d.name, nrequired, nparams};
            });
        for (int i = 0; i < args.count; ++i) {
            size_t p = static_cast<size_t>(target[static_cast<size_t>(i)]);
            by_param[p] = &args.values[i];
            nargs = std::max(nargs, p + 1);
        }
        nargs = std::max(nargs, nrequired);
    }
    return call_extern_params(in, ex, by_param, nargs, loc);
}

} // namespace

Value Interpreter::make_function(const FnProto& proto, const Obj* owner) {
    return Value(new FunctionObj(&proto, owner));
}

Value Interpreter::call(const Value& callee, ArgList& args, SourceLoc loc, ArgPlan* plan, OverloadSite* site) {
    if (callee.is_obj()) {
        switch (callee.obj()->type) {
        case ObjType::Function: return invoke(callee.as<FunctionObj>(), nullptr, args, plan, loc);
        case ObjType::Overloads: return call_function(callee, nullptr, args, plan, site, loc);
        case ObjType::BoundMethod: {
            auto* bm = callee.as<BoundMethodObj>();
            return call_function(bm->method, &bm->self, args, plan, site, loc);
        }
        case ObjType::Builtin: {
            const BuiltinDef* def = callee.as<BuiltinObj>()->def;
            if (args.has_names() && !def->named_ok)
                runtime_error(loc, std::string("`") + def->name + "` does not take named arguments");
            if (args.count < def->min_args || (def->max_args >= 0 && args.count > def->max_args))
                arity_error(loc,
                            Arity{def->name, static_cast<size_t>(def->min_args),
                                  def->max_args < 0 ? Arity::kAny : static_cast<size_t>(def->max_args)},
                            static_cast<size_t>(args.count));
            if (def->native_call) ++extern_calls;
            return def->fn(*this, args, loc);
        }
        case ObjType::Extern: return call_extern(*this, *callee.as<ExternObj>(), args, plan, loc);
        case ObjType::Class: {
            // `C(args)` runs `static fn new` when C has one, except inside C's
            // own methods, where `C(field: v)` / `Self(...)` builds the
            // instance from its fields (the real Simple's constructor rule).
            auto* cls = callee.as<ClassObj>();
            if (!cls->ctor.is_nil() && !(frame_ && frame_->owner == cls))
                return call_function(cls->ctor, nullptr, args, plan, site, loc);
            return construct(cls, args, loc, plan);
        }
        case ObjType::Instance: {
            // `m(x)` calls `m.call(x)`: Python's __call__ (nn modules run hooks, then forward).
            Value method = find_method(callee, "call");
            if (method.is_nil())
                runtime_error(loc, "a " + type_name(callee) + " cannot be called: its class has no `call` method");
            return call_function(method, &callee, args, plan, site, loc);
        }
        case ObjType::VariantCtor: {
            auto* c = callee.as<VariantCtorObj>();
            return construct_variant(c->type, c->index, args, loc);
        }
        default: break;
        }
    }
    runtime_error(loc, "a value of type " + type_name(callee) + " cannot be called");
}

// Copies host-supplied arguments into `buf` (sized for them); shared by
// call_with and call_method, which take their arguments the same way.
static ArgList pack_args(std::initializer_list<Value> list, ArgBuffer& buf) {
    Value* argv = buf.data();
    size_t i = 0;
    for (const Value& v : list) argv[i++] = v;
    return ArgList{argv, static_cast<int>(list.size())};
}

Value Interpreter::run_callable(const Value& fn, std::vector<Value>& args) {
    ArgList list{args.data(), static_cast<int>(args.size())};
    return call(fn, list, SourceLoc{});
}

Value Interpreter::call_with(const Value& callee, std::initializer_list<Value> list, SourceLoc loc) {
    ArgBuffer buf(list.size());
    ArgList args = pack_args(list, buf);
    return call(callee, args, loc);
}

Value Interpreter::find_method(const Value& receiver, const std::string& name) const {
    const std::unordered_map<std::string, Value>* methods = nullptr;
    if (receiver.is(ObjType::Instance))
        methods = &receiver.as<InstanceObj>()->cls->methods;
    else if (receiver.is(ObjType::Variant))
        methods = &receiver.as<VariantObj>()->type->methods;
    if (!methods) return Value();
    auto it = methods->find(name);
    return it == methods->end() ? Value() : it->second;
}

Value Interpreter::call_method(const Value& receiver, const Value& method, std::initializer_list<Value> list,
                               SourceLoc loc, OverloadSite* site) {
    ArgBuffer buf(list.size());
    ArgList args = pack_args(list, buf);
    return call_function(method, &receiver, args, nullptr, site, loc);
}

bool Interpreter::try_call_method(const Value& receiver, const Value& method, const Value& arg, SourceLoc loc,
                                  OverloadSite* site, Value& result) {
    // Choosing the function only reads the argument: it takes `arg` itself. A call in a frame
    // moves its arguments into the frame's slots, so it gets a copy.
    ArgList borrowed{const_cast<Value*>(&arg), 1};
    const FunctionObj* fn = nullptr;
    ArgPlan* plan = nullptr;
    ArgPlan scratch;
    if (method.is(ObjType::Function)) {
        fn = method.as<FunctionObj>();
        if (!function_accepts(*fn, borrowed)) return false;
    } else {
        Chosen c = choose_overload(*method.as<OverloadSetObj>(), borrowed, site, scratch);
        if (!c.fn) return false;
        fn = c.fn;
        plan = c.plan;
    }
    if (fn->proto->cache->frameless) { // its binding reads the argument where it is
        result = invoke(fn, &receiver, borrowed, plan, loc, true);
        return true;
    }
    Value argv[1] = {arg};
    ArgList args{argv, 1};
    result = invoke(fn, &receiver, args, plan, loc, true);
    return true;
}

Value Interpreter::call_overloads(const OverloadSetObj& set, const Value* self, ArgList& args, OverloadSite* site,
                                  SourceLoc loc) {
    ArgPlan scratch;
    Chosen c = choose_overload(set, args, site, scratch);
    if (!c.fn) no_overload_error(*this, set, args, loc);
    return invoke(c.fn, self, args, c.plan, loc, true);
}

// `use lib.torch.*` brings in `sqrt`, `max`, `sum`, ... for tensors; plain
// numbers must keep working: when the imported function (or every overload
// of it) refuses the call and the builtin of the same name accepts it, the
// builtin runs. Otherwise the imported function's own error stands.
Value Interpreter::call_or_builtin(const Value& callee, ArgList& args, const Call& c) {
    const Value& builtin = builtins_[static_cast<size_t>(c.builtin_fallback)];
    const BuiltinDef& def = *builtin.as<BuiltinObj>()->def;
    if (callee.is(ObjType::Overloads)) {
        const auto& set = *callee.as<OverloadSetObj>();
        ArgPlan scratch;
        Chosen chosen = choose_overload(set, args, &c.cache->overloads, scratch);
        if (chosen.fn) return invoke(chosen.fn, nullptr, args, chosen.plan, c.loc, true);
        if (builtin_accepts(def, args)) return call(builtin, args, c.loc);
        no_overload_error(*this, set, args, c.loc);
    }
    if (callee.is(ObjType::Function) && !function_accepts(*callee.as<FunctionObj>(), args) &&
        builtin_accepts(def, args))
        return call(builtin, args, c.loc);
    return call(callee, args, c.loc, &c.cache->plan, &c.cache->overloads);
}

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void too_many_arguments(const FnProto& p, size_t given, SourceLoc loc) {
    arity_error(loc, arity_of(p), given);
}

// Every required parameter from `first` on that `given(i)` says no argument filled.
template <class Given>
[[noreturn, gnu::cold, gnu::noinline]] void missing_arguments(const FnProto& p, size_t first, Given given,
                                                              SourceLoc loc) {
    std::vector<std::string> missing;
    for (size_t i = first; i < p.params.size(); ++i)
        if (!given(i) && !p.params[i].default_value && p.params[i].rest == Param::Rest::None)
            missing.push_back(p.params[i].name);
    arity_error(loc, arity_of(p), 0, missing);
}

// Where bind_parameters puts each parameter's value (slot s: self in 0 of a method).
// FrameSlots: a frame's own Values, the arguments moved in. SlotView: a pointer to where each
// value already is (the argument or a literal default), for a one-call body, which only reads
// them (one_call_body.h); made only for parameters that need no frame (FnProto::plain_params).
struct FrameSlots {
    static constexpr bool kFrame = true;
    static constexpr bool kFieldDefaults = false;
    Value* slots;
    void take(size_t s, Value& v) { slots[s] = std::move(v); }
    void refer(size_t s, const Value& v) { slots[s] = v; }
    Value& get(size_t s) { return slots[s]; }
    void replace(size_t s, Value v) { slots[s] = std::move(v); }
};
struct SlotView {
    static constexpr bool kFrame = false;
    static constexpr bool kFieldDefaults = false;
    static constexpr size_t kSlots = 10; // more slots than these: a frame
    const Value* view[kSlots];
    void take(size_t s, Value& v) { view[s] = &v; }
    void refer(size_t s, const Value& v) { view[s] = &v; }
    const Value& get(size_t s) const { return *view[s]; }
};
// An instance's fields, bound as a frame's slots (construct()); a default that is not a literal
// is evaluated detached, in `default_slots` slots of its own: a field's default reads no other.
struct FieldSlots : FrameSlots {
    static constexpr bool kFieldDefaults = true;
    uint32_t default_slots;
};

} // namespace

// A call of a Simple function: its arguments bound to its parameters (bind_parameters, the one
// place that binds a call), then its body: by its one-call plan where it has one
// (one_call_body.h), else walked in a frame. A one-call body whose parameters need no frame to
// bind (literal defaults, nothing captured or variadic) reads them where they are.
Value Interpreter::invoke(const FunctionObj* fn, const Value* self, ArgList& args, ArgPlan* plan, SourceLoc loc,
                          bool types_checked) {
    const FnProto& p = *fn->proto;
    if (top_level_main_.watching) [[unlikely]]
        if (p.name == "main" && !fn->owner) return invoke_main_from_top_level(fn, self, args, plan, loc, types_checked);
    if (!p.cache->planned) plan_body(p);
    if (!p.cache->frameless) return invoke_in_frame(fn, self, args, plan, loc, types_checked);
    SlotView bound;
    bind_parameters(p, self, args, plan, loc, types_checked, bound);
    Value result;
    bool ran;
    try {
        ran = run_one_call_body(*this, *p.cache->plan, *fn, bound.view, result);
    } catch (ProgramError& e) {
        e.trace.push_back(TraceEntry{p.qualified_name, loc});
        throw;
    }
    if (!ran) result = walk_viewed(fn, bound.view, loc);
    return result;
}

// The body of a one-call function walked in a frame after all, on the values its binding viewed.
Value Interpreter::walk_viewed(const FunctionObj* fn, const Value* const* view, SourceLoc loc) {
    const FnProto& p = *fn->proto;
    StackWindow window(*this, p.nslots);
    Value* slots = window.slots();
    for (size_t i = 0; i < p.params.size() + (p.is_method ? 1 : 0); ++i) slots[i] = *view[i];
    CallFrame frame{slots, fn->upvalues.data(), &p, {}, fn->owner};
    FrameScope scope(*this, &frame, loc);
    return walk_body(p, frame, loc);
}

// The plan of p's body, once (none with --no-fast-paths), whether binding for it needs a frame,
// and its shape types (a function with any is bound in a frame, where they are checked).
void Interpreter::plan_body(const FnProto& p) {
    if (options_.fast_paths) p.cache->plan = plan_one_call_body(p);
    p.cache->shapes = shape_signature(p);
    p.cache->frameless = p.cache->plan && p.plain_params && p.nslots <= SlotView::kSlots && !p.cache->shapes;
    p.cache->planned = true;
}

Value Interpreter::invoke_in_frame(const FunctionObj* fn, const Value* self, ArgList& args, ArgPlan* plan,
                                   SourceLoc loc, bool types_checked) {
    const FnProto& p = *fn->proto;
    const OneCallBody* body = p.cache->plan.get();
    StackWindow window(*this, p.nslots);
    Value* slots = window.slots();
    ShapeBindings shape_symbols;
    CallFrame frame{slots, fn->upvalues.data(), &p, {}, fn->owner};
    frame.shape_symbols = &shape_symbols;
    FrameScope scope(*this, &frame, loc);
    FrameSlots bound{slots};
    bind_parameters(p, self, args, plan, loc, types_checked, bound); // defaults may read earlier parameters
    if (p.cache->shapes) [[unlikely]]
        check_parameter_shapes(*this, *p.cache->shapes, p, slots, loc, shape_symbols);
    Value result = run_body_in_frame(fn, body, frame, loc);
    if (p.cache->shapes) [[unlikely]]
        check_result_shape(*this, *p.cache->shapes, p, result, loc, shape_symbols);
    return result;
}

// A function's body run in its frame: by its plan when it has one and the plan applies, else walked.
Value Interpreter::run_body_in_frame(const FunctionObj* fn, const OneCallBody* body, CallFrame& frame, SourceLoc loc) {
    const FnProto& p = *fn->proto;
    Value* slots = frame.slots;
    if (body) {
        // The plan reads the slots through pointers, as it reads a SlotView: on the C++ stack
        // for the usual few slots, so that a call here allocates nothing.
        const Value* small[SlotView::kSlots];
        std::vector<const Value*> large;
        const Value** view = small;
        if (p.nslots > SlotView::kSlots) {
            large.resize(p.nslots);
            view = large.data();
        }
        for (size_t i = 0; i < p.nslots; ++i) view[i] = &slots[i];
        try {
            if (run_one_call_body(*this, *body, *fn, view, frame.ret)) return std::move(frame.ret);
        } catch (ProgramError& e) {
            e.trace.push_back(TraceEntry{p.qualified_name, loc});
            throw;
        }
    }
    return walk_body(p, frame, loc);
}

Value Interpreter::walk_body(const FnProto& p, CallFrame& frame, SourceLoc loc) {
    try {
        exec_block(p.body);
    } catch (const ControlSignal&) {
        // `?` or a `return` inside a block used as a value: frame.ret is set.
    } catch (ProgramError& e) {
        e.trace.push_back(TraceEntry{p.qualified_name, loc});
        throw;
    }
    return std::move(frame.ret);
}

// Binds a call's arguments to fn's parameters (into `out`, slot 0 self in a method): by
// position, by name and into variadic parameters (arg_binding.h), then each parameter's
// default, type check and conversion. A default that is not a literal is evaluated in the
// running frame, which is fn's by then (FrameSlots only: SlotView is used for none).
template <class Out>
void Interpreter::bind_parameters(const FnProto& p, const Value* self, ArgList& args, ArgPlan* plan, SourceLoc loc,
                                  bool types_checked, Out& out) {
    const size_t nparams = p.params.size();
    const uint32_t base = p.is_method ? 1 : 0;
    if (base) out.refer(0, *self);
    const size_t npositional = static_cast<size_t>(args.count);
    if (p.plain_params && !args.has_names() && (types_checked || !p.checks_args)) {
        // The usual call: arguments by position, literal defaults for the rest, nothing to check.
        if (npositional > nparams) too_many_arguments(p, npositional, loc);
        for (size_t i = 0; i < npositional; ++i) out.take(base + i, args.values[i]);
        for (size_t i = npositional; i < nparams; ++i) {
            const ast::Expr* d = p.params[i].default_value.get();
            if (!d)
                missing_arguments(
                    p, i, [](size_t) { return false; }, loc);
            out.refer(base + i, static_cast<const Literal&>(*d).value);
        }
        return;
    }
    // Arguments into parameter slots; remember which were given.
    const bool bound_by_target = args.has_names() || p.has_rest();
    GivenSet given_named(bound_by_target ? nparams : 0); // else by position: the first args.count
    if (!bound_by_target) {
        if (npositional > nparams) too_many_arguments(p, npositional, loc);
        for (size_t i = 0; i < npositional; ++i) out.take(base + i, args.values[i]);
    } else {
        std::vector<int32_t> scratch;
        const std::vector<int32_t>* target = nullptr;
        target = &arg_targets(
            &p, plan, scratch, args, nparams, [&](size_t i) -> const std::string& { return p.params[i].name; }, loc,
            [&] { return arity_of(p); }, RestParams{p.rest_positional, p.rest_named});
        if constexpr (Out::kFrame) {
            // The variadic parameters start empty: a list of the extra positional arguments,
            // a dict (name: value) of the named ones no parameter takes.
            if (p.rest_positional >= 0) {
                out.replace(base + static_cast<size_t>(p.rest_positional), make_array());
                given_named.add(static_cast<size_t>(p.rest_positional));
            }
            if (p.rest_named >= 0) {
                out.replace(base + static_cast<size_t>(p.rest_named), Value(new DictObj()));
                given_named.add(static_cast<size_t>(p.rest_named));
            }
        }
        for (int i = 0; i < args.count; ++i) {
            const int32_t t = (*target)[static_cast<size_t>(i)];
            const size_t s = base + static_cast<size_t>(t);
            if constexpr (Out::kFrame) {
                if (t == p.rest_positional) {
                    out.get(s).template as<ArrayObj>()->items.push_back(std::move(args.values[i]));
                    continue;
                }
                if (t == p.rest_named) {
                    out.get(s).template as<DictObj>()->set(make_str((*args.names)[static_cast<size_t>(i)]),
                                                           std::move(args.values[i]));
                    continue;
                }
            }
            out.take(s, args.values[i]);
            given_named.add(static_cast<size_t>(t));
        }
    }

    const bool check = p.checks_args && !types_checked;
    for (size_t i = 0; i < nparams; ++i) {
        const Param& prm = p.params[i];
        const size_t s = base + i;
        if (prm.rest == Param::Rest::Positional) { // each element is checked as the declared type
            const std::vector<Value>& items = out.get(s).template as<ArrayObj>()->items;
            for (size_t k = 0; check && k < items.size(); ++k) {
                bool looked = false;
                if (!type_accepts_inline(*prm.spec, items[k], false, &looked))
                    argument_type_error(*this, p, i, items[k], loc);
            }
            continue;
        }
        if (prm.rest == Param::Rest::Named) continue; // values of any type
        bool given = bound_by_target ? given_named.has(i) : i < static_cast<size_t>(args.count);
        if (!given) {
            if (!prm.default_value)
                missing_arguments(
                    p, i,
                    [&](size_t k) {
                        return bound_by_target ? given_named.has(k) : k < static_cast<size_t>(args.count);
                    },
                    loc);
            if (is_literal(*prm.default_value))
                out.refer(s, static_cast<const Literal&>(*prm.default_value).value);
            else if constexpr (Out::kFieldDefaults)
                out.replace(s, eval_detached(*prm.default_value, out.default_slots));
            else if constexpr (Out::kFrame)
                out.replace(s, eval(*prm.default_value)); // may use the parameters before it
        } else if (check) {
            bool looked = false;
            if (!type_accepts_inline(*prm.spec, out.get(s), false, &looked))
                argument_type_error(*this, p, i, out.get(s), loc);
        }
        if constexpr (Out::kFrame) { // (a view is made only where no parameter converts)
            Value& v = out.get(s);
            if (prm.to_float && v.is_int()) v = Value::number(static_cast<double>(v.as_int()));
            if (prm.wraps_number && v.is_number()) v = make_array({v}); // `dim: [i64]` given `1`
        }
    }
    if constexpr (Out::kFrame)
        for (uint32_t s : p.captured_params) out.slots[s] = Value(new CellObj(std::move(out.slots[s])));
}

// `C(...)` from C's fields: bound as a call's arguments are, to `init`, whose parameters are
// the fields (ast.h's ClassDecl).
Value Interpreter::construct(ClassObj* cls, ArgList& args, SourceLoc loc, ArgPlan* plan) {
    auto* inst = InstanceObj::create(cls);
    Value self(inst);
    inst->dropped = true; // until every field is set: a refused call leaves nothing for `drop` to see
    FieldSlots fields{{inst->fields.begin()}, cls->decl->init_slots};
    bind_parameters(cls->decl->init, nullptr, args, plan, loc, true, fields);
    inst->dropped = false;
    if (cls->decl->shape_fields) check_field_shapes(*this, cls->decl->init, inst->fields.begin(), loc);
    return self;
}

Value Interpreter::construct_variant(EnumObj* type, uint32_t index, ArgList& args, SourceLoc loc) {
    const VariantInfo& info = type->variants[index];
    const size_t arity = info.arity();
    std::vector<Value> payload(arity);
    std::vector<int32_t> scratch;
    auto arity_of_variant = [&] { return Arity{type->name + "." + info.name, arity, arity}; };
    const auto& target = arg_targets(
        type, nullptr, scratch, args, arity, [&](size_t i) -> const std::string& { return info.field_names[i]; }, loc,
        arity_of_variant);
    if (static_cast<size_t>(args.count) != arity) {
        // Fewer: the fields left without a value, when each has a name to give.
        std::vector<std::string> missing;
        GivenSet given(arity);
        for (int i = 0; i < args.count; ++i) given.add(static_cast<size_t>(target[static_cast<size_t>(i)]));
        for (size_t i = 0; i < arity && static_cast<size_t>(args.count) < arity; ++i)
            if (!given.has(i)) missing.push_back(info.field_names[i]);
        bool named = std::none_of(missing.begin(), missing.end(), [](const std::string& n) { return n.empty(); });
        arity_error(loc, arity_of_variant(), static_cast<size_t>(args.count),
                    named ? missing : std::vector<std::string>{});
    }
    for (int i = 0; i < args.count; ++i)
        payload[static_cast<size_t>(target[static_cast<size_t>(i)])] = std::move(args.values[i]);
    if (arity == 0) return type->unit_values[index];
    return Value(new VariantObj(type, index, std::move(payload)));
}

// ---------------------------------------------------------------- declarations

void Interpreter::create_class(const ClassDecl& d, ModuleObj&) {
    auto* cls = new ClassObj(d.name, &d, this);
    Value v(cls);
    types_.push_back(v);
    for (size_t i = 0; i < d.init.params.size(); ++i) {
        cls->field_names.push_back(d.init.params[i].name);
        cls->field_slots[d.init.params[i].name] = static_cast<int>(i);
    }
    for (const auto& m : d.methods) cls->add_method(m->name, make_function(*m, cls), m->is_static);
    *d.global = std::move(v);
}

void Interpreter::create_enum(const EnumDecl& d, ModuleObj&) {
    auto* en = new EnumObj(d.name);
    Value v(en);
    types_.push_back(v);
    for (const VariantDecl& vd : d.variants) {
        uint32_t i = static_cast<uint32_t>(en->variants.size());
        en->variants.push_back(VariantInfo{vd.name, vd.field_names});
        if (vd.field_names.empty()) {
            en->unit_values.emplace_back(new VariantObj(en, i, {}));
            en->constructors.emplace_back();
        } else {
            en->unit_values.emplace_back();
            en->constructors.emplace_back(new VariantCtorObj(en, i));
        }
    }
    for (const auto& m : d.methods) en->add_method(m->name, make_function(*m, en), m->is_static);
    *d.global = std::move(v);
}

void Interpreter::apply_impl(const ImplDecl& d) {
    const Value& target = *d.global;
    if (target.is(ObjType::Class)) {
        auto* cls = target.as<ClassObj>();
        for (const auto& m : d.methods) cls->add_method(m->name, make_function(*m, cls), m->is_static);
        if (d.trait_global) give_trait_defaults(cls, d);
    } else if (target.is(ObjType::Enum)) {
        auto* en = target.as<EnumObj>();
        for (const auto& m : d.methods) {
            if (m->is_property || !m->setter_of.empty())
                runtime_error(m->loc, "`@property` and setters are for classes, and " + d.target + " is an enum");
            en->add_method(m->name, make_function(*m, en), m->is_static);
        }
    } else {
        runtime_error(d.loc, "`impl " + d.target + "`: " + d.target + " is not a class or enum");
    }
}

void Interpreter::create_trait(const TraitDecl& d) {
    Value v(new TraitObj(d.name, &d));
    types_.push_back(v);
    *d.global = std::move(v);
}

// `impl Trait for C`: C gets every default method of the trait that it does
// not define itself (in its body or an earlier `impl` block); a method the
// trait requires and C lacks is an error here, not at the first call.
void Interpreter::give_trait_defaults(ClassObj* cls, const ImplDecl& d) {
    const Value& t = *d.trait_global;
    if (!t.is(ObjType::Trait))
        runtime_error(d.loc, "`impl " + d.trait + " for " + d.target + "`: " + d.trait + " is not a trait");
    const auto* trait = t.as<TraitObj>();
    cls->traits.push_back(trait);
    // Decided against what C had before any default was added, so that a
    // trait's overloads of one name all come along.
    std::unordered_set<std::string> own;
    for (const auto& [name, fn] : cls->methods) own.insert(name);
    for (const auto& [name, fn] : cls->statics) own.insert("static " + name);
    for (const auto& m : trait->decl->methods)
        if (!own.count(m->is_static ? "static " + m->name : m->name))
            cls->add_method(m->name, make_function(*m, cls), m->is_static);
    for (const std::string& name : trait->decl->required)
        if (!cls->methods.count(name) && !cls->statics.count(name))
            runtime_error(d.loc,
                          cls->name + " does not define `" + name + "`, which the trait " + trait->name + " requires");
}

} // namespace spl
