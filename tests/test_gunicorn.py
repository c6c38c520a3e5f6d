"""Two gunicorn instances on one machine keep their own control sockets (config/gunicorn.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(port: int, runtime: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "BIND": f"127.0.0.1:{port}",
        "WEB_WORKERS": "1",
        "XDG_RUNTIME_DIR": str(runtime),
        "DATABASE_URL": f"sqlite:///{runtime / 'unused.sqlite3'}",
    }
    env.pop("GUNICORN_CONTROL_SOCKET", None)
    gunicorn = Path(sys.executable).parent / "gunicorn"
    return subprocess.Popen(
        [str(gunicorn), "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for(path: Path, present: bool = True, timeout: float = 20) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() == present:
            return True
        time.sleep(0.05)
    return False


def answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(2)
        try:
            s.connect(str(path))
        except OSError:
            return False
        return True


def test_each_instance_has_its_own_control_socket_and_stopping_one_keeps_the_other(tmp_path: Path) -> None:
    first_port, second_port = free_port(), free_port()
    first, second = start(first_port, tmp_path), start(second_port, tmp_path)
    first_socket = tmp_path / f"pacru-gunicorn-127.0.0.1-{first_port}.ctl"
    second_socket = tmp_path / f"pacru-gunicorn-127.0.0.1-{second_port}.ctl"
    try:
        assert wait_for(first_socket) and wait_for(second_socket), sorted(os.listdir(tmp_path))
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=30)
        assert wait_for(second_socket, present=False), "the stopped instance removes its own socket"
        assert first_socket.exists() and answers(first_socket), "the other instance's socket is untouched"
    finally:
        for proc in (first, second):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
