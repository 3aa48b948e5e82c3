/* fake_plugin.c — a small plugin for testing the host's extern path without
 * LibTorch: scalars, text, arrays, defaults, errors and "handles" (a stand-in
 * for tensors) with a live count, so tests can check deterministic freeing.
 * Built as libspl_fake.so; its functions are `rt_fake_*`. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "spl_plugin.h"

static char scratch_text[256];
static SplValue scratch_items[64];

static SplStatus fail(SplValue* result, const char* msg) {
    snprintf(scratch_text, sizeof scratch_text, "%s", msg);
    result->tag = SPL_ERROR;
    result->as.text.ptr = scratch_text;
    result->as.text.len = (int64_t)strlen(scratch_text);
    return SPL_STATUS_ERROR;
}
static SplStatus ok_i64(SplValue* r, int64_t v) {
    r->tag = SPL_I64;
    r->as.i = v;
    return SPL_STATUS_OK;
}
static SplStatus ok_f64(SplValue* r, double v) {
    r->tag = SPL_F64;
    r->as.f = v;
    return SPL_STATUS_OK;
}
static SplStatus ok_bool(SplValue* r, bool v) {
    r->tag = SPL_BOOL;
    r->as.b = v;
    return SPL_STATUS_OK;
}
static SplStatus ok_text(SplValue* r, const char* s) {
    snprintf(scratch_text, sizeof scratch_text, "%s", s);
    r->tag = SPL_TEXT;
    r->as.text.ptr = scratch_text;
    r->as.text.len = (int64_t)strlen(scratch_text);
    return SPL_STATUS_OK;
}

/* ---- handles: slot i holds a double while live[i] */
#define MAX_HANDLES 4096
static double values[MAX_HANDLES];
static bool live[MAX_HANDLES];
static int64_t live_count;

static int64_t new_handle(double v) {
    for (int64_t i = 1; i < MAX_HANDLES; ++i)
        if (!live[i]) {
            live[i] = true;
            values[i] = v;
            ++live_count;
            return i;
        }
    return 0;
}
static bool valid(int64_t h) { return h > 0 && h < MAX_HANDLES && live[h]; }

static SplStatus f_add(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    return ok_i64(r, a[0].as.i + a[1].as.i);
}
static SplStatus f_scale(const SplValue* a, int32_t n, SplValue* r) {
    return ok_f64(r, a[0].as.f * (n > 1 ? a[1].as.f : 2.0));
}
static SplStatus f_concat(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s%.*s", (int)a[0].as.text.len, a[0].as.text.ptr, (int)a[1].as.text.len,
             a[1].as.text.ptr);
    return ok_text(r, buf);
}
static SplStatus f_sum(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    int64_t s = 0;
    for (int64_t i = 0; i < a[0].as.array.len; ++i) {
        if (a[0].as.array.items[i].tag != SPL_I64) return fail(r, "rt_fake_sum: elements must be i64");
        s += a[0].as.array.items[i].as.i;
    }
    return ok_i64(r, s);
}
static SplStatus f_range(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    int64_t len = a[0].as.i;
    if (len < 0 || len > 64) return fail(r, "rt_fake_range: n must be in 0..64");
    for (int64_t i = 0; i < len; ++i) {
        scratch_items[i].tag = SPL_I64;
        scratch_items[i].as.i = i;
    }
    r->tag = SPL_ARRAY;
    r->as.array.items = scratch_items;
    r->as.array.len = len;
    return SPL_STATUS_OK;
}
static SplStatus f_pair(const SplValue* a, int32_t n, SplValue* r) {
    (void)a;
    (void)n;
    snprintf(scratch_text, sizeof scratch_text, "fake");
    scratch_items[0].tag = SPL_TEXT;
    scratch_items[0].as.text.ptr = scratch_text;
    scratch_items[0].as.text.len = 4;
    scratch_items[1].tag = SPL_I64;
    scratch_items[1].as.i = 7;
    r->tag = SPL_ARRAY;
    r->as.array.items = scratch_items;
    r->as.array.len = 2;
    return SPL_STATUS_OK;
}
static SplStatus f_fail(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    char buf[200];
    snprintf(buf, sizeof buf, "fake failure: %.*s", (int)a[0].as.text.len, a[0].as.text.ptr);
    return fail(r, buf);
}
static SplStatus f_is_given(const SplValue* a, int32_t n, SplValue* r) {
    return ok_bool(r, n > 0 && a[0].tag != SPL_NIL);
}
/* Reports how it was called: nargs * 1000 + a + b + c (b, c default to 10, 100). */
static SplStatus f_defaults(const SplValue* a, int32_t n, SplValue* r) {
    int64_t b = n > 1 ? a[1].as.i : 10, c = n > 2 ? a[2].as.i : 100;
    return ok_i64(r, n * 1000 + a[0].as.i + b + c);
}
static SplStatus f_new(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    int64_t h = new_handle(a[0].as.f);
    if (!h) return fail(r, "rt_fake_new: out of handles");
    return ok_i64(r, h);
}
static SplStatus f_free(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!valid(a[0].as.i)) return fail(r, "rt_fake_free: invalid handle");
    live[a[0].as.i] = false;
    --live_count;
    r->tag = SPL_NIL;
    return SPL_STATUS_OK;
}
static SplStatus f_get(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!valid(a[0].as.i)) return fail(r, "rt_fake_get: invalid handle");
    return ok_f64(r, values[a[0].as.i]);
}
static SplStatus f_add_h(const SplValue* a, int32_t n, SplValue* r) {
    if (!valid(a[0].as.i) || !valid(a[1].as.i)) return fail(r, "rt_fake_add_h: invalid handle");
    double alpha = n > 2 ? a[2].as.f : 1.0;
    int64_t h = new_handle(values[a[0].as.i] + alpha * values[a[1].as.i]);
    if (!h) return fail(r, "rt_fake_add_h: out of handles");
    return ok_i64(r, h);
}
static SplStatus f_mul_s(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!valid(a[0].as.i)) return fail(r, "rt_fake_mul_s: invalid handle");
    int64_t h = new_handle(values[a[0].as.i] * a[1].as.f);
    if (!h) return fail(r, "rt_fake_mul_s: out of handles");
    return ok_i64(r, h);
}
static SplStatus f_live(const SplValue* a, int32_t n, SplValue* r) {
    (void)a;
    (void)n;
    return ok_i64(r, live_count);
}
static SplStatus f_noop(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    return ok_i64(r, a[0].as.i);
}

/* ---- typed symbols (host/typed_call.h): the same functions with C parameters, errors in a
 * pending flag and message read through spl_w_error_pending / spl_w_last_error, and a count of
 * typed calls so that tests can tell which path the host took. */
static bool t_pending;
static char t_message[256];
static int64_t t_calls;

static void t_begin(void) {
    t_pending = false;
    ++t_calls;
}
static void t_fail(const char* msg) {
    snprintf(t_message, sizeof t_message, "%s", msg);
    t_pending = true;
}
int64_t spl_w_error_pending(void) { return t_pending ? 1 : 0; }
int64_t spl_w_last_error(void) { return (int64_t)(intptr_t)t_message; }

static int64_t t_add(int64_t a, int64_t b) {
    t_begin();
    return a + b;
}
static double t_scale(double x, double factor) {
    t_begin();
    return x * factor;
}
static bool t_is_given(SplValue x) {
    t_begin();
    return x.tag != SPL_NIL;
}
static double t_get(int64_t h) {
    t_begin();
    if (!valid(h)) {
        t_fail("rt_fake_get: invalid handle");
        return 0.0;
    }
    return values[h];
}
static void t_free(int64_t h) {
    t_begin();
    if (!valid(h)) {
        t_fail("rt_fake_free: invalid handle");
        return;
    }
    live[h] = false;
    --live_count;
}
static int64_t t_new(double v) {
    t_begin();
    int64_t h = new_handle(v);
    if (!h) t_fail("rt_fake_new: out of handles");
    return h;
}
static int64_t t_add_h(int64_t a, int64_t b, double alpha) {
    t_begin();
    if (!valid(a) || !valid(b)) {
        t_fail("rt_fake_add_h: invalid handle");
        return 0;
    }
    int64_t h = new_handle(values[a] + alpha * values[b]);
    if (!h) t_fail("rt_fake_add_h: out of handles");
    return h;
}
static int64_t t_mul_s(int64_t h, double s) {
    t_begin();
    if (!valid(h)) {
        t_fail("rt_fake_mul_s: invalid handle");
        return 0;
    }
    int64_t out = new_handle(values[h] * s);
    if (!out) t_fail("rt_fake_mul_s: out of handles");
    return out;
}
static SplStatus f_typed_calls(const SplValue* a, int32_t n, SplValue* r) {
    (void)a;
    (void)n;
    return ok_i64(r, t_calls);
}
/* The tag of any value, as text: which form a value crossed in. */
static SplStatus f_kind(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    switch (a[0].tag) {
    case SPL_I64: return ok_text(r, "i64");
    case SPL_F64: return ok_text(r, "f64");
    case SPL_BOOL: return ok_text(r, "bool");
    case SPL_NIL: return ok_text(r, "nil");
    default: return ok_text(r, "other");
    }
}
/* ---- host callbacks (spl_plugin.h, ABI 3): the table the host opened us with. */
static const SplHostCallbacks* host;

static SplStatus no_host(SplValue* r) { return fail(r, "fake plugin: the host gives no callbacks"); }

/* Calls `id` with one i64 and copies the result out (an i64, a text or nil), as a plugin must. */
static SplStatus call_host(int64_t id, int64_t x, SplValue* r) {
    SplValue arg = {0};
    arg.tag = SPL_I64;
    arg.as.i = x;
    SplValue out = {0};
    if (host->call(host->host, id, &arg, 1, &out) != SPL_STATUS_OK) {
        char buf[240];
        snprintf(buf, sizeof buf, "fake plugin: the callable failed: %.*s", (int)out.as.text.len, out.as.text.ptr);
        return fail(r, buf);
    }
    if (out.tag == SPL_I64) return ok_i64(r, out.as.i);
    if (out.tag == SPL_TEXT) {
        char buf[240];
        snprintf(buf, sizeof buf, "%.*s", (int)out.as.text.len, out.as.text.ptr);
        return ok_text(r, buf);
    }
    r->tag = SPL_NIL;
    return SPL_STATUS_OK;
}
/* rt_fake_call(f, x): f(x), while f is lent. */
static SplStatus f_call(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!host) return no_host(r);
    if (a[0].tag != SPL_CALLABLE) return fail(r, "rt_fake_call: f must be a function");
    return call_host(a[0].as.i, a[1].as.i, r);
}
/* rt_fake_keep(f): retains f past the call; its id, for rt_fake_call_kept and rt_fake_release. */
static SplStatus f_keep(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!host) return no_host(r);
    if (a[0].tag != SPL_CALLABLE) return fail(r, "rt_fake_keep: f must be a function");
    host->retain(host->host, a[0].as.i);
    return ok_i64(r, a[0].as.i);
}
static SplStatus f_call_kept(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!host) return no_host(r);
    return call_host(a[0].as.i, a[1].as.i, r);
}
/* rt_fake_release(id): one release, however often it was retained (a buggy plugin may repeat it). */
static SplStatus f_release(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!host) return no_host(r);
    host->release(host->host, a[0].as.i);
    r->tag = SPL_NIL;
    return SPL_STATUS_OK;
}
/* rt_fake_call_returned(f, x): g(x), where g is the callable f(x) returned (kept past the next call
 * into the host by retaining it, as a plugin that keeps a callable result must). */
static SplStatus f_call_returned(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!host) return no_host(r);
    if (a[0].tag != SPL_CALLABLE) return fail(r, "rt_fake_call_returned: f must be a function");
    SplValue arg = {0};
    arg.tag = SPL_I64;
    arg.as.i = a[1].as.i;
    SplValue out = {0};
    if (host->call(host->host, a[0].as.i, &arg, 1, &out) != SPL_STATUS_OK) return fail(r, "the callable f failed");
    if (out.tag != SPL_CALLABLE) return fail(r, "rt_fake_call_returned: f did not return a function");
    const int64_t g = out.as.i;
    host->retain(host->host, g);
    SplStatus status = call_host(g, a[1].as.i, r);
    host->release(host->host, g);
    return status;
}
/* rt_fake_call_from_thread(f, x): what the host answers a call of f made on another thread (a
 * plugin must never do this; the host must refuse it): the message, or "" if it ran f. */
struct thread_call {
    int64_t id, x;
    SplStatus status;
    char message[240];
};
static void* thread_body(void* p) {
    struct thread_call* c = (struct thread_call*)p;
    SplValue arg = {0};
    arg.tag = SPL_I64;
    arg.as.i = c->x;
    SplValue out = {0};
    c->status = host->call(host->host, c->id, &arg, 1, &out);
    if (c->status != SPL_STATUS_OK)
        snprintf(c->message, sizeof c->message, "%.*s", (int)out.as.text.len, out.as.text.ptr);
    return NULL;
}
static SplStatus f_call_from_thread(const SplValue* a, int32_t n, SplValue* r) {
    (void)n;
    if (!host) return no_host(r);
    struct thread_call c = {a[0].as.i, a[1].as.i, SPL_STATUS_OK, ""};
    pthread_t thread;
    if (pthread_create(&thread, NULL, thread_body, &c) != 0) return fail(r, "rt_fake_call_from_thread: no thread");
    pthread_join(thread, NULL);
    return ok_text(r, c.message);
}

#define TYPED(fn) ((void (*)(void))(fn))

#define P(name, type)                                                                                                  \
    { name, type, NULL }
#define PD(name, type, dflt)                                                                                           \
    { name, type, dflt }
static const SplParam p_ab[] = {P("a", "i64"), P("b", "i64")};
static const SplParam p_scale[] = {P("x", "f64"), PD("factor", "f64", "2.0")};
static const SplParam p_concat[] = {P("a", "text"), P("b", "text")};
static const SplParam p_sum[] = {P("xs", "[i64]")};
static const SplParam p_n[] = {P("n", "i64")};
static const SplParam p_msg[] = {P("msg", "text")};
static const SplParam p_opt[] = {P("x", "i64?")};
static const SplParam p_defaults[] = {P("a", "i64"), PD("b", "i64", "10"), PD("c", "i64", "100")};
static const SplParam p_value[] = {P("value", "f64")};
static const SplParam p_h[] = {P("h", "i64")};
static const SplParam p_add_h[] = {P("a", "i64"), P("b", "i64"), PD("alpha", "f64", "1.0")};
static const SplParam p_mul_s[] = {P("h", "i64"), P("s", "f64")};
static const SplParam p_any[] = {P("v", "any")};
static const SplParam p_fx[] = {P("f", "any"), P("x", "i64")};
static const SplParam p_f[] = {P("f", "any")};
static const SplParam p_idx[] = {P("id", "i64"), P("x", "i64")};
static const SplParam p_id[] = {P("id", "i64")};

/* Sorted by name (strcmp). No word adapters: this host test does not use them. */
static const SplFunction functions[] = {
    {"rt_fake_add", "extern fn rt_fake_add(a: i64, b: i64) -> i64", "i64", p_ab, 2, 2, f_add, TYPED(t_add), NULL},
    {"rt_fake_add_h", "extern fn rt_fake_add_h(a: i64, b: i64, alpha: f64 = 1.0) -> i64", "i64", p_add_h, 3, 2, f_add_h,
     TYPED(t_add_h), NULL},
    {"rt_fake_call", "extern fn rt_fake_call(f: any, x: i64) -> any", "any", p_fx, 2, 2, f_call, NULL, NULL},
    {"rt_fake_call_from_thread", "extern fn rt_fake_call_from_thread(f: any, x: i64) -> text", "text", p_fx, 2, 2,
     f_call_from_thread, NULL, NULL},
    {"rt_fake_call_kept", "extern fn rt_fake_call_kept(id: i64, x: i64) -> any", "any", p_idx, 2, 2, f_call_kept, NULL,
     NULL},
    {"rt_fake_call_returned", "extern fn rt_fake_call_returned(f: any, x: i64) -> any", "any", p_fx, 2, 2,
     f_call_returned, NULL, NULL},
    {"rt_fake_concat", "extern fn rt_fake_concat(a: text, b: text) -> text", "text", p_concat, 2, 2, f_concat, NULL,
     NULL},
    {"rt_fake_defaults", "extern fn rt_fake_defaults(a: i64, b: i64 = 10, c: i64 = 100) -> i64", "i64", p_defaults, 3,
     1, f_defaults, NULL, NULL},
    {"rt_fake_fail", "extern fn rt_fake_fail(msg: text) -> i64", "i64", p_msg, 1, 1, f_fail, NULL, NULL},
    {"rt_fake_free", "extern fn rt_fake_free(h: i64)", "", p_h, 1, 1, f_free, TYPED(t_free), NULL},
    {"rt_fake_get", "extern fn rt_fake_get(h: i64) -> f64", "f64", p_h, 1, 1, f_get, TYPED(t_get), NULL},
    {"rt_fake_is_given", "extern fn rt_fake_is_given(x: i64?) -> bool", "bool", p_opt, 1, 0, f_is_given,
     TYPED(t_is_given), NULL},
    {"rt_fake_keep", "extern fn rt_fake_keep(f: any) -> i64", "i64", p_f, 1, 1, f_keep, NULL, NULL},
    {"rt_fake_kind", "extern fn rt_fake_kind(v: any) -> text", "text", p_any, 1, 1, f_kind, NULL, NULL},
    {"rt_fake_live", "extern fn rt_fake_live() -> i64", "i64", NULL, 0, 0, f_live, NULL, NULL},
    {"rt_fake_mul_s", "extern fn rt_fake_mul_s(h: i64, s: f64) -> i64", "i64", p_mul_s, 2, 2, f_mul_s, TYPED(t_mul_s),
     NULL},
    {"rt_fake_new", "extern fn rt_fake_new(value: f64) -> i64", "i64", p_value, 1, 1, f_new, TYPED(t_new), NULL},
    {"rt_fake_noop", "extern fn rt_fake_noop(h: i64) -> i64", "i64", p_h, 1, 1, f_noop, NULL, NULL},
    {"rt_fake_pair", "extern fn rt_fake_pair() -> (text, i64)", "(text, i64)", NULL, 0, 0, f_pair, NULL, NULL},
    {"rt_fake_range", "extern fn rt_fake_range(n: i64) -> [i64]", "[i64]", p_n, 1, 1, f_range, NULL, NULL},
    {"rt_fake_release", "extern fn rt_fake_release(id: i64)", "", p_id, 1, 1, f_release, NULL, NULL},
    {"rt_fake_scale", "extern fn rt_fake_scale(x: f64, factor: f64 = 2.0) -> f64", "f64", p_scale, 2, 1, f_scale,
     TYPED(t_scale), NULL},
    {"rt_fake_sum", "extern fn rt_fake_sum(xs: [i64]) -> i64", "i64", p_sum, 1, 1, f_sum, NULL, NULL},
    {"rt_fake_typed_calls", "extern fn rt_fake_typed_calls() -> i64", "i64", NULL, 0, 0, f_typed_calls, NULL, NULL},
};
#define NFUNCTIONS ((int64_t)(sizeof functions / sizeof functions[0]))

static int by_name(const void* key, const void* item) {
    return strcmp((const char*)key, ((const SplFunction*)item)->name);
}
static const SplFunction* find(const char* name) {
    return (const SplFunction*)bsearch(name, functions, (size_t)NFUNCTIONS, sizeof functions[0], by_name);
}

static const SplPluginInfo info = {SPL_PLUGIN_ABI_VERSION, "fake", "0.1", "0.0.0", functions, NFUNCTIONS, find};

const SplPluginInfo* spl_plugin_open(const SplHostRequest* request, const char** error) {
    if (request->abi_version != SPL_PLUGIN_ABI_VERSION) {
        if (error) *error = "fake plugin: ABI version mismatch";
        return NULL;
    }
    host = request->callbacks;
    return &info;
}
