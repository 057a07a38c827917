#!/usr/bin/env python3
# usage: scripts/venue-live-cost.py BEACONTOP FILE.venue.ndjson SECONDS (docs/benchmarks.md "Watching a live venue")
# What watching a live venue costs: a real mosquitto on a free loopback port, `BEACONTOP monitor
# mqtt://...` in a 120x40 tmux, and the recording's messages published to the broker at their
# recorded pace (scripts/venue-recording.py: 20 ESPresense nodes, 300 messages a second) from one
# plain MQTT 3.1.1 connection. After 15 s of warm-up, the monitor's CPU (user + system, /proc) over
# SECONDS, as a share of one core and per message. Everything it starts it stops.
import glob, os, re, shutil, socket, struct, subprocess, sys, tempfile, time
binary, path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
tag = "venue-live-%d" % os.getpid()
work = tempfile.mkdtemp(prefix=tag + "-")
probe = socket.socket(); probe.bind(("127.0.0.1", 0)); port = probe.getsockname()[1]; probe.close()
conf = os.path.join(work, "mosquitto.conf")
open(conf, "w").write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n%s" % (port, "user root\n" if os.geteuid() == 0 else ""))
broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf])
def tmux(*a): return subprocess.run(["tmux", "-L", tag] + list(a), capture_output=True, text=True).stdout
def varint(n):
    out = b""
    while True:
        byte, n = n % 128, n // 128
        out += bytes([byte | (0x80 if n else 0)])
        if not n: return out
def packet(kind, body): return bytes([kind]) + varint(len(body)) + body
def mqtt_string(b): return struct.pack(">H", len(b)) + b
try:
    for _ in range(100):
        try:
            client = socket.create_connection(("127.0.0.1", port)); break
        except OSError: time.sleep(0.05)
    client.sendall(packet(0x10, mqtt_string(b"MQTT") + bytes([4, 2, 0, 60]) + mqtt_string(tag.encode())))
    assert client.recv(4)[:1] == b"\x20", "no CONNACK"
    tmux("new-session", "-d", "-s", "m", "-x", "120", "-y", "40", "%s monitor mqtt://127.0.0.1:%d" % (binary, port))
    time.sleep(1.0)
    monitor = None
    for _ in range(100):
        pane = tmux("list-panes", "-F", "#{pane_pid}", "-t", "m").strip()
        if pane and os.path.exists("/proc/%s" % pane):
            monitor = pane; break
        time.sleep(0.05)
    assert monitor, "the monitor did not start"
    def cpu(): return sum(int(x) for x in open("/proc/%s/stat" % monitor).read().rsplit(")", 1)[1].split()[11:13]) / os.sysconf("SC_CLK_TCK")
    lines = open(path, "rb")
    lines.readline()
    wall0 = time.time(); first = None; sent = 0
    measure_from, measure_to = 15.0, 15.0 + seconds
    start_cpu = start_sent = start_wall = None
    for raw in lines:
        t = float(re.search(rb'"t":\s*([0-9.]+)', raw).group(1))
        topic = re.search(rb'"topic":\s*"((?:[^"\\]|\\.)*)"', raw).group(1)
        payload = re.search(rb'"payload":\s*"((?:[^"\\]|\\.)*)"', raw)
        if payload is None: continue
        payload = payload.group(1).replace(b'\\"', b'"').replace(b"\\\\", b"\\")
        retain = 1 if re.search(rb'"retained":\s*true', raw) else 0
        if first is None: first = t
        due = wall0 + (t - first)
        now = time.time()
        if due > now: time.sleep(due - now)
        client.sendall(packet(0x30 | retain, mqtt_string(topic) + payload))
        sent += 1
        elapsed = time.time() - wall0
        if start_cpu is None and elapsed >= measure_from:
            start_cpu, start_sent, start_wall = cpu(), sent, time.time()
        if elapsed >= measure_to: break
    used, wall, count = cpu() - start_cpu, time.time() - start_wall, sent - start_sent
    screen = tmux("capture-pane", "-p", "-t", "m")
    rate = [l for l in screen.splitlines() if "msg/s" in l]
    print("%s: %d messages in %.1f s (%.0f/s); monitor CPU %.2f s = %.1f%% of one core, %.1f us a message; status: %s"
          % (binary, count, wall, count / wall, used, 100 * used / wall, 1e6 * used / count, rate[-1].strip() if rate else "(no msg/s line)"))
finally:
    tmux("send-keys", "-t", "m", "q")
    time.sleep(1.0)
    tmux("kill-server")
    broker.terminate(); broker.wait()
    shutil.rmtree(work, ignore_errors=True)
