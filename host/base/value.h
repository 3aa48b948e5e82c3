// value.h — the runtime value and the reference-counted heap objects.
//
// A Value is 16 bytes: a tag and an immediate (bool, i64, f64) or a pointer
// to an Obj. Objects are reference counted intrusively (non-atomic: the
// interpreter is single-threaded), so the moment the last Value referring
// to an object goes away the object is released — for an instance of a
// class with `fn drop()`, that is when `drop` runs. There is no tracing
// collector: reference cycles leak, as in any refcounted runtime.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace spl {

enum class ObjType : uint8_t {
    Str,
    Array,
    Tuple,
    Dict,
    Range,
    Slice,
    Cell,
    Instance,
    Variant,
    Function,
    BoundMethod,
    Builtin,
    Extern,
    Class,
    Enum,
    VariantCtor,
    Module,
    Expectation,
    Overloads,
    Trait,
    Ellipsis,
    Iterator, // eval/iterators.h: iter(), enumerate(), zip()
};

class Obj {
public:
    explicit Obj(ObjType t) : type(t) {}
    Obj(const Obj&) = delete;
    Obj& operator=(const Obj&) = delete;
    virtual ~Obj() = default;

    // Runs when the reference count reaches zero. Instances override it to
    // call their class's `drop` method before they are freed.
    virtual void release() { delete this; }

    const ObjType type;
    uint32_t refs = 0;
};

class Value {
public:
    enum class Tag : uint8_t { Nil, Bool, Int, Float, Obj };

    Value() noexcept : tag_(Tag::Nil) { u_.i = 0; }
    explicit Value(Obj* o) noexcept : tag_(Tag::Obj) {
        u_.o = o;
        ++o->refs;
    }
    static Value boolean(bool b) noexcept {
        Value v;
        v.tag_ = Tag::Bool;
        v.u_.b = b;
        return v;
    }
    static Value integer(int64_t i) noexcept {
        Value v;
        v.tag_ = Tag::Int;
        v.u_.i = i;
        return v;
    }
    static Value number(double f) noexcept {
        Value v;
        v.tag_ = Tag::Float;
        v.u_.f = f;
        return v;
    }

    Value(const Value& o) noexcept : tag_(o.tag_), u_(o.u_) {
        if (tag_ == Tag::Obj) ++u_.o->refs;
    }
    Value(Value&& o) noexcept : tag_(o.tag_), u_(o.u_) { o.tag_ = Tag::Nil; }
    // The new value is stored before the old one is released: releasing may
    // run a `drop` method, which must see a consistent state.
    Value& operator=(const Value& o) noexcept {
        Value tmp(o);
        swap(tmp);
        return *this;
    }
    Value& operator=(Value&& o) noexcept {
        Value tmp(std::move(o));
        swap(tmp);
        return *this;
    }
    ~Value() {
        if (tag_ == Tag::Obj && --u_.o->refs == 0) u_.o->release();
    }
    void swap(Value& o) noexcept {
        std::swap(tag_, o.tag_);
        std::swap(u_, o.u_);
    }
    void reset() noexcept { Value().swap(*this); }

    Tag tag() const { return tag_; }
    bool is_nil() const { return tag_ == Tag::Nil; }
    bool is_bool() const { return tag_ == Tag::Bool; }
    bool is_int() const { return tag_ == Tag::Int; }
    bool is_float() const { return tag_ == Tag::Float; }
    bool is_number() const { return tag_ == Tag::Int || tag_ == Tag::Float; }
    bool is_obj() const { return tag_ == Tag::Obj; }
    bool is(ObjType t) const { return tag_ == Tag::Obj && u_.o->type == t; }

    bool as_bool() const { return u_.b; }
    int64_t as_int() const { return u_.i; }
    double as_float() const { return u_.f; }
    double to_double() const { return tag_ == Tag::Int ? double(u_.i) : u_.f; }
    Obj* obj() const { return u_.o; }
    template <class T>
    T* as() const {
        return static_cast<T*>(u_.o);
    }

private:
    Tag tag_;
    union {
        bool b;
        int64_t i;
        double f;
        Obj* o;
    } u_;
};

// ------------------------------------------------------------ plain objects

struct StrObj : Obj {
    explicit StrObj(std::string s) : Obj(ObjType::Str), str(std::move(s)) {}
    const std::string str;
};

struct ArrayObj : Obj {
    ArrayObj() : Obj(ObjType::Array) {}
    explicit ArrayObj(std::vector<Value> v) : Obj(ObjType::Array), items(std::move(v)) {}
    std::vector<Value> items;
};

struct TupleObj : Obj {
    explicit TupleObj(std::vector<Value> v) : Obj(ObjType::Tuple), items(std::move(v)) {}
    const std::vector<Value> items;
};

struct ValueHash {
    size_t operator()(const Value& v) const;
};
struct ValueKeyEq {
    bool operator()(const Value& a, const Value& b) const;
};

// Insertion-ordered dictionary. Keys: nil, bool, numbers, text, tuples of those.
struct DictObj : Obj {
    DictObj() : Obj(ObjType::Dict) {}
    const Value* find(const Value& key) const;
    void set(const Value& key, Value value);
    bool remove(const Value& key);
    std::vector<std::pair<Value, Value>> entries;
    std::unordered_map<Value, size_t, ValueHash, ValueKeyEq> index;
};

// `start..end`, `start..=end`, either `.step_by(n)`, or Python's `range(start, stop, step)`:
// the integers start, start + step, ... before the bound, iterated lazily. `end` is the bound as
// written (reached by `..=`); `form` is only how the range prints (eval/ranges.h).
struct RangeObj : Obj {
    enum class Form : uint8_t { Dots, Call }; // `a..b` / `a..=b` (with any `.step_by(n)`), or `range(a, b, n)`
    RangeObj(int64_t s, int64_t e, bool incl, int64_t st = 1, Form f = Form::Dots)
        : Obj(ObjType::Range), start(s), end(e), step(st), inclusive(incl), form(f) {}
    // The exclusive bound, Python's `stop` (one step of 1 past `end` for `..=`).
    int64_t stop() const { return inclusive ? end + (step > 0 ? 1 : -1) : end; }
    // How many integers it holds: Python's len(range(...)).
    int64_t size() const {
        const int64_t bound = stop();
        if (step > 0 ? start >= bound : start <= bound) return 0;
        // The distance as unsigned: it may not fit an int64 (i64::MIN..i64::MAX).
        uint64_t distance = step > 0 ? static_cast<uint64_t>(bound) - static_cast<uint64_t>(start)
                                     : static_cast<uint64_t>(start) - static_cast<uint64_t>(bound);
        uint64_t stride = step > 0 ? static_cast<uint64_t>(step) : 0 - static_cast<uint64_t>(step);
        return static_cast<int64_t>((distance - 1) / stride + 1);
    }
    // The i-th integer, 0 <= i < size() (wrapping as i64 arithmetic does).
    int64_t at(int64_t i) const {
        return static_cast<int64_t>(static_cast<uint64_t>(start) +
                                    static_cast<uint64_t>(i) * static_cast<uint64_t>(step));
    }
    bool contains(int64_t v) const {
        if (step > 0 ? (v < start || v >= stop()) : (v > start || v <= stop())) return false;
        uint64_t offset = step > 0 ? static_cast<uint64_t>(v) - static_cast<uint64_t>(start)
                                   : static_cast<uint64_t>(start) - static_cast<uint64_t>(v);
        uint64_t stride = step > 0 ? static_cast<uint64_t>(step) : 0 - static_cast<uint64_t>(step);
        return offset % stride == 0;
    }
    const int64_t start, end;
    const int64_t step; // never 0
    const bool inclusive;
    const Form form;
};

// The key of `a[start:stop:step]`; missing parts are nil.
struct SliceObj : Obj {
    SliceObj(Value a, Value b, Value c)
        : Obj(ObjType::Slice), start(std::move(a)), stop(std::move(b)), step(std::move(c)) {}
    const Value start, stop, step;
};

// `...` in an index (`x[..., 0]`): Python's Ellipsis, one object for the whole program.
struct EllipsisObj : Obj {
    EllipsisObj() : Obj(ObjType::Ellipsis) {}
};
const Value& ellipsis_value();

// A variable captured by a closure: the frame slot and the closure share it.
struct CellObj : Obj {
    explicit CellObj(Value v) : Obj(ObjType::Cell), value(std::move(v)) {}
    Value value;
};

// ---------------------------------------------------------------- helpers

inline Value make_str(std::string s) { return Value(new StrObj(std::move(s))); }
inline Value make_array(std::vector<Value> v = {}) { return Value(new ArrayObj(std::move(v))); }
inline Value make_tuple(std::vector<Value> v) { return Value(new TupleObj(std::move(v))); }
inline const std::string& str_of(const Value& v) { return v.as<StrObj>()->str; }

// Shortest text that reads back as the same f64 ("1.0", "0.1", "1e+20", "inf").
std::string format_float(double f);

// Structural equality of built-in values (numbers compare across i64/f64).
// Instances and variants are handled by the interpreter; here they compare
// by identity.
bool values_equal_builtin(const Value& a, const Value& b);

} // namespace spl
