"""Boards: the table as one reader sees it (``table``), a player's board with what they can do on it
(``player``), and the status line of a board page (``status``)."""
