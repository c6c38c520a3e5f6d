#!/bin/sh
# web: migrate, then gunicorn; worker / beat: Celery; anything else runs as given.
set -e
case "$1" in
  web)
    python manage.py migrate --no-input
    exec gunicorn -c config/gunicorn.py config.wsgi
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
