"""Sphinx configuration of one edition of the lesson site; tools/site.py copies this file into the build folder
beside ``settings.json`` (the edition's title and name) and runs ``sphinx-build`` there.

The stack is Jupyter Book 1's (Sphinx, MyST-NB, sphinx-book-theme) without its command-line wrapper:
notebooks are rendered with their stored outputs (no kernel), and nothing is fetched, neither at build time
nor when a page is read.  Math is drawn by the MathJax 2 that the build copies into ``_static/mathjax/``.
"""

import json
from pathlib import Path

settings = json.loads((Path(__file__).parent / "settings.json").read_text(encoding="utf-8"))

project = settings["project"]
author = "evalkit"
copyright = "evalkit authors"
html_title = settings["title"]
language = "en"
root_doc = "index"

extensions = ["myst_nb", "sphinx_book_theme"]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "settings.json"]
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type"]
smartquotes = False  # the lessons' text as written

# notebooks: stored outputs, never executed
nb_execution_mode = "off"
nb_ipywidgets_js = {}  # no require.js or widget manager from a CDN: widget outputs are replaced before the build
nb_render_markdown_format = "myst"  # text/markdown outputs get the same math as the lessons' markdown
nb_merge_streams = True

# markdown: $...$ and $$...$$ are math; \begin{...} environments too; ::: fences wrap the core cells
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_dmath_double_inline = True  # $$...$$ inside a paragraph is display math too
myst_update_mathjax = False  # set below, for MathJax 2

# math: the MathJax 2.7 of the jupyter-server-mathjax wheel, served from the site itself.  Only the formulas
# MyST found (elements of class "math") are typeset: tex2jax ignores the page's article (class bd-article)
# and everything in it but those, so a \( or \[ written in prose or in an output is left alone.
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": False,
        "processEnvironments": False,
        "processRefs": False,
        "processClass": "tex2jax_process|mathjax_process|math|output_area",
        "ignoreClass": "bd-article|tex2jax_ignore|mathjax_ignore",
    },
    "HTML-CSS": {"availableFonts": ["STIX-Web"], "preferredFont": "STIX-Web", "webFont": "STIX-Web",
                 "imageFont": None,
                 "linebreaks": {"automatic": True}},  # a formula wider than the page breaks, as on a projector
    "menuSettings": {"zoom": "None"},
    "showMathMenu": False,
    "messageStyle": "none",
    "fast-preview": {"disabled": True},  # draw each formula once, in its final form (no rough preview first)
}
mathjax3_config = None

html_theme = "sphinx_book_theme"
html_static_path = ["_static"]
html_css_files = ["evalkit.css"]
html_show_sourcelink = False
html_copy_source = True  # the page's download button gives the edition's notebook
html_last_updated_fmt = None
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "use_download_button": True,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "use_issues_button": False,
    "use_edit_page_button": False,
    "launch_buttons": {},
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "extra_footer": settings["footer"],
}
