"""Command line: ``python -m engine {play,replay,match,bench}``."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence

from .bench import run as run_bench
from .errors import IllegalMove, InvalidPosition
from .match import play_series, progress_bar, report
from .playout import random_step
from .records import Record, export_record, parse_record, replay
from .render import board_text
from .state import State
from .variants import GAMES, new_game, variant

PLAY_HELP = """\
Commands while playing:
  <move>          a move in notation, e.g. a3-b4(b4), g9-e7(*), e5<(a1,b2), c3-d4^ or pass
  moves           list the legal base moves
  choices <move>  what a base move still needs (effect cells, meeting, twists)
  reorient <cell> what a reorientation of that chevron may cost and remove
  board           show the board again
  resign          resign (the others play on)
  save <file>     write the game record so far
  help            this text
  quit            leave
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Rules engine for Shacru, Azacru and Pacru (2-4 players).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play in the terminal, hot-seat or against random movers.\n\n" + PLAY_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("--game", choices=GAMES, default="pacru")
    play.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    pacru = variant("pacru")
    play.add_argument(
        "--edition", choices=pacru.editions, default=pacru.default_edition, help=f"{pacru.label} edition"
    )
    play.add_argument("--ply-limit", type=int, default=1000)
    play.add_argument(
        "--seats",
        default=None,
        help="comma-separated 'human' or 'random' per seat (default: human, then random)",
    )
    play.add_argument("--seed", type=int, default=None, help="seed for the random movers")
    play.add_argument("--no-color", action="store_true", help="plain board without ANSI colours")
    play.add_argument("--record", metavar="FILE", help="write the game record here at the end")

    rep = sub.add_parser(
        "replay",
        help="validate a game record and print the final position and result",
        description="Replay a record; an illegal move is reported with its ply and the reason.",
    )
    rep.add_argument("file", help="record file ('-' for standard input)")

    match = sub.add_parser(
        "match",
        help="bot-versus-bot series with seats rotated; win rates with 95%% intervals",
        description="Play a series between bots (levels 1 to 8, or the kinds random, greedy, search), "
        "rotating seats so every bot plays every seat equally. A bot ranked first alone wins; a shared "
        "first place is half a win each. Levels search a fixed amount of work per move (the same on any "
        "machine); --budget only sets the thinking time of the kind 'search'.",
    )
    match.add_argument("--game", choices=GAMES, default="pacru")
    match.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    match.add_argument(
        "--bots",
        default="greedy,random",
        help="comma-separated levels (1-8, random, greedy, search), one per seat",
    )
    match.add_argument("--games", type=int, default=20)
    match.add_argument("--budget", type=float, default=0.2, help="seconds per move for the search bot")
    match.add_argument("--seed", type=int, default=1)
    match.add_argument("--ply-limit", type=int, default=1000)

    bench = sub.add_parser("bench", help="measure engine speed (plies and move generations per second)")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per figure (default 1)")
    bench.add_argument("--game", choices=GAMES, action="append", help="limit to these games")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "play":
        return _play(args)
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "match":
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        try:
            tally = play_series(
                args.game,
                args.players,
                bots,
                args.games,
                args.budget,
                args.seed,
                progress_bar,
                args.ply_limit,
            )
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        print(f"{args.game}, {args.players} players, {args.games} games, bots {', '.join(bots)}")
        for line in report(tally, bots):
            print(line)
        return 0
    run_bench(args.seconds, tuple(args.game) if args.game else GAMES)
    return 0


def _replay(path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        record = parse_record(text)
        state = replay(record)
    except (InvalidPosition, IllegalMove) as exc:
        print(f"invalid record: {exc}", file=sys.stderr)
        return 1
    print(board_text(state))
    print(f"{len(record.actions)} actions, ply {state.ply}")
    print(_result_line(state))
    return 0


def _result_line(state: State) -> str:
    if not state.is_over:
        return f"game not over: seat {state.to_move} to move"
    ranks = ", ".join(f"seat {s}: rank {r} ({state.counts[s]} markers)" for s, r in state.ranking().items())
    winner = f"seat {state.winner} wins" if state.winner else "no single winner"
    return f"game over ({state.end_reason}): {winner}; {ranks}"


def _play(args: argparse.Namespace) -> int:
    seats = (args.seats or ",".join(["human"] + ["random"] * (args.players - 1))).split(",")
    if len(seats) != args.players or any(s not in ("human", "random") for s in seats):
        print(f"--seats needs {args.players} entries, each 'human' or 'random'", file=sys.stderr)
        return 2
    options: dict[str, object] = {"ply_limit": args.ply_limit}
    if variant(args.game).has_editions:
        options["edition"] = args.edition
    state = new_game(args.game, args.players, **options)
    record = Record(args.game, args.players, args.edition, args.ply_limit)
    rng = random.Random(args.seed)
    color = not args.no_color and sys.stdout.isatty()
    show: Callable[[State], None] = lambda s: print("\n" + board_text(s, color=color))  # noqa: E731
    print(f"{args.game.capitalize()}, {args.players} players. Type 'help' for commands.")
    show(state)
    while not state.is_over:
        seat = state.to_move
        if seats[seat - 1] == "random":
            state, text = random_step(state, rng)
            record.actions.append(text)
            print(f"seat {seat} plays {text}")
            show(state)
            continue
        try:
            line = input(f"seat {seat}> ").strip()
        except EOFError:
            print()
            break
        after = _command(state, line, record, show)
        if after is None:
            break
        state = after
    else:
        print(_result_line(state))
    if args.record:
        with open(args.record, "w", encoding="utf-8") as fh:
            fh.write(export_record(record))
        print(f"record written to {args.record}")
    return 0


def _command(state: State, line: str, record: Record, show: Callable[[State], None]) -> State | None:
    word, _, rest = line.partition(" ")
    word = word.lower()
    try:
        if word in ("quit", "exit"):
            return None
        if word in ("", "help", "?"):
            print(PLAY_HELP)
        elif word == "board":
            show(state)
        elif word == "moves":
            print(" ".join(state.base_moves()))
        elif word == "choices":
            c = state.choices(rest)
            for move in c.moves()[:60]:
                print(" ", move)
        elif word == "reorient":
            r = state.reorientations(rest)
            print(f"turns: {' '.join(r.turns) or 'none affordable'}; removable: {' '.join(r.removable)}")
        elif word == "resign":
            record.actions.append(f"resign {state.to_move}")
            state = state.eliminate(state.to_move, "resign")
            show(state)
        elif word == "save":
            with open(rest, "w", encoding="utf-8") as fh:
                fh.write(export_record(record))
            print(f"saved to {rest}")
        else:
            state = state.play(line)
            assert state.last_move is not None
            record.actions.append(state.last_move)
            show(state)
    except (IllegalMove, OSError) as exc:
        print(f"  {exc}")
    return state


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
