# The README's production steps in a container: set up, then serve on the embedded SQLite database
# as an unprivileged user. It refuses to start without a SECRET_KEY of 32 bytes or more and a PUBLIC_URL
# (or ALLOWED_HOSTS).
FROM python:3.11-slim
WORKDIR /app
COPY . .
RUN python3 -m venv .venv && .venv/bin/pip install -e . \
    && useradd --system --uid 10001 gpucost && mkdir /data && chown gpucost /data
ENV ENVIRONMENT=production DATABASE_URL=sqlite:////data/gpucost.db
VOLUME /data
USER gpucost
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s CMD [".venv/bin/python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"]
CMD [".venv/bin/uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000", "--no-proxy-headers", "--no-server-header"]
