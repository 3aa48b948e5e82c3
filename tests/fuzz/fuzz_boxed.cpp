// Fuzzes the boxed calling convention's argument decoder (runtime_plugin/abi/boxed_args.cpp,
// through the generated thunks of the table spl_plugin_open hands out): the input is read as
// calls, each a function of fuzz_table.h's selection and a tree of SplValue arguments, well-
// formed or not (NULL text and items, negative lengths, unknown and error tags, wrong kinds,
// too few or too many arguments, a NULL argument array). Every call must succeed or fail with
// an SPL_ERROR message; the tensors it made are released, and none may be left behind.
#include "fuzz_support.h"
#include "fuzz_table.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

namespace {

struct Trees {
    std::deque<std::string> texts;
    std::deque<std::vector<SplValue>> arrays;
};

SplValue make_value(FuzzedDataProvider& in, Trees& trees, int depth) {
    SplValue v{};
    switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0: v.tag = SPL_NIL; break;
    case 1: v.tag = SPL_BOOL, v.as.b = in.ConsumeBool(); break;
    case 2:
    case 3: v.tag = SPL_I64, v.as.i = fuzz::pick_i64(in); break;
    case 4: v.tag = SPL_F64, v.as.f = fuzz::pick_f64(in); break;
    case 5: {
        const std::string& s = fuzz::pick_text(in, trees.texts);
        v.tag = SPL_TEXT, v.as.text = {s.c_str(), static_cast<int64_t>(s.size())};
        break;
    }
    case 6: v.tag = SPL_TEXT, v.as.text = {nullptr, 0}; break; // malformed: None is nil
    case 7:
    case 8: {
        std::vector<SplValue> items;
        const int n = depth < 3 ? in.ConsumeIntegralInRange<int>(0, 6) : 0;
        for (int i = 0; i < n; ++i) items.push_back(make_value(in, trees, depth + 1));
        trees.arrays.push_back(std::move(items));
        const std::vector<SplValue>& kept = trees.arrays.back();
        v.tag = SPL_ARRAY, v.as.array = {kept.empty() ? nullptr : kept.data(), static_cast<int64_t>(kept.size())};
        break;
    }
    case 9: // malformed arrays: a negative length, or NULL items with a length
        v.tag = SPL_ARRAY;
        v.as.array = {nullptr, in.ConsumeBool() ? -in.ConsumeIntegralInRange<int64_t>(1, 1 << 20)
                                                : in.ConsumeIntegralInRange<int64_t>(1, 1 << 20)};
        break;
    case 10: v.tag = SPL_ERROR, v.as.text = {"an error", 8}; break;
    default: v.tag = in.ConsumeIntegralInRange<int32_t>(-2, 9), v.as.i = 0; break; // unknown tags among them
    }
    return v;
}

void check_result(const SplFunction& fn, SplStatus status, const SplValue& result) {
    if (status == SPL_STATUS_ERROR) {
        if (result.tag != SPL_ERROR || !result.as.text.ptr || result.as.text.len <= 0)
            fuzz::broken(fn.name, "failed without an SPL_ERROR message");
        return;
    }
    if (status != SPL_STATUS_OK) fuzz::broken(fn.name, "returned a status that is neither OK nor ERROR");
    fuzz::release_new_handles(result);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<const SplFunction*>& functions = fuzz::fuzzed_functions();
    fuzz::tensors(); // made once, before the count
    const int64_t before = rt_torch_live_handles();
    FuzzedDataProvider in(data, size);
    for (int call = 0; call < 4 && in.remaining_bytes() > 0; ++call) {
        const SplFunction& fn = *functions[in.ConsumeIntegralInRange<size_t>(0, functions.size() - 1)];
        Trees trees;
        // Mostly a count the function accepts; now and then one too many or too few.
        const int32_t nargs = in.ConsumeIntegralInRange<int32_t>(std::max(0, fn.nrequired - 1), fn.nparams + 1);
        std::vector<SplValue> args;
        for (int32_t i = 0; i < nargs; ++i) args.push_back(make_value(in, trees, 0));
        const bool null_args = nargs > 0 && in.ConsumeProbability<float>() < 0.02f;
        SplValue result{};
        const SplStatus status = fn.boxed(null_args ? nullptr : args.data(), nargs, &result);
        check_result(fn, status, result);
    }
    fuzz::expect_live_handles(before, "a boxed call");
    return 0;
}
