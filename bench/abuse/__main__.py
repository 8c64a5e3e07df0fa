"""``python manage.py bench_abuse``: the round trip p99 of well-behaved tables alone
and while one client floods, one resyncs from 0, one never reads and idle sockets
connect; the server's memory; last line JSON (games/play/abuse_bench)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from games.play.abuse_bench.run import ABUSE_PHASES, Terminated, main


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=20, help="well-behaved tables")
        parser.add_argument(
            "--phase-seconds", type=float, default=30.0,
            help="each phase's length (30: 600 moves, the p99 their 6th slowest)",
        )  # fmt: skip
        parser.add_argument(
            "--no-pin", action="store_true",
            help="leave the server and the clients on the same cores (see abuse_bench.server)",
        )  # fmt: skip
        parser.add_argument("--idle", type=int, default=1000, help="idle sockets (<= 2000)")
        parser.add_argument(
            "--settle-seconds", type=float, default=60.0, help="wait after the abuse"
        )
        parser.add_argument(
            "--catch-up-turns", type=int, default=200, help="the resynced game's length"
        )
        parser.add_argument(
            "--phases", default=",".join(ABUSE_PHASES),
            help="the abuse phases to run, comma-separated (all at once follows when "
            "there are several; the targets are judged on those run)",
        )  # fmt: skip
        parser.add_argument("--server-log", help="keep the server's output in this file")
        parser.add_argument(
            "--server-stalls-ms", type=float, default=0.0,
            help="the server times its loop and reports each stall over this many ms "
            "(in its output, and counted in each phase); costs the server some speed",
        )  # fmt: skip
        parser.add_argument(
            "--allocator",
            choices=["malloc", "pymalloc"],
            default="malloc",
            help="the server's PYTHONMALLOC (malloc: as README's production command)",
        )

    def say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()

    def handle(self, *args, **options) -> None:
        phases = tuple(p for p in options["phases"].split(",") if p)
        unknown = sorted(set(phases) - set(ABUSE_PHASES))
        if unknown or not phases:
            raise CommandError(
                f"--phases: unknown {', '.join(unknown) or '(none given)'}; "
                f"choose among {', '.join(ABUSE_PHASES)}"
            )
        try:
            main(
                tables=max(1, min(options["tables"], 50)),
                phase_s=max(2.0, min(options["phase_seconds"], 120.0)),
                idle=max(0, min(options["idle"], 2000)),
                settle_s=max(0.0, min(options["settle_seconds"], 300.0)),
                catch_up_turns=max(20, min(options["catch_up_turns"], 1000)),
                allocator=options["allocator"],
                server_log=options["server_log"],
                pin=not options["no_pin"],
                phases=phases,
                stall_ms=max(0.0, min(options["server_stalls_ms"], 1000.0)),
                say=self.say,
            )
        except (Terminated, KeyboardInterrupt) as stopped:
            self.stderr.write("bench_abuse: stopped, and its server with it")
            sys.exit(143 if isinstance(stopped, Terminated) else 130)
