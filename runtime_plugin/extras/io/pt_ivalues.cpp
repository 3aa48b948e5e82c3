// lib.torch.save's flat program as c10::IValues (IValueReader) and c10::IValues as a program
// (ivalue_result): pt_ivalues.h.
#include "extras/io/pt_ivalues.h"

#include "core/handle_table.h"

#include <ATen/core/Dict.h>
#include <ATen/core/List.h>

#include <utility>

namespace spl::io::pt {

namespace {

c10::TypePtr unwrap_optional(const c10::TypePtr& t) {
    if (t && t->kind() == c10::TypeKind::OptionalType) return t->expectRef<c10::OptionalType>().getElementType();
    return t;
}

// The one type every item has (Tensor for a list of tensors), or Any.
c10::TypePtr common_type(const std::vector<c10::IValue>& items) {
    if (items.empty()) return c10::TensorType::get();
    c10::TypePtr t = items[0].isTensor() ? c10::TensorType::get() : items[0].type();
    for (const auto& item : items)
        if (!item.type()->isSubtypeOf(*t)) return c10::AnyType::get();
    return t;
}

// `wanted` when every item fits it; otherwise the items' own type, so that the schema check
// names what was given ("Dict[str, Tensor]" where "Dict[str, float]" was asked for).
c10::TypePtr fitting(const c10::TypePtr& wanted, const std::vector<c10::IValue>& items) {
    if (wanted) {
        bool fits = true;
        for (const auto& item : items) fits = fits && item.type()->isSubtypeOf(*wanted);
        if (fits) return wanted;
    }
    return common_type(items);
}

void write_value(const c10::IValue& v, Program& p, const std::string& where, int64_t depth) {
    TORCH_CHECK(depth < kMaxDepth, where, " nests containers more than ", kMaxDepth, " deep");
    if (v.isNone()) {
        p.ops.push_back(kNil);
    } else if (v.isBool()) {
        p.ops.push_back(v.toBool() ? kTrue : kFalse);
    } else if (v.isInt()) {
        p.ops.push_back(kInt);
        p.ops.push_back(v.toInt());
    } else if (v.isDouble()) {
        p.ops.push_back(kFloat);
        p.floats.push_back(v.toDouble());
    } else if (v.isString()) {
        p.ops.push_back(kText);
        p.texts.push_back(v.toStringRef());
    } else if (v.isDevice()) {
        p.ops.push_back(kText);
        p.texts.push_back(v.toDevice().str());
    } else if (v.isTensor()) {
        p.ops.push_back(kTensor);
        p.tensors.push_back(v.toTensor());
    } else if (v.isList()) {
        const auto items = v.toListRef();
        p.ops.push_back(kList);
        p.ops.push_back(static_cast<int64_t>(items.size()));
        for (size_t i = 0; i < items.size(); ++i)
            write_value(items[i], p, where + "[" + std::to_string(i) + "]", depth + 1);
    } else if (v.isTuple()) {
        const auto& items = v.toTupleRef().elements();
        p.ops.push_back(kTuple);
        p.ops.push_back(static_cast<int64_t>(items.size()));
        for (size_t i = 0; i < items.size(); ++i)
            write_value(items[i], p, where + "[" + std::to_string(i) + "]", depth + 1);
    } else if (v.isGenericDict()) {
        const auto d = v.toGenericDict();
        p.ops.push_back(kDict);
        p.ops.push_back(static_cast<int64_t>(d.size()));
        for (const auto& entry : d) {
            TORCH_CHECK(entry.key().isString() || entry.key().isInt(), where, " is a dict with keys of type ",
                        entry.key().type()->repr_str(), ": lib.torch takes dicts with text or int keys");
            write_value(entry.key(), p, where, depth + 1);
            const std::string key =
                entry.key().isString() ? "'" + entry.key().toStringRef() + "'" : std::to_string(entry.key().toInt());
            write_value(entry.value(), p, where + "[" + key + "]", depth + 1);
        }
    } else {
        TORCH_CHECK(false, where, " is of type ", v.type()->repr_str(),
                    ", which lib.torch has no value for (it takes None, bool, int, float, str, Tensor, and "
                    "lists, tuples and dicts of them)");
    }
}

} // namespace

// --- the flat program -> IValues ---------------------------------------------------------

c10::IValue IValueReader::next(const c10::TypePtr& expected, int64_t depth) {
    TORCH_CHECK(depth < kMaxDepth, "a value nests containers more than ", kMaxDepth, " deep");
    const c10::TypePtr want = unwrap_optional(expected);
    const int64_t op = take_op();
    switch (op) {
    case kNil: return c10::IValue();
    case kFalse: return c10::IValue(false);
    case kTrue: return c10::IValue(true);
    case kInt: {
        const int64_t v = take_op();
        if (want && want->kind() == c10::TypeKind::FloatType) return c10::IValue(static_cast<double>(v));
        return c10::IValue(v);
    }
    case kFloat: return c10::IValue(take_float());
    case kText: return c10::IValue(take_text());
    case kTensor: return c10::IValue(take_tensor());
    case kList: return list(take_count(), want, depth);
    case kTuple: return tuple(take_count(), want, depth);
    case kDict: return dict(take_count(), want, depth);
    default: TORCH_CHECK(false, "ops: unknown op code ", op);
    }
}

c10::IValue IValueReader::list(int64_t n, const c10::TypePtr& want, int64_t depth) {
    const c10::TypePtr element =
        want && want->kind() == c10::TypeKind::ListType ? want->expectRef<c10::ListType>().getElementType() : nullptr;
    std::vector<c10::IValue> items;
    for (int64_t i = 0; i < n; ++i) items.push_back(next(element, depth + 1));
    const c10::TypePtr type = fitting(element, items);
    c10::impl::GenericList out(type);
    for (auto& item : items) out.push_back(std::move(item));
    return c10::IValue(std::move(out));
}

c10::IValue IValueReader::tuple(int64_t n, const c10::TypePtr& want, int64_t depth) {
    const auto* t = want && want->kind() == c10::TypeKind::TupleType ? &want->expectRef<c10::TupleType>() : nullptr;
    std::vector<c10::IValue> items;
    for (int64_t i = 0; i < n; ++i)
        items.push_back(
            next(t && static_cast<size_t>(i) < t->elements().size() ? t->elements()[i] : nullptr, depth + 1));
    return c10::ivalue::Tuple::create(std::move(items));
}

c10::IValue IValueReader::dict(int64_t n, const c10::TypePtr& want, int64_t depth) {
    const auto* t = want && want->kind() == c10::TypeKind::DictType ? &want->expectRef<c10::DictType>() : nullptr;
    std::vector<c10::IValue> keys, values;
    for (int64_t i = 0; i < n; ++i) {
        keys.push_back(next(t ? t->getKeyType() : nullptr, depth + 1));
        values.push_back(next(t ? t->getValueType() : nullptr, depth + 1));
    }
    c10::impl::GenericDict out(fitting(t ? t->getKeyType() : nullptr, keys),
                               fitting(t ? t->getValueType() : nullptr, values));
    for (size_t i = 0; i < keys.size(); ++i) out.insert_or_assign(std::move(keys[i]), std::move(values[i]));
    return c10::IValue(std::move(out));
}

int64_t IValueReader::take_op() {
    TORCH_CHECK(pos_ < ops_.len, "ops: the program ends early");
    return ops_.data[pos_++];
}

int64_t IValueReader::take_count() {
    const int64_t n = take_op();
    TORCH_CHECK(n >= 0 && n <= ops_.len, "ops: a bad container length ", n);
    return n;
}

double IValueReader::take_float() {
    TORCH_CHECK(float_pos_ < floats_.len, "floats: the program ends early");
    return floats_.data[float_pos_++];
}

std::string IValueReader::take_text() {
    TORCH_CHECK(text_pos_ < texts_.size(), "texts: the program ends early");
    return texts_[text_pos_++];
}

at::Tensor IValueReader::take_tensor() {
    TORCH_CHECK(tensor_pos_ < tensors_.len, "tensors: the program ends early");
    return HandleTable::instance().get(tensors_.data[tensor_pos_++], "tensor");
}

// --- IValues -> the flat program -------------------------------------------------------------

SplValue ivalue_result(const c10::IValue& v, const std::string& where) {
    Program p;
    write_value(v, p, where, 0);
    return program_value(std::move(p));
}

} // namespace spl::io::pt
