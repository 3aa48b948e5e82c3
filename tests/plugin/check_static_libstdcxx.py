"""The plugin and splrun linked the way some toolchains link them, each with its own copy of
libstdc++ (as /opt/gcc on the lent GPU machines does), must run LibTorch's own std::call_once paths.
When the plugin exported that copy's symbols (call_once's proxy and state, and template
instantiations LibTorch also has), the shared libstdc++ loaded for LibTorch, and LibTorch itself,
bound to them: oneDNN's call_once in a CPU convolution, and cuDNN's on the GPU, then ran a null
function. This relinks both from meson's own link commands with -static-libstdc++, checks that the
plugin exports its C ABI alone (runtime_plugin/exports.map), and runs call_once_paths.spl, whose
output must equal the normal build's. Usage: SIMPLE_LIB=spl_stubs/lib check_static_libstdcxx.py BUILD_DIR"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

build = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
program = os.path.join(here, "call_once_paths.spl")


def relink(target, out):
    """Runs meson's link command for `target` with its output at `out`, libstdc++ linked in."""
    commands = subprocess.run(["ninja", "-C", build, "-t", "commands", target], capture_output=True, text=True,
                              check=True).stdout.strip().splitlines()
    link = shlex.split(commands[-1])
    if "-o" not in link or link[link.index("-o") + 1] != target:
        sys.exit(f"not {target}'s link command: {commands[-1]}")
    link[link.index("-o") + 1] = out
    linked = subprocess.run(link + ["-static-libstdc++"], cwd=build, capture_output=True, text=True)
    if linked.returncode != 0:
        sys.exit(f"relinking {target} with -static-libstdc++ failed:\n{linked.stderr}")


def run(splrun, plugin_dir):
    env = dict(os.environ, SIMPLE_SFFI_PATH=plugin_dir) if plugin_dir else dict(os.environ)
    return subprocess.run([splrun, program], capture_output=True, text=True, env=env, timeout=300)


with tempfile.TemporaryDirectory() as tmp:
    plugin = os.path.join(tmp, "libspl_torch.so")
    splrun = os.path.join(tmp, "splrun")
    relink("runtime_plugin/libspl_torch.so", plugin)
    relink("host/splrun", splrun)
    if "__once_proxy" not in subprocess.run(["nm", plugin], capture_output=True, text=True).stdout:
        sys.exit("the relinked plugin holds no copy of libstdc++: this check checks nothing")
    needed = subprocess.run(["readelf", "-d", splrun], capture_output=True, text=True).stdout
    if "libstdc++" in needed:
        sys.exit("the relinked splrun still needs the shared libstdc++: this check checks nothing")
    reference = run(os.path.join(build, "host", "splrun"), None)
    linked_in = run(splrun, tmp)
    if reference.returncode != 0 or not reference.stdout:
        sys.exit(f"the normal build failed the program:\n{reference.stdout}{reference.stderr}")
    if linked_in.returncode != 0 or linked_in.stdout != reference.stdout:
        sys.exit(f"with libstdc++ linked in: exit {linked_in.returncode} (signal {-linked_in.returncode} if "
                 f"negative)\n{linked_in.stdout}{linked_in.stderr}\nthe normal build printed:\n{reference.stdout}")
    exported = subprocess.run(["nm", "-D", "--defined-only", plugin], capture_output=True, text=True,
                              check=True).stdout.split()[2::3]
    extra = [name for name in exported if not re.match(r"(spl_|rt_torch_)", name)]
    if extra:
        sys.exit(f"the plugin exports {len(extra)} symbols beyond its C ABI, such as: " + " ".join(extra[:8]))
print(f"with libstdc++ linked in, splrun and the plugin run LibTorch's call_once paths:\n{reference.stdout}")
