"""Live tables under abuse, through the production stack (``python -m bench.abuse``).

- :mod:`.wire`: a small asyncio WebSocket client and form posts (standard library),
  from a loopback address of the caller's choice.
- :mod:`.good`: well-behaved tables of two people, their move round trips and losses.
- :mod:`.abusers`: a flooder, a catch-up asker, a client that never reads, idle sockets,
  each from a loopback address of its own (nginx's per-address limits tell them apart
  from the good tables at 127.0.0.1).
- :mod:`.apart`: the abusers of a phase in a process of their own.
- :mod:`.lag_watch`: the benchmark client's own delays.
- :mod:`.run`: the phases, printed one a line, the last line JSON.

Everything goes to 127.0.0.1 only, with bounded counts and times.
"""
