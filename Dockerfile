# gametable: the Discord bot. Build and run with `docker compose up -d` (see compose.yaml),
# which also starts Redis with append-only persistence.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data \
    LOG_JSON=true

# A fixed uid so a bind-mounted /data can be given to it on the host.
RUN groupadd --system --gid 10001 gametable \
 && useradd --system --uid 10001 --gid gametable --home-dir /app --shell /usr/sbin/nologin gametable \
 && install -d -o gametable -g gametable /data

WORKDIR /app

# Sources only (see .dockerignore); pip builds the project from pyproject.toml.
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY storage ./storage
# Not part of the installed package: `gametable bench` finds it in the working directory.
COPY benchmarks ./benchmarks
RUN pip install --no-compile . && rm -rf build *.egg-info

USER gametable

# No HEALTHCHECK here: /healthz is served only when METRICS_PORT is set, and
# compose.yaml (which sets it) probes it.
CMD ["gametable", "run"]
