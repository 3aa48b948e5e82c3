// What the plugin's fuzz targets share: the plugin's entry points they call, the fuzz input as
// a file the readers open, and the checks every run makes (an error has a message, no handle
// outlives the run). A failed check aborts: libFuzzer reports it as a crash with the input.
#pragma once

#include "spl_plugin.h"

#include <cstddef>
#include <cstdint>

extern "C" {
// The plugin's extras (runtime_plugin/extras/), declared here as they are exported.
bool rt_torch_error_pending(void);
const char* rt_torch_last_error(void);
void rt_torch_release(int64_t t);
int64_t rt_torch_live_handles(void);
bool rt_torch_is_live(int64_t t);
int64_t rt_torch_read_csv(const char* path, const char* delimiter, int64_t skip_header, const char* dtype);
int64_t rt_torch_read_idx(const char* path);
int64_t rt_torch_load_npy(const char* path);
SplValue rt_torch_load_npz(const char* path);
SplValue rt_torch_pt_load(const char* path, const char* map_location);
SplValue rt_torch_safetensors_load(const char* path);
SplValue rt_torch_safetensors_metadata(const char* path);
int64_t rt_torch_read_file(const char* path);
SplValue rt_torch_dist_unpickle(int64_t t, int64_t size);
}

namespace fuzz {

// Once per process: LibTorch on one thread (libFuzzer runs one input at a time).
void init();

// The fuzz input as a file: written into this process's one memfd, whose path
// (/proc/self/fd/N) the readers open like any other file.
const char* input_path(const uint8_t* data, size_t size);

// After a typed call: whether it failed. A failure must carry a non-empty message.
bool call_failed(const char* what);

// Releases the tensor handles of a [i64] result (items of another tag abort).
void release_handles(const SplValue& handles);

// Aborts when the live handles are not back at `before`: a load that failed, or whose
// results were released, must leave no tensor behind.
void expect_live_handles(int64_t before, const char* what);

// Aborts with `what` and the message (a broken invariant, reported as a crash).
[[noreturn]] void broken(const char* what, const char* detail);

} // namespace fuzz
