// Calls handed from Python threads to the interpreter thread (thread_handoff.h): a queue of
// waiting calls, CPython's pending call that runs them, and the wake signal that interrupts a
// Python lock wait on the interpreter thread so that CPython runs its pending calls there.
#include "python/thread_handoff.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

namespace spl::python {
namespace {

// One call handed over; it lives on the waiting thread's stack, which holds its arguments.
struct HandedCall {
    SimpleCall call;
    PyObject* self;
    PyObject* args;
    PyObject* kwargs;
    PyObject* result = nullptr; // a new reference, or null with the exception below
    PyObject* type = nullptr;
    PyObject* value = nullptr;
    PyObject* traceback = nullptr;
    bool done = false;
};

struct Handoff {
    std::mutex mutex;
    std::condition_variable finished;
    std::deque<HandedCall*> waiting;
    pthread_t interpreter{};
    std::atomic<bool> serving{false}; // serve_handed_calls_here ran
    bool can_wake = false;            // the wake signal's handler is ours
    std::atomic<int> in_python{0};    // InPython depth on the interpreter thread
};

Handoff& handoff() {
    static auto* h = new Handoff(); // leaked: Python, whose threads may wait here, is never finalized
    return *h;
}

// A real-time signal nothing in the process uses by default (its default action ends the
// process, so it is sent only while our handler is installed).
int wake_signal() { return SIGRTMIN + 3; }

extern "C" void on_wake(int) {} // interrupting the interpreter thread's wait is all it does

int pending_call(void*) {
    run_handed_calls();
    return 0;
}

} // namespace

void serve_handed_calls_here() {
    Handoff& h = handoff();
    h.interpreter = pthread_self();
    struct sigaction old {};
    if (sigaction(wake_signal(), nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
        struct sigaction wake {};
        wake.sa_handler = on_wake;
        sigemptyset(&wake.sa_mask);
        wake.sa_flags = 0; // no SA_RESTART: the interrupted lock wait returns, and CPython looks at its pending calls
        h.can_wake = sigaction(wake_signal(), &wake, nullptr) == 0;
    }
    h.serving.store(true);
}

PyObject* call_on_interpreter_thread(SimpleCall call, PyObject* self, PyObject* args, PyObject* kwargs) {
    Handoff& h = handoff();
    if (!h.serving.load()) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a Simple function was called on a thread other than the Simple interpreter's, and this "
                        "Python was not started by lib.python there, so no thread can run it; nothing was run");
        return nullptr;
    }
    HandedCall handed{call, self, args, kwargs};
    {
        std::lock_guard<std::mutex> lock(h.mutex);
        h.waiting.push_back(&handed);
    }
    // Scheduled while this thread holds the GIL: an interpreter thread running bytecode, which
    // gave the GIL up for this thread to run, looks at its pending calls when it takes it back
    // (CPython 3.11 flags a pending call added without the GIL to the adding thread alone).
    bool scheduled = Py_AddPendingCall(pending_call, nullptr) == 0;
    PyThreadState* waiting = PyEval_SaveThread();
    std::unique_lock<std::mutex> lock(h.mutex);
    // The signal is sent again after each wait, which doubles up to 10 ms: arriving just before
    // the interpreter thread starts its lock wait, it interrupts nothing.
    auto wait = std::chrono::microseconds(20);
    while (!handed.done) {
        if (h.can_wake && h.in_python.load() > 0) pthread_kill(h.interpreter, wake_signal());
        if (h.finished.wait_for(lock, wait, [&] { return handed.done; })) break;
        wait = std::min(wait * 2, std::chrono::microseconds(10000));
        if (!scheduled) { // CPython's short queue of pending calls was full: again, with the GIL
            lock.unlock();
            PyEval_RestoreThread(waiting);
            scheduled = Py_AddPendingCall(pending_call, nullptr) == 0;
            waiting = PyEval_SaveThread();
            lock.lock();
        }
    }
    lock.unlock();
    PyEval_RestoreThread(waiting);
    if (handed.result) return handed.result;
    PyErr_Restore(handed.type, handed.value, handed.traceback);
    return nullptr;
}

void run_handed_calls() noexcept {
    if (!on_interpreter_thread()) return;
    Handoff& h = handoff();
    for (;;) {
        HandedCall* handed = nullptr;
        {
            std::lock_guard<std::mutex> lock(h.mutex);
            if (h.waiting.empty()) return;
            handed = h.waiting.front();
            h.waiting.pop_front();
        }
        // The exception being handled where CPython runs pending calls is not this call's.
        PyObject *outer_type, *outer_value, *outer_traceback;
        PyErr_Fetch(&outer_type, &outer_value, &outer_traceback);
        PyObject* result = handed->call(handed->self, handed->args, handed->kwargs);
        PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
        if (!result) PyErr_Fetch(&type, &value, &traceback);
        PyErr_Restore(outer_type, outer_value, outer_traceback);
        std::lock_guard<std::mutex> lock(h.mutex);
        handed->result = result;
        handed->type = type;
        handed->value = value;
        handed->traceback = traceback;
        handed->done = true;
        h.finished.notify_all();
    }
}

bool interpreter_in_python() noexcept { return handoff().in_python.load() > 0; }

bool on_interpreter_thread() noexcept {
    Handoff& h = handoff();
    return h.serving.load() && pthread_equal(pthread_self(), h.interpreter);
}

void signal_interpreter_thread(int sig) noexcept {
    Handoff& h = handoff();
    if (h.serving.load()) pthread_kill(h.interpreter, sig);
}

InPython::InPython() noexcept : counted_(on_interpreter_thread()) {
    if (counted_) ++handoff().in_python;
}

InPython::~InPython() {
    if (counted_) --handoff().in_python;
}

OutOfPython::OutOfPython() noexcept : saved_(handoff().in_python.exchange(0)) {}

OutOfPython::~OutOfPython() { handoff().in_python.store(saved_); }

} // namespace spl::python
