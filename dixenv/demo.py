"""Watch one game between baseline agents: ``python -m dixenv.demo GAME [--seed S] [--gif out.gif]``.

Prints the table at the start, then every event of the engines' move log in order, each with who
made it: the agents' decisions, the moves the game makes by itself (deals, a dix turn's first
draw, ALIX's turn, automatic payments, moves that were the only legal one, marked "(forced)") and
the markers of deals, tricks, rounds and scores, set apart; then the table and the scores at the
end. The agents default to each game's heuristic, so a game ends (uniform random players never
sort a dix de suite rack). ``--gif out.gif`` also writes the game as an animated picture (one
frame per decision), ``--png out.png --at MOVE`` a still picture of the table after MOVE
decisions (0: the start); both need Pillow (``pip install 'dixenv[render]'``). ``--viewer SEAT``
draws and narrates the game as one seat may know it (other hands and hidden cards masked)
instead of as the spectator, who sees everything.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Sequence

from dixenv.core.aec import CAPTION_EVENTS
from dixenv.views import MoveLog, observation_text

EXAMPLES = """examples:
  python -m dixenv.demo le_dix --players 4 --gif le_dix.gif
  python -m dixenv.demo dix --solo --difficulty 6 --png dix.png --at 20
  python -m dixenv.demo dix_de_suite --agents heuristic,random --option target_score=200 --viewer 0"""

PrintFn = Callable[..., None]
OnMove = Callable[[Any], None]
#: A GIF keeps every frame in memory until it is written (up to 0.75 MB each, twice while
#: writing): a longer game is cut short, its final position drawn as the last frame.
DEFAULT_MAX_FRAMES = 300
LAST_FRAME_SECONDS = 3.0


def table_text(env: Any, viewer: int | None) -> str:
    """The table as text: everything for the spectator, a seat's own view (``dixenv.views``) for a seat that is an agent."""
    raw = env.unwrapped
    agent = f"player_{viewer}"
    if viewer is not None and agent in raw.possible_agents:
        return observation_text(raw, viewer, raw.observe(agent))
    return raw.render()  # solo dix: ALIX sees what the spectator sees but the pile order, which nobody sees


def play_game(
    game: str,
    seed: int = 0,
    agents: Sequence[str] = ("heuristic",),
    viewer: int | str | None = None,
    on_move: OnMove | None = None,
    print_fn: PrintFn = print,
    **options: Any,
) -> list[float]:
    """Play one game of ``game`` between ``agents`` (names, one per seat, the last repeated), narrating every event.

    ``viewer`` (a seat, or None / "spectator") is whose view the narration and pictures keep to.
    ``on_move(raw_env)`` is called at the start and after every decision (for pictures).
    Returns the final scores.
    """
    from dixenv.agents.registry import env_module, make_agent  # lazy: dixenv does not import agents

    env = env_module(game).env(render_mode="ansi", render_viewer=viewer, **options)
    raw = env.unwrapped
    env.reset(seed=seed)
    names = list(agents) or ["heuristic"]
    players = {a: make_agent(game, names[min(k, len(names) - 1)], env, seed=seed + k) for k, a in enumerate(env.possible_agents)}
    seat = viewer_seat(raw)
    log = MoveLog(raw, seat)
    print_fn(table_text(env, seat))
    for line in log.new_lines():
        print_fn(line)
    if on_move is not None:
        on_move(raw)
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(players[agent].act(obs))
        decisions += 1
        for line in log.new_lines():
            print_fn(line)
        if on_move is not None:
            on_move(raw)
    print_fn(table_text(env, seat))
    scores = raw.scores()
    print_fn(f"game over after {decisions} decisions ({len(raw.events)} events); scores: {scores}")
    return scores


def viewer_seat(raw: Any) -> int | None:
    """The seat whose view an env's pictures show, None for the spectator."""
    return None if raw.render_viewer == "spectator" else raw.render_viewer


class Frames:
    """Pictures of the table drawn during a game (``play_game``'s ``on_move``): the positions ``keep`` wants.

    With ``max_frames`` (for a GIF) the pictures are kept in one 256-colour palette, chosen from
    the first picture and the game's card faces (``render.gif_palette``): a third of the memory,
    steady colours, and a GIF that stores only what changed. Once there are ``max_frames`` of
    them, the game's final position is drawn last.
    """

    def __init__(self, keep: Callable[[int], bool], max_frames: int | None = None):
        self.keep = keep  # position number (decisions played so far) -> draw it?
        self.max_frames = max_frames
        self.pictures: list[Any] = []
        self.positions = 0  # positions seen so far
        self._skipped: Any = None  # the env, when positions were left out: its final one is drawn last
        self._palette: Any = None

    def __call__(self, raw: Any) -> None:
        position, self.positions = self.positions, self.positions + 1
        if not self.keep(position):
            return
        if self.max_frames is not None and len(self.pictures) >= self.max_frames:
            self._skipped = raw
            return
        self._add(raw)

    def finish(self) -> None:
        """After the game: if positions were left out for ``max_frames``, draw the final one."""
        if self._skipped is not None:
            self._add(self._skipped)
            self._skipped = None

    def _add(self, raw: Any) -> None:
        from PIL import Image

        from dixenv.render import gif_palette, table_image

        seat = viewer_seat(raw)
        caption = [e.text_for(seat) for e in raw.events[-CAPTION_EVENTS:]]  # as the env's own pictures
        picture = table_image(raw.game.name, raw.state, seat, caption)
        if self.max_frames is not None:
            if self._palette is None:
                self._palette = gif_palette(raw.game.name, picture)
            picture = picture.quantize(palette=self._palette, dither=Image.Dither.NONE)
        self.pictures.append(picture)


def write_gif(path: str, pictures: list[Any], fps: float) -> None:
    """An animated GIF of ``pictures``, ``fps`` frames a second, the last one held longer."""
    step = max(20, int(round(1000 / fps)))  # GIF delays are in hundredths of a second
    durations = [step] * (len(pictures) - 1) + [int(LAST_FRAME_SECONDS * 1000)]
    pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=durations, loop=0)


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    from dixenv.games import game_names

    p = argparse.ArgumentParser(prog="python -m dixenv.demo", description=__doc__.splitlines()[0], epilog=EXAMPLES,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", default="le_dix", help=f"one of {', '.join(game_names())} (default le_dix)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deal and the agents (default 0)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    p.add_argument("--agents", default="heuristic",
                   help="comma-separated agent names, one per seat in seat order, the last repeated (default: heuristic)")
    p.add_argument("--solo", action="store_true", help="dix only: the solo game against ALIX (played by the environment)")
    p.add_argument("--difficulty", type=int, default=None, help="dix solo: ALIX's threshold 4..10")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option, repeatable (e.g. deals=(3,))")
    p.add_argument("--viewer", default="spectator", help="whose view to draw and narrate: a seat number or 'spectator' (default)")
    p.add_argument("--gif", metavar="PATH", help="write the game as an animated GIF, one frame per decision")
    p.add_argument("--fps", type=float, default=2.0, help="GIF frames per second (default 2)")
    p.add_argument("--max-frames", type=int, default=DEFAULT_MAX_FRAMES,
                   help=f"GIF frames at most; a longer game ends on its final position (default {DEFAULT_MAX_FRAMES})")
    p.add_argument("--png", metavar="PATH", help="write a still picture of the table (see --at)")
    p.add_argument("--at", type=int, default=None, metavar="MOVE", help="with --png: the table after this many decisions (default 0: the start)")
    return p


def main(argv: Sequence[str] | None = None, print_fn: PrintFn = print) -> int:
    """Run the command line; returns the exit status (0 done, 2 bad arguments)."""
    from dixenv.agents.registry import resolve_game
    from dixenv.play import game_options

    args = build_parser().parse_args(argv)
    try:
        game = resolve_game(args.game)
        options = game_options(args)
        _check_picture_args(args)
        viewer = int(args.viewer) if args.viewer.strip().lstrip("-").isdigit() else args.viewer
        gif = Frames(lambda position: True, args.max_frames) if args.gif else None
        at = args.at or 0
        still = Frames(lambda position: position == at) if args.png else None
        hooks = [f for f in (gif, still) if f is not None]

        def on_move(raw: Any) -> None:
            for hook in hooks:
                hook(raw)

        agents = [s.strip() for s in args.agents.split(",") if s.strip()]
        play_game(game, args.seed, agents, viewer, on_move if hooks else None, print_fn, **options)
    except (ValueError, ImportError) as exc:
        print_fn(f"error: {exc}")
        return 2
    if gif is not None:
        gif.finish()
        write_gif(args.gif, gif.pictures, args.fps)
        print_fn(f"wrote {args.gif}: {len(gif.pictures)} frames")
    if still is not None:
        if not still.pictures:
            print_fn(f"error: --at {at} is past the end of the game, which took {still.positions - 1} decisions")
            return 2
        still.pictures[0].save(args.png)
        print_fn(f"wrote {args.png}")
    return 0


def _check_picture_args(args: argparse.Namespace) -> None:
    """``ValueError`` for picture options out of range or without their file; ``ImportError`` without Pillow."""
    if args.fps <= 0:
        raise ValueError(f"--fps {args.fps} must be above 0")
    if args.max_frames < 1:
        raise ValueError(f"--max-frames {args.max_frames} must be at least 1")
    if args.at is not None and (args.at < 0 or not args.png):
        raise ValueError(f"--at {args.at} needs --png PATH and a number of decisions from 0")
    if args.gif or args.png:
        from dixenv.render import require_pillow

        require_pillow()


if __name__ == "__main__":
    sys.exit(main())
