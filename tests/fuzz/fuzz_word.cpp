// Fuzzes the word convention (runtime_plugin/word/): the input is a program of word-level
// operations, as a runtime that passes only 64-bit words would make them: lists made, pushed
// to (every tag, counts in and out of 1..5, text pointers, nested lists, the list itself),
// read back by index, freed (twice, now and then), and word calls of fuzz_table.h's functions
// (through SplFunction.word) with words drawn from those lists, the tensors, text and numbers.
// Every operation must succeed or fail with a message; at the end every list and tensor it
// made is freed, and none may be left behind.
#include "fuzz_support.h"
#include "fuzz_table.h"

#include <cstring>
#include <deque>
#include <vector>

namespace {

struct State {
    std::vector<int64_t> lists; // handles made (freed at the end; some already freed)
    std::deque<std::string> texts;
};

int64_t text_word(FuzzedDataProvider& in, State& s) {
    return reinterpret_cast<int64_t>(fuzz::pick_text(in, s.texts).c_str());
}

int64_t list_word(FuzzedDataProvider& in, State& s) {
    if (s.lists.empty() || in.ConsumeProbability<float>() < 0.1f) return in.ConsumeBool() ? 0 : fuzz::pick_i64(in);
    return s.lists[in.ConsumeIntegralInRange<size_t>(0, s.lists.size() - 1)];
}

// A payload word for `tag`: mostly one that fits it. A text word is always a real
// NUL-terminated string or 0: the plugin reads it as one, and cannot tell a forged pointer
// (the caller's side of the convention).
int64_t payload_word(FuzzedDataProvider& in, State& s, int64_t tag) {
    if (tag == SPL_TEXT) return in.ConsumeProbability<float>() < 0.05f ? 0 : text_word(in, s);
    if (in.ConsumeProbability<float>() < 0.1f) return fuzz::pick_i64(in);
    switch (tag) {
    case SPL_BOOL: return in.ConsumeIntegralInRange<int64_t>(0, 2);
    case SPL_F64: {
        const double d = fuzz::pick_f64(in);
        int64_t w;
        std::memcpy(&w, &d, sizeof w);
        return w;
    }
    case SPL_TEXT: return text_word(in, s);
    case SPL_ARRAY: return list_word(in, s);
    default: return fuzz::pick_i64(in);
    }
}

int64_t any_word(FuzzedDataProvider& in, State& s) {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return text_word(in, s);
    case 1: return list_word(in, s);
    case 2: return in.ConsumeIntegralInRange<int64_t>(0, 5); // a tag
    default: return payload_word(in, s, SPL_I64);
    }
}

void check(const char* what) { fuzz::call_failed(what); }

// Releases `word` when it is a tensor handle a call made.
void release_if_new(int64_t word) {
    SplValue v{};
    v.tag = SPL_I64, v.as.i = word;
    fuzz::release_new_handles(v);
}

bool is_prepared_tensor(int64_t word) {
    for (int64_t t : fuzz::tensors())
        if (t == word) return true;
    return false;
}

void word_call(FuzzedDataProvider& in, State& s) {
    const auto& functions = fuzz::fuzzed_functions();
    const SplFunction& fn = *functions[in.ConsumeIntegralInRange<size_t>(0, functions.size() - 1)];
    int64_t w[SPL_MAX_WORDS] = {};
    // Words by the parameters' layout (spl_plugin.h), each now and then something else.
    int k = 0;
    for (int p = 0; p < fn.nparams && k < SPL_MAX_WORDS; ++p) {
        const char* type = fn.params[p].simple_type;
        const bool is_text = std::strcmp(type, "text") == 0 || std::strcmp(type, "text?") == 0;
        const bool tagged = std::strcmp(type, "any") == 0 || type[std::strlen(type) - 1] == '?';
        // Now and then a word of another kind, in place of a one-word parameter other than text:
        // the words after it stay where the layout puts them (a text word must be text).
        const bool odd = !is_text && !tagged && in.ConsumeProbability<float>() < 0.1f;
        if (odd) {
            w[k++] = any_word(in, s);
        } else if (type[0] == '[' || type[0] == '(') {
            w[k++] = list_word(in, s);
        } else if (is_text) {
            w[k++] = payload_word(in, s, SPL_TEXT);
        } else if (tagged) {
            const int64_t tag = in.ConsumeIntegralInRange<int64_t>(-1, 6);
            w[k++] = tag;
            if (k < SPL_MAX_WORDS) w[k++] = payload_word(in, s, tag);
        } else if (std::strcmp(type, "f64") == 0) {
            w[k++] = payload_word(in, s, SPL_F64);
        } else if (std::strcmp(type, "bool") == 0) {
            w[k++] = payload_word(in, s, SPL_BOOL);
        } else {
            w[k++] = payload_word(in, s, SPL_I64);
        }
    }
    const int64_t r = fn.word(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
    if (spl_w_error_pending()) {
        const char* message = reinterpret_cast<const char*>(spl_w_last_error());
        if (!message || !*message) fuzz::broken(fn.name, "a word call failed without a message");
        return;
    }
    const int64_t tag = spl_w_result_tag();
    if (tag == SPL_I64) release_if_new(r);
    if (tag != SPL_ARRAY) return;
    // A new list handle, the caller's to free; the tensors in it are the caller's too.
    s.lists.push_back(r);
    const int64_t n = spl_w_list_len(r);
    for (int64_t i = 0; i < n; ++i)
        if (spl_w_list_tag(r, i) == SPL_I64) release_if_new(spl_w_list_word(r, i));
}

void step(FuzzedDataProvider& in, State& s) {
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: {
        const int64_t list = spl_w_list_new();
        check("spl_w_list_new");
        if (list) s.lists.push_back(list);
        break;
    }
    case 1:
    case 2: {
        const int64_t list = list_word(in, s);
        const int64_t tag = in.ConsumeIntegralInRange<int64_t>(-1, 7);
        const int64_t count = in.ConsumeIntegralInRange<int64_t>(0, 6);
        int64_t w[5];
        for (int64_t& word : w) word = payload_word(in, s, tag);
        spl_w_list_push(list, tag, count, w[0], w[1], w[2], w[3], w[4]);
        check("spl_w_list_push");
        break;
    }
    case 3: {
        const int64_t list = list_word(in, s);
        const int64_t index = in.ConsumeIntegralInRange<int64_t>(-2, 8);
        spl_w_list_len(list);
        check("spl_w_list_len");
        const int64_t tag = spl_w_list_tag(list, index);
        check("spl_w_list_tag");
        if (rt_torch_error_pending()) break;
        const int64_t word = spl_w_list_word(list, index);
        check("spl_w_list_word");
        if (rt_torch_error_pending()) break;
        if (tag == SPL_ARRAY) s.lists.push_back(word); // a new handle to the nested list
        if (tag == SPL_TEXT) (void)std::strlen(reinterpret_cast<const char*>(word));
        break;
    }
    case 4: {
        const int64_t handle = list_word(in, s); // may be freed already, forged or 0
        if (is_prepared_tensor(handle)) break;   // kept for the next inputs
        rt_torch_release(handle);
        check("rt_torch_release");
        break;
    }
    default: word_call(in, s); break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::fuzzed_functions();
    fuzz::tensors(); // made once, before the count
    const int64_t before = rt_torch_live_handles();
    FuzzedDataProvider in(data, size);
    State s;
    for (int i = 0; i < 24 && in.remaining_bytes() > 0; ++i) step(in, s);
    for (int64_t list : s.lists)
        if (rt_torch_is_live(list)) rt_torch_release(list);
    fuzz::expect_live_handles(before, "word-convention calls");
    return 0;
}
