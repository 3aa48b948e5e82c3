// ast.h — the syntax tree.
//
// The parser builds it; the resolver then annotates it in place (variable
// slots, captured variables, tail positions, compiled parameter types, and for
// each call, member and operator site its cache: a SiteCache the interpreter
// owns, eval/site_cache.h, as a global name's slot is the module's); after that
// it is read-only: the interpreter fills the caches, not the tree.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/format_spec.h"
#include "base/source.h"
#include "syntax/type_expr.h"
#include "base/value.h"

namespace spl {

struct ClassObj;
struct FunctionObj;
struct ModuleObj;
struct TypeSpec;  // resolve/types.h: a parameter's compiled type, which the resolver fills in
struct SiteCache; // eval/site_cache.h: what a call, member or operator site has seen
struct BodyCache; // eval/site_cache.h: how a function's calls run

namespace ast {

struct Expr;
struct Stmt;
struct Pattern;
struct FnProto;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using PatternPtr = std::unique_ptr<Pattern>;

// A sequence of statements. The resolver records the variable slots the
// block (with its nested blocks) uses, so they can be cleared when it ends:
// that is what drops a loop body's temporaries at the end of each iteration.
struct Block {
    std::vector<StmtPtr> stmts;
    uint32_t slot_begin = 0, slot_end = 0;
};

// ---------------------------------------------------------------- expressions

enum class ExprKind : uint8_t {
    Int,
    Float,
    Str,
    Interp,
    Bool,
    Nil,
    Ellipsis, // `...` in an index
    Name,
    Unary,
    Binary,
    Logical,
    Range,
    Call,
    MethodCall,
    Member,
    Index,
    Slice,
    Lambda,
    If,
    Match,
    Array,
    Tuple,
    Dict,
    Comprehension,
    Try,
    Cast,
};

struct Expr {
    Expr(ExprKind k, SourceLoc l) : kind(k), loc(l) {}
    virtual ~Expr() = default;
    const ExprKind kind;
    SourceLoc loc;
};

// Literals keep their runtime value, built once by the parser.
struct Literal : Expr {
    Literal(ExprKind k, SourceLoc l, Value v) : Expr(k, l), value(std::move(v)) {}
    Value value;
};

// An Int, Float, Str, Bool, Nil or Ellipsis literal: its value is `static_cast<const Literal&>(e).value`.
inline bool is_literal(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Str:
    case ExprKind::Bool:
    case ExprKind::Nil:
    case ExprKind::Ellipsis: return true;
    default: return false;
    }
}

// "text {expr} text {x:.2f}": literal pieces interleaved with expressions;
// pieces.size() == exprs.size() + 1; specs[i] is exprs[i]'s format spec
// (null when it has none), parsed once here.
struct Interp : Expr {
    explicit Interp(SourceLoc l) : Expr(ExprKind::Interp, l) {}
    std::vector<std::string> pieces;
    std::vector<ExprPtr> exprs;
    std::vector<std::unique_ptr<const FormatSpec>> specs;
};

// SelfClass: `Self` in a trait's method, the class the method was given to (known when it runs).
enum class NameKind : uint8_t { Unresolved, Local, Upvalue, Global, Builtin, SelfClass };

struct Name : Expr {
    Name(SourceLoc l, std::string n) : Expr(ExprKind::Name, l), name(std::move(n)) {}
    std::string name;
    NameKind ref = NameKind::Unresolved;
    bool captured = false;   // Local: the slot holds a cell shared with closures
    uint32_t index = 0;      // slot, upvalue index or builtin index
    Value* global = nullptr; // Global: the module's slot
};

enum class UnaryOp : uint8_t { Neg, Not, Pos };
struct Unary : Expr {
    Unary(SourceLoc l, UnaryOp o, ExprPtr e) : Expr(ExprKind::Unary, l), op(o), operand(std::move(e)) {}
    UnaryOp op;
    ExprPtr operand;
    SiteCache* cache = nullptr; // `neg`
};

enum class BinOp : uint8_t {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    MatMul,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Coalesce,
};
const char* binop_text(BinOp op);

struct Binary : Expr {
    Binary(SourceLoc l, BinOp o, ExprPtr a, ExprPtr b)
        : Expr(ExprKind::Binary, l), op(o), lhs(std::move(a)), rhs(std::move(b)) {}
    BinOp op;
    ExprPtr lhs, rhs;
    SiteCache* cache = nullptr; // operator methods
};

struct Logical : Expr {
    Logical(SourceLoc l, bool is_and, ExprPtr a, ExprPtr b)
        : Expr(ExprKind::Logical, l), is_and(is_and), lhs(std::move(a)), rhs(std::move(b)) {}
    bool is_and;
    ExprPtr lhs, rhs;
};

struct Range : Expr {
    Range(SourceLoc l, ExprPtr a, ExprPtr b, bool incl)
        : Expr(ExprKind::Range, l), start(std::move(a)), end(std::move(b)), inclusive(incl) {}
    ExprPtr start, end;
    bool inclusive;
};

struct Call : Expr {
    Call(SourceLoc l, ExprPtr c) : Expr(ExprKind::Call, l), callee(std::move(c)) {}
    ExprPtr callee;
    std::vector<ExprPtr> args;
    std::vector<std::string> arg_names; // "" for positional; empty vector when none is named
    bool spreads = false;               // some argument is `*list` (named "*") or `**dict` (named "**")
    // The callee is a name `use m.*` brought in that is also a builtin's
    // (lib.torch's `sqrt`, `max`): the builtin's index, which runs when the
    // imported function refuses the call (Interpreter::call_or_builtin); else -1.
    int builtin_fallback = -1;
    SiteCache* cache = nullptr;
};

// `object.name(args)`. `builtin` is the method's id in the table of methods
// of built-in types (text, arrays, ...), looked up once by the parser.
struct MethodCall : Expr {
    MethodCall(SourceLoc l, ExprPtr o, std::string n)
        : Expr(ExprKind::MethodCall, l), object(std::move(o)), name(std::move(n)) {}
    ExprPtr object;
    std::string name;
    int builtin = -1;
    std::vector<ExprPtr> args;
    std::vector<std::string> arg_names;
    bool spreads = false;       // as Call's
    SiteCache* cache = nullptr; // the class seen last and its method, named arguments, overloads
};

struct Member : Expr {
    Member(SourceLoc l, ExprPtr o, std::string n)
        : Expr(ExprKind::Member, l), object(std::move(o)), name(std::move(n)) {}
    ExprPtr object;
    std::string name;
    SiteCache* cache = nullptr; // the class seen last and the field's index in it
};

struct Index : Expr {
    Index(SourceLoc l, ExprPtr o) : Expr(ExprKind::Index, l), object(std::move(o)) {}
    ExprPtr object;
    std::vector<ExprPtr> indices; // more than one: a multi-index `a[i, j]`
    SiteCache* cache = nullptr;   // `get_item`
};

// `start:stop:step` inside brackets; any part may be missing.
struct Slice : Expr {
    explicit Slice(SourceLoc l) : Expr(ExprKind::Slice, l) {}
    ExprPtr start, stop, step;
};

struct Lambda : Expr {
    Lambda(SourceLoc l, std::unique_ptr<FnProto> p);
    ~Lambda() override;
    std::unique_ptr<FnProto> proto;
};

struct IfExpr : Expr {
    explicit IfExpr(SourceLoc l) : Expr(ExprKind::If, l) {}
    std::vector<ExprPtr> conds;
    std::vector<Block> blocks; // one per condition
    std::unique_ptr<Block> else_block;
};

struct MatchArm {
    PatternPtr pattern;
    ExprPtr guard;
    Block body;
};

struct MatchExpr : Expr {
    explicit MatchExpr(SourceLoc l) : Expr(ExprKind::Match, l) {}
    ExprPtr subject;
    std::vector<MatchArm> arms;
};

struct ArrayLit : Expr {
    explicit ArrayLit(SourceLoc l) : Expr(ExprKind::Array, l) {}
    std::vector<ExprPtr> elems;
};

struct TupleLit : Expr {
    explicit TupleLit(SourceLoc l) : Expr(ExprKind::Tuple, l) {}
    std::vector<ExprPtr> elems;
};

struct DictLit : Expr {
    explicit DictLit(SourceLoc l) : Expr(ExprKind::Dict, l) {}
    std::vector<ExprPtr> keys, values;
};

// [elem for p in iter if cond ...] and {k: v for ...}.
struct CompClause {
    PatternPtr pattern; // `for` clause
    ExprPtr iter;
    ExprPtr cond; // `if` clause (pattern and iter are null)
};

struct Comprehension : Expr {
    explicit Comprehension(SourceLoc l) : Expr(ExprKind::Comprehension, l) {}
    ExprPtr elem;
    ExprPtr value; // dict comprehensions: elem is the key
    std::vector<CompClause> clauses;
    uint32_t slot_begin = 0, slot_end = 0; // its variables, cleared when it is done
};

// Postfix `?`: unwraps Ok/Some, returns Err/None from the enclosing function.
struct Try : Expr {
    Try(SourceLoc l, ExprPtr e) : Expr(ExprKind::Try, l), operand(std::move(e)) {}
    ExprPtr operand;
};

struct Cast : Expr {
    Cast(SourceLoc l, ExprPtr e, TypeRef t) : Expr(ExprKind::Cast, l), operand(std::move(e)), type(std::move(t)) {}
    ExprPtr operand;
    TypeRef type;
};

// ---------------------------------------------------------------- patterns

enum class PatKind : uint8_t { Wildcard, Bind, Literal, Variant, Tuple, Array, Or };

struct Pattern {
    Pattern(PatKind k, SourceLoc l) : kind(k), loc(l) {}
    PatKind kind;
    SourceLoc loc;
    // Bind
    std::string name;
    uint32_t slot = 0;
    bool captured = false;
    Value* global = nullptr; // a binding at module level is a global
    // Literal
    Value literal;
    // Variant: `Some(x)`, `Device.CUDA(id)`, `CPU`. `qualifier` is the enum's
    // name when written; `has_args` distinguishes `V` from `V()`.
    std::string qualifier, variant;
    bool has_args = false;
    // Variant, Tuple, Array, Or
    std::vector<PatternPtr> subs;
};

// ---------------------------------------------------------------- statements

enum class StmtKind : uint8_t {
    Expr,
    Let,
    Assign,
    If,
    While,
    For,
    Break,
    Continue,
    Return,
    Pass,
    Match,
    With,
    Fn,
    Class,
    Enum,
    Impl,
    Trait,
    Extern,
    Use,
    Export,
    Ignored,
};

struct Stmt {
    Stmt(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
    virtual ~Stmt() = default;
    const StmtKind kind;
    SourceLoc loc;
};

// An expression statement. In tail position (the last statement of a
// function body, recursively through if/match) its value is the result.
struct ExprStmt : Stmt {
    ExprStmt(SourceLoc l, ExprPtr e) : Stmt(StmtKind::Expr, l), expr(std::move(e)) {}
    ExprPtr expr;
    bool tail = false;
};

struct Let : Stmt {
    Let(SourceLoc l) : Stmt(StmtKind::Let, l) {}
    PatternPtr target;
    bool is_mutable = false;
    TypeRef type;          // empty when not written
    bool to_float = false; // declared f64/f32: an integer initialiser becomes a float
    ExprPtr init;
};

enum class AssignOp : uint8_t { Set, Add, Sub, Mul, Div, Mod };

struct Assign : Stmt {
    Assign(SourceLoc l) : Stmt(StmtKind::Assign, l) {}
    ExprPtr target; // Name, Member or Index
    AssignOp op = AssignOp::Set;
    ExprPtr value;
};

struct IfStmt : Stmt {
    IfStmt(SourceLoc l) : Stmt(StmtKind::If, l) {}
    std::vector<ExprPtr> conds;
    std::vector<Block> blocks;
    std::unique_ptr<Block> else_block;
    bool tail = false;
};

struct While : Stmt {
    While(SourceLoc l) : Stmt(StmtKind::While, l) {}
    ExprPtr cond;
    Block body;
};

struct For : Stmt {
    For(SourceLoc l) : Stmt(StmtKind::For, l) {}
    PatternPtr target;
    ExprPtr iter;
    Block body;
};

// `with EXPR [as NAME]:` and a block: the real Simple's context-manager statement. The
// resource's `__enter__()` runs first (its result is NAME), then the block, then its
// `__exit__()` however the block ends (exec.cpp). NAME, when written, is a local of the block.
struct With : Stmt {
    With(SourceLoc l) : Stmt(StmtKind::With, l) {}
    ExprPtr resource;
    PatternPtr alias; // a name pattern; null without `as`
    Block body;
};

struct Return : Stmt {
    Return(SourceLoc l, ExprPtr v) : Stmt(StmtKind::Return, l), value(std::move(v)) {}
    ExprPtr value; // may be null
};

struct MatchStmt : Stmt {
    MatchStmt(SourceLoc l) : Stmt(StmtKind::Match, l) {}
    ExprPtr subject;
    std::vector<MatchArm> arms;
    bool tail = false;
};

struct Param {
    std::string name;
    TypeRef type;             // empty when not written
    ExprPtr default_value;    // null when required
    std::string default_text; // the default as written (extern signatures, overload messages)
    bool to_float = false;    // declared f64/f32
    SourceLoc loc;
    // Filled by the resolver (functions with a body): the compiled type.
    std::shared_ptr<const TypeSpec> spec;
    bool wraps_number = false; // [i64]/[f64]: a single number becomes a one-element array
    // `name: T...` (the real Simple's variadic parameter): the positional arguments left over,
    // as a list of T; `name: {text: V}...`: the named arguments no parameter takes, as a dict.
    enum class Rest : uint8_t { None, Positional, Named } rest = Rest::None;
};

struct UpvalueDesc {
    bool from_parent_local; // else: the parent's own upvalue
    uint32_t index;
};

// Everything callable that has a body: functions, methods, lambdas.
struct FnProto {
    std::string name;
    SourceLoc loc;
    std::vector<Param> params;
    TypeRef return_type;
    Block body;
    bool is_method = false; // slot 0 holds `self`
    bool is_static = false;
    bool is_me = false;       // `me` method: may mutate self
    bool is_property = false; // `@property`: `obj.name` calls it
    std::string setter_of;    // `@NAME.setter`: `obj.NAME = v` calls it
    bool is_lambda = false;
    bool is_module = false; // a module's top level
    // Filled by the resolver.
    uint32_t nslots = 0;
    std::vector<UpvalueDesc> upvalues;
    std::vector<uint32_t> captured_params; // slots of parameters that closures capture
    std::string qualified_name;            // "Tensor.add", for traces
    bool checks_args = false;              // some parameter's type can refuse an argument (single-function rules)
    // Binding needs no frame and changes no argument: nothing variadic or captured, no parameter
    // converts its argument, every default is a literal.
    bool plain_params = false;
    // Variadic parameters (Param::rest): their indices, or -1; positional arguments fill the
    // parameters before the first of them (those after it are named only).
    int rest_positional = -1, rest_named = -1;
    bool has_rest() const { return rest_positional >= 0 || rest_named >= 0; }
    BodyCache* cache = nullptr; // how its calls run (the interpreter's, planned on the first call)
};

struct FnDecl : Stmt {
    FnDecl(SourceLoc l) : Stmt(StmtKind::Fn, l) {}
    std::unique_ptr<FnProto> proto;
    // Where the function is stored: a global at module level, else a local slot.
    uint32_t slot = 0;
    bool captured = false;
    Value* global = nullptr;
};

struct ClassDecl : Stmt {
    ClassDecl(SourceLoc l) : Stmt(StmtKind::Class, l) {}
    std::string name;
    bool is_struct = false;
    // `C(...)` building an instance from its fields, as a dataclass's __init__: one parameter
    // per field, in order (name, type, default), bound as any call's arguments are. A default is
    // evaluated detached from the call (it reads no other field), in `init_slots` slots.
    FnProto init;
    std::vector<std::unique_ptr<FnProto>> methods;
    uint32_t init_slots = 0;   // slots field defaults need while evaluated
    bool shape_fields = false; // a field has a shape type (`w: Tensor<[D, D]>`): checked at `C(...)`
    Value* global = nullptr;
};

struct VariantDecl {
    std::string name;
    std::vector<std::string> field_names; // "" for positional payloads
    SourceLoc loc;
};

struct EnumDecl : Stmt {
    EnumDecl(SourceLoc l) : Stmt(StmtKind::Enum, l) {}
    std::string name;
    std::vector<VariantDecl> variants;
    std::vector<std::unique_ptr<FnProto>> methods;
    Value* global = nullptr;
};

// `impl Name:` and `impl Trait for Name:` (the latter also without a body).
struct ImplDecl : Stmt {
    ImplDecl(SourceLoc l) : Stmt(StmtKind::Impl, l) {}
    std::string target;
    std::string trait; // "" for a plain `impl Name:`
    std::vector<std::unique_ptr<FnProto>> methods;
    Value* global = nullptr;       // the class or enum extended
    Value* trait_global = nullptr; // the trait, when `trait` is set
};

// `trait Name:` — methods with bodies are default methods, given by
// `impl Name for C` to a class that does not define them; methods without a
// body (`fn forward(x: Tensor) -> Tensor`) are required.
struct TraitDecl : Stmt {
    TraitDecl(SourceLoc l) : Stmt(StmtKind::Trait, l) {}
    std::string name;
    std::vector<std::unique_ptr<FnProto>> methods; // with bodies
    std::vector<std::string> required;             // names of the methods without a body
    Value* global = nullptr;
};

struct ExternDecl : Stmt {
    ExternDecl(SourceLoc l) : Stmt(StmtKind::Extern, l) {}
    std::string name;
    std::vector<Param> params;
    TypeRef return_type;   // empty for none
    std::string signature; // canonical `extern fn ...` text, for messages
    uint32_t default_slots = 0;
    Value* global = nullptr;
};

// One name a `use` binds: found in `source` at `source_index` by the module loader.
struct UseBinding {
    UseBinding(std::string n, ModuleObj* s, int i, SourceLoc l, Value* g = nullptr)
        : name(std::move(n)), source(s), source_index(i), loc(l), global(g) {}
    std::string name; // the local name
    ModuleObj* source = nullptr;
    int source_index = -1; // -1: bind the module object itself
    SourceLoc loc;
    Value* global = nullptr;   // null when another binding of the name wins (see the resolver)
    bool from_getattr = false; // a name `source` does not export: bind `value`, its __getattr__'s answer
    Value value;
};

struct Use : Stmt {
    Use(SourceLoc l) : Stmt(StmtKind::Use, l) {}
    std::vector<std::string> path;    // lib.torch.nn
    std::vector<std::string> names;   // {A, b}; empty with star or for a plain `use a.b`
    std::vector<std::string> aliases; // `A as B` (parallel to names; "" when none)
    std::vector<SourceLoc> name_locs;
    bool star = false;
    bool is_export = false;
    std::string alias;                // `use lib.torch.nn.functional as F`
    std::vector<UseBinding> bindings; // filled by the module loader
};

struct Export : Stmt {
    Export(SourceLoc l) : Stmt(StmtKind::Export, l) {}
    std::vector<std::string> names;
    std::vector<SourceLoc> locs;
};

struct Module {
    const SourceFile* file = nullptr;
    FnProto init; // the module's top-level statements are this function's body
};

inline Lambda::Lambda(SourceLoc l, std::unique_ptr<FnProto> p) : Expr(ExprKind::Lambda, l), proto(std::move(p)) {}
inline Lambda::~Lambda() = default;

} // namespace ast
} // namespace spl
