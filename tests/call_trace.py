"""A helper for the tests that check a learner reaches a formula in a few clicks: which function called which."""

from __future__ import annotations

import sys


def calls(fn) -> list[tuple[str, str, str]]:
    """(caller name, callee name, callee file) of every Python function call made while fn() runs; a
    comprehension's call is its enclosing function's."""
    seen = []

    def profile(frame, event, arg):
        caller = frame.f_back
        while caller is not None and caller.f_code.co_name.startswith("<") and caller.f_back is not None:
            caller = caller.f_back
        if event == "call" and caller is not None:
            seen.append((caller.f_code.co_name, frame.f_code.co_name, frame.f_code.co_filename))

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen
