// AOTInductor packages for lib.torch._inductor (spl_stubs/lib/torch/_inductor/package.spl): a `.pt2` file
// that Python's torch._inductor.aoti_compile_and_package wrote, loaded by LibTorch's
// torch::inductor::AOTIModelPackageLoader (which unpacks it and dlopens its compiled model) and
// kept in the handle table. run() is the loader's run on flat tensors; call() is what Python's
// AOTICompiledModel.__call__ does with the outputs: rebuilt by the package's output tree spec.
//
// The compiled model checks its inputs' dtypes, sizes and strides only when the environment
// variable AOTI_RUNTIME_CHECK_INPUTS is set when it first runs (it reads the variable once);
// without the check a tensor of another size is read out of bounds. So loading sets it to 1
// unless the user set it: a wrong input is an error naming it, never a crash.
//
// The compiled model names libtorch.so among its libraries, which the plugin itself does not load
// (it links libtorch_cpu): unless the one beside the loaded libtorch_cpu is loaded first, the
// system's search finds whatever libtorch.so the machine has (Debian's 1.13 here), and two
// LibTorch builds in one process abort in their initialisers.
#include "extras/extra_function.h"
#include "extras/io/io_support.h"
#include "extras/io/pt_ivalues.h"

#include "core/libtorch_compat.h"
#include "core/loaded_version.h"

#if SPL_TORCH_AT_LEAST(2, 8)
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#endif
#include <ATen/core/Dict.h>
#include <ATen/core/List.h>
#include <ATen/core/ivalue.h>
#include <nlohmann/json.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace spl::aoti {

namespace {

#if SPL_TORCH_AT_LEAST(2, 8)
using Loader = torch::inductor::AOTIModelPackageLoader;

class PackageObject : public HandleObject {
public:
    static constexpr const char* kKind = "an AOTInductor package";
    explicit PackageObject(std::unique_ptr<Loader> l) : loader(std::move(l)) {}
    const char* kind() const noexcept override { return kKind; }
    std::unique_ptr<Loader> loader;
};

Loader& loader_of(int64_t handle) {
    return *HandleTable::instance().object<PackageObject>(handle, "package", PackageObject::kKind)->loader;
}

// --- the output tree spec (torch.utils._pytree.treespec_dumps, protocol 1) ----------------

using json = nlohmann::json;

// The value `spec` describes, its leaves taken from `leaves` in order (as pytree.tree_unflatten).
c10::IValue unflatten(const json& spec, std::vector<at::Tensor>& leaves, size_t& next, int depth) {
    TORCH_CHECK(depth < 200, "the package's output spec nests more than 200 deep");
    const json& type = spec.at("type");
    const json& children = spec.at("children_spec");
    if (type.is_null()) {
        TORCH_CHECK(next < leaves.size(), "the package's output spec has more leaves than the ", leaves.size(),
                    " tensors the model returned");
        return c10::IValue(std::move(leaves[next++]));
    }
    const std::string kind = type.get<std::string>();
    if (kind == "builtins.NoneType") return c10::IValue();
    std::vector<c10::IValue> items;
    for (const json& child : children) items.push_back(unflatten(child, leaves, next, depth + 1));
    if (kind == "builtins.tuple" || kind == "collections.namedtuple" || kind == "torch.return_types")
        return c10::ivalue::Tuple::create(std::move(items));
    if (kind == "builtins.list") {
        c10::impl::GenericList list(c10::AnyType::get());
        for (auto& item : items) list.push_back(std::move(item));
        return list;
    }
    if (kind == "builtins.dict" || kind == "collections.OrderedDict") {
        const json keys = json::parse(spec.at("context").get<std::string>());
        TORCH_CHECK(keys.size() == items.size(), "the package's output spec has ", keys.size(), " dict keys for ",
                    items.size(), " values");
        c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
        for (size_t i = 0; i < items.size(); ++i) {
            const json& key = keys[i];
            TORCH_CHECK(key.is_string(), "the package's output dict has a key that is not a str: ", key.dump());
            dict.insert(key.get<std::string>(), std::move(items[i]));
        }
        return dict;
    }
    throw SplError("the package's output spec has a node of type " + kind +
                   ", which lib.torch cannot rebuild (it rebuilds tuples, lists, dicts with str keys and None)");
}

// The key order of the keyword arguments in the input spec ((args, kwargs) at its top).
std::vector<std::string> kwarg_names(const std::string& in_spec) {
    const json spec = json::parse(in_spec);
    const json& top = spec.at(1);
    const json& parts = top.at("children_spec");
    if (parts.size() != 2 || parts[1].at("type") != "builtins.dict") return {};
    const json keys = json::parse(parts[1].at("context").get<std::string>());
    std::vector<std::string> names;
    for (const json& key : keys) names.push_back(key.get<std::string>());
    return names;
}

SplValue text_map_value(std::vector<std::pair<std::string, std::string>> entries) {
    std::sort(entries.begin(), entries.end());
    std::vector<std::string> keys, values;
    for (auto& [k, v] : entries) {
        keys.push_back(k);
        values.push_back(v);
    }
    ResultArena::current().reset();
    const SplValue k = io::text_array(keys);
    const SplValue v = io::text_array(values);
    return tuple_value({k, v});
}

// Loads libtorch.so from the folder of the loaded libtorch_cpu, once (it stays loaded).
void load_libtorch_beside_cpu() {
    static const bool loaded = [] {
        const std::string cpu = loaded_libtorch_path();
        const size_t slash = cpu.rfind('/');
        if (slash == std::string::npos) return false;
        const std::string torch = cpu.substr(0, slash) + "/libtorch.so";
        return ::access(torch.c_str(), R_OK) == 0 && ::dlopen(torch.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr;
    }();
    (void)loaded;
}

std::vector<at::Tensor> run_checked(Loader& loader, SplI64Array inputs) {
    std::vector<at::Tensor> tensors = spl::tensor_list(inputs, "inputs");
    try {
        return loader.boxed_run(std::move(tensors));
    } catch (const std::exception&) {
        throw SplError("AOTInductor package run failed: " + current_exception_text());
    }
}
#else
[[noreturn]] void unsupported() {
    throw SplError(std::string("AOTInductor packages need LibTorch 2.8 or newer; this plugin was built against ") +
                   SPL_TORCH_LIBTORCH_VERSION);
}
#endif

} // namespace

} // namespace spl::aoti

extern "C" {

// torch._inductor.aoti_load_package(path, run_single_threaded, device_index, num_runners=) with
// the model `model_name` of the package (load_package's).
SPL_TORCH_EXPORT int64_t rt_torch_aoti_load(const char* path, const char* model_name, bool run_single_threaded,
                                            int64_t num_runners, int64_t device_index) {
    return spl::guarded<int64_t>(__func__, [&]() -> int64_t {
        const std::string file = spl::io::path_arg(path);
        const std::string model(spl::required_text(model_name, "model_name"));
#if SPL_TORCH_AT_LEAST(2, 8)
        TORCH_CHECK(num_runners >= 1, "num_runners must be at least 1, got ", num_runners);
        ::setenv("AOTI_RUNTIME_CHECK_INPUTS", "1", /*overwrite=*/0);
        spl::aoti::load_libtorch_beside_cpu();
        try {
            auto loader =
                std::make_unique<spl::aoti::Loader>(file, model, run_single_threaded, static_cast<size_t>(num_runners),
                                                    static_cast<c10::DeviceIndex>(device_index));
            return spl::HandleTable::instance().insert_object(
                std::make_shared<spl::aoti::PackageObject>(std::move(loader)));
        } catch (const std::exception&) {
            throw spl::SplError(spl::current_exception_text() + " (loading " + file + " as an AOTInductor package)");
        }
#else
        spl::aoti::unsupported();
#endif
    });
}

// AOTIModelPackageLoader::run: the model on its flat tensor inputs, its flat tensor outputs.
SPL_TORCH_EXPORT SplValue rt_torch_aoti_run(int64_t package, SplI64Array inputs) {
    return spl::guarded<SplValue>(__func__, [&]() -> SplValue {
#if SPL_TORCH_AT_LEAST(2, 8)
        const std::vector<at::Tensor> out = spl::aoti::run_checked(spl::aoti::loader_of(package), inputs);
        spl::ResultArena::current().reset();
        return spl::tensor_list_value(out);
#else
        spl::aoti::unsupported();
#endif
    });
}

// AOTICompiledModel.__call__'s outputs: the flat outputs rebuilt by the output spec, as a
// lib.torch.save program (extras/io/pt_ivalues.h).
SPL_TORCH_EXPORT SplValue rt_torch_aoti_call(int64_t package, SplI64Array inputs) {
    return spl::guarded<SplValue>(__func__, [&]() -> SplValue {
#if SPL_TORCH_AT_LEAST(2, 8)
        spl::aoti::Loader& loader = spl::aoti::loader_of(package);
        const std::vector<std::string> spec = loader.get_call_spec();
        TORCH_CHECK(spec.size() == 2, "the package's call spec has ", spec.size(), " parts, not 2");
        std::vector<at::Tensor> out = spl::aoti::run_checked(loader, inputs);
        size_t next = 0;
        const c10::IValue value = spl::aoti::unflatten(nlohmann::json::parse(spec[1]).at(1), out, next, 0);
        TORCH_CHECK(next == out.size(), "the model returned ", out.size(), " tensors; its output spec has ", next,
                    " leaves");
        return spl::io::pt::ivalue_result(value, "the package's output");
#else
        spl::aoti::unsupported();
#endif
    });
}

// get_metadata(): (sorted keys, values).
SPL_TORCH_EXPORT SplValue rt_torch_aoti_metadata(int64_t package) {
    return spl::guarded<SplValue>(__func__, [&]() -> SplValue {
#if SPL_TORCH_AT_LEAST(2, 8)
        const auto metadata = spl::aoti::loader_of(package).get_metadata();
        return spl::aoti::text_map_value({metadata.begin(), metadata.end()});
#else
        spl::aoti::unsupported();
#endif
    });
}

// get_call_spec(): [in_spec, out_spec], pytree's serialized tree specs.
SPL_TORCH_EXPORT SplValue rt_torch_aoti_call_spec(int64_t package) {
    return spl::guarded<SplValue>(__func__, [&]() -> SplValue {
#if SPL_TORCH_AT_LEAST(2, 8)
        const std::vector<std::string> spec = spl::aoti::loader_of(package).get_call_spec();
        spl::ResultArena::current().reset();
        return spl::io::text_array(spec);
#else
        spl::aoti::unsupported();
#endif
    });
}

// The keyword argument names of the input spec, in the order the model takes them.
SPL_TORCH_EXPORT SplValue rt_torch_aoti_kwarg_names(int64_t package) {
    return spl::guarded<SplValue>(__func__, [&]() -> SplValue {
#if SPL_TORCH_AT_LEAST(2, 8)
        const std::vector<std::string> spec = spl::aoti::loader_of(package).get_call_spec();
        TORCH_CHECK(!spec.empty(), "the package has no input spec");
        const std::vector<std::string> names = spl::aoti::kwarg_names(spec[0]);
        spl::ResultArena::current().reset();
        return spl::io::text_array(names);
#else
        spl::aoti::unsupported();
#endif
    });
}

// get_constant_fqns(): the names of the model's weights, as load_constants takes them.
SPL_TORCH_EXPORT SplValue rt_torch_aoti_constant_fqns(int64_t package) {
    return spl::guarded<SplValue>(__func__, [&]() -> SplValue {
#if SPL_TORCH_AT_LEAST(2, 8)
        const std::vector<std::string> names = spl::aoti::loader_of(package).get_constant_fqns();
        spl::ResultArena::current().reset();
        return spl::io::text_array(names);
#else
        spl::aoti::unsupported();
#endif
    });
}

// load_constants(constants_map, check_full_update=): new weights, copied into the model's.
SPL_TORCH_EXPORT void rt_torch_aoti_load_constants(int64_t package, SplTextArray names, SplI64Array tensors,
                                                   bool check_full_update) {
    spl::guarded<void>(__func__, [&] {
#if SPL_TORCH_AT_LEAST(2, 8)
        spl::aoti::Loader& loader = spl::aoti::loader_of(package);
        const std::vector<std::string> keys = spl::io::text_list(names, "names");
        const std::vector<at::Tensor> values = spl::tensor_list(tensors, "tensors");
        TORCH_CHECK(keys.size() == values.size(), "load_constants: ", keys.size(), " names for ", values.size(),
                    " tensors");
        std::unordered_map<std::string, at::Tensor> constants;
        for (size_t i = 0; i < keys.size(); ++i) constants.emplace(keys[i], values[i]);
        try {
            loader.load_constants(constants, /*use_inactive=*/false, check_full_update);
        } catch (const std::exception&) {
            throw spl::SplError("load_constants: " + spl::current_exception_text());
        }
#else
        spl::aoti::unsupported();
#endif
    });
}

} // extern "C"

SPL_EXTRA(rt_torch_aoti_load, "path", "model_name", "run_single_threaded", "num_runners", "device_index")
SPL_EXTRA_RETURNS(rt_torch_aoti_run, "[i64]", "package", "inputs")
SPL_EXTRA_RETURNS(rt_torch_aoti_call, "([i64], [text], [f64], [i64])", "package", "inputs")
SPL_EXTRA_RETURNS(rt_torch_aoti_metadata, "([text], [text])", "package")
SPL_EXTRA_RETURNS(rt_torch_aoti_call_spec, "[text]", "package")
SPL_EXTRA_RETURNS(rt_torch_aoti_kwarg_names, "[text]", "package")
SPL_EXTRA_RETURNS(rt_torch_aoti_constant_fqns, "[text]", "package")
SPL_EXTRA(rt_torch_aoti_load_constants, "package", "names", "tensors", "check_full_update")
