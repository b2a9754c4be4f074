#!/usr/bin/env bash
# Upload throughput and memory of `petspot` against `curl -F`, side by side, on loopback:
# the same 200 MB file posted as the multipart part `photo` to the same petspot-server.
#
#   swift build -c release && scripts/bench-upload.sh [.build/release] [SIZE_MB]
#
# The file is random bytes, so the server answers 415 after reading the whole body: both
# clients do the same work (stream every byte, read the answer). petspot uploads it through
# `submissions retry` of a journal entry pointing at the file, as a resumed photo step would.
set -euo pipefail
bin=${1:-.build/release}
size_mb=${2:-200}
work=$(mktemp -d)
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT

head -c "$((size_mb * 1000 * 1000))" /dev/urandom > "$work/big.bin"
"$bin/petspot-server" --port 0 --data-dir "$work/server" --log-level error \
  --max-photo-bytes "$((size_mb * 1000 * 1000 + 1000000))" > "$work/server.log" &
server_pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/server.log" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/server.log" | head -1)

created=$(curl -s -X POST "$url/api/v1/announcements" -H 'Content-Type: application/json' -d '{"species":"DOG","sex":"MALE","last_seen_date":"2025-11-18","location_latitude":1,"location_longitude":2,"email":"a@b.co","phone":"1234567","status":"MISSING"}')
id=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["id"])' "$created")
password=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["management_password"])' "$created")

# A journal entry whose photo step is still to do, pointing at the big file.
mkdir -p "$work/state/submissions"
record=$(python3 -c 'import uuid; print(uuid.uuid4())')
python3 - "$work/state/submissions/$record.json" "$record" "$url" "$id" "$password" "$work/big.bin" "$((size_mb * 1000 * 1000))" <<'EOF'
import json, sys
path, record, url, announcement, password, photo, size = sys.argv[1:]
json.dump({"schema": 1, "id": record, "flow": "missing", "server": url, "createdAt": "2025-11-18T10:00:00Z",
           "updatedAt": "2025-11-18T10:00:00Z", "state": "uploadingPhoto", "idempotencyKey": "bench",
           "request": {"species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18", "location_latitude": 1,
                       "location_longitude": 2, "email": "a@b.co", "phone": "1234567", "status": "MISSING"},
           "photo": {"cacheKey": "bench", "path": photo, "mimeType": "image/jpeg", "byteCount": int(size), "width": 1, "height": 1},
           "announcementID": announcement, "managementPassword": password}, open(path, "w"))
EOF
chmod 600 "$work/state/submissions/$record.json"

run_petspot() { PETSPOT_STATE_DIR="$work/state" "$bin/petspot" submissions retry "$record" --max-attempts 1 >/dev/null 2>&1 || true; }
run_curl() { curl -s -o /dev/null -u "$id:$password" -F "photo=@$work/big.bin;type=image/jpeg" "$url/api/v1/announcements/$id/photos" || true; }
export -f run_petspot run_curl
export work bin record id password url

echo "== peak RSS (KB) while uploading ${size_mb} MB"
/usr/bin/time -f "petspot: %M KB, %e s" bash -c run_petspot 2>&1 | tail -1
/usr/bin/time -f "curl:    %M KB, %e s" bash -c run_curl 2>&1 | tail -1
echo "== throughput (hyperfine, same run)"
hyperfine --warmup 1 --runs 5 -N 'bash -c run_petspot' 'bash -c run_curl' --export-json "$work/upload.json" >/dev/null
python3 - "$work/upload.json" "$size_mb" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
size = float(sys.argv[2])
for result in results:
    print(f"{result['command']}: {result['mean']:.3f} s ± {result['stddev']:.3f} -> {size / result['mean']:.0f} MB/s")
print(f"petspot / curl throughput: {results[1]['mean'] / results[0]['mean']:.2f}x")
EOF
