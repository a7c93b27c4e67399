"""The lesson site (`make site`) in a real browser: Chromium reads every lesson page of an edition, served
from 127.0.0.1, with every request to anywhere else blocked and recorded.  ``make test`` reads the student
edition (what a class is given); ``make conformance`` (so CI) reads the teacher edition too (the same pages
with the answers and the guide), marked ``slow``: about 20 s of Chromium each.

On each page every display formula of the built HTML must have been drawn by MathJax (no MathJax error),
every inline formula too, and the text a reader sees (code aside) must hold no raw TeX: no ``\\begin``,
``\\frac``, ``&amp;`` or ``$$``.  The search page must find lesson 02 for "brevity penalty".  No request may
leave the machine and none may fail (a missing MathJax file would otherwise fall back silently).  The
formulas the old site garbled (the brevity penalty, the LCS recurrence, chrF) are photographed into
tests/artifacts/ for a person to look at.

A second test (issue 31, item 1) follows every link of the student edition from its home page, with the
teacher edition served beside it, and finds no link out of /student/, no teacher page and no answer.

Chromium and its skip/require rules are those of tests/test_browser.py: Debian's /usr/bin/chromium (or
$EVALKIT_CHROMIUM) launched by Playwright; skipped when missing, a failure with CI=true or
EVALKIT_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import functools
import html
import http.server
import re
import sys
import threading
import time

import pytest
from test_browser import ARTIFACTS, CHROMIUM_ARGS, require_chromium

from tools import lessons, site

pytestmark = pytest.mark.browser

LESSONS = lessons.lesson_files()
DISPLAY_MATH = re.compile(r'<div class="math notranslate nohighlight[^"]*">(.*?)</div>', re.S)
INLINE_MATH = re.compile(r'<span class="math notranslate nohighlight">')
RAW_TEX = ("\\begin", "\\frac", "&amp;", "$$")
# formulas to photograph: (edition, lesson, text inside the formula, file name)
PHOTOGRAPHS = [
    ("student", "02-brevity-penalty.ipynb", r"\mathrm{BP} \;=\;", "site-formula-02-brevity-penalty.png"),
    ("student", "06-rouge.ipynb", r"T[i][j] = \begin{cases}", "site-formula-06-lcs-recurrence.png"),
    ("teacher", "12-chrf-and-ter.ipynb", r"\mathrm{chrF}_\beta", "site-formula-12-chrf.png"),
]
MATHJAX_DONE = """() => new Promise(resolve => {
    if (!document.querySelector('script[src*="mathjax/MathJax.js"]')) { resolve("no math"); return; }
    const wait = () => (window.MathJax && MathJax.Hub && MathJax.isReady)
        ? MathJax.Hub.Queue(() => resolve("typeset")) : setTimeout(wait, 25);
    wait();
})"""
SHOWN_TEXT = """() => {
    const article = document.querySelector("article.bd-article");
    article.querySelectorAll("pre, code").forEach(e => { e.style.display = "none"; });
    return article.innerText;
}"""


@pytest.fixture(scope="module")
def chromium() -> str:
    return require_chromium("the lesson site")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a tab that moved on closed its connection
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def served(built_site):
    """Both editions (conftest's built_site: built once per run) served on a free port of 127.0.0.1; yields
    (root URL, site folder)."""
    out = built_site
    server = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", out
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("edition", [e if e == "student" else pytest.param(e, marks=pytest.mark.slow)
                                     for e in site.EDITIONS])
def test_every_formula_renders_search_works_and_nothing_leaves_the_machine(edition, served, chromium):
    from playwright.sync_api import expect, sync_playwright

    root, out = served
    left_the_machine, failed = [], []

    def only_local(route):
        url = route.request.url
        if url.startswith((root, "data:", "blob:")) or url == "about:blank":
            route.continue_()
        else:
            left_the_machine.append(url)
            route.abort()

    start = time.perf_counter()
    checked = {"display": 0, "inline": 0, "pages": 0}

    def check_lesson(page, edition, path):
        """The page of ``path`` in ``edition``, already loaded in ``page``: every formula drawn, no raw TeX."""
        name = site.page_name(path)
        built = (out / edition / name).read_text(encoding="utf-8")
        # formulas in headings are drawn in the page's contents too: the article is what is counted
        built = re.search(r'<article class="bd-article"[^>]*>(.*)</article>', built, re.S).group(1)
        displays = DISPLAY_MATH.findall(built)
        inlines = len(INLINE_MATH.findall(built))
        state = page.evaluate(MATHJAX_DONE)
        assert state == ("typeset" if displays or inlines else "no math"), state
        math = page.locator("article div.math")
        expect(math).to_have_count(len(displays))
        # every display formula drawn: MathJax's display box inside each, and no error anywhere
        expect(page.locator("article div.math .MathJax_Display")).to_have_count(len(displays))
        expect(page.locator("article span.math .MathJax")).to_have_count(inlines)
        expect(page.locator("article .MathJax_Error, article merror, article .merror")).to_have_count(0)
        if displays:
            sizes = math.evaluate_all("els => els.map(e => e.querySelector('.MathJax_Display')"
                                      ".getBoundingClientRect().height)")
            assert all(h > 10 for h in sizes), sizes
        for photo_edition, lesson, inside, filename in PHOTOGRAPHS:
            if (photo_edition, lesson) == (edition, path.name):
                formula = math.nth(next(i for i, m in enumerate(displays) if inside in html.unescape(m)))
                formula.scroll_into_view_if_needed()
                ARTIFACTS.mkdir(exist_ok=True)
                formula.screenshot(path=str(ARTIFACTS / filename))
        shown = page.evaluate(SHOWN_TEXT)
        raw = [t for t in RAW_TEX if t in shown]
        assert not raw, f"raw TeX on the page: {raw}"
        checked["display"] += len(displays)
        checked["inline"] += inlines
        checked["pages"] += 1

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.route("**/*", only_local)
        context.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        # (not counted: MathJax's own probe of an empty font at about:blank, and the search page's fetches of
        # result summaries cut short when the test moves on)
        context.on("requestfailed", lambda r: None if r.url == "about:blank" or r.failure == "net::ERR_ABORTED"
                   else failed.append(f"{r.failure} {r.url}"))
        # two tabs: the next page loads while MathJax draws the formulas of this one
        tabs = [context.new_page(), context.new_page()]
        page, where = tabs[0], "the start"
        try:
            where = f"{edition}/index.html"
            page.goto(f"{root}{edition}/index.html", wait_until="load")
            expect(page.locator("article h1")).to_contain_text(f"the {edition} edition")
            todo = [(edition, path) for path in LESSONS]
            tabs[0].goto(f"{root}{todo[0][0]}/{site.page_name(todo[0][1])}", wait_until="load")
            for i, (edition, path) in enumerate(todo):
                if i + 1 < len(todo):
                    following = todo[i + 1]
                    tabs[(i + 1) % 2].goto(f"{root}{following[0]}/{site.page_name(following[1])}", wait_until="load")
                page, where = tabs[i % 2], f"{edition}/{site.page_name(path)}"
                check_lesson(page, edition, path)
            where = f"{edition}/search.html"
            page.goto(f"{root}{edition}/search.html?q=brevity+penalty", wait_until="load")
            found = page.locator('#search-results a[href*="02-brevity-penalty.html"]')
            expect(found.first).to_be_visible(timeout=10_000)
        except BaseException:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "site-failure.png"), full_page=False)
            print(f"failed at {where}; screenshot in {ARTIFACTS / 'site-failure.png'}")
            raise
        finally:
            browser.close()
    print(f"{checked['pages']} pages, {checked['display']} display and {checked['inline']} inline formulas "
          f"rendered in {time.perf_counter() - start:.1f} s")
    assert not left_the_machine, f"the site asked the network for {left_the_machine}"
    assert not failed, f"requests that failed: {failed}"
    assert checked["pages"] == len(LESSONS) and checked["display"] > 20


# ------------------------------------------------------------------ the student site leads nowhere else

LINKS = "() => Array.from(document.querySelectorAll('a[href], link[href], script[src], img[src]'), e => e.href || e.src)"
READ_TEXT = "() => (document.querySelector('article.bd-article') || document.body).innerText"


def notebook_text(raw: str) -> str:
    """What a notebook shows: its cells' sources and the texts of their outputs (not cell ids or counts)."""
    import nbformat

    texts = []
    for cell in nbformat.reads(raw, as_version=4).cells:
        texts.append(cell.source)
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")))
            texts += ["".join(v) for k, v in output.get("data", {}).items() if k.startswith("text/")]
    return "\n".join(texts)


TEACHER_ONLY = ("Teacher's guide", "teacher edition, with the answers", "<details", "✓ Correct.", "answer-keys")


def test_every_link_of_the_student_site_stays_in_it_and_leads_to_no_answer(served, chromium):
    """Issue 31, item 1: a student given the student site can reach nothing of the teacher edition.  Both
    editions are served side by side (as a teacher might serve the whole site/ folder), and Chromium starts at
    /student/index.html and follows every link, script, stylesheet and image of every page it reaches (the
    lesson notebooks behind the download buttons included): each must be on /student/ itself (a link to
    /teacher/ or to a shared front page would leave it), load, and hold no answer of its lesson, no
    <details> answer block, no stored ✓ of a self-check and nothing of the teacher's guide."""
    from urllib.parse import urldefrag

    from playwright.sync_api import sync_playwright

    from tools import exercises

    root, out = served
    start = f"{root}student/"
    secrets = {site.page_name(p): exercises.answer_values(lessons.read_notebook(p)) for p in LESSONS}
    secrets.update({p.name: secrets[site.page_name(p)] for p in LESSONS})  # the notebooks behind the downloads
    todo, seen, outside, elsewhere, problems = [f"{start}index.html"], set(), [], set(), []
    pages = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context()
        # nothing off the machine is fetched (the lessons' further-reading links are recorded, not followed)
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(root)
                      else route.abort())
        page = context.new_page()
        try:
            while todo:
                url = todo.pop()
                if url in seen:
                    continue
                seen.add(url)
                if not url.startswith(start):
                    outside.append(url)
                    continue
                name = url.rsplit("/", 1)[-1].split("?")[0]
                if name.endswith(".html") or url.endswith("/"):
                    response = page.goto(url, wait_until="domcontentloaded")
                    body = page.content()
                    text = page.evaluate(READ_TEXT)
                    found = page.evaluate(LINKS)
                    pages += 1
                else:  # a file behind a link (a notebook, an image, a script): fetched, not shown
                    response = context.request.get(url)
                    body = response.text() if name.endswith((".ipynb", ".js", ".css", ".txt")) else ""
                    text = notebook_text(body) if name.endswith(".ipynb") else body
                    found = []
                if response is None or response.status != 200:
                    problems.append(f"{url}: HTTP {response.status if response else 'no response'}")
                    continue
                leaked = [marker for marker in TEACHER_ONLY if marker in body]
                shown = {n for n in exercises.numbers_in(text) if len(n) > 1} if name in secrets else set()
                if leaked or secrets.get(name, set()) & shown:
                    problems.append(f"{url}: {leaked} {sorted(secrets.get(name, set()) & shown)}")
                for link in found:
                    link = urldefrag(link).url
                    if link.startswith(("http://", "https://")) and not link.startswith(root):
                        elsewhere.add(link)  # another web site (a paper, a library's page)
                    elif link.startswith(root) and link not in seen:
                        todo.append(link)
                    elif not link.startswith(root) and not link.startswith(("mailto:", "javascript:", "data:")):
                        problems.append(f"{url} links to {link}")
        finally:
            browser.close()
    print(f"{pages} pages and {len(seen) - pages - len(outside)} files of the student site followed; "
          f"{len(elsewhere)} links to other web sites not followed")
    assert not outside, f"the student site links outside itself: {sorted(outside)}"
    assert not [link for link in elsewhere if "teacher" in link.lower()], elsewhere
    assert not problems, problems
    reached = {urldefrag(u).url.removeprefix(start) for u in seen}
    # every lesson and its student notebook were reached, and the search page
    for path in LESSONS:
        assert site.page_name(path) in reached and f"_sources/{path.name}" in reached, path.name
    assert "search.html" in reached and pages > len(LESSONS)
