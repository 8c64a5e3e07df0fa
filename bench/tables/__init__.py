"""Load benchmarks of the live tables (``manage.py bench_tables``): simulated players
speaking docs/protocol.md, a server started on 127.0.0.1, and a bare Channels
broadcast to compare with. Traffic goes to 127.0.0.1 only, bounded in count and time."""
