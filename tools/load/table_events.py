#!/usr/bin/env python3
"""Tables' event streams, measured from outside against a running server.

1. Latency: one table, one follower on its event stream and a webhook to a receiver here; a
   player posts moves one after another; for each, the time from the move's 200 (its answer
   read) to the follower's event for that move, and to the receiver's delivery of it. Prints
   p50, p90, p99 and the largest of each.
2. Memory: opens STREAMS event streams (at most 32 per table, so one table per 32) and keeps
   them open; prints the server's resident memory before and with them.

The server must trust forwarded addresses (each table is created as another client, past the
per-client rate of creations) and post webhooks to this machine:

    moot --trust-forwarded --allow-private-webhooks --max-event-streams 20000 &
    python3 tools/load/table_events.py http://127.0.0.1:8080 $(pgrep -x moot) [STREAMS] [MOVES]

Python's standard library only; asyncio holds the streams.
"""

import asyncio
import json
import resource
import statistics
import sys
import time
from urllib.parse import urlsplit

PER_TABLE = 32


def rss_kib(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


async def request(host, port, method, path, body=None, headers=None):
    """One HTTP/1.0 request; the status and the body as JSON."""
    reader, writer = await asyncio.open_connection(host, port)
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.0\r\nHost: {host}\r\nContent-Length: {len(data)}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    status = int(answer[9:12])
    _, _, payload = answer.partition(b"\r\n\r\n")
    return status, (json.loads(payload) if payload else None)


class Receiver:
    """A webhook receiver: when each event (by `Moot-Event-Id`) arrived."""

    async def start(self):
        self.arrived = {}
        self.waiting = {}
        self.server = await asyncio.start_server(self.take, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/hook"
        return self

    async def take(self, reader, writer):
        head = (await reader.readuntil(b"\r\n\r\n")).decode()
        headers = dict(
            (name.lower(), value) for name, _, value in
            (line.partition(": ") for line in head.split("\r\n")[1:] if ": " in line)
        )
        await reader.readexactly(int(headers["content-length"]))
        now = time.perf_counter()
        event = headers["moot-event-id"]
        self.arrived[event] = now
        if event in self.waiting:
            self.waiting.pop(event).set_result(now)
        writer.write(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()

    async def delivered(self, event):
        """When `event` arrived, waiting for it."""
        if event not in self.arrived:
            self.waiting[event] = asyncio.get_running_loop().create_future()
            return await self.waiting[event]
        return self.arrived[event]


async def new_table(host, port, client, webhook=None):
    status, created = await request(
        host, port, "POST", "/api/v1/tables",
        {"game": "herfor", "options": {"size": 7}} | (
            {"webhook": {"url": webhook, "secret": "a-secret-for-the-bench"}} if webhook else {}
        ),
        {"X-Forwarded-For": f"10.{client >> 16 & 255}.{client >> 8 & 255}.{client & 255}"},
    )
    assert status == 201, (status, created)
    return created["table"], [seat["credential"] for seat in created["seats"]]


class Follower:
    """An event stream, read event by event."""

    async def open(self, host, port, table_id):
        self.reader, self.writer = await asyncio.open_connection(host, port)
        self.writer.write(
            f"GET /api/v1/tables/{table_id}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        )
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        return self

    async def next(self):
        """The next event's id (chunked transfer: the chunk sizes are skipped)."""
        while True:
            line = await self.reader.readline()
            if not line:
                return None
            if line.startswith(b"id: "):
                return int(line[4:])


def percentiles(what, delays):
    delays = sorted(delays)
    pick = lambda p: delays[min(len(delays) - 1, round(p * (len(delays) - 1)))] * 1000
    print(
        f"move's 200 → {what}, {len(delays)} moves: p50 {pick(0.5):.2f} ms, "
        f"p90 {pick(0.9):.2f} ms, p99 {pick(0.99):.2f} ms, max {delays[-1] * 1000:.2f} ms"
    )


async def latency(host, port, moves):
    receiver = await Receiver().start()
    table, credentials = await new_table(host, port, 1, receiver.url)
    follower = await Follower().open(host, port, table["id"])
    assert await follower.next() == 0
    delays, hooks = [], []
    for _ in range(moves):
        if table["status"] != "ongoing":
            table, credentials = await new_table(host, port, len(delays) + 2, receiver.url)
            follower.writer.close()
            follower = await Follower().open(host, port, table["id"])
            assert await follower.next() == 0
        status, legal = await request(
            host, port, "POST", "/api/v1/games/herfor/legal-moves", {"state": table["state"]}
        )
        seat = 0 if table["to_act"] == "first" else 1
        event = asyncio.ensure_future(follower.next())
        status, table = await request(
            host, port, "POST", f"/api/v1/tables/{table['id']}/moves",
            {"move": legal["moves"][0], "ply": table["ply"]},
            {"Authorization": f"Bearer {credentials[seat]}"},
        )
        answered = time.perf_counter()
        assert status == 200, table
        seq = await event
        arrived = time.perf_counter()
        assert seq == table["ply"], (seq, table["ply"])
        # The event may come before the answer is read: then it waited for nothing.
        delays.append(max(0.0, arrived - answered))
        hooked = await receiver.delivered(f"{table['id']}-{seq}")
        hooks.append(max(0.0, hooked - answered))
    percentiles("event at the follower", delays)
    percentiles("delivery at the webhook's receiver", hooks)


async def memory(host, port, pid, streams):
    before, _ = rss_kib(pid)
    followers = []
    tables = (streams + PER_TABLE - 1) // PER_TABLE
    for index in range(tables):
        table, _ = await new_table(host, port, 1000 + index)
        count = min(PER_TABLE, streams - len(followers))
        opened = await asyncio.gather(
            *(Follower().open(host, port, table["id"]) for _ in range(count))
        )
        for follower in opened:
            assert await follower.next() == 0
        followers.extend(opened)
    await asyncio.sleep(1)
    with_them, peak = rss_kib(pid)
    print(
        f"{len(followers)} event streams open on {tables} tables: server RSS {before / 1024:.1f} MiB "
        f"before, {with_them / 1024:.1f} MiB with them (peak {peak / 1024:.1f} MiB): "
        f"{(with_them - before) / len(followers):.1f} KiB a stream"
    )
    for follower in followers:
        follower.writer.close()


async def main():
    base, pid = sys.argv[1], int(sys.argv[2])
    streams = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
    moves = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    url = urlsplit(base)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with open("/proc/loadavg") as load:
        print("load average:", " ".join(load.read().split()[:3]))
    await latency(url.hostname, url.port, moves)
    await memory(url.hostname, url.port, pid, streams)
    with open("/proc/loadavg") as load:
        print("load average:", " ".join(load.read().split()[:3]))


if __name__ == "__main__":
    asyncio.run(main())
