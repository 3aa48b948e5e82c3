// expr_text.cpp — expressions printed back as source (expr_text.h).
#include "syntax/expr_text.h"

#include <cmath>

namespace spl {

using namespace ast;

namespace {

int binop_precedence(BinOp op) {
    switch (op) {
    case BinOp::Add:
    case BinOp::Sub: return 7;
    case BinOp::Mul:
    case BinOp::Div:
    case BinOp::Mod:
    case BinOp::MatMul: return 8;
    case BinOp::Pow: return 11;
    case BinOp::Coalesce: return 5;
    default: return 4; // comparisons, `in`, `not in`
    }
}

std::string args_text(const std::vector<ExprPtr>& args, const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < args.size(); ++i) {
        if (i) out += ", ";
        const std::string name = i < names.size() ? names[i] : "";
        if (name == "*" || name == "**")
            out += name;
        else if (!name.empty())
            out += name + ": ";
        out += expr_text(*args[i]);
    }
    return out;
}

} // namespace

int expr_precedence(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Binary: return binop_precedence(static_cast<const Binary&>(e).op);
    case ExprKind::Logical: return static_cast<const Logical&>(e).is_and ? 2 : 1;
    case ExprKind::Unary: return static_cast<const Unary&>(e).op == UnaryOp::Not ? 3 : 10;
    case ExprKind::Range: return 6;
    case ExprKind::Cast: return 9;
    case ExprKind::Lambda:
    case ExprKind::If:
    case ExprKind::Match: return 0;
    case ExprKind::Int: return static_cast<const Literal&>(e).value.as_int() < 0 ? 10 : 12; // `-7` is a sign
    case ExprKind::Float: return std::signbit(static_cast<const Literal&>(e).value.as_float()) ? 10 : 12;
    default: return 12;
    }
}

std::string expr_text_at(const Expr& e, int precedence) {
    std::string text = expr_text(e);
    return expr_precedence(e) < precedence ? "(" + text + ")" : text;
}

std::string expr_text(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Int: return std::to_string(static_cast<const Literal&>(e).value.as_int());
    case ExprKind::Float: return format_float(static_cast<const Literal&>(e).value.as_float());
    case ExprKind::Str: return "\"" + str_of(static_cast<const Literal&>(e).value) + "\"";
    case ExprKind::Bool: return static_cast<const Literal&>(e).value.as_bool() ? "true" : "false";
    case ExprKind::Nil: return "nil";
    case ExprKind::Name: return static_cast<const Name&>(e).name;
    case ExprKind::Unary: {
        const auto& u = static_cast<const Unary&>(e);
        const char* sign = u.op == UnaryOp::Not ? "not " : u.op == UnaryOp::Neg ? "-" : "+";
        return sign + expr_text_at(*u.operand, expr_precedence(e));
    }
    case ExprKind::Binary: {
        const auto& b = static_cast<const Binary&>(e);
        const int p = binop_precedence(b.op);
        // Left to right, except `**`: the side that would regroup gets parentheses at equal precedence.
        const bool right_assoc = b.op == BinOp::Pow;
        return expr_text_at(*b.lhs, right_assoc ? p + 1 : p) + " " + binop_text(b.op) + " " +
               expr_text_at(*b.rhs, right_assoc ? p : p + 1);
    }
    case ExprKind::Logical: {
        const auto& l = static_cast<const Logical&>(e);
        const int p = expr_precedence(e);
        return expr_text_at(*l.lhs, p) + (l.is_and ? " and " : " or ") + expr_text_at(*l.rhs, p + 1);
    }
    case ExprKind::Range: {
        const auto& r = static_cast<const Range&>(e);
        return expr_text_at(*r.start, 7) + (r.inclusive ? "..=" : "..") + expr_text_at(*r.end, 7);
    }
    case ExprKind::Cast: {
        const auto& c = static_cast<const Cast&>(e);
        return expr_text_at(*c.operand, 9) + " as " + c.type.text;
    }
    case ExprKind::Call: {
        const auto& c = static_cast<const Call&>(e);
        return expr_text_at(*c.callee, 12) + "(" + args_text(c.args, c.arg_names) + ")";
    }
    case ExprKind::MethodCall: {
        const auto& m = static_cast<const MethodCall&>(e);
        return expr_text_at(*m.object, 12) + "." + m.name + "(" + args_text(m.args, m.arg_names) + ")";
    }
    case ExprKind::Member: {
        const auto& m = static_cast<const Member&>(e);
        return expr_text_at(*m.object, 12) + "." + m.name;
    }
    case ExprKind::Index: {
        const auto& x = static_cast<const Index&>(e);
        std::string out = expr_text_at(*x.object, 12) + "[";
        for (size_t i = 0; i < x.indices.size(); ++i) out += (i ? ", " : "") + expr_text(*x.indices[i]);
        return out + "]";
    }
    case ExprKind::Slice: {
        const auto& s = static_cast<const Slice&>(e);
        std::string out = (s.start ? expr_text(*s.start) : "") + ":" + (s.stop ? expr_text(*s.stop) : "");
        return s.step ? out + ":" + expr_text(*s.step) : out;
    }
    case ExprKind::Tuple: {
        const auto& t = static_cast<const TupleLit&>(e);
        std::string out = "(";
        for (size_t i = 0; i < t.elems.size(); ++i) out += (i ? ", " : "") + expr_text(*t.elems[i]);
        return out + (t.elems.size() == 1 ? ",)" : ")");
    }
    case ExprKind::Array: {
        const auto& a = static_cast<const ArrayLit&>(e);
        std::string out = "[";
        for (size_t i = 0; i < a.elems.size(); ++i) out += (i ? ", " : "") + expr_text(*a.elems[i]);
        return out + "]";
    }
    case ExprKind::Try: return expr_text_at(*static_cast<const Try&>(e).operand, 12) + "?";
    default: return "...";
    }
}

} // namespace spl
