"""Settings for the load benchmark's servers: ``cribsite.settings`` exactly, but a cheap password hasher.

Log-ins are set-up, not what the benchmark measures, and PBKDF2 at Django's 1,000,000 iterations
costs about 0.5 s of CPU each: 800 bots would spend over six CPU-minutes logging in on a 2-core
machine. ``python -m bench.load --real-hasher`` runs the servers on ``cribsite.settings`` instead.
"""

import os

from cribsite.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The drain benchmark's worker sends its emails nowhere (bench/drain.py).
if os.environ.get("BENCH_EMAIL_BACKEND"):
    EMAIL_BACKEND = os.environ["BENCH_EMAIL_BACKEND"]
