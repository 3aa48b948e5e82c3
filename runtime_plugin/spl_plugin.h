/*
 * spl_plugin.h — the versioned, C-only ABI between a Simple runtime and a
 * native plugin such as libspl_torch.so.
 *
 * A host dlopen()s the plugin, looks up the single symbol
 * `spl_plugin_open` and calls it with the ABI version it was compiled for.
 * The plugin answers with a table of every function it provides: name,
 * Simple signature, a uniform boxed thunk (for interpreters) and the typed C
 * symbol (for compiled code), and its word adapter (for runtimes that pass only
 * 64-bit integer words; see "The word convention" below).  Nothing else
 * crosses the boundary: no C++ types, no exceptions, no raw pointers to
 * library objects.
 *
 * Ownership: values passed *into* a plugin are borrowed for the duration of
 * the call.  Text and arrays a plugin *returns* live in per-thread scratch
 * storage owned by the plugin and stay valid until that thread's next call
 * into the same plugin; a host copies them out at once.
 */
#ifndef SPL_PLUGIN_H
#define SPL_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change of the structs or calling conventions below. */
#define SPL_PLUGIN_ABI_VERSION 3u /* 2: SplFunction.word; 3: SplHostRequest.callbacks, SPL_CALLABLE */

/* Tags of boxed values. Numbers are part of the ABI: append, never renumber. */
typedef enum SplTag {
    SPL_NIL = 0, /* no value: None, an omitted optional, void results */
    SPL_BOOL = 1,
    SPL_I64 = 2,
    SPL_F64 = 3,
    SPL_TEXT = 4,    /* UTF-8, as.text.ptr with as.text.len bytes (NUL-terminated too) */
    SPL_ARRAY = 5,   /* as.array.items[0 .. as.array.len) of boxed values */
    SPL_ERROR = 6,   /* only as a result: as.text holds the message */
    SPL_CALLABLE = 7 /* a host callable (a function, closure or bound method), as.i its id: see SplHostCallbacks */
} SplTag;

typedef struct SplValue SplValue;

typedef struct SplText {
    const char* ptr;
    int64_t len;
} SplText;

typedef struct SplArray {
    const SplValue* items;
    int64_t len;
} SplArray;

/* A well-formed SplValue: SPL_TEXT has a non-NULL ptr (None is SPL_NIL, never
 * a NULL ptr); SPL_ARRAY has len >= 0 and non-NULL items when len > 0. A
 * plugin refuses any other value with an error naming the parameter (and,
 * inside an array, the element's index) instead of reading it. */
struct SplValue {
    int32_t tag; /* an SplTag */
    union {
        bool b;
        int64_t i;
        double f;
        SplText text;
        SplArray array;
    } as;
};

/* The typed C symbol (SplFunction.typed) takes every parameter, in order, with a C type that
 * follows from the parameter's registered Simple type, so that a host or compiled code can call
 * it without boxing:
 *   i64 -> int64_t    f64 -> double    bool -> bool    text, text? -> const char*
 *   any, i64?, f64?, bool?, any? -> SplValue
 *   [i64] -> SplI64Array   [f64] -> SplF64Array   [bool] -> SplBoolArray   [text] -> SplTextArray
 *   [any] -> SplArray
 * and returns void (no result), int64_t, double or bool for i64, f64 and bool, else an SplValue
 * (copied out at once, as a boxed result). Defaults are not applied: a caller passes every
 * parameter (a parameter's default is SplParam.default_value). A typed call never throws; a
 * failed one returns 0 (false, 0.0, a nil SplValue) with spl_w_error_pending() at 1 and the
 * message in spl_w_last_error() until the thread's next call into the plugin.
 *
 * Typed-ABI aggregates: one C parameter per schema argument. A negative len
 * means "None" for an optional list, and is an error for a required one;
 * data must not be NULL when len > 0 (an error naming the parameter).
 *
 * Typed-ABI text (`const char *`, NUL-terminated UTF-8): NULL means "None"
 * only where the parameter is optional (Simple type `text?`). For a required
 * text parameter NULL is an error naming the parameter, never a stand-in for
 * a default: where a function gives "" a meaning (rt_torch_from_f64's dtype
 * "" is float32, its device "" is the CPU), pass "". */
typedef struct SplI64Array {
    const int64_t* data;
    int64_t len;
} SplI64Array;

typedef struct SplF64Array {
    const double* data;
    int64_t len;
} SplF64Array;

typedef struct SplBoolArray {
    const bool* data;
    int64_t len;
} SplBoolArray;

typedef struct SplTextArray {
    const char* const* data;
    int64_t len;
} SplTextArray;

/* Status of a boxed call. On SPL_STATUS_ERROR the result is SPL_ERROR. */
typedef enum SplStatus { SPL_STATUS_OK = 0, SPL_STATUS_ERROR = 1 } SplStatus;

/* The uniform calling convention for interpreters. `args` holds `nargs`
 * positional values; a function accepts any count between its required and
 * total parameter counts (trailing parameters take their defaults). */
typedef SplStatus (*SplBoxedFn)(const SplValue* args, int32_t nargs, SplValue* result);

/* ---- The word convention ---------------------------------------------------
 * For runtimes that call native code only with 64-bit integer words and take an
 * integer back, as the real Simple interpreter does (`spl_wffi_call_i64(fptr,
 * [i64], n)`: at most 8 words; its wsffi.rs). Every registered function has a
 * word adapter, SplFunction.word, exported as SPL_WORD_PREFIX + its name
 * ("spl_w_rt_torch_add_Tensor"). Every adapter has the one C type SplWordFn:
 * pass all SPL_MAX_WORDS words, those the function does not use as 0.
 *
 * Arguments, one after the other, by the parameter's Simple type:
 *   i64                      1 word: the value (tensors are their handles)
 *   f64                      1 word: the IEEE-754 bit pattern
 *   bool                     1 word: 0 or 1 (anything else is an error)
 *   text / text?             1 word: a NUL-terminated UTF-8 char*, copied during the
 *                            call; 0 is nil for text?, an error for text
 *   any, T? (i64?, f64?,     2 words: a tag (SplTag: 0 nil, 1 bool, 2 i64, 3 f64,
 *   bool?, any?)             4 text, 5 list) and the payload as above
 *   [T], [T]?, tuples        1 word: a list handle (spl_w_list_new); 0 is nil
 * Defaults are not applied: pass every parameter. When a function's words add up
 * to more than SPL_MAX_WORDS, pass one word instead: a list of them, each pushed
 * with tag SPL_I64.
 *
 * Results: nothing -> 0; i64, f64 (bits), bool (0/1) as above; text -> a char*
 * valid until the thread's next call into the plugin (copy it at once). Any other
 * type (optionals, lists, tuples, any) -> the payload word, with its tag from
 * spl_w_result_tag(); a list comes back as a new list handle that the caller frees.
 *
 * Errors: a failed call returns 0. Since 0 is also a valid result, the caller
 * asks spl_w_error_pending() after every call, and spl_w_last_error() for the
 * message (the same per-thread state as the typed calls' rt_torch_error_pending).
 */
#define SPL_MAX_WORDS 8
#define SPL_WORD_PREFIX "spl_w_"
typedef int64_t (*SplWordFn)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

/* One parameter of a registered function. `simple_type` is written as in a
 * Simple `extern fn` ("i64", "[i64]", "f64?", "any", ...). `default_value`
 * is a Simple literal, or NULL when the parameter is required. */
typedef struct SplParam {
    const char* name;
    const char* simple_type;
    const char* default_value;
} SplParam;

typedef struct SplFunction {
    const char* name;        /* e.g. "rt_torch_add_Tensor" */
    const char* signature;   /* the full Simple declaration, "extern fn ...", for checks */
    const char* return_type; /* Simple type, "" for none */
    const SplParam* params;
    int32_t nparams;
    int32_t nrequired;   /* leading parameters without a default */
    SplBoxedFn boxed;    /* never NULL */
    void (*typed)(void); /* the typed C symbol; cast to its real type */
    SplWordFn word;      /* the word adapter, exported as SPL_WORD_PREFIX + name; never NULL */
} SplFunction;

typedef struct SplPluginInfo {
    uint32_t abi_version;         /* SPL_PLUGIN_ABI_VERSION the plugin was built with */
    const char* plugin_name;      /* "torch" */
    const char* plugin_version;   /* the plugin's own version */
    const char* library_version;  /* the wrapped library's version, e.g. LibTorch "2.15.0" */
    const SplFunction* functions; /* sorted by name (strcmp), for binary search */
    int64_t nfunctions;
    /* Finds a function by name; NULL when there is none. */
    const SplFunction* (*find)(const char* name);
} SplPluginInfo;

/* ---- Host callbacks (ABI 3) -------------------------------------------------
 * How a plugin runs host code: a custom autograd Function's backward, a tensor hook. The host
 * passes a callable to a plugin function as an SPL_CALLABLE value whose as.i is an id of the
 * host's choosing (never 0). Like every argument, the id is borrowed for the call; a plugin that
 * keeps it past the call (in a graph node) calls retain() first and release() once when it no
 * longer needs it (when the node dies).
 *
 * call(): runs the callable `id` with `nargs` boxed arguments and writes its boxed result.
 *   - Arguments are borrowed by the host for the duration of call(); the result (a value, or
 *     SPL_ERROR with the message, and SPL_STATUS_ERROR returned) is owned by the host and stays
 *     valid until the same thread's next call() into the host; the plugin copies what it keeps.
 *   - Thread: a plugin calls call() only on a thread that is inside one of its functions,
 *     entered by the host (the host's own thread); never from a thread of its own or of the
 *     library (an autograd device thread, a data loader's worker). A plugin that reaches a
 *     callable on any other thread fails that work with an error instead of calling.
 *   - Re-entrancy: the callable may call into the plugin again (a backward inside a backward);
 *     the plugin's per-thread scratch results are then reused, so a plugin copies out what it
 *     needs of its own results before call() returns to it.
 *   - An unknown or released id is an SPL_ERROR naming it, never undefined behaviour.
 * retain() / release(): count references to an id; they may be called from any thread (a
 *   graph node can die on a library thread). The host frees the callable when the count
 *   reaches zero and it holds no reference of its own. Releasing an id more often than it was
 *   retained is reported by the host (it is a plugin bug) and otherwise ignored.
 *
 * A host that offers no callbacks passes NULL: everything else runs, and a function that needs
 * a callback fails with an error that says the host gives none. */
typedef struct SplHostCallbacks {
    void* host; /* passed back as the first argument of every function below */
    SplStatus (*call)(void* host, int64_t id, const SplValue* args, int32_t nargs, SplValue* result);
    void (*retain)(void* host, int64_t id);
    void (*release)(void* host, int64_t id);
} SplHostCallbacks;

/* The request a host makes when it opens a plugin. */
typedef struct SplHostRequest {
    uint32_t abi_version;                 /* the host's SPL_PLUGIN_ABI_VERSION */
    const char* expected_library_version; /* NULL to accept any; else must equal library_version */
    const SplHostCallbacks* callbacks;    /* ABI 3: NULL when the host offers none; must outlive the plugin */
} SplHostRequest;

/* The one symbol a host looks up. Returns NULL when the plugin refuses the
 * request; then `*error` (if non-NULL) points at a static message that says
 * why, naming both versions. */
typedef const SplPluginInfo* (*SplPluginOpenFn)(const SplHostRequest* request, const char** error);
#define SPL_PLUGIN_OPEN_SYMBOL "spl_plugin_open"

/* Word-convention lists and state, exported by a plugin that offers word adapters.
 * Every function here takes and returns only words, with exactly these arities. */
/* A new, empty list; free it with the plugin's handle-freeing function. */
int64_t spl_w_list_new(void);
/* Appends `count` (1..5) items with the same tag, words w0.. (text is copied, a list
 * item holds the pushed list). Returns `list`, or 0 with an error pending. */
int64_t spl_w_list_push(int64_t list, int64_t tag, int64_t count, int64_t w0, int64_t w1, int64_t w2, int64_t w3,
                        int64_t w4);
int64_t spl_w_list_len(int64_t list);
int64_t spl_w_list_tag(int64_t list, int64_t index);
/* An item's word: a char* owned by the list for text, a new handle (to free) for a list. */
int64_t spl_w_list_word(int64_t list, int64_t index);
/* The tag of the last word call's result on this thread. */
int64_t spl_w_result_tag(void);
/* 1 when this thread's last call into the plugin failed, else 0; neither clears it. */
int64_t spl_w_error_pending(void);
/* That failure's message, a char* valid until the thread's next failing call. */
int64_t spl_w_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* SPL_PLUGIN_H */
