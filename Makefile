# Two commands for a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-dev lint format messages screenshots clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

run: $(VENV)/.installed
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py seed_demo
	@echo
	@echo "  Open http://$(HOST):$(PORT)/ — sign in with one of the logins above."
	@echo
	DEBUG=1 $(PY) -m daphne -b $(HOST) -p $(PORT) casino.asgi:application

test: $(VENV)/.installed-dev
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Re-extract the catalogues after changing UI strings (needs GNU gettext), fill the English
# one, compile both, and list the Russian entries still to translate (exits 1 while there are
# any). Translate those in locale/ru/LC_MESSAGES/django.po and run `make messages` again.
# Commit the .po and the .mo files.
messages: $(VENV)/.installed-dev
	$(PY) scripts/catalogues.py extract
	$(PY) scripts/catalogues.py fill-en
	DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv
	$(PY) scripts/catalogues.py todo

# The contact sheet: sign in as each role and walk every screen at 1280x800 and 800x1280 in
# Russian and English (the browser tests that look at every screen, the worst round included),
# writing the PNGs and an index page to build/screenshots/ (ignored). Open its index.html.
screenshots: $(VENV)/.installed-dev
	rm -rf build/screenshots
	SCREENSHOTS_DIR=$(CURDIR)/build/screenshots $(PY) -m pytest -q -p no:cacheprovider \
		tests/browser/test_every_screen.py tests/browser/test_worst_round.py \
		tests/browser/test_screens_second_pass.py tests/browser/test_tablet_screen.py
	$(PY) scripts/contact_sheet.py build/screenshots

clean:
	rm -rf $(VENV) .pytest_cache staticfiles .test-db.sqlite3 test-artifacts build
