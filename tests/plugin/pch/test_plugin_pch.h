// Precompiled for test_plugin's sources (meson's cpp_pch): nearly every file includes ATen
// through test_support.h, and parsing it once instead of once per file is most of the
// program's compile time. doctest stays out: main.cpp configures it before including it.
#include <ATen/ATen.h>
