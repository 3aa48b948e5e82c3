// objects.h — the heap objects that carry behaviour: functions, classes and
// their instances, enums and variants, modules (an extern's: ffi/extern_call.h).
// The resolver binds a module's names to its globals here, so the object model
// sits in resolve/, below the plugin calls and the interpreter that use it.
#pragma once

#include <memory>
#include <new>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "syntax/ast.h"
#include "base/source.h"
#include "base/value.h"

namespace spl {

class Interpreter;
struct InstanceObj;

// Arguments of one call: `count` values, and their names when any argument
// was named (names[i] == "" for a positional one).
struct ArgList {
    Value* values;
    int count;
    const std::vector<std::string>* names = nullptr;
    Value& operator[](int i) { return values[i]; }
    bool has_names() const { return names != nullptr; }
};

// A function with a body: top-level fn, method or closure.
struct FunctionObj : Obj {
    FunctionObj(const ast::FnProto* p, const Obj* owner) : Obj(ObjType::Function), proto(p), owner(owner) {}
    const ast::FnProto* proto;
    const Obj* owner;            // the ClassObj/EnumObj of a method, else null
    std::vector<Value> upvalues; // CellObj values captured from enclosing functions
};

// Functions declared under one name in one scope — a module's top level, or
// a class body with every `impl` block for the class — in declaration order.
// A call runs the first one that accepts its arguments (overloads.h).
struct OverloadSetObj : Obj {
    explicit OverloadSetObj(std::string n) : Obj(ObjType::Overloads), name(std::move(n)) {}
    const std::string name; // "max", "Tensor.add": for messages
    std::vector<Value> fns; // FunctionObj
};

// Declares `fn` under the name whose value `slot` holds: the first
// declaration is stored as it is (a name declared once stays a plain
// function); the second turns the slot into an overload set.
inline void add_overload(Value& slot, Value fn, const std::string& qualified_name) {
    if (slot.is_nil()) {
        slot = std::move(fn);
        return;
    }
    if (!slot.is(ObjType::Overloads)) {
        auto* set = new OverloadSetObj(qualified_name);
        Value v(set);
        set->fns.push_back(slot);
        slot = std::move(v);
    }
    slot.as<OverloadSetObj>()->fns.push_back(std::move(fn));
}

// `obj.method` taken as a value.
struct BoundMethodObj : Obj {
    BoundMethodObj(Value s, Value m) : Obj(ObjType::BoundMethod), self(std::move(s)), method(std::move(m)) {}
    const Value self;
    const Value method;
};

// A function of the host itself (print, len, describe, ...).
using BuiltinFn = Value (*)(Interpreter&, ArgList&, SourceLoc);
struct BuiltinDef {
    const char* name;
    BuiltinFn fn;
    int min_args;
    int max_args;              // -1: any number
    bool named_ok;             // accepts named arguments (the function checks them)
    bool numbers_only = false; // every argument must be an i64 or f64 (abs, sqrt, ...)
    bool native_call = false;  // a call into native code, which `extern_calls()` counts (the word FFI's)
};

struct BuiltinObj : Obj {
    explicit BuiltinObj(const BuiltinDef* d) : Obj(ObjType::Builtin), def(d) {}
    const BuiltinDef* def;
};

// Runs `drop` methods. Implemented by the interpreter; classes point at it so
// that an instance can be finalised from wherever its last reference dies.
class DropRunner {
public:
    virtual void run_drop(InstanceObj* instance) = 0;

protected:
    ~DropRunner() = default;
};

// Methods the interpreter calls on its own: operators, indexing, to_string.
// Kept in a per-class array so that `a + b` on objects costs no name lookup.
enum class Op : uint8_t {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    MatMul,
    RAdd,
    RSub,
    RMul,
    RDiv,
    RMod,
    RPow,
    RMatMul,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Neg,
    GetItem,
    SetItem,
    ToString,
    Iter,
    Next,
    Count
};
const char* op_method_name(Op op);
// Python's name for an operator's method (`__add__`, `__truediv__`, `__radd__`, `__eq__`, `__neg__`),
// which a class may define instead of (or beside) `add` etc.: it wins over that name. Null for the
// other hooks (get_item, to_string, ...), which have one name each.
const char* op_dunder_name(Op op);

struct ClassObj : Obj {
    ClassObj(std::string n, const ast::ClassDecl* d, DropRunner* r)
        : Obj(ObjType::Class), name(std::move(n)), decl(d), dropper(r) {}
    int field_index(const std::string& field) const {
        auto it = field_slots.find(field);
        return it == field_slots.end() ? -1 : it->second;
    }
    // A name declared again (in the body or an `impl` block) adds an overload.
    void add_method(const std::string& n, Value fn, bool is_static) {
        Value& slot = (is_static ? statics : methods)[n];
        if (!slot.is_nil()) ++epoch; // call sites that cached the old entry look it up again
        if (fn.is(ObjType::Function)) {
            const ast::FnProto* p = fn.as<FunctionObj>()->proto;
            if (p->is_property) properties.insert(n);
            if (!p->setter_of.empty()) setters[p->setter_of] = fn;
        }
        add_overload(slot, std::move(fn), name + "." + n);
        if (is_static) {
            if (n == "new") ctor = slot;
            return;
        }
        if (n == "drop") drop = slot;
        if (n == "get_attr") get_attr = slot;
        if (n == "set_attr") set_attr = slot;
        const bool dunder = n.size() > 4 && n.compare(0, 2, "__") == 0;
        for (size_t i = 0; i < static_cast<size_t>(Op::Count); ++i) {
            const Op o = static_cast<Op>(i);
            const uint32_t bit = uint32_t(1) << i;
            if (dunder) {
                const char* python_name = op_dunder_name(o);
                if (python_name && n == python_name) {
                    ops[i] = slot;
                    dunder_ops |= bit;
                }
            } else if (n == op_method_name(o) && !(dunder_ops & bit)) {
                ops[i] = slot; // `add` serves `+` only while the class has no `__add__`
            }
        }
    }
    const Value& op(Op o) const { return ops[static_cast<size_t>(o)]; }
    bool implements(const Obj* trait) const {
        for (const Obj* t : traits)
            if (t == trait) return true;
        return false;
    }

    const std::string name;
    const ast::ClassDecl* decl;
    DropRunner* dropper;
    std::vector<std::string> field_names;
    std::unordered_map<std::string, int> field_slots;
    std::vector<const Obj*> traits;                 // TraitObjs named by `impl Trait for` this class
    Value ctor;                                     // `static fn new`, which `C(args)` calls (nil: none)
    std::unordered_map<std::string, Value> methods; // FunctionObj or OverloadSetObj, called with self
    std::unordered_map<std::string, Value> statics; // FunctionObj or OverloadSetObj, called without self
    std::unordered_set<std::string> properties;     // `@property` methods: `obj.name` calls them
    std::unordered_map<std::string, Value> setters; // `@name.setter` methods: `obj.name = v` calls them
    Value drop;                                     // the `drop` method, nil when the class has none
    Value get_attr;                                 // `get_attr(name)`: names the class lacks, read (eval/attr_hooks.h)
    Value set_attr;                                 // `set_attr(name, value)`: names the class lacks, assigned
    Value ops[static_cast<size_t>(Op::Count)];      // operator methods, nil when absent
    uint32_t dunder_ops = 0;                        // bit i: ops[i] is the Python-named method (`__add__`)
    uint32_t epoch = 0;                             // bumped when an existing method name gets another overload
    int64_t live = 0;                               // instances alive now
    // Memory of freed instances, reused by the next ones: a loop that makes a Tensor and drops
    // the last one reuses one block instead of a malloc and a free each time. Bounded, so that
    // a burst of instances gives its memory back.
    std::vector<void*> spare;
    static constexpr size_t kMaxSpare = 64;
    ~ClassObj() override {
        for (void* p : spare) ::operator delete(p);
    }
};

// The fields of an instance: a fixed-size array stored right after the
// InstanceObj itself, so that creating an instance is one allocation.
class FieldArray {
public:
    FieldArray(Value* data, size_t n) : data_(data), n_(n) {}
    Value& operator[](size_t i) { return data_[i]; }
    const Value& operator[](size_t i) const { return data_[i]; }
    size_t size() const { return n_; }
    Value* begin() { return data_; }
    Value* end() { return data_ + n_; }
    const Value* begin() const { return data_; }
    const Value* end() const { return data_ + n_; }

private:
    Value* data_;
    size_t n_;
};

struct InstanceObj final : Obj {
    // A new instance of `c` with every field nil (one allocation).
    static InstanceObj* create(ClassObj* c) {
        const size_t n = c->field_names.size();
        void* mem;
        if (!c->spare.empty()) {
            mem = c->spare.back();
            c->spare.pop_back();
        } else {
            mem = ::operator new(sizeof(InstanceObj) + n * sizeof(Value));
        }
        return new (mem) InstanceObj(c, n);
    }
    ~InstanceObj() override {
        for (Value& f : fields) f.~Value(); // first to last, as a vector would
        --cls->live;
    }
    static void operator delete(void* p) { ::operator delete(p); }
    // The last reference is gone: run `drop` first (once), then free (or keep for reuse).
    void release() override {
        if (dropped || cls->drop.is_nil()) {
            ClassObj* c = cls;
            this->~InstanceObj();
            if (c->spare.size() < ClassObj::kMaxSpare)
                c->spare.push_back(this);
            else
                ::operator delete(this);
            return;
        }
        dropped = true;
        cls->dropper->run_drop(this); // holds a reference; when it ends, release() runs again
    }
    ClassObj* cls; // classes live until the interpreter ends, after every instance
    FieldArray fields;
    bool dropped = false;

private:
    InstanceObj(ClassObj* c, size_t n) : Obj(ObjType::Instance), cls(c), fields(reinterpret_cast<Value*>(this + 1), n) {
        for (Value& f : fields) new (&f) Value();
        ++c->live;
    }
};
static_assert(sizeof(InstanceObj) % alignof(Value) == 0, "fields follow the object, aligned");

struct VariantInfo {
    std::string name;
    std::vector<std::string> field_names; // "" for positional payload slots
    size_t arity() const { return field_names.size(); }
};

// A trait: its default methods, which `impl Trait for C` gives to C where C
// does not define them, and the names of the methods it requires.
struct TraitObj : Obj {
    TraitObj(std::string n, const ast::TraitDecl* d) : Obj(ObjType::Trait), name(std::move(n)), decl(d) {}
    const std::string name;
    const ast::TraitDecl* decl;
};

// A user enum, or one of the built-in Option / Result.
struct EnumObj : Obj {
    explicit EnumObj(std::string n) : Obj(ObjType::Enum), name(std::move(n)) {}
    int variant_index(const std::string& v) const {
        for (size_t i = 0; i < variants.size(); ++i)
            if (variants[i].name == v) return static_cast<int>(i);
        return -1;
    }
    const std::string name;
    std::vector<VariantInfo> variants;
    void add_method(const std::string& n, Value fn, bool is_static) {
        add_overload((is_static ? statics : methods)[n], std::move(fn), name + "." + n);
    }
    std::vector<Value> unit_values;                 // the shared value of each payload-less variant (nil otherwise)
    std::vector<Value> constructors;                // VariantCtorObj of each variant with a payload
    std::unordered_map<std::string, Value> methods; // FunctionObj or OverloadSetObj
    std::unordered_map<std::string, Value> statics;
};

struct VariantObj : Obj {
    VariantObj(EnumObj* e, uint32_t i, std::vector<Value> p)
        : Obj(ObjType::Variant), type(e), index(i), payload(std::move(p)) {}
    const std::string& name() const { return type->variants[index].name; }
    EnumObj* type; // enums live until the interpreter ends
    const uint32_t index;
    const std::vector<Value> payload;
};

// `Device.CUDA` before it is applied to its payload.
struct VariantCtorObj : Obj {
    VariantCtorObj(EnumObj* e, uint32_t i) : Obj(ObjType::VariantCtor), type(e), index(i) {}
    EnumObj* type;
    const uint32_t index;
};

struct ModuleObj : Obj {
    ModuleObj(std::string n, std::string p) : Obj(ObjType::Module), name(std::move(n)), path(std::move(p)) {}
    int find_global(const std::string& n) const {
        auto it = global_index.find(n);
        return it == global_index.end() ? -1 : it->second;
    }
    bool exports_name(const std::string& n) const {
        return has_export_list ? exports.count(n) > 0 : own_names.count(n) > 0;
    }
    // The module's `fn __getattr__(name: text)` (Python's PEP 562), which answers a name it does not
    // export, in `M.NAME` and in `use M.{NAME}`; null when it defines none (or is not loaded yet).
    const Value* getattr_hook() const {
        int g = find_global("__getattr__");
        if (g < 0 || globals[static_cast<size_t>(g)].is_nil()) return nullptr;
        return &globals[static_cast<size_t>(g)];
    }
    // Empties the global slots, last first: data (whose `drop` methods may
    // still call this module's functions and externs), then with `code` also
    // the functions, classes, enums and externs themselves.
    void clear_globals(bool code) {
        for (size_t i = globals.size(); i-- > 0;) {
            const Value& v = globals[i];
            bool is_code = v.is(ObjType::Function) || v.is(ObjType::Class) || v.is(ObjType::Enum) ||
                           v.is(ObjType::Extern) || v.is(ObjType::Builtin) || v.is(ObjType::Module) ||
                           v.is(ObjType::VariantCtor) || v.is(ObjType::Overloads);
            if (code || !is_code) globals[i].reset();
        }
    }
    ~ModuleObj() override {
        clear_globals(false);
        clear_globals(true);
    }

    const std::string name; // dotted ("lib.torch.nn") or the file path for a main program
    const std::string path;
    std::unique_ptr<ast::Module> ast;
    // Sized once by the resolver and never resized: AST nodes point into it.
    std::vector<Value> globals;
    std::vector<std::string> global_names;
    std::unordered_map<std::string, int> global_index;
    std::unordered_set<std::string> own_names; // defined here (not imported)
    std::unordered_set<std::string> exports;
    bool has_export_list = false;
    bool loading = true;
};

// What one `expect(x)` call left: where it was and whether a matcher consumed it. `expect(x)`
// and its `.not` share it, and the spec runner holds it too, to fail an example that leaves
// an `expect(...)` without a matcher (which would otherwise check nothing).
struct ExpectCall {
    SourceLoc loc;
    bool matched = false;
};

// `expect(x)` in a spec, with `.not` flipping it.
struct ExpectationObj : Obj {
    ExpectationObj(Value v, bool neg, std::shared_ptr<ExpectCall> c)
        : Obj(ObjType::Expectation), actual(std::move(v)), negated(neg), call(std::move(c)) {}
    const Value actual;
    const bool negated;
    const std::shared_ptr<ExpectCall> call;
};

} // namespace spl
