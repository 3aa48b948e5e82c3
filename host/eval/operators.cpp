// operators.cpp — arithmetic, comparisons, operator methods, casts, indexing.
//
// Operator methods: for `a OP b` the interpreter calls `a.<op>(b)` when `a`
// is an object whose class defines it and the method accepts `b` (an
// overload matches, or its declared types do); otherwise `b.r<op>(a)` when
// `b` is an object that defines the reflected method (radd, rsub, rmul, rdiv,
// rmod, rpow, rmatmul) and it accepts `a`. Comparisons reflect by mirroring:
// `1 < t` is `t.gt(1)`, `1 == t` is `t.eq(1)`. Each method may also be written
// with Python's name (`__add__`, `__radd__`, `__truediv__`, ...: op_dunder_name),
// which wins over the plain one: the class's operator table (ClassObj::ops) holds
// whichever applies, so a site pays nothing for the choice.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

#include "eval/interpreter.h"
#include "eval/ranges.h"
#include "base/scalar_types.h"
#include "eval/stack_limit.h"

namespace spl {

using ast::BinOp;

namespace {

// The methods that would serve an operator, for its error: "`add` or `radd`, or Python's
// `__add__` or `__radd__`" (one pair when the operator does not reflect, `==` for instance).
std::string op_methods_hint(Op forward, Op reflected) {
    if (forward == Op::Count) return "an operator method";
    const bool reflects = reflected != Op::Count && reflected != forward;
    std::string plain = std::string("`") + op_method_name(forward) + "`";
    std::string python = std::string("`") + op_dunder_name(forward) + "`";
    if (reflects) {
        plain += std::string(" or `") + op_method_name(reflected) + "`";
        python += std::string(" or `") + op_dunder_name(reflected) + "`";
    }
    return plain + ", or Python's " + python;
}

Op forward_op(BinOp op) {
    switch (op) {
    case BinOp::Add: return Op::Add;
    case BinOp::Sub: return Op::Sub;
    case BinOp::Mul: return Op::Mul;
    case BinOp::Div: return Op::Div;
    case BinOp::Mod: return Op::Mod;
    case BinOp::Pow: return Op::Pow;
    case BinOp::MatMul: return Op::MatMul;
    case BinOp::Eq: return Op::Eq;
    case BinOp::Ne: return Op::Ne;
    case BinOp::Lt: return Op::Lt;
    case BinOp::Le: return Op::Le;
    case BinOp::Gt: return Op::Gt;
    case BinOp::Ge: return Op::Ge;
    default: return Op::Count;
    }
}

// The method `b` must define to handle `a OP b` when `a` cannot.
Op reflected_op(BinOp op) {
    switch (op) {
    case BinOp::Add: return Op::RAdd;
    case BinOp::Sub: return Op::RSub;
    case BinOp::Mul: return Op::RMul;
    case BinOp::Div: return Op::RDiv;
    case BinOp::Mod: return Op::RMod;
    case BinOp::Pow: return Op::RPow;
    case BinOp::MatMul: return Op::RMatMul;
    case BinOp::Eq: return Op::Eq;
    case BinOp::Ne: return Op::Ne;
    case BinOp::Lt: return Op::Gt;
    case BinOp::Le: return Op::Ge;
    case BinOp::Gt: return Op::Lt;
    case BinOp::Ge: return Op::Le;
    default: return Op::Count;
    }
}

const Value* class_op(const Value& v, Op op) {
    if (op == Op::Count || !v.is(ObjType::Instance)) return nullptr;
    const Value& m = v.as<InstanceObj>()->cls->op(op);
    return m.is_nil() ? nullptr : &m;
}

int64_t int_pow(int64_t base, int64_t exp) {
    uint64_t result = 1, b = static_cast<uint64_t>(base);
    while (exp > 0) {
        if (exp & 1) result *= b;
        b *= b;
        exp >>= 1;
    }
    return static_cast<int64_t>(result);
}

// Class instances are keys by identity, as Python's objects without __hash__
// (lib.torch.nn keeps per-module hooks in a dict keyed by the module).
bool is_hashable(const Value& v) {
    if (!v.is_obj()) return true;
    if (v.is(ObjType::Str) || v.is(ObjType::Instance)) return true;
    if (v.is(ObjType::Tuple)) {
        for (const Value& x : v.as<TupleObj>()->items)
            if (!is_hashable(x)) return false;
        return true;
    }
    return false;
}

// Code-point offsets of a UTF-8 text (size = code points + 1).
std::vector<size_t> utf8_offsets(const std::string& s) {
    std::vector<size_t> offs;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) offs.push_back(i);
    offs.push_back(s.size());
    return offs;
}

// Two numbers of which one is NaN: no ordering holds between them.
bool unordered_numbers(const Value& a, const Value& b) {
    return a.is_number() && b.is_number() && (std::isnan(a.to_double()) || std::isnan(b.to_double()));
}

} // namespace

bool Interpreter::truthy(const Value& v, SourceLoc loc) {
    if (v.is_bool()) return v.as_bool();
    if (v.is_nil()) return false;
    runtime_error(loc, "a condition must be a bool, found " + type_name(v) + " (compare it explicitly)");
}

Value Interpreter::binary(BinOp op, const Value& a, const Value& b, SourceLoc loc, OverloadSite* site) {
    // Objects first: their operator methods decide. A method that does not
    // accept the other operand (no overload matches, or a declared type
    // refuses it) passes to the next candidate; when none accepts, the left
    // operand's refusal is reported.
    if (a.is_obj() || b.is_obj()) {
        const Value* refused = nullptr; // the method of `a` that did not accept b
        Value r;
        const Value* forward = class_op(a, forward_op(op));
        if (forward) {
            if (try_call_method(a, *forward, b, loc, site, r)) return r;
            refused = forward;
        } else if (op == BinOp::Ne) {
            if (const Value* m = class_op(a, Op::Eq)) {
                if (try_call_method(a, *m, b, loc, site, r)) {
                    if (r.is_bool()) return Value::boolean(!r.as_bool());
                    runtime_error(loc,
                                  "`!=` needs a `ne` method: `eq` of " + type_name(a) + " returned " + type_name(r));
                }
                refused = m;
            }
        }
        if (const Value* m = class_op(b, reflected_op(op)))
            if (try_call_method(b, *m, a, loc, site, r)) return r;
        if (op == BinOp::Ne && !class_op(b, Op::Ne)) {
            if (const Value* m = class_op(b, Op::Eq))
                if (try_call_method(b, *m, a, loc, site, r) && r.is_bool()) return Value::boolean(!r.as_bool());
        }
        // `==` and `!=` that no `eq`/`ne` accepts compare as built-in values
        // (class instances by identity), as Python does after NotImplemented.
        if (refused && op != BinOp::Eq && op != BinOp::Ne)
            return call_method(a, *refused, {b}, loc, site); // raises: no overload / argument type
    }
    // Where a truncated i64 division's result may meet a float, the watch is told (an ordering or
    // mixed arithmetic: not `==`/`!=`, which nil checks take, so that they cost nothing more).
    const auto division_consumed = [&] {
        if (__builtin_expect(divisions_.awaits(site), false)) divisions_.consume(a, b);
    };
    switch (op) {
    case BinOp::Eq: return Value::boolean(equal(a, b, loc));
    case BinOp::Ne: return Value::boolean(!equal(a, b, loc));
    case BinOp::Lt: division_consumed(); return Value::boolean(compare(a, b, loc) < 0);
    // compare() ranks NaN level with everything; IEEE (and Python) make every ordering with NaN false.
    case BinOp::Le: division_consumed(); return Value::boolean(!unordered_numbers(a, b) && compare(a, b, loc) <= 0);
    case BinOp::Gt: division_consumed(); return Value::boolean(compare(a, b, loc) > 0);
    case BinOp::Ge: division_consumed(); return Value::boolean(!unordered_numbers(a, b) && compare(a, b, loc) >= 0);
    case BinOp::In:
    case BinOp::NotIn: {
        bool found = false;
        if (b.is(ObjType::Str)) {
            if (!a.is(ObjType::Str)) runtime_error(loc, "`in` on text needs a text on the left, found " + type_name(a));
            found = str_of(b).find(str_of(a)) != std::string::npos;
        } else if (b.is(ObjType::Array) || b.is(ObjType::Tuple)) {
            const auto& items = b.is(ObjType::Array) ? b.as<ArrayObj>()->items : b.as<TupleObj>()->items;
            for (const Value& x : items)
                if (equal(a, x, loc)) {
                    found = true;
                    break;
                }
        } else if (b.is(ObjType::Dict)) {
            found = is_hashable(a) && b.as<DictObj>()->find(a) != nullptr;
        } else if (b.is(ObjType::Instance) && !find_method(b, "contains").is_nil()) {
            Value r = call_method(b, find_method(b, "contains"), {a}, loc);
            found = truthy(r, loc);
        } else if (b.is(ObjType::Range)) {
            found = a.is_int() && b.as<RangeObj>()->contains(a.as_int());
        } else {
            runtime_error(loc, "`in` is not defined for " + type_name(b));
        }
        return Value::boolean(op == BinOp::In ? found : !found);
    }
    default: break;
    }

    if (a.is_int() && b.is_int()) {
        int64_t x = a.as_int(), y = b.as_int();
        switch (op) {
        case BinOp::Add:
            return Value::integer(static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)));
        case BinOp::Sub:
            return Value::integer(static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)));
        case BinOp::Mul:
            return Value::integer(static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)));
        case BinOp::Div:
            if (y == 0) runtime_error(loc, "division by zero");
            if (x == std::numeric_limits<int64_t>::min() && y == -1) return Value::integer(x);
            return Value::integer(divisions_.divide(site, x, y)); // truncates toward zero, as Simple's `/`
        case BinOp::Mod:
            if (y == 0) runtime_error(loc, "division by zero in `%`");
            if (y == -1) return Value::integer(0);
            return Value::integer(x % y); // the sign of the dividend
        case BinOp::Pow:
            if (y < 0) return Value::number(std::pow(static_cast<double>(x), static_cast<double>(y)));
            return Value::integer(int_pow(x, y));
        default: break;
        }
    } else if (a.is_number() && b.is_number()) {
        division_consumed();
        double x = a.to_double(), y = b.to_double();
        switch (op) {
        case BinOp::Add: return Value::number(x + y);
        case BinOp::Sub: return Value::number(x - y);
        case BinOp::Mul: return Value::number(x * y);
        case BinOp::Div: return Value::number(x / y);
        case BinOp::Mod: return Value::number(std::fmod(x, y));
        case BinOp::Pow: return Value::number(std::pow(x, y));
        default: break;
        }
    } else if (op == BinOp::Add && a.is(ObjType::Str) && b.is(ObjType::Str)) {
        return make_str(str_of(a) + str_of(b));
    } else if (op == BinOp::Add && a.is(ObjType::Array) && b.is(ObjType::Array)) {
        std::vector<Value> items = a.as<ArrayObj>()->items;
        const auto& more = b.as<ArrayObj>()->items;
        items.insert(items.end(), more.begin(), more.end());
        return make_array(std::move(items));
    } else if (op == BinOp::Mul && a.is(ObjType::Str) && b.is_int()) {
        std::string out;
        for (int64_t i = 0; i < b.as_int(); ++i) out += str_of(a);
        return make_str(std::move(out));
    } else if (op == BinOp::Mul && a.is(ObjType::Array) && b.is_int()) {
        std::vector<Value> items;
        const auto& src = a.as<ArrayObj>()->items;
        for (int64_t i = 0; i < b.as_int(); ++i) items.insert(items.end(), src.begin(), src.end());
        return make_array(std::move(items));
    }
    std::string hint;
    if (a.is(ObjType::Instance) || b.is(ObjType::Instance))
        hint = " (define " + op_methods_hint(forward_op(op), reflected_op(op)) + ")";
    else if (op == BinOp::Add && (a.is(ObjType::Str) || b.is(ObjType::Str)))
        hint = " (use interpolation \"{x}\" or str(x))";
    else if (a.is_nil() || b.is_nil())
        hint = std::string(": the ") + (a.is_nil() ? "left" : "right") + " operand " + nil_operand_hint;
    runtime_error(loc, std::string("`") + ast::binop_text(op) + "` is not defined for " + type_name(a) + " and " +
                           type_name(b) + hint);
}

bool Interpreter::equal(const Value& a, const Value& b, SourceLoc loc) {
    if (!a.is_obj() || !b.is_obj()) {
        if (b.is(ObjType::Instance) || a.is(ObjType::Instance)) {
            const Value& obj = a.is_obj() ? a : b;
            const Value& other = a.is_obj() ? b : a;
            Value r;
            if (const Value* m = class_op(obj, Op::Eq); m && try_call_method(obj, *m, other, loc, nullptr, r)) {
                if (r.is_bool()) return r.as_bool();
                runtime_error(loc, "`eq` of " + type_name(obj) + " returned " + type_name(r) + ", not a bool");
            }
            return false;
        }
        return values_equal_builtin(a, b);
    }
    if (a.obj() == b.obj()) return true;
    if (stack_below(stack_floor_)) runtime_error(loc, "maximum recursion depth exceeded in comparison");
    Value r;
    if (const Value* m = class_op(a, Op::Eq); m && try_call_method(a, *m, b, loc, nullptr, r)) {
        if (r.is_bool()) return r.as_bool();
        runtime_error(loc, "`eq` of " + type_name(a) + " returned " + type_name(r) + ", not a bool");
    }
    if (a.obj()->type != b.obj()->type) return false;
    switch (a.obj()->type) {
    case ObjType::Array:
    case ObjType::Tuple: {
        const auto& x = a.is(ObjType::Array) ? a.as<ArrayObj>()->items : a.as<TupleObj>()->items;
        const auto& y = b.is(ObjType::Array) ? b.as<ArrayObj>()->items : b.as<TupleObj>()->items;
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!equal(x[i], y[i], loc)) return false;
        return true;
    }
    case ObjType::Dict: {
        auto *x = a.as<DictObj>(), *y = b.as<DictObj>();
        if (x->entries.size() != y->entries.size()) return false;
        for (const auto& [k, v] : x->entries) {
            const Value* w = y->find(k);
            if (!w || !equal(v, *w, loc)) return false;
        }
        return true;
    }
    case ObjType::Variant: {
        auto *x = a.as<VariantObj>(), *y = b.as<VariantObj>();
        if (x->type != y->type || x->index != y->index) return false;
        for (size_t i = 0; i < x->payload.size(); ++i)
            if (!equal(x->payload[i], y->payload[i], loc)) return false;
        return true;
    }
    case ObjType::Instance: {
        // Structs compare by value, class instances by identity (handled above).
        auto *x = a.as<InstanceObj>(), *y = b.as<InstanceObj>();
        if (x->cls != y->cls || !x->cls->decl->is_struct) return false;
        for (size_t i = 0; i < x->fields.size(); ++i)
            if (!equal(x->fields[i], y->fields[i], loc)) return false;
        return true;
    }
    case ObjType::Slice: {
        auto *x = a.as<SliceObj>(), *y = b.as<SliceObj>();
        return equal(x->start, y->start, loc) && equal(x->stop, y->stop, loc) && equal(x->step, y->step, loc);
    }
    case ObjType::BoundMethod: {
        auto *x = a.as<BoundMethodObj>(), *y = b.as<BoundMethodObj>();
        return x->method.obj() == y->method.obj() && equal(x->self, y->self, loc);
    }
    default: return values_equal_builtin(a, b);
    }
}

int Interpreter::compare(const Value& a, const Value& b, SourceLoc loc) {
    if (a.is_int() && b.is_int()) return a.as_int() < b.as_int() ? -1 : a.as_int() > b.as_int() ? 1 : 0;
    if (a.is_number() && b.is_number()) {
        double x = a.to_double(), y = b.to_double();
        return x < y ? -1 : x > y ? 1 : 0; // NaN compares as equal here; `<` itself is false
    }
    if (a.is(ObjType::Str) && b.is(ObjType::Str)) {
        int c = str_of(a).compare(str_of(b));
        return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    if (a.is_bool() && b.is_bool()) return int(a.as_bool()) - int(b.as_bool());
    if ((a.is(ObjType::Array) || a.is(ObjType::Tuple)) && (b.is(ObjType::Array) || b.is(ObjType::Tuple))) {
        if (stack_below(stack_floor_)) runtime_error(loc, "maximum recursion depth exceeded in comparison");
        const auto& x = a.is(ObjType::Array) ? a.as<ArrayObj>()->items : a.as<TupleObj>()->items;
        const auto& y = b.is(ObjType::Array) ? b.as<ArrayObj>()->items : b.as<TupleObj>()->items;
        for (size_t i = 0; i < x.size() && i < y.size(); ++i)
            if (int c = compare(x[i], y[i], loc)) return c;
        return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
    }
    if (const Value* m = class_op(a, Op::Lt)) {
        Value lt = call_method(a, *m, {b}, loc);
        if (lt.is_bool() && lt.as_bool()) return -1;
        Value gt = binary(BinOp::Gt, a, b, loc);
        return gt.is_bool() && gt.as_bool() ? 1 : 0;
    }
    runtime_error(loc, "cannot compare " + type_name(a) + " with " + type_name(b));
}

Value Interpreter::cast(const Value& v, const std::string& type, SourceLoc loc) {
    auto fail = [&]() -> Value { runtime_error(loc, "cannot convert " + type_name(v) + " to " + type); };
    if (const IntTypeName* int_type = find_int_type(type)) {
        int64_t i;
        if (v.is_int()) {
            i = v.as_int();
        } else if (v.is_float()) {
            double f = v.as_float();
            if (!std::isfinite(f) || f >= 9.2233720368547758e18 || f < -9.2233720368547758e18)
                runtime_error(loc, "cannot convert " + format_float(f) + " to " + type + ": out of range");
            i = static_cast<int64_t>(f); // truncates toward zero
        } else if (v.is_bool()) {
            i = v.as_bool() ? 1 : 0;
        } else if (v.is(ObjType::Str)) {
            const std::string& s = str_of(v);
            char* end = nullptr;
            errno = 0;
            long long parsed = std::strtoll(s.c_str(), &end, 10);
            if (s.empty() || *end != '\0' || errno == ERANGE)
                runtime_error(loc, "cannot convert \"" + s + "\" to " + type);
            i = parsed;
        } else {
            return fail();
        }
        return Value::integer(wrap_to(*int_type, i)); // narrow types wrap, as a C cast would
    }
    if (const FloatTypeName* float_type = find_float_type(type)) {
        double f;
        if (v.is_number())
            f = v.to_double();
        else if (v.is_bool())
            f = v.as_bool() ? 1.0 : 0.0;
        else if (v.is(ObjType::Str)) {
            const std::string& s = str_of(v);
            char* end = nullptr;
            f = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0') runtime_error(loc, "cannot convert \"" + s + "\" to " + type);
        } else {
            return fail();
        }
        if (float_type->bits == 32) f = static_cast<double>(static_cast<float>(f));
        return Value::number(f);
    }
    if (is_text_type_name(type)) return make_str(display(v, loc));
    if (type == "bool") {
        if (v.is_bool()) return v;
        if (v.is_int()) return Value::boolean(v.as_int() != 0);
        return fail();
    }
    if (type == "any") return v;
    if (v.is(ObjType::Instance) && v.as<InstanceObj>()->cls->name == type) return v;
    if (v.is(ObjType::Variant) && v.as<VariantObj>()->type->name == type) return v;
    return fail();
}

Value Interpreter::floor_divide(const Value& a, const Value& b, SourceLoc loc) {
    if (a.is_int() && b.is_int()) {
        const int64_t x = a.as_int(), y = b.as_int();
        if (y == 0) runtime_error(loc, "integer division or modulo by zero");              // Python's words for `//`
        if (x == std::numeric_limits<int64_t>::min() && y == -1) return Value::integer(x); // wraps, as `/`
        const int64_t q = x / y;
        return Value::integer(q * y != x && ((x < 0) != (y < 0)) ? q - 1 : q);
    }
    if (!a.is_number() || !b.is_number())
        runtime_error(loc, "`fdiv` needs two numbers, found " + type_name(a) + " and " + type_name(b));
    // CPython's float floor division (float_floor_div), so results match Python's `//` exactly.
    const double x = a.to_double(), y = b.to_double();
    if (y == 0.0) runtime_error(loc, "float floor division by zero");
    const double mod = std::fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0.0 && ((y < 0) != (mod < 0))) div -= 1.0;
    double floored;
    if (div != 0.0) {
        floored = std::floor(div);
        if (div - floored > 0.5) floored += 1.0;
    } else {
        floored = std::copysign(0.0, x / y);
    }
    return Value::number(floored);
}

namespace {

// Python's slice.indices: the positions `[start:stop:step]` selects.
std::vector<size_t> slice_positions(Interpreter& in, const SliceObj& s, int64_t len, SourceLoc loc) {
    const SliceBounds b = slice_bounds(in, s, len, loc);
    std::vector<size_t> out;
    out.reserve(static_cast<size_t>(b.count));
    for (int64_t k = 0; k < b.count; ++k) out.push_back(static_cast<size_t>(b.start + k * b.step));
    return out;
}

} // namespace

Value Interpreter::index_value(const Value& obj, const Value& key, SourceLoc loc, OverloadSite* site) {
    if (obj.is(ObjType::Instance)) {
        if (const Value* m = class_op(obj, Op::GetItem)) return call_method(obj, *m, {key}, loc, site);
        runtime_error(loc, obj.as<InstanceObj>()->cls->name + " does not support indexing (define `get_item`)");
    }
    if (obj.is(ObjType::Dict)) {
        if (!is_hashable(key))
            runtime_error(loc,
                          "a dictionary key must be a number, text, tuple or class instance, found " + type_name(key));
        const Value* v = obj.as<DictObj>()->find(key);
        if (!v) runtime_error(loc, "key " + repr(key, loc) + " not found (use .get(key) for an optional lookup)");
        return *v;
    }
    Value k = key;
    if (k.is(ObjType::Range)) { // a[1..3] is a[1:3], a[(0..6).step_by(2)] is a[0:6:2]
        auto* r = k.as<RangeObj>();
        k = Value(new SliceObj(Value::integer(r->start), Value::integer(r->stop()), Value::integer(r->step)));
    }
    if (obj.is(ObjType::Range)) return range_item(*this, *obj.as<RangeObj>(), k, loc);
    if (obj.is(ObjType::Array) || obj.is(ObjType::Tuple)) {
        const auto& items = obj.is(ObjType::Array) ? obj.as<ArrayObj>()->items : obj.as<TupleObj>()->items;
        const int64_t n = static_cast<int64_t>(items.size());
        if (k.is(ObjType::Slice)) {
            std::vector<Value> out;
            for (size_t i : slice_positions(*this, *k.as<SliceObj>(), n, loc)) out.push_back(items[i]);
            return obj.is(ObjType::Array) ? make_array(std::move(out)) : make_tuple(std::move(out));
        }
        if (!k.is_int()) runtime_error(loc, "an index must be i64, found " + type_name(k));
        int64_t i = k.as_int() < 0 ? k.as_int() + n : k.as_int();
        if (i < 0 || i >= n)
            runtime_error(loc, "index " + std::to_string(k.as_int()) + " out of range for " +
                                   (obj.is(ObjType::Array) ? "an array" : "a tuple") + " of length " +
                                   std::to_string(n));
        return items[static_cast<size_t>(i)];
    }
    if (obj.is(ObjType::Str)) {
        const std::string& s = str_of(obj);
        std::vector<size_t> offs = utf8_offsets(s);
        const int64_t n = static_cast<int64_t>(offs.size()) - 1;
        if (k.is(ObjType::Slice)) {
            std::string out;
            for (size_t i : slice_positions(*this, *k.as<SliceObj>(), n, loc))
                out += s.substr(offs[i], offs[i + 1] - offs[i]);
            return make_str(std::move(out));
        }
        if (!k.is_int()) runtime_error(loc, "a text index must be i64, found " + type_name(k));
        int64_t i = k.as_int() < 0 ? k.as_int() + n : k.as_int();
        if (i < 0 || i >= n)
            runtime_error(loc, "index " + std::to_string(k.as_int()) + " out of range for a text of length " +
                                   std::to_string(n));
        return make_str(
            s.substr(offs[static_cast<size_t>(i)], offs[static_cast<size_t>(i) + 1] - offs[static_cast<size_t>(i)]));
    }
    runtime_error(loc, type_name(obj) + " cannot be indexed");
}

} // namespace spl
