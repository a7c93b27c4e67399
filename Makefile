# evalkit: two commands do all the set-up.
#   make lab    make .venv if missing, install, open JupyterLab on the lessons
#   make test   the same set-up, then every test (unit, property, conformance, nbval over the notebooks)
# For teachers (see notebooks/README.md, the teacher's guide); both work offline, without a kernel:
#   make exercises  student editions of the lessons, answers removed, and printable exercise sheets -> exercises/
#   make site       a static HTML copy of the executed lessons, figures included -> site/ (open site/index.html)
# Other targets: make notebooks (re-execute every lesson in place), make bench (benchmarks), make clean.
# Installing is quiet: pip's output goes to .venv/install.log and is printed only when something fails.

PYTHON ?= python3
VENV   ?= .venv
# make lab serves on PORT (PORT=9999 make lab for another)
PORT   ?= 8888
# make lab opens this folder: the lessons (with answers), or LAB_DIR=exercises for the student editions
LAB_DIR ?= notebooks
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.evalkit-installed
# pip's full output goes here; it is printed only when the install fails
INSTALL_LOG := $(VENV)/install.log
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
PYTEST_ARGS ?=

.PHONY: install lab test notebooks bench exercises site clean

install: $(STAMP)

# Reinstall only when the pinned requirements or the package metadata change.
$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "evalkit needs Python >= 3.11; this is " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing the pinned requirements into $(VENV) (takes a minute; log in $(INSTALL_LOG)) ..."
	@{ $(BIN)/python -m pip install --upgrade pip \
	   && $(BIN)/python -m pip install -r requirements.txt \
	   && $(BIN)/python -m pip install --no-deps -e . ; } > $(INSTALL_LOG) 2>&1 \
	   || { tail -n 60 $(INSTALL_LOG); echo "make install failed: the last lines of $(INSTALL_LOG) are above"; exit 1; }
	@touch $(STAMP)
	@echo "Installed: evalkit and its pinned requirements are in $(VENV)."

lab: install
	@test -d $(LAB_DIR) || { echo "$(LAB_DIR)/ does not exist (for the student editions, run make exercises first)"; exit 2; }
	@echo "Opening JupyterLab on $(LAB_DIR)/: http://localhost:$(PORT)/lab (the token is printed below)"
	$(BIN)/jupyter lab --notebook-dir=$(LAB_DIR) --port=$(PORT) --ServerApp.port_retries=0 \
		$(if $(filter 0,$(shell id -u)),--allow-root)

test: install
	$(BIN)/python -m pytest tests evalkit --doctest-modules $(NOTEBOOKS) --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600 $(PYTEST_ARGS)

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

# Student copies of whatever notebooks/*.ipynb exist; the lessons themselves keep their answers.
# A student's answers in exercises/ are never deleted: an existing folder is kept as exercises.old-<time>/.
exercises: install
	@if [ -d exercises ]; then old=exercises.old-$$(date +%Y%m%d-%H%M%S); mv exercises $$old; \
		echo "the previous exercises/ (with any answers written in it) is kept as $$old/"; fi
	@$(BIN)/python -m tools.exercises --out exercises

# The stored outputs as they are: no kernel, no re-execution, nothing fetched.
site: install
	@rm -rf site
	@$(BIN)/python -m tools.site --out site

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info exercises site
