// interpreter.h — the evaluator: a tree walker over the resolved AST.
//
// Execution model
//  * Every call gets a window of `nslots` Values on one preallocated value
//    stack (no allocation per call); local variables live in slots chosen by
//    the resolver. Slots above the stack pointer are always nil.
//  * Statements return a Status (Normal/Break/Continue/Return); the return
//    value sits in the running CallFrame. Only a block evaluated *as an
//    expression* (a match arm whose value is used, say) throws a
//    ControlSignal to leave it, as does the postfix `?` operator.
//  * Values are reference counted, so objects die — and `drop` runs — the
//    moment their last reference goes: a temporary at the end of the
//    expression that made it, a block's locals when the block ends (a loop
//    body's at the end of each iteration), a call's locals in reverse order
//    when it returns.
#pragma once

#include <deque>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/ast.h"
#include "base/diagnostics.h"
#include "ffi/extern_call.h"
#include "eval/int_division_watch.h"
#include "eval/site_cache.h"
#include "resolve/cache_allocator.h"
#include "resolve/objects.h"
#include "base/source.h"
#include "base/value.h"

namespace spl {

class ModuleLoader;
class PluginLoader;
class SpecRunner;
struct OneCallBody;
class ShapeBindings;

// Storage for evaluated arguments: inline for the usual few, heap beyond.
class ArgBuffer {
public:
    explicit ArgBuffer(size_t n) : n_(n) {
        if (n > kInline) heap_.resize(n);
    }
    Value* data() { return n_ > kInline ? heap_.data() : inline_; }
    size_t size() const { return n_; }

private:
    static constexpr size_t kInline = 6;
    Value inline_[kInline];
    std::vector<Value> heap_;
    size_t n_;
};

enum class Status : uint8_t { Normal, Break, Continue, Return };

struct ControlSignal {
    Status status;
};

struct CallFrame {
    Value* slots;
    const Value* upvals;
    const ast::FnProto* proto;
    Value ret;
    const Obj* owner = nullptr;             // the class of a method running here (constructors: see Interpreter::call)
    const CallFrame* caller = nullptr;      // the frame that called this one (FrameScope)
    const ast::Stmt* stmt = nullptr;        // the statement running here (exec): where the program is
    ShapeBindings* shape_symbols = nullptr; // the call's shape symbols (shape_checks.h), for annotated locals
};

struct HostOptions {
    std::vector<std::string> lib_roots;   // library roots, searched in order
    std::vector<std::string> plugin_dirs; // plugin directories, searched in order
    std::vector<std::string> program_args;
    int max_depth = 4000; // nested calls before "stack overflow"
    // --simple-runtime-ffi: extern fns are only the real Simple runtime's
    // native-call built-ins (word_ffi.h); no plugin is opened.
    bool simple_runtime_ffi = false;
    // --no-fast-paths: every call runs as written, through boxed thunks (typed_call.h and
    // one_call_body.h off), to check those paths against it.
    bool fast_paths = true;
    // `splrun check`'s run: `print` formats and writes nothing (the check prints only what it
    // finds); the plugin is told by SPL_TORCH_SHAPES_ONLY (tools/shape_run.h).
    bool shapes_only = false;
};

class Interpreter final : public DropRunner, public PluginCaller, public CacheAllocator {
public:
    explicit Interpreter(HostOptions options);
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    // splrun FILE: the exit status (errors are printed).
    int run_program(const std::string& path);
    // splrun check's run of FILE: runs it as run_program does, then calls `probe` with the main
    // module (when it loaded); returns the error that stopped the run, unprinted.
    std::optional<ProgramError> run_program_for_check(const std::string& path,
                                                      const std::function<void(const ModuleObj&)>& probe);
    // splrun test: runs every spec file; the exit status.
    int run_tests(const std::vector<std::string>& spec_files);

    // ---- calls (calls.cpp)
    // `plan` and `site` are the call site's caches (named arguments, overload choices), when it has them.
    Value call(const Value& callee, ArgList& args, SourceLoc loc, ArgPlan* plan = nullptr,
               OverloadSite* site = nullptr);
    Value call_with(const Value& callee, std::initializer_list<Value> args, SourceLoc loc);
    // An instance's (or user enum variant's) method by name; nil when absent.
    Value find_method(const Value& receiver, const std::string& name) const;
    // `method`: a function or an overload set, called with `receiver` as self.
    Value call_method(const Value& receiver, const Value& method, std::initializer_list<Value> args, SourceLoc loc,
                      OverloadSite* site = nullptr);
    // The operator protocol: calls `receiver.method(arg)` when the method
    // accepts the argument (some overload matches, or the single function's
    // declared types do) and returns true; false, calling nothing, when not.
    bool try_call_method(const Value& receiver, const Value& method, const Value& arg, SourceLoc loc,
                         OverloadSite* site, Value& result);

    // ---- values (operators.cpp, format.cpp)
    Value binary(ast::BinOp op, const Value& a, const Value& b, SourceLoc loc, OverloadSite* site = nullptr);
    bool equal(const Value& a, const Value& b, SourceLoc loc);
    int compare(const Value& a, const Value& b, SourceLoc loc); // <0, 0, >0; error when unordered
    bool truthy(const Value& v, SourceLoc loc);
    // Calls `body(item)` for each element of an iterable; `false` stops early.
    void for_each(const Value& iterable, SourceLoc loc, const std::function<bool(Value)>& body);
    Value index_value(const Value& obj, const Value& key, SourceLoc loc, OverloadSite* site = nullptr);
    Value cast(const Value& v, const std::string& type, SourceLoc loc);
    // `a.fdiv(b)`: floor division, the real Simple's (Python's `//`): (-7).fdiv(2) == -4, 7.5.fdiv(2.0) == 3.0.
    Value floor_divide(const Value& a, const Value& b, SourceLoc loc);
    std::string display(const Value& v, SourceLoc loc); // str(x), print, interpolation
    std::string repr(const Value& v, SourceLoc loc);    // inside containers: text is quoted
    // "{v:spec}" and format(v, spec): numbers and text by Python's rules; an
    // object by its `format(spec)` method, else its text padded/truncated.
    std::string format_with(const Value& v, const FormatSpec& spec, SourceLoc loc);
    std::string type_name(const Value& v) const override;
    // PluginCaller: a Simple callable run for a plugin (host_callbacks.h).
    Value run_callable(const Value& fn, std::vector<Value>& args) override;
    Value make_some(Value v);
    Value make_ok(Value v);
    Value make_err(Value v);
    EnumObj* option_type() const { return option_; }
    const Obj* option_enum() const override { return option_; }
    EnumObj* result_type() const { return result_; }

    // ---- the side table of caches (CacheAllocator): the resolver attaches one to each call,
    // member and operator site and each function of the code it resolves.
    SiteCache* new_site() override { return &sites_.emplace_back(); }
    BodyCache* new_body() override { return &bodies_.emplace_back(); }
    void watch_division(const DivisionSite& site) override { divisions_.watch(site); }

    // ---- services
    SourceManager& sources() { return sources_; }
    ModuleLoader& modules() { return *modules_; }
    PluginLoader& plugins() { return *plugins_; }
    SpecRunner& spec() { return *spec_; }
    const HostOptions& options() const { return options_; }
    void out(std::string_view text); // program output (stdout)
    int64_t live_instances(const std::string& class_name) const;
    // Where the program is: the running statement of the innermost frame in a program file.
    std::string program_location() const;
    // extern_calls (PluginCaller): plugin calls made so far, `extern_calls()`
    void report_error(const ProgramError& e); // prints to stderr

    // ---- modules (interpreter.cpp)
    void execute_module(ModuleObj& m);
    void create_extern(const ast::ExternDecl& d);
    void run_drop(InstanceObj* instance) override;
    void report_drop_error(ProgramError& e, const InstanceObj& instance); // counted, printed, not thrown

    // Evaluates an expression in a fresh frame with `nslots` slots and no
    // enclosing function (field defaults, extern defaults).
    Value eval_detached(const ast::Expr& e, uint32_t nslots);

private:
    Value run_main(const std::string& path, int& status);
    int end_program(int status);
    friend class StackWindow;
    friend class FrameScope;

    // eval.cpp
    Value eval(const ast::Expr& e);
    Value eval_name(const ast::Name& n);
    // Where a plain local or global name's value is, to read it without a copy; null for any
    // other expression (evaluate it instead).
    const Value* name_value(const ast::Expr& e) const;
    Value binary_of(const ast::Binary& b, const Value& l, const Value& r);
    Value eval_call(const ast::Call& c);
    Value eval_method_call(const ast::MethodCall& m);
    ArgList eval_args(const std::vector<ast::ExprPtr>& exprs, const std::vector<std::string>& names, ArgBuffer& buf);
    Value call_named_method(const ast::MethodCall& m, Value& obj, ArgList& args, ArgPlan* plan, OverloadSite* site);
    ArgList eval_spread_args(const std::vector<ast::ExprPtr>& exprs, const std::vector<std::string>& given_names,
                             std::vector<Value>& values, std::vector<std::string>& names);
    Value comprehension_over(const ast::Comprehension& c, const Value* first);
    Value eval_member(const ast::Member& m);
    Value eval_index(const ast::Index& x);
    Value eval_index_key(const ast::Index& x);
    Value eval_interp(const ast::Interp& s);
    Value eval_lambda(const ast::Lambda& l);
    Value eval_if(const ast::IfExpr& e);
    Value eval_match(const ast::Expr& subject, const std::vector<ast::MatchArm>& arms, SourceLoc loc);
    Value eval_comprehension(const ast::Comprehension& c);
    Value eval_try(const ast::Try& t);
    Value eval_block_value(const ast::Block& b);
    Value eval_stmt_value(const ast::Stmt& s);
    Value member_value(const Value& obj, const ast::Member& m);

    // exec.cpp
    Status exec(const ast::Stmt& s);
    Status exec_block(const ast::Block& b);
    Status exec_if(const ast::IfStmt& s);
    Status exec_while(const ast::While& s);
    Status exec_loop_body(const ast::Block& body);
    Status exec_for(const ast::For& s);
    Status exec_match(const ast::MatchStmt& s);
    Status exec_with(const ast::With& s);
    Status exec_assign(const ast::Assign& s);
    void exec_nested_fn(const ast::FnDecl& d);
    void clear_slots(uint32_t begin, uint32_t end);
    void assign_to(const ast::Expr& target, Value v);
    void set_index(const Value& obj, const Value& key, Value v, SourceLoc loc);
    void store_field(const Value& obj, const ast::Member& m, Value v);
    // Binds a value to a declaration pattern (val/for targets); errors if it does not fit.
    void bind(const ast::Pattern& p, Value v);
    void bind_sequence(const ast::Pattern& p, const Value& v); // an object with `len` and `get_item`
    // bind() with a plain local name (`val c = ...`, `for i in ...`) stored in place.
    void bind_statement_target(const ast::Pattern& p, Value&& v) {
        if (p.kind == ast::PatKind::Bind && !p.global && !p.captured)
            frame_->slots[p.slot] = std::move(v);
        else
            bind(p, std::move(v));
    }
    void store_binding(const ast::Pattern& p, Value v);
    // Match patterns: true and bindings made when `v` matches.
    bool match_pattern(const ast::Pattern& p, const Value& v);

    // calls.cpp
    // A function or an overload set (then the overload that accepts the call).
    Value call_function(const Value& fn, const Value* self, ArgList& args, ArgPlan* plan, OverloadSite* site,
                        SourceLoc loc) {
        if (fn.is(ObjType::Function)) return invoke(fn.as<FunctionObj>(), self, args, plan, loc);
        return call_overloads(*fn.as<OverloadSetObj>(), self, args, site, loc);
    }
    Value call_overloads(const OverloadSetObj& set, const Value* self, ArgList& args, OverloadSite* site,
                         SourceLoc loc);
    // A call of a star-imported function named like a builtin (Call::builtin_fallback).
    Value call_or_builtin(const Value& callee, ArgList& args, const ast::Call& c);
    // A call of a Simple function: a frame, the parameters bound, the body run.
    // `types_checked`: overload resolution has matched the arguments' types already.
    Value invoke(const FunctionObj* fn, const Value* self, ArgList& args, ArgPlan* plan, SourceLoc loc,
                 bool types_checked = false);
    // invoke's parts: the one binding of a call's arguments to parameters (into a frame's slots,
    // an instance's fields for construct(), or, for a one-call body, a view of where the values
    // are), and the body walked in a frame.
    template <class Out>
    void bind_parameters(const ast::FnProto& p, const Value* self, ArgList& args, ArgPlan* plan, SourceLoc loc,
                         bool types_checked, Out& out);
    void plan_body(const ast::FnProto& p);
    [[gnu::noinline]] Value walk_viewed(const FunctionObj* fn, const Value* const* view, SourceLoc loc);
    [[gnu::noinline]] Value invoke_in_frame(const FunctionObj* fn, const Value* self, ArgList& args, ArgPlan* plan,
                                            SourceLoc loc, bool types_checked);
    Value run_body_in_frame(const FunctionObj* fn, const OneCallBody* body, CallFrame& frame, SourceLoc loc);
    Value walk_body(const ast::FnProto& p, CallFrame& frame, SourceLoc loc);
    // A call of the program's `fn main()` while its top level runs (interpreter.cpp).
    [[gnu::noinline]] Value invoke_main_from_top_level(const FunctionObj* fn, const Value* self, ArgList& args,
                                                       ArgPlan* plan, SourceLoc loc, bool types_checked);
    Value construct(ClassObj* cls, ArgList& args, SourceLoc loc, ArgPlan* plan);
    Value construct_variant(EnumObj* type, uint32_t index, ArgList& args, SourceLoc loc);
    void create_class(const ast::ClassDecl& d, ModuleObj& m);
    void create_enum(const ast::EnumDecl& d, ModuleObj& m);
    void apply_impl(const ast::ImplDecl& d);
    void create_trait(const ast::TraitDecl& d);
    void give_trait_defaults(ClassObj* cls, const ast::ImplDecl& d);
    Value make_function(const ast::FnProto& proto, const Obj* owner);

    // Value stack
    Value* push_slots(uint32_t n);
    void pop_slots(Value* base, uint32_t n);

    HostOptions options_;
    SourceManager sources_;
    HostCallbacks& host_callbacks_; // before plugins_: every plugin is opened with its table
    std::unique_ptr<PluginLoader> plugins_;
    std::unique_ptr<ModuleLoader> modules_;
    std::unique_ptr<SpecRunner> spec_;

    std::vector<Value> builtins_; // by builtin index (the resolver's numbering)
    std::vector<Value> types_;    // every class and enum ever created: kept until the end
    EnumObj* option_ = nullptr;
    EnumObj* result_ = nullptr;

    std::unique_ptr<Value[]> stack_;
    size_t stack_size_ = 0;
    size_t sp_ = 0;
    CallFrame* frame_ = nullptr;
    int depth_ = 0;
    const char* stack_floor_ = nullptr; // calls below it are refused (stack_limit.h)
    int drop_errors_ = 0;
    IntDivisionWatch divisions_; // the program's i64 divisions that may truncate into a float
    // The calls of the program's `fn main()` made by its top level (a port of Python's
    // `if __name__ == "__main__": main()`): run_program then does not run it a second time.
    struct TopLevelMain {
        bool watching = false; // the program's top level is running
        std::string path;      // the program's file: a `main` of an imported module is not it
        const ast::FnProto* called = nullptr;
        Value result; // what the last top-level call returned: the exit status
    } top_level_main_;
    // Last: the caches hold values (methods, overload sets), dropped before the rest.
    std::deque<SiteCache> sites_; // deques: growing keeps every entry where it is
    std::deque<BodyCache> bodies_;
};

// RAII: a window of `n` nil slots on the value stack, cleared (in reverse
// order, so locals are dropped last-declared first) and popped at the end.
class StackWindow {
public:
    StackWindow(Interpreter& in, uint32_t n) : in_(in), n_(n), slots_(in.push_slots(n)) {}
    ~StackWindow() { in_.pop_slots(slots_, n_); }
    StackWindow(const StackWindow&) = delete;
    StackWindow& operator=(const StackWindow&) = delete;
    Value* slots() const { return slots_; }

private:
    Interpreter& in_;
    uint32_t n_;
    Value* slots_;
};

// RAII: makes `frame` the running frame and counts call depth.
class FrameScope {
public:
    FrameScope(Interpreter& in, CallFrame* frame, SourceLoc loc);
    ~FrameScope() {
        in_.frame_ = saved_;
        --in_.depth_;
    }
    FrameScope(const FrameScope&) = delete;
    FrameScope& operator=(const FrameScope&) = delete;

private:
    [[noreturn, gnu::cold, gnu::noinline]] static void refuse(const Interpreter& in, SourceLoc loc);

    Interpreter& in_;
    CallFrame* saved_;
};

} // namespace spl
