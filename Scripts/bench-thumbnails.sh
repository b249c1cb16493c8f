#!/usr/bin/env bash
# The thumbnail batch, three ways in the same run: `imago load --max-size 256` (release build), a 2-process Pillow
# pool (draft + thumbnail, quality 75) and vipsthumbnail -s 256, taking turns. Prints each wall time (best of
# ROUNDS) and Imago's ratio to the other two.
#
# Usage: Scripts/bench-thumbnails.sh [PHOTO_DIR] [ROUNDS] [WORK_PARENT]
#   PHOTO_DIR defaults to /tmp/imago-photos, made by Scripts/make-photo-set.py (200 photos of 1600x1200) if absent.
#   WORK_PARENT is where the thumbnails are written (default /tmp). Creating 200 files costs each tool the same
#   fixed time on ext4, and more after many runs (ext4 skips inodes freed in the last half minute when it
#   allocates); /dev/shm leaves only the image work to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
photos=${1:-/tmp/imago-photos}
rounds=${2:-3}
python=/usr/bin/python3
[ -d "$photos" ] || $python Scripts/make-photo-set.py "$photos" 200 1600x1200
swift build -c release --product imago >/dev/null
imago=$(swift build -c release --show-bin-path)/imago
work=$(mktemp -d -p "${3:-/tmp}")
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

# One timed run of a command: "WALL CPU" in seconds (CPU = user + system, children included).
timed() {
    rm -rf "$work/out" && mkdir -p "$work/out"
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/stderr"
    local wall user system
    read -r wall user system <"$work/time"
    awk -v w="$wall" -v u="$user" -v s="$system" 'BEGIN { print w, u + s }'
}

# The three take turns within each round, so a change in the machine's state (other work, the file system
# reusing freed inodes) falls on all of them alike. Each keeps its best wall time and best CPU time of $rounds.
# CPU time is the fairer figure when other work shares the machine; wall time is what the goals are about.
imago_wall=1e9 imago_cpu=1e9 pillow_wall=1e9 pillow_cpu=1e9 vips_wall=1e9 vips_cpu=1e9
keep_best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
for _ in $(seq "$rounds"); do
    read -r wall cpu < <(timed "$imago" load "${files[@]}" --max-size 256 --out "$work/out" --no-cache --concurrency 2)
    imago_wall=$(keep_best "$wall" "$imago_wall") imago_cpu=$(keep_best "$cpu" "$imago_cpu")
    read -r wall cpu < <(timed $python "$work/pillow_pool.py" "$work/out" "${files[@]}")
    pillow_wall=$(keep_best "$wall" "$pillow_wall") pillow_cpu=$(keep_best "$cpu" "$pillow_cpu")
    read -r wall cpu < <(timed vipsthumbnail -s 256 -o "$work/out/%s.jpg" "${files[@]}")
    vips_wall=$(keep_best "$wall" "$vips_wall") vips_cpu=$(keep_best "$cpu" "$vips_cpu")
done

echo "thumbnail batch: ${#files[@]} photos from $photos, best of $rounds (load average $(cut -d' ' -f1 /proc/loadavg))"
printf '                 wall      CPU\n'
printf '  imago load     %6.3f s  %6.3f s\n' "$imago_wall" "$imago_cpu"
printf '  Pillow pool(2) %6.3f s  %6.3f s\n' "$pillow_wall" "$pillow_cpu"
printf '  vipsthumbnail  %6.3f s  %6.3f s\n' "$vips_wall" "$vips_cpu"
awk -v i="$imago_wall" -v p="$pillow_wall" -v v="$vips_wall" -v ic="$imago_cpu" -v pc="$pillow_cpu" -v vc="$vips_cpu" \
    'BEGIN { printf "  imago / Pillow wall %.2fx, CPU %.2fx (goal <= 0.85)\n", i / p, ic / pc
             printf "  imago / vips   wall %.2fx, CPU %.2fx (goal <= 0.40)\n", i / v, ic / vc }'
