"""Load benchmark: many games at once against the production set-up (not a timed test).

    python -m bench.load                          # 50, 100, 200 and 400 games, a table
    python -m bench.load --games 200 --json       # one level, one JSON object
    python -m bench.load --levels 50,100 --duration 90
    python -m bench.load --soak 30                # 100 games for 30 min, a worker killed every 3 min
    python -m bench.load --pace human --levels 150,300,600   # a person's pace: 2-8 s a move

It starts the site as ``make serve`` does (``cribsite.serve``: two daphne processes, DEBUG off,
PostgreSQL and Redis) on 127.0.0.1, then runs bot players in pairs, as browsers would: each bot
logs in by POSTing the log-in form with its CSRF token, one of a pair invites the other through
the lobby's seek form and the other accepts from its lobby, both open the game's websocket
(with an Origin header, and the ``?tab=`` id a board page gives its socket), and they play whole
games reading only board HTML (``data-version``, the ``button.playable`` cards, the discard
checkboxes, the cut, Go, Next hand and Next game buttons), POSTing to ``/games/<id>/act/`` with
``X-CSRFToken``, ``HX-Request: true`` and ``X-Board-Tab``: as in a browser, a bot's own move comes
back in the answer (its socket is spared that push) and the opponent's socket is pushed it. Each
bot thinks 0.5-2 s before every move, a quick human's pace (``--pace quick``, the default, which
finds what saturates the servers), or 2-8 s with ``--pace human``, about a person's pace. The two
bots of a pair use different daphne processes, so every push crosses Redis.

Figures for each level, measured over ``--duration`` seconds from ``--warmup`` seconds after every
pair has started (the set-up's own burst, every game of the level created and its two sockets
opened within seconds, is not the steady play the level measures; errors count from the start):

- moves per second (moves the server accepted);
- latency: from a bot's POST being sent to the *opponent's* socket receiving a board of the new
  version (p50, p95, p99 in ms);
- answer: from that POST to the bot's own answer (the mover's new board), the part of the
  opponent's wait spent in the move's request (median in the table, all three in ``--json``);
- echo: in the same run and under the same load, a bare Channels round trip ("ping" to the
  ``/ws/health/`` consumer and its "pong" back), the floor any push latency sits on; the idle echo
  (before any load) is printed too;
- errors: 5xx and unexpected statuses, timeouts, dropped sockets, pushes that never came,
  bots left waiting for a board. A 409 (the board changed under the bot's move) is not an
  error: the bot gets the new board in the answer and goes on, as a browser does;
- CPU: the daphne workers' per move (``server_cpu_ms_per_move``), their database's PostgreSQL
  backends' and Redis's, the three together ("all in"), and the bots' beside (they share the cores);
  from that, how many tables two cores would hold at the pace measured (``tables_on_two_cores``);
- with ``--idle SECONDS`` (30 by default with ``--pace human``), every game is set up and held open
  that long before its first move: the CPU an idle open table costs a minute (its sockets'
  heartbeats and presence), and the workers' memory for each open table;
- with ``--series``, the latency second by second (moves, p50, p95, max): where a tail comes from;
- with ``--stages``, each stage of a move's way (the request read, the middleware, the move and its
  commit, the push through Redis, the opponent's board drawn and sent) p50, p90 and p99: where the
  time goes (``bench/stages.py``; the servers then log a line per stage, a little extra work).

``--soak MINUTES`` runs a soak instead: one long run at a human pace while a worker is killed every
few minutes, a line of figures a minute, and checks at the end (the move log against what the bots
were told, errors, memory, connections): see ``bench/load/soak.py``.

Everything is bounded: a level lasts ``--duration`` s after a set-up of at most ``SETUP_SECONDS``,
every request and wait has a timeout, and only 127.0.0.1 is contacted. The servers use their own
database (``--database-url``, created if missing) and a channel prefix of their own in Redis.
"""

from __future__ import annotations

from bench.load.board import (
    ACCEPT_FORM,
    BOARD_VERSION,
    BUTTON,
    CSRF_INPUT,
    CUT_BUTTON,
    DISCARD_BOX,
    PHASE,
    PLAYABLE,
    board_version,
    decide,
    options,
    phase,
)
from bench.load.bots import (
    HTTP_TIMEOUT,
    PACES,
    PASSWORD,
    SOCKET_OPEN_TIMEOUT,
    STALL_SECONDS,
    THINK_SECONDS,
    Bot,
    BotError,
    Level,
    latencies,
    traced,
)
from bench.load.cli import main, main_async
from bench.load.figures import (
    ECHO_GAMES,
    ECHO_TIMES,
    TARGET_GAMES,
    interpreter,
    machine_speed,
    over_echo,
    per_second,
    percentiles,
    print_table,
    saturation,
    targets,
)
from bench.load.levels import (
    ECHO_PAUSE,
    ECHO_SOCKETS_PER_SERVER,
    GRACE_SECONDS,
    LEVELS,
    SETUP_CONCURRENCY,
    SETUP_SECONDS,
    WARMUP_SECONDS,
    WIND_DOWN_SECONDS,
    echo_client,
    log_in_all,
    quiet_collector,
    run_level,
    run_pair,
    start_game,
)
from bench.load.servers import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    HOST,
    ROOT,
    SERVER_START_SECONDS,
    Servers,
    call_off_open_games,
    ensure_database,
    prepare,
    server_env,
    vacuum,
)

__all__ = [
    "ACCEPT_FORM",
    "BOARD_VERSION",
    "board_version",
    "Bot",
    "BotError",
    "BUTTON",
    "call_off_open_games",
    "CSRF_INPUT",
    "CUT_BUTTON",
    "decide",
    "DEFAULT_DATABASE_URL",
    "DEFAULT_REDIS_URL",
    "DISCARD_BOX",
    "echo_client",
    "ECHO_GAMES",
    "ECHO_PAUSE",
    "ECHO_SOCKETS_PER_SERVER",
    "ECHO_TIMES",
    "ensure_database",
    "GRACE_SECONDS",
    "HOST",
    "HTTP_TIMEOUT",
    "interpreter",
    "latencies",
    "Level",
    "LEVELS",
    "log_in_all",
    "machine_speed",
    "main",
    "main_async",
    "options",
    "over_echo",
    "PACES",
    "PASSWORD",
    "per_second",
    "percentiles",
    "PHASE",
    "phase",
    "PLAYABLE",
    "prepare",
    "print_table",
    "quiet_collector",
    "ROOT",
    "run_level",
    "run_pair",
    "saturation",
    "server_env",
    "SERVER_START_SECONDS",
    "Servers",
    "SETUP_CONCURRENCY",
    "SETUP_SECONDS",
    "SOCKET_OPEN_TIMEOUT",
    "STALL_SECONDS",
    "start_game",
    "TARGET_GAMES",
    "targets",
    "THINK_SECONDS",
    "traced",
    "vacuum",
    "WARMUP_SECONDS",
    "WIND_DOWN_SECONDS",
]
