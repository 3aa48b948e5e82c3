// launcher.cpp — `splrun --nproc-per-node N PROGRAM.spl ARGS` (launcher.h).
//
// Workers: fork + execve of this same executable, each in its own process group (so a stop
// reaches whatever it started too) and, on Linux, with PR_SET_PDEATHSIG so that a launcher
// killed outright (SIGKILL) still takes its workers with it. Output: a worker's stdout is the
// launcher's own (unchanged, unbuffered by us); its stderr comes through a pipe and is copied to
// the launcher's stderr a whole line at a time (ranks' lines never interleave mid-line), the
// last lines kept for the failure report.
#include "tools/launcher.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <dirent.h>
#include <string>
#include <vector>

extern char** environ;

namespace spl {

namespace {

// How long stopped workers get between SIGTERM and SIGKILL (torchrun waits 30 s; a splrun
// worker ends at SIGTERM at once, so this only bounds a worker that blocks it).
constexpr int kGraceSeconds = 5;
// Lines of each worker's stderr kept for the report.
constexpr size_t kKeptLines = 64;

struct Flag {
    const char* dashed;
    const char* underscored; // torchrun's older spelling, or nullptr
    std::string LaunchOptions::*field;
};

const Flag kFlags[] = {
    {"--nproc-per-node", "--nproc_per_node", &LaunchOptions::nproc_per_node},
    {"--nnodes", nullptr, &LaunchOptions::nnodes},
    {"--node-rank", "--node_rank", &LaunchOptions::node_rank},
    {"--master-addr", "--master_addr", &LaunchOptions::master_addr},
    {"--master-port", "--master_port", &LaunchOptions::master_port},
};

std::string flag_names(const Flag& f) {
    return f.underscored ? std::string(f.dashed) + "/" + f.underscored : std::string(f.dashed);
}

struct FlagError {
    std::string message;
};

[[noreturn]] void flag_error(const std::string& message) { throw FlagError{message}; }

// argparse's int(): optional sign, digits, surrounding blanks; anything else is "invalid int value".
long parse_int(const std::string& text, const char* names) {
    errno = 0;
    char* end = nullptr;
    long v = std::strtol(text.c_str(), &end, 10);
    while (end && (*end == ' ' || *end == '\t' || *end == '\n')) ++end;
    if (text.empty() || end == text.c_str() || *end != '\0' || errno == ERANGE)
        flag_error(std::string("argument ") + names + ": invalid int value: '" + text + "'");
    return v;
}

int cpu_count() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 1;
}

// NVIDIA devices this process may use, without loading CUDA: /dev/nvidiaN, narrowed by
// CUDA_VISIBLE_DEVICES when it is set.
int gpu_count() {
    int devices = 0;
    if (DIR* d = ::opendir("/dev")) {
        while (dirent* e = ::readdir(d)) {
            const char* n = e->d_name;
            if (std::strncmp(n, "nvidia", 6) != 0 || !n[6]) continue;
            bool digits = true;
            for (const char* p = n + 6; *p; ++p) digits = digits && *p >= '0' && *p <= '9';
            devices += digits;
        }
        ::closedir(d);
    }
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
        int listed = 0;
        for (const char* p = visible; *p;) {
            const char* comma = std::strchr(p, ',');
            std::string item(p, comma ? comma - p : std::strlen(p));
            if (item.empty() || item[0] == '-') break; // CUDA stops at the first invalid entry
            ++listed;
            if (!comma) break;
            p = comma + 1;
        }
        devices = std::min(devices, listed);
    }
    return devices;
}

// torchrun's determine_local_world_size.
int local_world_size(const std::string& text) {
    if (text == "cpu") return cpu_count();
    if (text == "gpu") {
        int n = gpu_count();
        if (n == 0) flag_error("Cuda is not available.");
        return n;
    }
    if (text == "auto") {
        int n = gpu_count();
        return n > 0 ? n : cpu_count();
    }
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE) flag_error("Unsupported nproc_per_node value: " + text);
    if (v < 1 || v > 4096)
        flag_error("argument --nproc-per-node/--nproc_per_node: must be between 1 and 4096, got " + text);
    return static_cast<int>(v);
}

struct Plan {
    int nproc = 1;
    int nnodes = 1;
    int node_rank = 0;
    std::string master_addr;
    int master_port = 29500;
};

Plan make_plan(const LaunchOptions& o) {
    Plan p;
    p.nproc = local_world_size(o.nproc_per_node);
    // torchrun's parse_min_max_nnodes: N or MIN:MAX
    long min_nodes = 0, max_nodes = 0;
    size_t colon = o.nnodes.find(':');
    if (colon == std::string::npos) {
        min_nodes = max_nodes = parse_int(o.nnodes, "--nnodes");
    } else {
        if (o.nnodes.find(':', colon + 1) != std::string::npos)
            flag_error("nnodes=" + o.nnodes + " is not in \"MIN:MAX\" format");
        min_nodes = parse_int(o.nnodes.substr(0, colon), "--nnodes");
        max_nodes = parse_int(o.nnodes.substr(colon + 1), "--nnodes");
    }
    if (!(0 < min_nodes && min_nodes <= max_nodes))
        flag_error("min_nodes must be > 0 and <= max_nodes, got min_nodes=" + std::to_string(min_nodes) +
                   ", max_nodes=" + std::to_string(max_nodes));
    if (min_nodes != max_nodes)
        flag_error("--nnodes " + o.nnodes +
                   ": an elastic node range needs a rendezvous backend; splrun's launcher is static: "
                   "give a fixed node count");
    if (max_nodes > 65536) flag_error("--nnodes " + o.nnodes + ": too many nodes");
    p.nnodes = static_cast<int>(max_nodes);
    long rank = parse_int(o.node_rank, "--node-rank/--node_rank");
    if (rank < 0 || rank >= p.nnodes)
        flag_error("argument --node-rank/--node_rank: must be in [0, " + std::to_string(p.nnodes) + ") for --nnodes " +
                   std::to_string(p.nnodes) + ", got " + o.node_rank);
    p.node_rank = static_cast<int>(rank);
    if (o.master_addr.empty()) flag_error("argument --master-addr/--master_addr: empty address");
    p.master_addr = o.master_addr;
    long port = parse_int(o.master_port, "--master-port/--master_port");
    if (port < 1 || port > 65535)
        flag_error("argument --master-port/--master_port: port must be in 1..65535, got " + o.master_port);
    p.master_port = static_cast<int>(port);
    return p;
}

// ---------------------------------------------------------------------------------------------
// Supervision

int g_wake_pipe[2] = {-1, -1};
volatile sig_atomic_t g_stop_signal = 0;

void on_stop_signal(int sig) {
    if (!g_stop_signal) g_stop_signal = sig;
    int saved = errno;
    char c = 's';
    (void)!::write(g_wake_pipe[1], &c, 1);
    errno = saved;
}

void on_child(int) {
    int saved = errno;
    char c = 'c';
    (void)!::write(g_wake_pipe[1], &c, 1);
    errno = saved;
}

struct Worker {
    int local_rank = 0;
    int rank = 0;
    pid_t pid = -1;
    int err_fd = -1; // read end of its stderr pipe; -1 once closed
    bool running = false;
    bool stopped_by_us = false;
    int exitcode = 0; // torchrun's: the exit status, or -signal
    std::time_t ended = 0;
    std::string partial; // stderr text after its last newline
    std::deque<std::string> last_lines;
};

void write_all(int fd, const char* p, size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return; // our stderr is gone: keep supervising regardless
        }
        p += w;
        n -= static_cast<size_t>(w);
    }
}

void keep_line(Worker& w, std::string line) {
    if (!line.empty() && line.back() == '\n') line.pop_back();
    w.last_lines.push_back(std::move(line));
    if (w.last_lines.size() > kKeptLines) w.last_lines.pop_front();
}

// The end of a worker's stderr: its last line, if unfinished, passed on; the pipe closed.
void close_output(Worker& w) {
    if (!w.partial.empty()) {
        w.partial += '\n';
        write_all(2, w.partial.data(), w.partial.size());
        keep_line(w, std::move(w.partial));
        w.partial.clear();
    }
    ::close(w.err_fd);
    w.err_fd = -1;
}

// Copies what the worker wrote to stderr, whole lines at a time; false at end of file.
bool pump(Worker& w) {
    char buf[8192];
    ssize_t n = ::read(w.err_fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
    if (n <= 0) {
        close_output(w);
        return false;
    }
    w.partial.append(buf, static_cast<size_t>(n));
    size_t end = w.partial.rfind('\n');
    if (end == std::string::npos) {
        if (w.partial.size() < 65536) return true;
        end = w.partial.size() - 1; // a very long line: pass it on in pieces
    }
    write_all(2, w.partial.data(), end + 1);
    size_t start = 0;
    while (start <= end) {
        size_t nl = w.partial.find('\n', start);
        if (nl == std::string::npos || nl > end) nl = end;
        keep_line(w, w.partial.substr(start, nl - start + 1));
        start = nl + 1;
    }
    w.partial.erase(0, end + 1);
    return true;
}

// Reads what is in the worker's stderr pipe now, then closes it.
void drain_and_close(Worker& w) {
    while (w.err_fd >= 0) {
        pollfd p{w.err_fd, POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0 || !pump(w)) break;
    }
    if (w.err_fd >= 0) close_output(w);
}

// The worker's error, for the report: splrun's "error: ..." line (the last one) with the
// location line under it, else its last line of stderr.
std::string last_error(const Worker& w) {
    for (size_t i = w.last_lines.size(); i-- > 0;) {
        const std::string& line = w.last_lines[i];
        if (line.rfind("error", 0) == 0 || line.find("Error:") != std::string::npos) {
            std::string out = line;
            if (i + 1 < w.last_lines.size()) {
                const std::string& next = w.last_lines[i + 1];
                size_t arrow = next.find("--> ");
                if (arrow != std::string::npos && next.find_first_not_of(' ') == arrow)
                    out += " (at " + next.substr(arrow + 4) + ")";
            }
            return out;
        }
    }
    for (size_t i = w.last_lines.size(); i-- > 0;)
        if (w.last_lines[i].find_first_not_of(" \t\r") != std::string::npos) return w.last_lines[i];
    return "";
}

std::string signal_name(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string iso_time(std::time_t t) {
    char buf[32];
    std::tm tm{};
    localtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%d_%H:%M:%S", &tm);
    return buf;
}

std::string hostname() {
    char buf[256] = {0};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "<N/A>";
    return buf;
}

std::string format_failure(size_t idx, const Worker& w) {
    std::string s = "[" + std::to_string(idx) + "]:\n";
    s += "  time      : " + iso_time(w.ended) + "\n";
    s += "  host      : " + hostname() + "\n";
    s += "  rank      : " + std::to_string(w.rank) + " (local_rank: " + std::to_string(w.local_rank) + ")\n";
    s += "  exitcode  : " + std::to_string(w.exitcode) + " (pid: " + std::to_string(w.pid) + ")";
    if (w.exitcode < 0) s += " (" + signal_name(-w.exitcode) + ")";
    s += "\n";
    if (w.exitcode < 0)
        s += "  traceback : Signal " + std::to_string(-w.exitcode) + " (" + signal_name(-w.exitcode) +
             ") received by PID " + std::to_string(w.pid) + "\n";
    std::string err = last_error(w);
    if (!err.empty() || w.exitcode > 0) s += "  error     : " + (err.empty() ? std::string("<N/A>") : err) + "\n";
    return s;
}

// torchrun's ChildFailedError message: the first failure is the root cause, the others (that
// failed on their own before the stop) are listed above it.
std::string failure_report(const std::string& program, const std::vector<const Worker*>& failures) {
    std::string title = program + " FAILED";
    std::string root = format_failure(0, *failures[0]);
    std::string others;
    for (size_t i = 1; i < failures.size(); ++i) others += format_failure(i, *failures[i]);
    if (others.empty()) others = "  <NO_OTHER_FAILURES>\n";
    // torchrun's width: the widest of the title and the failures' lines, at most 60
    size_t width = title.size();
    for (const std::string* text : {&root, &others}) {
        size_t start = 0;
        for (size_t end; (end = text->find('\n', start)) != std::string::npos; start = end + 1)
            width = std::max(width, end - start);
    }
    width = std::min<size_t>(width, 60);
    std::string border(width, '='), section(width, '-');
    return "\n" + border + "\n" + title + "\n" + section + "\nFailures:\n" + others + section +
           "\nRoot Cause (first observed failure):\n" + root + border + "\n";
}

std::string self_executable(const char* fallback) {
    char buf[4096];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) return std::string(buf, static_cast<size_t>(n));
    return fallback;
}

// The environment of one worker: the launcher's, with torchrun's variables set over it.
std::vector<std::string> worker_env(const Plan& p, int local_rank) {
    int world = p.nproc * p.nnodes;
    int rank = p.node_rank * p.nproc + local_rank;
    const char* nccl = std::getenv("TORCH_NCCL_ASYNC_ERROR_HANDLING");
    std::vector<std::pair<std::string, std::string>> set = {
        {"RANK", std::to_string(rank)},
        {"LOCAL_RANK", std::to_string(local_rank)},
        {"GROUP_RANK", std::to_string(p.node_rank)},
        {"ROLE_RANK", std::to_string(rank)},
        {"ROLE_NAME", "default"},
        {"LOCAL_WORLD_SIZE", std::to_string(p.nproc)},
        {"WORLD_SIZE", std::to_string(world)},
        {"GROUP_WORLD_SIZE", std::to_string(p.nnodes)},
        {"ROLE_WORLD_SIZE", std::to_string(world)},
        {"MASTER_ADDR", p.master_addr},
        {"MASTER_PORT", std::to_string(p.master_port)},
        {"TORCHELASTIC_RESTART_COUNT", "0"},
        {"TORCHELASTIC_MAX_RESTARTS", "0"},
        {"TORCHELASTIC_RUN_ID", "none"},
        // no store is hosted here: rank 0 listens on MASTER_PORT itself (env://)
        {"TORCHELASTIC_USE_AGENT_STORE", "False"},
        {"TORCH_NCCL_ASYNC_ERROR_HANDLING", nccl ? nccl : "1"},
    };
    if (!std::getenv("OMP_NUM_THREADS") && p.nproc > 1) set.push_back({"OMP_NUM_THREADS", "1"});
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        std::string kv = *e;
        std::string key = kv.substr(0, kv.find('='));
        bool replaced = false;
        for (const auto& s : set) replaced = replaced || s.first == key;
        if (!replaced) env.push_back(std::move(kv));
    }
    for (const auto& s : set) env.push_back(s.first + "=" + s.second);
    return env;
}

bool start_worker(Worker& w, const std::string& exe, const std::vector<std::string>& args,
                  const std::vector<std::string>& env) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return false;
    std::vector<char*> argv, envp;
    argv.push_back(const_cast<char*>(exe.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_t parent = ::getpid();
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old); // the child starts with no handler of ours running
    pid_t pid = ::fork();
    if (pid == 0) {
        // A session of its own, as torchrun's start_new_session: its own process group (what a
        // stop is sent to) and, where the kernel groups scheduling by session (autogroup), its
        // own share of the CPU, as Python's ranks get.
        ::setsid();
#ifdef __linux__
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
        if (::getppid() != parent) ::_exit(128 + SIGTERM); // the launcher is already gone
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE}) ::signal(sig, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, nullptr);
        ::dup2(fds[1], 2);
        ::execve(exe.c_str(), argv.data(), envp.data());
        const char* msg = "splrun: cannot start a worker: ";
        write_all(2, msg, std::strlen(msg));
        const char* why = std::strerror(errno);
        write_all(2, why, std::strlen(why));
        write_all(2, "\n", 1);
        ::_exit(127);
    }
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, nullptr);
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        errno = fork_errno;
        return false;
    }
    // No setpgid here: a group leader cannot start a session. A stop sent before the child's
    // setsid finds no group and goes to the process itself (stop_worker's fallback), and the
    // child holds every signal blocked until then.
    w.pid = pid;
    w.err_fd = fds[0];
    ::fcntl(w.err_fd, F_SETFL, ::fcntl(w.err_fd, F_GETFL) | O_NONBLOCK);
    w.running = true;
    return true;
}

void signal_workers(std::vector<Worker>& workers, int sig) {
    for (auto& w : workers) {
        if (!w.running) continue;
        w.stopped_by_us = true;
        if (::kill(-w.pid, sig) != 0) ::kill(w.pid, sig);
    }
}

} // namespace

bool parse_launch_flag(int argc, char** argv, int& i, LaunchOptions& out, std::string& error) {
    std::string a = argv[i];
    for (const Flag& f : kFlags) {
        for (const char* name : {f.dashed, f.underscored}) {
            if (!name) continue;
            size_t n = std::strlen(name);
            if (a.compare(0, n, name) != 0) continue;
            if (a.size() == n) {
                if (i + 1 >= argc) {
                    error = "argument " + flag_names(f) + ": expected one argument";
                } else {
                    out.*f.field = argv[++i];
                }
            } else if (a[n] == '=') {
                out.*f.field = a.substr(n + 1);
            } else {
                continue;
            }
            out.active = true;
            return true;
        }
    }
    return false;
}

int launch(const LaunchOptions& options, const std::vector<std::string>& worker_args, const std::string& program) {
    Plan plan;
    try {
        plan = make_plan(options);
    } catch (const FlagError& e) {
        std::fprintf(stderr, "splrun: error: %s\n", e.message.c_str());
        return 2;
    }
    if (program.empty()) {
        std::fprintf(stderr, "splrun: error: the launcher needs a program: splrun --nproc-per-node N [launcher flags] "
                             "[options] FILE.spl [ARGS...]\n");
        return 2;
    }
    if (std::getenv("OMP_NUM_THREADS") == nullptr && plan.nproc > 1)
        std::fprintf(stderr,
                     "splrun: setting OMP_NUM_THREADS=1 for each worker (as torchrun does, so %d workers "
                     "do not overload the machine); set it to tune\n",
                     plan.nproc);
    std::fflush(stderr);

    if (::pipe2(g_wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        std::perror("splrun: pipe");
        return 1;
    }
    struct sigaction sa {};
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop_signal;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    sa.sa_handler = on_child;
    sa.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    std::string exe = self_executable("splrun");
    std::vector<Worker> workers(static_cast<size_t>(plan.nproc));
    std::vector<const Worker*> failures; // in the order observed
    bool stopping = false, start_failed = false;
    std::chrono::steady_clock::time_point kill_at;
    auto begin_stop = [&] {
        stopping = true;
        signal_workers(workers, SIGTERM);
        kill_at = std::chrono::steady_clock::now() + std::chrono::seconds(kGraceSeconds);
    };

    for (int lr = 0; lr < plan.nproc; ++lr) {
        Worker& w = workers[static_cast<size_t>(lr)];
        w.local_rank = lr;
        w.rank = plan.node_rank * plan.nproc + lr;
        if (g_stop_signal || !start_worker(w, exe, worker_args, worker_env(plan, lr))) {
            if (!g_stop_signal) {
                std::fprintf(stderr, "splrun: cannot start worker %d: %s\n", w.rank, std::strerror(errno));
                start_failed = true;
            }
            begin_stop();
            break;
        }
    }

    for (;;) {
        // reap
        for (auto& w : workers) {
            if (!w.running) continue;
            int status = 0;
            pid_t r = ::waitpid(w.pid, &status, WNOHANG);
            if (r != w.pid) continue;
            w.running = false;
            w.ended = std::time(nullptr);
            w.exitcode = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
            if (w.exitcode != 0 && !w.stopped_by_us) failures.push_back(&w);
        }
        if (!failures.empty() && !stopping) begin_stop();
        if (g_stop_signal && !stopping) begin_stop();

        bool any_running = false, any_open = false;
        for (const auto& w : workers) {
            any_running = any_running || w.running;
            any_open = any_open || w.err_fd >= 0;
        }
        if (!any_running && !any_open) break;
        if (stopping && any_running && std::chrono::steady_clock::now() >= kill_at) {
            signal_workers(workers, SIGKILL);
            kill_at = std::chrono::steady_clock::now() + std::chrono::hours(1);
        }
        if (!any_running && any_open) {
            // every worker is gone: what is left in their pipes is read, and a pipe that a
            // worker's own child still holds open is not waited for
            for (auto& w : workers)
                if (w.err_fd >= 0) drain_and_close(w);
            continue;
        }

        std::vector<pollfd> fds;
        fds.push_back({g_wake_pipe[0], POLLIN, 0});
        std::vector<Worker*> polled;
        for (auto& w : workers)
            if (w.err_fd >= 0) {
                fds.push_back({w.err_fd, POLLIN, 0});
                polled.push_back(&w);
            }
        if (::poll(fds.data(), fds.size(), 200) <= 0) continue; // a timeout or EINTR: look again
        if (fds[0].revents) {
            char drain[64];
            while (::read(g_wake_pipe[0], drain, sizeof drain) > 0) {}
        }
        for (size_t k = 1; k < fds.size(); ++k)
            if (fds[k].revents) pump(*polled[k - 1]);
    }

    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) std::signal(sig, SIG_DFL);
    if (!failures.empty()) {
        std::string report = failure_report(program, failures);
        write_all(2, report.data(), report.size());
        return 1;
    }
    if (g_stop_signal) {
        std::fprintf(stderr, "splrun: received %s: workers stopped\n", signal_name(g_stop_signal).c_str());
        return 128 + g_stop_signal;
    }
    return start_failed ? 1 : 0;
}

} // namespace spl
