# playtest: `make demo`, `make test` and `make check` each set up .venv on first use.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: demo test check lint goldens bench profile perf-functions lean-day lab install clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/playtest demo

# the whole suite (what CI runs): every tier, the slow one included
test: $(STAMP) lint
	$(BIN)/python -m pytest -q --durations=10 -n 2 --dist loadgroup

# the fast tier, after every change: lint, every rule scenario, unit and conformance tests
# on small counts, the goldens; no subprocess compiles, no background builds, no long runs
check: $(STAMP) lint
	$(BIN)/python -m pytest -q -m "not slow" -n 2 --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check .

# record an intended change of a game's results: make goldens GAME=rattlebones VERSION=1.2.1
# (without VERSION: only when no stored result changes, e.g. a policy was added)
goldens: $(STAMP)
	$(BIN)/python -m tests.golden $(GAME) $(if $(VERSION),--version $(VERSION))

bench: $(STAMP)
	$(BIN)/python -m pipelines.bench

# where a game's time goes (rules, policies by decision point): make profile GAME=waggle_dance
profile: $(STAMP)
	$(BIN)/python -m pipelines.bench --profile $(if $(GAME),--game $(GAME))

# the kernel's time by compiled function, sampled by Linux perf: make perf-functions GAME=waggle_dance
perf-functions: $(STAMP)
	$(BIN)/python -m pipelines.perf_functions --game $(or $(GAME),waggle_dance) $(if $(PLAYERS),--players $(PLAYERS))

# a Waggle Dance placement day, kernel against a lean prototype (the bound of issue 40)
lean-day: $(STAMP)
	$(BIN)/python -m pipelines.lean_day

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
