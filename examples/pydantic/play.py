"""Plays a whole game of each of Moot's three games through a running server with pydantic
models generated from openapi/openapi.json by datamodel-code-generator: every answer is
validated by its model, and every state goes back as pydantic writes it (its unset members
as `null`; `by_alias=True`, as with any model whose member is named by a Python keyword: the
field `from_` is JSON's `from`).

    datamodel-codegen --input ../../openapi/openapi.json --input-file-type openapi \
        --output-model-type pydantic_v2.BaseModel --set-default-enum-member --output models.py
    python3 play.py http://127.0.0.1:8080

Random legal moves, seeded; offers and giving up are left out for a while so that the games
end by their rules. A refused request stops the program with the server's problem.
"""

import json
import random
import sys
import urllib.error
import urllib.request

import models

#: A game longer than this is a bug in the server or here.
MAX_PLIES = 3000
#: Plies before a game that wanders (random Hirþ can) is ended by an offer and giving up.
CALM = 400


def post(base: str, path: str, body: str, model):
    """POSTs a JSON body; the answer validated by `model`, or the program stops."""
    request = urllib.request.Request(
        base + path,
        data=body.encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return model.model_validate_json(answer.read())
    except urllib.error.HTTPError as refused:
        sys.exit(f"{path}: {refused.code} {refused.read().decode()}")


def finished(status) -> bool:
    return status.root.phase == "finished"


def play(base: str, game: str, prefix: str, options: dict, rng: random.Random) -> str:
    """Plays one whole game of `game` (its models' prefix, e.g. `Herfor`): its length and how
    it ended."""
    new_request = getattr(models, f"{prefix}NewGameRequest")
    state_request = getattr(models, f"{prefix}StateRequest")
    apply_request = getattr(models, f"{prefix}ApplyRequest")
    api = f"/api/v1/games/{game}"
    answer = post(
        base,
        f"{api}/new",
        new_request.model_validate({"options": options}).model_dump_json(by_alias=True),
        getattr(models, f"{prefix}GameResponse"),
    )
    state, plies, answers, nulls = answer.state, 0, 1, 0
    while True:
        legal = post(
            base,
            f"{api}/legal-moves",
            state_request(state=state).model_dump_json(by_alias=True),
            getattr(models, f"{prefix}LegalMovesResponse"),
        )
        answers += 1
        if finished(legal.status):
            break
        assert legal.moves, f"{game}: an ongoing game offers a move"
        calm = [m for m in legal.moves if m not in ("offer", "give-up")]
        ending = [m for m in legal.moves if m in ("give-up", "offer")]
        move = ending[0] if (plies >= CALM or not calm) and ending else rng.choice(calm or legal.moves)
        body = apply_request(state=state, move=move).model_dump_json(by_alias=True)
        nulls += ":null" in body
        applied = post(base, f"{api}/apply", body, getattr(models, f"{prefix}ApplyResponse"))
        answers += 1
        state, plies = applied.state, plies + 1
        assert plies < MAX_PLIES, f"{game}: the game did not end"
    score = post(
        base,
        f"{api}/score",
        state_request(state=state).model_dump_json(by_alias=True),
        getattr(models, f"{prefix}ScoreResponse"),
    )
    answers += 1
    reason = json.loads(legal.status.model_dump_json()).get("reason", "")
    assert score is not None
    return (
        f"{game}: {plies} plies, {answers} answers validated, {nulls} states sent with nulls, "
        f"ended: {reason}"
    )


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    rng = random.Random(1)
    print(play(base, "herfor", "Herfor", {"size": 5, "pie": True}, rng))
    print(play(base, "tara", "Tara", {}, rng))
    print(play(base, "hirth", "Hirth", {"target": 1}, rng))


if __name__ == "__main__":
    main()
