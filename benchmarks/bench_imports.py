"""Start-up cost: a fresh interpreter importing evalkit's metric modules against importing the peers.

``import evalkit.bleu`` must stay light (no pandas, no matplotlib): checked here and in tests/test_package.py.
"""

from __future__ import annotations

import subprocess
import sys

from bench import Row, median_time


def _import_time(module: str) -> float:
    return median_time(lambda: subprocess.run([sys.executable, "-c", f"import {module}"], check=True), 5)


def run() -> list[Row]:
    check = "import sys, evalkit.bleu; assert 'pandas' not in sys.modules and 'matplotlib' not in sys.modules"
    subprocess.run([sys.executable, "-c", check], check=True)
    pairs = [
        ("evalkit.bleu", "sacrebleu"),
        ("evalkit.rouge", "rouge_score.rouge_scorer"),
        ("evalkit.gleu", "nltk.translate.gleu_score"),
    ]
    return [
        Row(f"python -c 'import {ours}' (a whole interpreter)", _import_time(ours), f"import {peer}",
            _import_time(peer), note="evalkit.bleu imports neither pandas nor matplotlib" if ours.endswith("bleu") else "")
        for ours, peer in pairs
    ]
