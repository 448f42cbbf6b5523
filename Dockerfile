# The app image: daphne serving Django + Channels, static files collected at build time and
# served by WhiteNoise from inside each worker. See docs/operations.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so a code change does not reinstall them. pyproject.toml lists no
# packages: `pip install .` installs the dependencies and the code runs from /app.
COPY pyproject.toml README.md ./
RUN pip install .

COPY . .

# Build-time only values: collectstatic needs settings to load, not a real secret.
RUN DEBUG=0 SECRET_KEY=collectstatic-only-not-a-secret AUDIT_CHAIN_KEY=collectstatic-only-not-a-key python manage.py collectstatic --noinput \
    && python -m compileall -q casino feed floor staff tables game cashdesk benchmarks \
    && useradd --system --uid 10001 --home-dir /app casino \
    && chown -R casino /app/staticfiles

USER casino
EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "--proxy-headers", "casino.asgi:application"]
