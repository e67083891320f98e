# ragsearch: the service, with the embedded PostgreSQL as the default database.
#   docker build -t ragsearch .
#   docker run -p 8000:8000 -e RAG_API_KEYS=change-me -v ragsearch-data:/data ragsearch
# Set DATABASE_URL to use an external PostgreSQL (>= 15 with pgvector >= 0.8) instead.

FROM node:22-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    RAG_HOST=0.0.0.0 RAG_PORT=8000 RAG_DATA_DIR=/data/pgdata
RUN useradd --create-home --uid 10001 ragsearch && mkdir -p /data && chown ragsearch /data
WORKDIR /srv/ragsearch
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY app/ app/
COPY sql/ sql/
COPY migrations/ migrations/
COPY --from=web /src/app/static/web-page/ app/static/web-page/
RUN pip install --no-cache-dir .
USER ragsearch
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/readyz').status != 200)"
ENTRYPOINT ["ragsearch"]
CMD ["serve"]
