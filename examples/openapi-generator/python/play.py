"""Plays a whole game of each of Moot's three games through a running server with the Python
client openapi-generator writes from openapi/openapi.json: every request and answer is one
of its models, checked by it.

    openapi-generator-cli generate -i ../../../openapi/openapi.json -g python \
        -o generated --package-name moot_openapi
    python3 play.py http://127.0.0.1:8080

Random legal moves, seeded; offers and giving up are left out for a while so that the games
end by their rules.
"""

import random
import sys

sys.path.insert(0, "generated")

import moot_openapi as moot  # noqa: E402

#: A game longer than this is a bug in the server or here.
MAX_PLIES = 3000
#: Plies before a game that wanders (random Hirþ can) is ended by an offer and giving up.
CALM = 400


def play(client: moot.ApiClient, game: str, options: dict, rng: random.Random) -> str:
    """One whole game of `game` (its id, e.g. `herfor`): its length and how it ended."""
    prefix = game.capitalize()
    api = getattr(moot, f"{prefix}Api")(client)
    model = lambda name: getattr(moot, f"{prefix}{name}")  # noqa: E731
    call = lambda name, body: getattr(api, f"{game}_{name}")(body)  # noqa: E731
    state = call("new_game", model("NewGameRequest").from_dict({"options": options})).state
    plies = 0
    while True:
        legal = call("legal_moves", model("StateRequest")(state=state))
        if not legal.moves:
            break
        calm = [m for m in legal.moves if m not in ("offer", "give-up")]
        ending = [m for m in legal.moves if m in ("give-up", "offer")]
        move = ending[0] if (plies >= CALM or not calm) and ending else rng.choice(calm)
        state = call("apply", model("ApplyRequest")(state=state, move=move)).state
        plies += 1
        assert plies < MAX_PLIES, f"{game}: the game did not end"
    call("score", model("StateRequest")(state=state))
    return f"{game}: {plies} plies, ended: {legal.status.actual_instance.reason}"


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    rng = random.Random(1)
    with moot.ApiClient(moot.Configuration(host=base)) as client:
        print(play(client, "herfor", {"size": 5}, rng))
        print(play(client, "tara", {}, rng))
        print(play(client, "hirth", {"target": 1}, rng))


if __name__ == "__main__":
    main()
