// The 16-byte Value, reference counting and the plain heap objects (text, arrays, tuples, dicts).
#include "base/value.h"

#include <charconv>
#include <cmath>
#include <functional>

namespace spl {

std::string format_float(double f) {
    if (std::isnan(f)) return "nan";
    if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, f);
    std::string s(buf, res.ptr);
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

bool values_equal_builtin(const Value& a, const Value& b) {
    if (a.is_number() && b.is_number()) {
        if (a.is_int() && b.is_int()) return a.as_int() == b.as_int();
        return a.to_double() == b.to_double();
    }
    if (a.tag() != b.tag()) return false;
    switch (a.tag()) {
    case Value::Tag::Nil: return true;
    case Value::Tag::Bool: return a.as_bool() == b.as_bool();
    case Value::Tag::Int:
    case Value::Tag::Float: return false; // handled above
    case Value::Tag::Obj: break;
    }
    if (a.obj() == b.obj()) return true;
    if (a.obj()->type != b.obj()->type) return false;
    switch (a.obj()->type) {
    case ObjType::Str: return str_of(a) == str_of(b);
    case ObjType::Range: {
        // Python's: equal as sequences (range(0, 3, 2) == range(0, 4, 2); every empty range is equal).
        auto *x = a.as<RangeObj>(), *y = b.as<RangeObj>();
        const int64_t n = x->size();
        if (n != y->size()) return false;
        return n == 0 || (x->start == y->start && (n == 1 || x->step == y->step));
    }
    default: return false;
    }
}

size_t ValueHash::operator()(const Value& v) const {
    switch (v.tag()) {
    case Value::Tag::Nil: return 0x9e3779b9;
    case Value::Tag::Bool: return v.as_bool() ? 1 : 2;
    case Value::Tag::Int: return std::hash<int64_t>()(v.as_int());
    case Value::Tag::Float: {
        double f = v.as_float();
        // Equal numbers must hash equally across i64/f64 (1 == 1.0).
        if (f == std::floor(f) && std::abs(f) < 9e18) return std::hash<int64_t>()(int64_t(f));
        return std::hash<double>()(f);
    }
    case Value::Tag::Obj: break;
    }
    if (v.is(ObjType::Str)) return std::hash<std::string>()(str_of(v));
    if (v.is(ObjType::Tuple)) {
        size_t h = 0x12345;
        for (const auto& item : v.as<TupleObj>()->items) h = h * 31 + (*this)(item);
        return h;
    }
    return std::hash<const void*>()(v.obj());
}

bool ValueKeyEq::operator()(const Value& a, const Value& b) const {
    if (a.is(ObjType::Tuple) && b.is(ObjType::Tuple)) {
        const auto &x = a.as<TupleObj>()->items, &y = b.as<TupleObj>()->items;
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!(*this)(x[i], y[i])) return false;
        return true;
    }
    return values_equal_builtin(a, b);
}

const Value* DictObj::find(const Value& key) const {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &entries[it->second].second;
}

void DictObj::set(const Value& key, Value value) {
    auto it = index.find(key);
    if (it != index.end()) {
        entries[it->second].second = std::move(value);
        return;
    }
    index.emplace(key, entries.size());
    entries.emplace_back(key, std::move(value));
}

bool DictObj::remove(const Value& key) {
    auto it = index.find(key);
    if (it == index.end()) return false;
    size_t pos = it->second;
    index.erase(it);
    entries.erase(entries.begin() + static_cast<long>(pos));
    for (auto& [k, i] : index)
        if (i > pos) --i;
    return true;
}

const Value& ellipsis_value() {
    static const Value* const ellipsis = new Value(new EllipsisObj()); // lives as long as the program
    return *ellipsis;
}

} // namespace spl
