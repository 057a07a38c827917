#!/usr/bin/env python3
# usage: scripts/venue-seek-timing.py BEACONTOP FILE.venue.ndjson PRESSES (docs/venue.md "Seeking a venue recording"):
# the monitor in tmux paused 10 s (CPU of the process and the replay thread), then PRESSES x → and one ←,
# each timed from the key to the status line showing the target (polled every 50 ms), then the peak RSS.
import subprocess, time, re, sys, os, glob
S = "venue5measure"
binary, path, forward_presses = sys.argv[1], sys.argv[2], int(sys.argv[3])
def tmux(*a): return subprocess.run(["tmux", "-L", S] + list(a), capture_output=True, text=True).stdout
def screen(): return tmux("capture-pane", "-p", "-t", "m")
def position():
    m = None
    for line in screen().splitlines():
        if "msg/s" in line:
            # `· 59:40 ·`, or `· 59:40/1:00:00 ·` once the recording's length is known.
            m = re.search(r"· (\d+):(\d\d)(?::(\d\d))?(?:/[\d:]+)? ·", line)
    if not m: return None
    if m.group(3): return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
    return int(m.group(1)) * 60 + int(m.group(2))
def wait(pred, timeout=900):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if pred(): return time.time()
        time.sleep(0.05)
    raise SystemExit("timeout: " + screen())
def cpu(pid):
    """(process user+sys, replay thread user+sys) in clock ticks."""
    total = sum(int(x) for x in open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()[11:13])
    thread = 0
    for task in glob.glob("/proc/%s/task/*" % pid):
        if open(task + "/comm").read().startswith("beacontop venue"):
            thread = sum(int(x) for x in open(task + "/stat").read().rsplit(")", 1)[1].split()[11:13])
    return total, thread
tmux("kill-server")
tmux("new-session", "-d", "-s", "m", "-x", "140", "-y", "30", "exec env LANG=C.UTF-8 %s monitor %s --speed 1" % (binary, path))
wait(lambda: position() is not None and "room-" in screen())
pid = tmux("display-message", "-p", "-t", "m", "#{pane_pid}").strip()
# A key sent while the monitor is still starting may be lost on a busy machine: sent again until paused.
for attempt in range(10):
    tmux("send-keys", "-t", "m", "Space")
    try:
        wait(lambda: "paused" in screen(), timeout=5)
        break
    except SystemExit:
        if "paused" in screen(): break
a = cpu(pid); time.sleep(10); b = cpu(pid)
hz = os.sysconf("SC_CLK_TCK")
print("paused 10 s: process %.2f s CPU, replay thread %.2f s CPU" % ((b[0] - a[0]) / hz, (b[1] - a[1]) / hz))
here = position()
t0 = time.time()
tmux("send-keys", "-t", "m", *(["Right"] * forward_presses))
t1 = wait(lambda: (position() or 0) >= here + 10 * forward_presses - 10)
print("forward %d -> %d s: %.2f s" % (here, position(), t1 - t0))
time.sleep(2)
here = position()
# The target's position: a rebuild from the start climbs to it from 00:00, one from a checkpoint
# from the checkpoint (at most 70 s before it), so only the target itself says it is done.
def back():
    return position() == here - 10
t0 = time.time()
tmux("send-keys", "-t", "m", "Left")
t1 = wait(back)
print("back %d -> %d s: %.2f s (press to the target's position shown)" % (here, position(), t1 - t0))
time.sleep(2)
print(screen().splitlines()[-1])
status = dict(line.split(":", 1) for line in open("/proc/%s/status" % pid) if line.startswith(("VmHWM", "VmRSS")))
print("memory: peak RSS %s, RSS now %s" % (status["VmHWM"].strip(), status["VmRSS"].strip()))
tmux("send-keys", "-t", "m", "q")
time.sleep(2)
tmux("kill-server")
