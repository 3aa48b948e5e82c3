"""What the checks run against the real Python side share (check_python_reads.py,
check_tensorboard.py): the repository root, and running under the project's .venv, whose
Python has torch, numpy, safetensors and tensorboard, when Meson found another Python."""
import importlib
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def ensure_modules(*names):
    """Imports `names`; when one is missing, runs this script again under .venv's Python, or
    exits 77 (Meson's skip) when there is none, saying why."""
    try:
        for name in names:
            importlib.import_module(name)
    except ImportError as e:
        venv = os.path.join(REPO, ".venv", "bin", "python")
        # (Compared by a flag, not by path: a venv's python is often a link to the very
        # interpreter that lacks the modules.)
        if os.path.exists(venv) and not os.environ.get("SPL_PYTHON_SIDE_REEXEC"):
            os.environ["SPL_PYTHON_SIDE_REEXEC"] = "1"
            os.execv(venv, [venv] + sys.argv)
        print(f"SKIP: {e} (run scripts/setup.sh for the project's .venv)")
        sys.exit(77)
