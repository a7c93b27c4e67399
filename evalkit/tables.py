"""Step-by-step views of the metrics as pandas DataFrames, for the lessons.

pandas is imported inside each function, so ``import evalkit.bleu`` (or ``evalkit.gleu``/``evalkit.rouge``)
stays light.  Each section below belongs to one metric.
"""

from __future__ import annotations


def _pd():
    import pandas as pd

    return pd


# ======================================== BLEU ========================================
# (n-gram table, per-order table)


# ======================================== end BLEU ====================================


# ======================================== GLEU ========================================
# (per-order table)


# ======================================== end GLEU ====================================


# ======================================== ROUGE =======================================
# (LCS table, matched n-grams)


# ======================================== end ROUGE ===================================


# ======================================== widgets =====================================


# ======================================== end widgets =================================
