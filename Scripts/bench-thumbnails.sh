#!/usr/bin/env bash
# The thumbnail batch, three ways in the same run: `imago load --max-size 256` (release build), a 2-process Pillow
# pool (draft + thumbnail, quality 75) and vipsthumbnail -s 256. Prints each wall time (best of ROUNDS) and
# Imago's ratio to the other two.
#
# Usage: Scripts/bench-thumbnails.sh [PHOTO_DIR] [ROUNDS]
#   PHOTO_DIR defaults to /tmp/imago-photos, made by Scripts/make-photo-set.py (200 photos of 1600x1200) if absent.
set -euo pipefail
cd "$(dirname "$0")/.."
photos=${1:-/tmp/imago-photos}
rounds=${2:-3}
python=/usr/bin/python3
[ -d "$photos" ] || $python Scripts/make-photo-set.py "$photos" 200 1600x1200
swift build -c release --product imago >/dev/null
imago=$(swift build -c release --show-bin-path)/imago
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=("$photos"/*.jpg)

cat >"$work/pillow_pool.py" <<'PY'
import sys
from multiprocessing import Pool
from PIL import Image

def thumb(job):
    source, target = job
    with Image.open(source) as image:
        image.draft("RGB", (256, 256))
        image.thumbnail((256, 256))
        image.save(target, quality=75)

if __name__ == "__main__":
    out = sys.argv[1]
    jobs = [(path, "%s/%d.jpg" % (out, i)) for i, path in enumerate(sys.argv[2:])]
    with Pool(2) as pool:
        pool.map(thumb, jobs, chunksize=4)
PY

# Best wall time of $rounds runs of the command, in seconds.
best() {
    local best_time=""
    for _ in $(seq "$rounds"); do
        rm -rf "$work/out" && mkdir -p "$work/out"
        local start end
        start=$(date +%s.%N)
        "$@" >/dev/null
        end=$(date +%s.%N)
        best_time=$(echo "$start $end ${best_time:-1e9}" | awk '{t = $2 - $1; print (t < $3 ? t : $3)}')
    done
    echo "$best_time"
}

imago_time=$(best "$imago" load "${files[@]}" --max-size 256 --out "$work/out" --no-cache --concurrency 2)
pillow_time=$(best $python "$work/pillow_pool.py" "$work/out" "${files[@]}")
vips_time=$(best vipsthumbnail -s 256 -o "$work/out/%s.jpg" "${files[@]}")

echo "thumbnail batch: ${#files[@]} photos from $photos, best of $rounds"
printf '  imago load     %7.3f s\n' "$imago_time"
printf '  Pillow pool(2) %7.3f s\n' "$pillow_time"
printf '  vipsthumbnail  %7.3f s\n' "$vips_time"
awk -v i="$imago_time" -v p="$pillow_time" -v v="$vips_time" \
    'BEGIN { printf "  imago / Pillow %.2fx (goal <= 0.85)\n  imago / vips   %.2fx (goal <= 0.40)\n", i / p, i / v }'
