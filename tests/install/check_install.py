#!/usr/bin/env python3
"""Installs this build into a temporary prefix (meson install --destdir) and uses it as a user
would, with no SIMPLE_* variable set and from an unrelated folder:

- the test depends on every target `meson install` copies (it installs with --no-rebuild);
- the installed tree holds the plugin, splrun, lib.torch (with this LibTorch's ffi.spl and
  ops.spl), spl_plugin.h and spl-torch.pc; the plugin's RUNPATH names LibTorch's folder;
- examples/xor.spl learns XOR, and the tests/spl specs that apply to this LibTorch pass (a
  spec whose first lines say `# requires: LibTorch >= X` is left out on an older one: its
  fixtures come from the pinned wheel);
- the tree is relocatable: moved elsewhere as a whole, it still runs;
- `splrun doctor` reports the installed parts and no problem; with the other build's plugin
  put in place of this one (a broken installation), it names the mismatch and exits 1;
- `meson --internal uninstall` (ninja uninstall) removes every installed file.

usage: check_install.py BUILD_DIR SOURCE_DIR LIBTORCH_VERSION OTHER_PLUGIN...
(OTHER_PLUGIN: the other builds' plugins; the first that exists makes the broken case)
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fresh_fixtures import fresh_copy  # noqa: E402

FAILED = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f"\n{detail}"))
    if not ok:
        FAILED.append(name)


def version_tuple(v):
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def clean_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIMPLE_")}
    env.pop("LD_LIBRARY_PATH", None)
    return env


def run(cmd, cwd, timeout=900, env=None):
    return subprocess.run(cmd, cwd=cwd, env=dict(clean_env(), **(env or {})), capture_output=True, text=True,
                          timeout=timeout)


def pinned_torch(source):
    """The torch version torch-requirements.txt pins (torch==X)."""
    with open(os.path.join(source, "torch-requirements.txt")) as f:
        return next(line.split("==", 1)[1].strip() for line in f if line.startswith("torch=="))


def applies(spec, libtorch_version):
    """A spec applies unless its header says `# requires: LibTorch >= X` with X above this one."""
    with open(spec) as f:
        for line in f.readlines()[:12]:
            m = re.match(r"#\s*requires:\s*LibTorch\s*>=\s*(\S+)", line)
            if m and version_tuple(libtorch_version) < version_tuple(m.group(1)):
                return False
    return True


def installed(prefix, pattern):
    found = glob.glob(os.path.join(prefix, pattern), recursive=True)
    return found[0] if found else None


def not_depended_on(build):
    """The installed targets this test does not depend on: `meson install --no-rebuild` finds
    them only where something else happened to build them."""
    def introspect(what):
        return json.loads(subprocess.run(["meson", "introspect", build, what], capture_output=True, text=True,
                                         check=True).stdout)
    depends = next(t["depends"] for t in introspect("--tests") if t["name"] == "install")
    return sorted(t["name"] for t in introspect("--targets") if t["installed"] and t["id"] not in depends)


def main():
    build, source, libtorch_version = sys.argv[1:4]
    others = [p for p in sys.argv[4:] if os.path.exists(p)]
    work = tempfile.mkdtemp(prefix="spl-install-")
    try:
        missing = not_depended_on(build)
        check("the install test depends on every installed target (meson.build's installed_targets)",
              not missing, "installed, but built only by a full build: " + ", ".join(missing))
        stage = os.path.join(work, "stage")
        done = subprocess.run(["meson", "install", "-C", build, "--no-rebuild", "--destdir", stage,
                               "--tags", "runtime,devel"], capture_output=True, text=True, timeout=600)
        check("meson install --destdir", done.returncode == 0, done.stdout + done.stderr)
        if done.returncode != 0:
            return
        splrun = installed(stage, "**/bin/splrun")
        plugin = installed(stage, "**/spl-torch/libspl_torch.so")
        lib = installed(stage, "**/share/spl-torch/lib/torch")
        check("the tree has splrun, the plugin, lib.torch, spl_plugin.h, simple_types.h and spl-torch.pc",
              all([splrun, plugin, lib, installed(stage, "**/include/spl-torch/spl_plugin.h"),
                   installed(stage, "**/include/spl-torch/simple_types.h"),
                   installed(stage, "**/pkgconfig/spl-torch.pc")]), "\n".join(sorted(glob.glob(stage + "/**", recursive=True))))
        if not (splrun and plugin and lib):
            return
        prefix = os.path.dirname(os.path.dirname(splrun))
        with open(os.path.join(lib, "ffi.spl")) as f:
            first = f.readline()
        check("lib.torch's ffi.spl is this LibTorch's", f"from LibTorch {libtorch_version}" in first, first)
        with open(os.path.join(lib, "ops.spl")) as f:
            ops_first = f.readline()
        check("lib.torch's ops.spl is this LibTorch's", f"from LibTorch {libtorch_version}" in ops_first, ops_first)
        readelf = subprocess.run(["readelf", "-d", plugin], capture_output=True, text=True)
        runpath = re.search(r"(?:RUNPATH|RPATH).*\[(.*)\]", readelf.stdout)
        check("the plugin's RUNPATH names LibTorch's folder",
              runpath is not None and any(os.path.exists(os.path.join(d, "libtorch_cpu.so")) or
                                          glob.glob(os.path.join(d, "libtorch_cpu.so*"))
                                          for d in runpath.group(1).split(":")), readelf.stdout)

        elsewhere = os.path.join(work, "elsewhere")
        os.makedirs(elsewhere)
        xor = run([splrun, os.path.join(source, "examples", "xor.spl")], elsewhere)
        check("examples/xor.spl learns XOR from the installed tree, no variables set",
              xor.returncode == 0 and "rounded: [0.0, 1.0, 1.0, 0.0]" in xor.stdout, xor.stdout + xor.stderr)

        # An error raised inside lib.torch points at the program's line first, whether lib.torch is
        # the installed tree or a build tree's (whose files are links out of its root).
        failing = os.path.join(elsewhere, "failing.spl")
        with open(failing, "w") as f:
            f.write("use lib.torch.{Tensor}\nfn run():\n    Tensor.zeros([2]).reshape([3])\nrun()\n")
        for label, runner in (("the installed tree", splrun), ("the build tree", os.path.join(build, "host", "splrun"))):
            err = run([runner, failing], elsewhere)
            where = [l for l in err.stderr.splitlines() if l.lstrip().startswith("-->")]
            check(f"an error inside lib.torch from {label} points at the program's line first",
                  err.returncode == 1 and where[:1] == [f"  --> {failing}:3:23"], err.stderr)

        # The word flavour, as the real Simple runtime would use it: its tree beside lib.torch's, the
        # plugin found on $SIMPLE_SFFI_PATH (that runtime's convention), and manifest.sdn naming
        # the plugin at its final place (not the staging folder) with functions it exports.
        words = run([splrun, "--simple-runtime-ffi", os.path.join(source, "examples", "xor.spl")], elsewhere,
                    env={"SIMPLE_SFFI_PATH": os.path.dirname(plugin)})
        check("examples/xor.spl prints the same through the installed word flavour (--simple-runtime-ffi)",
              words.returncode == 0 and words.stdout == xor.stdout, words.stdout + words.stderr)
        manifest = installed(stage, "**/share/spl-torch/manifest.sdn")
        text = open(manifest).read() if manifest else ""
        library = re.search(r"library: (\S+)", text)
        functions = re.search(r"functions: \[(.*)\]", text)
        exported = {line.split()[-1] for line in subprocess.run(["nm", "-D", "--defined-only", plugin],
                                                                 capture_output=True, text=True).stdout.splitlines()}
        named = functions.group(1).split(", ") if functions else []
        check(f"manifest.sdn names the installed plugin and {len(named)} word functions it exports",
              library is not None and library.group(1) == plugin[len(stage):] and len(named) > 3000
              and all(n in exported for n in named), text[:600])
        # runtime_plugin/exports.map: nothing of what the toolchain put in (libstdc++, templates).
        beyond = sorted(n for n in exported if not n.startswith(("spl_", "rt_torch_")))
        check("the installed plugin exports its C ABI alone (spl_*, rt_torch_*)", not beyond, " ".join(beyond[:8]))

        # The whole of lib.torch loads on any LibTorch; what needs an operator this one lacks
        # fails when used, naming it and the version.
        program = os.path.join(elsewhere, "absent.spl")
        with open(program, "w") as f:
            f.write("use lib.torch.{Tensor, manual_seed, scaled_dot_product_attention}\n"
                    "use lib.torch.nn.{Linear}\nuse lib.torch.nn.functional as F\nuse lib.torch.optim.{SGD}\n"
                    "use lib.torch.data.{TensorDataset, DataLoader}\nuse lib.torch.metrics.*\nuse lib.torch.utils.*\n"
                    "manual_seed(0)\nval m = Linear(3, 2)\nval opt = SGD(m.parameters(), lr: 0.1)\n"
                    "val x = Tensor.randn([4, 3])\nF.mse_loss(m(x), Tensor.zeros([4, 2])).backward()\nopt.step()\n"
                    "print \"stepped {m.weight.shape}\"\n"
                    "val q = Tensor.randn([1, 2, 4])\nprint scaled_dot_product_attention(q, q, q).shape\n")
        absent = run([splrun, program], elsewhere)
        if version_tuple(libtorch_version) < (2, 0, 0):
            check("lib.torch loads whole; an operator this LibTorch lacks fails when used, naming it and the version",
                  "stepped [2, 3]" in absent.stdout and absent.returncode != 0 and
                  f"aten::scaled_dot_product_attention is not in LibTorch {libtorch_version}" in absent.stderr,
                  absent.stdout + absent.stderr)
        else:
            check("lib.torch loads whole, trains a step and has scaled_dot_product_attention",
                  absent.returncode == 0 and "stepped [2, 3]" in absent.stdout and "[1, 2, 4]" in absent.stdout,
                  absent.stdout + absent.stderr)

        # The specs' fixtures made again on this machine (tests/fresh_fixtures.py: float results
        # differ between CPUs in the last bits), by the pinned torch when the plugin is built on
        # it; another LibTorch (Debian's 1.13) runs other kernels than the pin on any CPU, so its
        # specs keep the committed fixtures, whose values they were checked against.
        maker = os.path.join(source, ".venv", "bin", "python") if libtorch_version == pinned_torch(source) else None
        fresh = fresh_copy(maker, os.path.join(source, "tests", "spl"), os.path.join(work, "fresh"))
        specs = sorted(glob.glob(os.path.join(fresh, "*_spec.spl")))
        chosen = [s for s in specs if applies(s, libtorch_version)]
        left = [os.path.basename(s) for s in specs if s not in chosen]
        print(f"     specs for LibTorch {libtorch_version}: {len(chosen)} of {len(specs)}"
              + (f" (left out, they require a newer LibTorch: {', '.join(left)})" if left else ""))
        result = run([splrun, "test"] + chosen, elsewhere)
        summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
        check(f"the tests/spl specs pass from the installed tree ({summary})", result.returncode == 0,
              result.stdout[-4000:] + result.stderr[-2000:])

        doctor = run([splrun, "doctor"], elsewhere)
        print("\n".join("     | " + line for line in doctor.stdout.splitlines()))
        check("doctor: the installed parts and no problem",
              doctor.returncode == 0 and "ok: no problems found" in doctor.stdout
              and os.path.realpath(plugin) in doctor.stdout and os.path.realpath(lib) in doctor.stdout
              and f"built against LibTorch {libtorch_version}" in doctor.stdout
              and "0 missing, 0 different" in doctor.stdout and "CUDA " in doctor.stdout,
              doctor.stdout + doctor.stderr)

        moved = os.path.join(work, "moved")
        shutil.move(prefix, moved)
        again = run([os.path.join(moved, "bin", "splrun"), os.path.join(source, "examples", "xor.spl")], elsewhere)
        check("relocatable: the tree moved elsewhere still runs xor.spl",
              again.returncode == 0 and "rounded: [0.0, 1.0, 1.0, 0.0]" in again.stdout, again.stdout + again.stderr)
        moved_plugin = os.path.join(moved, os.path.relpath(plugin, prefix))

        if others:
            shutil.copy(others[0], moved_plugin)
            broken = run([os.path.join(moved, "bin", "splrun"), "doctor"], elsewhere)
            print("\n".join("     | " + line for line in broken.stdout.splitlines()))
            check("doctor names a plugin from another build: both LibTorch versions, the missing declarations",
                  broken.returncode == 1 and f"was generated from LibTorch {libtorch_version}, but the plugin" in broken.stdout
                  and "what to do:" in broken.stdout and "not provided by the plugin" in broken.stdout,
                  broken.stdout + broken.stderr)
        else:
            print("     skipped: the broken-installation case (no other build's plugin: build-1.13/ is built by setup)")
        shutil.move(moved, prefix)

        gone = subprocess.run(["meson", "--internal", "uninstall"], cwd=build, capture_output=True, text=True)
        left_files = [p for p in glob.glob(stage + "/**", recursive=True) if os.path.isfile(p)]
        check("uninstall removes every installed file", gone.returncode == 0 and not left_files,
              gone.stdout + gone.stderr + "\n".join(left_files[:20]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
    print(f"{len(FAILED)} failed" if FAILED else "all passed")
    sys.exit(1 if FAILED else 0)
