// The interpreter object: module execution, frames, drop, and the program and spec entry points.
#include "eval/interpreter.h"
#include "eval/one_call_body.h"

#include <cstdio>

#include "eval/builtins.h"
#include "ffi/extern_call.h"
#include "eval/module_loader.h"
#include "ffi/plugin_loader.h"
#include "eval/sspec.h"
#include "eval/stack_limit.h"
#include "ffi/word_ffi.h"

namespace spl {

namespace {
constexpr size_t kStackSlots = size_t(1) << 18; // 4 MiB of Values
} // namespace

Interpreter::Interpreter(HostOptions options)
    : options_(std::move(options)), host_callbacks_(HostCallbacks::create(*this)),
      plugins_(std::make_unique<PluginLoader>(options_.plugin_dirs, host_callbacks_.table())),
      modules_(std::make_unique<ModuleLoader>(*this, options_.lib_roots)), spec_(std::make_unique<SpecRunner>(*this)),
      stack_(new Value[kStackSlots]), stack_size_(kStackSlots), stack_floor_(call_stack_floor()) {
    callbacks = &host_callbacks_;
    for (const BuiltinDef& def : builtin_table()) builtins_.emplace_back(new BuiltinObj(&def));

    auto make_enum = [&](const char* name, std::vector<VariantInfo> variants) {
        auto* e = new EnumObj(name);
        types_.emplace_back(e);
        e->variants = std::move(variants);
        for (uint32_t i = 0; i < e->variants.size(); ++i) {
            e->unit_values.emplace_back();
            e->constructors.emplace_back(new VariantCtorObj(e, i));
        }
        return e;
    };
    option_ = make_enum("Option", {{"Some", {"value"}}});
    result_ = make_enum("Result", {{"Ok", {"value"}}, {"Err", {"error"}}});
}

Interpreter::~Interpreter() {
    host_callbacks_.shut_down(); // the callables plugins still hold, while their drops can run
    // Objects first (their drop methods may still run Simple code), then the
    // classes, then the syntax trees they point into.
    modules_->release_all();
    types_.clear();
    builtins_.clear();
    modules_.reset();
}

std::string Interpreter::program_location() const {
    for (const CallFrame* f = frame_; f; f = f->caller)
        if (f->stmt && f->stmt->loc.file && !f->stmt->loc.file->is_library()) return f->stmt->loc.str();
    return "";
}

Value Interpreter::make_some(Value v) { return Value(new VariantObj(option_, 0, {std::move(v)})); }
Value Interpreter::make_ok(Value v) { return Value(new VariantObj(result_, 0, {std::move(v)})); }
Value Interpreter::make_err(Value v) { return Value(new VariantObj(result_, 1, {std::move(v)})); }

void Interpreter::out(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

void Interpreter::report_error(const ProgramError& e) {
    std::fflush(stdout);
    std::string text = format_error(e);
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

int64_t Interpreter::live_instances(const std::string& class_name) const {
    int64_t n = 0;
    for (const Value& t : types_)
        if (t.is(ObjType::Class) && (class_name.empty() || t.as<ClassObj>()->name == class_name))
            n += t.as<ClassObj>()->live;
    return n;
}

// ---------------------------------------------------------------- stack

Value* Interpreter::push_slots(uint32_t n) {
    if (sp_ + n > stack_size_) runtime_error(SourceLoc{}, "stack overflow: the value stack is full");
    Value* base = &stack_[sp_];
    sp_ += n;
    return base;
}

void Interpreter::pop_slots(Value* base, uint32_t n) {
    // Reverse order: the last declared local is dropped first.
    for (uint32_t i = n; i-- > 0;) base[i].reset();
    sp_ = static_cast<size_t>(base - stack_.get());
}

FrameScope::FrameScope(Interpreter& in, CallFrame* frame, SourceLoc loc) : in_(in), saved_(in.frame_) {
    if (in.depth_ >= in.options_.max_depth || stack_below(in.stack_floor_)) refuse(in, loc);
    ++in.depth_;
    frame->caller = saved_;
    in.frame_ = frame;
}

// Out of line, so that building the message costs the constructor nothing on every call.
void FrameScope::refuse(const Interpreter& in, SourceLoc loc) {
    if (in.depth_ >= in.options_.max_depth)
        runtime_error(loc, "stack overflow: more than " + std::to_string(in.options_.max_depth) + " nested calls");
    runtime_error(loc, "stack overflow: " + std::to_string(in.depth_) +
                           " nested calls have used up the interpreter's stack");
}

Value Interpreter::eval_detached(const ast::Expr& e, uint32_t nslots) {
    StackWindow win(*this, nslots);
    CallFrame frame{win.slots(), nullptr, nullptr, {}};
    FrameScope scope(*this, &frame, e.loc);
    return eval(e);
}

// ---------------------------------------------------------------- modules

void Interpreter::create_extern(const ast::ExternDecl& d) {
    if (options_.simple_runtime_ffi) {
        *d.global = bind_word_extern(d);
        return;
    }
    const OpenedPlugin* plugin = nullptr;
    const SplFunction* fn = plugins_->bind(d, &plugin);
    auto* ex = new ExternObj(&d, fn);
    Value v(ex);
    prepare_extern(*ex, options_.fast_paths ? plugin->errors : PluginErrors{});
    for (const ast::Param& p : d.params) {
        ex->has_default.push_back(p.default_value != nullptr);
        ex->defaults.push_back(p.default_value ? eval_detached(*p.default_value, d.default_slots) : Value());
    }
    *d.global = std::move(v);
}

// Runs a resolved module: imports and declarations first (so that functions
// and classes can be used before the line that defines them), then the
// top-level statements in order.
void Interpreter::execute_module(ModuleObj& m) {
    ast::FnProto& init = m.ast->init;
    StackWindow win(*this, init.nslots);
    CallFrame frame{win.slots(), nullptr, &init, {}};
    FrameScope scope(*this, &frame, init.loc);
    const auto& stmts = init.body.stmts;
    for (const auto& s : stmts) {
        if (s->kind != ast::StmtKind::Use) continue;
        for (const auto& b : static_cast<const ast::Use&>(*s).bindings)
            if (b.global)
                *b.global = b.from_getattr       ? b.value
                            : b.source_index < 0 ? Value(b.source)
                                                 : b.source->globals[static_cast<size_t>(b.source_index)];
    }
    for (const auto& s : stmts) {
        switch (s->kind) {
        case ast::StmtKind::Fn: {
            // A name declared more than once becomes an overload set, in declaration order.
            const auto& d = static_cast<const ast::FnDecl&>(*s);
            add_overload(*d.global, make_function(*d.proto, nullptr), d.proto->name);
            break;
        }
        case ast::StmtKind::Class: create_class(static_cast<const ast::ClassDecl&>(*s), m); break;
        case ast::StmtKind::Enum: create_enum(static_cast<const ast::EnumDecl&>(*s), m); break;
        case ast::StmtKind::Trait: create_trait(static_cast<const ast::TraitDecl&>(*s)); break;
        default: break;
        }
    }
    for (const auto& s : stmts)
        if (s->kind == ast::StmtKind::Impl) apply_impl(static_cast<const ast::ImplDecl&>(*s));
    for (const auto& s : stmts)
        if (s->kind == ast::StmtKind::Extern) create_extern(static_cast<const ast::ExternDecl&>(*s));
    exec_block(init.body);
}

void Interpreter::report_drop_error(ProgramError& e, const InstanceObj& instance) {
    ++drop_errors_;
    if (!e.trace.empty()) e.trace.pop_back(); // drop was not called from anywhere in the program
    e.notes.push_back("while running `drop` of a " + instance.cls->name);
    report_error(e);
}

void Interpreter::run_drop(InstanceObj* instance) {
    Value self(instance); // the object lives again while drop runs
    try {
        const Value& drop = instance->cls->drop;
        ArgList args{nullptr, 0};
        if (drop.is(ObjType::Function)) {
            const FunctionObj* fn = drop.as<FunctionObj>();
            const ast::FnProto& p = *fn->proto;
            if (p.cache->frameless && p.params.empty()) {
                // `drop` takes no arguments: bound, it is self in slot 0, so its one-call plan
                // runs on self as invoke would run it (one for every temporary of a program).
                const Value* view[1] = {&self};
                Value r;
                if (run_one_call_body(*this, *p.cache->plan, *fn, view, r)) return;
            }
            invoke(fn, &self, args, nullptr, fn->proto->loc);
        } else {
            call_function(drop, &self, args, nullptr, nullptr,
                          drop.as<OverloadSetObj>()->fns[0].as<FunctionObj>()->proto->loc);
        }
    } catch (ProgramError& e) {
        report_drop_error(e, *instance);
    } catch (const ControlSignal&) {
    } catch (const SpecSkip&) {}
}

// ---------------------------------------------------------------- entry points

// The program's top level calls its `fn main()` (Python's `if __name__ == "__main__": main()`):
// noted, so that run_program does not run main a second time, and its result kept as the exit
// status. Calls main makes of itself are not noted (the watch is off while it runs).
Value Interpreter::invoke_main_from_top_level(const FunctionObj* fn, const Value* self, ArgList& args, ArgPlan* plan,
                                              SourceLoc loc, bool types_checked) {
    const SourceFile* file = fn->proto->loc.file;
    top_level_main_.watching = false;
    Value r = invoke(fn, self, args, plan, loc, types_checked);
    top_level_main_.watching = true;
    if (file && file->path() == top_level_main_.path) { // not a `main` of an imported module
        top_level_main_.called = fn->proto;             // run_program checks it is the global `main`
        top_level_main_.result = r;
    }
    return r;
}

// Loads and runs the program, then its `main` unless the top level called it; returns the main
// module and sets `status` from main's result. Throws the error that stops it.
Value Interpreter::run_main(const std::string& path, int& status) {
    top_level_main_.path = path;
    top_level_main_.watching = true;
    Value mod;
    try {
        mod = modules_->load_main(path);
    } catch (...) {
        top_level_main_.watching = false;
        throw;
    }
    top_level_main_.watching = false;
    auto* m = mod.as<ModuleObj>();
    int g = m->find_global("main");
    if (g >= 0 && m->globals[static_cast<size_t>(g)].is(ObjType::Function)) {
        Value main_fn = m->globals[static_cast<size_t>(g)];
        bool ran = top_level_main_.called == main_fn.as<FunctionObj>()->proto;
        Value r =
            ran ? std::move(top_level_main_.result) : call_with(main_fn, {}, main_fn.as<FunctionObj>()->proto->loc);
        top_level_main_.result.reset();
        if (r.is_int()) status = static_cast<int>(r.as_int());
        if (r.is(ObjType::Variant) && r.as<VariantObj>()->type == result_ && r.as<VariantObj>()->index == 1)
            runtime_error(main_fn.as<FunctionObj>()->proto->loc, "`main` returned " + repr(r, SourceLoc{}));
    }
    return mod;
}

// What ends every run: the spec summary (a program may hold examples), callables and globals
// released, output flushed; the exit status.
int Interpreter::end_program(int status) {
    if (spec_->examples_run() > 0) {
        spec_->print_summary();
        if (spec_->failed() > 0) status = 1;
    }
    host_callbacks_.shut_down(); // before the globals: the callables' drops may call their externs
    modules_->release_all();
    std::fflush(stdout);
    if (drop_errors_ > 0 && status == 0) status = 1;
    return status;
}

int Interpreter::run_program(const std::string& path) {
    int status = 0;
    try {
        run_main(path, status);
    } catch (const ProgramError& e) {
        report_error(e);
        status = 1;
    }
    return end_program(status);
}

std::optional<ProgramError> Interpreter::run_program_for_check(const std::string& path,
                                                               const std::function<void(const ModuleObj&)>& probe) {
    int status = 0;
    std::optional<ProgramError> stopped;
    try {
        run_main(path, status);
    } catch (const ProgramError& e) {
        stopped = e;
    }
    // The module is loaded even when its top level stopped: its functions can still be called.
    if (const ModuleObj* m = modules_->main_module()) probe(*m);
    end_program(status);
    return stopped;
}

int Interpreter::run_tests(const std::vector<std::string>& spec_files) {
    for (const std::string& file : spec_files) {
        spec_->begin_file(file);
        try {
            Value mod = modules_->load_main(file);
            modules_->retire(mod);
        } catch (const ProgramError& e) {
            spec_->file_error(e);
        }
        spec_->end_file();
    }
    host_callbacks_.shut_down(); // before the globals: the callables' drops may call their externs
    modules_->release_all();
    spec_->print_summary();
    std::fflush(stdout);
    return spec_->failed() > 0 || drop_errors_ > 0 ? 1 : 0;
}

} // namespace spl
