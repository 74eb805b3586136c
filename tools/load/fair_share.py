#!/usr/bin/env python3
"""Is the computer player shared fairly? Against a running server, for SECONDS:

- `api`: ATTACKERS clients (each its own address, through X-Forwarded-For) loop
  `evaluate` with the longest time budget the server allows, one request at a time each; a
  well-behaved user (another address) asks for one `evaluate` of 300 playouts every 2 s.
- `pages`: the attackers loop strong computer turns on play pages (each a position of its
  own, so no two join one search); a player asks for the computer's move every 2 s.

Prints what the well-behaved client got: answers by status, and the time to each answer
(p50, max), and what the attackers got.

The server must trust forwarded addresses, so that the attackers are as many clients:

    moot --trust-forwarded &
    python3 tools/load/fair_share.py http://127.0.0.1:8080 api 30 4

Python's standard library only; each client a thread.
"""

import json
import random
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request

BASE, MODE = sys.argv[1], sys.argv[2]
SECONDS = int(sys.argv[3]) if len(sys.argv) > 3 else 30
ATTACKERS = int(sys.argv[4]) if len(sys.argv) > 4 else 4
HERFOR_7 = "/api/v1/games/herfor"
POINTS = [f"{c}{r}" for c in "abcdefghijklm" for r in range(1, 14)]


def send(method, path, body=None, client="192.0.2.1"):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("X-Forwarded-For", client)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            payload = answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        payload = error.read()
        status = error.code
    return status, time.perf_counter() - started, payload


def start_state():
    status, _, payload = send("POST", f"{HERFOR_7}/new", {"options": {"size": 7, "pie": False}})
    assert status == 200, payload
    return json.loads(payload)["state"]


def legal_first_moves():
    status, _, payload = send("POST", f"{HERFOR_7}/legal-moves", {"state": start_state()})
    assert status == 200, payload
    return json.loads(payload)["moves"]


def attacker_request(index, firsts):
    """One abusive request of attacker `index`."""
    client = f"198.51.100.{index + 1}"
    if MODE == "api":
        return send("POST", f"{HERFOR_7}/evaluate", {"state": STATE, "millis": 2000}, client)
    move = random.choice(firsts)
    path = f"/play/herfor?pie=false&size=7&computer=second&strength=strong&moves={move}"
    return send("GET", path, client=client)


def user_request(round_):
    if MODE == "api":
        return send("POST", f"{HERFOR_7}/evaluate", {"state": STATE, "playouts": 300, "seed": round_})
    move = FIRSTS[round_ % len(FIRSTS)]
    path = f"/play/herfor?pie=false&size=7&computer=second&strength=normal&moves={move}"
    return send("GET", path)


def summary(name, results):
    statuses = {}
    for status, _, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    times = sorted(elapsed for status, elapsed, _ in results if status == 200)
    timing = (
        f"answered in p50 {statistics.median(times) * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
        if times else "no answer"
    )
    counts = ", ".join(f"{count}× {status}" for status, count in sorted(statuses.items()))
    print(f"{name}: {len(results)} requests: {counts}; {timing}")


def main():
    global STATE, FIRSTS
    STATE = start_state()
    FIRSTS = legal_first_moves()
    with open("/proc/loadavg") as load:
        print("load average:", " ".join(load.read().split()[:3]))
    stop = time.monotonic() + SECONDS
    attacks = [[] for _ in range(ATTACKERS)]

    def attack(index):
        while time.monotonic() < stop:
            attacks[index].append(attacker_request(index, FIRSTS))

    threads = [threading.Thread(target=attack, args=(i,)) for i in range(ATTACKERS)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    user = []
    round_ = 0
    while time.monotonic() < stop - 2:
        user.append(user_request(round_))
        round_ += 1
        time.sleep(2)
    for thread in threads:
        thread.join()
    print(f"{MODE}: {ATTACKERS} attackers looping for {SECONDS} s")
    summary("well-behaved client", user)
    summary("attackers", [r for results in attacks for r in results])
    with open("/proc/loadavg") as load:
        print("load average:", " ".join(load.read().split()[:3]))


if __name__ == "__main__":
    main()
