"""A private ``redis-server`` child process, for the embedded default store,
the tests and the benchmarks: started on a unix socket or a free loopback
port, stopped with its owner (on Linux even when the owner is killed)."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking Linux to stop the child when its parent dies."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None

    def preexec() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)

    return preexec


class RedisServer:
    """A private ``redis-server`` child process: on a unix socket under a short
    temporary folder (the embedded default), or on a free loopback TCP port
    (the tests and the benchmark, which want TCP like production)."""

    def __init__(
        self,
        data_dir: Path,
        *,
        executable: str | None = None,
        tcp: bool = False,
        appendonly: bool = True,
        port: int | None = None,
        extra: Sequence[str] = (),
    ) -> None:
        found = executable or shutil.which("redis-server")
        if found is None:
            raise RuntimeError("no redis-server is installed")
        self.executable = found
        # Absolute: redis-server changes into --dir before it opens its log file.
        self.data_dir = data_dir.resolve()
        self.appendonly = appendonly
        self.port = (port or _free_port()) if tcp else 0
        self.extra = list(extra)  # more server options (cluster mode)
        # A unix socket path is limited to ~107 bytes, so it lives in a short private
        # temporary folder rather than under a possibly deep data directory.
        self.socket = None if tcp else Path(tempfile.mkdtemp(prefix="gametable-")) / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def installed() -> bool:
        return shutil.which("redis-server") is not None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}" if self.socket else f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> str:
        """Start the server and wait (at most 5 s) until it accepts connections; returns its URL."""
        self.launch()
        return self.wait()

    def launch(self) -> None:
        """Start the server process without waiting for it."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        listen = (
            ["--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700"]
            if self.socket
            else ["--port", str(self.port), "--bind", "127.0.0.1"]
        )
        # Started from this (long-lived) thread: the kernel's parent-death signal
        # follows the thread that forked, not the whole process.
        self.process = subprocess.Popen(
            [
                self.executable,
                *listen,
                "--dir",
                str(self.data_dir),
                "--save",
                "",
                "--appendonly",
                "yes" if self.appendonly else "no",
                "--daemonize",
                "no",
                "--logfile",
                str(self.data_dir / "redis.log"),
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent(),
        )
        atexit.register(self.stop)

    def wait(self) -> str:
        """Wait (at most 5 s) until the started server accepts connections; returns its URL."""
        assert self.process is not None
        for _ in range(250):
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited; see {self.data_dir / 'redis.log'}")
            if self._accepting():
                return self.url
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start within 5 seconds")

    def last_words(self) -> str:
        """The last line the server wrote to its log (why it stopped), or ''."""
        with contextlib.suppress(OSError, UnicodeDecodeError):
            lines = (self.data_dir / "redis.log").read_text(encoding="utf-8", errors="replace").splitlines()
            said = next((line for line in reversed(lines) if line.strip()), "")
            # "1234:M 02 Dec 2026 14:00:00.000 # Can't open the log file: ..." → what it said
            return said.partition(" # ")[2].strip() or said.partition(" * ")[2].strip() or said.strip()
        return ""

    def _accepting(self) -> bool:
        family = socket.AF_UNIX if self.socket else socket.AF_INET
        address = str(self.socket) if self.socket else ("127.0.0.1", self.port)
        with socket.socket(family) as probe:
            return probe.connect_ex(address) == 0

    def stop(self) -> None:
        atexit.unregister(self.stop)
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        if self.socket is not None:
            shutil.rmtree(self.socket.parent, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
