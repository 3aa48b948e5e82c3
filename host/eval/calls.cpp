// calls.cpp — calling functions, methods, constructors; creating classes and enums.
#include "eval/arg_binding.h"
#include "eval/builtins.h"
#include "ffi/extern_call.h"
#include "eval/interpreter.h"
#include "eval/overloads.h"
#include "eval/wrapper_fast_path.h"

#include <unordered_set>

namespace spl {

using namespace ast;

namespace {

// A call of an extern: its arguments matched to the declaration's parameters (positional, then
// by name, as for any call: arg_binding.h), then made through the typed symbol or the boxed
// thunk (ffi/extern_call.h). Kept out of Interpreter::call, whose frame every Simple call uses.
[[gnu::noinline]] Value call_extern(Interpreter& in, const ExternObj& ex, ArgList& args, ast::ArgPlan* plan,
                                    SourceLoc loc) {
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
            runtime_error(loc, "`" + d.name + "` takes " + std::to_string(nparams) + " arguments but " +
                                   std::to_string(args.count) + " were given");
        for (int i = 0; i < args.count; ++i) by_param[i] = &args.values[i];
        nargs = std::max(static_cast<size_t>(args.count), nrequired);
    } else {
        // Which parameter each argument fills.
        std::vector<int32_t> scratch;
        const auto& target = arg_targets(
            &ex, plan, scratch, args, nparams, [&](size_t i) -> const std::string& { return d.params[i].name; }, loc,
            [&] { return "`" + d.name + "`"; });
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
            if (args.count < def->min_args || (def->max_args >= 0 && args.count > def->max_args)) {
                std::string expected = def->min_args == def->max_args ? std::to_string(def->min_args)
                                       : def->max_args < 0
                                           ? "at least " + std::to_string(def->min_args)
                                           : std::to_string(def->min_args) + " to " + std::to_string(def->max_args);
                runtime_error(loc, std::string("`") + def->name + "` takes " + expected + " argument" +
                                       (def->max_args == 1 ? "" : "s") + ", " + std::to_string(args.count) + " given");
            }
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
    // Choosing the function and the fast path only read the argument: they take `arg` itself.
    // A frame moves its arguments into its slots, so it gets a copy.
    ArgList borrowed{const_cast<Value*>(&arg), 1};
    const FunctionObj* fn = nullptr;
    ArgPlan* plan = nullptr;
    ArgPlan scratch;
    if (method.is(ObjType::Function)) {
        fn = method.as<FunctionObj>();
        if (!function_accepts(*fn, borrowed)) return false;
    } else if (OverloadChoice* e = cached_choice(*method.as<OverloadSetObj>(), borrowed, site)) {
        if (!e->fn) return false;
        fn = static_cast<const FunctionObj*>(e->fn);
        plan = &e->plan;
    } else {
        Chosen c = choose_overload(*method.as<OverloadSetObj>(), borrowed, site, scratch);
        if (!c.fn) return false;
        fn = c.fn;
        plan = c.plan;
    }
    if (run_wrapper_fast(*this, *fn, &receiver, borrowed, loc, true, result)) return true;
    Value argv[1] = {arg};
    ArgList args{argv, 1};
    result = invoke_frame(fn, &receiver, args, plan, loc, true);
    return true;
}

Value Interpreter::call_overloads(const OverloadSetObj& set, const Value* self, ArgList& args, OverloadSite* site,
                                  SourceLoc loc) {
    if (OverloadChoice* e = cached_choice(set, args, site)) {
        if (!e->fn) no_overload_error(*this, set, args, loc);
        return invoke(static_cast<const FunctionObj*>(e->fn), self, args, &e->plan, loc, true);
    }
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
        const FunctionObj* fn = nullptr;
        ArgPlan* plan = nullptr;
        ArgPlan scratch;
        if (OverloadChoice* e = cached_choice(set, args, &c.overloads)) {
            fn = static_cast<const FunctionObj*>(e->fn);
            plan = &e->plan;
        } else {
            Chosen chosen = choose_overload(set, args, &c.overloads, scratch);
            fn = chosen.fn;
            plan = chosen.plan;
        }
        if (fn) return invoke(fn, nullptr, args, plan, c.loc, true);
        if (builtin_accepts(def, args)) return call(builtin, args, c.loc);
        no_overload_error(*this, set, args, c.loc);
    }
    if (callee.is(ObjType::Function) && !function_accepts(*callee.as<FunctionObj>(), args) &&
        builtin_accepts(def, args))
        return call(builtin, args, c.loc);
    return call(callee, args, c.loc, &c.plan, &c.overloads);
}

Value Interpreter::invoke(const FunctionObj* fn, const Value* self, ArgList& args, ArgPlan* plan, SourceLoc loc,
                          bool types_checked) {
    Value result;
    if (run_wrapper_fast(*this, *fn, self, args, loc, types_checked, result)) return result;
    return invoke_frame(fn, self, args, plan, loc, types_checked);
}

// Out of line, so that a call the fast path takes does not set up this frame first.
[[gnu::noinline]] Value Interpreter::invoke_frame(const FunctionObj* fn, const Value* self, ArgList& args,
                                                  ArgPlan* plan, SourceLoc loc, bool types_checked) {
    const FnProto& p = *fn->proto;
    const size_t nparams = p.params.size();
    const uint32_t base = p.is_method ? 1 : 0;
    CallFrame frame{nullptr, fn->upvalues.data(), &p, {}, fn->owner};
    Value result;
    {
        StackWindow window(*this, p.nslots);
        Value* slots = window.slots();
        frame.slots = slots;
        if (base) slots[0] = *self;

        // Arguments into parameter slots; remember which were given.
        const bool bound_by_target = args.has_names() || p.has_rest();
        GivenSet given_named(bound_by_target ? nparams : 0); // else by position: the first args.count
        if (!bound_by_target) {
            if (static_cast<size_t>(args.count) > nparams)
                runtime_error(loc, "`" + p.qualified_name + "` takes " + std::to_string(nparams) + " argument" +
                                       (nparams == 1 ? "" : "s") + " but " + std::to_string(args.count) +
                                       " were given" + signature_note(p));
            for (int i = 0; i < args.count; ++i) slots[base + i] = std::move(args.values[i]);
        } else {
            std::vector<int32_t> scratch;
            const std::vector<int32_t>* target = nullptr;
            try {
                target = &arg_targets(
                    &p, plan, scratch, args, nparams, [&](size_t i) -> const std::string& { return p.params[i].name; },
                    loc, [&] { return "`" + p.qualified_name + "`"; }, RestParams{p.rest_positional, p.rest_named});
            } catch (ProgramError& e) {
                e.message += signature_note(p);
                throw;
            }
            // The variadic parameters start empty: a list of the extra positional arguments,
            // a dict (name: value) of the named ones no parameter takes.
            if (p.rest_positional >= 0) {
                slots[base + static_cast<size_t>(p.rest_positional)] = make_array();
                given_named.add(static_cast<size_t>(p.rest_positional));
            }
            if (p.rest_named >= 0) {
                slots[base + static_cast<size_t>(p.rest_named)] = Value(new DictObj());
                given_named.add(static_cast<size_t>(p.rest_named));
            }
            for (int i = 0; i < args.count; ++i) {
                const int32_t t = (*target)[static_cast<size_t>(i)];
                Value& slot = slots[base + static_cast<size_t>(t)];
                if (t == p.rest_positional) {
                    slot.as<ArrayObj>()->items.push_back(std::move(args.values[i]));
                } else if (t == p.rest_named) {
                    slot.as<DictObj>()->set(make_str((*args.names)[static_cast<size_t>(i)]), std::move(args.values[i]));
                } else {
                    slot = std::move(args.values[i]);
                    given_named.add(static_cast<size_t>(t));
                }
            }
        }

        FrameScope scope(*this, &frame, loc);
        const bool check = p.checks_args && !types_checked;
        for (size_t i = 0; i < nparams; ++i) {
            const Param& prm = p.params[i];
            Value& slot = slots[base + i];
            if (prm.rest == Param::Rest::Positional) { // each element is checked as the declared type
                const std::vector<Value>& items = slot.as<ArrayObj>()->items;
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
                    runtime_error(loc, "missing argument `" + prm.name + "` in the call of `" + p.qualified_name + "`" +
                                           signature_note(p));
                slot = eval(*prm.default_value); // may use the parameters before it
            } else if (check) {
                bool looked = false;
                if (!type_accepts_inline(*prm.spec, slot, false, &looked)) argument_type_error(*this, p, i, slot, loc);
            }
            if (prm.to_float && slot.is_int()) slot = Value::number(static_cast<double>(slot.as_int()));
            if (prm.wraps_number && slot.is_number()) slot = make_array({slot}); // `dim: [i64]` given `1`
        }
        for (uint32_t s : p.captured_params) slots[s] = Value(new CellObj(std::move(slots[s])));

        try {
            exec_block(p.body);
        } catch (const ControlSignal&) {
            // `?` or a `return` inside a block used as a value: frame.ret is set.
        } catch (ProgramError& e) {
            e.trace.push_back(TraceEntry{p.qualified_name, loc});
            throw;
        }
        result = std::move(frame.ret);
    }
    return result;
}

Value Interpreter::construct(ClassObj* cls, ArgList& args, SourceLoc loc, ArgPlan* plan) {
    const size_t nfields = cls->field_names.size();
    auto* inst = InstanceObj::create(cls);
    Value self(inst);
    inst->dropped = true; // until every field is set: a refused call leaves nothing for `drop` to see
    GivenSet given(nfields);
    if (!args.has_names()) {
        if (static_cast<size_t>(args.count) > nfields)
            runtime_error(loc, cls->name + "(...) takes " + std::to_string(nfields) + " field" +
                                   (nfields == 1 ? "" : "s") + " but " + std::to_string(args.count) + " were given");
        for (int i = 0; i < args.count; ++i) inst->fields[static_cast<size_t>(i)] = std::move(args.values[i]);
        given.add_first(static_cast<size_t>(args.count));
    } else {
        std::vector<int32_t> scratch;
        const auto& target = arg_targets(
            cls, plan, scratch, args, nfields, [&](size_t i) -> const std::string& { return cls->field_names[i]; }, loc,
            [&] { return cls->name + "(...)"; });
        for (int i = 0; i < args.count; ++i) {
            size_t t = static_cast<size_t>(target[static_cast<size_t>(i)]);
            inst->fields[t] = std::move(args.values[i]);
            given.add(t);
        }
    }
    for (size_t i = 0; i < nfields; ++i) {
        const FieldDecl& f = cls->decl->fields[i];
        if (!given.has(i)) {
            if (!f.default_value) runtime_error(loc, "missing field `" + f.name + "` in " + cls->name + "(...)");
            inst->fields[i] = eval_detached(*f.default_value, cls->decl->init_slots);
        }
        if (f.to_float && inst->fields[i].is_int())
            inst->fields[i] = Value::number(static_cast<double>(inst->fields[i].as_int()));
    }
    inst->dropped = false;
    return self;
}

Value Interpreter::construct_variant(EnumObj* type, uint32_t index, ArgList& args, SourceLoc loc) {
    const VariantInfo& info = type->variants[index];
    const size_t arity = info.arity();
    std::vector<Value> payload(arity);
    std::vector<int32_t> scratch;
    const auto& target = arg_targets(
        type, nullptr, scratch, args, arity, [&](size_t i) -> const std::string& { return info.field_names[i]; }, loc,
        [&] { return type->name + "." + info.name; });
    if (static_cast<size_t>(args.count) != arity)
        runtime_error(loc, type->name + "." + info.name + " takes " + std::to_string(arity) + " value" +
                               (arity == 1 ? "" : "s") + ", " + std::to_string(args.count) + " given");
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
    for (size_t i = 0; i < d.fields.size(); ++i) {
        cls->field_names.push_back(d.fields[i].name);
        cls->field_slots[d.fields[i].name] = static_cast<int>(i);
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
