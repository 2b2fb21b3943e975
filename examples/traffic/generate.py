"""Writes events.ndjson, the bundled example traffic in the article's story (deterministic)."""
import base64, json, struct

BASE = 1796112000000  # 2026-12-01T08:00:00Z
lines = []

def record(producer, value, version=None, raw=None, key=None):
    headers = {"producer": producer}
    if version:
        headers["schema-version"] = version
    line = {"topic": "events", "partition": len(lines) % 3, "offset": len(lines) // 3,
            "timestamp": BASE + len(lines) * 1000, "key": key or f"{producer}:{len(lines)}",
            "headers": headers}
    line["value"] = {"base64": base64.b64encode(raw).decode()} if raw is not None else value
    lines.append(line)

for i in range(200):
    if i % 5 in (0, 1):  # web: the old producer, still on 1.0
        record("web", {"id": i, "event": ["view", "click"][i % 2]}, "event/1.0")
    elif i % 5 == 2:  # mobile: upgraded to 1.1, sends amount and buy
        record("mobile", {"id": i, "event": "buy", "amount": 10 + i}, "event/1.1")
    elif i % 5 == 3:  # billing: 1.1 in the Confluent wire format (schema id 102), always with amount
        payload = json.dumps({"id": i, "event": "view", "amount": 1.5}).encode()
        record("billing", None, raw=b"\x00" + struct.pack(">I", 102) + payload)
    elif i % 10 == 4:  # partner-feed: declares 1.1 but sends an unknown key
        record("partner-feed", {"id": i, "event": "view", "x": True}, "event/1.1")
    else:  # legacy-batch: declares no version at all
        record("legacy-batch", {"id": i, "event": "click"})

# A few broken records: not JSON, a truncated wire prefix, an unknown schema id, not UTF-8.
record("web", None, "event/1.0", raw=b"{\"id\": 1, \"event\": ")
record("billing", None, raw=b"\x00\x00\x00")
record("billing", None, raw=b"\x00" + struct.pack(">I", 999) + b"{}")
record("legacy-batch", None, raw=b"\xff\xfe{}")

with open("events.ndjson", "w") as out:
    for line in lines:
        out.write(json.dumps(line, separators=(",", ":")) + "\n")
