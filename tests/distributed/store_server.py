"""The Python side of run_ranks.py's store check: serves a TCPStore on 127.0.0.1:PORT
(argv[1]) holding a text value and a binary one, prints "ready", prints what the Simple client
set under "from simple" (as Python reads it: bytes), and ends when its stdin closes."""
import datetime
import sys

import torch.distributed as dist

store = dist.TCPStore("127.0.0.1", int(sys.argv[1]), is_master=True, wait_for_workers=False,
                      timeout=datetime.timedelta(seconds=30))
store.set("text", "café 3")
store.set("binary", b"\x00\xffbin")
print("ready", flush=True)
store.wait(["from simple"])
print(f"from simple: {store.get('from simple')!r}", flush=True)
sys.stdin.read()
