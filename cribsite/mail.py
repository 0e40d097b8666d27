"""The mail backend of a production site with no mail server configured (``EMAIL_HOST`` unset).

Django's console backend would print every email, body and links, into the production log, and
report it sent. This one sends nothing, says so in one line without the message, and answers 0
(none sent), so the code that sent it logs the notice as not sent. ``check --deploy`` warns about it.
"""

from __future__ import annotations

import logging

from django.core.mail.backends.base import BaseEmailBackend

log = logging.getLogger("cribsite.mail")


class NoMailServerBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        messages = list(email_messages)
        if messages:
            log.warning("%d email%s not sent: no mail server is configured (set EMAIL_HOST)",
                        len(messages), "" if len(messages) == 1 else "s")
        return 0
