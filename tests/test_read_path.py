"""tools/read_path.py: the read-path counter of issue 29 counts code lines, not docstrings, comments or blanks."""

import importlib.util
import sys

from tools.read_path import measure

SAMPLE = '''\
def outer(x):
    """A docstring
    of two lines."""
    # a comment

    total = sum(y for y in range(x))  # a generator inside: read with outer
    return inner(total)


def inner(t):
    return t + 1


def never_called():
    return 0
'''


def test_counts_code_lines_of_the_functions_that_ran(tmp_path):
    path = tmp_path / "read_path_sample.py"
    path.write_text(SAMPLE)
    spec = importlib.util.spec_from_file_location("read_path_sample", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["read_path_sample"] = module
    spec.loader.exec_module(module)
    try:
        # outer: def line, total =, return  (3); inner: def line, return (2); never_called is not run
        assert measure(lambda: module.outer(3), lambda f: f == str(path)) == (2, 5)
    finally:
        del sys.modules["read_path_sample"]
