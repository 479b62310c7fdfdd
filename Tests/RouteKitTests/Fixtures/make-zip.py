#!/usr/bin/env python3
"""Writes a ZIP for the tests, as a JSON description on standard input says:
{"path": "out.zip", "entries": [{"name": "a/Etapa_1.gpx", "base64": "...", "zeros": 0, "symlink": null}]}
- "base64": the entry's bytes; "zeros": that many zero bytes instead (a ZIP bomb, deflated, written in pieces,
  so the sizes come after the data as a streaming writer leaves them); "symlink": a link to that path.
"""
import base64
import json
import stat
import sys
import zipfile



class Stream:
    """A file that cannot seek or tell, as a pipe: zipfile then writes each size after its entry's data."""

    def __init__(self, f):
        self.f = f

    def write(self, b):
        return self.f.write(b)

    def flush(self):
        self.f.flush()


spec = json.load(sys.stdin)
out = open(spec["path"], "wb")
target = Stream(out) if any(e.get("zeros") for e in spec["entries"]) else out
with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as z:
    for e in spec["entries"]:
        if e.get("symlink"):
            info = zipfile.ZipInfo(e["name"])
            info.create_system = 3
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, e["symlink"])
        elif e.get("zeros"):
            with z.open(e["name"], "w") as f:
                left = e["zeros"]
                piece = bytes(1 << 20)
                while left > 0:
                    f.write(piece[: min(left, len(piece))])
                    left -= len(piece)
        else:
            z.writestr(e["name"], base64.b64decode(e.get("base64", "")))
out.close()
