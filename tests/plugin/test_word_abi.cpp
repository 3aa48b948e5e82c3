// The word convention (spl_plugin.h, "The word convention"): every registered
// function is exported as spl_w_<name>, taking and returning only 64-bit words,
// as the real Simple runtime calls native code. Results equal ATen's; lists,
// optionals, text and argument blocks travel as the header says; bad words get
// clear errors through spl_w_error_pending / spl_w_last_error, never a crash.
#include "test_support.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

using namespace plugin_test;

namespace {

using Word0 = int64_t (*)();
using Word1 = int64_t (*)(int64_t);
using Word2 = int64_t (*)(int64_t, int64_t);
using Push = int64_t (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

void* library() {
    static void* lib = ::dlopen(std::getenv("SPL_TORCH_PLUGIN"), RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(lib);
    return lib;
}

template <class Fn>
Fn symbol(const char* name) {
    void* f = ::dlsym(library(), name);
    REQUIRE_MESSAGE(f, name);
    return reinterpret_cast<Fn>(f);
}

int64_t bits(double f) {
    int64_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

double f64(int64_t b) {
    double f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

int64_t text_word(const char* s) { return reinterpret_cast<int64_t>(s); }

// A word call of a registered function, with its words (the rest 0).
int64_t call(const char* name, std::initializer_list<int64_t> words) {
    int64_t w[SPL_MAX_WORDS] = {};
    size_t i = 0;
    for (int64_t x : words) w[i++] = x;
    return plugin().function(name).word(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
}

bool pending() { return symbol<Word0>("spl_w_error_pending")() != 0; }
std::string last_error() { return reinterpret_cast<const char*>(symbol<Word0>("spl_w_last_error")()); }
int64_t result_tag() { return symbol<Word0>("spl_w_result_tag")(); }

// A list built through the convention's own functions, freed by its destructor.
struct WordList {
    int64_t h = symbol<Word0>("spl_w_list_new")();
    WordList(int64_t tag, std::initializer_list<int64_t> items) {
        for (int64_t item : items) push(tag, item);
    }
    ~WordList() { plugin().free(h); }
    void push(int64_t tag, int64_t word) { REQUIRE(symbol<Push>("spl_w_list_push")(h, tag, 1, word, 0, 0, 0, 0) == h); }
};

// The items of a list handle the plugin returned (and frees it).
std::vector<std::pair<int64_t, int64_t>> take_list(int64_t h) {
    std::vector<std::pair<int64_t, int64_t>> items;
    const int64_t n = symbol<Word1>("spl_w_list_len")(h);
    for (int64_t k = 0; k < n; ++k)
        items.emplace_back(symbol<Word2>("spl_w_list_tag")(h, k), symbol<Word2>("spl_w_list_word")(h, k));
    plugin().free(h);
    return items;
}

void expect_word_error(int64_t result, std::initializer_list<std::string> fragments) {
    CHECK(result == 0);
    REQUIRE(pending());
    const std::string message = last_error();
    for (const auto& f : fragments) CHECK_MESSAGE(message.find(f) != std::string::npos, message, " lacks ", f);
}

} // namespace

TEST_CASE("every registered function has its word adapter, exported as spl_w_<name>") {
    const SplPluginInfo& info = plugin().info();
    int64_t exported = 0;
    for (int64_t i = 0; i < info.nfunctions; ++i) {
        const SplFunction& f = info.functions[i];
        const bool has_word = f.word != nullptr;
        REQUIRE_MESSAGE(has_word, f.name);
        const std::string symbol_name = std::string(SPL_WORD_PREFIX) + f.name;
        exported += ::dlsym(library(), symbol_name.c_str()) == reinterpret_cast<void*>(f.word);
    }
    CHECK(exported == info.nfunctions);
}

TEST_CASE_FIXTURE(LeakChecked, "a word call equals ATen's: handles, a Scalar as tag and payload, an f64 result") {
    const Input x = input({3, 4}, 1), y = input({3, 4}, 2);
    const int64_t sum = call("rt_torch_add_Tensor", {x.h, y.h, SPL_F64, bits(2.5)});
    REQUIRE_FALSE(pending());
    expect_same(sum, at::add(x.ref, y.ref, 2.5));
    const int64_t total = call("rt_torch_sum", {sum, 0});
    const int64_t item = call("rt_torch_item", {total});
    CHECK(result_tag() == SPL_F64);
    CHECK(f64(item) == doctest::Approx(at::add(x.ref, y.ref, 2.5).sum().item<double>()).epsilon(1e-6));
    for (int64_t h : {sum, total}) plugin().free(h);
}

TEST_CASE_FIXTURE(LeakChecked, "lists go in as list handles, optional ones as 0; list results come back as lists") {
    const Input x = input({2, 3, 4});
    {
        WordList dims(SPL_I64, {2, 0});
        const int64_t s = call("rt_torch_sum_dim_IntList", {x.h, dims.h, 1, 0});
        REQUIRE_FALSE(pending());
        expect_same(s, at::sum(x.ref, {2, 0}, true));
        plugin().free(s);
    }
    const int64_t all = call("rt_torch_sum_dim_IntList", {x.h, 0, 0, 0}); // dim None: every dimension
    expect_same(all, at::sum(x.ref));
    plugin().free(all);

    const int64_t shape = call("rt_torch_shape", {x.h});
    CHECK(result_tag() == SPL_ARRAY);
    const auto dims = take_list(shape);
    REQUIRE(dims.size() == 3);
    CHECK(dims[0] == std::make_pair(int64_t{SPL_I64}, int64_t{2}));
    CHECK(dims[2].second == 4);

    const int64_t max = call("rt_torch_max_dim", {x.h, 1, 0}); // two tensors: a list of handles
    const auto parts = take_list(max);
    REQUIRE(parts.size() == 2);
    expect_same(parts[0].second, std::get<0>(at::max(x.ref, 1)));
    expect_same(parts[1].second, std::get<1>(at::max(x.ref, 1)));
    for (const auto& p : parts) plugin().free(p.second);

    const int64_t dtype = call("rt_torch_dtype", {x.h});
    CHECK(std::string(reinterpret_cast<const char*>(dtype)) == "float32");
}

TEST_CASE_FIXTURE(LeakChecked, "text goes in as a char*; nil text? as 0") {
    const Input x = input({5}, 3), y = input({5}, 4);
    const int64_t floor = call("rt_torch_div_Tensor_mode", {x.h, y.h, text_word("floor")});
    expect_same(floor, at::div(x.ref, y.ref, "floor"));
    const int64_t plain = call("rt_torch_div_Tensor_mode", {x.h, y.h, 0});
    expect_same(plain, at::div(x.ref, y.ref));
    for (int64_t h : {floor, plain}) plugin().free(h);
}

TEST_CASE_FIXTURE(LeakChecked, "over 8 words, the words go in one argument block") {
    const Input x = input({4, 3});
    const at::Tensor ref = at::batch_norm(x.ref, {}, {}, {}, {}, true, 0.1, 1e-5, false);
    WordList block(SPL_I64, {x.h, 0, 0, 0, 0, 1, bits(0.1), bits(1e-5), 0});
    const int64_t out = call("rt_torch_batch_norm", {block.h});
    REQUIRE_FALSE(pending());
    expect_same(out, ref);
    plugin().free(out);

    WordList short_block(SPL_I64, {x.h, 0, 0});
    expect_word_error(call("rt_torch_batch_norm", {short_block.h}),
                      {"rt_torch_batch_norm", "the argument block holds 3 words", "takes 9"});
    expect_word_error(call("rt_torch_batch_norm", {x.h, 0, 0, 0, 0, 1, bits(0.1), bits(1e-5)}),
                      {"rt_torch_batch_norm", "argument block", "is a tensor, not a word list"});
}

TEST_CASE_FIXTURE(LeakChecked, "bad words: a forged list handle, a wrong tag, a text pointer of 0, a bool of 7") {
    const Input x = input({2, 3});
    expect_word_error(call("rt_torch_sum_dim_IntList", {x.h, 123456789, 0, 0}),
                      {"rt_torch_sum_dim_IntList", "argument 2 'dim'"});
    expect_word_error(call("rt_torch_add_Tensor", {x.h, x.h, 9, 1}),
                      {"argument 3 'alpha'", "tag word 9 is not a value tag"});
    expect_word_error(call("rt_torch_add_Tensor", {x.h, x.h, SPL_TEXT, 0}),
                      {"argument 3 'alpha'", "a text pointer of 0"});
    WordList data(SPL_F64, {bits(1.0)});
    WordList shape(SPL_I64, {1});
    expect_word_error(call("rt_torch_from_f64", {data.h, shape.h, 0, text_word(""), 0}),
                      {"rt_torch_from_f64", "argument 3 'dtype'", "a text pointer of 0"});
    expect_word_error(call("rt_torch_from_f64", {data.h, shape.h, text_word(""), text_word(""), 7}),
                      {"argument 5 'requires_grad'", "a bool word must be 0 or 1, got 7"});
    expect_word_error(call("rt_torch_add_Tensor", {x.h, 42, SPL_I64, 1}), {"rt_torch_add_Tensor", "other"});
    expect_still_works();
}

TEST_CASE_FIXTURE(LeakChecked, "an error stays pending until the next call, with LibTorch's own message") {
    const Input a = input({2, 3}), b = input({2, 5});
    const Outcome boxed = try_op("rt_torch_add_Tensor", {a.h, b.h});
    REQUIRE_FALSE(boxed.ok);
    expect_word_error(call("rt_torch_add_Tensor", {a.h, b.h, SPL_I64, 1}), {});
    CHECK(last_error() == boxed.error);
    CHECK(pending()); // asking does not clear it
    const int64_t ok = call("rt_torch_add_Tensor", {a.h, a.h, SPL_I64, 1});
    CHECK_FALSE(pending());
    plugin().free(ok);
}

TEST_CASE_FIXTURE(LeakChecked, "the list functions refuse what they cannot do") {
    const Input x = input({2});
    WordList list(SPL_I64, {1, 2});
    expect_word_error(symbol<Push>("spl_w_list_push")(list.h, SPL_I64, 6, 1, 2, 3, 4, 5), {"count must be 1 to 5"});
    expect_word_error(symbol<Push>("spl_w_list_push")(list.h, SPL_BOOL, 2, 1, 7, 0, 0, 0),
                      {"item 3", "a bool word must be 0 or 1, got 7"});
    CHECK(symbol<Word1>("spl_w_list_len")(list.h) == 2); // a failed push appends nothing
    expect_word_error(symbol<Word2>("spl_w_list_word")(list.h, 2), {"index 2 is out of range for a list of 2"});
    expect_word_error(symbol<Word1>("spl_w_list_len")(x.h), {"is a tensor, not a word list"});
    expect_word_error(symbol<Word1>("spl_w_list_len")(987654321), {"list"});
}
