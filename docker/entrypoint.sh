#!/bin/sh
# web: gunicorn (the schema is migrated before, once, by the compose file's migrate service: never
# here, where each web container would race the others and new workers run on the old schema);
# live: the ASGI server of the push streams (uvicorn);
# worker / beat: Celery; anything else runs as given.
set -e
# Metrics shared between processes (common.metrics): PROMETHEUS_MULTIPROC_DIR names the volume
# shared by web, worker and beat; each container writes to a sub-folder of its own (process ids
# of different containers collide) and /metrics adds up them all. The web service starts its own
# sub-folder empty (the files of its processes gone before are stale).
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  case "$1" in
    web|live|worker|beat)
      export PROMETHEUS_MULTIPROC_ROOT="${PROMETHEUS_MULTIPROC_ROOT:-$PROMETHEUS_MULTIPROC_DIR}"
      export PROMETHEUS_MULTIPROC_DIR="$PROMETHEUS_MULTIPROC_ROOT/$1-${HOSTNAME:-$(hostname)}"
      mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
      if [ "$1" = web ]; then find "$PROMETHEUS_MULTIPROC_DIR" -mindepth 1 -delete; fi
      ;;
  esac
fi
case "$1" in
  web)
    exec gunicorn -c config/gunicorn.py config.wsgi
    ;;
  live)
    # The client's address is read by the service, as under gunicorn: X-Forwarded-For only from
    # TRUSTED_PROXIES proxies (the compose file's nginx: 1), the scheme from X-Forwarded-Proto
    # (SECURE_PROXY_SSL_HEADER). uvicorn itself believes neither (--no-proxy-headers): with "*" it
    # took the address from any client that sent the header. Open streams never end by themselves:
    # on stopping, uvicorn waits 5 s, then ends them (without a limit it waited for ever, until
    # docker's SIGKILL).
    exec uvicorn config.asgi:application --host 0.0.0.0 --port 8001 --workers "${LIVE_WORKERS:-2}" \
      --no-access-log --no-proxy-headers --timeout-graceful-shutdown 5
    ;;
  worker)
    exec celery -A config worker --loglevel "${LOG_LEVEL:-info}" --concurrency "${WORKER_CONCURRENCY:-2}" \
      --queues "${WORKER_QUEUES:-clocks,default,slow,bots}"
    ;;
  beat)
    exec celery -A config beat --loglevel "${LOG_LEVEL:-info}" --schedule /tmp/celerybeat-schedule
    ;;
  *)
    exec "$@"
    ;;
esac
