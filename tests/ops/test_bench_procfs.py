"""bench.load's /proc readings: a worker's memory and connections without psutil."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.load import procfs

TCP = """\
  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:20D0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 101 1 0
   1: 0100007F:A1B2 0100007F:1538 01 00000000:00000000 00:00000000 00000000     0        0 102 1 0
   2: 0100007F:A1B3 0100007F:18EB 01 00000000:00000000 00:00000000 00000000     0        0 103 1 0
   3: 0100007F:20D0 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 104 1 0
   4: 0100007F:20D0 0100007F:C351 08 00000000:00000000 00:00000000 00000000     0        0 105 1 0
   5: 0100007F:20D0 0100007F:C352 06 00000000:00000000 03:00000000 00000000     0        0 0 3 0
"""
TCP6 = (
    "  sl  local_address                         remote_address                        st tx_queue rx_queue\n"
    "   0: 0000000000000000FFFF00000100007F:A1B4 0000000000000000FFFF00000100007F:1538 01"
    " 00000000:00000000 00:00000000 00000000     0        0 106 1 0\n"
)


def test_the_kernels_tables_give_each_socket_its_ports_and_state():
    table = {**procfs.parse_tcp(TCP), **procfs.parse_tcp(TCP6)}
    assert table[101] == procfs.Socket(8400, 0, "0A")
    assert table[102] == procfs.Socket(41394, 5432, "01")
    assert table[106] == procfs.Socket(41396, 5432, "01")
    assert 0 not in table  # TIME_WAIT: no inode, nobody's socket


def test_a_workers_sockets_are_counted_as_database_redis_and_clients():
    table = {**procfs.parse_tcp(TCP), **procfs.parse_tcp(TCP6)}
    counts = procfs.count_connections({101, 102, 103, 104, 105, 106, 999}, table, 8400)
    # Listening is not a connection; a client gone whose socket the worker has not closed (CLOSE_WAIT) is.
    assert counts == {"database": 2, "redis": 1, "clients": 2}
    assert procfs.count_connections({104}, table, 8401) == {"database": 0, "redis": 0, "clients": 0}


def test_resident_memory_and_the_workers_port():
    assert procfs.parse_rss_mb("Name:\tpython\nVmPeak:\t  9000 kB\nVmRSS:\t  102400 kB\n") == 100.0
    assert procfs.parse_rss_mb("Name:\tzombie\n") is None
    daphne = ["/venv/bin/python", "-m", "daphne", "-b", "127.0.0.1", "-p", "8401", "-v", "0",
              "cribsite.asgi:application"]
    assert procfs.worker_port(daphne) == 8401
    assert procfs.worker_port(["/venv/bin/python", "/repo/manage.py", "tournament_forfeits"]) is None


def test_this_processes_own_connection_is_found_in_proc():
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            accepted, _ = server.accept()
            with accepted:
                counts = procfs.count_connections(procfs.socket_inodes(os.getpid()), procfs.tcp_table(), port)
                assert counts["clients"] == 1  # the accepted end; the listener and the client's end are not
                assert client.fileno() > 0
    assert procfs.age_seconds(os.getpid()) > 0 and procfs.running(os.getpid())
    assert not procfs.running(2**22 + 1)  # above the kernel's largest pid: no such process
    assert procfs.workers(os.getpid()) == {}  # no daphne children here


def test_an_exited_child_its_parent_has_not_reaped_is_not_running():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        for _ in range(200):  # bounded: 10 s
            if not procfs.running(child.pid):
                break
            time.sleep(0.05)
        assert not procfs.running(child.pid)
        assert Path(f"/proc/{child.pid}").exists()  # a zombie until its parent waits for it
    finally:
        child.wait(timeout=10)


def test_the_database_s_backends_and_redis_are_found_by_their_titles():
    """PostgreSQL names each backend's database in its title, with or without the cluster's name;
    the machine's PostgreSQL and Redis run on this machine kind, and a connection of our own shows."""
    import psycopg

    url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    database = url.rsplit("/", 1)[1]
    try:
        conn = psycopg.connect(url, connect_timeout=5)
    except psycopg.OperationalError:
        pytest.skip("needs the machine's PostgreSQL")
    with conn:
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        found = procfs.backing_services(database)
    assert found.get(backend) == "database"
    assert "redis" in found.values()
    assert procfs.cpu_seconds(backend) >= 0 and procfs.cpu_seconds(-1) == 0.0


def test_the_tables_two_cores_hold_are_their_seconds_over_a_table_s_cpu():
    from bench.load.figures import capacity

    # 100 tables for 60 s cost the workers 6 CPU seconds and PostgreSQL and Redis 2 more: a table
    # costs 1.33 ms of CPU a second all in, 1 ms for the workers alone.
    held = capacity({"servers": 6.0, "database": 1.5, "redis": 0.5, "bots": 9.0}, 100, 60.0)
    assert held == {"all_in": 1500, "workers_only": 2000}
    assert capacity({"servers": 0.0, "database": 0.0, "redis": 0.0, "bots": 0.0}, 1, 1.0)["all_in"] is None
