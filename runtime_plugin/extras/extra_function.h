// Registration of libspl_torch's hand-written entry points: SPL_EXTRA and SPL_EXTRA_RETURNS
// (abi/extra_registration.h, the ATen-free layer), with the whole runtime core an extra of the torch
// plugin works with (handles, ATen conversions, results).
#pragma once

#include "abi/extra_registration.h"
#include "generated_support.h"
