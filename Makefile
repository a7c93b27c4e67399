# evalkit: two commands do all the set-up.
#   make lab    make .venv if missing, install the lessons' packages, open JupyterLab on the student editions
#               (make lab EDITION=teacher opens a working copy of the lessons, answers and all)
#   make test   the same set-up plus the test packages, then every test but the slow lesson runs (unit, property,
#               conformance, nbval over the notebooks, the browser tests), in parallel (TEST_WORKERS=auto: one worker per core);
#               the peers' slow numbers are read from tests/peers/ (see tests/README.md)
#   make conformance  the tests marked conformance with the peers run live (sacreBLEU, NLTK, rouge-score, gleu:
#               every recorded number in tests/peers/ computed again, a failure if one drifted) and the
#               property tests at their full number of examples, and the slow lesson runs
#   make peers  record the peers' slow numbers again into tests/peers/ (after a pinned peer changes)
# For teachers (see notebooks/README.md, the teacher's guide); all work offline once installed:
#   make exercises  student editions and printable sheets (A4; PAPER=letter for US Letter) -> exercises/,
#               answer keys -> answer-keys/
#   make site       the lessons as two static web sites: site/student/ (hand out this folder alone), site/teacher/
#   make figures    every lesson's figures as PNG and SVG, projector style -> figures/
# Other targets: make notebooks (re-execute every lesson in place), make bench (benchmarks), make clean.
# Installing prints one line per step and per package; pip's full output goes to .venv/install.log.

SHELL  := /bin/bash
.SHELLFLAGS := -o pipefail -c
PYTHON ?= python3
VENV   ?= .venv
# make lab serves on PORT (PORT=9999 make lab for another)
PORT   ?= 8888
# make lab opens the student editions (exercises/, made if missing) or, with EDITION=teacher, teacher-copy/,
# a working copy of notebooks/ (what is done in class never changes the lessons); tools/lab.py does both.
# The recipe execs the starter, so a signal to make (kill, a closed terminal) reaches it and stops the server.
EDITION ?= student
LAB_ARGS ?=
# make exercises prints the sheets on A4, or PAPER=letter for US Letter
PAPER ?= a4
# make site builds both editions, or SITE_EDITION=student / teacher
SITE_EDITION ?= both
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.evalkit-installed
TEST_STAMP := $(VENV)/.evalkit-test-installed
SITE_STAMP := $(VENV)/.evalkit-site-installed
INSTALL_LOG := $(VENV)/install.log
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
PYTEST_ARGS ?=
# pytest-xdist workers for make test and make conformance (a number, or 0 for one process); --dist loadscope
# keeps a test module's tests, and a notebook's cells, in one worker (tests/conftest.py spreads a few slow ones)
TEST_WORKERS ?= auto
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope
# pip, with its full output appended to the log and one line per package shown: "Collecting NAME" for a package
# from an index, "Processing PATH/NAME-VERSION....whl" (or .tar.gz) for one from a local wheelhouse (--find-links)
PIP := $(BIN)/python -m pip install --disable-pip-version-check --progress-bar off
SHOW_PACKAGES := tee -a $(INSTALL_LOG) | sed -nu -e 's/^Collecting \([A-Za-z0-9_.-]*\).*/    \1/p' \
	-e 's/^Processing .*\/\([A-Za-z0-9_.]*\)-[0-9][^/ ]*\.whl\( .*\)\{0,1\}$$/    \1/p' \
	-e 's/^Processing .*\/\([A-Za-z0-9_.]*\)-[0-9][^/ ]*\.tar\.gz\( .*\)\{0,1\}$$/    \1/p'
INSTALL_FAILED = { tail -n 40 $(INSTALL_LOG); echo "make: the install failed; the last lines of $(INSTALL_LOG) are above"; exit 1; }

.PHONY: install install-test install-site lab test conformance peers notebooks bench exercises site figures clean

install: $(STAMP)
install-test: $(TEST_STAMP)
install-site: $(SITE_STAMP)

# Reinstall only when the pinned requirements or the package metadata change.
$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "evalkit needs Python >= 3.11; this is " + sys.version.split()[0])'
	@test -x $(BIN)/python || { echo "[1/3] creating $(VENV) with $$($(PYTHON) --version)"; $(PYTHON) -m venv $(VENV); }
	@echo "[2/3] updating pip" && : > $(INSTALL_LOG)
	@$(PIP) --upgrade pip >> $(INSTALL_LOG) 2>&1 || $(INSTALL_FAILED)
	@echo "[3/3] installing the lessons' pinned packages (requirements.txt) and their dependencies:"
	@$(PIP) -r requirements.txt 2>&1 | $(SHOW_PACKAGES) || $(INSTALL_FAILED)
	@$(PIP) --no-deps -e . >> $(INSTALL_LOG) 2>&1 || $(INSTALL_FAILED)
	@touch $(STAMP)
	@echo "Installed: evalkit and the lessons' packages are in $(VENV) ($$(du -sh $(VENV) | cut -f1))."

$(SITE_STAMP): requirements-site.txt $(STAMP)
	@echo "installing the site builder (requirements-site.txt):"
	@$(PIP) -r requirements-site.txt 2>&1 | $(SHOW_PACKAGES) || $(INSTALL_FAILED)
	@touch $(SITE_STAMP)

$(TEST_STAMP): requirements-test.txt requirements-site.txt $(STAMP)
	@echo "installing the test packages (requirements-test.txt):"
	@$(PIP) -r requirements-test.txt 2>&1 | $(SHOW_PACKAGES) || $(INSTALL_FAILED)
	@touch $(SITE_STAMP) $(TEST_STAMP)

lab: install
	@case "$(EDITION)" in student|teacher) ;; \
	  *) echo "EDITION must be student (the default) or teacher, not '$(EDITION)'"; exit 2;; \
	esac; \
	exec $(BIN)/python -m tools.lab --edition $(EDITION) --port $(PORT) $(LAB_ARGS)

# EVALKIT_HYPOTHESIS and EVALKIT_PEERS are read by tests/conftest.py and tests/peers/.
test: install-test
	EVALKIT_HYPOTHESIS=test EVALKIT_PEERS=recorded $(PYTEST) -m "not slow" tests evalkit --doctest-modules $(NOTEBOOKS) \
		--nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600 \
		$(PYTEST_ARGS)

conformance: install-test
	EVALKIT_HYPOTHESIS=thorough EVALKIT_PEERS=live $(PYTEST) tests -m "conformance or property or slow" $(PYTEST_ARGS)

peers: install-test
	$(BIN)/python -m tests.peers

# Outputs are regenerated, never edited by hand: run this after changing a lesson or evalkit.
notebooks: install
	cd notebooks && for nb in $(notdir $(NOTEBOOKS)); do \
		echo "executing $$nb"; \
		../$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.timeout=600 --ExecutePreprocessor.kernel_name=python3 \
			--ExecutePreprocessor.record_timing=False "$$nb" || exit 1; \
	done

bench: install
	$(BIN)/python benchmarks/bench.py

# Student copies of whatever notebooks/*.ipynb exist, with sheets (HTML, and PDF when Chromium is installed);
# the answer keys go to answer-keys/, which is not for students. The lessons themselves keep their answers.
# A student's answers in exercises/ are never deleted: an existing folder a student changed (an answer written,
# a file added; running cells is no change) is kept as exercises.old-<time>/; an untouched one is replaced.
exercises: install
	@$(BIN)/python -m tools.exercises --out exercises --keys answer-keys --paper $(PAPER)

# The stored outputs as they are: no kernel, no re-execution, nothing fetched.
site: install-site
	@rm -rf site
	@$(BIN)/python -m tools.site --out site --edition $(SITE_EDITION)

# Re-runs every lesson (a few minutes) with the projector style on and saves what it draws.
figures: install
	@$(BIN)/python -m tools.figures --out figures

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info exercises answer-keys site figures teacher-copy
