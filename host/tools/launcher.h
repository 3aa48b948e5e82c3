// launcher.h — `splrun --nproc-per-node N PROGRAM.spl ARGS`: torchrun's launcher for one node
// of a static group. It starts N workers `splrun [options] PROGRAM.spl ARGS` (the same binary,
// the other options passed on), each with torchrun's environment (RANK, LOCAL_RANK, WORLD_SIZE,
// LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT, ...), waits for them, and when one
// fails stops the others (SIGTERM, SIGKILL after a grace period) and prints torchrun's
// ChildFailedError report naming the failed rank, its exit code or signal and its last error
// line. It hosts no store: rank 0's TCPStore listens on MASTER_ADDR:MASTER_PORT (env://).
#pragma once

#include <string>
#include <vector>

namespace spl {

struct LaunchOptions {
    bool active = false;              // a launcher flag was given
    std::string nproc_per_node = "1"; // an integer, or cpu / gpu / auto as torchrun's
    std::string nnodes = "1";         // N or MIN:MAX with MIN == MAX (no elastic rendezvous)
    std::string node_rank = "0";
    std::string master_addr = "127.0.0.1";
    std::string master_port = "29500";
};

// Whether argv[i] is a launcher flag (`--nproc-per-node N`, `--nproc_per_node=N`, `--nnodes`,
// `--node-rank`, `--master-addr`, `--master-port`, each in both spellings and both forms); if
// so it is stored in `out` and `i` is left on its last word. A flag without its value sets
// `error` (argparse's "expected one argument").
bool parse_launch_flag(int argc, char** argv, int& i, LaunchOptions& out, std::string& error);

// Checks the flags, starts the workers (`worker_args`: the command line after the executable,
// launcher flags removed) and supervises them. Returns the exit status: 0 when every worker
// succeeded, 1 after a failure (the report on stderr), 2 for bad flags, 128 + signal when the
// launcher itself was interrupted.
int launch(const LaunchOptions& options, const std::vector<std::string>& worker_args, const std::string& program);

} // namespace spl
