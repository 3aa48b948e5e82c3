// Tensors across the bridge: a Simple Tensor (a lib.torch handle) and a torch.Tensor are the
// same TensorImpl (same storage, version counter and autograd graph) when the Python's torch is
// the LibTorch of lib.torch's plugin, which is checked, by file, before torch is imported here.
// DLPack (rt_python_to_dlpack / rt_python_from_dlpack, tensors.cpp) exchanges with any other
// producer or consumer. Every function needs the GIL.
#pragma once

#include "python/errors.h"

#include <cstdint>

namespace spl::python {

// Whether `object` is a torch.Tensor; false (without importing torch) where torch is not imported.
bool is_torch_tensor(PyObject* object);
// A new reference: the torch.Tensor of lib.torch's tensor handle `tensor`.
PyObject* tensor_to_python(int64_t tensor);
// A new lib.torch handle for the torch.Tensor `object`.
int64_t tensor_from_python(PyObject* object);

} // namespace spl::python
