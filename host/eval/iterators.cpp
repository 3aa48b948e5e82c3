// iterators.cpp — iter(), enumerate(), zip() and next(): Python's lazy iterators.
#include "eval/iterators.h"

namespace spl {

namespace {

IteratorObj* new_iterator(IteratorObj::Kind kind, const char* name, Value source) {
    auto* it = new IteratorObj(kind, name);
    it->source = std::move(source);
    return it;
}

// An object's `next()` hook: its value, or false when it returns nil (the end), as `for` reads it.
bool call_next_hook(Interpreter& in, const Value& obj, SourceLoc loc, Value& out) {
    Value v = in.call_method(obj, obj.as<InstanceObj>()->cls->op(Op::Next), {}, loc);
    if (v.is_nil()) return false;
    if (v.is(ObjType::Variant) && v.as<VariantObj>()->type == in.option_type()) v = v.as<VariantObj>()->payload[0];
    out = std::move(v);
    return true;
}

bool has_next_hook(const Value& v) {
    return v.is(ObjType::Instance) && !v.as<InstanceObj>()->cls->op(Op::Next).is_nil();
}

} // namespace

Value make_iterator(Interpreter& in, const Value& iterable, SourceLoc loc) {
    using K = IteratorObj::Kind;
    if (iterable.is(ObjType::Iterator)) return iterable;
    if (iterable.is(ObjType::Array) || iterable.is(ObjType::Tuple) || iterable.is(ObjType::Range))
        return Value(new_iterator(K::Sequence, "iterator", iterable));
    if (iterable.is(ObjType::Str) || iterable.is(ObjType::Dict)) {
        auto* it = new_iterator(K::Snapshot, "iterator", Value());
        in.for_each(iterable, loc, [&](Value v) {
            it->items.push_back(std::move(v));
            return true;
        });
        return Value(it);
    }
    if (iterable.is(ObjType::Instance)) {
        ClassObj* cls = iterable.as<InstanceObj>()->cls;
        if (!cls->op(Op::Iter).is_nil()) {
            // `iter()` is called once, here, as `for` calls it once when the loop starts.
            Value inner = in.call_method(iterable, cls->op(Op::Iter), {}, loc);
            if (inner.is(ObjType::Instance) && inner.obj() == iterable.obj()) {
                if (!has_next_hook(inner))
                    runtime_error(loc, cls->name + ".iter() returned the object itself, which has no `next()`");
                return Value(new_iterator(K::Hook, "iterator", inner));
            }
            return make_iterator(in, inner, loc);
        }
        if (has_next_hook(iterable)) return Value(new_iterator(K::Hook, "iterator", iterable));
        runtime_error(loc, "cannot iterate over " + cls->name + " (define `iter()` or `next()`)");
    }
    runtime_error(loc, "cannot iterate over " + in.type_name(iterable));
}

bool iterator_next(Interpreter& in, IteratorObj& it, SourceLoc loc, Value& out) {
    using K = IteratorObj::Kind;
    if (it.done) return false;
    bool got = false;
    switch (it.kind) {
    case K::Sequence: {
        const Value& s = it.source;
        size_t n = s.is(ObjType::Array)   ? s.as<ArrayObj>()->items.size()
                   : s.is(ObjType::Tuple) ? s.as<TupleObj>()->items.size()
                                          : static_cast<size_t>(s.as<RangeObj>()->size());
        if (it.pos < n) {
            out = s.is(ObjType::Array)   ? s.as<ArrayObj>()->items[it.pos]
                  : s.is(ObjType::Tuple) ? s.as<TupleObj>()->items[it.pos]
                                         : Value::integer(s.as<RangeObj>()->at(static_cast<int64_t>(it.pos)));
            ++it.pos;
            got = true;
        }
        break;
    }
    case K::Snapshot:
        if (it.pos < it.items.size()) {
            out = it.items[it.pos++];
            got = true;
        }
        break;
    case K::Hook: got = call_next_hook(in, it.source, loc, out); break;
    case K::Enumerate: {
        Value v;
        if (iterator_next(in, *it.source.as<IteratorObj>(), loc, v)) {
            out = make_tuple({Value::integer(it.count++), std::move(v)});
            got = true;
        }
        break;
    }
    case K::Zip: {
        std::vector<Value> row;
        row.reserve(it.items.size());
        got = !it.items.empty();
        for (Value& inner : it.items) {
            Value v;
            if (!iterator_next(in, *inner.as<IteratorObj>(), loc, v)) {
                got = false; // the shortest ends it; the earlier ones have drawn one more, as Python's do
                break;
            }
            row.push_back(std::move(v));
        }
        if (got) out = make_tuple(std::move(row));
        break;
    }
    }
    if (!got) it.done = true;
    return got;
}

Value b_iter(Interpreter& in, ArgList& args, SourceLoc loc) { return make_iterator(in, args[0], loc); }

// next(it) / next(it, default): an iterator's next item; at the end the default, else an error
// (Python raises StopIteration). An object with a `next()` hook is asked directly, as Python's
// next() calls __next__.
Value b_next(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (args.has_names())
        for (const std::string& n : *args.names)
            if (!n.empty()) runtime_error(loc, "next() takes no named arguments, found `" + n + ":`");
    Value out;
    bool got;
    if (args[0].is(ObjType::Iterator))
        got = iterator_next(in, *args[0].as<IteratorObj>(), loc, out);
    else if (has_next_hook(args[0]))
        got = call_next_hook(in, args[0], loc, out);
    else
        runtime_error(loc, "next() needs an iterator, found " + in.type_name(args[0]) +
                               " (write `next(iter(x))` to take the first item)");
    if (got) return out;
    if (args.count > 1) return args[1];
    runtime_error(loc, "StopIteration: next() of an exhausted iterator (give a default: `next(it, nil)`)");
}

// enumerate(x, start = 0): (index, item) tuples, drawn as the loop asks.
Value b_enumerate(Interpreter& in, ArgList& args, SourceLoc loc) {
    Value start = Value::integer(0);
    for (int i = 1; i < args.count; ++i) {
        const std::string name = args.has_names() ? (*args.names)[static_cast<size_t>(i)] : "";
        if (!name.empty() && name != "start")
            runtime_error(loc, "enumerate() has no parameter `" + name + "` (it takes `start`)");
        start = args[i];
    }
    if (args.has_names() && !(*args.names)[0].empty())
        runtime_error(loc, "enumerate() takes the iterable first, found `" + (*args.names)[0] + ":`");
    if (!start.is_int()) runtime_error(loc, "enumerate() start must be an i64, found " + in.type_name(start));
    auto* it = new_iterator(IteratorObj::Kind::Enumerate, "enumerate", make_iterator(in, args[0], loc));
    it->count = start.as_int();
    return Value(it);
}

// zip(a, b, ...): tuples of the i-th items, until the shortest ends.
Value b_zip(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (args.has_names())
        for (const std::string& n : *args.names)
            if (!n.empty()) runtime_error(loc, "zip() takes no named arguments, found `" + n + ":`");
    auto* it = new_iterator(IteratorObj::Kind::Zip, "zip", Value());
    Value keep(it);
    for (int i = 0; i < args.count; ++i) it->items.push_back(make_iterator(in, args[i], loc));
    return keep;
}

} // namespace spl
