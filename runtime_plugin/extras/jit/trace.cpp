// torch.jit.trace for lib.torch.jit (spl_stubs/lib/torch/jit/_trace.spl): LibTorch's tracer
// (torch/csrc/jit/frontend/tracer.h) records a host forward. The host forward is a host
// callable, run once inside tracer::trace: every ATen op it runs goes through the dispatcher's
// Tracer key, so the graph holds them. A module's parameters and buffers are registered on a
// torch::jit::Module (nested as the host module's children, under their host names), which
// tracer::trace reads through prim::GetAttr, as Python's trace_module does
// (_create_method_from_trace); the graph becomes that module's forward.
#include "core/host_callbacks.h"
#include "extras/extra_function.h"
#include "extras/io/io_support.h"
#include "extras/io/pt_format.h"
#include "extras/jit/script_module.h"
#include "extras/lent_handles.h"

#include <ATen/record_function.h>
#include <torch/csrc/jit/frontend/tracer.h>
#include <torch/csrc/jit/passes/canonicalize.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/passes/shape_analysis.h>

#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace spl::jit {
namespace {

namespace pt = spl::io::pt;

// The tracer's warnings while one trace runs (tracer::setWarn takes a plain function).
thread_local std::vector<std::string>* g_warnings = nullptr;

void record_warning(const std::string& message) {
    if (g_warnings) g_warnings->push_back(message);
}

// The traced forward's result, from the host's ([i64] ops, [i64] new tensor handles): the
// tensors, tuples and lists of lib.torch.save's program (extras/io/pt_format.h).
class OutputReader {
public:
    explicit OutputReader(const SplValue& result) {
        TORCH_CHECK(result.tag == SPL_ARRAY && result.as.array.len == 2,
                    "the traced forward's result must be ([i64] ops, [i64] tensors), got ", tag_name(result.tag));
        const SplValue& ops = result.as.array.items[0];
        const SplValue& handles = result.as.array.items[1];
        TORCH_CHECK(ops.tag == SPL_ARRAY && handles.tag == SPL_ARRAY, "the traced forward's result must be arrays");
        // Take every handle first (each is released here), then judge the ops.
        for (int64_t i = 0; i < handles.as.array.len; ++i) {
            auto t = take_tensor(handles.as.array.items[i], "the traced forward's output tensor");
            tensors_.push_back(t.value_or(at::Tensor()));
        }
        for (int64_t i = 0; i < ops.as.array.len; ++i) {
            TORCH_CHECK(ops.as.array.items[i].tag == SPL_I64, "the traced forward's ops must be i64");
            ops_.push_back(ops.as.array.items[i].as.i);
        }
    }

    c10::IValue value() {
        c10::IValue v = next(0);
        TORCH_CHECK(pos_ == ops_.size(), "the traced forward's ops hold more than one value");
        return v;
    }

private:
    c10::IValue next(int64_t depth) {
        TORCH_CHECK(depth < pt::kMaxDepth, "the traced forward's output nests too deep");
        TORCH_CHECK(pos_ < ops_.size(), "the traced forward's ops end early");
        const int64_t op = ops_[pos_++];
        if (op == pt::kTensor) {
            TORCH_CHECK(tensor_pos_ < tensors_.size(), "the traced forward's tensors end early");
            return c10::IValue(tensors_[tensor_pos_++]);
        }
        if (op == pt::kTuple || op == pt::kList) {
            TORCH_CHECK(pos_ < ops_.size(), "the traced forward's ops end early");
            const int64_t n = ops_[pos_++];
            std::vector<c10::IValue> items;
            for (int64_t i = 0; i < n; ++i) items.push_back(next(depth + 1));
            if (op == pt::kTuple) return c10::ivalue::Tuple::create(std::move(items));
            bool all_tensors = true;
            for (const auto& item : items) all_tensors = all_tensors && item.isTensor();
            c10::impl::GenericList list(all_tensors ? c10::TypePtr(c10::TensorType::get())
                                                    : c10::TypePtr(c10::AnyType::get()));
            for (auto& item : items) list.push_back(std::move(item));
            return c10::IValue(std::move(list));
        }
        // PyTorch's message (TracingState::getOutput) for a number, text, None or dict.
        TORCH_CHECK(false, "Only tensors, lists, tuples of tensors, or dictionary of tensors can be output from "
                           "traced functions");
    }

    std::vector<int64_t> ops_;
    std::vector<at::Tensor> tensors_;
    size_t pos_ = 0, tensor_pos_ = 0;
};

// The module tree: one torch::jit::Module per host module path ("" the root, "conv", "block.0"),
// each of type __torch__.<its class> (mangled where two differ), holding its own parameters and
// buffers, children registered under their last name; every module in `training` mode.
torch::jit::Module build_modules(const std::vector<std::string>& paths, const std::vector<std::string>& types,
                                 const std::vector<std::string>& names, SplI64Array tensors, SplI64Array buffer_flags,
                                 bool training) {
    TORCH_CHECK(!paths.empty() && paths[0].empty(), "paths: the root module's path \"\" comes first");
    TORCH_CHECK(types.size() == paths.size(), "types: one per path");
    TORCH_CHECK(static_cast<int64_t>(names.size()) == tensors.len && buffer_flags.len == tensors.len,
                "names, tensors and buffer_flags: one per tensor");
    auto cu = std::make_shared<torch::jit::CompilationUnit>();
    std::map<std::string, torch::jit::Module> modules;
    // each with its `training` attribute, as a module scripted from an nn.Module has (without
    // it, Module::train sets nothing and is_training() is always true)
    for (size_t i = 0; i < paths.size(); ++i) {
        torch::jit::Module m(c10::QualifiedName("__torch__", types[i]), cu, true);
        m.register_attribute("training", c10::BoolType::get(), training);
        modules.emplace(paths[i], m);
    }
    auto split = [](const std::string& path) {
        const auto dot = path.rfind('.');
        return dot == std::string::npos ? std::make_pair(std::string(), path)
                                        : std::make_pair(path.substr(0, dot), path.substr(dot + 1));
    };
    for (int64_t i = 0; i < tensors.len; ++i) {
        const auto [owner, name] = split(names[static_cast<size_t>(i)]);
        const auto found = modules.find(owner);
        TORCH_CHECK(found != modules.end(), "names: no module '", owner, "' for '", names[static_cast<size_t>(i)], "'");
        found->second.register_parameter(name, tensor(tensors.data[i], "tensors"), buffer_flags.data[i] != 0);
    }
    for (size_t i = 1; i < paths.size(); ++i) {
        const auto [owner, name] = split(paths[i]);
        const auto found = modules.find(owner);
        TORCH_CHECK(found != modules.end(), "paths: no module '", owner, "' for '", paths[i], "'");
        found->second.register_module(name, modules.at(paths[i]));
    }
    torch::jit::Module root = modules.at("");
    root.train(training);
    return root;
}

// Values read back to the host while tracing (.item(), a tensor's truth): the trace holds them
// as constants. PyTorch warns where Python converts (python_variable_methods.cpp); here a
// thread-local RecordFunction callback sees the reads (aten::item, aten::is_nonzero, or
// aten::_local_scalar_dense), one warning for each outermost read, in the tracer's words.
thread_local int g_read_depth = 0;

std::unique_ptr<at::ObserverContext> on_op_start(const at::RecordFunction& fn) {
    if (!g_warnings) return nullptr;
    const std::string name(fn.name());
    const bool item = name == "aten::item", truth = name == "aten::is_nonzero";
    if ((item || truth || name == "aten::_local_scalar_dense") && g_read_depth == 0)
        g_warnings->push_back(
            std::string(truth ? "Converting a tensor to a Python boolean" : "Converting a tensor to a Python number") +
            torch::jit::tracer::WARN_PYTHON_DATAFLOW);
    if (item || truth) ++g_read_depth;
    return nullptr;
}

void on_op_end(const at::RecordFunction& fn, at::ObserverContext*) {
    const std::string name(fn.name());
    if ((name == "aten::item" || name == "aten::is_nonzero") && g_read_depth > 0) --g_read_depth;
}

// While it lives: the tracer's warnings and the reads go to `warnings`.
class WarningsCollector {
public:
    explicit WarningsCollector(std::vector<std::string>& warnings)
        : handle_(at::addThreadLocalCallback(
              at::RecordFunctionCallback(&on_op_start, &on_op_end).scopes({at::RecordScope::FUNCTION}))) {
        g_warnings = &warnings;
        g_read_depth = 0;
        torch::jit::tracer::setWarn(&record_warning);
    }
    ~WarningsCollector() {
        g_warnings = nullptr;
        at::removeCallback(handle_);
    }
    WarningsCollector(const WarningsCollector&) = delete;
    WarningsCollector& operator=(const WarningsCollector&) = delete;

private:
    at::CallbackHandle handle_;
};

std::shared_ptr<torch::jit::Graph> forward_graph(int64_t module) {
    torch::jit::Module& m = module_of(module);
    const auto method = m.find_method("forward");
    TORCH_CHECK(method, "'RecursiveScriptModule' object has no attribute 'forward'");
    return method->graph();
}

} // namespace
} // namespace spl::jit

extern "C" {

// Traces `forward` (a host callable taking [i64] lent input handles, returning ([i64] ops, [i64]
// new handles) of its output) with `inputs` as the graph's inputs, on a module tree built from
// `paths`/`types` (module paths, "" first, and their class names) holding `tensors` under
// `names` (dotted, as named_parameters/named_buffers give them; `buffer_flags` 1 for a
// buffer). Returns (the traced module's handle, the tracer's warnings).
SPL_TORCH_EXPORT SplValue rt_torch_jit_trace(SplValue forward, SplI64Array inputs, SplTextArray paths,
                                             SplTextArray types, SplTextArray names, SplI64Array tensors,
                                             SplI64Array buffer_flags, bool training) {
    return spl::guarded<SplValue>(__func__, [&] {
        namespace tracer = torch::jit::tracer;
        const spl::HostCallable callable(forward, "forward");
        spl::check_list(inputs.len, inputs.data, "inputs");
        spl::check_list(tensors.len, tensors.data, "tensors");
        spl::check_list(buffer_flags.len, buffer_flags.data, "buffer_flags");
        torch::jit::Module root =
            spl::jit::build_modules(spl::io::text_list(paths, "paths"), spl::io::text_list(types, "types"),
                                    spl::io::text_list(names, "names"), tensors, buffer_flags, training);
        torch::jit::Stack stack;
        for (int64_t i = 0; i < inputs.len; ++i) stack.emplace_back(spl::tensor(inputs.data[i], "inputs"));
        auto traced_fn = [&callable](torch::jit::Stack in) -> torch::jit::Stack {
            std::vector<at::Tensor> args;
            for (const auto& v : in) args.push_back(v.toTensor());
            const spl::LentHandles lent(args);
            const SplValue arg = lent.array();
            spl::jit::OutputReader reader(callable.call(&arg, 1, "the traced forward"));
            return {reader.value()};
        };
        std::vector<std::string> warnings;
        std::shared_ptr<torch::jit::Graph> graph;
        {
            const spl::jit::WarningsCollector collecting(warnings);
            graph = tracer::trace(
                        std::move(stack), traced_fn, [](const torch::autograd::Variable&) { return std::string(); },
                        /*strict=*/true, /*force_outplace=*/false, &root)
                        .first->graph;
        }
        auto cu = root._ivalue()->compilation_unit();
        auto* fn = cu->create_function(c10::QualifiedName(*root.type()->name(), "forward"), graph);
        root.type()->addMethod(fn);
        const int64_t handle = spl::jit::new_module(root);
        spl::ResultArena::current().reset();
        return spl::tuple_value({spl::v_i64(handle), spl::io::text_array(warnings)});
    });
}

// str(m.graph): the forward's graph as TorchScript prints it.
SPL_TORCH_EXPORT const char* rt_torch_jit_graph(int64_t module) {
    return spl::guarded<const char*>(__func__, [&] {
        const std::string text = spl::jit::forward_graph(module)->toString();
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(text);
    });
}

// The forward's graph as _check_trace compares it: canonicalized, inlined, without shape
// information, mangled type names unmangled.
SPL_TORCH_EXPORT const char* rt_torch_jit_canonical_graph(int64_t module) {
    return spl::guarded<const char*>(__func__, [&] {
        auto graph = torch::jit::Canonicalize(spl::jit::forward_graph(module)->copy());
        torch::jit::Inline(*graph);
        torch::jit::EraseShapeInformation(graph);
        const std::string text = std::regex_replace(graph->toString(), std::regex("___torch_mangle_[0-9]+\\."), "");
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(text);
    });
}

// Entering and leaving a submodule's forward while tracing (Python's Module._slow_forward):
// Graph::push_scope opens a prim::TracedModuleForward block, which tracer::trace's
// FixupTraceScopeBlocks makes a method of that submodule and a prim::CallMethod. `scope`:
// "__module." + the submodule's path. Outside a trace, nothing.
SPL_TORCH_EXPORT void rt_torch_jit_push_scope(const char* scope) {
    spl::guarded<void>(__func__, [&] {
        const std::string name(spl::required_text(scope, "scope"));
        if (const auto& state = torch::jit::tracer::getTracingState()) state->graph->push_scope(name);
    });
}

SPL_TORCH_EXPORT void rt_torch_jit_pop_scope() {
    spl::guarded<void>(__func__, [&] {
        if (const auto& state = torch::jit::tracer::getTracingState()) state->graph->pop_scope();
    });
}

// str(m.inlined_graph): forward's graph with the submodules' methods inlined.
SPL_TORCH_EXPORT const char* rt_torch_jit_inlined_graph(int64_t module) {
    return spl::guarded<const char*>(__func__, [&] {
        auto graph = spl::jit::forward_graph(module)->copy();
        torch::jit::Inline(*graph);
        const std::string text = graph->toString();
        spl::ResultArena::current().reset();
        return spl::ResultArena::current().text(text);
    });
}

// The forward's nondeterministic nodes (dropout in training, random ops), as printed.
SPL_TORCH_EXPORT SplValue rt_torch_jit_nondeterministic_nodes(int64_t module) {
    return spl::guarded<SplValue>(__func__, [&] {
        std::vector<std::string> nodes;
        for (const torch::jit::Node* n : spl::jit::forward_graph(module)->nodes()) {
            if (!n->isNondeterministic()) continue;
            std::ostringstream s;
            s << *n;
            nodes.push_back(s.str());
        }
        spl::ResultArena::current().reset();
        return spl::io::text_array(nodes);
    });
}

} // extern "C"

SPL_EXTRA_RETURNS(rt_torch_jit_trace, "(i64, [text])", "forward", "inputs", "paths", "types", "names", "tensors",
                  "buffer_flags", "training")
SPL_EXTRA(rt_torch_jit_graph, "module")
SPL_EXTRA(rt_torch_jit_canonical_graph, "module")
SPL_EXTRA(rt_torch_jit_push_scope, "scope")
SPL_EXTRA(rt_torch_jit_pop_scope)
SPL_EXTRA(rt_torch_jit_inlined_graph, "module")
SPL_EXTRA_RETURNS(rt_torch_jit_nondeterministic_nodes, "[text]", "module")
