"""Print the wall time repomem's git hooks add to 'git commit' (median and p95 over 20+ commits):
without the daemon (a detached worker starts, idle or busy indexing the commit before) and with
it (the hook only writes the pending marker the daemon watches).  The first lines are the
summary: the added commit time without and with the daemon, and the hook alone as git runs it;
the whole measurement follows.  The load average is printed too: on a shared machine the
neighbours' load moves a commit's time by more than the hook does.

Usage: python -m bench hook-overhead [N]"""

import json
import os
import sys

from bench.hooks import measure

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    load = os.getloadavg()[0]
    got = {"idle_worker": measure(n), "busy_worker": measure(n, wait_worker=False),
           "daemon": measure(n, daemon=True)}
    for name, label in (("idle_worker", "without the daemon"), ("daemon", "with the daemon")):
        m = got[name]
        print(f"hook's added commit time {label:19}: median {m['overhead_median_ms']:+.1f} ms, "
              f"p95 {m['overhead_p95_ms']:+.1f} ms  (the hook alone: median "
              f"{m['hook_alone']['median_ms']} ms, p95 {m['hook_alone']['p95_ms']} ms)")
    print(f"load average {load:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(json.dumps(got, indent=2))
