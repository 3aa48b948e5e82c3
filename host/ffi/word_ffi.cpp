// word_ffi.cpp — the real Simple runtime's native-call built-ins (word_ffi.h):
// their table, their checks and messages (those of wsffi.rs), and the call switch.
#include "ffi/word_ffi.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "base/diagnostics.h"
#include "resolve/objects.h"

namespace spl {

namespace {

// A pointer as the runtime hands it to Simple: its address in an i64.
int64_t to_word(const void* p) { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)); }
void* from_word(int64_t w) { return reinterpret_cast<void*>(static_cast<uintptr_t>(w)); }

const std::string& text_arg(ArgList& args, int i, SourceLoc loc, const char* message) {
    if (!args[i].is(ObjType::Str)) runtime_error(loc, message);
    return str_of(args[i]);
}

int64_t int_arg(ArgList& args, int i, SourceLoc loc, const char* message) {
    if (!args[i].is_int()) runtime_error(loc, message); // a bool is not an integer here either
    return args[i].as_int();
}

// spl_dlopen(path: text) -> i64. Handles are never closed, as plugins are not.
Value w_dlopen(Interpreter&, ArgList& args, SourceLoc loc) {
    const std::string& path = text_arg(args, 0, loc, "spl_dlopen: path must be a string");
    if (path.find('\0') != std::string::npos) runtime_error(loc, "spl_dlopen: path contains an interior NUL");
    void* handle = ::dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        runtime_error(loc, "spl_dlopen failed for '" + path + "': " + (why ? why : "unknown error"));
    }
    return Value::integer(to_word(handle));
}

// spl_dlsym(handle: i64, name: text) -> i64
Value w_dlsym(Interpreter&, ArgList& args, SourceLoc loc) {
    const int64_t handle = int_arg(args, 0, loc, "spl_dlsym: handle must be an integer");
    if (handle == 0) runtime_error(loc, "spl_dlsym: null provider handle");
    const std::string& name = text_arg(args, 1, loc, "spl_dlsym: name must be a string");
    if (name.find('\0') != std::string::npos) runtime_error(loc, "spl_dlsym: name contains an interior NUL");
    void* symbol = ::dlsym(from_word(handle), name.c_str());
    if (!symbol) runtime_error(loc, "spl_dlsym: unresolved symbol '" + name + "'");
    return Value::integer(to_word(symbol));
}

// The call itself: the pointer called with exactly `nargs` i64 parameters, as
// wsffi.rs does, so that the callee sees the C signature it was compiled with.
// The caller has checked 0 <= nargs <= 8, so `default` is the 8-word case.
int64_t call_words(int64_t fptr, const int64_t* a, int64_t nargs) {
    using W = int64_t;
    const uintptr_t f = static_cast<uintptr_t>(fptr);
    switch (nargs) {
    case 0: return reinterpret_cast<W (*)()>(f)();
    case 1: return reinterpret_cast<W (*)(W)>(f)(a[0]);
    case 2: return reinterpret_cast<W (*)(W, W)>(f)(a[0], a[1]);
    case 3: return reinterpret_cast<W (*)(W, W, W)>(f)(a[0], a[1], a[2]);
    case 4: return reinterpret_cast<W (*)(W, W, W, W)>(f)(a[0], a[1], a[2], a[3]);
    case 5: return reinterpret_cast<W (*)(W, W, W, W, W)>(f)(a[0], a[1], a[2], a[3], a[4]);
    case 6: return reinterpret_cast<W (*)(W, W, W, W, W, W)>(f)(a[0], a[1], a[2], a[3], a[4], a[5]);
    case 7: return reinterpret_cast<W (*)(W, W, W, W, W, W, W)>(f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    default: return reinterpret_cast<W (*)(W, W, W, W, W, W, W, W)>(f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    }
}

// spl_wffi_call_i64(fptr: i64, args: [i64], nargs: i64) -> i64, checked in
// wsffi.rs's order so that the same mistake gets the same message.
Value w_wffi_call_i64(Interpreter&, ArgList& args, SourceLoc loc) {
    const int64_t fptr = int_arg(args, 0, loc, "spl_wffi_call_i64: fptr must be an integer");
    if (fptr == 0) runtime_error(loc, "spl_wffi_call_i64: null function pointer");
    if (!args[1].is(ObjType::Array)) runtime_error(loc, "spl_wffi_call_i64: args must be an array");
    const std::vector<Value>& supplied = args[1].as<ArrayObj>()->items;
    const int64_t nargs = int_arg(args, 2, loc, "spl_wffi_call_i64: nargs must be an integer");
    if (nargs < 0) runtime_error(loc, "spl_wffi_call_i64: nargs must be non-negative");
    if (nargs > 8) runtime_error(loc, "spl_wffi_call_i64: max 8 arguments supported");
    if (static_cast<size_t>(nargs) > supplied.size())
        runtime_error(loc, "spl_wffi_call_i64: nargs exceeds supplied argument array");
    int64_t words[8] = {};
    for (int64_t i = 0; i < nargs; ++i) { // only the words passed are looked at, as in wsffi.rs
        const Value& v = supplied[static_cast<size_t>(i)];
        if (!v.is_int()) runtime_error(loc, "spl_wffi_call_i64: args must be integers");
        words[i] = v.as_int();
    }
    return Value::integer(call_words(fptr, words, nargs));
}

// spl_f64_to_bits(x: f64) -> i64; an i64 is widened first, as wsffi.rs does.
Value w_f64_to_bits(Interpreter&, ArgList& args, SourceLoc loc) {
    if (!args[0].is_number()) runtime_error(loc, "spl_f64_to_bits: argument must be a number");
    const double x = args[0].to_double();
    int64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return Value::integer(bits);
}

// spl_bits_to_f64(bits: i64) -> f64
Value w_bits_to_f64(Interpreter&, ArgList& args, SourceLoc loc) {
    const int64_t bits = int_arg(args, 0, loc, "spl_bits_to_f64: argument must be an integer");
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return Value::number(x);
}

// spl_str_ptr(s: text) -> i64. The real runtime leaks a fresh C string per
// call so that the pointer outlives any callee; interning gives the same
// lifetime (the rest of the process) without a loop that passes the same
// names growing memory. Set nodes never move, so the pointers stay valid.
Value w_str_ptr(Interpreter&, ArgList& args, SourceLoc loc) {
    static std::unordered_set<std::string> interned;
    const std::string& s = text_arg(args, 0, loc, "spl_str_ptr: argument must be a string");
    if (s.find('\0') != std::string::npos) return Value::integer(0); // no C string can hold it: wsffi.rs gives 0
    return Value::integer(to_word(interned.insert(s).first->c_str()));
}

// rt_cstring_to_text(p: i64) -> text: a copy of the NUL-terminated string at p.
Value w_cstring_to_text(Interpreter&, ArgList& args, SourceLoc loc) {
    const int64_t p = int_arg(args, 0, loc, "rt_cstring_to_text: argument must be an integer");
    if (p == 0) return make_str("");
    return make_str(std::string(static_cast<const char*>(from_word(p))));
}

// rt_env_get(name: text) -> text: "" when unset.
Value w_env_get(Interpreter&, ArgList& args, SourceLoc loc) {
    const std::string& name = text_arg(args, 0, loc, "rt_env_get: name must be a string");
    const char* value = name.find('\0') == std::string::npos ? std::getenv(name.c_str()) : nullptr;
    return make_str(value ? value : "");
}

struct WordParam {
    const char* name;
    const char* type; // canonical Simple type text
};

// One built-in: what calls it, and the Simple signature it is declared with.
struct WordBuiltin {
    BuiltinDef def;
    std::vector<WordParam> params;
    const char* result;

    std::string signature() const {
        std::string s = std::string("extern fn ") + def.name + "(";
        for (size_t i = 0; i < params.size(); ++i)
            s += std::string(i ? ", " : "") + params[i].name + ": " + params[i].type;
        return s + ") -> " + result;
    }
};

// The real runtime's built-ins for native calls, nothing more (see word_ffi.h).
const std::vector<WordBuiltin>& word_builtins() {
    static const std::vector<WordBuiltin> table = {
        {{"spl_dlopen", w_dlopen, 1, 1, false}, {{"path", "text"}}, "i64"},
        {{"spl_dlsym", w_dlsym, 2, 2, false}, {{"handle", "i64"}, {"name", "text"}}, "i64"},
        {{"spl_wffi_call_i64", w_wffi_call_i64, 3, 3, false, false, /*native_call=*/true},
         {{"fptr", "i64"}, {"args", "[i64]"}, {"nargs", "i64"}},
         "i64"},
        {{"spl_f64_to_bits", w_f64_to_bits, 1, 1, false}, {{"x", "f64"}}, "i64"},
        {{"spl_bits_to_f64", w_bits_to_f64, 1, 1, false}, {{"bits", "i64"}}, "f64"},
        {{"spl_str_ptr", w_str_ptr, 1, 1, false}, {{"s", "text"}}, "i64"},
        {{"rt_cstring_to_text", w_cstring_to_text, 1, 1, false}, {{"p", "i64"}}, "text"},
        {{"rt_env_get", w_env_get, 1, 1, false}, {{"name", "text"}}, "text"},
    };
    return table;
}

// Why `decl` differs from the built-in; "" when it matches. Parameter names
// are not compared: the runtime binds its built-ins' arguments by position.
std::string word_mismatch(const ast::ExternDecl& decl, const WordBuiltin& w) {
    if (decl.params.size() != w.params.size())
        return "parameter count differs: " + std::to_string(decl.params.size()) + " declared, " +
               std::to_string(w.params.size()) + " in the runtime";
    for (size_t i = 0; i < w.params.size(); ++i) {
        const std::string declared = decl.params[i].type.empty() ? "any" : decl.params[i].type.text;
        if (declared != w.params[i].type)
            return "parameter `" + decl.params[i].name + "` has type " + declared + " here, " + w.params[i].type +
                   " in the runtime";
    }
    if (decl.return_type.text != w.result)
        return "the result type is " + (decl.return_type.empty() ? std::string("(none)") : decl.return_type.text) +
               " here, " + w.result + " in the runtime";
    return "";
}

} // namespace

Value bind_word_extern(const ast::ExternDecl& decl) {
    for (const WordBuiltin& w : word_builtins()) {
        if (decl.name != w.def.name) continue;
        const std::string problem = word_mismatch(decl, w);
        if (!problem.empty()) {
            ProgramError e(ErrorKind::Load,
                           "extern fn `" + decl.name + "` does not match the Simple runtime's built-in", decl.loc);
            e.notes.push_back("declared: " + decl.signature);
            e.notes.push_back("built-in: " + w.signature());
            e.notes.push_back(problem);
            throw e;
        }
        return Value(new BuiltinObj(&w.def));
    }
    throw_error(ErrorKind::Load, decl.loc,
                "extern fn " + decl.name +
                    " is not provided under --simple-runtime-ffi: the real Simple runtime calls native code only "
                    "through its built-ins (spl_dlopen, spl_dlsym, spl_wffi_call_i64, ...)");
}

} // namespace spl
