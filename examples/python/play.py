"""Plays Moot's three games through a running server with the client generated from
openapi/openapi.json (openapi-python-client): a whole Herfor game on the size-3 board, a whole
game of The High Kings of Tara and several turns of Hirþ.

    openapi-python-client generate --path ../../openapi/openapi.json --meta none \
        --output-path moot_client
    python3 play.py http://127.0.0.1:8080

Every request and answer is a generated type; a problem answer stops the program.
"""

import sys
from typing import TypeVar

from moot_client import Client
from moot_client.api.herfor import (
    herfor_apply,
    herfor_legal_moves,
    herfor_new_game,
    herfor_score,
)
from moot_client.api.hirth import hirth_apply, hirth_evaluate, hirth_new_game
from moot_client.api.tara import tara_apply, tara_evaluate, tara_new_game, tara_score
from moot_client.models import (
    HerforApplyRequest,
    HerforNewGameRequest,
    HerforOptions,
    HerforStateRequest,
    HerforStatusFinished,
    HirthApplyRequest,
    HirthEvaluateRequest,
    HirthNewGameRequest,
    HirthOptions,
    HirthStatusOngoing,
    Problem,
    StrengthName,
    TaraApplyRequest,
    TaraEvaluateRequest,
    TaraNewGameRequest,
    TaraStateRequest,
    TaraStatusFinished,
)

T = TypeVar("T")

#: A game longer than this is a bug in the server or here.
MAX_PLIES = 2000


def answer(result: T | Problem | None) -> T:
    """The answer, or the program stops with the problem the server reported."""
    if result is None:
        sys.exit("no answer the document declares")
    if isinstance(result, Problem):
        sys.exit(f"{result.status} {result.code}: {result.detail}")
    return result


def play_herfor(client: Client) -> None:
    """A whole game on the size-3 board: each player takes the first legal move."""
    game = answer(
        herfor_new_game.sync(
            client=client,
            body=HerforNewGameRequest(options=HerforOptions(size=3, pie=False)),
        )
    )
    state, status = game.state, game.status
    plies = 0
    while not isinstance(status, HerforStatusFinished):
        moves = answer(
            herfor_legal_moves.sync(client=client, body=HerforStateRequest(state=state))
        ).moves
        applied = answer(
            herfor_apply.sync(
                client=client, body=HerforApplyRequest(state=state, move=moves[0])
            )
        )
        state, status = applied.state, applied.status
        plies += 1
        assert plies < MAX_PLIES, "Herfor never ended"
    score = answer(herfor_score.sync(client=client, body=HerforStateRequest(state=state))).score
    print(
        f"herfor: {plies} plies, {status.reason}; black {score.black_total}, white {score.white_total}"
    )


def play_tara(client: Client) -> None:
    """A whole game: each player plays the computer's best move at the easy strength."""
    game = answer(tara_new_game.sync(client=client, body=TaraNewGameRequest()))
    state, status = game.state, game.status
    plies = 0
    while not isinstance(status, TaraStatusFinished):
        analysis = answer(
            tara_evaluate.sync(
                client=client,
                body=TaraEvaluateRequest(state=state, strength=StrengthName.EASY, seed=plies),
            )
        )
        move = analysis.best_move
        assert isinstance(move, str), "an ongoing game has a best move"
        applied = answer(
            tara_apply.sync(client=client, body=TaraApplyRequest(state=state, move=move))
        )
        state, status = applied.state, applied.status
        plies += 1
        assert plies < MAX_PLIES, "Tara never ended"
    score = answer(tara_score.sync(client=client, body=TaraStateRequest(state=state))).score
    print(
        f"tara: {plies} plies, {status.reason}; red {score.red.kingdoms} kingdoms, "
        f"blue {score.blue.kingdoms} kingdoms"
    )


def play_hirth(client: Client, turns: int) -> None:
    """A single game (target 1), `turns` turns: each move the computer's best at the easy
    strength; a turn ends when the other seat is to act."""
    game = answer(
        hirth_new_game.sync(
            client=client, body=HirthNewGameRequest(options=HirthOptions(target=1))
        )
    )
    state, status = game.state, game.status
    played, plies = 0, 0
    while played < turns and isinstance(status, HirthStatusOngoing):
        seat = status.to_act
        analysis = answer(
            hirth_evaluate.sync(
                client=client,
                body=HirthEvaluateRequest(state=state, strength=StrengthName.EASY, seed=plies),
            )
        )
        move = analysis.best_move
        assert isinstance(move, str), "an ongoing game has a best move"
        applied = answer(
            hirth_apply.sync(client=client, body=HirthApplyRequest(state=state, move=move))
        )
        state, status = applied.state, applied.status
        plies += 1
        if not isinstance(status, HirthStatusOngoing) or status.to_act != seat:
            played += 1
        assert plies < MAX_PLIES, "a Hirþ turn never ended"
    print(f"hirth: {played} turns in {plies} moves, round {state.round_}")


def main() -> None:
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    client = Client(base_url=base_url, raise_on_unexpected_status=True, timeout=60.0)
    play_herfor(client)
    play_tara(client)
    play_hirth(client, turns=6)


if __name__ == "__main__":
    main()
