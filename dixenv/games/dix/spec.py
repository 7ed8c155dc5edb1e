"""dix's spec: what the rest of the library needs to know about the game (``dixenv.games`` registry)."""

from __future__ import annotations

from dixenv.games import GameSpec, SoakConfig


def _soak() -> tuple[SoakConfig, ...]:
    out: list[SoakConfig] = []
    for n in (2, 3, 4, 5):
        out += [
            SoakConfig({"num_players": n}),
            SoakConfig({"num_players": n, "bust_buy": True, "reward": "points"}),
            SoakConfig({"num_players": n, "auto_pay": True, "auto_forced": False}),
        ]
    for d in range(4, 11):
        out += [SoakConfig({"solo": True, "difficulty": d}), SoakConfig({"solo": True, "difficulty": d, "bust_buy": True, "auto_pay": True})]
    return tuple(out)


SPEC = GameSpec(
    name="dix",
    title="push-your-luck, set collection, auctions and a market (TEN), plus the solo game against ALIX",
    game="dixenv.games.dix.game:GAME",
    env_module="dixenv.dix_v0",
    players=(2, 3, 4, 5),
    default_table={"num_players": 2},
    versus_id="dixenv/Dix-v0",
    versus_entry="dixenv.wrappers.versus:dix",
    other_gymnasium_ids={"dixenv/DixSolo-v0": "dixenv.wrappers.solo:DixSoloEnv"},
    agents={"heuristic": "dixenv.agents.dix_heuristic:DixHeuristic", "alix": "dixenv.agents.alix:AlixAgent"},
    renderer="dixenv.render.dix",
    view="dixenv.views:dix_view",
    search_rules="dixenv.agents.search.dix:RULES",
    openspiel="dixenv.openspiel:DIX_EXPORT",
    compiled="dixenv.games.dix.compiled:DixBatch",
    compiled_state="dixenv.games.dix.compiled:DixArrayState",
    stats="dixenv.experiments.game_stats:DixStats",
    soak=_soak(),
)
