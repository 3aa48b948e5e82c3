// TorchScript modules (torch.jit.load) for lib.torch.jit (spl_stubs/lib/torch/jit/_script.spl): a loaded
// torch::jit::Module in the handle table; its methods run with values that cross as
// lib.torch.save's flat program (extras/io/pt.cpp: ops, texts, floats, tensor handles), built
// into IValues of the types the method's schema asks for, and its results back the same way
// (extras/io/pt_ivalues.h).
// A module's parameters and buffers are handed out as handles to the module's own tensors
// (the same TensorImpl), so that an optimizer stepping them changes the module.
#include "core/shapes_only.h"
#include "extras/io/io_support.h"
#include "extras/io/pt_ivalues.h"
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

} // namespace

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
        spl::refuse_file_in_shapes_only_run(file);
        const std::string where(spl::required_text(map_location, "map_location"));
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0) throw spl::SplError("The provided filename " + file + " does not exist");
        if (S_ISDIR(st.st_mode)) throw spl::SplError("The provided filename " + file + " is a directory");
        const c10::Device device(where);
        try {
            return spl::jit::new_module(torch::jit::load(file, device));
        } catch (const c10::Error&) {
            throw spl::SplError(spl::current_exception_text() + " (loading " + file + " as TorchScript)");
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
        spl::io::pt::IValueReader reader(ops, spl::io::text_list(texts, "texts"), floats, tensors);
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
        } catch (const c10::Error&) {
            const std::string message = spl::current_exception_text();
            throw spl::SplError(message.rfind(name + "()", 0) == 0 ? message : name + "() " + message);
        }
        return spl::io::pt::ivalue_result(out, name + "()'s result");
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
        return spl::io::pt::ivalue_result(m.attr(attr), attr);
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
        } catch (const c10::Error&) {
            throw spl::SplError(spl::current_exception_text() + " (saving " + file + ")");
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
