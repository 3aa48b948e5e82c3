// TorchScript modules (torch.jit.load) for lib.torch.jit (spl_stubs/lib/torch/jit/_script.spl): a loaded
// torch::jit::Module in the handle table; its methods run with values that cross as
// lib.torch.save's flat program (extras/io/pt.cpp: ops, texts, floats, tensor handles), built
// into IValues of the types the method's schema asks for, and its results back the same way.
// A module's parameters and buffers are handed out as handles to the module's own tensors
// (the same TensorImpl), so that an optimizer stepping them changes the module.
#include "extras/io/io_support.h"
#include "extras/io/pt_format.h"
#include "extras/jit/script_module.h"

#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/serialization/import.h>

#include <sys/stat.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spl::jit {

namespace {

namespace pt = spl::io::pt;

class ScriptModuleObject : public HandleObject {
public:
    static constexpr const char* kKind = "a ScriptModule";
    explicit ScriptModuleObject(torch::jit::Module m) : module(std::move(m)) {}
    const char* kind() const noexcept override { return kKind; }
    torch::jit::Module module;
};

// --- the flat program -> IValues ---------------------------------------------------------

class ProgramReader {
public:
    ProgramReader(SplI64Array ops, std::vector<std::string> texts, SplF64Array floats, SplI64Array tensors)
        : ops_(ops), texts_(std::move(texts)), floats_(floats), tensors_(tensors) {}

    bool done() const { return pos_ == ops_.len; }

    // The next value, as `expected` asks where it can be (a list of tensors as a Tensor[],
    // an int for a float); otherwise as its own type, for the schema check to refuse.
    c10::IValue next(const c10::TypePtr& expected, int64_t depth = 0) {
        TORCH_CHECK(depth < pt::kMaxDepth, "a value nests containers more than ", pt::kMaxDepth, " deep");
        const c10::TypePtr want = unwrap_optional(expected);
        const int64_t op = take_op();
        switch (op) {
        case pt::kNil: return c10::IValue();
        case pt::kFalse: return c10::IValue(false);
        case pt::kTrue: return c10::IValue(true);
        case pt::kInt: {
            const int64_t v = take_op();
            if (want && want->kind() == c10::TypeKind::FloatType) return c10::IValue(static_cast<double>(v));
            return c10::IValue(v);
        }
        case pt::kFloat: return c10::IValue(take_float());
        case pt::kText: return c10::IValue(take_text());
        case pt::kTensor: return c10::IValue(take_tensor());
        case pt::kList: return list(take_count(), want, depth);
        case pt::kTuple: return tuple(take_count(), want, depth);
        case pt::kDict: return dict(take_count(), want, depth);
        default: TORCH_CHECK(false, "ops: unknown op code ", op);
        }
    }

private:
    static c10::TypePtr unwrap_optional(const c10::TypePtr& t) {
        if (t && t->kind() == c10::TypeKind::OptionalType) return t->expectRef<c10::OptionalType>().getElementType();
        return t;
    }

    c10::IValue list(int64_t n, const c10::TypePtr& want, int64_t depth) {
        const c10::TypePtr element = want && want->kind() == c10::TypeKind::ListType
                                         ? want->expectRef<c10::ListType>().getElementType()
                                         : nullptr;
        std::vector<c10::IValue> items;
        for (int64_t i = 0; i < n; ++i) items.push_back(next(element, depth + 1));
        const c10::TypePtr type = fitting(element, items);
        c10::impl::GenericList out(type);
        for (auto& item : items) out.push_back(std::move(item));
        return c10::IValue(std::move(out));
    }

    c10::IValue tuple(int64_t n, const c10::TypePtr& want, int64_t depth) {
        const auto* t = want && want->kind() == c10::TypeKind::TupleType ? &want->expectRef<c10::TupleType>() : nullptr;
        std::vector<c10::IValue> items;
        for (int64_t i = 0; i < n; ++i)
            items.push_back(
                next(t && static_cast<size_t>(i) < t->elements().size() ? t->elements()[i] : nullptr, depth + 1));
        return c10::ivalue::Tuple::create(std::move(items));
    }

    c10::IValue dict(int64_t n, const c10::TypePtr& want, int64_t depth) {
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

    // `wanted` when every item fits it; otherwise the items' own type, so that the schema check
    // names what was given ("Dict[str, Tensor]" where "Dict[str, float]" was asked for).
    static c10::TypePtr fitting(const c10::TypePtr& wanted, const std::vector<c10::IValue>& items) {
        if (wanted) {
            bool fits = true;
            for (const auto& item : items) fits = fits && item.type()->isSubtypeOf(*wanted);
            if (fits) return wanted;
        }
        return common_type(items);
    }

    // The one type every item has (Tensor for a list of tensors), or Any.
    static c10::TypePtr common_type(const std::vector<c10::IValue>& items) {
        if (items.empty()) return c10::TensorType::get();
        c10::TypePtr t = items[0].isTensor() ? c10::TensorType::get() : items[0].type();
        for (const auto& item : items)
            if (!item.type()->isSubtypeOf(*t)) return c10::AnyType::get();
        return t;
    }

    int64_t take_op() {
        TORCH_CHECK(pos_ < ops_.len, "ops: the program ends early");
        return ops_.data[pos_++];
    }
    int64_t take_count() {
        const int64_t n = take_op();
        TORCH_CHECK(n >= 0 && n <= ops_.len, "ops: a bad container length ", n);
        return n;
    }
    double take_float() {
        TORCH_CHECK(float_pos_ < floats_.len, "floats: the program ends early");
        return floats_.data[float_pos_++];
    }
    std::string take_text() {
        TORCH_CHECK(text_pos_ < texts_.size(), "texts: the program ends early");
        return texts_[text_pos_++];
    }
    at::Tensor take_tensor() {
        TORCH_CHECK(tensor_pos_ < tensors_.len, "tensors: the program ends early");
        return HandleTable::instance().get(tensors_.data[tensor_pos_++], "tensor");
    }

    SplI64Array ops_;
    std::vector<std::string> texts_;
    SplF64Array floats_;
    SplI64Array tensors_;
    int64_t pos_ = 0, float_pos_ = 0, tensor_pos_ = 0;
    size_t text_pos_ = 0;
};

// --- IValues -> the flat program -------------------------------------------------------------

void write_value(const c10::IValue& v, pt::Program& p, const std::string& where, int64_t depth) {
    TORCH_CHECK(depth < pt::kMaxDepth, where, " nests containers more than ", pt::kMaxDepth, " deep");
    if (v.isNone()) {
        p.ops.push_back(pt::kNil);
    } else if (v.isBool()) {
        p.ops.push_back(v.toBool() ? pt::kTrue : pt::kFalse);
    } else if (v.isInt()) {
        p.ops.push_back(pt::kInt);
        p.ops.push_back(v.toInt());
    } else if (v.isDouble()) {
        p.ops.push_back(pt::kFloat);
        p.floats.push_back(v.toDouble());
    } else if (v.isString()) {
        p.ops.push_back(pt::kText);
        p.texts.push_back(v.toStringRef());
    } else if (v.isDevice()) {
        p.ops.push_back(pt::kText);
        p.texts.push_back(v.toDevice().str());
    } else if (v.isTensor()) {
        p.ops.push_back(pt::kTensor);
        p.tensors.push_back(v.toTensor());
    } else if (v.isList()) {
        const auto items = v.toListRef();
        p.ops.push_back(pt::kList);
        p.ops.push_back(static_cast<int64_t>(items.size()));
        for (size_t i = 0; i < items.size(); ++i)
            write_value(items[i], p, where + "[" + std::to_string(i) + "]", depth + 1);
    } else if (v.isTuple()) {
        const auto& items = v.toTupleRef().elements();
        p.ops.push_back(pt::kTuple);
        p.ops.push_back(static_cast<int64_t>(items.size()));
        for (size_t i = 0; i < items.size(); ++i)
            write_value(items[i], p, where + "[" + std::to_string(i) + "]", depth + 1);
    } else if (v.isGenericDict()) {
        const auto d = v.toGenericDict();
        p.ops.push_back(pt::kDict);
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

// ([text] names, [i64] handles) of `named` (a module's own slots, or children).
template <class Items, class Handle>
SplValue named_handles(const Items& items, Handle handle_of) {
    std::vector<std::string> names;
    std::vector<int64_t> handles;
    for (const auto& item : items) {
        names.push_back(item.name);
        handles.push_back(handle_of(item.value));
    }
    ResultArena& arena = ResultArena::current();
    arena.reset();
    const SplValue name_values = io::text_array(names);
    SplValue* hs = arena.values(handles.size());
    for (size_t i = 0; i < handles.size(); ++i) hs[i] = v_i64(handles[i]);
    return tuple_value({name_values, v_array(hs, static_cast<int64_t>(handles.size()))});
}

std::string error_text(const c10::Error& e) { return e.what_without_backtrace(); }

} // namespace

SplValue value_result(const c10::IValue& v, const std::string& where) {
    pt::Program p;
    write_value(v, p, where, 0);
    return pt::program_value(std::move(p));
}

torch::jit::Module& module_of(int64_t handle) {
    return HandleTable::instance().object<ScriptModuleObject>(handle, "module", ScriptModuleObject::kKind)->module;
}

int64_t new_module(torch::jit::Module m) {
    return HandleTable::instance().insert_object(std::make_shared<ScriptModuleObject>(std::move(m)));
}
} // namespace spl::jit

extern "C" {

// torch.jit.load(path, map_location): PyTorch's texts for a missing file and a directory;
// LibTorch's message, then the file, for one it cannot read as TorchScript.
SPL_TORCH_EXPORT int64_t rt_torch_jit_load(const char* path, const char* map_location) {
    return spl::guarded<int64_t>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        const std::string where(spl::required_text(map_location, "map_location"));
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0) throw spl::SplError("The provided filename " + file + " does not exist");
        if (S_ISDIR(st.st_mode)) throw spl::SplError("The provided filename " + file + " is a directory");
        const c10::Device device(where);
        try {
            return spl::jit::new_module(torch::jit::load(file, device));
        } catch (const c10::Error& e) {
            throw spl::SplError(spl::jit::error_text(e) + " (loading " + file + " as TorchScript)");
        }
    });
}

// Runs `method` with the arguments the program holds: its first `npositional` top-level values
// positional, then one per name in `names` (keyword arguments). The result as a program.
SPL_TORCH_EXPORT SplValue rt_torch_jit_run(int64_t module, const char* method, int64_t npositional, SplTextArray names,
                                           SplI64Array ops, SplTextArray texts, SplF64Array floats,
                                           SplI64Array tensors) {
    return spl::guarded<SplValue>(__func__, [&] {
        torch::jit::Module& m = spl::jit::module_of(module);
        const std::string name(spl::required_text(method, "method"));
        const auto found = m.find_method(name); // std::optional, c10::optional in 1.13
        if (!found)
            throw spl::SplError("'RecursiveScriptModule' object has no attribute '" + name + "' (" +
                                m.type()->name()->qualifiedName() + " has no method '" + name + "')");
        const c10::FunctionSchema& schema = found->function().getSchema();
        const auto& arguments = schema.arguments();
        const std::vector<std::string> keywords = spl::io::text_list(names, "names");
        spl::check_list(ops.len, ops.data, "ops");
        spl::check_list(floats.len, floats.data, "floats");
        spl::check_list(tensors.len, tensors.data, "tensors");
        spl::jit::ProgramReader reader(ops, spl::io::text_list(texts, "texts"), floats, tensors);
        std::vector<c10::IValue> stack;
        for (int64_t i = 0; i < npositional; ++i) {
            const size_t at = static_cast<size_t>(i) + 1; // arguments[0] is self
            stack.push_back(reader.next(at < arguments.size() ? arguments[at].type() : nullptr));
        }
        torch::jit::Kwargs kwargs;
        for (const std::string& keyword : keywords) {
            const auto index = schema.argumentIndexWithName(keyword);
            kwargs[keyword] = reader.next(index ? arguments[*index].type() : nullptr);
        }
        TORCH_CHECK(reader.done(), "ops: more values than ", npositional, " positional and ", keywords.size(),
                    " named arguments");
        c10::IValue out;
        try {
            out = (*found)(std::move(stack), kwargs);
        } catch (const c10::Error& e) {
            const std::string message = spl::jit::error_text(e);
            throw spl::SplError(message.rfind(name + "()", 0) == 0 ? message : name + "() " + message);
        }
        return spl::jit::value_result(out, name + "()'s result");
    });
}

// The names of the module's methods (forward and the exported ones), in definition order.
SPL_TORCH_EXPORT SplValue rt_torch_jit_methods(int64_t module) {
    return spl::guarded<SplValue>(__func__, [&] {
        std::vector<std::string> names;
        for (const auto& method : spl::jit::module_of(module).get_methods()) names.push_back(method.name());
        spl::ResultArena::current().reset();
        return spl::io::text_array(names);
    });
}

// An attribute (a submodule is refused: its handle comes from rt_torch_jit_children).
SPL_TORCH_EXPORT SplValue rt_torch_jit_attr(int64_t module, const char* name) {
    return spl::guarded<SplValue>(__func__, [&] {
        torch::jit::Module& m = spl::jit::module_of(module);
        const std::string attr(spl::required_text(name, "name"));
        TORCH_CHECK(m.hasattr(attr), "'RecursiveScriptModule' object has no attribute '", attr, "'");
        return spl::jit::value_result(m.attr(attr), attr);
    });
}

// The module's own parameters (`buffers` false) or buffers, as handles to its tensors.
SPL_TORCH_EXPORT SplValue rt_torch_jit_tensors(int64_t module, bool buffers) {
    return spl::guarded<SplValue>(__func__, [&] {
        torch::jit::Module& m = spl::jit::module_of(module);
        auto handle = [](const at::Tensor& t) { return spl::new_handle(at::Tensor(t)); };
        if (buffers) return spl::jit::named_handles(m.named_buffers(false), handle);
        return spl::jit::named_handles(m.named_parameters(false), handle);
    });
}

// The module's children, as new module handles.
SPL_TORCH_EXPORT SplValue rt_torch_jit_children(int64_t module) {
    return spl::guarded<SplValue>(__func__, [&] {
        return spl::jit::named_handles(spl::jit::module_of(module).named_children(),
                                       [](const torch::jit::Module& c) { return spl::jit::new_module(c); });
    });
}

SPL_TORCH_EXPORT void rt_torch_jit_train(int64_t module, bool mode) {
    spl::guarded<void>(__func__, [&] { spl::jit::module_of(module).train(mode); });
}

SPL_TORCH_EXPORT bool rt_torch_jit_is_training(int64_t module) {
    return spl::guarded<bool>(__func__, [&] { return spl::jit::module_of(module).is_training(); });
}

// The module's type, as TorchScript names it ("__torch__.Net").
SPL_TORCH_EXPORT const char* rt_torch_jit_type_name(int64_t module) {
    return spl::guarded<const char*>(__func__, [&] {
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(spl::jit::module_of(module).type()->name()->qualifiedName());
    });
}

// torch.jit.save(module, path): the module with its current parameters and buffers.
SPL_TORCH_EXPORT void rt_torch_jit_save(int64_t module, const char* path) {
    spl::guarded<void>(__func__, [&] {
        const std::string file = spl::io::path_arg(path);
        try {
            spl::jit::module_of(module).save(file);
        } catch (const c10::Error& e) {
            throw spl::SplError(spl::jit::error_text(e) + " (saving " + file + ")");
        }
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_jit_load, "path", "map_location")
SPL_EXTRA_RETURNS(rt_torch_jit_run, "([i64], [text], [f64], [i64])", "module", "method", "npositional", "names", "ops",
                  "texts", "floats", "tensors")
SPL_EXTRA_RETURNS(rt_torch_jit_methods, "[text]", "module")
SPL_EXTRA_RETURNS(rt_torch_jit_attr, "([i64], [text], [f64], [i64])", "module", "name")
SPL_EXTRA_RETURNS(rt_torch_jit_tensors, "([text], [i64])", "module", "buffers")
SPL_EXTRA_RETURNS(rt_torch_jit_children, "([text], [i64])", "module")
SPL_EXTRA(rt_torch_jit_train, "module", "mode")
SPL_EXTRA(rt_torch_jit_is_training, "module")
SPL_EXTRA(rt_torch_jit_type_name, "module")
SPL_EXTRA(rt_torch_jit_save, "module", "path")
