"""Print the wall time repomem's git hooks add to 'git commit' (median and p95 over 20+ commits).

Usage: python benchmarks/hook_overhead.py [N]"""

import json
import sys

from repomem.bench.hooks import measure

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(json.dumps({"idle_worker": measure(n), "busy_worker": measure(n, wait_worker=False)},
                     indent=2))
