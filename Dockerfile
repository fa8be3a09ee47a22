# ttr serve in a slim image, run as a user without privileges. Build: docker build -t ttr .
# Configuration comes from the environment (TTR_DB or DATABASE_URL, and TTR_* for every option of
# `ttr serve`: docs/deploy.md).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY src ./src
RUN pip install --no-cache-dir --prefix=/install '.[postgres]'

FROM python:3.11-slim
COPY --from=build /install /usr/local
RUN useradd --system --create-home --home-dir /home/ttr --uid 10001 ttr
USER ttr
WORKDIR /home/ttr
ENV PYTHONUNBUFFERED=1 \
    TTR_HOST=0.0.0.0 \
    TTR_PORT=8000 \
    TTR_BOT_WORKERS=2 \
    TTR_LOG_FORMAT=json \
    TTR_LOG_LEVEL=info
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"
CMD ["ttr", "serve"]
