"""A daphne worker seen from Linux's ``/proc``: its pid, age, resident memory and open connections.

Nothing here needs psutil. A worker is a child of the ``cribsite.serve`` supervisor whose command line
runs daphne; its port is the one after ``-p``. Its connections are the sockets among its open file
descriptors (``/proc/<pid>/fd`` links to ``socket:[inode]``), looked up by inode in the kernel's
tables of TCP sockets (``/proc/net/tcp`` and ``/proc/net/tcp6``):

- database: connected to port 5432 (PostgreSQL);
- Redis: connected to port 6379 (the channel layer, the cache and the sessions);
- clients: accepted on the worker's own port (websockets and keep-alive HTTP connections).

A listening socket is not a connection; a socket in any other state (CLOSE_WAIT too: a peer gone and
the worker not having closed its end is exactly what a leak looks like) is counted.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

DATABASE_PORT = 5432
REDIS_PORT = 6379
LISTEN = "0A"  # the kernel's TCP_LISTEN, in /proc/net/tcp's hex


@dataclass(frozen=True)
class Socket:
    local_port: int
    remote_port: int
    state: str  # the kernel's hex state: "01" established, "08" close-wait, "0A" listen…


@dataclass(frozen=True)
class Reading:
    """One worker at one moment (``at``: the bots' ``perf_counter()``)."""

    at: float
    port: int
    pid: int
    age_s: float  # how long the process had been running
    rss_mb: float  # VmRSS: resident memory
    database: int
    redis: int
    clients: int


def parse_tcp(text: str) -> dict[int, Socket]:
    """``/proc/net/tcp`` or ``tcp6`` as {inode: socket}; sockets without an inode (TIME_WAIT) are left out."""
    table = {}
    for line in text.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 10:
            continue
        inode = int(fields[9])
        if inode:
            table[inode] = Socket(int(fields[1].rsplit(":", 1)[1], 16), int(fields[2].rsplit(":", 1)[1], 16),
                                  fields[3])
    return table


def count_connections(inodes: set[int], table: dict[int, Socket], port: int) -> dict[str, int]:
    """How many of a process's sockets (``inodes``) go to the database, to Redis, and come from clients
    on ``port``."""
    counts = {"database": 0, "redis": 0, "clients": 0}
    for inode in inodes:
        socket = table.get(inode)
        if socket is None or socket.state == LISTEN:
            continue
        if socket.remote_port == DATABASE_PORT:
            counts["database"] += 1
        elif socket.remote_port == REDIS_PORT:
            counts["redis"] += 1
        elif socket.local_port == port:
            counts["clients"] += 1
    return counts


def parse_rss_mb(status: str) -> float | None:
    """VmRSS from ``/proc/<pid>/status``, in MB."""
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def worker_port(cmdline: list[str]) -> int | None:
    """The port of a daphne command line (``… -m daphne -b HOST -p PORT …``), None for anything else
    (the supervisor's chores are its children too)."""
    if "daphne" not in cmdline or "-p" not in cmdline:
        return None
    with contextlib.suppress(IndexError, ValueError):
        return int(cmdline[cmdline.index("-p") + 1])
    return None


def workers(supervisor: int) -> dict[int, int]:
    """The supervisor's daphne children now, as {port: pid}."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(entry.path, "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) != supervisor:
                continue
            port = worker_port(Path(entry.path, "cmdline").read_bytes().decode().split("\0"))
            if port is not None:
                found[port] = int(entry.name)
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (an exited child its parent has not reaped yet is not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def socket_inodes(pid: int) -> set[int]:
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in os.scandir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(fd.path)
                if target.startswith("socket:["):
                    inodes.add(int(target[8:-1]))
    return inodes


def age_seconds(pid: int) -> float:
    """Seconds since the process started (its start time in /proc/<pid>/stat, against the uptime)."""
    started = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - started / os.sysconf("SC_CLK_TCK")


def tcp_table() -> dict[int, Socket]:
    table = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            table.update(parse_tcp(Path(name).read_text()))
    return table


def read_workers(supervisor: int, at: float) -> list[Reading]:
    """A reading of each of the supervisor's workers (one that exits meanwhile is left out)."""
    table = tcp_table()
    out = []
    for port, pid in sorted(workers(supervisor).items()):
        with contextlib.suppress(OSError, IndexError, ValueError):
            rss = parse_rss_mb(Path(f"/proc/{pid}/status").read_text())
            if rss is None:
                continue
            counts = count_connections(socket_inodes(pid), table, port)
            out.append(Reading(at=at, port=port, pid=pid, age_s=round(age_seconds(pid), 1), rss_mb=rss,
                               **counts))
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU a process has used so far (0 for one that is gone)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        return parse_rss_mb(Path(f"/proc/{pid}/status").read_text()) or 0.0
    return 0.0


def backing_services(database: str) -> dict[int, str]:
    """The processes that serve the site beside its workers, as {pid: "database" or "redis"}: the
    PostgreSQL backends connected to ``database`` (their title names it: ``postgres: [CLUSTER:] USER
    DATABASE HOST(PORT) STATE``) and the Redis server. PostgreSQL's own background processes (the WAL
    writer, the checkpointer) serve every database on the machine and are left out."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            title = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            words = title.split()
            if len(words) >= 3 and words[0] == "postgres:" and database in words[2:4]:
                found[int(entry.name)] = "database"
            elif words and words[0].rsplit("/", 1)[-1].startswith("redis-server"):
                found[int(entry.name)] = "redis"
    return found


def services_cpu(pids: dict[int, str]) -> dict[str, float]:
    """CPU seconds so far of each kind of ``backing_services``."""
    out = {"database": 0.0, "redis": 0.0}
    for pid, kind in pids.items():
        out[kind] += cpu_seconds(pid)
    return out
