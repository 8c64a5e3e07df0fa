"""Live tables under load: simulated players speaking docs/protocol.md at tables opened
through the Play page's forms, played through the production stack (nginx and the table
processes), beside a bare Channels broadcast served by uvicorn alone, the baseline a
Channels site cannot beat (:mod:`.bare_asgi`).

- :mod:`.browser`: the forms before the WebSocket (cookies, CSRF).
- :mod:`.players`: the simulated players and what they time.
- :mod:`.runner`: one run: open the tables, play them, merge the measures.
- :mod:`.report`: a run's figures and whether it held the latency target.
- :mod:`.__main__`: the command line (``python -m bench.tables``).
"""
