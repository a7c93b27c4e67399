"""TER's fast path: the same edits as :func:`evalkit.ter.ter_alignment`, found faster.

The readable search (evalkit/ter.py) fills a whole edit-distance table for every candidate shift.  Here:
1. Words become integer ids (a hypothesis word no reference has is -1: it never matches).
2. Each round fills the table of the current hypothesis twice: forwards (prefix to cell; the backtrace
   reads the operations back from the costs) and backwards (cell to end); after a shift, only the rows
   that depend on moved words are filled again.  A candidate shift changes only the words
   in [lo, hi); its edit distance is then the forward rows lo+1..hi of the shifted words, started from
   the current forward row lo, joined with the current backward row hi: min_j F[hi][j] + B[hi][j].
   This is exact because both tables use the same cells (the beam depends only on the row index and
   the two lengths, which a shift does not change).
3. Candidate blocks are found through an index of reference positions by word.

``ter.py`` calls :func:`ter_edits` when ``fast=True``; the tests prove both give the same numbers.  The
search's limits are TER's own (``evalkit.ter``: its beam, shift size and distance, candidate count and the
cost standing for infinity): ``ter.py`` passes them in with every call, so that this module keeps no copy
of them (and imports nothing of ``ter.py``, which imports it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

_TER_MATCH, _TER_SUB, _TER_INS, _TER_DEL = 0, 1, 2, 3  # the edit operations, as small integers


def _ter_next_row(prev, x, ref, low: int, high: int, inf: int):
    """Row i of the forward table from row i-1 (``prev``) and hypothesis word i (``x``): costs only."""
    row = [inf] * (len(ref) + 1)
    j = low
    if j == 0:
        row[0] = prev[0] + 1
        j = 1
    left = row[j - 1]
    for j in range(j, high):
        v = prev[j - 1] if ref[j - 1] == x else prev[j - 1] + 1
        d = prev[j] + 1
        if d < v:
            v = d
        if left < v - 1:
            v = left + 1
        row[j] = left = v
    return row


def _ter_forward(words, ref, beam, inf, rows=None, first: int = 1):
    """All forward cost rows of ``words``.  Given the rows of a hypothesis that agrees with ``words``
    before position first-1, only rows first..n are filled again (row i depends on the words before i)."""
    rows = [list(range(len(ref) + 1))] if rows is None else rows[:first]
    for i in range(len(rows), len(words) + 1):
        rows.append(_ter_next_row(rows[i - 1], words[i - 1], ref, *beam[i], inf))
    return rows


def _ter_forward_from(start_row, words, ref, beam, inf, first: int, last: int):
    """Forward cost row ``last`` of ``words``, starting from row first-1 (= start_row)."""
    row = start_row
    for i in range(first, last + 1):
        row = _ter_next_row(row, words[i - 1], ref, *beam[i], inf)
    return row


def _ter_backward(words, ref, beam, inf, rows=None, last_kept: int | None = None):
    """Backward cost rows: B[i][j] is the cheapest way from cell (i, j) to the last cell, within the beam.

    Given the rows of a hypothesis that agrees with ``words`` from position last_kept on, only rows
    0..last_kept-1 are filled again (row i depends on the words from i on only)."""
    n, m = len(words), len(ref)
    if rows is None:
        rows = [None] * (n + 1)
        low, _ = beam[n]
        last = [inf] * (m + 1)
        for j in range(low, m + 1):
            last[j] = m - j
        rows[n] = last
        last_kept = n
    else:
        rows = list(rows)
    for i in range(last_kept - 1, -1, -1):
        nxt, x = rows[i + 1], words[i]
        low, high = beam[i]
        row = [inf] * (m + 1)
        right = inf
        for j in range(high - 1, low - 1, -1):
            v = nxt[j] + 1
            if j < m:
                dg = nxt[j + 1] if ref[j] == x else nxt[j + 1] + 1
                if dg < v:
                    v = dg
                if right < v - 1:
                    v = right + 1
            row[j] = right = v
        rows[i] = row
    return rows


def _ter_backtrace(rows, words, ref) -> list[int]:
    """The operations of the cheapest path, read back from the cost rows: at each cell, the first of
    match/substitution, deletion, insertion whose predecessor explains the cell's cost (the readable
    edit_table's tie order)."""
    i, j = len(words), len(ref)
    out = []
    while i > 0 or j > 0:
        if i == 0:
            op = _TER_INS
        elif j == 0:
            op = _TER_DEL
        else:
            cost, same = rows[i][j], words[i - 1] == ref[j - 1]
            if rows[i - 1][j - 1] + (0 if same else 1) == cost:
                op = _TER_MATCH if same else _TER_SUB
            elif rows[i - 1][j] + 1 == cost:
                op = _TER_DEL
            else:
                op = _TER_INS
        out.append(op)
        if op == _TER_MATCH or op == _TER_SUB:
            i, j = i - 1, j - 1
        elif op == _TER_DEL:
            i -= 1
        else:
            j -= 1
    out.reverse()
    return out


def _ter_alignment(trace):
    """(ref_to_hyp, hyp_wrong, ref_wrong) of an operation list (see evalkit.ter.alignment)."""
    h = r = -1
    ref_to_hyp, hyp_wrong, ref_wrong = [], [], []
    for op in trace:
        if op == _TER_MATCH or op == _TER_SUB:
            h += 1
            r += 1
            ref_to_hyp.append(h)
            wrong = 1 if op == _TER_SUB else 0
            hyp_wrong.append(wrong)
            ref_wrong.append(wrong)
        elif op == _TER_DEL:
            h += 1
            hyp_wrong.append(1)
        else:
            r += 1
            ref_to_hyp.append(h)
            ref_wrong.append(1)
    return ref_to_hyp, hyp_wrong, ref_wrong


def _ter_candidates(words, ref, ref_positions, trace, tried: int, max_size: int, max_distance: int,
                    max_candidates: int):
    """The candidate shifts (start, length, target) of one round, in the readable search's order, cut
    after the group that brings the running count to ``max_candidates``; and the new count."""
    ref_to_hyp, hyp_wrong, ref_wrong = _ter_alignment(trace)
    n, m = len(words), len(ref)
    out = []
    for start_h in range(n):
        for start_r in ref_positions.get(words[start_h], ()):
            if start_r - start_h > max_distance or start_h - start_r > max_distance:
                continue
            length = 0
            while (
                length < max_size
                and start_h + length < n
                and start_r + length < m
                and words[start_h + length] == ref[start_r + length]
            ):
                length += 1
                if not any(hyp_wrong[start_h : start_h + length]) or not any(ref_wrong[start_r : start_r + length]):
                    continue
                if start_h <= ref_to_hyp[start_r] < start_h + length:
                    continue
                previous = None
                for r in range(start_r - 1, start_r + length):
                    target = 0 if r == -1 else ref_to_hyp[r] + 1
                    if target != previous:
                        out.append((start_h, length, target))
                        tried += 1
                    previous = target
                if tried >= max_candidates:
                    return out, tried
    return out, tried


def ter_edits(
    hyp: Sequence[str],
    ref: Sequence[str],
    *,
    beam_bounds: Callable[[int, int, int], tuple[int, int]],
    max_shift_size: int,
    max_shift_distance: int,
    max_candidates: int,
    infinity: int,
) -> tuple[int, int, int, int, int, int]:
    """(edits, insertions, deletions, substitutions, shifts, reference length) of one hypothesis against
    one reference: the same numbers as evalkit.ter.ter_alignment, faster.

    The limits are TER's, passed in by ``evalkit.ter``: ``beam_bounds(i, n, m)`` the cells filled in row
    i (its ``beam_bounds``), ``max_shift_size``, ``max_shift_distance`` and ``max_candidates`` (its
    ``MAX_SHIFT_SIZE``, ``MAX_SHIFT_DISTANCE``, ``MAX_SHIFT_CANDIDATES``), ``infinity`` the cost of a cell
    outside the beam (its ``INFINITY``)."""
    n, m = len(hyp), len(ref)
    if m == 0:
        return n, 0, n, 0, 0, 0
    vocab = {w: i for i, w in enumerate(dict.fromkeys(ref))}
    ref_ids = [vocab[w] for w in ref]
    words = [vocab.get(w, -1) for w in hyp]
    ref_positions: dict[int, list[int]] = {}
    for j, w in enumerate(ref_ids):
        ref_positions.setdefault(w, []).append(j)
    beam = [beam_bounds(i, n, m) for i in range(n + 1)]
    inf = infinity
    shifts = tried = 0
    rows = backward = None
    changed = (1, n)  # the rows to fill again: forward from changed[0], backward below changed[1]
    while True:
        rows = _ter_forward(words, ref_ids, beam, inf, rows, changed[0])
        trace = _ter_backtrace(rows, words, ref_ids)
        before = rows[n][m]
        candidates, tried = _ter_candidates(words, ref_ids, ref_positions, trace, tried, max_shift_size,
                                            max_shift_distance, max_candidates)
        if tried >= max_candidates or not candidates:
            break
        backward = _ter_backward(words, ref_ids, beam, inf, backward, changed[1])
        best, best_rank = None, None
        for start, length, target in candidates:
            block = words[start : start + length]
            rest = words[:start] + words[start + length :]
            position = min(target - length if target > start + length else target, len(rest))
            shifted = rest[:position] + block + rest[position:]
            lo, hi = min(start, position), max(start, position) + length
            row = _ter_forward_from(rows[lo], shifted, ref_ids, beam, inf, lo + 1, hi) if hi > lo else rows[lo]
            low, high = beam[hi]
            back = backward[hi]
            cost = min(map(int.__add__, row[low:high], back[low:high]))
            rank = (before - cost, length, -start, -target)
            if best_rank is None or rank > best_rank:
                best, best_rank, best_span = shifted, rank, (lo, hi)
        if best_rank[0] <= 0:
            break
        words = best
        shifts += 1
        changed = (best_span[0] + 1, best_span[1])  # words before lo and from hi on are unchanged
    ins, dels, subs = trace.count(_TER_INS), trace.count(_TER_DEL), trace.count(_TER_SUB)
    return shifts + ins + dels + subs, ins, dels, subs, shifts, m
