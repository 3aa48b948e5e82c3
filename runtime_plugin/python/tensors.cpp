// Tensors across the bridge (tensors.h): the same TensorImpl on both sides, through the torch
// plugin's lent table (spl_torch_share.h) and torch's own wrap/unwrap of a TensorImpl pointer;
// DLPack capsules both ways for everything else (NumPy, other producers); and the check that
// the Python's torch is the plugin's LibTorch before either side sees the other's tensors.
#include "python/tensors.h"

#include "abi/boxed_values.h"
#include "abi/error_guard.h"
#include "abi/extra_registration.h"
#include "python/convert.h"
#include "python/objects.h"
#include "spl_torch_share.h"

#include <dlfcn.h>

#include <cstring>
#include <string>

namespace spl::python {
namespace {

// What the checks and the DLPack holder run in Python: a private namespace, made once.
constexpr const char* kBridgeCode = R"PY(
import importlib.util, os, re, sys

def torch_location():
    """(realpath of the libtorch_cpu that `import torch` would load, torch's version) without
    importing torch when it is not imported yet; None when there is no torch."""
    module = sys.modules.get("torch")
    if module is not None:
        folder = os.path.dirname(module.__file__)
    else:
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.origin is None:
            return None
        folder = os.path.dirname(spec.origin)
    version = "unknown"
    try:
        with open(os.path.join(folder, "version.py")) as f:
            found = re.search(r"__version__\s*=\s*['\"]([^'\"]+)['\"]", f.read())
            if found:
                version = found.group(1)
    except OSError:
        pass
    return os.path.realpath(os.path.join(folder, "lib", "libtorch_cpu.so")), version

class SimpleDLPack:
    """A Simple tensor offered by DLPack (__dlpack__, __dlpack_device__), as numpy.from_dlpack
    and torch.from_dlpack take it: a versioned capsule for a consumer that asks for one
    (max_version >= (1, 0)), else the legacy one; the other is dropped. Either can be taken once."""
    def __init__(self, versioned, legacy, device):
        self._versioned, self._legacy, self._device = versioned, legacy, device
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self._versioned is None and self._legacy is None:
            raise BufferError("this DLPack object was consumed already")
        versioned = max_version is not None and max_version[0] >= 1
        capsule = self._versioned if versioned else self._legacy
        self._versioned = self._legacy = None
        return capsule
    def __dlpack_device__(self):
        return self._device
    def __repr__(self):
        return "<SimpleDLPack device=%r>" % (self._device,)
)PY";

PyObject* bridge_namespace() {
    static PyObject* globals = nullptr; // lives as long as Python, which is never finalized
    if (globals) return globals;
    Ref g = owned(PyDict_New());
    checked(PyDict_SetItemString(g.get(), "__builtins__", PyEval_GetBuiltins()));
    Ref done = owned(PyRun_String(kBridgeCode, Py_file_input, g.get(), g.get()));
    globals = g.release();
    return globals;
}

const SplTorchShareApi& share_api() {
    static const SplTorchShareApi* api = nullptr;
    if (api) return *api;
    void* plugin = ::dlopen("libspl_torch.so", RTLD_NOW | RTLD_NOLOAD);
    auto find = plugin ? reinterpret_cast<SplTorchShareApiFn>(::dlsym(plugin, SPL_TORCH_SHARE_SYMBOL)) : nullptr;
    if (!find)
        throw SplError("lib.python: tensors cross only where lib.torch's plugin (libspl_torch.so) is loaded in "
                       "this process (use lib.torch)");
    const SplTorchShareApi* found = find();
    if (!found || found->abi != SPL_TORCH_SHARE_ABI)
        throw SplError("lib.python: libspl_torch.so lends tensors by another ABI (" +
                       std::to_string(found ? found->abi : -1) + ", this plugin speaks " +
                       std::to_string(SPL_TORCH_SHARE_ABI) + "): rebuild both plugins together");
    api = found;
    return *api;
}

void check_share(const char* error) {
    if (error) throw SplError(std::string("lib.python: ") + error);
}

// torch, imported once it is known to be the plugin's LibTorch, with what the bridge uses of it.
struct Torch {
    PyObject* tensor_type = nullptr; // torch.Tensor
    PyObject* wrap = nullptr;        // torch._C._wrap_tensor_impl
    PyObject* raw_handle = nullptr;  // torch._C._tensor_impl_raw_handle
};

const Torch& torch() {
    static Torch t;
    if (t.tensor_type) return t;
    const SplTorchShareApi& api = share_api();
    const char* path = nullptr;
    check_share(api.libtorch_path(&path));
    const std::string ours = path ? path : "";
    Ref location = owned(
        PyObject_CallNoArgs(checked(PyDict_GetItemString(bridge_namespace(), "torch_location")))); // borrowed function
    const std::string alternative = "; use to_dlpack / from_dlpack to exchange tensors with this Python";
    if (location.get() == Py_None)
        throw SplError("lib.python: Python " + python_executable() +
                       " has no torch module, so a Simple Tensor (LibTorch " + api.libtorch_version + ", " + ours +
                       ") has no torch.Tensor there" + alternative);
    const std::string theirs = text_of(PyTuple_GetItem(location.get(), 0));
    const std::string version = text_of(PyTuple_GetItem(location.get(), 1));
    if (theirs != ours)
        throw SplError("lib.python: Python's torch " + version + " (" + theirs + ") is not lib.torch's LibTorch " +
                       api.libtorch_version + " (" + ours + "): the same tensor cannot be both" + alternative);
    Ref module = owned(PyImport_ImportModule("torch"));
    Ref c = owned(PyObject_GetAttrString(module.get(), "_C"));
    t.wrap = owned(PyObject_GetAttrString(c.get(), "_wrap_tensor_impl")).release();
    t.raw_handle = owned(PyObject_GetAttrString(c.get(), "_tensor_impl_raw_handle")).release();
    t.tensor_type = owned(PyObject_GetAttrString(module.get(), "Tensor")).release();
    return t;
}

// Drops a capsule's DLPack tensor unless a consumer renamed the capsule ("used_dltensor...").
void capsule_destructor(PyObject* capsule) {
    const char* name = PyCapsule_GetName(capsule);
    const bool versioned = name && std::strcmp(name, "dltensor_versioned") == 0;
    if (!name || (!versioned && std::strcmp(name, "dltensor") != 0)) return; // consumed
    void* managed = PyCapsule_GetPointer(capsule, name);
    if (managed)
        share_api().dlpack_delete(managed, versioned ? 1 : 0);
    else
        PyErr_Clear();
}

PyObject* capsule_of(int64_t tensor, int32_t versioned, int32_t& device_type, int32_t& device_id) {
    void* managed = nullptr;
    check_share(share_api().to_dlpack(tensor, versioned, &managed, &device_type, &device_id));
    PyObject* capsule = PyCapsule_New(managed, versioned ? "dltensor_versioned" : "dltensor", &capsule_destructor);
    if (!capsule) {
        share_api().dlpack_delete(managed, versioned);
        raise_python_error();
    }
    return capsule;
}

} // namespace

bool is_torch_tensor(PyObject* object) {
    // Only where torch is imported already (it is, once a tensor crossed): asking never imports it.
    static PyObject* tensor_type = nullptr;
    if (!tensor_type) {
        PyObject* module = PyDict_GetItemString(PyImport_GetModuleDict(), "torch"); // borrowed
        if (!module) return false;
        tensor_type = torch().tensor_type;
    }
    const int is = PyObject_IsInstance(object, tensor_type);
    if (is < 0) raise_python_error();
    return is == 1;
}

PyObject* tensor_to_python(int64_t tensor) {
    const Torch& t = torch();
    // The torch.Tensor Python already has for this TensorImpl, itself (what torch's own
    // wrapping gives; for a tensor subclass, such as export's fake tensors, the only way back).
    void* existing = nullptr;
    check_share(share_api().python_object(tensor, &existing));
    if (existing) return Py_NewRef(static_cast<PyObject*>(existing));
    void* impl = nullptr;
    check_share(share_api().tensor_impl(tensor, &impl));
    // pybind11 passes void* as a capsule (any name), both ways
    Ref address = owned(PyCapsule_New(impl, nullptr, nullptr));
    return checked(PyObject_CallOneArg(t.wrap, address.get()));
}

int64_t tensor_from_python(PyObject* object) {
    const Torch& t = torch();
    Ref address = owned(PyObject_CallOneArg(t.raw_handle, object));
    if (!PyCapsule_CheckExact(address.get()))
        throw SplError("lib.python: torch._C._tensor_impl_raw_handle gave no pointer for a torch.Tensor");
    void* impl = PyCapsule_GetPointer(address.get(), PyCapsule_GetName(address.get()));
    if (!impl) raise_python_error();
    int64_t handle = 0;
    check_share(share_api().adopt_tensor_impl(impl, &handle));
    return handle;
}

} // namespace spl::python

extern "C" {

// A SimpleDLPack object offering the tensor `tensor` (a lib.torch handle) by DLPack: no copy.
SPL_TORCH_EXPORT SplValue rt_python_to_dlpack(int64_t tensor) {
    return spl::guarded<SplValue>(__func__, [&] {
        spl::python::Gil gil;
        int32_t device_type = 0, device_id = 0;
        spl::python::Ref versioned(spl::python::capsule_of(tensor, 1, device_type, device_id));
        spl::python::Ref legacy(spl::python::capsule_of(tensor, 0, device_type, device_id));
        PyObject* holder = spl::python::checked(PyDict_GetItemString(spl::python::bridge_namespace(), "SimpleDLPack"));
        return spl::python::result_of_call(
            PyObject_CallFunction(holder, "OO(ii)", versioned.get(), legacy.get(), device_type, device_id));
    });
}

// A lib.torch handle over the memory of a DLPack producer (an object with __dlpack__, or a
// capsule): no copy; the producer's memory stays alive while the tensor does.
SPL_TORCH_EXPORT int64_t rt_python_from_dlpack(int64_t h) {
    return spl::guarded<int64_t>(__func__, [&] {
        spl::python::Gil gil;
        PyObject* producer = spl::python::ObjectTable::instance().get(h, "object");
        spl::python::Ref capsule;
        if (PyCapsule_CheckExact(producer)) {
            Py_INCREF(producer);
            capsule = spl::python::Ref(producer);
        } else {
            spl::python::Ref method = spl::python::owned(PyObject_GetAttrString(producer, "__dlpack__"));
            spl::python::Ref kwargs = spl::python::owned(Py_BuildValue("{s:(ii)}", "max_version", 1, 0));
            spl::python::Ref none = spl::python::owned(PyTuple_New(0));
            PyObject* got = PyObject_Call(method.get(), none.get(), kwargs.get());
            if (!got && PyErr_ExceptionMatches(PyExc_TypeError)) { // a producer without max_version
                PyErr_Clear();
                got = PyObject_CallNoArgs(method.get());
            }
            capsule = spl::python::owned(got);
        }
        const char* name = PyCapsule_GetName(capsule.get());
        if (!name) spl::python::raise_python_error();
        const bool versioned = std::strcmp(name, "dltensor_versioned") == 0;
        if (!versioned && std::strcmp(name, "dltensor") != 0)
            throw spl::SplError(
                std::string("from_dlpack: a capsule named '") + name +
                "' (a DLPack tensor's is 'dltensor' or 'dltensor_versioned'; 'used_...' once consumed)");
        void* managed = PyCapsule_GetPointer(capsule.get(), name);
        if (!managed) spl::python::raise_python_error();
        int64_t handle = 0;
        spl::python::check_share(spl::python::share_api().from_dlpack(managed, versioned ? 1 : 0, &handle));
        spl::python::checked(PyCapsule_SetName(capsule.get(), versioned ? "used_dltensor_versioned" : "used_dltensor"));
        return handle;
    });
}

} // extern "C"

SPL_EXTRA(rt_python_to_dlpack, "tensor")
SPL_EXTRA(rt_python_from_dlpack, "h")
