// main.cpp — the `splrun` command line.
//
//   splrun [options] FILE.spl [ARGS...]     run a program
//   splrun [options] test PATH...           run SSpec files (*_spec.spl under each PATH)
//   splrun [options] doctor                 report what it would load and any mismatch
//   splrun check [--unknown] FILE.spl... [-- ARGS...]
//                                           static checks and the shapes-only run (tools/check.h)
//   splrun --nproc-per-node N [launcher flags] [options] FILE.spl [ARGS...]
//                                           N workers of the rest, as torchrun (tools/launcher.h)
//
// Options: -L DIR (library root, repeatable), --max-depth N, --simple-runtime-ffi, --no-fast-paths,
// -h, --version.
// Environment: SIMPLE_LIB (library roots, ':'-separated), SIMPLE_SFFI_PATH
// (plugin directories, ':'-separated).
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <iostream>
#include <string>
#include <vector>

#include "tools/big_stack.h"
#include "tools/check.h"
#include "tools/doctor.h"
#include "tools/launcher.h"
#include "eval/interpreter.h"
#include "ffi/plugin_loader.h"
#include "ffi/search_paths.h"
#include "spl_plugin.h"

namespace {

constexpr const char* kUsage =
    "usage: splrun [options] FILE.spl [ARGS...]\n"
    "       splrun [options] test PATH...\n"
    "       splrun [options] doctor           what it would load, versions, CUDA, mismatches\n"
    "       splrun check [--unknown] FILE.spl... [-- ARGS...]\n"
    "                  static checks (integer division into a float: FILE:LINE:COL: warning: ...),\n"
    "                  then a run with every tensor a shape on LibTorch's meta device, no file read,\n"
    "                  nothing printed, and each shape-typed function called with its own size per\n"
    "                  symbol: FILE:LINE:COL: shape error: ... (exit 1); --unknown also says on\n"
    "                  stderr where a run stopped for want of data (.item(), a file); ARGS are\n"
    "                  what args() gives the program (its data files are still not read)\n"
    "       splrun --nproc-per-node N [launcher flags] [options] FILE.spl [ARGS...]\n"
    "options:\n"
    "  -L DIR          add a library root (where `use lib.torch...` is looked up)\n"
    "  --max-depth N   nested calls allowed before \"stack overflow\" (default 4000)\n"
    "  --simple-runtime-ffi\n"
    "                  native calls only as the real Simple runtime makes them: no plugin is\n"
    "                  opened; extern fns are its built-ins (spl_dlopen, spl_dlsym,\n"
    "                  spl_wffi_call_i64, spl_f64_to_bits, spl_bits_to_f64, spl_str_ptr,\n"
    "                  rt_cstring_to_text, rt_env_get); default library root\n"
    "                  <exe>/" SPLRUN_WORD_LIB_FROM_BIN "\n"
    "  --no-fast-paths every call as written, through boxed thunks (no typed calls, no\n"
    "                  one-call bodies run without a frame): to check those paths\n"
    "launcher (torchrun's, one node of a static group: N workers of `splrun [options] FILE.spl ARGS`):\n"
    "  --nproc-per-node N  workers on this node: a number, cpu, gpu or auto (default 1)\n"
    "  --nnodes M          nodes in the group (default 1)\n"
    "  --node-rank R       this node's rank, 0 <= R < M (default 0)\n"
    "  --master-addr A     where rank 0 listens (default 127.0.0.1)\n"
    "  --master-port P     its port (default 29500)\n"
    "                      (also --flag=value and torchrun's --nproc_per_node spellings; each worker\n"
    "                      gets RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK,\n"
    "                      MASTER_ADDR, MASTER_PORT; one failing stops the others)\n"
    "  -h, --help      this text\n"
    "  --version       the host and plugin ABI versions\n"
    "environment:\n"
    "  SIMPLE_LIB        library roots, ':'-separated (default: <exe>/" SPLRUN_LIB_FROM_BIN ")\n"
    "  SIMPLE_SFFI_PATH  plugin directories, ':'-separated, searched before the defaults\n"
    "                    (<exe>/../runtime_plugin, <exe>/" SPLRUN_PLUGINS_FROM_BIN ")\n";

void find_specs(const std::string& dir, std::vector<std::string>& out) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> entries;
    while (dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        entries.push_back(name);
    }
    ::closedir(d);
    std::sort(entries.begin(), entries.end());
    for (const auto& name : entries) {
        std::string path = dir + "/" + name;
        if (spl::is_dir(path))
            find_specs(path, out);
        else if (name.size() > 9 && name.compare(name.size() - 9, 9, "_spec.spl") == 0)
            out.push_back(path);
    }
}

struct Job {
    spl::HostOptions options;
    bool test = false;
    bool doctor = false;
    std::vector<std::string> paths;
    int status = 0;
};

void run_job(Job* job) {
    spl::Interpreter interp(job->options);
    if (job->test) {
        std::vector<std::string> files;
        for (const auto& path : job->paths) {
            if (spl::is_dir(path))
                find_specs(path, files);
            else
                files.push_back(path);
        }
        if (files.empty()) {
            std::fprintf(stderr, "splrun test: no *_spec.spl files found\n");
            job->status = 2;
            return;
        }
        job->status = interp.run_tests(files);
    } else {
        job->status = interp.run_program(job->paths[0]);
    }
}

// Ends the process once the program's values are dropped (the Interpreter is gone) and its
// output flushed, without running the libraries' static destructors: LibTorch's unregister
// its operators one by one, a noticeable part of a short run's time, for a process that is
// ending anyway. Under a sanitizer the normal exit stays: the leak check
// runs there.
int finish(int status) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return status;
#else
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(status);
#endif
}

} // namespace

int main(int argc, char** argv) {
    // A write past RLIMIT_FSIZE then fails with EFBIG, which a plugin reports as an error
    // naming the file, instead of the kernel's SIGXFSZ killing the program.
    std::signal(SIGXFSZ, SIG_IGN);
    Job job;
    std::vector<std::string> lib_dirs;
    spl::LaunchOptions launch;
    std::vector<std::string> worker_args; // the command line less the launcher's flags
    int i = 1;
    for (; i < argc; ++i) {
        std::string a = argv[i];
        std::string flag_error;
        if (spl::parse_launch_flag(argc, argv, i, launch, flag_error)) {
            if (!flag_error.empty()) {
                std::fprintf(stderr, "splrun: error: %s\n", flag_error.c_str());
                return 2;
            }
            continue;
        }
        int first = i;
        if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (a == "--version") {
            std::printf("splrun %s (plugin ABI %u)\n", SPLRUN_VERSION, SPL_PLUGIN_ABI_VERSION);
            return 0;
        }
        if (a == "-L" && i + 1 < argc) {
            lib_dirs.push_back(argv[++i]);
        } else if (a.rfind("-L", 0) == 0 && a.size() > 2) {
            lib_dirs.push_back(a.substr(2));
        } else if (a == "--simple-runtime-ffi") {
            job.options.simple_runtime_ffi = true;
        } else if (a == "--no-fast-paths") {
            job.options.fast_paths = false;
        } else if (a == "--max-depth" && i + 1 < argc) {
            job.options.max_depth = std::max(16, std::atoi(argv[++i]));
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            std::fprintf(stderr, "splrun: unknown option %s\n%s", a.c_str(), kUsage);
            return 2;
        } else {
            break;
        }
        for (int k = first; k <= i; ++k) worker_args.push_back(argv[k]);
    }
    if (launch.active) {
        for (int k = i; k < argc; ++k) worker_args.push_back(argv[k]);
        return spl::launch(launch, worker_args, i < argc ? argv[i] : "");
    }
    if (i >= argc) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    if (std::strcmp(argv[i], "check") == 0) {
        // the library roots a run of these files would use: check reads the modules they import
        const spl::SearchPaths paths = spl::search_paths(lib_dirs, job.options.simple_runtime_ffi);
        job.options.lib_roots = paths.lib_roots;
        job.options.plugin_dirs = paths.plugin_dirs;
        const bool unknown = i + 1 < argc && std::strcmp(argv[i + 1], "--unknown") == 0;
        const int first_file = i + 1 + (unknown ? 1 : 0);
        int end = first_file; // the files end at `--`, after which come the program's arguments
        while (end < argc && std::strcmp(argv[end], "--") != 0) ++end;
        if (first_file == end) {
            std::fprintf(stderr, "splrun check: no files given\n%s", kUsage);
            return 2;
        }
        for (int k = end + 1; k < argc; ++k) job.options.program_args.push_back(argv[k]);
        return finish(spl::run_check(std::vector<std::string>(argv + first_file, argv + end), job.options, unknown));
    }
    if (std::strcmp(argv[i], "doctor") == 0 && i + 1 == argc) {
        job.doctor = true;
    } else if (std::strcmp(argv[i], "test") == 0) {
        job.test = true;
        for (++i; i < argc; ++i) job.paths.push_back(argv[i]);
        if (job.paths.empty()) job.paths.push_back(".");
    } else {
        job.paths.push_back(argv[i]);
        for (++i; i < argc; ++i) job.options.program_args.push_back(argv[i]);
    }

    // doctor reports the plugin setup whatever the mode: it keeps the plugin library's defaults
    if (job.doctor) job.options.simple_runtime_ffi = false;
    spl::SearchPaths paths = spl::search_paths(lib_dirs, job.options.simple_runtime_ffi);
    job.options.lib_roots = std::move(paths.lib_roots);
    job.options.plugin_dirs = std::move(paths.plugin_dirs);
    if (job.doctor) return finish(spl::run_doctor(job.options));

    spl::run_on_big_stack([&job] { run_job(&job); });
    return finish(job.status);
}
