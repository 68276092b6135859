#!/usr/bin/env bash
# make bench-serve-limits: `cardscan serve` against what exhausts a service.
#  - STARTS starts on paths it cannot listen on (no such folder, a path through a file, 104-107
#    bytes, a closed folder unless root): how many ended by a signal (target: none).
#  - Under `ulimit -n L` (L = 64 and 1024), 2 x L clients connect and stay idle while /health is
#    asked every 50 ms: the slowest /health answer (target: within 1 s) and the service's CPU
#    time over the flood (it spun at 100% of a core before).
#  - Slowloris with the default --read-timeout: a client sending one byte a second in its head,
#    one in its body: when the service cut it off (target: within 30 s).
#
#   scripts/bench-serve-limits.sh [STARTS]     (default 100)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CARDSCAN_BINARY:-$(pwd)/.build/release/cardscan}
[ -x "$BIN" ] || { echo "bench-serve-limits: build first (make build)" >&2; exit 2; }
STARTS=${1:-100}
TMP=$(mktemp -d /tmp/csl-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
ulimit -n 8192 2>/dev/null || true

# 1. Starts on bad paths.
touch "$TMP/file"
paths=("$TMP/missing/s.sock" "$TMP/file/s.sock")
if [ "$(id -u)" -ne 0 ]; then mkdir -m 500 "$TMP/closed"; paths+=("$TMP/closed/s.sock"); fi  # root may write anywhere
for length in 104 105 106 107; do
  paths+=("$TMP/$(printf 's%.0s' $(seq 1 $((length - ${#TMP} - 1))))")
done
signals=0; statuses=""
for i in $(seq 1 "$STARTS"); do
  path=${paths[$((i % ${#paths[@]}))]}
  set +e; timeout -s TERM 30 "$BIN" serve --socket "$path" 2>/dev/null; rc=$?; set -e
  [ $rc -gt 128 ] && signals=$((signals + 1))
  statuses+="$rc "
done
echo "serve on bad paths: $STARTS starts, $signals ended by a signal; exit statuses: $(tr ' ' '\n' <<<"$statuses" | awk 'NF' | sort | uniq -c | awk '{printf "%s x%s  ", $2, $1}')"

# 2. Descriptor exhaustion, then 3. slowloris.
python3 - "$BIN" "$TMP" <<'PY'
import os, socket, subprocess, sys, time
binary, tmp = sys.argv[1], sys.argv[2]

def start(path, limit, *extra):
    pre = f"ulimit -n {limit} && " if limit else ""
    p = subprocess.Popen(["/bin/sh", "-c", pre + 'exec "$@"', "sh", binary, "serve", "--socket", path, *extra],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            s = socket.socket(socket.AF_UNIX); s.connect(path); s.close(); return p
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the service did not start")

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

def health(path):
    # A client as curl is: a connect that finds the listen backlog full (EAGAIN, while the flood's
    # connections wait to be accepted) is tried again; all of it counts in the time.
    t = time.monotonic()
    ok = False
    while not ok and time.monotonic() - t < 10:
        s = socket.socket(socket.AF_UNIX); s.settimeout(10)
        try:
            s.connect(path)
        except BlockingIOError:
            s.close(); time.sleep(0.001); continue
        except OSError:
            s.close(); break
        try:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            ok = s.recv(64).startswith(b"HTTP/1.1 200")
        except OSError:
            pass
        s.close()
        break
    return time.monotonic() - t, ok

for limit in (64, 1024):
    path = f"{tmp}/fd{limit}.sock"
    p = start(path, limit, "--jobs", "1")
    clients, worst, failures, asked = [], 0.0, 0, 0
    c0, t0, next_health = cpu(p.pid), time.monotonic(), 0.0
    while len(clients) < 2 * limit:
        s = socket.socket(socket.AF_UNIX); s.setblocking(False)
        try:
            s.connect(path)
        except BlockingIOError:
            pass
        except OSError:
            s.close(); time.sleep(0.001); continue
        clients.append(s)
        if time.monotonic() >= next_health:
            took, ok = health(path); asked += 1
            worst = max(worst, took); failures += not ok
            next_health = time.monotonic() + 0.05
    for _ in range(20):  # and once every client is in
        took, ok = health(path); asked += 1; worst = max(worst, took); failures += not ok
        time.sleep(0.05)
    wall, used = time.monotonic() - t0, cpu(p.pid) - c0
    for s in clients: s.close()
    p.terminate(); p.wait()
    print(f"ulimit -n {limit}, {2 * limit} idle clients: /health asked {asked} times, slowest {worst * 1000:.1f} ms, "
          f"{failures} unanswered; service CPU {used:.2f} s over {wall:.1f} s ({100 * used / wall:.0f}%)")

path = f"{tmp}/slow.sock"
p = start(path, 0, "--jobs", "1")
for what, request in (("head", b"GET /health HTTP/1.1\r\nHost: " + b"h" * 100 + b"\r\n\r\n"),
                      ("body", b"POST /scan HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n" + b"\xff" * 200)):
    s = socket.socket(socket.AF_UNIX); s.connect(path); s.settimeout(1.0)
    t, answer, i = time.monotonic(), b"", 0
    # The head of the body case goes at once; then a byte a second.
    if what == "body":
        i = request.index(b"\r\n\r\n") + 4; s.sendall(request[:i])
    while i < len(request) and time.monotonic() - t < 120:
        try:
            s.send(request[i:i + 1]); i += 1
            answer = s.recv(4096)  # waits up to a second: the pace; data or the end: cut off
            break
        except socket.timeout:
            continue
        except OSError:
            break
    cut = time.monotonic() - t
    print(f"slowloris in the {what}, a byte a second: cut after {cut:.1f} s ({i} bytes sent), answer {answer[:28]!r}")
    s.close()
p.terminate(); p.wait()
PY
