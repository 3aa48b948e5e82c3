// The syntax tree's small out-of-line parts (operator names for messages).
#include "syntax/ast.h"

namespace spl::ast {

const char* binop_text(BinOp op) {
    switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::Mod: return "%";
    case BinOp::Pow: return "**";
    case BinOp::MatMul: return "@";
    case BinOp::Eq: return "==";
    case BinOp::Ne: return "!=";
    case BinOp::Lt: return "<";
    case BinOp::Le: return "<=";
    case BinOp::Gt: return ">";
    case BinOp::Ge: return ">=";
    case BinOp::In: return "in";
    case BinOp::NotIn: return "not in";
    case BinOp::Coalesce: return "??";
    }
    return "?";
}

} // namespace spl::ast
