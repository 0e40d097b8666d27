"""An email backend for a task worker process a test starts: each message a line in ``MAIL_FILE``
(written and flushed before the send returns), so the test reads what went even after the worker
was killed. With ``MAIL_HOLD_AFTER=n`` the send after the n-th blocks, as a mail server that never
answers would, once it has said so in ``MAIL_FILE.held``: the test kills the worker there."""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend


class FileMailBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        path = Path(os.environ["MAIL_FILE"])
        hold = os.environ.get("MAIL_HOLD_AFTER")
        sent = 0
        for message in email_messages:
            done = len(path.read_text().splitlines()) if path.exists() else 0
            if hold and done >= int(hold):
                Path(f"{path}.held").write_text(message.to[0])
                fifo = f"{path}.fifo"
                os.mkfifo(fifo)
                os.open(fifo, os.O_RDONLY)  # blocks until a writer opens it: none does
            with path.open("a") as out:
                out.write(json.dumps({"to": message.to, "subject": message.subject}) + "\n")
                out.flush()
                os.fsync(out.fileno())
            sent += 1
        return sent
