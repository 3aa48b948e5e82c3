// eval.cpp — expressions.
#include <cctype>
#include <cmath>

#include "eval/attr_hooks.h"
#include "eval/interpreter.h"
#include "eval/methods.h"
#include "eval/sspec.h"

namespace spl {

using namespace ast;

namespace {

// Whether a binary operator may read this operand where its name keeps it (Interpreter::eval).
bool readable_in_place(const Value& v) { return !v.is_obj() || v.is(ObjType::Instance) || v.is(ObjType::Str); }

// i64 arithmetic wraps around, as in the compiled backends (no UB in C++).
inline int64_t wrap_add(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrap_sub(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrap_mul(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

} // namespace

// A binary operator on its operands' values: integers and floats inline, the rest by binary().
inline Value Interpreter::binary_of(const Binary& b, const Value& l, const Value& r) {
    if (l.is_int() && r.is_int()) { // the common case, without a call
        int64_t x = l.as_int(), y = r.as_int();
        switch (b.op) {
        case BinOp::Add: return Value::integer(wrap_add(x, y));
        case BinOp::Sub: return Value::integer(wrap_sub(x, y));
        case BinOp::Mul: return Value::integer(wrap_mul(x, y));
        case BinOp::Lt: return Value::boolean(x < y);
        case BinOp::Le: return Value::boolean(x <= y);
        case BinOp::Gt: return Value::boolean(x > y);
        case BinOp::Ge: return Value::boolean(x >= y);
        case BinOp::Eq: return Value::boolean(x == y);
        case BinOp::Ne: return Value::boolean(x != y);
        default: break;
        }
    } else if (l.is_float() && r.is_float()) {
        double x = l.as_float(), y = r.as_float();
        switch (b.op) {
        case BinOp::Add: return Value::number(x + y);
        case BinOp::Sub: return Value::number(x - y);
        case BinOp::Mul: return Value::number(x * y);
        case BinOp::Div: return Value::number(x / y);
        case BinOp::Lt: return Value::boolean(x < y);
        case BinOp::Gt: return Value::boolean(x > y);
        default: break;
        }
    }
    return binary(b.op, l, r, b.loc, &b.cache->overloads);
}

Value Interpreter::eval(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Str:
    case ExprKind::Bool:
    case ExprKind::Nil:
    case ExprKind::Ellipsis: return static_cast<const Literal&>(e).value;
    case ExprKind::Name: return eval_name(static_cast<const Name&>(e));
    case ExprKind::Interp: return eval_interp(static_cast<const Interp&>(e));
    case ExprKind::Unary: {
        const auto& u = static_cast<const Unary&>(e);
        Value v = eval(*u.operand);
        switch (u.op) {
        case UnaryOp::Not: return Value::boolean(!truthy(v, u.loc));
        case UnaryOp::Pos:
            if (!v.is_number()) runtime_error(u.loc, "unary `+` needs a number, found " + type_name(v));
            return v;
        case UnaryOp::Neg:
            if (v.is_int()) return Value::integer(wrap_sub(0, v.as_int()));
            if (v.is_float()) return Value::number(-v.as_float());
            if (v.is(ObjType::Instance)) {
                const Value& m = v.as<InstanceObj>()->cls->op(Op::Neg);
                if (!m.is_nil()) return call_method(v, m, {}, u.loc, &u.cache->overloads);
            }
            runtime_error(u.loc, "unary `-` is not defined for " + type_name(v) +
                                     (v.is(ObjType::Instance) ? " (define a `neg` method)" : ""));
        }
        return Value();
    }
    case ExprKind::Binary: {
        const auto& b = static_cast<const Binary&>(e);
        if (b.op == BinOp::Coalesce) {
            Value l = eval(*b.lhs);
            if (l.is_nil()) return eval(*b.rhs);
            if (l.is(ObjType::Variant) && l.as<VariantObj>()->type == option_) return l.as<VariantObj>()->payload[0];
            return l;
        }
        // Two plain names (`a + b`) are read in place; anything else is evaluated, left first.
        // Only numbers, text and objects whose methods get a copy of their receiver and argument
        // are: comparing two arrays may run `eq` methods of their items, and one of those could
        // reassign the name while its array is being read. A fast path: `--no-fast-paths` copies.
        if (options().fast_paths)
            if (const Value* l = name_value(*b.lhs))
                if (const Value* r = name_value(*b.rhs))
                    if (readable_in_place(*l) && readable_in_place(*r)) return binary_of(b, *l, *r);
        Value l = eval(*b.lhs);
        Value r = eval(*b.rhs);
        return binary_of(b, l, r);
    }
    case ExprKind::Logical: {
        const auto& l = static_cast<const Logical&>(e);
        bool left = truthy(eval(*l.lhs), l.lhs->loc);
        if (l.is_and ? !left : left) return Value::boolean(left);
        return Value::boolean(truthy(eval(*l.rhs), l.rhs->loc));
    }
    case ExprKind::Range: {
        const auto& r = static_cast<const Range&>(e);
        Value a = eval(*r.start), b = eval(*r.end);
        if (!a.is_int() || !b.is_int())
            runtime_error(r.loc, "a range needs i64 bounds, found " + type_name(a) + " and " + type_name(b));
        return Value(new RangeObj(a.as_int(), b.as_int(), r.inclusive));
    }
    case ExprKind::Call: return eval_call(static_cast<const Call&>(e));
    case ExprKind::MethodCall: return eval_method_call(static_cast<const MethodCall&>(e));
    case ExprKind::Member: {
        const auto& m = static_cast<const Member&>(e);
        return member_value(eval(*m.object), m);
    }
    case ExprKind::Index: return eval_index(static_cast<const Index&>(e));
    case ExprKind::Slice: {
        const auto& s = static_cast<const Slice&>(e);
        Value a = s.start ? eval(*s.start) : Value();
        Value b = s.stop ? eval(*s.stop) : Value();
        Value c = s.step ? eval(*s.step) : Value();
        return Value(new SliceObj(std::move(a), std::move(b), std::move(c)));
    }
    case ExprKind::Lambda: return eval_lambda(static_cast<const Lambda&>(e));
    case ExprKind::If: return eval_if(static_cast<const IfExpr&>(e));
    case ExprKind::Match: {
        const auto& m = static_cast<const MatchExpr&>(e);
        return eval_match(*m.subject, m.arms, m.loc);
    }
    case ExprKind::Array: {
        const auto& a = static_cast<const ArrayLit&>(e);
        auto* arr = new ArrayObj();
        Value v(arr);
        arr->items.reserve(a.elems.size());
        for (const auto& x : a.elems) arr->items.push_back(eval(*x));
        return v;
    }
    case ExprKind::Tuple: {
        const auto& t = static_cast<const TupleLit&>(e);
        std::vector<Value> items;
        items.reserve(t.elems.size());
        for (const auto& x : t.elems) items.push_back(eval(*x));
        return make_tuple(std::move(items));
    }
    case ExprKind::Dict: {
        const auto& d = static_cast<const DictLit&>(e);
        auto* dict = new DictObj();
        Value v(dict);
        for (size_t i = 0; i < d.keys.size(); ++i) {
            Value k = eval(*d.keys[i]);
            dict->set(k, eval(*d.values[i]));
        }
        return v;
    }
    case ExprKind::Comprehension: return eval_comprehension(static_cast<const Comprehension&>(e));
    case ExprKind::Try: return eval_try(static_cast<const Try&>(e));
    case ExprKind::Cast: {
        const auto& c = static_cast<const Cast&>(e);
        return cast(eval(*c.operand), c.type.text, c.loc);
    }
    }
    return Value();
}

const Value* Interpreter::name_value(const ast::Expr& e) const {
    if (e.kind != ExprKind::Name) return nullptr;
    const auto& n = static_cast<const Name&>(e);
    if (n.ref == NameKind::Local && !n.captured) return &frame_->slots[n.index];
    if (n.ref == NameKind::Global) return n.global;
    return nullptr;
}

Value Interpreter::eval_name(const Name& n) {
    switch (n.ref) {
    case NameKind::Local: {
        const Value& v = frame_->slots[n.index];
        if (n.captured && v.is(ObjType::Cell)) return v.as<CellObj>()->value;
        return v;
    }
    case NameKind::Upvalue: return frame_->upvals[n.index].as<CellObj>()->value;
    case NameKind::Global: return *n.global;
    case NameKind::Builtin: return builtins_[n.index];
    case NameKind::SelfClass:
        if (frame_->owner) return Value(const_cast<Obj*>(frame_->owner));
        runtime_error(n.loc,
                      "`Self` in a trait's method means the class that has the method, and none is running here");
    case NameKind::Unresolved: break;
    }
    runtime_error(n.loc, "internal error: unresolved name `" + n.name + "`");
}

// Evaluates a call site's arguments into `buf` (sized for them). Shared by
// plain calls and method calls, whose argument lists are the same.
ArgList Interpreter::eval_args(const std::vector<ExprPtr>& exprs, const std::vector<std::string>& names,
                               ArgBuffer& buf) {
    const size_t n = exprs.size();
    Value* argv = buf.data();
    for (size_t i = 0; i < n; ++i) argv[i] = eval(*exprs[i]);
    return ArgList{argv, static_cast<int>(n), names.empty() ? nullptr : &names};
}

// A call site with `*list` or `**dict`: its arguments expanded into `values` and `names`
// (left empty when none is named). Their number and names change from call to call, so
// such a call binds without the site's cached plan.
ArgList Interpreter::eval_spread_args(const std::vector<ExprPtr>& exprs, const std::vector<std::string>& given_names,
                                      std::vector<Value>& values, std::vector<std::string>& names) {
    bool any_named = false;
    for (size_t i = 0; i < exprs.size(); ++i) {
        const std::string& name = given_names[i];
        Value v = eval(*exprs[i]);
        if (name == "*") {
            const std::vector<Value>* items = nullptr;
            if (v.is(ObjType::Array)) items = &v.as<ArrayObj>()->items;
            if (v.is(ObjType::Tuple)) items = &v.as<TupleObj>()->items;
            if (!items) runtime_error(exprs[i]->loc, "`*` spreads a list or a tuple, not a " + type_name(v));
            for (const Value& item : *items) {
                values.push_back(item);
                names.emplace_back();
            }
        } else if (name == "**") {
            if (!v.is(ObjType::Dict)) runtime_error(exprs[i]->loc, "`**` spreads a dict, not a " + type_name(v));
            for (const auto& [key, item] : v.as<DictObj>()->entries) {
                if (!key.is(ObjType::Str))
                    runtime_error(exprs[i]->loc,
                                  "`**` spreads a dict of text keys (argument names), found a key " + type_name(key));
                values.push_back(item);
                names.push_back(str_of(key));
                any_named = true;
            }
        } else {
            values.push_back(std::move(v));
            names.push_back(name);
            any_named |= !name.empty();
        }
    }
    if (!any_named) names.clear();
    return ArgList{values.data(), static_cast<int>(values.size()), any_named ? &names : nullptr};
}

Value Interpreter::eval_call(const Call& c) {
    Value callee = eval(*c.callee);
    if (c.spreads) {
        std::vector<Value> values;
        std::vector<std::string> names;
        ArgList args = eval_spread_args(c.args, c.arg_names, values, names);
        return call(callee, args, c.loc);
    }
    ArgBuffer buf(c.args.size());
    ArgList args = eval_args(c.args, c.arg_names, buf);
    if (c.builtin_fallback >= 0) return call_or_builtin(callee, args, c);
    return call(callee, args, c.loc, &c.cache->plan, &c.cache->overloads);
}

Value Interpreter::eval_method_call(const MethodCall& m) {
    Value obj = eval(*m.object);
    if (m.spreads) {
        std::vector<Value> values;
        std::vector<std::string> names;
        ArgList args = eval_spread_args(m.args, m.arg_names, values, names);
        return call_named_method(m, obj, args, nullptr, nullptr);
    }
    ArgBuffer buf(m.args.size());
    ArgList args = eval_args(m.args, m.arg_names, buf);
    return call_named_method(m, obj, args, &m.cache->plan, &m.cache->overloads);
}

// `obj.name(args)` once the receiver and arguments are values; `plan` and `site` are the call
// site's caches (null for a call with spreads, whose shape changes from call to call).
Value Interpreter::call_named_method(const MethodCall& m, Value& obj, ArgList& args, ArgPlan* plan,
                                     OverloadSite* site) {
    if (obj.is(ObjType::Instance)) {
        ClassObj* cls = obj.as<InstanceObj>()->cls;
        if (m.cache->owner == cls && m.cache->epoch == cls->epoch)
            return call_function(m.cache->method, &obj, args, plan, site, m.loc);
        auto it = cls->methods.find(m.name);
        if (it != cls->methods.end()) {
            m.cache->owner = cls;
            m.cache->epoch = cls->epoch;
            m.cache->method = it->second;
            return call_function(it->second, &obj, args, plan, site, m.loc);
        }
        int f = cls->field_index(m.name);
        if (f >= 0) {
            Value field = obj.as<InstanceObj>()->fields[static_cast<size_t>(f)];
            return call(field, args, m.loc);
        }
        if (cls->statics.count(m.name))
            runtime_error(m.loc, "`" + m.name + "` is a static method of " + cls->name + ": call it as `" + cls->name +
                                     "." + m.name + "(...)`");
        if (const Value* get = attr_getter(*cls, m.name)) {
            // A name the class lacks: what its get_attr answers, called as any callable value is.
            Value attr = call_method(obj, *get, {make_str(m.name)}, m.loc);
            return call(attr, args, m.loc);
        }
        if (m.builtin < 0) runtime_error(m.loc, cls->name + " has no method `" + m.name + "`");
    } else if (obj.is(ObjType::Class)) {
        auto* cls = obj.as<ClassObj>();
        auto it = cls->statics.find(m.name);
        if (it != cls->statics.end()) return call_function(it->second, nullptr, args, plan, site, m.loc);
        if (cls->methods.count(m.name))
            runtime_error(m.loc, "`" + m.name + "` of " + cls->name + " needs an instance (it is not `static`)");
        runtime_error(m.loc, "class " + cls->name + " has no static method `" + m.name + "`");
    } else if (obj.is(ObjType::Enum)) {
        auto* en = obj.as<EnumObj>();
        int v = en->variant_index(m.name);
        if (v >= 0) return construct_variant(en, static_cast<uint32_t>(v), args, m.loc);
        auto it = en->statics.find(m.name);
        if (it != en->statics.end()) return call_function(it->second, nullptr, args, plan, site, m.loc);
        runtime_error(m.loc, "enum " + en->name + " has no variant or static method `" + m.name + "`");
    } else if (obj.is(ObjType::Module)) {
        Member tmp(m.loc, nullptr, m.name);
        return call(member_value(obj, tmp), args, m.loc, plan, site);
    } else if (obj.is(ObjType::Variant)) {
        EnumObj* en = obj.as<VariantObj>()->type;
        auto it = en->methods.find(m.name);
        if (it != en->methods.end()) return call_function(it->second, &obj, args, plan, site, m.loc);
    } else if (obj.is(ObjType::Expectation)) {
        return call_matcher(*this, obj, m.name, args, m.loc);
    }
    if (m.builtin >= 0) return call_builtin_method(*this, obj, m.builtin, m.name, args, m.loc);
    runtime_error(m.loc, no_method_message(*this, obj, m.name));
}

Value Interpreter::member_value(const Value& obj, const Member& m) {
    if (obj.is(ObjType::Instance)) {
        auto* inst = obj.as<InstanceObj>();
        if (m.cache->owner == inst->cls) return inst->fields[static_cast<size_t>(m.cache->field)];
        int f = inst->cls->field_index(m.name);
        if (f >= 0) {
            m.cache->owner = inst->cls;
            m.cache->field = f;
            return inst->fields[static_cast<size_t>(f)];
        }
        auto it = inst->cls->methods.find(m.name);
        if (it != inst->cls->methods.end()) {
            if (inst->cls->properties.count(m.name)) return call_method(obj, it->second, {}, m.loc);
            return Value(new BoundMethodObj(obj, it->second));
        }
        // `r.0` of a sequence object (a named result) as of the tuple it stands for.
        if (!m.name.empty() && std::isdigit(static_cast<unsigned char>(m.name[0]))) {
            Value get = find_method(obj, "get_item");
            if (!get.is_nil()) return call_method(obj, get, {Value::integer(std::stoll(m.name))}, m.loc);
        }
        if (const Value* get = attr_getter(*inst->cls, m.name))
            return call_method(obj, *get, {make_str(m.name)}, m.loc);
        runtime_error(m.loc, inst->cls->name + " has no field `" + m.name + "`");
    }
    if (!obj.is_obj()) runtime_error(m.loc, type_name(obj) + " has no field `" + m.name + "`");
    switch (obj.obj()->type) {
    case ObjType::Class: {
        auto* cls = obj.as<ClassObj>();
        auto it = cls->statics.find(m.name);
        if (it != cls->statics.end()) return it->second;
        if (m.name == "__name__") return make_str(cls->name); // Python's: what a class is called
        runtime_error(m.loc, "class " + cls->name + " has no static member `" + m.name + "`");
    }
    case ObjType::Enum: {
        auto* en = obj.as<EnumObj>();
        int v = en->variant_index(m.name);
        if (v >= 0) {
            const Value& unit = en->unit_values[static_cast<size_t>(v)];
            return unit.is_nil() ? en->constructors[static_cast<size_t>(v)] : unit;
        }
        auto it = en->statics.find(m.name);
        if (it != en->statics.end()) return it->second;
        runtime_error(m.loc, "enum " + en->name + " has no variant `" + m.name + "`");
    }
    case ObjType::Module: {
        auto* mod = obj.as<ModuleObj>();
        int g = mod->find_global(m.name);
        if (g >= 0 && mod->exports_name(m.name)) return mod->globals[static_cast<size_t>(g)];
        // Python's PEP 562: a name the module does not export is what its `__getattr__(name)` answers.
        if (const Value* hook = mod->getattr_hook()) return call_with(*hook, {make_str(m.name)}, m.loc);
        runtime_error(m.loc, "module " + mod->name + " has no exported `" + m.name + "`");
    }
    case ObjType::Tuple:
    case ObjType::Variant: {
        const auto& items = obj.is(ObjType::Tuple) ? obj.as<TupleObj>()->items : obj.as<VariantObj>()->payload;
        size_t idx = items.size();
        if (!m.name.empty() && std::isdigit(static_cast<unsigned char>(m.name[0]))) {
            idx = std::stoul(m.name);
        } else if (obj.is(ObjType::Variant)) {
            auto* var = obj.as<VariantObj>();
            const auto& names = var->type->variants[var->index].field_names;
            for (size_t i = 0; i < names.size(); ++i)
                if (names[i] == m.name) idx = i;
            auto it = var->type->methods.find(m.name);
            if (idx == items.size() && it != var->type->methods.end())
                return Value(new BoundMethodObj(obj, it->second));
        }
        if (idx >= items.size()) runtime_error(m.loc, type_name(obj) + " has no field `" + m.name + "`");
        return items[idx];
    }
    case ObjType::Slice: {
        auto* s = obj.as<SliceObj>();
        if (m.name == "start") return s->start;
        if (m.name == "stop") return s->stop;
        if (m.name == "step") return s->step;
        break;
    }
    case ObjType::Range: {
        auto* r = obj.as<RangeObj>();
        if (m.name == "start") return Value::integer(r->start);
        if (m.name == "end") return Value::integer(r->end);
        if (m.name == "stop") return Value::integer(r->stop()); // Python's: the exclusive bound
        if (m.name == "step") return Value::integer(r->step);
        break;
    }
    case ObjType::Expectation:
        if (m.name == "not") {
            auto* ex = obj.as<ExpectationObj>();
            return Value(new ExpectationObj(ex->actual, !ex->negated, ex->call));
        }
        break;
    default: break;
    }
    runtime_error(m.loc, type_name(obj) + " has no field `" + m.name + "`");
}

Value Interpreter::eval_index(const Index& x) {
    Value obj = eval(*x.object);
    return index_value(obj, eval_index_key(x), x.loc, &x.cache->overloads);
}

// The key of `obj[k]`, or a tuple for `obj[i, j]`. Shared by reading,
// assigning and compound-assigning an index, which must agree on it.
Value Interpreter::eval_index_key(const Index& x) {
    if (x.indices.size() == 1) return eval(*x.indices[0]);
    std::vector<Value> keys;
    keys.reserve(x.indices.size());
    for (const auto& i : x.indices) keys.push_back(eval(*i));
    return make_tuple(std::move(keys));
}

Value Interpreter::eval_interp(const Interp& s) {
    std::string text = s.pieces[0];
    for (size_t i = 0; i < s.exprs.size(); ++i) {
        const SourceLoc loc = s.exprs[i]->loc;
        text += s.specs[i] ? format_with(eval(*s.exprs[i]), *s.specs[i], loc) : display(eval(*s.exprs[i]), loc);
        text += s.pieces[i + 1];
    }
    return make_str(std::move(text));
}

Value Interpreter::eval_lambda(const Lambda& l) {
    auto* fn = new FunctionObj(l.proto.get(), nullptr);
    Value v(fn);
    fn->upvalues.reserve(l.proto->upvalues.size());
    for (const UpvalueDesc& d : l.proto->upvalues) {
        if (!d.from_parent_local) {
            fn->upvalues.push_back(frame_->upvals[d.index]);
            continue;
        }
        Value& slot = frame_->slots[d.index];
        if (!slot.is(ObjType::Cell)) slot = Value(new CellObj(slot)); // captured before it was set
        fn->upvalues.push_back(slot);
    }
    return v;
}

Value Interpreter::eval_if(const IfExpr& e) {
    for (size_t i = 0; i < e.conds.size(); ++i)
        if (truthy(eval(*e.conds[i]), e.conds[i]->loc)) return eval_block_value(e.blocks[i]);
    if (e.else_block) return eval_block_value(*e.else_block);
    return Value();
}

Value Interpreter::eval_match(const Expr& subject, const std::vector<MatchArm>& arms, SourceLoc loc) {
    Value v = eval(subject);
    for (const MatchArm& arm : arms) {
        if (!match_pattern(*arm.pattern, v)) continue;
        if (arm.guard && !truthy(eval(*arm.guard), arm.guard->loc)) continue;
        return eval_block_value(arm.body);
    }
    runtime_error(loc, "no `case` matches " + repr(v, loc));
}

// A block whose value is wanted: the value of its last statement.
Value Interpreter::eval_block_value(const Block& b) {
    Value result;
    const size_t n = b.stmts.size();
    for (size_t i = 0; i < n; ++i) {
        const Stmt& s = *b.stmts[i];
        if (i + 1 == n) {
            result = eval_stmt_value(s);
            break;
        }
        Status st = exec(s);
        if (st != Status::Normal) {
            clear_slots(b.slot_begin, b.slot_end);
            throw ControlSignal{st};
        }
    }
    clear_slots(b.slot_begin, b.slot_end);
    return result;
}

Value Interpreter::eval_stmt_value(const Stmt& s) {
    switch (s.kind) {
    case StmtKind::Expr: return eval(*static_cast<const ExprStmt&>(s).expr);
    case StmtKind::If: {
        const auto& x = static_cast<const IfStmt&>(s);
        for (size_t i = 0; i < x.conds.size(); ++i)
            if (truthy(eval(*x.conds[i]), x.conds[i]->loc)) return eval_block_value(x.blocks[i]);
        if (x.else_block) return eval_block_value(*x.else_block);
        return Value();
    }
    case StmtKind::Match: {
        const auto& m = static_cast<const MatchStmt&>(s);
        return eval_match(*m.subject, m.arms, m.loc);
    }
    default: {
        Status st = exec(s);
        if (st != Status::Normal) throw ControlSignal{st};
        return Value();
    }
    }
}

Value Interpreter::eval_comprehension(const Comprehension& c) {
    // The common form, `[f(x) for x in xs]` (an optional `if` too) over an array or a tuple: a
    // plain loop, with no closure per clause. The same order of evaluation as the general
    // path below (which it must match element for element), and the array read live by index,
    // as for_each reads it.
    if (!c.value && (c.clauses.size() == 1 || (c.clauses.size() == 2 && c.clauses[1].cond)) && !c.clauses[0].cond) {
        const CompClause& clause = c.clauses[0];
        const Expr* cond = c.clauses.size() == 2 ? c.clauses[1].cond.get() : nullptr;
        Value source = eval(*clause.iter);
        if (source.is(ObjType::Array) || source.is(ObjType::Tuple)) {
            Value result = make_array();
            auto& out = result.as<ArrayObj>()->items;
            const auto& items = source.is(ObjType::Array) ? source.as<ArrayObj>()->items : source.as<TupleObj>()->items;
            out.reserve(items.size());
            for (size_t i = 0; i < items.size(); ++i) {
                bind(*clause.pattern, Value(items[i]));
                if (cond && !truthy(eval(*cond), cond->loc)) continue;
                out.push_back(eval(*c.elem));
            }
            clear_slots(c.slot_begin, c.slot_end);
            return result;
        }
        return comprehension_over(c, &source);
    }
    return comprehension_over(c, nullptr);
}

// The general comprehension: nested clauses, dict results, any iterable. `first`: the first
// clause's iterable when the caller evaluated it already (null: evaluate it here).
Value Interpreter::comprehension_over(const Comprehension& c, const Value* first) {
    Value result = c.value ? Value(new DictObj()) : make_array();
    std::function<void(size_t)> step = [&](size_t k) {
        if (k == c.clauses.size()) {
            if (c.value) {
                Value key = eval(*c.elem);
                result.as<DictObj>()->set(key, eval(*c.value));
            } else {
                result.as<ArrayObj>()->items.push_back(eval(*c.elem));
            }
            return;
        }
        const CompClause& clause = c.clauses[k];
        if (clause.cond) {
            if (truthy(eval(*clause.cond), clause.cond->loc)) step(k + 1);
            return;
        }
        Value iterable = k == 0 && first ? *first : eval(*clause.iter);
        for_each(iterable, clause.iter->loc, [&](Value item) {
            bind(*clause.pattern, std::move(item));
            step(k + 1);
            return true;
        });
    };
    step(0);
    clear_slots(c.slot_begin, c.slot_end);
    return result;
}

Value Interpreter::eval_try(const Try& t) {
    Value v = eval(*t.operand);
    auto leave = [&](Value result) {
        if (frame_->proto && frame_->proto->is_module)
            runtime_error(t.loc, "`?` got " + repr(result.is_nil() ? Value() : result, t.loc) +
                                     " at the top level of a module, where there is no function to return it from");
        frame_->ret = std::move(result);
        throw ControlSignal{Status::Return};
    };
    if (v.is(ObjType::Variant)) {
        auto* var = v.as<VariantObj>();
        if (var->type == result_) {
            if (var->index == 0) return var->payload[0];
            leave(v); // Err: returned as is
        }
        if (var->type == option_) return var->payload[0];
    }
    if (v.is_nil()) leave(Value());
    return v;
}

} // namespace spl
