// exec.cpp — statements, bindings and patterns.
#include "eval/attr_hooks.h"
#include "eval/interpreter.h"
#include "eval/iterators.h"
#include "eval/shape_checks.h"

namespace spl {

using namespace ast;

void Interpreter::clear_slots(uint32_t begin, uint32_t end) {
    for (uint32_t i = end; i-- > begin;) frame_->slots[i].reset();
}

Status Interpreter::exec_block(const Block& b) {
    Status st = Status::Normal;
    for (const auto& s : b.stmts) {
        st = exec(*s);
        if (st != Status::Normal) break;
    }
    clear_slots(b.slot_begin, b.slot_end);
    return st;
}

Status Interpreter::exec(const Stmt& s) {
    frame_->stmt = &s;
    switch (s.kind) {
    case StmtKind::Expr: {
        const auto& es = static_cast<const ExprStmt&>(s);
        if (es.tail) {
            frame_->ret = eval(*es.expr);
            return Status::Return;
        }
        eval(*es.expr); // the value (a temporary) dies here
        return Status::Normal;
    }
    case StmtKind::Let: {
        const auto& let = static_cast<const Let&>(s);
        Value v = let.init ? eval(*let.init) : Value();
        if (let.to_float && v.is_int()) v = Value::number(static_cast<double>(v.as_int()));
        if (let.type.tree && let.type.tree->shape) [[unlikely]]
            check_local_shape(*this, *let.type.tree->shape, v,
                              let.target->kind == PatKind::Bind ? let.target->name : std::string(), s.loc,
                              frame_ ? frame_->shape_symbols : nullptr);
        bind_statement_target(*let.target, std::move(v));
        return Status::Normal;
    }
    case StmtKind::Assign: return exec_assign(static_cast<const Assign&>(s));
    case StmtKind::If: return exec_if(static_cast<const IfStmt&>(s));
    case StmtKind::While: return exec_while(static_cast<const While&>(s));
    case StmtKind::For: return exec_for(static_cast<const For&>(s));
    case StmtKind::Match: return exec_match(static_cast<const MatchStmt&>(s));
    case StmtKind::With: return exec_with(static_cast<const With&>(s));
    case StmtKind::Break: return Status::Break;
    case StmtKind::Continue: return Status::Continue;
    case StmtKind::Return: {
        const auto& r = static_cast<const Return&>(s);
        frame_->ret = r.value ? eval(*r.value) : Value();
        return Status::Return;
    }
    case StmtKind::Fn: {
        const auto& d = static_cast<const FnDecl&>(s);
        if (!d.global) exec_nested_fn(d); // top-level functions were created up front
        return Status::Normal;
    }
    default: return Status::Normal; // declarations were handled when the module started
    }
}

void Interpreter::exec_nested_fn(const FnDecl& d) {
    Value& slot = frame_->slots[d.slot];
    if (d.captured) slot = Value(new CellObj(Value())); // it may call itself through the cell
    auto* fn = new FunctionObj(d.proto.get(), nullptr);
    Value v(fn);
    for (const UpvalueDesc& u : d.proto->upvalues) {
        if (!u.from_parent_local) {
            fn->upvalues.push_back(frame_->upvals[u.index]);
            continue;
        }
        Value& captured = frame_->slots[u.index];
        if (!captured.is(ObjType::Cell)) captured = Value(new CellObj(captured));
        fn->upvalues.push_back(captured);
    }
    if (d.captured)
        slot.as<CellObj>()->value = std::move(v);
    else
        slot = std::move(v);
}

Status Interpreter::exec_if(const IfStmt& s) {
    for (size_t i = 0; i < s.conds.size(); ++i)
        if (truthy(eval(*s.conds[i]), s.conds[i]->loc)) return exec_block(s.blocks[i]);
    if (s.else_block) return exec_block(*s.else_block);
    return Status::Normal;
}

// One pass of a loop body: a `break` / `continue` thrown as a ControlSignal
// becomes its status here (a `return` goes on up). Shared by `while` and `for`.
Status Interpreter::exec_loop_body(const Block& body) {
    try {
        return exec_block(body);
    } catch (const ControlSignal& sig) {
        if (sig.status == Status::Return) throw;
        return sig.status;
    }
}

Status Interpreter::exec_while(const While& s) {
    while (truthy(eval(*s.cond), s.cond->loc)) {
        Status st = exec_loop_body(s.body);
        if (st == Status::Break) break;
        if (st == Status::Return) return st;
    }
    return Status::Normal;
}

Status Interpreter::exec_for(const For& s) {
    Value iterable = eval(*s.iter);
    Status result = Status::Normal;
    auto run_body = [&](Value item) {
        bind_statement_target(*s.target, std::move(item));
        Status st = exec_loop_body(s.body);
        if (st == Status::Break) return false;
        if (st == Status::Return) {
            result = st;
            return false;
        }
        return true;
    };
    if (iterable.is(ObjType::Range)) { // no allocation per step
        auto* r = iterable.as<RangeObj>();
        for (int64_t k = 0, n = r->size(); k < n; ++k)
            if (!run_body(Value::integer(r->at(k)))) break;
        return result;
    }
    for_each(iterable, s.iter->loc, run_body);
    return result;
}

// The real Simple's protocol (its interpreter's `exec_with`): `__enter__()` when the resource
// has one, its result bound to the alias (the resource itself when it has none), the block,
// then `__exit__()` however the block ends: normally, by `return`/`break`/`continue`, by `?`, or
// by an error. A resource with neither method is refused (the real Simple runs the block
// anyway; here that silent no-op is an error, as in Python). An error raised by `__exit__`
// stands when the block ended normally; when the block itself failed, its error stands and
// says that `__exit__` failed too.
Status Interpreter::exec_with(const With& s) {
    Value resource = eval(*s.resource);
    Value enter = find_method(resource, "__enter__");
    Value exit = find_method(resource, "__exit__");
    if (enter.is_nil() && exit.is_nil())
        runtime_error(s.resource->loc, "a " + type_name(resource) +
                                           " cannot be used in `with`: it has no `__enter__` or `__exit__` method");
    Value entered = enter.is_nil() ? resource : call_method(resource, enter, {}, s.loc);
    Status st = Status::Normal;
    try {
        if (s.alias) bind_statement_target(*s.alias, std::move(entered));
        st = exec_block(s.body);
    } catch (ProgramError& e) {
        if (!exit.is_nil()) {
            try {
                call_method(resource, exit, {}, s.loc);
            } catch (const ProgramError& exit_error) {
                e.message += " (and `__exit__` failed too: " + exit_error.message + ")";
            }
        }
        throw;
    } catch (...) { // `?` leaving the function (a ControlSignal), or the host stopping
        if (!exit.is_nil()) call_method(resource, exit, {}, s.loc);
        throw;
    }
    if (!exit.is_nil()) call_method(resource, exit, {}, s.loc);
    return st;
}

Status Interpreter::exec_match(const MatchStmt& s) {
    Value v = eval(*s.subject);
    for (const MatchArm& arm : s.arms) {
        if (!match_pattern(*arm.pattern, v)) continue;
        if (arm.guard && !truthy(eval(*arm.guard), arm.guard->loc)) continue;
        return exec_block(arm.body);
    }
    runtime_error(s.loc, "no `case` matches " + repr(v, s.loc));
}

void Interpreter::for_each(const Value& iterable, SourceLoc loc, const std::function<bool(Value)>& body) {
    if (!iterable.is_obj()) runtime_error(loc, "cannot iterate over " + type_name(iterable));
    Value keep = iterable; // the body may drop the last other reference
    switch (iterable.obj()->type) {
    case ObjType::Range: {
        auto* r = iterable.as<RangeObj>();
        for (int64_t k = 0, n = r->size(); k < n; ++k)
            if (!body(Value::integer(r->at(k)))) return;
        return;
    }
    case ObjType::Array: {
        auto* a = iterable.as<ArrayObj>();
        for (size_t i = 0; i < a->items.size(); ++i)
            if (!body(a->items[i])) return;
        return;
    }
    case ObjType::Tuple:
        for (const Value& v : iterable.as<TupleObj>()->items)
            if (!body(v)) return;
        return;
    case ObjType::Str: {
        const std::string& s = str_of(iterable);
        for (size_t i = 0; i < s.size();) {
            size_t n = 1;
            unsigned char c = static_cast<unsigned char>(s[i]);
            if (c >= 0xF0)
                n = 4;
            else if (c >= 0xE0)
                n = 3;
            else if (c >= 0xC0)
                n = 2;
            if (!body(make_str(s.substr(i, n)))) return;
            i += n;
        }
        return;
    }
    case ObjType::Dict: {
        std::vector<Value> keys;
        for (const auto& [k, v] : iterable.as<DictObj>()->entries) keys.push_back(k);
        for (Value& k : keys)
            if (!body(std::move(k))) return;
        return;
    }
    case ObjType::Instance: {
        ClassObj* cls = iterable.as<InstanceObj>()->cls;
        if (!cls->op(Op::Iter).is_nil()) {
            Value inner = call_method(iterable, cls->op(Op::Iter), {}, loc);
            for_each(inner, loc, body);
            return;
        }
        if (!cls->op(Op::Next).is_nil()) {
            while (true) {
                Value v = call_method(iterable, cls->op(Op::Next), {}, loc);
                if (v.is_nil()) return;
                if (v.is(ObjType::Variant) && v.as<VariantObj>()->type == option_) v = v.as<VariantObj>()->payload[0];
                if (!body(std::move(v))) return;
            }
        }
        runtime_error(loc, "cannot iterate over " + cls->name + " (define `iter()` or `next()`)");
    }
    case ObjType::Iterator: {
        auto* it = iterable.as<IteratorObj>();
        Value v;
        while (iterator_next(*this, *it, loc, v))
            if (!body(std::move(v))) return;
        return;
    }
    default: runtime_error(loc, "cannot iterate over " + type_name(iterable));
    }
}

// ---------------------------------------------------------------- assignment

Status Interpreter::exec_assign(const Assign& a) {
    static const BinOp ops[] = {BinOp::Add, BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod};
    if (a.op == AssignOp::Set) {
        assign_to(*a.target, eval(*a.value));
        return Status::Normal;
    }
    BinOp op = ops[static_cast<size_t>(a.op)];
    const Expr& t = *a.target;
    switch (t.kind) {
    case ExprKind::Name: {
        Value cur = eval_name(static_cast<const Name&>(t));
        Value rhs = eval(*a.value);
        Value next = binary(op, cur, rhs, a.loc);
        cur.reset(); // `x += y` on an object: the old value dies when replaced
        assign_to(t, std::move(next));
        break;
    }
    case ExprKind::Member: {
        const auto& m = static_cast<const Member&>(t);
        Value obj = eval(*m.object);
        Value rhs;
        Value next;
        {
            Value cur = member_value(obj, m);
            rhs = eval(*a.value);
            next = binary(op, cur, rhs, a.loc);
        }
        if (!obj.is(ObjType::Instance)) runtime_error(m.loc, "cannot assign to a field of " + type_name(obj));
        store_field(obj, m, std::move(next));
        break;
    }
    case ExprKind::Index: {
        const auto& x = static_cast<const Index&>(t);
        Value obj = eval(*x.object);
        Value key = eval_index_key(x);
        Value next;
        {
            Value cur = index_value(obj, key, x.loc);
            Value rhs = eval(*a.value);
            next = binary(op, cur, rhs, a.loc);
        }
        set_index(obj, key, std::move(next), x.loc);
        break;
    }
    default: break;
    }
    return Status::Normal;
}

void Interpreter::assign_to(const Expr& target, Value v) {
    switch (target.kind) {
    case ExprKind::Name: {
        const auto& n = static_cast<const Name&>(target);
        switch (n.ref) {
        case NameKind::Local: {
            Value& slot = frame_->slots[n.index];
            if (n.captured && slot.is(ObjType::Cell))
                slot.as<CellObj>()->value = std::move(v);
            else
                slot = std::move(v);
            return;
        }
        case NameKind::Upvalue: frame_->upvals[n.index].as<CellObj>()->value = std::move(v); return;
        case NameKind::Global: *n.global = std::move(v); return;
        default: runtime_error(n.loc, "cannot assign to `" + n.name + "`");
        }
    }
    case ExprKind::Member: {
        const auto& m = static_cast<const Member&>(target);
        Value obj = eval(*m.object);
        if (!obj.is(ObjType::Instance)) runtime_error(m.loc, "cannot assign to a field of " + type_name(obj));
        store_field(obj, m, std::move(v));
        return;
    }
    case ExprKind::Index: {
        const auto& x = static_cast<const Index&>(target);
        Value obj = eval(*x.object);
        Value key = eval_index_key(x);
        set_index(obj, key, std::move(v), x.loc);
        return;
    }
    default: runtime_error(target.loc, "cannot assign to this expression");
    }
}

// `obj.name = v` on an instance: the field, or else the class's `@name.setter` method, or else
// its set_attr (attr_hooks.h). Shared by `=` and `+=`, which must agree.
void Interpreter::store_field(const Value& obj, const Member& m, Value v) {
    auto* inst = obj.as<InstanceObj>();
    if (m.cache->owner != inst->cls) {
        int f = inst->cls->field_index(m.name);
        if (f < 0) {
            auto setter = inst->cls->setters.find(m.name);
            if (setter != inst->cls->setters.end()) {
                call_method(obj, setter->second, {std::move(v)}, m.loc);
                return;
            }
            if (inst->cls->properties.count(m.name))
                runtime_error(m.loc, "`" + m.name + "` is a read-only property of " + inst->cls->name);
            if (const Value* set = attr_setter(*inst->cls, m.name)) {
                call_method(obj, *set, {make_str(m.name), std::move(v)}, m.loc);
                return;
            }
            runtime_error(m.loc, inst->cls->name + " has no field `" + m.name + "`");
        }
        m.cache->owner = inst->cls;
        m.cache->field = f;
    }
    inst->fields[static_cast<size_t>(m.cache->field)] = std::move(v);
}

void Interpreter::set_index(const Value& obj, const Value& key, Value v, SourceLoc loc) {
    if (obj.is(ObjType::Array)) {
        auto* arr = obj.as<ArrayObj>();
        if (!key.is_int()) runtime_error(loc, "an array index must be i64, found " + type_name(key));
        int64_t i = key.as_int(), n = static_cast<int64_t>(arr->items.size());
        if (i < 0) i += n;
        if (i < 0 || i >= n)
            runtime_error(loc, "index " + std::to_string(key.as_int()) + " out of range for an array of length " +
                                   std::to_string(n));
        arr->items[static_cast<size_t>(i)] = std::move(v);
        return;
    }
    if (obj.is(ObjType::Dict)) {
        obj.as<DictObj>()->set(key, std::move(v));
        return;
    }
    if (obj.is(ObjType::Instance)) {
        const Value& m = obj.as<InstanceObj>()->cls->op(Op::SetItem);
        if (!m.is_nil()) {
            call_method(obj, m, {key, std::move(v)}, loc);
            return;
        }
        runtime_error(loc, obj.as<InstanceObj>()->cls->name + " does not support `a[i] = v` (define `set_item`)");
    }
    runtime_error(loc, "cannot assign to an element of " + type_name(obj));
}

// ---------------------------------------------------------------- patterns

void Interpreter::store_binding(const Pattern& p, Value v) {
    if (p.global) {
        *p.global = std::move(v);
        return;
    }
    Value& slot = frame_->slots[p.slot];
    if (p.captured)
        slot = Value(new CellObj(std::move(v))); // a fresh cell per binding
    else
        slot = std::move(v);
}

void Interpreter::bind(const Pattern& p, Value v) {
    switch (p.kind) {
    case PatKind::Bind: store_binding(p, std::move(v)); return;
    case PatKind::Wildcard: return;
    case PatKind::Tuple:
    case PatKind::Array: {
        const std::vector<Value>* items = nullptr;
        if (v.is(ObjType::Tuple))
            items = &v.as<TupleObj>()->items;
        else if (v.is(ObjType::Array))
            items = &v.as<ArrayObj>()->items;
        else if (v.is(ObjType::Instance))
            return bind_sequence(p, v);
        if (!items)
            runtime_error(p.loc,
                          "cannot destructure " + type_name(v) + " into " + std::to_string(p.subs.size()) + " names");
        if (items->size() != p.subs.size())
            runtime_error(p.loc, "cannot destructure " + std::to_string(items->size()) + " values into " +
                                     std::to_string(p.subs.size()) + " names");
        for (size_t i = 0; i < p.subs.size(); ++i) bind(*p.subs[i], (*items)[i]);
        return;
    }
    default:
        if (!match_pattern(p, v)) runtime_error(p.loc, "the pattern does not match " + repr(v, p.loc));
    }
}

// An object that is a sequence (its class has `len` and `get_item`, as a named result or a
// Tensor has) destructures item by item, as Python unpacks any sequence.
void Interpreter::bind_sequence(const Pattern& p, const Value& v) {
    Value len = find_method(v, "len");
    Value get = find_method(v, "get_item");
    if (len.is_nil() || get.is_nil())
        runtime_error(p.loc, "cannot destructure " + type_name(v) + " into " + std::to_string(p.subs.size()) +
                                 " names (it has no `len` and `get_item`)");
    Value n = call_method(v, len, {}, p.loc);
    if (!n.is_int() || n.as_int() != static_cast<int64_t>(p.subs.size()))
        runtime_error(p.loc, "cannot destructure " + repr(n, p.loc) + " values into " + std::to_string(p.subs.size()) +
                                 " names");
    for (size_t i = 0; i < p.subs.size(); ++i)
        bind(*p.subs[i], call_method(v, get, {Value::integer(static_cast<int64_t>(i))}, p.loc));
}

bool Interpreter::match_pattern(const Pattern& p, const Value& v) {
    switch (p.kind) {
    case PatKind::Wildcard: return true;
    case PatKind::Bind: store_binding(p, v); return true;
    case PatKind::Literal:
        if (p.literal.is_nil()) return v.is_nil();
        if (v.is(ObjType::Instance)) return false;
        return equal(p.literal, v, p.loc);
    case PatKind::Or:
        for (const auto& alt : p.subs)
            if (match_pattern(*alt, v)) return true;
        return false;
    case PatKind::Tuple:
    case PatKind::Array: {
        const std::vector<Value>* items = nullptr;
        if (v.is(ObjType::Tuple))
            items = &v.as<TupleObj>()->items;
        else if (v.is(ObjType::Array))
            items = &v.as<ArrayObj>()->items;
        if (!items || items->size() != p.subs.size()) return false;
        for (size_t i = 0; i < p.subs.size(); ++i)
            if (!match_pattern(*p.subs[i], (*items)[i])) return false;
        return true;
    }
    case PatKind::Variant: {
        if (v.is(ObjType::Instance) && p.qualifier.empty() && v.as<InstanceObj>()->cls->name == p.variant) {
            // `case Point(x, y)`: the fields, in declaration order.
            auto* inst = v.as<InstanceObj>();
            if (!p.has_args) return true;
            if (p.subs.size() != inst->fields.size())
                runtime_error(p.loc, inst->cls->name + " has " + std::to_string(inst->fields.size()) +
                                         " fields, the pattern names " + std::to_string(p.subs.size()));
            for (size_t i = 0; i < p.subs.size(); ++i)
                if (!match_pattern(*p.subs[i], inst->fields[i])) return false;
            return true;
        }
        if (!v.is(ObjType::Variant)) {
            // A plain non-nil value is a present optional: `case Some(x)` matches it.
            if (p.variant == "Some" && p.qualifier.empty() && !v.is_nil() && p.subs.size() == 1)
                return match_pattern(*p.subs[0], v);
            return false;
        }
        auto* var = v.as<VariantObj>();
        if (var->name() != p.variant) return false;
        if (!p.qualifier.empty()) {
            const std::string& q = p.qualifier;
            size_t dot = q.rfind('.');
            std::string last = dot == std::string::npos ? q : q.substr(dot + 1);
            if (last != var->type->name) return false;
        }
        if (!p.has_args) return true;
        if (p.subs.size() != var->payload.size())
            runtime_error(p.loc, "variant " + var->name() + " has " + std::to_string(var->payload.size()) +
                                     " payload values, the pattern names " + std::to_string(p.subs.size()));
        for (size_t i = 0; i < p.subs.size(); ++i)
            if (!match_pattern(*p.subs[i], var->payload[i])) return false;
        return true;
    }
    }
    return false;
}

} // namespace spl
