// builtins.cpp — global functions of the host.
#include "eval/builtins.h"

#include <chrono>
#include <set>
#include <cmath>
#include <cstdlib>
#include <unistd.h>
#include <unordered_map>

#include "eval/interpreter.h"
#include "eval/iterators.h"
#include "eval/methods.h"

namespace spl {

namespace {

Value b_print(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (in.options().shapes_only) return Value(); // `splrun check`: the values need not be formatted
    std::string line;
    for (int i = 0; i < args.count; ++i) {
        if (i) line += ' ';
        line += in.display(args[i], loc);
    }
    line += '\n';
    in.out(line);
    return Value();
}

Value b_str(Interpreter& in, ArgList& args, SourceLoc loc) { return make_str(in.display(args[0], loc)); }
Value b_repr(Interpreter& in, ArgList& args, SourceLoc loc) { return make_str(in.repr(args[0], loc)); }
// format(value, spec = ""): Python's format(); "{v:spec}" with a spec known only at run time.
Value b_format(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (args.count < 2) return make_str(in.display(args[0], loc));
    if (!args[1].is(ObjType::Str)) runtime_error(loc, "format() spec must be text, got " + in.type_name(args[1]));
    if (str_of(args[1]).empty()) return make_str(in.display(args[0], loc));
    FormatSpec spec;
    try {
        spec = parse_format_spec(str_of(args[1]));
    } catch (const FormatError& e) {
        runtime_error(loc, e.what());
    }
    return make_str(in.format_with(args[0], spec, loc));
}

Value b_type_of(Interpreter& in, ArgList& args, SourceLoc) { return make_str(in.type_name(args[0])); }

Value b_len(Interpreter& in, ArgList& args, SourceLoc loc) {
    const Value& v = args[0];
    if (v.is(ObjType::Instance)) {
        Value m = in.find_method(v, "len");
        if (!m.is_nil()) return in.call_method(v, m, {}, loc);
    }
    if (v.is(ObjType::Array)) return Value::integer(static_cast<int64_t>(v.as<ArrayObj>()->items.size()));
    if (v.is(ObjType::Tuple)) return Value::integer(static_cast<int64_t>(v.as<TupleObj>()->items.size()));
    if (v.is(ObjType::Dict)) return Value::integer(static_cast<int64_t>(v.as<DictObj>()->entries.size()));
    if (v.is(ObjType::Range)) return Value::integer(v.as<RangeObj>()->size());
    if (v.is(ObjType::Str)) {
        int64_t n = 0;
        for (char c : str_of(v)) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        return Value::integer(n);
    }
    runtime_error(loc, "len() of " + in.type_name(v));
}

Value b_some(Interpreter& in, ArgList& args, SourceLoc) { return in.make_some(args[0]); }
Value b_ok(Interpreter& in, ArgList& args, SourceLoc) { return in.make_ok(args.count ? args[0] : Value()); }
Value b_err(Interpreter& in, ArgList& args, SourceLoc) { return in.make_err(args[0]); }

Value b_panic(Interpreter& in, ArgList& args, SourceLoc loc) {
    runtime_error(loc, args.count ? in.display(args[0], loc) : std::string("panic"));
}

Value b_assert(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (!in.truthy(args[0], loc))
        runtime_error(loc, args.count > 1 ? "assertion failed: " + in.display(args[1], loc) : "assertion failed");
    return Value();
}

Value b_abs(Interpreter& in, ArgList& args, SourceLoc loc) {
    const Value& v = args[0];
    if (v.is_int()) return Value::integer(v.as_int() < 0 ? -v.as_int() : v.as_int());
    if (v.is_float()) return Value::number(std::fabs(v.as_float()));
    runtime_error(loc, "abs() of " + in.type_name(v));
}

std::vector<Value> collect(Interpreter& in, ArgList& args, SourceLoc loc) {
    std::vector<Value> items;
    if (args.count == 1) {
        in.for_each(args[0], loc, [&](Value v) {
            items.push_back(std::move(v));
            return true;
        });
    } else {
        for (int i = 0; i < args.count; ++i) items.push_back(args[i]);
    }
    return items;
}

Value extreme(Interpreter& in, ArgList& args, SourceLoc loc, bool want_max) {
    std::vector<Value> items = collect(in, args, loc);
    if (items.empty()) runtime_error(loc, std::string(want_max ? "max" : "min") + "() of nothing");
    Value best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
        int c = in.compare(items[i], best, loc);
        if (want_max ? c > 0 : c < 0) best = items[i];
    }
    return best;
}
Value b_min(Interpreter& in, ArgList& args, SourceLoc loc) { return extreme(in, args, loc, false); }
Value b_max(Interpreter& in, ArgList& args, SourceLoc loc) { return extreme(in, args, loc, true); }

Value b_sum(Interpreter& in, ArgList& args, SourceLoc loc) {
    Value total = Value::integer(0);
    for (const Value& v : collect(in, args, loc)) total = in.binary(ast::BinOp::Add, total, v, loc);
    return total;
}

// Python's range(stop), range(start, stop), range(start, stop, step).
Value b_range(Interpreter& in, ArgList& args, SourceLoc loc) {
    for (int i = 0; i < args.count; ++i)
        if (!args[i].is_int()) runtime_error(loc, "range() needs i64 bounds, found " + in.type_name(args[i]));
    int64_t a = args.count == 1 ? 0 : args[0].as_int();
    int64_t b = args.count == 1 ? args[0].as_int() : args[1].as_int();
    int64_t step = args.count == 3 ? args[2].as_int() : 1;
    if (step == 0) runtime_error(loc, "range() arg 3 must not be zero");
    return Value(new RangeObj(a, b, false, step, RangeObj::Form::Call));
}

// list(xs): the items of any iterable as a new array (Python's list(); list() is []).
Value b_list(Interpreter& in, ArgList& args, SourceLoc loc) {
    std::vector<Value> items;
    if (args.count)
        in.for_each(args[0], loc, [&](Value v) {
            items.push_back(std::move(v));
            return true;
        });
    return make_array(std::move(items));
}

// sorted(xs, key: f, reverse: true): Python's sorted(), any iterable's items as a new sorted array;
// the options are the array method's (eval/methods.cpp), which it calls.
Value b_sorted(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (args.has_names() && !(*args.names)[0].empty())
        runtime_error(loc, "sorted() takes the iterable first, found `" + (*args.names)[0] + ":`");
    Value items = b_list(in, args, loc);
    std::vector<std::string> names;
    if (args.has_names()) names.assign(args.names->begin() + 1, args.names->end());
    ArgList options{args.values + 1, args.count - 1, args.has_names() ? &names : nullptr};
    return call_builtin_method(in, items, find_builtin_method("sorted"), "sorted", options, loc);
}

template <double (*F)(double)>
Value math1(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (!args[0].is_number()) runtime_error(loc, "expected a number, found " + in.type_name(args[0]));
    return Value::number(F(args[0].to_double()));
}
double d_sqrt(double x) { return std::sqrt(x); }
double d_exp(double x) { return std::exp(x); }
double d_log(double x) { return std::log(x); }
double d_floor(double x) { return std::floor(x); }
double d_ceil(double x) { return std::ceil(x); }
double d_erf(double x) { return std::erf(x); }

Value b_args(Interpreter& in, ArgList&, SourceLoc) {
    std::vector<Value> out;
    for (const auto& a : in.options().program_args) out.push_back(make_str(a));
    return make_array(std::move(out));
}

// env(name): the environment variable's text, nil when it is unset (Python's os.environ.get).
Value b_env(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (!args[0].is(ObjType::Str))
        runtime_error(loc, "env() takes a variable name (text), got " + in.type_name(args[0]));
    const char* v = std::getenv(str_of(args[0]).c_str());
    return v ? make_str(v) : Value();
}

Value b_live_objects(Interpreter& in, ArgList& args, SourceLoc loc) {
    std::string cls;
    if (args.count) {
        if (!args[0].is(ObjType::Str)) runtime_error(loc, "live_objects() takes a class name");
        cls = str_of(args[0]);
    }
    return Value::integer(in.live_instances(cls));
}

// live_callables(): Simple callables held for plugins now (lent for a call, or kept by a graph
// node or hook): for leak checks, as live_objects.
Value b_live_callables(Interpreter& in, ArgList&, SourceLoc) {
    return Value::integer(in.callbacks ? in.callbacks->live() : 0);
}

// program_location(): "file:line:col" of the statement running in the innermost frame of the
// program's own files (library code skipped), "" when there is none: what lib.torch's anomaly
// mode reports as the place of a forward operation.
Value b_program_location(Interpreter& in, ArgList&, SourceLoc) { return make_str(in.program_location()); }

// tuple(xs): an array's (or tuple's) elements as a tuple, as Python's tuple().
Value b_tuple(Interpreter&, ArgList& args, SourceLoc loc) {
    const Value& v = args[0];
    if (v.is(ObjType::Tuple)) return v;
    if (!v.is(ObjType::Array)) runtime_error(loc, "tuple() takes an array or a tuple");
    return make_tuple(v.as<ArrayObj>()->items);
}

// dir(x): Python's dir(), sorted: a module's exported names; a class's (or an instance's)
// fields, methods and static methods. What scripts/api_coverage.py reads to list lib.torch's
// public names.
Value b_dir(Interpreter& in, ArgList& args, SourceLoc loc) {
    std::set<std::string> names;
    const Value& v = args[0];
    if (v.is(ObjType::Module)) {
        const auto* mod = v.as<ModuleObj>();
        for (const auto& n : mod->global_names)
            if (mod->exports_name(n)) names.insert(n);
    } else if (v.is(ObjType::Class) || v.is(ObjType::Instance)) {
        const ClassObj* cls = v.is(ObjType::Class) ? v.as<ClassObj>() : v.as<InstanceObj>()->cls;
        names.insert(cls->field_names.begin(), cls->field_names.end());
        for (const auto& [n, _] : cls->methods) names.insert(n);
        for (const auto& [n, _] : cls->statics) names.insert(n);
    } else {
        runtime_error(loc, "dir() takes a module, a class or an instance, got " + in.type_name(v));
    }
    std::vector<Value> out;
    for (const auto& n : names) out.push_back(make_str(n));
    return make_array(std::move(out));
}

// fields_of(obj): an instance's fields as [(name, value)] in declaration
// order — what nn's Module reads to find parameters and children, as
// PyTorch's Module walks its __dict__ in assignment order.
Value b_fields_of(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (!args[0].is(ObjType::Instance))
        runtime_error(loc, "fields_of() needs a class or struct instance, got " + in.type_name(args[0]));
    const auto* inst = args[0].as<InstanceObj>();
    std::vector<Value> out;
    out.reserve(inst->cls->field_names.size());
    for (size_t i = 0; i < inst->cls->field_names.size(); ++i)
        out.push_back(make_tuple({make_str(inst->cls->field_names[i]), inst->fields[i]}));
    return make_array(std::move(out));
}

// set_field(obj, name, value): Python's setattr for a declared field (what
// Module.to() uses to replace a parameter with its converted copy).
Value b_set_field(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (!args[0].is(ObjType::Instance))
        runtime_error(loc, "set_field() needs a class or struct instance, got " + in.type_name(args[0]));
    if (!args[1].is(ObjType::Str)) runtime_error(loc, "set_field() takes the field's name as text");
    auto* inst = args[0].as<InstanceObj>();
    int f = inst->cls->field_index(str_of(args[1]));
    if (f < 0) runtime_error(loc, inst->cls->name + " has no field `" + str_of(args[1]) + "`");
    inst->fields[static_cast<size_t>(f)] = args[2];
    return Value();
}

// extern_calls(): how many plugin functions the program has called (what a
// benchmark reports as boundary crossings per step).
Value b_extern_calls(Interpreter& in, ArgList&, SourceLoc) { return Value::integer(in.extern_calls); }

// fast_paths(): false under `splrun --no-fast-paths`, so that a spec of the fast paths (typed
// calls) can say what each mode must do and run in both.
Value b_fast_paths(Interpreter& in, ArgList&, SourceLoc) { return Value::boolean(in.options().fast_paths); }

// stdout_is_terminal(): whether the program's output goes to a terminal (a
// progress bar redraws one line there, and prints plain lines to a file or pipe).
Value b_stdout_is_terminal(Interpreter&, ArgList&, SourceLoc) { return Value::boolean(::isatty(1) == 1); }

// print_inline(text): the text without a newline, flushed at once (a progress
// bar rewrites its line with "\r...").
Value b_print_inline(Interpreter& in, ArgList& args, SourceLoc loc) {
    if (in.options().shapes_only) return Value();
    in.out(in.display(args[0], loc));
    std::fflush(stdout);
    return Value();
}

// time(): seconds since 1970 (Python's time.time()), for wall times in logs;
// hostname() and process_id(): what log file names carry (TensorBoard's).
Value b_time(Interpreter&, ArgList&, SourceLoc) {
    auto now = std::chrono::system_clock::now().time_since_epoch();
    return Value::number(std::chrono::duration<double>(now).count());
}
Value b_hostname(Interpreter&, ArgList&, SourceLoc) {
    char name[256] = {0};
    if (::gethostname(name, sizeof name - 1) != 0) return make_str("localhost");
    return make_str(name);
}
Value b_process_id(Interpreter&, ArgList&, SourceLoc) { return Value::integer(static_cast<int64_t>(::getpid())); }

Value b_clock(Interpreter&, ArgList&, SourceLoc) {
    auto now = std::chrono::steady_clock::now().time_since_epoch();
    return Value::number(std::chrono::duration<double>(now).count());
}

std::vector<BuiltinDef> make_table() {
    std::vector<BuiltinDef> t = {
        {"print", b_print, 0, -1, false},
        {"str", b_str, 1, 1, false},
        {"repr", b_repr, 1, 1, false},
        {"format", b_format, 1, 2, false},
        {"type_of", b_type_of, 1, 1, false},
        {"len", b_len, 1, 1, false},
        {"Some", b_some, 1, 1, false},
        {"Ok", b_ok, 0, 1, false},
        {"Err", b_err, 1, 1, false},
        {"panic", b_panic, 0, 1, false},
        {"error", b_panic, 0, 1, false}, // the same: raise a runtime error with this message
        {"assert", b_assert, 1, 2, false},
        {"abs", b_abs, 1, 1, false, true},
        {"min", b_min, 1, -1, false},
        {"max", b_max, 1, -1, false},
        {"sum", b_sum, 1, -1, false},
        {"range", b_range, 1, 3, false},
        {"list", b_list, 0, 1, false},
        {"iter", b_iter, 1, 1, false},
        {"next", b_next, 1, 2, false},
        {"enumerate", b_enumerate, 1, 2, true},
        {"zip", b_zip, 0, -1, false},
        {"sorted", b_sorted, 1, 3, true},
        {"sqrt", math1<d_sqrt>, 1, 1, false, true},
        {"exp", math1<d_exp>, 1, 1, false, true},
        {"log", math1<d_log>, 1, 1, false, true},
        {"floor", math1<d_floor>, 1, 1, false, true},
        {"ceil", math1<d_ceil>, 1, 1, false, true},
        {"erf", math1<d_erf>, 1, 1, false, true},
        {"fields_of", b_fields_of, 1, 1, false},
        {"dir", b_dir, 1, 1, false},
        {"set_field", b_set_field, 3, 3, false},
        {"extern_calls", b_extern_calls, 0, 0, false},
        {"fast_paths", b_fast_paths, 0, 0, false},
        {"stdout_is_terminal", b_stdout_is_terminal, 0, 0, false},
        {"print_inline", b_print_inline, 1, 1, false},
        {"time", b_time, 0, 0, false},
        {"hostname", b_hostname, 0, 0, false},
        {"process_id", b_process_id, 0, 0, false},
        {"args", b_args, 0, 0, false},
        {"env", b_env, 1, 1, false},
        {"live_objects", b_live_objects, 0, 1, false},
        {"live_callables", b_live_callables, 0, 0, false},
        {"tuple", b_tuple, 1, 1, false},
        {"program_location", b_program_location, 0, 0, false},
        {"clock", b_clock, 0, 0, false},
    };
    add_spec_builtins(t);
    return t;
}

} // namespace

bool builtin_accepts(const BuiltinDef& def, const ArgList& args) {
    if (args.has_names() && !def.named_ok) return false;
    if (args.count < def.min_args || (def.max_args >= 0 && args.count > def.max_args)) return false;
    for (int i = 0; i < args.count && def.numbers_only; ++i)
        if (!args.values[i].is_number()) return false;
    return true;
}

const std::vector<BuiltinDef>& builtin_table() {
    static const std::vector<BuiltinDef> table = make_table();
    return table;
}

int find_builtin(std::string_view name) {
    static const std::unordered_map<std::string_view, int> index = [] {
        std::unordered_map<std::string_view, int> m;
        const auto& t = builtin_table();
        for (size_t i = 0; i < t.size(); ++i) m.emplace(t[i].name, static_cast<int>(i));
        return m;
    }();
    auto it = index.find(name);
    return it == index.end() ? -1 : it->second;
}

const BuiltinNames& builtin_names() {
    struct Tables final : BuiltinNames {
        int function_index(std::string_view name) const override { return find_builtin(name); }
        int method_id(std::string_view name) const override { return find_builtin_method(name); }
    };
    static const Tables tables;
    return tables;
}

} // namespace spl
