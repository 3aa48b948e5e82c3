// The one symbol of the generated registry that the readers' core objects reach
// (runtime_info.cpp's version): the reader targets link no generated code, the
// boxed and word targets get it from the registry itself.
#include "generated_support.h"

extern const char spl_torch_generated_libtorch_version[] = SPL_TORCH_LIBTORCH_VERSION;
