"""A live table as its pages show it, shared by the lobby and a class: the table page,
the choices of a game that open one, the link to share and the computer players' levels.
The table itself is the service in ``games.tables``.
"""
