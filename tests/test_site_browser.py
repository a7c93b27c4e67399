"""The static site (`make site`) in a real browser: Chromium opens the index and a lesson from file:// and
must find the headings rendered, every image drawn (figures and formulas) and no request leaving the machine.

Chromium and its skip/require rules are those of tests/test_browser.py: Debian's /usr/bin/chromium (or
$EVALKIT_CHROMIUM) launched by Playwright; skipped when missing, a failure with CI=true or
EVALKIT_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import pytest
from test_browser import ARTIFACTS, CHROMIUM_ARGS, require_chromium

from tools import lessons, site

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium() -> str:
    return require_chromium("the static site")


def png_outputs(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_the_static_site_renders_offline_in_chromium(tmp_path, chromium):
    from playwright.sync_api import expect, sync_playwright

    notebooks = lessons.lesson_files()
    site.build(notebooks, tmp_path)
    # the lesson with the most figures (any lesson would do; this one shows the most)
    lesson = max(notebooks, key=lambda p: (png_outputs(lessons.read_notebook(p)), p.name))
    nb = lessons.read_notebook(lesson)
    figures = png_outputs(nb)
    assert figures > 0, "no lesson has a stored figure to check"

    left_the_machine = []

    def only_local(route):
        url = route.request.url
        if url.startswith(("file://", "data:")):
            route.continue_()
        else:
            left_the_machine.append(url)
            route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.route("**/*", only_local)
        page = context.new_page()
        requested = []
        page.on("request", lambda request: requested.append(request.url))
        try:
            page.goto((tmp_path / "index.html").as_uri(), wait_until="load")
            expect(page.locator("h1")).to_have_text("evalkit lessons")
            rows = page.locator("table tbody tr")
            expect(rows).to_have_count(len(notebooks))
            expect(rows.first.locator("a")).to_have_text(lessons.lesson_title(lessons.read_notebook(notebooks[0])))

            # follow the link, as a reader would
            page.locator(f'a[href="{site.page_name(lesson)}"]').click()
            page.wait_for_load_state("load")
            heading = page.locator("h1").first
            expect(heading).to_be_visible()
            expect(heading).to_have_text(lessons.lesson_title(nb))
            assert page.locator("h2").count() >= 3  # the lesson's sections

            pictures = page.locator('img[src^="data:image/png"]')
            expect(pictures).to_have_count(figures)
            for i in range(figures):
                picture = pictures.nth(i)
                picture.scroll_into_view_if_needed()
                expect(picture).to_be_visible()
            # every image on the page, figures and drawn formulas alike, has been decoded and has a size
            sizes = page.eval_on_selector_all(
                "img", "imgs => imgs.map(i => [i.complete, i.naturalWidth, i.naturalHeight, i.alt])"
            )
            assert sizes and all(complete and w > 0 and h > 0 for complete, w, h, _ in sizes), [
                s for s in sizes if not (s[0] and s[1] > 0 and s[2] > 0)
            ]
            formulas = page.locator("img.math").count()
            print(f"{lesson.name}: {figures} figures and {formulas} formulas drawn, {len(requested)} requests")
        except BaseException:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "site-failure.png"), full_page=False)
            raise
        finally:
            browser.close()
    assert not left_the_machine, f"the site asked the network for {left_the_machine}"
    assert all(url.startswith(("file://", "data:")) for url in requested), requested
