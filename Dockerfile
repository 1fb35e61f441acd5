# The README's quick start in a container: set up, then serve on the embedded SQLite database.
FROM python:3.11-slim
WORKDIR /app
COPY . .
RUN python3 -m venv .venv && .venv/bin/pip install -e .
ENV DATABASE_URL=sqlite:////data/gpucost.db
VOLUME /data
EXPOSE 8000
CMD [".venv/bin/uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000"]
