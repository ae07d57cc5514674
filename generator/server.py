"""A warm scratchpress: commands start in milliseconds instead of a second of imports.

Every ``scratchpress`` process pays about a second before it can render anything: Python
loads typer, pydantic, Jinja, pikepdf and WeasyPrint, and WeasyPrint loads its fonts. A GM
who rebuilds after every edit, or an editor that runs ``build`` on save, pays it each time.
``scratchpress server start`` keeps one process with all of that loaded; while it runs,
each command sends its arguments, folder, environment and terminal to it and the server
forks a child that runs the command exactly as the command itself would have, in a fresh
copy of the loaded process. Nothing of one build survives into the next.

Safety: the server answers only callers of its own user (SO_PEERCRED) and only callers
running the same code: the socket's name carries a digest of our package files and Python,
so after an upgrade or an edit the old server is simply not found (and stops when idle).
A server left alone stops after IDLE_MINUTES; ``SCRATCHPRESS_NO_SERVER=1`` runs a command
on its own.
"""

from __future__ import annotations

import array
import contextlib
import gc
import hashlib
import json
import os
import signal
import socket
import struct
import sys
import time
from pathlib import Path
from typing import Any

IDLE_MINUTES = 30
_LENGTH = struct.Struct("!I")
_MAX_REQUEST = 1 << 20


def _run_dir() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "scratchpress"
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "scratchpress" / "run"


def code_digest() -> str:
    """Which code a server runs: our package files and the Python that runs them."""
    from .uptodate import snapshot

    package = str(Path(__file__).resolve().parent)
    files = snapshot([package], [])
    identity = json.dumps([sys.executable, sys.version, sorted(files.items())])
    return hashlib.sha256(identity.encode()).hexdigest()[:16]


def pid_path(digest: str | None = None) -> Path:
    return _run_dir() / f"server-{digest or code_digest()}.pid"


def address(digest: str | None = None) -> str:
    """The socket's name in Linux's abstract namespace: no file, so no 108-byte path limit
    and nothing left behind by a server that was killed. Anyone may try to connect to an
    abstract socket; the server answers only its own user (SO_PEERCRED)."""
    where = f"{os.getuid()}|{_run_dir()}|{digest or code_digest()}"
    return "\0scratchpress-" + hashlib.sha256(where.encode()).hexdigest()[:32]


def _private_dir() -> Path:
    folder = _run_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    return folder


# ---------------------------------------------------------------------------------------
# Client: runs inside every command, before anything heavy is imported
# ---------------------------------------------------------------------------------------


def _send(sock: socket.socket, payload: bytes, fds: list[int] | None = None) -> None:
    message = _LENGTH.pack(len(payload)) + payload
    if fds:
        socket.send_fds(sock, [message], fds)
    else:
        sock.sendall(message)


def _receive_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


def _receive(sock: socket.socket) -> bytes:
    (size,) = _LENGTH.unpack(_receive_exactly(sock, _LENGTH.size))
    if size > _MAX_REQUEST:
        raise ConnectionError("message too large")
    return _receive_exactly(sock, size)


def run_on_server(argv: list[str]) -> int | None:
    """Run this command on a warm server if one is up; None means run it here."""
    if os.environ.get("SCRATCHPRESS_NO_SERVER") or (argv and argv[0] == "server"):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(address())
    except OSError:
        sock.close()
        return None
    request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "umask": _umask()}
    child = 0
    try:
        _send(sock, json.dumps(request).encode(), [0, 1, 2])
        child = int(_receive(sock))
        while True:
            try:
                return int(_receive(sock))
            except KeyboardInterrupt:
                # The terminal interrupted us, not the child that does the work: pass it on
                # and wait for the child to stop the way the command would have.
                with contextlib.suppress(OSError):
                    os.kill(child, signal.SIGINT)
    except (OSError, ValueError, ConnectionError):
        if child:  # it started, then vanished: its output is already on the terminal
            return 1
        return None
    finally:
        sock.close()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# ---------------------------------------------------------------------------------------
# Server
# ---------------------------------------------------------------------------------------


def _preload() -> None:
    """Import everything a command may need, and render one line in every bundled face:
    WeasyPrint's first document in a process spends 0.4 s loading and shaping the fonts,
    and every build forked from here starts with that done."""
    import pikepdf  # noqa: F401
    import pypdf  # noqa: F401

    from . import build, cli  # noqa: F401
    from .render.engine import warm_up
    from .render.templating import environment
    from .resources import templates_dir

    warm_up()
    # Compile our templates once; a campaign's theme still gets an environment of its own.
    env = environment()
    for path in sorted(templates_dir().rglob("*.html")):
        env.get_template(path.relative_to(templates_dir()).as_posix())


def _peer_uid(conn: socket.socket) -> int:
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _, uid, _ = struct.unpack("3i", creds)
    return int(uid)


def _serve_one(conn: socket.socket, listener: socket.socket) -> None:
    """Fork a child that runs one command with the caller's terminal, folder and
    environment, and reports its exit code."""
    fds = array.array("i")
    message, ancillary, _, _ = conn.recvmsg(_MAX_REQUEST, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - (len(data) % fds.itemsize)])
    try:
        (size,) = _LENGTH.unpack(message[: _LENGTH.size])
        body = message[_LENGTH.size :]
        while len(body) < size:
            chunk = conn.recv(size - len(body))
            if not chunk:
                raise ConnectionError
            body += chunk
        request: dict[str, Any] = json.loads(body)
        if len(fds) != 3:
            raise ValueError("expected the caller's stdin, stdout and stderr")
    except (ValueError, ConnectionError, struct.error):
        for fd in fds:
            os.close(fd)
        return
    pid = os.fork()
    if pid:
        for fd in fds:
            os.close(fd)
        return
    # The child: become the caller's command.
    listener.close()
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        _adopt_streams()
        os.chdir(request["cwd"])
        confined = {k: v for k, v in os.environ.items() if k.startswith("FONTCONFIG")}
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ.update(confined)  # the fonts stay the bundled ones
        os.umask(int(request["umask"]))
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _send(conn, str(os.getpid()).encode())
        code = _run_command([str(a) for a in request["argv"]])
    except BaseException:  # the child must always report and exit
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        with contextlib.suppress(BaseException):
            _send(conn, str(code).encode())
        os._exit(code)


def _adopt_streams() -> None:
    """Python's stream objects were made for the server's own files; make new ones for
    the caller's, so buffering and terminal detection match a command run directly."""
    sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", buffering=1, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", buffering=1, closefd=False)  # noqa: SIM115


def _run_command(argv: list[str]) -> int:
    from . import uptodate

    code = uptodate.replay(argv)
    if code is not None:
        return code
    uptodate.ARGV = argv
    sys.argv = ["scratchpress", *argv]
    from .cli import main

    try:
        main()
    except SystemExit as stop:
        if stop.code is None:
            return 0
        return stop.code if isinstance(stop.code, int) else 1
    except KeyboardInterrupt:
        return 130
    return 0


def serve(idle_minutes: float = IDLE_MINUTES, ready: Any = None) -> None:
    """Listen until idle for ``idle_minutes``. ``ready`` is called once listening."""
    _preload()
    # Every command is a fork of this process; frozen objects are never walked by the
    # garbage collector, so a command does not copy the loaded libraries page by page.
    gc.collect()
    gc.freeze()
    _private_dir()
    digest = code_digest()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address(digest))  # fails if a server for this code already listens
    listener.listen(16)
    listener.settimeout(1.0)  # how soon a stop request or the idle limit is noticed
    pid_file = pid_path(digest)
    pid_file.write_text(str(os.getpid()), encoding="utf-8")
    stopping = False

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if ready is not None:
        ready()
    last = time.monotonic()
    try:
        while not stopping and time.monotonic() - last < idle_minutes * 60:
            _reap()
            if not _still_ours(pid_file):  # removed by `server stop`
                break
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except InterruptedError:
                continue
            last = time.monotonic()
            with conn:
                conn.settimeout(10.0)
                try:
                    if _peer_uid(conn) == os.getuid():
                        _serve_one(conn, listener)
                except OSError:
                    continue
    finally:
        listener.close()
        if _still_ours(pid_file):
            with contextlib.suppress(OSError):
                pid_file.unlink()


def _still_ours(pid_file: Path) -> bool:
    try:
        return pid_file.read_text(encoding="utf-8") == str(os.getpid())
    except OSError:
        return False


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def start_background(idle_minutes: float = IDLE_MINUTES) -> int:
    """Start a server detached from this terminal; return its pid once it listens."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the first child: a new session, then the server itself
        os.close(read_end)
        os.setsid()
        if os.fork():
            os._exit(0)
        null = os.open(os.devnull, os.O_RDWR)
        log = os.open(_private_dir() / "server.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)

        def ready() -> None:
            os.write(write_end, str(os.getpid()).encode())
            os.close(write_end)

        try:
            serve(idle_minutes, ready)
        except BaseException:  # say why in the log; nobody else will see it
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
        finally:
            os._exit(0)
    os.close(write_end)
    os.waitpid(pid, 0)
    with os.fdopen(read_end, "rb") as pipe:
        answer = pipe.read()
    return int(answer) if answer else 0


def running_pid() -> int | None:
    pid_file = pid_path()
    try:
        pid = int(pid_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return pid if _alive(pid) else None


def stop_server() -> list[int]:
    """Stop every server of this user, this version's and any older one's."""
    stopped = []
    for pid_file in sorted(_run_dir().glob("server-*.pid")):
        try:
            pid = int(pid_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        with contextlib.suppress(OSError):
            pid_file.unlink()
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
            stopped.append(pid)
    # Wait until they are gone, so the next command cannot still reach one of them.
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in stopped) and time.monotonic() < deadline:
        time.sleep(0.05)
    return stopped


def _alive(pid: int) -> bool:
    """Running, and not a zombie its new parent has yet to reap (containers often run no
    init that reaps)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False
