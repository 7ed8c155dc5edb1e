"""dix_de_suite's spec: what the rest of the library needs to know about the game (``dixenv.games`` registry)."""

from __future__ import annotations

from dixenv.games import GameSpec, SoakConfig


def _soak() -> tuple[SoakConfig, ...]:
    # "sorting" moves (``experiments.soak.sorting_move``) end rounds; random moves alone rarely would.
    out: list[SoakConfig] = []
    for n in (2, 3, 4):
        out += [
            SoakConfig({"num_players": n}, "sorting"),
            SoakConfig({"num_players": n, "reshuffle": True, "reward": "points", "target_score": 300}, "sorting"),
            SoakConfig({"num_players": n, "run_bonus": True, "auto_forced": False, "target_score": 200}, "sorting"),
            SoakConfig({"num_players": n, "max_turns": 60, "target_score": 150}, "sorting", 0.3),  # truncations too
            SoakConfig({"num_players": n, "target_score": 200}, "heuristic", 0.05),
        ]
    out += [
        SoakConfig({"num_players": 2, "two_player_run": True, "target_score": 300}, "sorting"),
        SoakConfig({"num_players": 2, "two_player_run": True, "reshuffle": True, "run_bonus": True, "target_score": 300}, "sorting"),
        SoakConfig({"num_players": 4, "teams": True, "target_score": 300}, "sorting"),
        SoakConfig({"num_players": 4, "teams": True, "reshuffle": True, "run_bonus": True, "reward": "points", "target_score": 300}, "sorting"),
    ]
    return tuple(out)


SPEC = GameSpec(
    name="dix_de_suite",
    title="sort a rack of 10 cards into ascending order (Rack-O)",
    game="dixenv.games.dix_de_suite.game:GAME",
    env_module="dixenv.dix_de_suite_v0",
    players=(2, 3, 4),
    default_table={"num_players": 2},
    versus_id="dixenv/DixDeSuite-v0",
    versus_entry="dixenv.wrappers.versus:dix_de_suite",
    agents={"heuristic": "dixenv.agents.dix_de_suite_heuristic:DixDeSuiteHeuristic"},
    renderer="dixenv.render.dix_de_suite",
    view="dixenv.views:dix_de_suite_view",
    search_rules="dixenv.agents.search.dix_de_suite:RULES",
    openspiel="dixenv.openspiel:DIX_DE_SUITE_EXPORT",
    compiled="dixenv.games.dix_de_suite.compiled:DixDeSuiteBatch",
    compiled_state="dixenv.games.dix_de_suite.compiled:DixDeSuiteArrayState",
    stats="dixenv.experiments.game_stats:DixDeSuiteStats",
    soak=_soak(),
    soak_policies={"sorting": "dixenv.experiments.soak:sorting_move"},
)
