"""Longest common subsequences, the readable way: the dynamic-programming tables behind ROUGE-L,
ROUGE-Lsum and ROUGE-W.

Every function takes the hypothesis first and the reference second, like every metric.  The tables are
laid out as rouge-score lays them out: **rows follow the reference, columns the hypothesis**, so
``table[i][j]`` belongs to ``reference[:i]`` and ``hypothesis[:j]``, and a path lists
(reference index, hypothesis index) pairs.

    >>> lcs_length(["b", "c"], ["a", "b", "c"])
    2

The bit-parallel LCS, which computes the same length a whole column at a time, is
:func:`evalkit.fast.bit_parallel_lcs_length`; the tests prove the two equal.
"""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_WEIGHT = 1.2  # ROUGE-1.5.5's suggested -w for ROUGE-W


def lcs_table(hypothesis: Sequence[str], reference: Sequence[str]) -> list[list[int]]:
    """The dynamic-programming table: ``table[i][j]`` is the LCS length of ``reference[:i]`` and
    ``hypothesis[:j]`` (rows: reference, columns: hypothesis, as in rouge-score).

    A match extends the diagonal neighbour by one; otherwise the cell copies the larger of the cell above
    (drop a reference token) and the cell to the left (drop a hypothesis token).

    >>> lcs_table(["b", "c"], ["a", "b", "c"])
    [[0, 0, 0], [0, 0, 0], [0, 1, 1], [0, 1, 2]]
    """
    table = [[0] * (len(hypothesis) + 1)]
    for r_tok in reference:
        above = table[-1]
        row = [0]
        for j, h_tok in enumerate(hypothesis, start=1):
            row.append(above[j - 1] + 1 if r_tok == h_tok else max(above[j], row[j - 1]))
        table.append(row)
    return table


def lcs_length(hypothesis: Sequence[str], reference: Sequence[str]) -> int:
    """The LCS length: the bottom-right cell of :func:`lcs_table`.

    >>> lcs_length(["the", "cat", "sat"], ["the", "cat", "is", "sat"])
    3
    """
    return lcs_table(hypothesis, reference)[-1][-1]


def lcs_path(hypothesis: Sequence[str], reference: Sequence[str], table: list[list[int]] | None = None):
    """One LCS, read back from the bottom-right corner of :func:`lcs_table`: the matched cells as
    (reference index, hypothesis index) pairs, in order.

    Tie rule (rouge-score's and ROUGE-1.5.5's): equal tokens -> diagonal; otherwise go left only if the
    cell to the left is strictly larger than the cell above, else go up.

    >>> lcs_path(["b", "a", "c"], ["a", "b", "c"])  # "a c" and "b c" are both LCSs; the tie rule picks "a c"
    [(0, 1), (2, 2)]
    """
    if table is None:
        table = lcs_table(hypothesis, reference)
    i, j = len(reference), len(hypothesis)
    path = []
    while i > 0 and j > 0:
        if reference[i - 1] == hypothesis[j - 1]:
            path.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return path[::-1]


def union_lcs(hypothesis_sentences: Sequence[Sequence[str]], reference_sentence: Sequence[str]) -> list[int]:
    """Positions of ``reference_sentence`` that lie on the LCS with at least one hypothesis sentence
    (Lin 2004, section 3.2).

    >>> union_lcs([["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]], ["w1", "w2", "w3", "w4", "w5"])
    [0, 1, 2, 4]
    """
    hit: set[int] = set()
    for sentence in hypothesis_sentences:
        hit.update(i for i, _ in lcs_path(sentence, reference_sentence))
    return sorted(hit)


def wlcs_tables(hypothesis: Sequence[str], reference: Sequence[str], weight: float = DEFAULT_WEIGHT):
    """Lin's (2004) WLCS programme: ``c[i][j]`` is the weighted score, ``k[i][j]`` the length of the run of
    consecutive matches ending at (i, j) (rows: reference).  A match that extends a run of length k adds
    f(k+1) - f(k), with f(k) = k ** weight.

    >>> c, k = wlcs_tables(["a", "b"], ["a", "b"], weight=2)
    >>> c[-1][-1], k[-1][-1]   # one run of two: f(2) = 4
    (4.0, 2)
    """

    def f(length: int) -> float:
        return float(length) ** weight

    c = [[0.0] * (len(hypothesis) + 1)]
    k = [[0] * (len(hypothesis) + 1)]
    for r_tok in reference:
        c_above, k_above = c[-1], k[-1]
        c_row, k_row = [0.0], [0]
        for j, h_tok in enumerate(hypothesis, start=1):
            if r_tok == h_tok:
                run = k_above[j - 1]
                c_row.append(c_above[j - 1] + f(run + 1) - f(run))
                k_row.append(run + 1)
            else:
                c_row.append(c_above[j] if c_above[j] > c_row[j - 1] else c_row[j - 1])
                k_row.append(0)
        c.append(c_row)
        k.append(k_row)
    return c, k


def wlcs_hit_positions(hypothesis: Sequence[str], reference: Sequence[str], weight: float = DEFAULT_WEIGHT) -> list[int]:
    """Reference positions matched on the path read back from the WLCS table (ROUGE-1.5.5's ``markLCS``:
    diagonal on equal tokens, else up when the cell above is at least the cell to the left, else left).

    >>> wlcs_hit_positions(["a", "x", "b"], ["a", "b"])
    [0, 1]
    """
    if not reference or not hypothesis:
        return []
    c = wlcs_tables(hypothesis, reference, weight)[0]
    i, j = len(reference), len(hypothesis)
    hits = []
    while i > 0 and j > 0:
        if reference[i - 1] == hypothesis[j - 1]:
            hits.append(i - 1)
            i, j = i - 1, j - 1
        elif c[i - 1][j] >= c[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return hits[::-1]


__all__ = ["lcs_length", "lcs_path", "lcs_table", "union_lcs", "wlcs_hit_positions", "wlcs_tables"]
