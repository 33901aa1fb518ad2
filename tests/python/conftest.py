"""The package from the checkout (python/) over the build's libatomlab.so.1, unless ATOMLAB_LIBRARY says another
or the package is installed (scripts/test.sh runs these in build/pyvenv)."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
if "ATOMLAB_LIBRARY" not in os.environ and os.path.exists(os.path.join(ROOT, "build", "libatomlab.so.1")):
    os.environ["ATOMLAB_LIBRARY"] = os.path.join(ROOT, "build", "libatomlab.so.1")
DATA = os.path.join(ROOT, "tests", "data")
