"""Explore BLEU's n-gram weights: plain functions that compute what the explorer shows, and a thin widget layer.

The explorer follows BLEU's two halves (see :mod:`evalkit.bleu`):

1. **Count once** (:func:`count_sentence`, :func:`count_corpus`): the sufficient statistics up to
   ``COUNT_ORDER``, the highest order the explorer offers.  Only a change of text or tokenizer counts again.
2. **Re-score** (:func:`weights_view`): weights, max order, smoothing and reference-length rule go to
   :func:`evalkit.bleu.score_stats`, which reads the cached counts.  That is why a slider responds at once.

:func:`weights_view` returns a :class:`WeightsView` holding everything the explorer displays: the weights
as used (normalized to sum 1), one row per order, the brevity penalty, the text ``"BLEU = 0.xxxx"`` and the
bars of the weighted log-precisions w_n * log p_n.  It is a plain function, so it is tested without a browser;
so are :func:`weights_table_html` and :func:`weighted_log_bars_svg`, the explorer's table and bars (plain HTML
and SVG, redrawn on every slider move).

    >>> stats = count_sentence("the cat sat on the mat", ["the cat is on the mat", "the bird sat on the bush"])
    >>> view = weights_view(stats, (1, 1))
    >>> view.weights, view.score_text
    ((0.5, 0.5), 'BLEU = 0.8944')

:class:`WeightsExplorer` is the widget layer (ipywidgets is imported only when one is built, so
``import evalkit.widgets`` stays light and ``import evalkit.bleu`` never imports it).
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import bleu as _bleu
from ._checks import check_choice, check_int, check_references, check_text, check_weights, normalize_weights
from .ranking import competition_ranks
from .tokenize import get_tokenizer, warn_about_tokenization

COUNT_ORDER = 6  # counted once; covers every max order offered and the 5-grams NLTK's methods 5 and 7 read
MAX_ORDERS = tuple(range(1, COUNT_ORDER + 1))
# The tokenizers the explorer offers (names of evalkit.tokenize; "nltk" is NLTK's NLTKWordTokenizer).
TOKENIZERS = ("none", "13a", "intl", "char", "nltk")
SMOOTHING = _bleu.SMOOTHING
REF_LENGTHS = _bleu.REF_LENGTHS


# --------------------------------------------------------------------------------------------------------
# Counting (done once per text and tokenizer)
# --------------------------------------------------------------------------------------------------------
def tokenize_text(text: str, tokenize: str = "none") -> list[str]:
    """Split ``text`` with the explorer's tokenizer called ``tokenize`` (one of ``TOKENIZERS``)."""
    check_choice("tokenizer", tokenize, TOKENIZERS)
    check_text(text, "text")
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return get_tokenizer(tokenize)(text)


def count_sentence(
    hypothesis: str | Sequence[str], references: Sequence[str | Sequence[str]], tokenize: str = "none"
) -> _bleu.BLEUStats:
    """The statistics of one segment, counted once up to ``COUNT_ORDER`` (strings are split by ``tokenize``).

    Like :func:`evalkit.bleu.sentence_bleu`, it gives one :class:`~evalkit.tokenize.TokenizationWarning` per
    call when ``tokenize`` cannot split the texts (Chinese or Japanese under a tokenizer that splits at spaces).
    """
    check_choice("tokenizer", tokenize, TOKENIZERS)
    stats = _bleu.sentence_stats(hypothesis, references, max_order=COUNT_ORDER, tokenize=tokenize)
    warn_about_tokenization([hypothesis, *references], tokenize, char_option="char")
    return stats


def count_corpus(
    hypotheses: Sequence[str | Sequence[str]],
    references: Sequence[Sequence[str | Sequence[str]]],
    tokenize: str = "13a",
) -> _bleu.BLEUStats:
    """The summed statistics of a corpus, counted once up to ``COUNT_ORDER``.

    ``references[i]`` lists the references of ``hypotheses[i]`` (segment-major, as in :mod:`evalkit.bleu`).
    """
    check_choice("tokenizer", tokenize, TOKENIZERS)
    return _bleu.corpus_stats(hypotheses, references, max_order=COUNT_ORDER, tokenize=tokenize)


# --------------------------------------------------------------------------------------------------------
# Re-scoring (every slider move)
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OrderRow:
    """One row of the per-order table: n, clipped matches, total, the precision as used after smoothing
    (``None`` if the order was not used), its weight, and the weighted log term w * log p (``-inf`` when a
    weighted precision is 0; ``None`` when the weight is 0 or the order was not used)."""

    n: int
    matches: int
    total: int
    precision: float | None
    weight: float
    weighted_log: float | None


@dataclass(frozen=True)
class WeightsView:
    """Everything the explorer shows for one setting.  ``float(view)`` is the BLEU score."""

    result: _bleu.BLEUResult
    weights: tuple[float, ...]  # as used: normalized to sum 1
    rows: tuple[OrderRow, ...]
    brevity_penalty: float
    score_text: str  # "BLEU = 0.xxxx"
    bars: tuple[tuple[str, float | None], ...]  # ("1-gram", w1 * log p1), ... for the bar chart

    @property
    def score(self) -> float:
        return self.result.score

    def __float__(self) -> float:
        return self.result.score

    @property
    def log_terms(self) -> tuple[tuple[str, float | None], ...]:
        """The bars of the explorer's chart, (label, value): w_n * log p_n per order (``bars``; None: weight 0
        or order unused), then log BP, then their sum, log BLEU (-inf stands for a factor 0)."""
        log_bp = math.log(self.brevity_penalty) if self.brevity_penalty > 0 else -math.inf
        terms = [*self.bars, ("log BP", log_bp)]
        finite = [v for _, v in terms if v is not None]
        log_bleu = math.fsum(finite) if all(math.isfinite(v) for v in finite) else -math.inf
        return (*terms, ("log BLEU", log_bleu))

    def __repr__(self) -> str:
        ws = ", ".join(f"{w:.4f}" for w in self.weights)
        return f"WeightsView({self.score_text}, weights=({ws}), bp={self.brevity_penalty:.4f})"


def normalized_weights(raw_weights: Sequence[float], max_order: int | None = None) -> tuple[float, ...]:
    """The first ``max_order`` raw weights (all, if None) divided by their sum: the weights BLEU uses.

    >>> normalized_weights((0.25, 0.25, 0.25, 0.0))
    (0.3333333333333333, 0.3333333333333333, 0.3333333333333333, 0.0)
    """
    raw = check_weights(raw_weights)
    order = len(raw) if max_order is None else check_int("max_order", max_order, 1)
    if order > len(raw):
        raise ValueError(f"max_order is {order} but only {len(raw)} weights were given; give one weight per order")
    return normalize_weights(raw[:order])  # all zero among the first max_order -> clear ValueError


def score_text(score: float) -> str:
    """How the explorer prints a score: ``"BLEU = 0.xxxx"``."""
    return f"BLEU = {score:.4f}"


def _weighted_log(precision: float | None, weight: float) -> float | None:
    if precision is None or weight == 0:
        return None
    return weight * math.log(precision) if precision > 0 else -math.inf


def weights_view(
    stats: _bleu.BLEUStats,
    weights: Sequence[float],
    *,
    max_order: int | None = None,
    smoothing: str = "none",
    ref_length: str = "closest",
) -> WeightsView:
    """Re-score cached ``stats`` with the first ``max_order`` of ``weights`` (normalized), ``smoothing`` and
    ``ref_length``: exactly :func:`evalkit.bleu.score_stats` with those settings; nothing is recounted."""
    if not isinstance(stats, _bleu.BLEUStats):
        raise TypeError(f"stats must be BLEUStats (from count_sentence or count_corpus), got {type(stats).__name__}")
    norm = normalized_weights(weights, max_order)
    result = _bleu.score_stats(stats, weights=norm, smoothing=smoothing, ref_length=ref_length)
    used = result.weights + (0.0,) * (len(norm) - len(result.weights))
    rows = tuple(
        OrderRow(p.n, p.matches, p.total, p.value, w, _weighted_log(p.value, w))
        for p, w in zip(result.precisions, used)
    )
    return WeightsView(
        result=result,
        weights=used,
        rows=rows,
        brevity_penalty=result.brevity_penalty,
        score_text=score_text(result.score),
        bars=tuple((f"{r.n}-gram", r.weighted_log) for r in rows),
    )


# --------------------------------------------------------------------------------------------------------
# The static views: BLEU over the weight simplex, rankings along a path of weights
# --------------------------------------------------------------------------------------------------------
def simplex_weights(steps: int = 20) -> list[tuple[float, float, float]]:
    """Every (w1, w2, w3) with w_i = k_i / steps, k_i >= 0 and k1 + k2 + k3 = steps: a grid over the
    triangle of weights for 1-, 2- and 3-grams (the 4-gram weight is 0 there)."""
    check_int("steps", steps, 1)
    return [(a / steps, b / steps, (steps - a - b) / steps) for a in range(steps + 1) for b in range(steps + 1 - a)]


def simplex_scores(
    stats: _bleu.BLEUStats, steps: int = 20, *, smoothing: str = "none", ref_length: str = "closest"
) -> list[tuple[float, float, float, float]]:
    """(w1, w2, w3, BLEU) for every point of :func:`simplex_weights`, re-scoring the same ``stats``."""
    return [
        (*ws, weights_view(stats, ws, smoothing=smoothing, ref_length=ref_length).score)
        for ws in simplex_weights(steps)
    ]


def uniform_path(max_order: int = 4, steps: int = 10) -> list[tuple[float, ...]]:
    """Weights moving in straight lines from uniform BLEU-1 through BLEU-2, ... to BLEU-``max_order``
    (``steps`` moves per leg), each padded with zeros to ``max_order`` entries.

    >>> [tuple(round(w, 2) for w in ws) for ws in uniform_path(2, 2)]
    [(1.0, 0.0), (0.75, 0.25), (0.5, 0.5)]
    """
    check_int("max_order", max_order, 1)
    check_int("steps", steps, 1)

    def uniform(k: int) -> list[float]:
        return [1 / k] * k + [0.0] * (max_order - k)

    path = [tuple(uniform(1))]
    for k in range(1, max_order):
        a, b = uniform(k), uniform(k + 1)
        for i in range(1, steps + 1):
            t = i / steps
            path.append(tuple((1 - t) * x + t * y for x, y in zip(a, b)))
    return path


def rankings(
    stats_by_system: dict[str, _bleu.BLEUStats],
    path: Sequence[Sequence[float]],
    *,
    smoothing: str = "none",
    ref_length: str = "closest",
) -> dict[str, list[int]]:
    """For each system, its rank (1 = best BLEU) at every weight setting of ``path``, re-scoring the same
    statistics each time.  Equal scores share the better rank (1, 2, 2, 4), as in every evalkit table:
    :func:`evalkit.ranking.competition_ranks`."""
    if not isinstance(stats_by_system, dict) or not stats_by_system:
        raise ValueError("stats_by_system must be a non-empty dict {system name: BLEUStats}")
    ranks: dict[str, list[int]] = {name: [] for name in stats_by_system}
    for ws in path:
        scores = {
            name: _bleu.score_stats(s, weights=ws, smoothing=smoothing, ref_length=ref_length).score
            for name, s in stats_by_system.items()
        }
        for name, rank in competition_ranks(scores).items():
            ranks[name].append(rank)
    return ranks


# --------------------------------------------------------------------------------------------------------
# Presets
# --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Preset:
    """A named setting.  Fields left as None keep what the explorer shows (so a weights-only preset does
    not touch the text, and nothing is recounted).  ``weights`` are slider values: BLEU divides them by
    their sum, so (0.25, 0.25, 0.25) is uniform BLEU-3, i.e. (1/3, 1/3, 1/3)."""

    weights: tuple[float, ...] | None = None
    smoothing: str | None = None
    ref_length: str | None = None
    tokenize: str | None = None
    hypothesis: str | None = None
    references: tuple[str, ...] | None = None


ROOKIE_REFERENCE = "we need to pump those numbers up, those numbers are rookie numbers"
ROOKIE_PARAPHRASE = "we need to drive these figures up, these figures are beginner figures"
ROOKIE_SHORT = "we need to pump those numbers up"

PRESETS: dict[str, Preset] = {
    **{f"BLEU-{k} (uniform)": Preset(weights=(0.25,) * k) for k in range(1, 5)},
    "rookie numbers: paraphrase": Preset(
        weights=(0.25,) * 4, smoothing="none", ref_length="closest", tokenize="nltk",
        hypothesis=ROOKIE_PARAPHRASE, references=(ROOKIE_REFERENCE,),
    ),
    "rookie numbers: short and exact": Preset(
        weights=(0.25,) * 4, smoothing="none", ref_length="closest", tokenize="nltk",
        hypothesis=ROOKIE_SHORT, references=(ROOKIE_REFERENCE,),
    ),
    "worked example A (BLEU-2, two references)": Preset(
        weights=(0.5, 0.5), smoothing="none", ref_length="closest", tokenize="none",
        hypothesis="the cat sat on the mat", references=("the cat is on the mat", "the bird sat on the bush"),
    ),
    "worked example B (a zero 4-gram precision)": Preset(
        weights=(0.25,) * 4, smoothing="none", ref_length="closest", tokenize="none",
        hypothesis="the cat sat on the mat", references=("the cat is on the mat",),
    ),
    "closest vs shortest reference length": Preset(
        weights=(0.25,) * 4, smoothing="none", ref_length="shortest", tokenize="none",
        hypothesis="a b c d e f g h i j",
        references=("a b c d e f g h", "a b c d e f g h i j k"),
    ),
}


def preset(name: str) -> Preset:
    """The preset called ``name`` (one of ``PRESETS``)."""
    return PRESETS[check_choice("preset", name, PRESETS)]


# --------------------------------------------------------------------------------------------------------
# What the explorer draws: its table as HTML and its bars as SVG (no pandas, no matplotlib: both are
# rebuilt on every slider move; tables.weights_table and plots.weighted_log_bars are the same views for a
# notebook cell)
# --------------------------------------------------------------------------------------------------------
def _cell(x: float | None, fmt: str = "{:.4f}") -> str:
    if x is None:
        return "–"
    if isinstance(x, float) and math.isinf(x):
        return "−∞"
    return fmt.format(x)


def weights_table_html(view: WeightsView) -> str:
    """The explorer's per-order table as HTML: n, matches / total, the precision and weight as used, w·log p."""
    head = "".join(f"<th>{h}</th>" for h in ("n", "matches / total", "precision", "weight", "w·log p"))
    body = "".join(
        f"<tr><td>{r.n}</td><td>{r.matches} / {r.total}</td><td>{_cell(r.precision)}</td>"
        f"<td>{_cell(r.weight)}</td><td>{_cell(r.weighted_log)}</td></tr>"
        for r in view.rows
    )
    style = (
        "<style>.evalkit-weights-table th, .evalkit-weights-table td {padding: 2px 10px; text-align: right}"
        ".evalkit-weights-table {margin-right: 24px; border-collapse: collapse}</style>"
    )
    return f'{style}<table class="evalkit-weights-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def weighted_log_bars_svg(view: WeightsView, width: int = 320) -> str:
    """The explorer's bar chart (``view.log_terms``) as a small SVG, redrawn in well under a millisecond:
    one bar per order for w_n·log p_n, then log BP and log BLEU = their sum; a bar reaching the left
    edge and marked −∞ is a zero factor."""
    items = view.log_terms
    finite = [abs(v) for _, v in items if v is not None and math.isfinite(v)]
    scale = max(finite + [1e-12])
    label_w, value_w, bar_h, gap = 70, 64, 16, 6
    plot_w = width - label_w - value_w
    height = len(items) * (bar_h + gap) + gap
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" class="evalkit-log-bars">']
    for i, (label, v) in enumerate(items):
        y = gap + i * (bar_h + gap)
        parts.append(f'<text x="0" y="{y + bar_h - 4}" font-size="12">{label}</text>')
        if v is None:
            text, length = "weight 0", 0.0
        elif math.isinf(v):
            text, length = "−∞", plot_w
        else:
            text, length = f"{v:.4f}", plot_w * abs(v) / scale
        color = "#4c72b0" if i < len(view.bars) else ("#dd8452" if label == "log BP" else "#55a868")
        x0 = label_w + plot_w - length  # bars grow leftwards from 0 (every term is <= 0)
        parts.append(f'<rect x="{x0:.1f}" y="{y}" width="{length:.1f}" height="{bar_h}" fill="{color}"/>')
        parts.append(f'<text x="{label_w + plot_w + 4}" y="{y + bar_h - 4}" font-size="12">{text}</text>')
    parts.append("</svg>")
    return "".join(parts)


# --------------------------------------------------------------------------------------------------------
# The widget layer (ipywidgets, imported when an explorer is built)
# --------------------------------------------------------------------------------------------------------
def _split_references(text: str) -> list[str]:
    """The references text box holds one reference per line; blank lines are ignored."""
    return [line for line in text.splitlines() if line.strip()]


class WeightsExplorer:
    """Sliders for the n-gram weights, a max-order choice, dropdowns for smoothing, tokenizer and
    reference-length rule, text boxes for the hypothesis and the references (one per line), and presets.

    Every change redraws the per-order table, the brevity penalty, ``BLEU = 0.xxxx`` and the bars of
    w_n * log p_n.  Changing the text or the tokenizer counts again; anything else only re-scores.
    Pass ``corpus=(hypotheses, references)`` to explore a whole corpus (the text boxes are then hidden).
    The references given to the constructor are scored as given (so the explorer's number equals
    :func:`evalkit.bleu.sentence_bleu` even for a reference that contains a newline) until the box is edited;
    then every non-blank line of the box is one reference.

    ``explorer.view`` is the current :class:`WeightsView`; ``explorer.last_update_s`` the seconds the last
    update took, from the change to the new numbers on the widgets.
    """

    def __init__(
        self,
        hypothesis: str = ROOKIE_PARAPHRASE,
        references: Sequence[str] = (ROOKIE_REFERENCE,),
        *,
        weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
        smoothing: str = "none",
        tokenize: str = "nltk",
        ref_length: str = "closest",
        corpus: tuple[Sequence[str], Sequence[Sequence[str]]] | None = None,
        title: str = "",
    ) -> None:
        import ipywidgets as w

        raw = check_weights(weights)
        if max(raw) > 1:  # sliders run from 0 to 1; scaling keeps the normalized weights the same
            raw = tuple(x / max(raw) for x in raw)
        if len(raw) > COUNT_ORDER:
            raise ValueError(f"the explorer offers at most {COUNT_ORDER} orders, got {len(raw)} weights")
        check_choice("smoothing", smoothing, SMOOTHING)
        check_choice("tokenizer", tokenize, TOKENIZERS)
        check_choice("ref_length", ref_length, REF_LENGTHS)
        self._corpus = corpus
        if corpus is None:
            check_text(hypothesis, "hypothesis")
            if not isinstance(hypothesis, str):
                raise TypeError("hypothesis must be a str (the explorer shows it in a text box)")
            refs = list(check_references(references))
            for j, ref in enumerate(refs):
                if not isinstance(ref, str):
                    raise TypeError(f"references[{j}] must be a str (the explorer shows one reference per line)")
        else:
            refs = []
        # The references as given: shown one per line in the text box, but scored as given for as long as
        # the box is not edited (a reference may itself contain a newline, which the box cannot show).
        self._given_references = tuple(refs)
        self._holding = False
        self._stats: _bleu.BLEUStats | None = None
        self._counted_key: tuple | None = None
        self.view: WeightsView | None = None
        self.error: str | None = None
        self.last_update_s: float | None = None

        slider_style = {"description_width": "90px"}
        padded = list(raw) + [0.0] * (COUNT_ORDER - len(raw))
        self.sliders = [
            w.FloatSlider(
                value=padded[n - 1], min=0.0, max=1.0, step=0.05, description=f"w{n} ({n}-gram)",
                continuous_update=True, readout_format=".2f", style=slider_style,
                layout=w.Layout(width="420px"),
            )
            for n in MAX_ORDERS
        ]
        for n, s in enumerate(self.sliders, start=1):
            s.add_class(f"evalkit-weight-{n}")
        self.max_order = w.Dropdown(options=list(MAX_ORDERS), value=len(raw), description="max order")
        self.smoothing = w.Dropdown(options=list(SMOOTHING), value=smoothing, description="smoothing")
        self.tokenize = w.Dropdown(options=list(TOKENIZERS), value=tokenize, description="tokenizer")
        self.ref_length = w.Dropdown(options=list(REF_LENGTHS), value=ref_length, description="ref length")
        self.preset = w.Dropdown(options=["(choose a preset)", *PRESETS], value="(choose a preset)",
                                 description="preset")
        self.hypothesis = w.Textarea(value=hypothesis if corpus is None else "", description="hypothesis",
                                     layout=w.Layout(width="640px", height="48px"))
        self.references = w.Textarea(value="\n".join(refs), description="references",
                                     placeholder="one reference per line",
                                     layout=w.Layout(width="640px", height="72px"))
        self.weights_text = w.HTML()
        self.score = w.HTML()
        self.score.add_class("evalkit-bleu-score")
        self.details = w.HTML()
        self.table = w.HTML()
        self.bars = w.HTML()

        for s in self.sliders:
            s.observe(self._on_score_change, names="value")
        for d in (self.max_order, self.smoothing, self.ref_length):
            d.observe(self._on_score_change, names="value")
        for d in (self.tokenize, self.hypothesis, self.references):
            d.observe(self._on_text_change, names="value")
        self.preset.observe(self._on_preset, names="value")

        texts = [] if corpus is not None else [self.hypothesis, self.references]
        header = [w.HTML(f"<b>{html.escape(title)}</b>")] if title else []
        self.widget = w.VBox(
            header
            + texts
            + [
                w.HBox([self.preset, self.max_order]),
                w.HBox([self.tokenize, self.smoothing, self.ref_length]),
                w.VBox(self.sliders),
                self.weights_text,
                self.score,
                self.details,
                w.HBox([self.table, self.bars]),
            ]
        )
        self.widget.add_class("evalkit-weights-explorer")
        self._sync_slider_visibility()
        self.update(recount=True)

    # -- state ---------------------------------------------------------------------------------------
    @property
    def raw_weights(self) -> tuple[float, ...]:
        """The slider values of the orders in use (before normalizing)."""
        return tuple(s.value for s in self.sliders[: self.max_order.value])

    def _text_key(self) -> tuple:
        if self._corpus is not None:
            return ("corpus", self.tokenize.value)
        return (self.hypothesis.value, self.references.value, self.tokenize.value)

    def _count(self) -> _bleu.BLEUStats:
        if self._corpus is not None:
            hyps, refs = self._corpus
            return count_corpus(hyps, refs, self.tokenize.value)
        if self.references.value == "\n".join(self._given_references):
            refs = list(self._given_references)  # unedited: exactly what sentence_bleu would be given
        else:
            refs = _split_references(self.references.value)
        if not refs:
            raise ValueError("write at least one reference (one per line)")
        return count_sentence(self.hypothesis.value, refs, self.tokenize.value)

    # -- updates -------------------------------------------------------------------------------------
    def update(self, recount: bool = False) -> None:
        """Recount if asked (or if the text changed since the last count), then re-score and redraw."""
        start = time.perf_counter()
        try:
            if recount or self._stats is None or self._counted_key != self._text_key():
                self._stats = None
                self._stats = self._count()
                self._counted_key = self._text_key()
            view = weights_view(
                self._stats, self.raw_weights, smoothing=self.smoothing.value, ref_length=self.ref_length.value
            )
        except (ValueError, TypeError) as exc:
            self.view, self.error = None, str(exc)
            message = html.escape(str(exc))
            self.score.value = f'<span class="evalkit-bleu">BLEU = –</span> <span style="color:#b00">{message}</span>'
            self.weights_text.value = self.details.value = self.table.value = self.bars.value = ""
        else:
            self.view, self.error = view, None
            ws = ", ".join(f"{x:.4f}" for x in view.weights)
            self.weights_text.value = f"weights as used (normalized to sum 1): <code>({ws})</code>"
            self.score.value = f'<span class="evalkit-bleu" style="font-size:1.4em"><b>{view.score_text}</b></span>'
            res = view.result
            self.details.value = (
                f"brevity penalty BP = {view.brevity_penalty:.4f} (hypothesis length c = {res.hyp_len}, "
                f"reference length r = {res.ref_len}, rule: {self.ref_length.value})"
            )
            self.table.value = weights_table_html(view)
            self.bars.value = weighted_log_bars_svg(view)
        self.last_update_s = time.perf_counter() - start

    def _on_score_change(self, change: dict) -> None:
        if change.get("owner") is self.max_order:
            self._sync_slider_visibility()
        if not self._holding:
            self.update()

    def _on_text_change(self, change: dict) -> None:
        if not self._holding:
            self.update(recount=True)

    def _sync_slider_visibility(self) -> None:
        for n, s in enumerate(self.sliders, start=1):
            s.layout.display = None if n <= self.max_order.value else "none"

    def apply_preset(self, name: str) -> None:
        """Set the widgets to the preset called ``name``; one update at the end (a recount only if the
        preset changes the text or the tokenizer)."""
        p = preset(name)
        self._holding = True
        try:
            if p.weights is not None:
                self.max_order.value = len(p.weights)
                for s, x in zip(self.sliders, list(p.weights) + [0.0] * COUNT_ORDER):
                    s.value = x
            if p.smoothing is not None:
                self.smoothing.value = p.smoothing
            if p.ref_length is not None:
                self.ref_length.value = p.ref_length
            if self._corpus is None:
                if p.tokenize is not None:
                    self.tokenize.value = p.tokenize
                if p.hypothesis is not None:
                    self.hypothesis.value = p.hypothesis
                if p.references is not None:
                    self.references.value = "\n".join(p.references)
        finally:
            self._holding = False
        self._sync_slider_visibility()
        self.update()

    def _on_preset(self, change: dict) -> None:
        if change["new"] in PRESETS:
            self.apply_preset(change["new"])

    # -- display -------------------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        # A short, stable text form: what a reader without the widget front end (and nbval) sees.
        bundle["text/plain"] = repr(self)
        return bundle

    def __repr__(self) -> str:
        shown = self.view.score_text if self.view is not None else f"error: {self.error}"
        return f"WeightsExplorer({shown})"


__all__ = [
    "COUNT_ORDER",
    "MAX_ORDERS",
    "OrderRow",
    "PRESETS",
    "Preset",
    "TOKENIZERS",
    "WeightsExplorer",
    "WeightsView",
    "count_corpus",
    "count_sentence",
    "normalized_weights",
    "preset",
    "score_text",
    "tokenize_text",
    "weighted_log_bars_svg",
    "weights_table_html",
    "weights_view",
]
