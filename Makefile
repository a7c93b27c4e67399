# evalkit: two commands do all the set-up.
#   make lab    make .venv if missing, install, open JupyterLab on the lessons
#   make test   the same set-up, then every test (unit, property, conformance, nbval over the notebooks)
# Other targets: make notebooks (re-execute every lesson in place), make bench (benchmarks), make clean.

PYTHON ?= python3
VENV   ?= .venv
# make lab serves on PORT (PORT=9999 make lab for another)
PORT   ?= 8888
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.evalkit-installed
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
PYTEST_ARGS ?=

.PHONY: install lab test notebooks bench clean

install: $(STAMP)

# Reinstall only when the pinned requirements or the package metadata change.
$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "evalkit needs Python >= 3.11; this is " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

lab: install
	@echo "Opening JupyterLab on the lessons: http://localhost:$(PORT)/lab (the token is printed below)"
	$(BIN)/jupyter lab --notebook-dir=notebooks --port=$(PORT) --ServerApp.port_retries=0 \
		$(if $(filter 0,$(shell id -u)),--allow-root)

test: install
	$(BIN)/python -m pytest tests evalkit --doctest-modules $(NOTEBOOKS) --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600 $(PYTEST_ARGS)

# Outputs are regenerated, never edited by hand: run this after changing a lesson or evalkit.
notebooks: install
	cd notebooks && for nb in $(notdir $(NOTEBOOKS)); do \
		echo "executing $$nb"; \
		../$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.timeout=600 --ExecutePreprocessor.kernel_name=python3 "$$nb" || exit 1; \
	done

bench: install
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
