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
4. A row keeps only the cells of its beam (row 0 excepted: it is as long as the reference), so memory
   is linear in the segment length (a full row per hypothesis word took 2.9 GB on a 19,000-word line).

``ter.py`` calls :func:`ter_edits` (the counts, for corpora) or :func:`ter_search` (the shifts and the
operations, for ``sentence_ter``'s alignments) when ``fast=True``; the tests prove both give the same
numbers as the readable search.  The
search's limits are TER's own (``evalkit.ter``: its beam, shift size and distance, candidate count and the
cost standing for infinity): ``ter.py`` passes them in with every call, so that this module keeps no copy
of them (and imports nothing of ``ter.py``, which imports it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

_TER_MATCH, _TER_SUB, _TER_INS, _TER_DEL = 0, 1, 2, 3  # the edit operations, as small integers


def _window(row, row_low: int, low: int, high: int, inf: int) -> list[int]:
    """The cells low..high-1 of a row that keeps the cells row_low..row_low+len(row)-1 (inf elsewhere)."""
    a, b = max(low, row_low), min(high, row_low + len(row))
    if a >= b:
        return [inf] * (high - low)
    return [inf] * (a - low) + row[a - row_low : b - row_low] + [inf] * (high - b)


def _ter_next_row(prev, prev_low: int, x, ref, low: int, high: int, inf: int):
    """Row i of the forward table, its cells low..high-1 (its beam), from row i-1 (``prev``, whose cells
    start at prev_low) and hypothesis word i (``x``): costs only."""
    start = max(low, 1)
    if prev_low <= start - 1:  # row i-1 keeps the cells read below, but perhaps not the last one or two
        missing = high - prev_low - len(prev)  # the beam moved right: those cells of row i-1 are inf
        p, off = (prev if missing <= 0 else prev + [inf] * missing), prev_low  # cell c of row i-1 is p[c - off]
    else:
        p, off = _window(prev, prev_low, low - 1, high, inf), low - 1
    row = [inf] * (high - low)
    left = inf  # the cell before the beam
    if low == 0:
        row[0] = left = p[-off] + 1  # cell 0: one more deletion
    c, k = start - 1 - off, start - low  # p[c] is cell j-1 of row i-1, row[k] is cell j of row i
    for y in ref[start - 1 : high - 1]:  # y is ref[j - 1], for j = start..high-1
        v = p[c] if y == x else p[c] + 1
        c += 1
        d = p[c] + 1
        if d < v:
            v = d
        if left < v - 1:
            v = left + 1
        row[k] = left = v
        k += 1
    return row


def _ter_forward(words, ref, beam, inf, rows=None, first: int = 1):
    """All forward cost rows of ``words``, row i holding the cells of beam[i] (row 0 all of them).  Given
    the rows of a hypothesis that agrees with ``words`` before position first-1, only rows first..n are
    filled again (row i depends on the words before i)."""
    rows = [list(range(len(ref) + 1))] if rows is None else rows[:first]
    for i in range(len(rows), len(words) + 1):
        rows.append(_ter_next_row(rows[i - 1], beam[i - 1][0], words[i - 1], ref, *beam[i], inf))
    return rows


def _ter_forward_from(start_row, words, ref, beam, inf, first: int, last: int):
    """Forward cost row ``last`` of ``words``, starting from row first-1 (= start_row)."""
    row = start_row
    for i in range(first, last + 1):
        row = _ter_next_row(row, beam[i - 1][0], words[i - 1], ref, *beam[i], inf)
    return row


def _ter_backward(words, ref, beam, inf, rows=None, last_kept: int | None = None):
    """Backward cost rows: B[i][j] is the cheapest way from cell (i, j) to the last cell, within the beam;
    row i holds the cells of beam[i].

    Given the rows of a hypothesis that agrees with ``words`` from position last_kept on, only rows
    0..last_kept-1 are filled again (row i depends on the words from i on only)."""
    n, m = len(words), len(ref)
    if rows is None:
        rows = [None] * (n + 1)
        low, high = beam[n]
        rows[n] = [m - j for j in range(low, high)]
        last_kept = n
    else:
        rows = list(rows)
    for i in range(last_kept - 1, -1, -1):
        x = words[i]
        low, high = beam[i]
        below, below_low = rows[i + 1], beam[i + 1][0]
        if below_low <= low and high + 1 <= below_low + len(below):  # row i+1 keeps every cell read below
            q, off = below, below_low - low  # q[k + off] is cell low + k of row i+1
        else:
            q, off = _window(below, below_low, low, high + 1, inf), 0  # q[k] is cell low + k of row i+1
        row = [inf] * (high - low)
        right = inf  # the cell after the beam
        for j in range(high - 1, low - 1, -1):
            k = j - low
            v = q[k - off] + 1
            if j < m:
                dg = q[k + 1 - off] if ref[j] == x else q[k + 1 - off] + 1
                if dg < v:
                    v = dg
                if right < v - 1:
                    v = right + 1
            row[k] = right = v
        rows[i] = row
    return rows


def _ter_backtrace(rows, beam, words, ref, inf) -> list[int]:
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
        else:  # cells (i, j), (i-1, j-1) and (i-1, j), inf outside the rows' beams
            row, k = rows[i], j - beam[i][0]
            cost = row[k] if 0 <= k < len(row) else inf
            above, k = rows[i - 1], j - 1 - beam[i - 1][0]
            same = words[i - 1] == ref[j - 1]
            if (above[k] if 0 <= k < len(above) else inf) + (0 if same else 1) == cost:
                op = _TER_MATCH if same else _TER_SUB
            elif (above[k + 1] if 0 <= k + 1 < len(above) else inf) + 1 == cost:
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
    """The candidate shifts (start, length, target, ref_start) of one round, in the readable search's order, cut
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
                        out.append((start_h, length, target, start_r))
                        tried += 1
                    previous = target
                if tried >= max_candidates:
                    return out, tried
    return out, tried


def ter_search(
    hyp: Sequence[str],
    ref: Sequence[str],
    *,
    beam_bounds: Callable[[int, int, int], tuple[int, int]],
    max_shift_size: int,
    max_shift_distance: int,
    max_candidates: int,
    infinity: int,
) -> tuple[list[tuple[int, int, int, int]], list[int]]:
    """(shifts, operations): the search of evalkit.ter.ter_alignment, faster.  ``shifts`` lists the shifts
    taken, in order, as (start, length, target, ref_start) (evalkit.ter.Shift's fields but its words);
    ``operations`` align the shifted hypothesis with the reference, one code per operation: 0 a match,
    1 a substitution, 2 an insertion, 3 a deletion.

    The limits are TER's, passed in by ``evalkit.ter``: ``beam_bounds(i, n, m)`` the cells filled in row
    i (its ``beam_bounds``), ``max_shift_size``, ``max_shift_distance`` and ``max_candidates`` (its
    ``MAX_SHIFT_SIZE``, ``MAX_SHIFT_DISTANCE``, ``MAX_SHIFT_CANDIDATES``), ``infinity`` the cost of a cell
    outside the beam (its ``INFINITY``).  Memory is linear in the lengths: a row keeps its beam's cells."""
    n, m = len(hyp), len(ref)
    if m == 0:
        return [], [_TER_DEL] * n
    vocab = {w: i for i, w in enumerate(dict.fromkeys(ref))}
    ref_ids = [vocab[w] for w in ref]
    words = [vocab.get(w, -1) for w in hyp]
    ref_positions: dict[int, list[int]] = {}
    for j, w in enumerate(ref_ids):
        ref_positions.setdefault(w, []).append(j)
    beam = [beam_bounds(i, n, m) for i in range(n + 1)]
    beam[0] = (0, m + 1)  # row 0 (inserting the reference's first j words) is kept whole
    inf = infinity
    shifts, tried = [], 0
    rows = backward = None
    changed = (1, n)  # the rows to fill again: forward from changed[0], backward below changed[1]
    while True:
        rows = _ter_forward(words, ref_ids, beam, inf, rows, changed[0])
        trace = _ter_backtrace(rows, beam, words, ref_ids, inf)
        before = rows[n][-1]  # the last row's last cell: (n, m)
        candidates, tried = _ter_candidates(words, ref_ids, ref_positions, trace, tried, max_shift_size,
                                            max_shift_distance, max_candidates)
        if tried >= max_candidates or not candidates:
            break
        backward = _ter_backward(words, ref_ids, beam, inf, backward, changed[1])
        best, best_rank = None, None
        for candidate in candidates:
            start, length, target, _ = candidate
            block = words[start : start + length]
            rest = words[:start] + words[start + length :]
            position = min(target - length if target > start + length else target, len(rest))
            shifted = rest[:position] + block + rest[position:]
            lo, hi = min(start, position), max(start, position) + length  # hi > lo: the block moved
            row = _ter_forward_from(rows[lo], shifted, ref_ids, beam, inf, lo + 1, hi)
            cost = min(map(int.__add__, row, backward[hi]))  # both rows hold the cells of beam[hi]
            rank = (before - cost, length, -start, -target)
            if best_rank is None or rank > best_rank:
                best, best_rank, best_span, best_shift = shifted, rank, (lo, hi), candidate
        if best_rank[0] <= 0:
            break
        words = best
        shifts.append(best_shift)
        changed = (best_span[0] + 1, best_span[1])  # words before lo and from hi on are unchanged
    return shifts, trace


def ter_edits(hyp: Sequence[str], ref: Sequence[str], **limits) -> tuple[int, int, int, int, int, int]:
    """(edits, insertions, deletions, substitutions, shifts, reference length) of one hypothesis against
    one reference: the same numbers as evalkit.ter.ter_alignment, found by :func:`ter_search` (whose
    keyword arguments, TER's limits, ``limits`` are)."""
    shifts, trace = ter_search(hyp, ref, **limits)
    ins, dels, subs = trace.count(_TER_INS), trace.count(_TER_DEL), trace.count(_TER_SUB)
    return len(shifts) + ins + dels + subs, ins, dels, subs, len(shifts), len(ref)
