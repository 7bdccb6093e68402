# Arbiter's container image: one bot process, `python -m bot`, as a user without
# privileges. Build it from the project's root:
#   docker build -t arbiter:local .
#   docker build -t arbiter:local --build-arg EXTRAS=sentry .   # with error reports
# compose.yaml runs it, alone on SQLite or as shards on PostgreSQL.
FROM python:3.11-slim-bookworm

# pyproject.toml's optional extras to install with the bot, comma separated: sentry.
ARG EXTRAS=""

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# The bot's user and group, 10001 (USER below), owns /data and nothing else.
RUN groupadd --system --gid 10001 arbiter \
    && useradd --system --no-log-init --uid 10001 --gid arbiter --home-dir /data arbiter \
    && mkdir /data \
    && chown arbiter:arbiter /data

WORKDIR /src
COPY . .
RUN pip install --no-cache-dir "./${EXTRAS:+[$EXTRAS]}"

# The SQLite file lives on the volume; /healthz, /readyz and /metrics on port 8080.
ENV ARBITER_DB=/data/arbiter.db \
    ARBITER_HEALTH_PORT=8080
VOLUME ["/data"]
EXPOSE 8080
WORKDIR /data
USER 10001:10001

# Alive while the process runs, even while it waits for Discord (slim has no curl).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['ARBITER_HEALTH_PORT'] + '/healthz', timeout=4)"]

# SIGTERM closes the bot cleanly (its leases let go at once) and exits 0.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
