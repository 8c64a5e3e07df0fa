"""``python manage.py bench_abuse``: live tables under abuse, measured against daphne.

- :mod:`.wire`: a small asyncio WebSocket client and form posts (standard library).
- :mod:`.server`: daphne on a temporary SQLite database, and its memory.
- :mod:`.good`: well-behaved tables of two people, their move round trips and losses.
- :mod:`.abusers`: a flooder, a catch-up resyncer, a client that never reads, idle
  sockets.
- :mod:`.run`: the phases, printed one a line, the last line JSON.

Everything goes to 127.0.0.1 only, with bounded counts and times.
"""
