// Trains y = 3x + 2 with gradient descent through libspl_torch.so, using only
// the plugin ABI (dlopen + boxed calls): what any Simple host does.
//   SPL_TORCH_PLUGIN=build/runtime_plugin/libspl_torch.so build/examples/train_linear_abi
#include "spl_plugin.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const SplPluginInfo* plugin = nullptr;

SplValue num(double f) {
    SplValue v;
    v.tag = SPL_F64;
    v.as.f = f;
    return v;
}
SplValue integer(int64_t i) {
    SplValue v;
    v.tag = SPL_I64;
    v.as.i = i;
    return v;
}
SplValue flag(bool b) {
    SplValue v;
    v.tag = SPL_BOOL;
    v.as.b = b;
    return v;
}
SplValue text(const char* s) {
    SplValue v;
    v.tag = SPL_TEXT;
    v.as.text = {s, (int64_t)std::string(s).size()};
    return v;
}
SplValue array(const std::vector<SplValue>& items) {
    SplValue v;
    v.tag = SPL_ARRAY;
    v.as.array = {items.data(), (int64_t)items.size()};
    return v;
}

SplValue call(const char* name, std::initializer_list<SplValue> args) {
    const SplFunction* f = plugin->find(name);
    if (!f) throw std::runtime_error(std::string("no function ") + name);
    std::vector<SplValue> in(args);
    SplValue out;
    if (f->boxed(in.data(), (int32_t)in.size(), &out) != SPL_STATUS_OK)
        throw std::runtime_error(std::string(name) + ": " + out.as.text.ptr);
    return out;
}

int64_t tensor(const std::vector<double>& data, std::vector<int64_t> shape, bool requires_grad = false) {
    std::vector<SplValue> d, s;
    for (double x : data) d.push_back(num(x));
    for (int64_t x : shape) s.push_back(integer(x));
    return call("rt_torch_from_f64", {array(d), array(s), text("float32"), text("cpu"), flag(requires_grad)}).as.i;
}

void release(std::initializer_list<int64_t> handles) {
    for (int64_t h : handles) call("rt_torch_release", {integer(h)});
}

} // namespace

int main() {
    const char* path = std::getenv("SPL_TORCH_PLUGIN");
    void* lib = dlopen(path ? path : "libspl_torch.so", RTLD_NOW);
    if (!lib) {
        std::fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    auto open = reinterpret_cast<SplPluginOpenFn>(dlsym(lib, SPL_PLUGIN_OPEN_SYMBOL));
    SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr, nullptr}; // no host callbacks
    const char* error = nullptr;
    plugin = open(&request, &error);
    if (!plugin) {
        std::fprintf(stderr, "%s\n", error);
        return 1;
    }
    std::printf("LibTorch %s, %lld functions\n", plugin->library_version, (long long)plugin->nfunctions);

    call("rt_torch_manual_seed", {integer(0)});
    const int64_t x = call("rt_torch_rand", {array({integer(64), integer(1)})}).as.i;
    const int64_t noise = call("rt_torch_randn", {array({integer(64), integer(1)})}).as.i;
    const int64_t y0 = call("rt_torch_mul_Scalar", {integer(x), num(3.0)}).as.i;  // 3x
    const int64_t y1 = call("rt_torch_add_Scalar", {integer(y0), num(2.0)}).as.i; // + 2
    const int64_t y = call("rt_torch_add_Tensor", {integer(y1), integer(noise), num(0.01)}).as.i;
    release({y0, y1, noise});

    const int64_t w = tensor({0.0}, {1, 1}, true), b = tensor({0.0}, {1}, true);
    for (int epoch = 0; epoch <= 300; ++epoch) {
        const int64_t pred = call("rt_torch_linear", {integer(x), integer(w), integer(b)}).as.i;
        const int64_t loss = call("rt_torch_mse_loss", {integer(pred), integer(y)}).as.i;
        call("rt_torch_backward", {integer(loss), integer(0), flag(false), flag(false)});
        const bool previous = call("rt_torch_no_grad_enter", {}).as.b;
        for (int64_t p : {w, b}) {
            const int64_t g = call("rt_torch_grad", {integer(p)}).as.i;
            call("rt_torch_sub__Tensor", {integer(p), integer(g), num(0.5)}); // p -= 0.5 * grad
            call("rt_torch_zero_grad", {integer(p)});
            release({g});
        }
        call("rt_torch_no_grad_exit", {flag(previous)});
        if (epoch % 50 == 0) std::printf("epoch %3d  loss %.6f\n", epoch, call("rt_torch_item", {integer(loss)}).as.f);
        release({pred, loss});
    }
    std::printf("learned w = %.3f (true 3), b = %.3f (true 2)\n", call("rt_torch_item", {integer(w)}).as.f,
                call("rt_torch_item", {integer(b)}).as.f);
    release({x, y, w, b});
    std::printf("live handles at exit: %lld\n", (long long)call("rt_torch_live_handles", {}).as.i);
    return 0;
}
