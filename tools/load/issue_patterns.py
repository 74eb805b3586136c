"""The issue patterns against a Moot binary it starts: a long animation (alone, with If-None-Match, 8 at once), the largest accepted one, and 32 clients looping 1 MiB bodies of tiny objects; prints peak and retained RSS (/proc/<pid>/status), healthz latency, log bytes.

Usage: python3 tools/load/issue_patterns.py BINARY PORT [SECONDS]. Sends only to 127.0.0.1; every loop is bounded in time."""
import json, os, socket, subprocess, sys, tempfile, threading, time, urllib.request

BIN, PORT = sys.argv[1], int(sys.argv[2])
SECONDS = int(sys.argv[3]) if len(sys.argv) > 3 else 20
BASE = f"http://127.0.0.1:{PORT}"

def status_of(pid):
    out = {}
    for line in open(f"/proc/{pid}/status"):
        k, _, v = line.partition(":")
        if k in ("VmHWM", "VmRSS", "Threads"):
            out[k] = v.strip()
    return out

def mb(s):
    return int(s.split()[0]) / 1024

def req(method, path, body=None, headers=None, timeout=60):
    data = body if isinstance(body, (bytes, type(None))) else body.encode()
    r = urllib.request.Request(BASE + path, data=data, method=method, headers=headers or {})
    if data is not None:
        r.add_header("content-type", "application/json")
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(r, timeout=timeout) as a:
            b = a.read(); code = a.status
    except urllib.error.HTTPError as e:
        b = e.read(); code = e.code
    except Exception as e:
        b = str(e).encode(); code = 0
    return code, b, time.perf_counter() - t

LOG = os.path.join(tempfile.gettempdir(), f"moot-patterns-{PORT}.log")
log = open(LOG, "wb")
server = subprocess.Popen([BIN, "--bind", f"127.0.0.1:{PORT}"], stdout=log, stderr=log)
for _ in range(100):
    try:
        if req("GET", "/healthz")[0] == 200: break
    except Exception: pass
    time.sleep(0.1)
pid = server.pid
print("start", status_of(pid))

def healthz_probe(seconds):
    times, fails = [], 0
    until = time.time() + seconds
    while time.time() < until:
        c, _, t = req("GET", "/healthz", timeout=30)
        times.append(t); fails += c != 200
        time.sleep(0.02)
    times.sort()
    return times[len(times)//2]*1e3, times[int(len(times)*0.99)]*1e3, fails, len(times)

idle = healthz_probe(5)
print("idle healthz p50 %.2f ms p99 %.2f ms (fails %d of %d)" % idle)

# 1. Animations: a 129-ply Herfor size-7 game (first legal move each ply).
state = json.loads(req("POST", "/api/v1/games/herfor/new", json.dumps({"options": {"size": 7, "pie": False}}))[1])["state"]
moves = []
for i in range(129):
    legal = json.loads(req("POST", "/api/v1/games/herfor/legal-moves", json.dumps({"state": state}))[1]).get("moves", [])
    if not legal: break
    mv = legal[len(legal)//2] if legal[0] == "pass" and len(legal) > 1 else legal[0]
    a = json.loads(req("POST", "/api/v1/games/herfor/apply", json.dumps({"state": state, "move": mv}))[1])
    if "state" not in a: break
    state = a["state"]; moves.append(mv)
anim = f"/api/v1/games/herfor/animation?size=7&pie=false&moves={'.'.join(moves)}&pixels=800&caption=true"
print(f"animation: {len(moves)} plies, URL {len(anim)} bytes")
before = status_of(pid)
c, b, t = req("GET", anim, timeout=120)
print(f"  one at 800 px: status {c}, {len(b)} bytes, {t:.2f} s, after {status_of(pid)}")
c, b, t = req("GET", anim, headers={"If-None-Match": "*"}, timeout=120)
print(f"  If-None-Match *: status {c}, {len(b)} bytes, {t:.3f} s")
# The largest accepted now: 40 frames at 400 px.
few = f"/api/v1/games/herfor/animation?size=7&pie=false&moves={'.'.join(moves[:39])}&pixels=400&caption=true"
c, b, t = req("GET", few, timeout=120)
print(f"  40 frames at 400 px: status {c}, {len(b)} bytes, {t:.2f} s")
results = []
def one(i):
    u = anim.replace("caption=true", f"caption=true&bottom={'first' if i % 2 else 'second'}") + f"&coordinates={'true' if i<4 else 'false'}"
    results.append(req("GET", u, timeout=300)[:1] + (0,))
ths = [threading.Thread(target=one, args=(i,)) for i in range(8)]
t0 = time.time(); [t.start() for t in ths]
peak = 0
while any(t.is_alive() for t in ths):
    peak = max(peak, mb(status_of(pid)["VmRSS"])); time.sleep(0.05)
print(f"  8 in parallel: statuses {sorted(r[0] for r in results)}, {time.time()-t0:.1f} s, RSS peak sampled {peak:.0f} MB, VmHWM {status_of(pid)['VmHWM']}")

# 2. Bodies: 32 clients looping 1 MiB {"x":[{"":0},...]} to legal-moves.
body = ('{"x":[' + ",".join(['{"":0}'] * 149_000) + "]}").encode()
print(f"bodies: {len(body)} bytes each, 32 clients, {SECONDS} s")
stop = threading.Event(); counts = {}
def flood():
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", PORT), timeout=30)
            s.sendall(b"POST /api/v1/games/herfor/legal-moves HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body)
            head = s.recv(64); s.close()
            code = head.split(b" ")[1].decode() if head.startswith(b"HTTP") else "none"
        except Exception:
            code = "error"
        counts[code] = counts.get(code, 0) + 1
ths = [threading.Thread(target=flood) for _ in range(32)]
hwm0 = status_of(pid)
[t.start() for t in ths]
peak = [0]
def sample():
    while not stop.is_set():
        peak[0] = max(peak[0], mb(status_of(pid)["VmRSS"])); time.sleep(0.05)
sm = threading.Thread(target=sample); sm.start()
loaded = healthz_probe(SECONDS)
stop.set(); [t.join() for t in ths]; sm.join()
s_after = status_of(pid)
time.sleep(5)
s_later = status_of(pid)
print(f"  answers {counts}")
print("  healthz under it: p50 %.2f ms p99 %.2f ms (fails %d of %d)" % loaded)
print(f"  RSS sampled peak {peak[0]:.0f} MB; VmHWM {s_after['VmHWM']}; retained at once {s_after['VmRSS']}, 5 s later {s_later['VmRSS']}; threads {s_after['Threads']}")
server.terminate(); server.wait()
log.close()
print("log bytes", os.path.getsize(LOG))
