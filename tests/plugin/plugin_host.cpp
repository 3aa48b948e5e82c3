// A minimal host for the tests: loads the plugin through dlopen and spl_plugin_open only.
#include "plugin_host.h"

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace plugin_host {

// --- arguments -----------------------------------------------------------------

Arg::Arg(std::nullptr_t) { value_.tag = SPL_NIL; }

Arg::Arg(bool b) {
    value_.tag = SPL_BOOL;
    value_.as.b = b;
}

Arg::Arg(long long i) {
    value_.tag = SPL_I64;
    value_.as.i = i;
}

Arg::Arg(double f) {
    value_.tag = SPL_F64;
    value_.as.f = f;
}

Arg::Arg(const char* s) : Arg(std::string(s)) {}

Arg::Arg(std::string s) : text_(std::make_shared<const std::string>(std::move(s))) {
    value_.tag = SPL_TEXT;
    value_.as.text = SplText{text_->c_str(), static_cast<int64_t>(text_->size())};
}

Arg Arg::list(std::vector<Arg> items) {
    Arg a;
    auto children = std::make_shared<const std::vector<Arg>>(std::move(items));
    auto boxed = std::make_shared<std::vector<SplValue>>();
    for (const Arg& child : *children) boxed->push_back(child.value_);
    a.value_.tag = SPL_ARRAY;
    a.value_.as.array = SplArray{boxed->data(), static_cast<int64_t>(boxed->size())};
    a.children_ = std::move(children);
    a.items_ = std::move(boxed);
    return a;
}

Arg Arg::raw(const SplValue& value) {
    Arg a;
    a.value_ = value;
    return a;
}

Arg list(std::vector<Arg> items) { return Arg::list(std::move(items)); }

template <class T>
static Arg list_of(const std::vector<T>& values) {
    std::vector<Arg> items;
    for (T v : values) items.emplace_back(v);
    return Arg::list(std::move(items));
}

Arg ints(const std::vector<int64_t>& values) { return list_of(values); }
Arg floats(const std::vector<double>& values) { return list_of(values); }
Arg bools(const std::vector<bool>& values) { return list_of(values); }

// --- results ---------------------------------------------------------------------

Value Value::copy_of(const SplValue& v) {
    Value out;
    out.tag = v.tag;
    switch (v.tag) {
    case SPL_BOOL: out.b = v.as.b; break;
    case SPL_I64: out.i = v.as.i; break;
    case SPL_F64: out.f = v.as.f; break;
    case SPL_TEXT:
    case SPL_ERROR: out.text.assign(v.as.text.ptr, static_cast<size_t>(v.as.text.len)); break;
    case SPL_ARRAY:
        for (int64_t k = 0; k < v.as.array.len; ++k) out.items.push_back(copy_of(v.as.array.items[k]));
        break;
    default: break;
    }
    return out;
}

static void expect_tag(const Value& v, int32_t tag, const char* what) {
    if (v.tag != tag)
        throw std::runtime_error(std::string("expected a result of type ") + what + ", got tag " +
                                 std::to_string(v.tag));
}

int64_t Value::as_i64() const {
    expect_tag(*this, SPL_I64, "i64");
    return i;
}
double Value::as_f64() const {
    expect_tag(*this, SPL_F64, "f64");
    return f;
}
bool Value::as_bool() const {
    expect_tag(*this, SPL_BOOL, "bool");
    return b;
}
const std::string& Value::as_text() const {
    expect_tag(*this, SPL_TEXT, "text");
    return text;
}
const std::vector<Value>& Value::as_array() const {
    expect_tag(*this, SPL_ARRAY, "array");
    return items;
}

template <class T, class Get>
static std::vector<T> elements(const Value& v, Get get) {
    std::vector<T> out;
    for (const Value& item : v.as_array()) out.push_back((item.*get)());
    return out;
}

std::vector<int64_t> Value::as_i64_list() const { return elements<int64_t>(*this, &Value::as_i64); }
std::vector<double> Value::as_f64_list() const { return elements<double>(*this, &Value::as_f64); }
std::vector<bool> Value::as_bool_list() const { return elements<bool>(*this, &Value::as_bool); }

// --- the plugin --------------------------------------------------------------------

Plugin& Plugin::instance() {
    static Plugin plugin;
    return plugin;
}

Plugin::Plugin() {
    const char* path = std::getenv("SPL_TORCH_PLUGIN");
    if (!path || !*path) throw std::runtime_error("SPL_TORCH_PLUGIN is not set (path of libspl_torch.so)");
    // Never closed: tensors may outlive the tests until process exit.
    library_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library_) throw std::runtime_error(std::string("dlopen failed: ") + dlerror());
    open_ = reinterpret_cast<SplPluginOpenFn>(dlsym(library_, SPL_PLUGIN_OPEN_SYMBOL));
    if (!open_) throw std::runtime_error(std::string("no ") + SPL_PLUGIN_OPEN_SYMBOL + " in " + path);
    const SplHostRequest request{SPL_PLUGIN_ABI_VERSION, nullptr, nullptr}; // no host callbacks
    const char* error = nullptr;
    info_ = open_(&request, &error);
    if (!info_) throw std::runtime_error(std::string("spl_plugin_open refused: ") + (error ? error : "(no message)"));
}

const SplFunction& Plugin::function(const std::string& name) const {
    const SplFunction* fn = info_->find(name.c_str());
    if (!fn) throw std::runtime_error("the plugin has no function " + name);
    return *fn;
}

Outcome Plugin::call(const std::string& name, const std::vector<Arg>& args) {
    const SplFunction& fn = function(name);
    std::vector<SplValue> boxed;
    for (const Arg& a : args) boxed.push_back(a.value());
    SplValue result{};
    const SplStatus status = fn.boxed(boxed.data(), static_cast<int32_t>(boxed.size()), &result);
    Outcome out;
    out.value = Value::copy_of(result);
    out.ok = status == SPL_STATUS_OK;
    if (!out.ok) {
        out.error = out.value.tag == SPL_ERROR ? out.value.text : "(error status without an SPL_ERROR result)";
        return out;
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    remember_integers(out.value);
    return out;
}

void Plugin::remember_integers(const Value& v) {
    if (v.tag == SPL_I64) seen_.push_back(v.i);
    for (const Value& item : v.items) remember_integers(item);
}

std::set<std::string> Plugin::operators_called() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return operators_called_;
}

size_t Plugin::results_seen() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return seen_.size();
}

std::vector<int64_t> Plugin::results_since(size_t mark) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return std::vector<int64_t>(seen_.begin() + static_cast<std::ptrdiff_t>(mark), seen_.end());
}

Outcome Plugin::try_op(const std::string& name, const std::vector<Arg>& args) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        operators_called_.insert(name);
    }
    return call(name, args);
}

static Value value_or_throw(const std::string& name, Outcome out) {
    if (!out.ok) throw std::runtime_error(name + " failed: " + out.error);
    return std::move(out.value);
}

Value Plugin::op(const std::string& name, const std::vector<Arg>& args) {
    return value_or_throw(name, try_op(name, args));
}

Outcome Plugin::try_runtime(const std::string& name, const std::vector<Arg>& args) { return call(name, args); }

Value Plugin::runtime(const std::string& name, const std::vector<Arg>& args) {
    return value_or_throw(name, try_runtime(name, args));
}

} // namespace plugin_host
