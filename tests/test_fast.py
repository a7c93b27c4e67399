"""evalkit.fast's engines and caches (and the caches of evalkit.tokenize they share): bounded in memory, safe
under threads, drawing what one big draw would."""

from __future__ import annotations


# ==========================================================================================================
# Moved from tests/test_fast_caches.py (marks: hardening):
# evalkit's caches are bounded by memory: a stream of large inputs never takes a cache over its byte
# budget, an entry too large for its cache is not kept, the byte accounting agrees with what tracemalloc
# measures (within a factor of 2), and the tokenizer caches of evalkit.tokenize keep short texts only.
# (Issue 10: the ROUGE profile cache held 3.9 GB; 4 reference indexes held 3.0 GB for a 167 MB input.)
# ==========================================================================================================
import gc  # noqa: E402
import sys  # noqa: E402
import random  # noqa: E402
import tracemalloc  # noqa: E402
import pytest  # noqa: E402
import evalkit  # noqa: E402
from evalkit import bleu  # noqa: E402
from evalkit import chrf  # noqa: E402
from evalkit import fast  # noqa: E402
from evalkit import rouge_many  # noqa: E402
from evalkit import tokenize  # noqa: E402


WORDS = [f"word{i}" for i in range(3000)]


def documents(count: int, length: int, seed: int) -> list[str]:
    gen = random.Random(seed)
    return [" ".join(gen.choice(WORDS) for _ in range(length)) for _ in range(count)]


@pytest.fixture
def cold():
    evalkit.clear_caches()
    yield
    evalkit.clear_caches()


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_bounded_cache_evicts_least_recently_used_and_refuses_huge_entries():
    cache = fast.BoundedCache("test", budget=1000, largest_share=0.5)
    for i in range(10):
        cache.put(i, f"v{i}", nbytes=300)
        cache.get(0)  # 0 is always the most recently used: it stays
        assert cache.info().nbytes <= 1000
    assert cache.get(0) == "v0" and cache.get(9) == "v9" and cache.get(8) == "v8" and cache.get(1) is None
    assert cache.put("huge", "h", nbytes=501) == "h" and cache.get("huge") is None
    assert cache.info() == fast.CacheInfo(entries=3, nbytes=900, budget=1000)  # 0, 9, 8 from oldest use
    v9 = cache.get(9)  # the very object kept (grow checks identity); the order stays 0, 9, 8
    cache.get(8)
    cache.grow(9, v9, 200)  # something derived kept with entry 9: it counts, and the oldest (0) goes
    assert cache.info() == fast.CacheInfo(entries=2, nbytes=800, budget=1000) and cache.get(0) is None
    cache.grow(9, "not the value kept", 10_000)  # another object under that key: not charged
    assert cache.info().nbytes == 800
    cache.grow(9, v9, 1)  # entry 9 grows past half the budget: it goes itself
    assert cache.get(9) is None and cache.info().nbytes == 300


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_profile_cache_stays_within_budget_under_long_documents(monkeypatch):
    cache = fast.bounded_caches()["text profiles"]
    monkeypatch.setattr(cache, "budget", 3_000_000)
    reference = documents(1, 2000, seed=0)[0]
    high = 0
    for doc in documents(60, 1500, seed=1):  # ROUGE-L masks of 1,500-token documents: ~0.3 MB each
        rouge_many.rouge_scores(doc, [reference], ["rouge1", "rouge2", "rougeL"])
        rouge_many.rouge_scores(reference, [doc], ["rougeL"])  # each document as a reference: its masks
        high = max(high, cache.info().nbytes)
        assert cache.info().nbytes <= cache.budget
    assert high > cache.budget / 2  # the stream did fill the cache (the bound was tested, not idle)
    assert evalkit.cache_info()["text profiles"] < 60  # some were evicted


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_reference_index_cache_keeps_what_fits_and_skips_an_index_too_large(monkeypatch, wmt17):
    reference, systems = wmt17
    cache = fast.bounded_caches()["reference indexes"]
    corpora = [[[r] for r in reference[i:i + 300]] for i in range(0, 1500, 300)]
    hyps = systems[next(iter(systems))]
    one = fast.reference_index(corpora[0], "13a", False, 4)
    per_index = cache.info().nbytes
    assert per_index > one.nbytes() > 0
    monkeypatch.setattr(cache, "budget", int(2.5 * per_index))  # room for two such indexes
    for i, refs in enumerate(corpora):
        stats = bleu.corpus_stats(hyps[300 * i:300 * i + 300], refs, tokenize="13a")
        assert stats == bleu.corpus_stats(hyps[300 * i:300 * i + 300], refs, tokenize="13a", fast=False)
        assert cache.info().nbytes <= cache.budget and len(cache) <= 2
    evalkit.clear_caches()
    monkeypatch.setattr(cache, "budget", 3 * per_index)  # a quarter of it: less than one index
    fast.reference_index(corpora[0], "13a", False, 4)
    assert len(cache) == 0


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_tokenize_caches_keep_short_texts_only():
    short, long = "a short segment .", "a long document " * 100
    tokenize.tokenize_13a_fast(short)
    tokenize.tokenize_13a_fast(long)
    tokenize.stem("running")
    tokenize.stem("x" * 100)
    assert evalkit.cache_info()["tokenize 13a (fast)"] == 1 and evalkit.cache_info()["tokenize stem"] == 1
    assert tokenize.tokenize_13a_fast(long) == tuple(tokenize.tokenize_13a(long))  # same tokens uncached
    info = evalkit.cache_info(memory=True)["tokenize 13a (fast)"]
    # counted in bytes, within the tokenizer caches' part of the overall cap (issue 32, item 5)
    assert info.nbytes == tokenize.text_entry_bytes(short, tokenize.tokenize_13a_fast(short))
    for text in ("Über die Brücke .", "猫坐在垫子上。", "𠀀 and 猫"):  # 1, 2 and 4 bytes a character
        before = evalkit.cache_info(memory=True)["tokenize 13a (fast)"].nbytes
        tokens = tokenize.tokenize_13a_fast(text)
        after = evalkit.cache_info(memory=True)["tokenize 13a (fast)"].nbytes
        assert after - before == tokenize.text_entry_bytes(text, tokens)
        assert tokenize.tokens_nbytes(tokens, text) >= sys.getsizeof(tokens) + sum(map(sys.getsizeof, tokens))
    assert info.budget == tokenize.text_cache_budget() == fast.total_cache_budget() // tokenize.TEXT_CACHE_PART


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_every_cache_reports_entries_and_bytes_and_clears():
    rouge_many.rouge_scores("the cats sat", ["the cat sat"], stemmer=True)
    bleu.corpus_bleu(["the cat sat"], [["the cat sat down"]], tokenize="13a")
    bleu.corpus_bleu(["the cat sat"], [["the cat sat down"]], tokenize="none")
    chrf.corpus_chrf(["the cat sat"], [["the cat sat down"]])
    info = evalkit.cache_info(memory=True)
    assert set(info) >= {"text profiles", "reference indexes", "chrF references", "cached tokenizer none",
                         "tokenize 13a (fast)", "tokenize stem"}
    for name, entry in info.items():
        assert isinstance(entry, fast.CacheInfo)
        if entry.nbytes is not None:
            assert (entry.entries > 0) == (entry.nbytes > 0) and entry.nbytes <= entry.budget, name
    total = info.pop("total")  # the byte-counted caches together, under the overall cap
    counted = [entry for entry in info.values() if entry.nbytes is not None]
    assert total == fast.CacheInfo(sum(e.entries for e in counted), sum(e.nbytes for e in counted),
                                   fast.total_cache_budget())
    assert evalkit.cache_info() == {name: entry.entries for name, entry in info.items()}
    evalkit.clear_caches()
    assert all(e.entries == 0 and e.nbytes in (0, None) for e in evalkit.cache_info(memory=True).values())


# Issue 19: the per-cache budgets added up to 5.9 GiB with no overall cap.  One cap bounds the byte-counted
# caches together (fast.set_total_cache_budget, or EVALKIT_CACHE_BUDGET read once at import).
@pytest.fixture
def total_budget():
    """Restores the overall cap (and empties the caches) after a test that changes it."""
    previous = fast.total_cache_budget()
    evalkit.clear_caches()
    yield
    fast.set_total_cache_budget(previous)
    evalkit.clear_caches()


def held_bytes() -> int:
    return evalkit.cache_info(memory=True)["total"].nbytes


@pytest.mark.hardening
def test_one_cap_bounds_every_cache_together(total_budget, wmt17):
    """Scoring with BLEU (two tokenizers), chrF and ROUGE fills five caches whose own budgets add up to far
    more than the cap; their total stays within the cap after every call, and the scores do not change."""
    reference, systems = wmt17
    refs = [[r] for r in reference[:300]]
    hyps = systems["uedin-nmt"][:300]
    expected = [bleu.corpus_bleu(hyps, refs, tokenize="13a", fast=False).score,
                bleu.corpus_bleu(hyps, refs, tokenize="none", fast=False).score,
                chrf.corpus_chrf(hyps, refs, fast=False).score]
    evalkit.clear_caches()
    cap = 150_000
    assert fast.set_total_cache_budget(cap) == fast.DEFAULT_TOTAL_CACHE_BUDGET == 2**30
    budgets = sum(cache.budget for cache in fast.bounded_caches().values())
    assert budgets > 1000 * cap
    scores, highest = [], 0
    for _ in range(2):
        scores = [bleu.corpus_bleu(hyps, refs, tokenize="13a").score]
        highest = max(highest, held_bytes())
        scores.append(bleu.corpus_bleu(hyps, refs, tokenize="none").score)
        highest = max(highest, held_bytes())
        scores.append(chrf.corpus_chrf(hyps, refs).score)
        highest = max(highest, held_bytes())
        for h, r in zip(hyps[:100], refs[:100]):
            rouge_many.rouge_scores(h, r, ["rouge1", "rougeL"])
        highest = max(highest, held_bytes())
        assert scores == expected
    assert cap / 2 < highest <= cap  # the caches did fill up to the cap (it was tested, not idle)
    assert sum(1 for entry in evalkit.cache_info().values() if entry) >= 2  # more than one cache holds entries
    assert fast._held + tokenize.text_cache_bytes() == held_bytes()  # the running total agrees with the caches' own counts
    fast.set_total_cache_budget(cap // 10)  # a lower cap forgets what is over it at once
    assert held_bytes() <= cap // 10
    fast.set_total_cache_budget(0)  # nothing kept at all
    assert held_bytes() == 0 and fast._held == 0 == tokenize.text_cache_bytes()
    assert bleu.corpus_bleu(hyps, refs, tokenize="13a").score == expected[0] and held_bytes() == 0


@pytest.mark.hardening
def test_the_cap_holds_under_threads(total_budget, tiny_switch_interval, wmt17):
    """Six threads fill different caches at once under a small cap: no deadlock, the same scores, the total
    within the cap, and the running total equal to the caches' own counts."""
    reference, systems = wmt17
    refs = [[r] for r in reference[:120]]
    jobs = [(name, metric) for name in list(systems)[:3] for metric in ("bleu-13a", "bleu-none", "chrf", "rouge")]

    def score(job):
        name, metric = job
        hyps = systems[name][:120]
        if metric == "chrf":
            return chrf.corpus_chrf(hyps, refs).score
        if metric == "rouge":
            return [rouge_many.rouge_scores(h, r, ["rouge1"])["rouge1"].fmeasure for h, r in zip(hyps, refs)]
        return bleu.corpus_bleu(hyps, refs, tokenize=metric[5:]).score

    expected = [score(job) for job in jobs]
    evalkit.clear_caches()
    fast.set_total_cache_budget(100_000)
    for _ in range(3):
        with ThreadPoolExecutor(max_workers=6) as pool:
            assert list(pool.map(score, jobs * 2)) == expected * 2
        assert 0 < held_bytes() <= 100_000 and fast._held + tokenize.text_cache_bytes() == held_bytes()


@pytest.mark.hardening
def test_setting_the_cap_checks_its_argument(total_budget):
    import numpy as np

    with pytest.raises(ValueError, match="nbytes must be at least 0"):
        fast.set_total_cache_budget(-1)
    for bad in ("1G", 1.5, None, True):
        with pytest.raises(TypeError, match="nbytes must be an int"):
            fast.set_total_cache_budget(bad)
    fast.set_total_cache_budget(np.int64(2**20))
    assert fast.total_cache_budget() == 2**20 and evalkit.cache_info(memory=True)["total"].budget == 2**20
    for bad in ("no", 1, None):
        with pytest.raises(TypeError, match="memory must be True or False"):
            evalkit.cache_info(memory=bad)
    assert evalkit.cache_info(memory=np.bool_(False)) == evalkit.cache_info()


@pytest.mark.hardening
def test_the_cap_comes_from_the_environment_once_at_import():
    """EVALKIT_CACHE_BUDGET, read when evalkit.fast is imported: bytes or a number with K, M, G; a bad value
    is a ValueError naming the variable."""
    import subprocess
    import sys

    assert (fast.parse_budget("1000"), fast.parse_budget("64M"), fast.parse_budget("2 GiB")) == (1000, 64 * 2**20,
                                                                                                  2 * 2**30)
    with pytest.raises(ValueError, match="512M"):
        fast.parse_budget("lots")
    code = "import evalkit.fast as f; print(f.total_cache_budget())"

    def run(value):
        env = {**__import__("os").environ, "EVALKIT_CACHE_BUDGET": value}
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)

    assert run("64M").stdout.strip() == str(64 * 2**20)
    bad = run("-5")
    assert bad.returncode != 0 and "EVALKIT_CACHE_BUDGET" in bad.stderr and "ValueError" in bad.stderr


def measured_and_accounted(fill, *cache_names: str) -> tuple[int, int]:
    """(bytes tracemalloc sees kept after ``fill(full=True)``, bytes the named caches count).  ``fill``
    makes its inputs and drops them, so that what remains is what the caches hold; ``fill(full=False)``
    runs first on a small input, so that lazy imports and first-use set-up are not measured."""
    fill(full=False)
    evalkit.clear_caches()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        fill(full=True)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    info = evalkit.cache_info(memory=True)
    return after - before, sum(info[name].nbytes for name in cache_names)


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_profile_accounting_agrees_with_tracemalloc():
    def fill(full):
        docs = documents(40 if full else 2, 800, seed=2)
        for doc in docs[1:]:
            rouge_many.rouge_scores(doc, [docs[0]], ["rouge1", "rouge2", "rougeL"])
            rouge_many.rouge_scores(docs[0], [doc], ["rougeL"])

    measured, accounted = measured_and_accounted(fill, "text profiles")
    assert evalkit.cache_info()["text profiles"] == 40
    assert measured / 2 <= accounted <= measured * 2, (measured, accounted)


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_reference_index_accounting_agrees_with_tracemalloc(wmt17):
    reference, _ = wmt17

    def fill(full):
        refs = [[r + " ."] for r in reference[:None if full else 10]]  # new strings, made while measured
        fast.reference_index(refs, "none", False, 4)

    measured, accounted = measured_and_accounted(fill, "reference indexes", "cached tokenizer none")
    assert evalkit.cache_info()["reference indexes"] == 1
    assert measured / 2 <= accounted <= measured * 2, (measured, accounted)


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_token_cache_accounting_agrees_with_tracemalloc(wmt17):
    reference, _ = wmt17

    def fill(full):
        tokens_of = fast.cached_tokenizer("none")
        for r in reference[:None if full else 10]:
            tokens_of(r + " .")  # a new string, made while measured

    measured, accounted = measured_and_accounted(fill, "cached tokenizer none")
    assert measured / 2 <= accounted <= measured * 2, (measured, accounted)


@pytest.mark.hardening
@pytest.mark.usefixtures('cold')
def test_chrf_reference_cache_is_reported_cleared_and_accounted(wmt17):
    """chrF's reference side (evalkit.chrf's fast way) is one of the caches evalkit.cache_info reports and
    evalkit.clear_caches empties, and its byte count agrees with what tracemalloc sees kept."""
    reference, systems = wmt17
    hypothesis = systems["uedin-nmt"]

    def fill(full):
        refs = [[r + " ."] for r in reference[:None if full else 10]]
        chrf.corpus_chrf(hypothesis[:len(refs)], refs, word_order=2)

    measured, accounted = measured_and_accounted(fill, "chrF references")
    assert evalkit.cache_info()["chrF references"] == 1
    assert measured / 2 <= accounted <= measured * 2, (measured, accounted)
    evalkit.clear_caches()
    assert evalkit.cache_info(memory=True)["chrF references"].nbytes == 0


# ==========================================================================================================
# Moved from tests/test_fast_threads.py (marks: hardening):
# evalkit's caches under threads: many threads scoring against one shared, cached reference get the same
# numbers as the readable code.  (Issue 10: the ROUGE-L bit masks of a cached reference were published
# half-built, and 4 threads scoring against one long reference gave 29 of 40 wrong ROUGE-L values.)
# ==========================================================================================================
import sys  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from evalkit import lcs  # noqa: E402
from evalkit import rouge  # noqa: E402


WORDS_THREADS = [f"w{i}" for i in range(200)]


def chinese_texts(count: int, length: int, seed: int) -> list[str]:
    """Texts of random CJK ideographs: under "zh" each character is a token of its own, a string object that
    CPython does not share (it shares the one-character Latin-1 strings only)."""
    gen = random.Random(seed)
    return ["".join(chr(gen.randrange(0x4E00, 0x9FA5)) for _ in range(length)) for _ in range(count)]


# Issue 32, item 5: "The `zh` tokenizer cache entries are about 4x their stated bound (45 KB for a
# 512-character Chinese text against 11 KB: a full cache ~2.8 GB, outside the 1 GiB overall cap). Count
# non-Latin-1 one-character tokens, and keep every cache under the one cap (a test fills it with Chinese
# text and reads the total)."
@pytest.mark.hardening
def test_zh_cache_filled_with_chinese_text_stays_within_the_cap_and_counts_honestly(total_budget):
    cap = 8 * 2**20
    fast.set_total_cache_budget(cap)
    part = tokenize.text_cache_budget()
    assert part == cap // tokenize.TEXT_CACHE_PART
    texts = chinese_texts(200, 512, seed=3)  # about 43 KB each once tokenized: 8.6 MB in all, 4 times the part
    cached_zh = fast.cached_tokenizer("zh")  # the fast paths' byte-counted cache of "zh" too
    high = 0
    for text in texts:
        assert tokenize.tokenize_zh(text) == list(text)
        assert cached_zh(text) == tuple(text)
        info = evalkit.cache_info(memory=True)
        high = max(high, info["tokenize zh"].nbytes)
        assert info["tokenize zh"].nbytes <= part and info["total"].nbytes <= cap
    assert high > part / 2  # the stream did fill the cache up to its bound
    assert evalkit.cache_info()["tokenize zh"] < len(texts)  # some were forgotten

    # what the count says against what tracemalloc sees kept: an honest count is not below it (but for the
    # interpreter's own small allocations around it, well under 1%)
    def fill(full):
        for text in chinese_texts(100 if full else 2, 512, seed=4):
            tokenize.tokenize_zh(text)

    fast.set_total_cache_budget(2**30)
    measured, accounted = measured_and_accounted(fill, "tokenize zh")
    assert evalkit.cache_info()["tokenize zh"] == 100
    assert 0.99 * measured <= accounted <= 1.25 * measured, (measured, accounted)
    assert accounted / 100 > 40_000  # 512 ideographs: 512 strings of 76 bytes, a tuple, the text

    def fill_fast(full):
        tokens_of = fast.cached_tokenizer("zh")
        for text in chinese_texts(100 if full else 2, 512, seed=5):
            tokens_of(text)

    # the fast paths' cache keeps the tokens that tokenize_zh's own cache made (shared strings, counted twice)
    measured, accounted = measured_and_accounted(fill_fast, "cached tokenizer zh", "tokenize zh")
    assert 0.99 * measured <= accounted <= 2.5 * measured, (measured, accounted)


@pytest.mark.hardening
def test_tokenize_caches_stay_within_their_part_under_threads(total_budget, tiny_switch_interval):
    """Four threads fill the zh, intl and 13a caches of evalkit.tokenize with Chinese text under a small cap:
    the same tokens as uncached, the total within its part after every round, and the running total equal
    to the caches' own counts."""
    fast.set_total_cache_budget(4 * 2**20)
    texts = chinese_texts(120, 200, seed=6)
    jobs = [(name, texts[i::4]) for name in ("zh", "intl", "13a") for i in range(4)]
    expected = [[tokenize.tokenize(t, name) for t in part] for name, part in jobs]

    def run(job):
        name, part = job
        return [tokenize.tokenize(t, name) for t in part]

    for _ in range(3):
        with ThreadPoolExecutor(max_workers=4) as pool:
            assert list(pool.map(run, jobs)) == expected
        info = evalkit.cache_info(memory=True)
        counted = sum(info[f"tokenize {name}"].nbytes for name in tokenize.cached_functions())
        assert 0 < counted == tokenize.text_cache_bytes() <= tokenize.text_cache_budget()
        assert info["total"].nbytes <= fast.total_cache_budget()


@pytest.fixture
def tiny_switch_interval():
    """Let the interpreter switch threads every microsecond (the default is 5 ms), so that a thread meets
    another one's half-finished work if there is any to meet."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


@pytest.mark.hardening
def test_rouge_l_of_many_threads_against_one_long_reference(tiny_switch_interval):
    gen = random.Random(0)
    reference = " ".join(gen.choice(WORDS_THREADS) for _ in range(4000))
    hypotheses = [" ".join(gen.choice(WORDS_THREADS) for _ in range(gen.randint(3, 15))) for _ in range(40)]
    ref_tokens = rouge.rouge_tokens(reference)
    expected = [lcs.lcs_length(rouge.rouge_tokens(h), ref_tokens) for h in hypotheses]  # the readable DP
    assert len(set(expected)) > 3  # the hypotheses differ in their answer, so a wrong mask shows

    def lcs_hits(hypothesis):
        return rouge_many.rouge_scores(hypothesis, [reference], ["rougeL"])["rougeL"].stats.matches

    wrong = 0
    for _ in range(6):
        evalkit.clear_caches()
        rouge_many.rouge_scores(reference, [reference], ["rouge1"])  # the reference's profile cached, no masks yet
        with ThreadPoolExecutor(max_workers=6) as pool:
            got = list(pool.map(lcs_hits, hypotheses))
        wrong += sum(g != e for g, e in zip(got, expected))
    assert wrong == 0, f"{wrong} of {6 * len(hypotheses)} ROUGE-L values wrong under threads"


@pytest.mark.hardening
def test_rouge_n_of_many_threads_against_shared_profiles(tiny_switch_interval):
    gen = random.Random(1)
    references = [" ".join(gen.choice(WORDS_THREADS[:30]) for _ in range(300)) for _ in range(3)]
    hypotheses = [" ".join(gen.choice(WORDS_THREADS[:30]) for _ in range(gen.randint(1, 40))) for _ in range(60)]
    expected = [[rouge.rouge_n(h, [r], n).stats.matches for n in (1, 2, 3) for r in references] for h in hypotheses]

    def hits(hypothesis):
        scores = [rouge_many.rouge_scores(hypothesis, [r], ["rouge1", "rouge2", "rouge3"]) for r in references]
        return [s[f"rouge{n}"].stats.matches for n in (1, 2, 3) for s in scores]

    for _ in range(3):
        evalkit.clear_caches()
        with ThreadPoolExecutor(max_workers=6) as pool:
            assert list(pool.map(hits, hypotheses)) == expected


@pytest.mark.hardening
def test_corpus_bleu_from_many_threads_while_caches_evict(tiny_switch_interval, wmt17, monkeypatch):
    """Threads scoring systems against two reference corpora in turn, with budgets so small that the
    caches evict all the time: every statistic equals the readable count, and every cache stays within its
    budget by its own accounting."""
    reference, systems = wmt17
    refs_a = [[r] for r in reference[:150]]
    refs_b = [[r] for r in reference[150:300]]
    outputs = [(name, refs) for name in list(systems)[:4] for refs in (refs_a, refs_b)]
    offset = {id(refs_a): 0, id(refs_b): 150}
    expected = {(name, id(refs)): bleu.corpus_stats(systems[name][offset[id(refs)]:offset[id(refs)] + 150], refs,
                                                    tokenize="13a", fast=False) for name, refs in outputs}
    evalkit.clear_caches()
    for cache in fast.bounded_caches().values():  # room for a few entries: eviction on most inserts
        monkeypatch.setattr(cache, "budget", 50_000)
    monkeypatch.setattr(fast.bounded_caches()["reference indexes"], "budget", 800_000)  # one or two indexes
    monkeypatch.setattr(fast.bounded_caches()["reference indexes"], "largest_share", 0.5)

    def score(job):
        name, refs = job
        hyps = systems[name][offset[id(refs)]:offset[id(refs)] + 150]
        return (bleu.corpus_stats(hyps, refs, tokenize="13a"),
                bleu.segment_matrix(hyps, refs, tokenize="13a").sum(axis=0).tolist())

    with ThreadPoolExecutor(max_workers=6) as pool:
        for job, (indexed, summed_rows) in zip(outputs * 3, pool.map(score, outputs * 3)):
            name, refs = job
            s = expected[(name, id(refs))]
            assert indexed == s
            assert summed_rows == [s.hyp_len, s.closest_ref_len, s.shortest_ref_len, *s.matches, *s.totals, *s.empty]
    for name, cache in fast.bounded_caches().items():
        assert cache.info().nbytes <= cache.budget, name
    assert len(fast.bounded_caches()["reference indexes"])
