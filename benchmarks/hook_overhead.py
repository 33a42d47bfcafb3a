"""Print the wall time repomem's git hooks add to 'git commit' (median and p95 over 20+ commits):
without the daemon (a detached worker starts, idle or busy indexing the commit before) and with
it (the hook only writes the pending marker the daemon watches).

Usage: python benchmarks/hook_overhead.py [N]"""

import json
import sys

from repomem.bench.hooks import measure

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(json.dumps({"idle_worker": measure(n), "busy_worker": measure(n, wait_worker=False),
                      "daemon": measure(n, daemon=True)}, indent=2))
