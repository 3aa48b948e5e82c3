// methods.cpp — methods of built-in types.
#include "eval/methods.h"
#include "eval/ranges.h"

#include "base/arity.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace spl {

namespace {

// One id per method name. Adding a method: a name here and a case below.
// (An X-list: clang-format would re-indent it on every run.)
// clang-format off
#define SPL_METHODS(X)                                                                                        \
    X(len) X(is_empty) X(push) X(append) X(pop) X(insert) X(remove) X(extend) X(contains) X(index_of)         \
    X(find) X(map) X(filter) X(reduce) X(fold) X(each) X(for_each) X(enumerate) X(zip) X(sum) X(min) X(max)   \
    X(sort) X(sorted) X(reverse) X(reversed) X(join) X(first) X(last) X(slice) X(copy) X(clone) X(any) X(all) \
    X(count) X(take) X(skip) X(to_array) X(to_list) X(collect) X(split) X(starts_with) X(ends_with) X(trim)   \
    X(upper) X(lower) X(replace) X(chars) X(lines) X(repeat) X(to_i64) X(to_f64) X(to_string) X(keys)         \
    X(values) X(items) X(get) X(contains_key) X(set) X(abs) X(sqrt) X(floor) X(ceil) X(round) X(exp) X(log)   \
    X(pow) X(sin) X(cos) X(tan) X(tanh) X(is_nan) X(clamp) X(is_some) X(is_none) X(unwrap) X(unwrap_or)       \
    X(expect) X(is_ok) X(is_err) X(unwrap_err) X(ok) X(err) X(index) X(step_by) X(clear) X(update)            \
    X(startswith) X(endswith) X(strip) X(lstrip) X(rstrip) X(fdiv)
// clang-format on

enum class M : int {
#define X(name) name,
    SPL_METHODS(X)
#undef X
};

const std::unordered_map<std::string_view, int>& method_ids() {
    static const std::unordered_map<std::string_view, int> ids = [] {
        std::unordered_map<std::string_view, int> m;
        int i = 0;
#define X(name) m.emplace(#name, i++);
        SPL_METHODS(X)
#undef X
        return m;
    }();
    return ids;
}

// The receiver, arguments and helpers of one built-in method call.
struct Ctx {
    Interpreter& in;
    const Value& self;
    ArgList& args;
    const std::string& name;
    SourceLoc loc;

    [[noreturn]] void fail(const std::string& msg) const { runtime_error(loc, msg); }
    void arity(int lo, int hi) const {
        if (args.count < lo || args.count > hi)
            arity_error(loc, Arity{name, static_cast<size_t>(lo), static_cast<size_t>(hi)},
                        static_cast<size_t>(args.count));
    }
    void arity(int n) const { arity(n, n); }
    const Value& arg(int i) const { return args.values[i]; }
    int64_t int_arg(int i) const {
        if (!arg(i).is_int())
            fail("argument " + std::to_string(i + 1) + " of `" + name + "` must be i64, found " + in.type_name(arg(i)));
        return arg(i).as_int();
    }
    double num_arg(int i) const {
        if (!arg(i).is_number())
            fail("argument " + std::to_string(i + 1) + " of `" + name + "` must be a number, found " +
                 in.type_name(arg(i)));
        return arg(i).to_double();
    }
    const std::string& str_arg(int i) const {
        if (!arg(i).is(ObjType::Str))
            fail("argument " + std::to_string(i + 1) + " of `" + name + "` must be text, found " +
                 in.type_name(arg(i)));
        return str_of(arg(i));
    }
    Value call(const Value& f, std::initializer_list<Value> xs) const { return in.call_with(f, xs, loc); }
    bool pred(const Value& f, const Value& x) const { return in.truthy(call(f, {x}), loc); }
};

size_t utf8_length(const std::string& s) {
    size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
    return n;
}

std::vector<Value> to_items(Interpreter& in, const Value& v, SourceLoc loc) {
    std::vector<Value> items;
    in.for_each(v, loc, [&](Value x) {
        items.push_back(std::move(x));
        return true;
    });
    return items;
}

Value sum_of(Ctx& c, const std::vector<Value>& items) {
    Value total = Value::integer(0);
    for (const Value& x : items) total = c.in.binary(ast::BinOp::Add, total, x, c.loc);
    return total;
}

Value extreme(Ctx& c, const std::vector<Value>& items, bool want_max) {
    if (items.empty()) c.fail("`" + c.name + "` of an empty collection");
    Value best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
        int cmp = c.in.compare(items[i], best, c.loc);
        if (want_max ? cmp > 0 : cmp < 0) best = items[i];
    }
    return best;
}

// Python's sort options, named only as list.sort takes them: `key:` (a function of an item whose
// results are compared instead, each called once) and `reverse:` (descending, still stable).
struct SortOptions {
    Value key;
    bool reverse = false;
};

SortOptions sort_options(Ctx& c) {
    SortOptions o;
    for (int i = 0; i < c.args.count; ++i) {
        const std::string& name = c.args.has_names() ? (*c.args.names)[static_cast<size_t>(i)] : std::string();
        if (name.empty()) c.fail(c.name + "() takes no positional arguments");
        if (name == "key")
            o.key = c.arg(i);
        else if (name == "reverse")
            o.reverse = c.in.truthy(c.arg(i), c.loc);
        else
            c.fail("'" + name + "' is an invalid keyword argument for " + c.name + "()");
    }
    return o;
}

void sort_values(Ctx& c, std::vector<Value>& items, const SortOptions& o) {
    std::vector<Value> keys;
    keys.reserve(items.size());
    for (const Value& x : items) keys.push_back(o.key.is_nil() ? x : c.call(o.key, {x}));
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return o.reverse ? c.in.compare(keys[b], keys[a], c.loc) < 0 : c.in.compare(keys[a], keys[b], c.loc) < 0;
    });
    std::vector<Value> sorted;
    sorted.reserve(items.size());
    for (size_t i : order) sorted.push_back(std::move(items[i]));
    items = std::move(sorted);
}

// Python's `index(x[, start[, end]])` bounds: negative counts from the end, then clipped.
int64_t clip_position(int64_t i, int64_t n) { return std::clamp<int64_t>(i < 0 ? i + n : i, 0, n); }

// What Python says when `index(x)` finds no x.
std::string not_found_in(Ctx& c, const Value& x) {
    if (c.self.is(ObjType::Tuple)) return "tuple.index(x): x not in tuple";
    return c.in.repr(x, c.loc) + " is not in " + (c.self.is(ObjType::Range) ? "range" : "list");
}

// Methods shared by arrays, tuples and ranges (the sequence is `items`).
Value sequence_method(Ctx& c, M id, std::vector<Value>& items, bool* handled) {
    *handled = true;
    switch (id) {
    case M::len:
    case M::count:
        if (id == M::count && c.args.count == 1) { // items a function accepts, or Python's: items equal to x
            int64_t n = 0;
            const bool by_predicate = is_callable(c.arg(0));
            for (const Value& x : items) n += by_predicate ? c.pred(c.arg(0), x) : c.in.equal(x, c.arg(0), c.loc);
            return Value::integer(n);
        }
        c.arity(0);
        return Value::integer(static_cast<int64_t>(items.size()));
    case M::is_empty: c.arity(0); return Value::boolean(items.empty());
    case M::contains:
        c.arity(1);
        for (const Value& x : items)
            if (c.in.equal(x, c.arg(0), c.loc)) return Value::boolean(true);
        return Value::boolean(false);
    case M::index_of:
        c.arity(1);
        for (size_t i = 0; i < items.size(); ++i)
            if (c.in.equal(items[i], c.arg(0), c.loc)) return Value::integer(static_cast<int64_t>(i));
        return Value();
    case M::index: { // Python's: as index_of, but a miss is an error
        c.arity(1, 3);
        const int64_t n = static_cast<int64_t>(items.size());
        const int64_t lo = c.args.count > 1 ? clip_position(c.int_arg(1), n) : 0;
        const int64_t hi = c.args.count > 2 ? clip_position(c.int_arg(2), n) : n;
        for (int64_t i = lo; i < hi; ++i)
            if (c.in.equal(items[static_cast<size_t>(i)], c.arg(0), c.loc)) return Value::integer(i);
        c.fail(not_found_in(c, c.arg(0)));
    }
    case M::find:
        c.arity(1);
        for (const Value& x : items)
            if (c.pred(c.arg(0), x)) return x;
        return Value();
    case M::map: {
        c.arity(1);
        std::vector<Value> out;
        out.reserve(items.size());
        for (const Value& x : items) out.push_back(c.call(c.arg(0), {x}));
        return make_array(std::move(out));
    }
    case M::filter: {
        c.arity(1);
        std::vector<Value> out;
        for (const Value& x : items)
            if (c.pred(c.arg(0), x)) out.push_back(x);
        return make_array(std::move(out));
    }
    case M::fold:
    case M::reduce: {
        if (id == M::reduce && c.args.count == 1) {
            if (items.empty()) c.fail("`reduce` of an empty collection");
            Value acc = items[0];
            for (size_t i = 1; i < items.size(); ++i) acc = c.call(c.arg(0), {acc, items[i]});
            return acc;
        }
        c.arity(2);
        Value acc = c.arg(0);
        for (const Value& x : items) acc = c.call(c.arg(1), {acc, x});
        return acc;
    }
    case M::each:
    case M::for_each:
        c.arity(1);
        for (const Value& x : items) c.call(c.arg(0), {x});
        return Value();
    case M::any:
        c.arity(1);
        for (const Value& x : items)
            if (c.pred(c.arg(0), x)) return Value::boolean(true);
        return Value::boolean(false);
    case M::all:
        c.arity(1);
        for (const Value& x : items)
            if (!c.pred(c.arg(0), x)) return Value::boolean(false);
        return Value::boolean(true);
    case M::enumerate: {
        c.arity(0);
        std::vector<Value> out;
        for (size_t i = 0; i < items.size(); ++i)
            out.push_back(make_tuple({Value::integer(static_cast<int64_t>(i)), items[i]}));
        return make_array(std::move(out));
    }
    case M::zip: {
        c.arity(1);
        std::vector<Value> other = to_items(c.in, c.arg(0), c.loc), out;
        for (size_t i = 0; i < items.size() && i < other.size(); ++i) out.push_back(make_tuple({items[i], other[i]}));
        return make_array(std::move(out));
    }
    case M::sum: c.arity(0); return sum_of(c, items);
    case M::min: c.arity(0); return extreme(c, items, false);
    case M::max: c.arity(0); return extreme(c, items, true);
    case M::sorted: {
        std::vector<Value> out = items;
        sort_values(c, out, sort_options(c));
        return make_array(std::move(out));
    }
    case M::reversed: {
        c.arity(0);
        return make_array(std::vector<Value>(items.rbegin(), items.rend()));
    }
    case M::join: {
        c.arity(0, 1);
        std::string sep = c.args.count ? c.str_arg(0) : "";
        std::string out;
        for (size_t i = 0; i < items.size(); ++i) {
            if (i) out += sep;
            out += c.in.display(items[i], c.loc);
        }
        return make_str(std::move(out));
    }
    case M::first: c.arity(0); return items.empty() ? Value() : items.front();
    case M::last: c.arity(0); return items.empty() ? Value() : items.back();
    case M::take:
    case M::skip: {
        c.arity(1);
        size_t n = static_cast<size_t>(std::max<int64_t>(0, c.int_arg(0)));
        n = std::min(n, items.size());
        if (id == M::take) return make_array(std::vector<Value>(items.begin(), items.begin() + static_cast<long>(n)));
        return make_array(std::vector<Value>(items.begin() + static_cast<long>(n), items.end()));
    }
    case M::slice: {
        c.arity(1, 2);
        int64_t n = static_cast<int64_t>(items.size());
        int64_t a = c.int_arg(0), b = c.args.count > 1 ? c.int_arg(1) : n;
        if (a < 0) a += n;
        if (b < 0) b += n;
        a = std::clamp<int64_t>(a, 0, n);
        b = std::clamp<int64_t>(b, a, n);
        return make_array(std::vector<Value>(items.begin() + a, items.begin() + b));
    }
    case M::copy:
    case M::clone:
    case M::to_array:
    case M::to_list:
    case M::collect: c.arity(0); return make_array(items);
    default: *handled = false; return Value();
    }
}

Value array_method(Ctx& c, M id, ArrayObj& arr) {
    auto& items = arr.items;
    switch (id) {
    case M::push:
    case M::append:
        c.arity(1);
        items.push_back(c.arg(0));
        return Value();
    case M::pop: { // pop() the last item, pop(i) the i-th (negative from the end), as Python's
        c.arity(0, 1);
        if (items.empty()) c.fail("pop from empty list");
        const int64_t n = static_cast<int64_t>(items.size());
        int64_t i = c.args.count ? c.int_arg(0) : n - 1;
        if (i < 0) i += n;
        if (i < 0 || i >= n) c.fail("pop index out of range");
        Value v = std::move(items[static_cast<size_t>(i)]);
        items.erase(items.begin() + i);
        return v;
    }
    case M::clear:
        c.arity(0);
        items.clear();
        return Value();
    case M::insert: {
        c.arity(2);
        int64_t i = c.int_arg(0), n = static_cast<int64_t>(items.size());
        if (i < 0) i += n;
        if (i < 0 || i > n)
            c.fail("insert position " + std::to_string(c.int_arg(0)) + " out of range for length " + std::to_string(n));
        items.insert(items.begin() + i, c.arg(1));
        return Value();
    }
    case M::remove: {
        c.arity(1);
        int64_t i = c.int_arg(0), n = static_cast<int64_t>(items.size());
        if (i < 0) i += n;
        if (i < 0 || i >= n)
            c.fail("index " + std::to_string(c.int_arg(0)) + " out of range for an array of length " +
                   std::to_string(n));
        Value v = std::move(items[static_cast<size_t>(i)]);
        items.erase(items.begin() + i);
        return v;
    }
    case M::extend: {
        c.arity(1);
        std::vector<Value> more = to_items(c.in, c.arg(0), c.loc);
        items.insert(items.end(), more.begin(), more.end());
        return Value();
    }
    case M::sort: {
        SortOptions o = sort_options(c);
        std::vector<Value> sorted = items; // a key function may look at the array meanwhile
        sort_values(c, sorted, o);
        items = std::move(sorted);
        return Value();
    }
    case M::reverse:
        c.arity(0);
        std::reverse(items.begin(), items.end());
        return Value();
    // Answered in place: these run no callback, so they need no snapshot (which would
    // make `xs.len()` in a loop O(n) per call).
    case M::len: c.arity(0); return Value::integer(static_cast<int64_t>(items.size()));
    case M::is_empty: c.arity(0); return Value::boolean(items.empty());
    default: break;
    }
    std::vector<Value> snapshot = items; // callbacks may modify the array
    bool handled;
    Value r = sequence_method(c, id, snapshot, &handled);
    if (!handled) c.fail(no_method_message(c.in, c.self, c.name));
    return r;
}

Value text_method(Ctx& c, M id, const std::string& s) {
    switch (id) {
    case M::len: c.arity(0); return Value::integer(static_cast<int64_t>(utf8_length(s)));
    case M::is_empty: c.arity(0); return Value::boolean(s.empty());
    case M::contains: c.arity(1); return Value::boolean(s.find(c.str_arg(0)) != std::string::npos);
    case M::starts_with:
    case M::startswith:
    case M::ends_with:
    case M::endswith: { // Python's names too, whose argument may be a tuple of texts (any of them)
        c.arity(1);
        const bool at_start = id == M::starts_with || id == M::startswith;
        auto matches = [&](const std::string& t) {
            if (at_start) return s.rfind(t, 0) == 0;
            return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
        };
        if (c.arg(0).is(ObjType::Tuple)) {
            for (const Value& t : c.arg(0).as<TupleObj>()->items) {
                if (!t.is(ObjType::Str))
                    c.fail("a tuple for `" + c.name + "` must hold text, found " + c.in.type_name(t));
                if (matches(str_of(t))) return Value::boolean(true);
            }
            return Value::boolean(false);
        }
        return Value::boolean(matches(c.str_arg(0)));
    }
    case M::strip:
    case M::lstrip:
    case M::rstrip: { // Python's: whitespace, or any of the characters given
        c.arity(0, 1);
        const std::string chars = c.args.count && !c.arg(0).is_nil() ? c.str_arg(0) : std::string(" \t\n\r\f\v");
        size_t b = id == M::rstrip ? 0 : s.find_first_not_of(chars);
        if (b == std::string::npos) return make_str("");
        size_t e = id == M::lstrip ? s.size() : s.find_last_not_of(chars) + 1;
        return make_str(s.substr(b, e - b));
    }
    case M::index: { // Python's: find, but a miss is an error
        c.arity(1);
        size_t pos = s.find(c.str_arg(0));
        if (pos == std::string::npos) c.fail("substring not found");
        return Value::integer(static_cast<int64_t>(utf8_length(s.substr(0, pos))));
    }
    case M::count: { // Python's: non-overlapping occurrences ("" occurs between every two characters)
        c.arity(1);
        const std::string& t = c.str_arg(0);
        if (t.empty()) return Value::integer(static_cast<int64_t>(utf8_length(s)) + 1);
        int64_t n = 0;
        for (size_t pos = s.find(t); pos != std::string::npos; pos = s.find(t, pos + t.size())) ++n;
        return Value::integer(n);
    }
    case M::find:
    case M::index_of: {
        c.arity(1);
        size_t pos = s.find(c.str_arg(0));
        if (pos == std::string::npos) return Value();
        return Value::integer(static_cast<int64_t>(utf8_length(s.substr(0, pos))));
    }
    case M::split: {
        c.arity(0, 1);
        std::vector<Value> parts;
        if (c.args.count == 0) { // on runs of whitespace
            size_t i = 0;
            while (i < s.size()) {
                while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
                size_t j = i;
                while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
                if (j > i) parts.push_back(make_str(s.substr(i, j - i)));
                i = j;
            }
        } else {
            const std::string& sep = c.str_arg(0);
            if (sep.empty()) c.fail("`split` with an empty separator");
            size_t start = 0, pos;
            while ((pos = s.find(sep, start)) != std::string::npos) {
                parts.push_back(make_str(s.substr(start, pos - start)));
                start = pos + sep.size();
            }
            parts.push_back(make_str(s.substr(start)));
        }
        return make_array(std::move(parts));
    }
    case M::lines: {
        c.arity(0);
        std::vector<Value> parts;
        size_t start = 0, pos;
        while ((pos = s.find('\n', start)) != std::string::npos) {
            parts.push_back(make_str(s.substr(start, pos - start)));
            start = pos + 1;
        }
        if (start < s.size()) parts.push_back(make_str(s.substr(start)));
        return make_array(std::move(parts));
    }
    case M::trim: {
        c.arity(0);
        size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
        return make_str(b == std::string::npos ? "" : s.substr(b, e - b + 1));
    }
    case M::upper:
    case M::lower: {
        c.arity(0);
        std::string out = s;
        for (char& ch : out)
            ch = static_cast<char>(id == M::upper ? std::toupper(static_cast<unsigned char>(ch))
                                                  : std::tolower(static_cast<unsigned char>(ch)));
        return make_str(std::move(out));
    }
    case M::replace: {
        c.arity(2);
        const std::string &from = c.str_arg(0), &to = c.str_arg(1);
        if (from.empty()) c.fail("`replace` of an empty text");
        std::string out;
        size_t start = 0, pos;
        while ((pos = s.find(from, start)) != std::string::npos) {
            out += s.substr(start, pos - start) + to;
            start = pos + from.size();
        }
        return make_str(out + s.substr(start));
    }
    case M::repeat: {
        c.arity(1);
        std::string out;
        for (int64_t i = 0; i < c.int_arg(0); ++i) out += s;
        return make_str(std::move(out));
    }
    case M::chars: c.arity(0); return make_array(to_items(c.in, c.self, c.loc));
    case M::join: { // ", ".join(items)
        c.arity(1);
        std::vector<Value> items = to_items(c.in, c.arg(0), c.loc);
        std::string out;
        for (size_t i = 0; i < items.size(); ++i) {
            if (i) out += s;
            out += c.in.display(items[i], c.loc);
        }
        return make_str(std::move(out));
    }
    case M::to_i64: c.arity(0); return c.in.cast(c.self, "i64", c.loc);
    case M::to_f64: c.arity(0); return c.in.cast(c.self, "f64", c.loc);
    default: c.fail(no_method_message(c.in, c.self, c.name));
    }
}

Value dict_method(Ctx& c, M id, DictObj& d) {
    switch (id) {
    case M::len: c.arity(0); return Value::integer(static_cast<int64_t>(d.entries.size()));
    case M::is_empty: c.arity(0); return Value::boolean(d.entries.empty());
    case M::keys:
    case M::values:
    case M::items: {
        c.arity(0);
        std::vector<Value> out;
        for (const auto& [k, v] : d.entries)
            out.push_back(id == M::keys ? k : id == M::values ? v : make_tuple({k, v}));
        return make_array(std::move(out));
    }
    case M::get: {
        c.arity(1, 2);
        const Value* v = d.find(c.arg(0));
        return v ? *v : c.args.count > 1 ? c.arg(1) : Value();
    }
    case M::contains:
    case M::contains_key: c.arity(1); return Value::boolean(d.find(c.arg(0)) != nullptr);
    case M::set:
    case M::insert:
        c.arity(2);
        d.set(c.arg(0), c.arg(1));
        return Value();
    case M::remove: c.arity(1); return Value::boolean(d.remove(c.arg(0)));
    case M::pop: { // Python's: the value, removed; the default (or an error) when the key is absent
        c.arity(1, 2);
        const Value* v = d.find(c.arg(0));
        if (!v) {
            if (c.args.count > 1) return c.arg(1);
            c.fail("key " + c.in.repr(c.arg(0), c.loc) + " not found");
        }
        Value out = *v;
        d.remove(c.arg(0));
        return out;
    }
    case M::update: { // Python's: every entry of another dict, set here
        c.arity(1);
        if (!c.arg(0).is(ObjType::Dict)) c.fail("`update` takes a dict, found " + c.in.type_name(c.arg(0)));
        std::vector<std::pair<Value, Value>> entries = c.arg(0).as<DictObj>()->entries; // d.update(d) is fine
        for (const auto& [k, v] : entries) d.set(k, v);
        return Value();
    }
    case M::clear:
        c.arity(0);
        {
            auto gone = std::move(d.entries); // dropped once the dict is empty (a drop may look at it)
            d.entries.clear();
            d.index.clear();
        }
        return Value();
    case M::copy:
    case M::clone: {
        c.arity(0);
        auto* copy = new DictObj();
        Value v(copy);
        for (const auto& [k, x] : d.entries) copy->set(k, x);
        return v;
    }
    default: c.fail(no_method_message(c.in, c.self, c.name));
    }
}

Value number_method(Ctx& c, M id) {
    const Value& v = c.self;
    double x = v.to_double();
    auto num = [&](double r) { return Value::number(r); };
    switch (id) {
    case M::abs:
        c.arity(0);
        return v.is_int() ? Value::integer(v.as_int() < 0 ? -v.as_int() : v.as_int()) : num(std::fabs(x));
    case M::sqrt: c.arity(0); return num(std::sqrt(x));
    case M::exp: c.arity(0); return num(std::exp(x));
    case M::log: c.arity(0); return num(std::log(x));
    case M::sin: c.arity(0); return num(std::sin(x));
    case M::cos: c.arity(0); return num(std::cos(x));
    case M::tan: c.arity(0); return num(std::tan(x));
    case M::tanh: c.arity(0); return num(std::tanh(x));
    case M::floor: c.arity(0); return v.is_int() ? v : num(std::floor(x));
    case M::ceil: c.arity(0); return v.is_int() ? v : num(std::ceil(x));
    case M::round: {
        c.arity(0, 1);
        if (v.is_int()) return v;
        if (c.args.count == 0) return num(std::round(x));
        double scale = std::pow(10.0, static_cast<double>(c.int_arg(0)));
        return num(std::round(x * scale) / scale);
    }
    case M::pow: c.arity(1); return c.in.binary(ast::BinOp::Pow, v, c.arg(0), c.loc);
    case M::fdiv: c.arity(1); return c.in.floor_divide(v, c.arg(0), c.loc); // Python's //, operators.cpp
    case M::min: c.arity(1); return c.in.compare(c.arg(0), v, c.loc) < 0 ? c.arg(0) : v;
    case M::max: c.arity(1); return c.in.compare(c.arg(0), v, c.loc) > 0 ? c.arg(0) : v;
    case M::clamp: {
        c.arity(2);
        if (c.in.compare(v, c.arg(0), c.loc) < 0) return c.arg(0);
        if (c.in.compare(v, c.arg(1), c.loc) > 0) return c.arg(1);
        return v;
    }
    case M::is_nan: c.arity(0); return Value::boolean(v.is_float() && std::isnan(x));
    case M::to_i64: c.arity(0); return c.in.cast(v, "i64", c.loc);
    case M::to_f64: c.arity(0); return c.in.cast(v, "f64", c.loc);
    default: c.fail(no_method_message(c.in, v, c.name));
    }
}

// Option/Result methods. A plain non-nil value counts as a present optional.
Value optional_method(Ctx& c, M id, bool* handled) {
    *handled = true;
    Interpreter& in = c.in;
    const Value& v = c.self;
    const VariantObj* var = v.is(ObjType::Variant) ? v.as<VariantObj>() : nullptr;
    bool is_result = var && var->type == in.result_type();
    bool is_option = var && var->type == in.option_type();
    bool is_err = is_result && var->index == 1;
    bool missing = v.is_nil();
    auto payload = [&]() -> Value { return (is_option || is_result) ? var->payload[0] : v; };
    switch (id) {
    case M::is_some: c.arity(0); return Value::boolean(!missing && !is_result);
    case M::is_none: c.arity(0); return Value::boolean(missing);
    case M::is_ok: c.arity(0); return Value::boolean(is_result && !is_err);
    case M::is_err: c.arity(0); return Value::boolean(is_err);
    case M::unwrap:
    case M::expect: {
        c.arity(id == M::expect ? 1 : 0);
        std::string prefix = id == M::expect ? c.str_arg(0) + ": " : std::string();
        if (missing) c.fail(prefix.empty() ? "called `unwrap` on None" : c.str_arg(0));
        if (is_err) c.fail((prefix.empty() ? "called `unwrap` on " : prefix) + in.display(v, c.loc));
        return payload();
    }
    case M::unwrap_or: c.arity(1); return missing || is_err ? c.arg(0) : payload();
    case M::unwrap_err:
        c.arity(0);
        if (!is_err) c.fail("called `unwrap_err` on " + in.display(v, c.loc));
        return var->payload[0];
    case M::ok: c.arity(0); return is_result ? (is_err ? Value() : var->payload[0]) : v;
    case M::err: c.arity(0); return is_err ? var->payload[0] : Value();
    case M::map:
        if (!(is_option || is_result || missing)) break;
        c.arity(1);
        if (missing || is_err) return v;
        if (is_result) return in.make_ok(c.call(c.arg(0), {payload()}));
        return in.make_some(c.call(c.arg(0), {payload()}));
    default: break;
    }
    *handled = false;
    return Value();
}

// Ranges answer these without listing their integers (a range may hold billions of them).
Value range_method(Ctx& c, M id, const RangeObj& r, bool* handled) {
    *handled = true;
    switch (id) {
    case M::step_by: c.arity(1); return range_step_by(c.in, r, c.arg(0), c.loc);
    case M::len: c.arity(0); return Value::integer(r.size());
    case M::is_empty: c.arity(0); return Value::boolean(r.size() == 0);
    case M::contains:
        if (c.args.count == 1 && c.arg(0).is_int()) return Value::boolean(r.contains(c.arg(0).as_int()));
        break;
    case M::index:
        if (c.args.count == 1 && c.arg(0).is_int()) {
            const int64_t v = c.arg(0).as_int();
            if (!r.contains(v)) c.fail(not_found_in(c, c.arg(0)));
            return Value::integer((v - r.start) / r.step); // exact: v is start + k * step
        }
        break;
    default: break;
    }
    *handled = false;
    return Value();
}

// Names from Python, Rust or JavaScript for what a built-in type has under another name here.
const char* host_name_for(const Value& receiver, const std::string& name) {
    struct Hint {
        const char* name;
        const char* use;
    };
    static const Hint sequence[] = {{"length", "len()"},          {"size", "len()"},          {"isEmpty", "is_empty"},
                                    {"indexOf", "index_of"},      {"find_index", "index_of"}, {"position", "index_of"},
                                    {"includes", "contains"},     {"has", "contains"},        {"forEach", "for_each"},
                                    {"sort_by", "sorted(key: f)"}};
    static const Hint array[] = {{"add", "push"},
                                 {"push_back", "push"},
                                 {"remove_at", "remove(i)"},
                                 {"delete", "remove(i)"},
                                 {"sort_by", "sort(key: f)"}};
    static const Hint text[] = {
        {"length", "len()"},          {"size", "len()"},         {"isEmpty", "is_empty"},  {"splitlines", "lines"},
        {"to_upper", "upper"},        {"to_uppercase", "upper"}, {"toUpperCase", "upper"}, {"to_lower", "lower"},
        {"to_lowercase", "lower"},    {"toLowerCase", "lower"},  {"trim_start", "lstrip"}, {"trim_end", "rstrip"},
        {"includes", "contains"},     {"indexOf", "find"},       {"substring", "s[a:b]"},  {"substr", "s[a:b]"},
        {"startsWith", "startswith"}, {"endsWith", "endswith"}};
    static const Hint dict[] = {{"length", "len()"},         {"size", "len()"},       {"isEmpty", "is_empty"},
                                {"has_key", "contains_key"}, {"has", "contains_key"}, {"containsKey", "contains_key"},
                                {"delete", "remove"}};
    auto look = [&](const auto& table) -> const char* {
        for (const Hint& h : table)
            if (name == h.name) return h.use;
        return nullptr;
    };
    if (receiver.is(ObjType::Array))
        if (const char* use = look(array)) return use;
    if (receiver.is(ObjType::Array) || receiver.is(ObjType::Tuple) || receiver.is(ObjType::Range))
        return look(sequence);
    if (receiver.is(ObjType::Str)) return look(text);
    if (receiver.is(ObjType::Dict)) return look(dict);
    return nullptr;
}

} // namespace

std::string no_method_message(Interpreter& in, const Value& receiver, const std::string& name) {
    std::string out = in.type_name(receiver) + " has no method `" + name + "`";
    if (receiver.is_nil()) return out + ": the receiver " + nil_operand_hint;
    if (const char* use = host_name_for(receiver, name)) out += std::string("; use `") + use + "`";
    return out;
}

int find_builtin_method(std::string_view name) {
    auto it = method_ids().find(name);
    return it == method_ids().end() ? -1 : it->second;
}

Value call_builtin_method(Interpreter& in, const Value& receiver, int raw_id, const std::string& name, ArgList& args,
                          SourceLoc loc) {
    M id = static_cast<M>(raw_id);
    if (args.has_names() && id != M::sort && id != M::sorted) // their `key:` and `reverse:`
        runtime_error(loc, "`" + name + "` does not take named arguments");
    Ctx c{in, receiver, args, name, loc};
    if (id == M::to_string) {
        c.arity(0);
        return make_str(in.display(receiver, loc));
    }
    bool handled = false;
    Value r = optional_method(c, id, &handled);
    if (handled) return r;
    if (receiver.is_number()) return number_method(c, id);
    if (receiver.is_obj()) {
        switch (receiver.obj()->type) {
        case ObjType::Array: return array_method(c, id, *receiver.as<ArrayObj>());
        case ObjType::Str: return text_method(c, id, str_of(receiver));
        case ObjType::Dict: return dict_method(c, id, *receiver.as<DictObj>());
        case ObjType::Tuple:
        case ObjType::Range: {
            if (receiver.is(ObjType::Range)) {
                r = range_method(c, id, *receiver.as<RangeObj>(), &handled);
                if (handled) return r;
            }
            std::vector<Value> items = to_items(in, receiver, loc);
            r = sequence_method(c, id, items, &handled);
            if (handled) return r;
            break;
        }
        default: break;
        }
    }
    runtime_error(loc, no_method_message(in, receiver, name));
}

} // namespace spl
