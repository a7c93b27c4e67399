"""TER, the translation edit rate (Snover et al., 2006), computed step by step.

TER counts the edits that turn a hypothesis into a reference, over the reference length:

    TER = (insertions + deletions + substitutions + shifts) / reference words

A *shift* moves a block of adjacent hypothesis words to another place for the price of one edit.  The
cheapest mix of shifts and word edits is too expensive to search exhaustively, so TERCOM (and sacreBLEU,
whose numbers evalkit reproduces exactly) searches greedily:

1. Align the hypothesis with the reference by edit distance (:func:`edit_distance`, with its backtrace).
2. List the candidate shifts (:func:`candidate_shifts`): a block of up to 10 hypothesis words that also
   occurs in the reference at most 50 positions away, where both copies are currently misaligned, moved
   next to where the alignment puts the reference copy.
3. Take the shift that lowers the edit distance the most (:func:`best_shift`); stop when none does.
4. TER's edits are the shifts taken plus the edit distance of the shifted hypothesis.

The edit distance is TERCOM's "beam" variant: each row of the table is filled only within 25 cells of
the (length-scaled) diagonal, and only those cells are kept (:func:`edit_table`: memory linear in the
segment length, not its square), and ties in the backtrace prefer a match or substitution, then a deletion,
then an insertion.  After 1,000 candidate shifts have been scored, the search stops.

    >>> r = sentence_ter("the cat sat on the mat", ["the cat is on the mat"])
    >>> r.edits, r.ref_len, round(r.score, 4)
    (1, 6.0, 0.1667)
    >>> r = sentence_ter("on the mat the cat sat", ["the cat sat on the mat"])
    >>> r.shifts, r.edits, round(r.score, 4)
    (1, 1, 0.1667)

Words come from TERCOM's normalizer (:func:`normalize_ter`): lowercased (``lowercase=True``, the default, as sacreBLEU's ``case_sensitive=False``), split
on white space; ``normalized=True`` also separates punctuation, ``no_punct=True`` removes it.  sacreBLEU
normalizes each reference twice, which the normalizer is not made for: with ``normalized=True`` its numbers
differ on possessives ("It was the dog's." against itself: sacreBLEU 33.3, evalkit 0), and
``sacrebleu_double_normalization=True`` reproduces them (see :func:`corpus_ter`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import __version__
from ._checks import check_bool, check_corpus, check_references, check_same_length, check_text
from .protocol import LIMB_BITS, AdditiveStats, Metric, common, register_metric, segment_count, setting

MAX_SHIFT_SIZE = 10  # words in a shifted block
MAX_SHIFT_DISTANCE = 50  # how far apart the hypothesis and reference copies of a block may start
BEAM_WIDTH = 25  # cells either side of the diagonal filled in each row of the edit-distance table
MAX_SHIFT_CANDIDATES = 1000  # candidate shifts scored per segment before the search gives up
INFINITY = 10**16  # the cost of a cell outside the beam


def search_limits() -> dict:
    """The limits above as the keyword arguments of the fast search (:func:`evalkit.ter_fast.ter_edits`),
    read when called: the fast search keeps no copy of them."""
    return dict(beam_bounds=beam_bounds, max_shift_size=MAX_SHIFT_SIZE, max_shift_distance=MAX_SHIFT_DISTANCE,
                max_candidates=MAX_SHIFT_CANDIDATES, infinity=INFINITY)

# Edit operations, from the hypothesis's point of view (rewriting the hypothesis into the reference).
MATCH, SUBSTITUTE, INSERT, DELETE = "=", "S", "I", "D"


# --------------------------------------------------------------------------------------------------------
# TERCOM's normalizer
# --------------------------------------------------------------------------------------------------------
# Rules of TERCOM's Normalizer.java as sacreBLEU applies them, in order.  "normalized" undoes a few XML
# entities and separates punctuation from words (but keeps decimal points and commas inside numbers).
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
# ASCII punctuation and symbols that always stand alone: space ! " # $ % & ( ) * + / : ; < = > ? @ [ \ ] ^ _ ` { | } ~
_ALWAYS_SEPARATE = re.compile(r"([ -&(-+/:-@\[-`{-~])")
_WESTERN_RULES = (
    (re.compile(r"'s "), r" 's "),  # a possessive 's becomes a word of its own
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # a period or comma not after a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # ... or not before a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # a dash after a digit
)
_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_ASIAN_RULES = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"([\u4e00-\u9fff\u3400-\u4dbf])", r" \1 "),  # CJK ideographs: one word per character
        (r"([\u31c0-\u31ef\u2e80-\u2eff])", r" \1 "),  # CJK strokes and radicals
        (r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])", r" \1 "),  # compatibility forms
        (r"([\u3200-\u3f22])", r" \1 "),  # enclosed letters and more
        (r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])", r"\1 \2 "),  # hiragana runs
        (r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])", r"\1 \2 "),  # katakana runs
        (r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])", r"\1 \2 "),  # katakana extension
        (_ASIAN_PUNCT, r" \1 "),
        (_FULL_WIDTH_PUNCT, r" \1 "),
    )
)
_PUNCTUATION = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCTUATION = (re.compile(_ASIAN_PUNCT), re.compile(_FULL_WIDTH_PUNCT))


def _separate_punctuation(text: str) -> str:
    text = text.replace("\n-", "").replace("\n", " ")
    for entity, char in _ENTITIES:
        text = text.replace(entity, char)
    text = _ALWAYS_SEPARATE.sub(r" \1 ", f" {text} ")
    for pattern, replacement in _WESTERN_RULES:
        text = pattern.sub(replacement, text)
    return text


def normalize_ter(
    text: str,
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    lowercase: bool = True,
) -> str:
    """TERCOM's normalization of one text: the words, joined by single spaces.

        >>> normalize_ter("The cat (a tabby) sat.", normalized=True)
        'the cat ( a tabby ) sat .'
        >>> normalize_ter("The cat (a tabby) sat.", no_punct=True, lowercase=False)
        'The cat a tabby sat'

    The normalizer is not idempotent: ``normalized=True`` separates a possessive "'s" only when a space
    or the end follows it, which may be true only after a first pass has separated the punctuation
    after it (see ``sacrebleu_double_normalization`` in :func:`corpus_ter`).

        >>> normalize_ter("the dog's.", normalized=True), normalize_ter("the dog's .", normalized=True)
        ("the dog's .", "the dog 's .")
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    for name, value in dict(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                            lowercase=lowercase).items():
        check_bool(name, value)
    if not text:
        return ""
    if lowercase:
        text = text.lower()
    if normalized:
        text = _separate_punctuation(text)
        if asian_support:
            for pattern, replacement in _ASIAN_RULES:
                text = pattern.sub(replacement, text)
    if no_punct:
        text = _PUNCTUATION.sub("", text)
        if asian_support:
            for pattern in _ASIAN_PUNCTUATION:
                text = pattern.sub("", text)
    return " ".join(text.split())


def ter_words(text: str, **options: bool) -> list[str]:
    """The words TER compares: trailing white space dropped, normalized, split on spaces."""
    return normalize_ter(text.rstrip(), **options).split()


# --------------------------------------------------------------------------------------------------------
# Step 1: edit distance with a backtrace (TERCOM's beam variant)
# --------------------------------------------------------------------------------------------------------
def beam_bounds(i: int, n_hyp: int, n_ref: int) -> tuple[int, int]:
    """The reference positions j (half-open range) filled in row i of the table, near the diagonal."""
    ratio = n_ref / n_hyp if n_hyp else 1
    width = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
    diagonal = math.floor(i * ratio)
    low = max(0, diagonal - width)
    high = n_ref + 1 if i == n_hyp else min(n_ref + 1, diagonal + width)
    return low, high


OUTSIDE = (INFINITY, "")  # a cell outside the beam: never filled, never kept


def edit_table(hyp: Sequence[str], ref: Sequence[str]) -> list[dict[int, tuple[int, str]]]:
    """The table of (cost, last operation): cell [i][j] rewrites hyp[:i] into ref[:j].

    A row is a dict from reference position j to its cell, holding the cells of its beam only
    (:func:`beam_bounds`): any other cell costs INFINITY (``OUTSIDE``).  So the table takes memory linear
    in the segment length, not its square.  Row 0 inserts reference words (all of them).  Ties prefer a
    match or substitution, then a deletion (of a hypothesis word), then an insertion (of a reference word).
    """
    n, m = len(hyp), len(ref)
    table = [{j: (j, INSERT) for j in range(m + 1)}]
    for i in range(1, n + 1):
        above, row = table[i - 1], {}
        low, high = beam_bounds(i, n, m)
        for j in range(low, high):
            if j == 0:
                row[j] = (above[0][0] + 1, DELETE)
                continue
            same = hyp[i - 1] == ref[j - 1]
            options = (
                (above.get(j - 1, OUTSIDE)[0] + (0 if same else 1), MATCH if same else SUBSTITUTE),
                (above.get(j, OUTSIDE)[0] + 1, DELETE),
                (row.get(j - 1, OUTSIDE)[0] + 1, INSERT),
            )
            row[j] = OUTSIDE
            for cost, op in options:  # strictly cheaper only: the first option wins a tie
                if cost < row[j][0]:
                    row[j] = (cost, op)
        table.append(row)
    return table


def backtrace(table: list[dict[int, tuple[int, str]]]) -> str:
    """The operations of the cheapest path, read back from the last cell: one letter per operation."""
    i, j = len(table) - 1, len(table[0]) - 1
    ops = []
    while i > 0 or j > 0:
        op = table[i][j][1]
        ops.append(op)
        if op in (MATCH, SUBSTITUTE):
            i, j = i - 1, j - 1
        elif op == DELETE:
            i -= 1
        else:
            j -= 1
    return "".join(reversed(ops))


def edit_distance(hyp: Sequence[str], ref: Sequence[str]) -> tuple[int, str]:
    """(edits, operations): the word-level edit distance and one cheapest sequence of operations.

        >>> edit_distance("the cat sat on the mat".split(), "the cat is on the mat".split())
        (1, '==S===')
    """
    table = edit_table(hyp, ref)
    return table[-1][len(ref)][0], backtrace(table)


# --------------------------------------------------------------------------------------------------------
# Step 2: candidate shifts
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Alignment:
    """What an operation string says about each word: ``ref_to_hyp[j]`` is the hypothesis position that
    reference word j is aligned to (for an inserted word, the hypothesis word before it; -1 at the very
    start); ``hyp_wrong`` / ``ref_wrong`` mark the words that are not matched exactly."""

    ref_to_hyp: tuple[int, ...]
    hyp_wrong: tuple[bool, ...]
    ref_wrong: tuple[bool, ...]


def alignment(ops: str) -> Alignment:
    """Read an operation string into an :class:`Alignment`."""
    h = r = -1
    ref_to_hyp, hyp_wrong, ref_wrong = [], [], []
    for op in ops:
        if op in (MATCH, SUBSTITUTE):
            h, r = h + 1, r + 1
            ref_to_hyp.append(h)
            hyp_wrong.append(op == SUBSTITUTE)
            ref_wrong.append(op == SUBSTITUTE)
        elif op == DELETE:  # a hypothesis word with no reference counterpart
            h += 1
            hyp_wrong.append(True)
        else:  # INSERT: a reference word the hypothesis lacks
            r += 1
            ref_to_hyp.append(h)
            ref_wrong.append(True)
    return Alignment(tuple(ref_to_hyp), tuple(hyp_wrong), tuple(ref_wrong))


def matching_blocks(hyp: Sequence[str], ref: Sequence[str]):
    """Yield (hyp start, ref start, length) for every block of up to MAX_SHIFT_SIZE words that occurs in
    both, starting at most MAX_SHIFT_DISTANCE positions apart; shorter blocks first for each start pair."""
    for start_h in range(len(hyp)):
        for start_r in range(len(ref)):
            if abs(start_r - start_h) > MAX_SHIFT_DISTANCE:
                continue
            length = 0
            while (
                length < MAX_SHIFT_SIZE
                and start_h + length < len(hyp)
                and start_r + length < len(ref)
                and hyp[start_h + length] == ref[start_r + length]
            ):
                length += 1
                yield start_h, start_r, length


def shift_words(words: Sequence[str], start: int, length: int, target: int) -> list[str]:
    """Move ``words[start:start + length]`` to ``target``.

    A target after the block names a position in the original list (the block goes before that word);
    a target inside or just after the block names a position in the list *without* the block.  (This is
    sacreBLEU's convention; TERCOM's own differs only in off-by-one ways that its candidate targets avoid.)

        >>> shift_words("a b c d e".split(), 3, 2, 0)
        ['d', 'e', 'a', 'b', 'c']
    """
    block = list(words[start : start + length])
    rest = list(words[:start]) + list(words[start + length :])
    position = target - length if target > start + length else target
    return rest[:position] + block + rest[position:]


@dataclass(frozen=True)
class Shift:
    """Moving the hypothesis block at ``start`` (``length`` words) to ``target`` (see :func:`shift_words`)
    makes it match the reference block at ``ref_start``."""

    start: int
    length: int
    target: int
    ref_start: int
    words: tuple[str, ...]


def candidate_shifts(hyp: Sequence[str], ref: Sequence[str], ops: str):
    """Yield, group by group, the shifts worth trying, as lists of :class:`Shift`.

    A group is one matching block (see :func:`matching_blocks`) that is misaligned in both sentences and
    not already next to its reference copy; its targets are just after the hypothesis words aligned to
    the reference words before and inside the reference copy (repeated targets in a row are tried once).
    """
    align = alignment(ops)
    for start_h, start_r, length in matching_blocks(hyp, ref):
        if not any(align.hyp_wrong[start_h : start_h + length]):
            continue  # the hypothesis block is already matched
        if not any(align.ref_wrong[start_r : start_r + length]):
            continue  # the reference block is already matched
        if start_h <= align.ref_to_hyp[start_r] < start_h + length:
            continue  # the block would move within itself
        group = []
        previous = None
        for r in range(start_r - 1, start_r + length):
            target = 0 if r == -1 else align.ref_to_hyp[r] + 1
            if target != previous:
                group.append(Shift(start_h, length, target, start_r, tuple(hyp[start_h : start_h + length])))
            previous = target
        yield group


# --------------------------------------------------------------------------------------------------------
# Step 3: the greedy search
# --------------------------------------------------------------------------------------------------------
def best_shift(hyp: Sequence[str], ref: Sequence[str], tried: int = 0) -> tuple[Shift | None, int, int]:
    """(the best shift, how much it lowers the edit distance, candidates tried so far).

    Candidates are ranked by the edit distance they save, then by length (longer first), then by start
    and target (earlier first); the first of equals wins.  Scoring stops after the group in which the
    running count ``tried`` reaches MAX_SHIFT_CANDIDATES.
    """
    before, ops = edit_distance(hyp, ref)
    best, best_rank = None, None
    for group in candidate_shifts(hyp, ref, ops):
        for shift in group:
            saved = before - edit_distance(shift_words(hyp, shift.start, shift.length, shift.target), ref)[0]
            rank = (saved, shift.length, -shift.start, -shift.target)
            tried += 1
            if best_rank is None or rank > best_rank:
                best, best_rank = shift, rank
        if tried >= MAX_SHIFT_CANDIDATES:
            break
    return best, (best_rank[0] if best_rank else 0), tried


@dataclass(frozen=True)
class TERAlignment:
    """How one hypothesis was turned into its reference: the shifts applied in order, the shifted
    hypothesis, and the operations aligning it with the reference."""

    hypothesis: tuple[str, ...]
    reference: tuple[str, ...]
    shifts: tuple[Shift, ...]
    shifted: tuple[str, ...]
    ops: str

    @property
    def edits(self) -> int:
        return len(self.shifts) + sum(op != MATCH for op in self.ops)

    def pairs(self) -> list[tuple[str, str, str]]:
        """(shifted hypothesis word or "", reference word or "", operation) for each operation."""
        out, h, r = [], 0, 0
        for op in self.ops:
            if op in (MATCH, SUBSTITUTE):
                out.append((self.shifted[h], self.reference[r], op))
                h, r = h + 1, r + 1
            elif op == DELETE:
                out.append((self.shifted[h], "", op))
                h += 1
            else:
                out.append(("", self.reference[r], op))
                r += 1
        return out


def ter_alignment(hyp: Sequence[str], ref: Sequence[str]) -> TERAlignment:
    """Shift greedily until no shift helps (or MAX_SHIFT_CANDIDATES were tried), then align by edit distance.

    An empty reference: every hypothesis word is deleted, no shift.
    """
    hyp, ref = tuple(hyp), tuple(ref)
    if not ref:
        return TERAlignment(hyp, ref, (), hyp, DELETE * len(hyp))
    words, shifts, tried = list(hyp), [], 0
    while True:
        shift, saved, tried = best_shift(words, ref, tried)
        if tried >= MAX_SHIFT_CANDIDATES or shift is None or saved <= 0:
            break  # (the search also stops, without shifting, once the candidates are used up)
        words = shift_words(words, shift.start, shift.length, shift.target)
        shifts.append(shift)
    _, ops = edit_distance(words, ref)
    return TERAlignment(hyp, ref, tuple(shifts), tuple(words), ops)


# --------------------------------------------------------------------------------------------------------
# Sufficient statistics
# --------------------------------------------------------------------------------------------------------
NORMALIZER_OPTIONS = ("normalized", "no_punct", "asian_support", "lowercase")  # normalize_ter's switches
OPTIONS = (*NORMALIZER_OPTIONS, "sacrebleu_double_normalization")


@dataclass(frozen=True)
class TERStats(AdditiveStats):
    """Additive counts for one segment or a corpus (``a + b``, ``sum(list_of_stats)``).

    With several references, a segment's edits are those against its closest reference (fewest edits,
    the first on a tie), and its ``ref_len`` is the *average* length of all its references.
    """

    edits: int
    ref_len: float
    insertions: int
    deletions: int
    substitutions: int
    shifts: int
    segments: int = segment_count()
    nrefs: int | None = common(1)  # None when segments have different numbers of references
    normalized: bool = setting(False, "normalization")
    no_punct: bool = setting(False, "normalization")
    asian_support: bool = setting(False, "normalization")
    lowercase: bool = setting(True, "casing")
    sacrebleu_double_normalization: bool = setting(False, "normalization")


def stats_from_alignments(alignments: Sequence[TERAlignment], **settings: bool) -> TERStats:
    """The statistics of one segment from its alignment against each of its references."""
    best = min(alignments, key=lambda a: a.edits)  # min keeps the first of equals
    ops = best.ops
    return TERStats(
        edits=best.edits,
        ref_len=sum(len(a.reference) for a in alignments) / len(alignments),
        insertions=ops.count(INSERT),
        deletions=ops.count(DELETE),
        substitutions=ops.count(SUBSTITUTE),
        shifts=len(best.shifts),
        nrefs=len(alignments),
        **settings,
    )


# --------------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TERResult:
    """An immutable TER result.  ``float(result)`` is the score: edits / reference words, a fraction that
    is 0 for a perfect hypothesis and has no upper bound (a long wrong hypothesis can exceed 1)."""

    score: float
    edits: int
    ref_len: float
    insertions: int
    deletions: int
    substitutions: int
    shifts: int
    signature: str
    stats: TERStats = field(repr=False)
    alignments: tuple[TERAlignment, ...] = field(default=(), repr=False)  # sentence_ter: one per reference

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        return (
            f"TERResult(score={self.score:.4f}, edits={self.edits}, ref_len={self.ref_len:.4f}, "
            f"ins={self.insertions}, del={self.deletions}, sub={self.substitutions}, shifts={self.shifts})"
        )


def signature(stats: TERStats) -> str:
    """A sacreBLEU-style signature."""
    return "|".join(
        [
            f"nrefs:{stats.nrefs if stats.nrefs is not None else 'var'}",
            f"case:{'lc' if stats.lowercase else 'mixed'}",
            "tok:tercom",
            f"norm:{'yes' if stats.normalized else 'no'}",
            f"punct:{'no' if stats.no_punct else 'yes'}",
            f"asian:{'yes' if stats.asian_support else 'no'}",
            *(["refs:normalized-twice"] if stats.sacrebleu_double_normalization else []),
            f"evalkit:{__version__}",
        ]
    )


def score_stats(stats: TERStats) -> TERResult:
    """TER of statistics: edits / reference length.  With no reference words at all, 1 if there are
    edits (a hypothesis for an empty reference) and 0 if not."""
    if not isinstance(stats, TERStats):
        raise TypeError(f"stats must be TERStats, got {type(stats).__name__}")
    if stats.ref_len > 0:
        score = stats.edits / stats.ref_len
    else:
        score = 1.0 if stats.edits > 0 else 0.0
    return TERResult(
        score=score,
        edits=stats.edits,
        ref_len=stats.ref_len,
        insertions=stats.insertions,
        deletions=stats.deletions,
        substitutions=stats.substitutions,
        shifts=stats.shifts,
        signature=signature(stats),
        stats=stats,
    )


# --------------------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------------------
def _check_options(**options: Any) -> dict[str, bool]:
    """The switches as bools (numpy's bool too); anything else is refused (``"no"`` would switch one on)."""
    return {name: check_bool(name, value) for name, value in options.items()}


def _as_words(value: Any, what: str, options: dict[str, bool], reference: bool = False) -> tuple[str, ...]:
    """A text's TER words; a sequence of tokens is joined with spaces first.  A reference is normalized
    twice with ``sacrebleu_double_normalization`` (sacreBLEU normalizes it when it caches the references
    and again when it scores them)."""
    check_text(value, what)
    text = value if isinstance(value, str) else " ".join(value)
    normalizer = {name: options[name] for name in NORMALIZER_OPTIONS}
    if reference and options["sacrebleu_double_normalization"]:
        text = normalize_ter(text.rstrip(), **normalizer)
    return tuple(ter_words(text, **normalizer))


def fast_alignment(hyp: Sequence[str], ref: Sequence[str]) -> TERAlignment:
    """:func:`ter_alignment`'s result, found by the fast search (:func:`evalkit.ter_fast.ter_search`, with
    this module's limits); the shifts' words are read by replaying the shifts on ``hyp``."""
    from .ter_fast import ter_search  # the second implementation; tests prove it equal

    found, trace = ter_search(hyp, ref, **search_limits())
    words, shifts = list(hyp), []
    for start, length, target, ref_start in found:
        shifts.append(Shift(start, length, target, ref_start, tuple(words[start : start + length])))
        words = shift_words(words, start, length, target)
    ops = "".join((MATCH, SUBSTITUTE, INSERT, DELETE)[op] for op in trace)  # ter_search's codes 0..3
    return TERAlignment(tuple(hyp), tuple(ref), tuple(shifts), tuple(words), ops)


def _segment_alignments(hypothesis, references, options, where: str = "", fast: bool = False) -> list[TERAlignment]:
    hyp = _as_words(hypothesis, f"hypothesis{where}", options)
    refs = check_references(references, f"references{where}")
    align = fast_alignment if fast else ter_alignment
    return [align(hyp, _as_words(r, f"references{where}[{j}]", options, reference=True)) for j, r in enumerate(refs)]


def sentence_stats(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    lowercase: bool = True,
    sacrebleu_double_normalization: bool = False,
    fast: bool = True,
) -> TERStats:
    """The TER statistics of one segment against its references (``fast``: see :func:`sentence_ter`)."""
    options = _check_options(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                             lowercase=lowercase, sacrebleu_double_normalization=sacrebleu_double_normalization)
    fast = check_bool("fast", fast)
    return stats_from_alignments(_segment_alignments(hypothesis, references, options, fast=fast), **options)


def segment_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    lowercase: bool = True,
    sacrebleu_double_normalization: bool = False,
    fast: bool = True,
) -> list[TERStats]:
    """One :class:`TERStats` per segment; ``references[i]`` lists the references of ``hypotheses[i]``.

    ``fast=True`` runs the shift search of :mod:`evalkit.ter_fast` (integer word ids, all candidates of a
    round scored at once); ``fast=False`` the readable functions above.  Both give the same statistics.
    """
    options = _check_options(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                             lowercase=lowercase, sacrebleu_double_normalization=sacrebleu_double_normalization)
    fast = check_bool("fast", fast)
    check_corpus("hypotheses", hypotheses)
    check_corpus("references", references)
    check_same_length(hypotheses=hypotheses, references=references)
    if not fast:
        return [
            stats_from_alignments(_segment_alignments(h, r, options, where=f"[{i}]"), **options)
            for i, (h, r) in enumerate(zip(hypotheses, references))
        ]
    from .ter_fast import ter_edits  # the second implementation; tests prove it equal

    limits = search_limits()  # this module's limits, passed in: ter_fast keeps no copy of them

    out = []
    for i, (h, refs) in enumerate(zip(hypotheses, references)):
        hyp = _as_words(h, f"hypothesis[{i}]", options)
        refs = check_references(refs, f"references[{i}]")
        counts = [ter_edits(hyp, _as_words(r, f"references[{i}][{j}]", options, reference=True), **limits)
                  for j, r in enumerate(refs)]
        best = min(range(len(counts)), key=lambda k: counts[k][0])
        edits, ins, dels, subs, shifts, _ = counts[best]
        out.append(TERStats(edits, sum(c[5] for c in counts) / len(counts), ins, dels, subs, shifts,
                            nrefs=len(refs), **options))
    return out


def corpus_stats(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    lowercase: bool = True,
    sacrebleu_double_normalization: bool = False,
    fast: bool = True,
) -> TERStats:
    """The summed statistics of a corpus: ``sum(segment_stats(...))``."""
    return sum(segment_stats(hypotheses, references, normalized=normalized, no_punct=no_punct,
                             asian_support=asian_support, lowercase=lowercase,
                             sacrebleu_double_normalization=sacrebleu_double_normalization, fast=fast))


# --------------------------------------------------------------------------------------------------------
# The public scores
# --------------------------------------------------------------------------------------------------------
def sentence_ter(
    hypothesis: str | Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    lowercase: bool = True,
    sacrebleu_double_normalization: bool = False,
    fast: bool = True,
) -> TERResult:
    """TER of one hypothesis against its references, with the alignment against each reference
    (``result.alignments``) for showing the edits.

    The steps, for ``fast=False`` exactly as written:

    1. Split the hypothesis and each reference into TER's words (:func:`ter_words`, TERCOM's normalizer
       :func:`normalize_ter` with the options).
    2. Against each reference, shift greedily (:func:`ter_alignment`): align by edit distance
       (:func:`edit_distance`), list the candidate shifts (:func:`candidate_shifts`), take the one that
       lowers the edit distance the most (:func:`best_shift`), and again, until none does.
    3. Keep the edits against the closest reference (the fewest, the first on a tie) and the *average*
       length of all the references (:func:`stats_from_alignments`).
    4. Score: edits / average reference length (:func:`score_stats`).

    ``fast=True`` (the default) runs step 2 with the search of :mod:`evalkit.ter_fast`
    (:func:`fast_alignment`), the one :func:`corpus_ter` uses: one sentence costs what a corpus of that
    one sentence costs.  Both give the same alignments (tests/test_ter.py proves it).

    ``normalized``, ``no_punct``, ``asian_support``, ``lowercase`` and ``sacrebleu_double_normalization``:
    see :func:`corpus_ter`.

        >>> r = sentence_ter("on the mat the cat sat", ["the cat sat on the mat"])
        >>> r.shifts, r.edits, r.alignments[0].shifted
        (1, 1, ('the', 'cat', 'sat', 'on', 'the', 'mat'))
    """
    options = _check_options(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                             lowercase=lowercase, sacrebleu_double_normalization=sacrebleu_double_normalization)
    fast = check_bool("fast", fast)
    alignments = _segment_alignments(hypothesis, references, options, fast=fast)  # steps 1-2
    result = score_stats(stats_from_alignments(alignments, **options))  # steps 3-4
    return TERResult(**{**result.__dict__, "alignments": tuple(alignments)})


def corpus_ter(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    lowercase: bool = True,
    sacrebleu_double_normalization: bool = False,
    fast: bool = True,
) -> TERResult:
    """Corpus TER: all edits over all (average) reference lengths, the score of the summed statistics.

    ``references[i]`` is the list of references of ``hypotheses[i]`` (segment-major, as in
    :func:`evalkit.bleu.corpus_bleu`).

    The words are TERCOM's (:func:`normalize_ter`): ``lowercase`` (sacreBLEU's ``case_sensitive=False``),
    ``normalized`` separates punctuation, ``no_punct`` removes it, ``asian_support`` splits Chinese and
    Japanese (with ``normalized`` or ``no_punct``).

    ``sacrebleu_double_normalization=True`` reproduces sacreBLEU 2.6.0, which normalizes each reference
    twice (once when it caches the references, ``_cache_references``, and again when it reads their words,
    ``_extract_reference_info``) and each hypothesis once.  The normalizer is not idempotent: with
    ``normalized=True`` a second pass splits possessives a first pass left joined ("the dog's." becomes
    "the dog's ." and then "the dog 's ."), so a hypothesis identical to its reference gets edits (TER
    1/3 for "It was the dog's." against itself in sacreBLEU).  The default (False) normalizes every text
    once, the same way: identical texts score 0.  Without ``normalized`` both give the same numbers.

        >>> round(corpus_ter(["the cat sat on the mat", "a dog"], [["the cat is on the mat"], ["one dog"]]).score, 4)
        0.25
        >>> text = "It was the dog's."
        >>> [corpus_ter([text], [[text]], normalized=True, sacrebleu_double_normalization=twice).score
        ...  for twice in (False, True)]
        [0.0, 0.3333333333333333]
    """
    return score_stats(corpus_stats(hypotheses, references, normalized=normalized, no_punct=no_punct,
                                    asian_support=asian_support, lowercase=lowercase,
                                    sacrebleu_double_normalization=sacrebleu_double_normalization, fast=fast))


# --------------------------------------------------------------------------------------------------------
# The metric protocol (evalkit.protocol): what significance tests and bootstraps use
# --------------------------------------------------------------------------------------------------------
# A segment's TER statistics are its edits against the closest reference and the *average* length of its
# references, a fraction when the references differ in length.  To keep rows integer, every average is
# multiplied by L, the least common multiple of the averages' denominators (1 with one reference per
# segment), and each row carries L and a 1 as well: edits, L * average reference length, L, 1.  Summed
# over any n segments, the last two are n * L and n, so the scorer recovers L and the exact length.
# L grows with the numbers of references (10 different counts from 23 to 61 can make it 2**53), and a
# resampler sums rows in float64, exact only below 2**53: so L * length and L are written in pieces of
# LIMB_BITS bits (as protocol.fixed_point_rows writes ROUGE's scores), as many as the largest needs, and
# the scorer puts them together in Python integers.  A row: edits, the K pieces of L * length (lowest
# first), the K pieces of L, 1; K = 1 (the row above) unless L * length reaches 2**LIMB_BITS.
METRIC_OPTIONS = frozenset(OPTIONS)


def _pieces(value: int, k: int) -> list[int]:
    """``value`` in ``k`` pieces of LIMB_BITS bits, lowest first."""
    mask = (1 << LIMB_BITS) - 1
    return [(value >> (LIMB_BITS * j)) & mask for j in range(k)]


def _whole(pieces: Sequence[int]) -> int:
    """The integer of pieces of LIMB_BITS bits, lowest first (summed pieces may exceed LIMB_BITS bits)."""
    return sum(int(p) << (LIMB_BITS * j) for j, p in enumerate(pieces))


def corpus_rows(corpora: Sequence[Sequence[Any]], references: Sequence[Any], options: dict, fast: bool = True) -> list:
    """:func:`segment_stats` of each corpus (it checks the options) as int64 matrices of the rows above."""
    import numpy as np

    per_corpus = [segment_stats(c, references, fast=fast, **options) for c in corpora]
    # ref_len = (sum of reference lengths) / nrefs, so the sum is recovered exactly by rounding.
    averages = [[Fraction(round(s.ref_len * s.nrefs), s.nrefs) for s in stats] for stats in per_corpus]
    scale = math.lcm(*(a.denominator for column in averages for a in column))
    scaled = [[a.numerator * (scale // a.denominator) for a in column] for column in averages]
    k = max(1, -(-max(scale, *(x for column in scaled for x in column)).bit_length() // LIMB_BITS))
    return [np.array([[s.edits, *_pieces(x, k), *_pieces(scale, k), 1] for s, x in zip(stats, column)],
                     dtype=np.int64).reshape(len(stats), 2 * k + 2)
            for stats, column in zip(per_corpus, scaled)]


def _lengths(rows) -> tuple[list[int], list[int]]:
    """(L * reference length, L) of each summed row, exact Python integers."""
    k = (len(rows[0]) - 2) // 2 if len(rows) else 1
    out = ([], [])
    for row in rows:
        out[0].append(_whole(row[1 : 1 + k]))
        out[1].append(_whole(row[1 + k : 1 + 2 * k]) // int(row[-1]))
    return out


def score_row(row: Sequence[int], options: dict) -> float:
    """The readable way: the summed row as :class:`TERStats`, scored by :func:`score_stats`."""
    row = [int(x) for x in row]
    (scaled_length,), (scale,) = _lengths([row])
    return score_stats(TERStats(row[0], scaled_length / scale, 0, 0, 0, 0, **options)).score


def score_rows(rows, options: dict, float32: bool = False):
    """Edits / reference length for many summed rows at once (numpy; 1 or 0 where there are no reference
    words), as :func:`score_stats` computes it (tests/test_ter.py proves it).  Rows of several pieces
    (K > 1) are put together in Python integers, row by row.

    ``float32=True``: sacreBLEU's float32 percentages, 100 * (edits / length) in float32.  Offered when
    the averaged reference lengths are exact in float32 sums (L a power of two: one reference, or
    references of equal length or lengths differing by an even number); otherwise ``None``.
    """
    import numpy as np

    edits = rows[:, 0]
    if rows.shape[1] == 4:  # one piece each: numpy's int64 holds them exactly
        scaled, scale = rows[:, 1], rows[:, 2] // rows[:, 3]
        not_power_of_two = bool(np.any(scale & (scale - 1)))
        length = scaled / scale
    else:
        scaled, scale = _lengths(rows.tolist())
        not_power_of_two = any(s & (s - 1) for s in scale)
        length = np.array([a / b for a, b in zip(scaled, scale)], dtype=np.float64)
    if float32:
        if not_power_of_two:  # sacreBLEU's float32 sums would round
            return None
        length = length.astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = edits.astype(np.float32) / np.where(length > 0, length, np.float32(1))
        empty = np.where(edits > 0, np.float32(1), np.float32(0))
        return np.float32(100) * np.where(length > 0, ratio, empty)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / np.where(length > 0, length, 1.0)
    return np.where(length > 0, ratio, np.where(edits > 0, 1.0, 0.0))


METRIC = register_metric(Metric("ter", METRIC_OPTIONS, corpus_rows, score_row, score_rows, float32_scale=100.0))


__all__ = [
    "corpus_rows",
    "score_row",
    "score_rows",
    "Alignment",
    "BEAM_WIDTH",
    "MAX_SHIFT_CANDIDATES",
    "MAX_SHIFT_DISTANCE",
    "MAX_SHIFT_SIZE",
    "Shift",
    "TERAlignment",
    "TERResult",
    "TERStats",
    "alignment",
    "backtrace",
    "beam_bounds",
    "best_shift",
    "candidate_shifts",
    "corpus_stats",
    "corpus_ter",
    "edit_distance",
    "edit_table",
    "fast_alignment",
    "matching_blocks",
    "normalize_ter",
    "score_stats",
    "search_limits",
    "segment_stats",
    "sentence_stats",
    "sentence_ter",
    "shift_words",
    "signature",
    "stats_from_alignments",
    "ter_alignment",
    "ter_words",
]
