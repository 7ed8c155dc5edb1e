"""le_dix's spec: what the rest of the library needs to know about the game (``dixenv.games`` registry)."""

from __future__ import annotations

from dixenv.games import GameSpec, SoakConfig


def _soak() -> tuple[SoakConfig, ...]:
    out: list[SoakConfig] = []
    for n in (3, 4, 5):
        out += [
            SoakConfig({"num_players": n}),
            SoakConfig({"num_players": n, "scoring": "oh_hell", "reward": "points"}),
            SoakConfig({"num_players": n, "hook": True, "auto_forced": False}),
            SoakConfig({"num_players": n, "hook": True, "scoring": "oh_hell", "deals": (3, 1, 5)}),
        ]
    return tuple(out)


SPEC = GameSpec(
    name="le_dix",
    title="trick-taking with exact bids over ten deals (Oh Hell family)",
    game="dixenv.games.le_dix.game:GAME",
    env_module="dixenv.le_dix_v0",
    players=(3, 4, 5),
    default_table={"num_players": 4},
    versus_id="dixenv/LeDix-v0",
    versus_entry="dixenv.wrappers.versus:le_dix",
    agents={"heuristic": "dixenv.agents.le_dix_heuristic:LeDixHeuristic"},
    renderer="dixenv.render.le_dix",
    view="dixenv.views:le_dix_view",
    search_rules="dixenv.agents.search.le_dix:RULES",
    openspiel="dixenv.openspiel:LE_DIX_EXPORT",
    compiled="dixenv.games.le_dix.compiled:LeDixBatch",
    compiled_state="dixenv.games.le_dix.compiled:LeDixArrayState",
    stats="dixenv.experiments.game_stats:LeDixStats",
    soak=_soak(),
)
