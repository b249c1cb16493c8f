#!/usr/bin/env bash
# Builds one libFuzzer target (png, jpeg, gif, webp) with ASan and runs it, seeded from the shared corpus.
# `incremental` fuzzes the progressive JPEG/PNG decoders against their one-shot decodes.
# Usage: Scripts/fuzz.sh FORMAT [SECONDS]   (default 180 s; findings land in fuzz-out/FORMAT/artifacts)
# avif, heif and jxl are seeded from their test fixtures (the shared corpus has none of them); video from small
# clips ffmpeg makes.
set -euo pipefail
format="${1:?usage: Scripts/fuzz.sh png|jpeg|gif|webp|avif|heif|jxl|video|incremental [seconds]}"
seconds="${2:-180}"
case "$format" in
    png) folders=(pngsuite png-extra) ;;
    jpeg) folders=(jpeg) ;;
    gif) folders=(gif) ;;
    webp) folders=(webp) ;;
    avif) folders=(); fixtures=Tests/AVIFTests/Fixtures/*.avif ;;
    heif) folders=(); fixtures=Tests/HEIFTests/Fixtures/*.heic ;;
    jxl) folders=(); fixtures=Tests/JXLTests/Fixtures/*.jxl ;;
    video) folders=(); video_seeds=1 ;;
    incremental) folders=(jpeg pngsuite png-extra) ;;
    *) echo "unknown format: $format" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
corpus="${IMAGO_CORPUS:-}"
if [ -z "$corpus" ]; then
    for dir in .. ../.. ../../..; do
        if [ -f "$dir/shared/corpus/reference.json" ]; then corpus="$dir/shared/corpus"; break; fi
    done
fi
[ -n "$corpus" ] || { echo "corpus not found: set IMAGO_CORPUS" >&2; exit 1; }

product="fuzz-$format"
# The recipe from shared/notes/platform.md: without -Xswiftc the Swift code gets no coverage.
IMAGO_FUZZ=1 swift build --product "$product" --scratch-path .build/fuzz \
    --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address

work="fuzz-out/$format"
mkdir -p "$work/seeds" "$work/artifacts" "$work/corpus"
[ -n "${fixtures:-}" ] && cp $fixtures "$work/seeds/"
if [ -n "${video_seeds:-}" ]; then
    # Small clips of each container and codec the decoder reads, made by Debian's ffmpeg.
    for clip in "mp4 libx264" "mov libx264" "webm libvpx-vp9" "mkv libx264" "webm libvpx"; do
        set -- $clip
        ffmpeg -y -loglevel error -f lavfi -i testsrc=size=64x48:rate=5:duration=1 -c:v "$2" \
            "$work/seeds/seed-$2.$1" || true
    done
fi
for folder in "${folders[@]}"; do
    find "$corpus/$folder" -type f ! -name '*.md' ! -name 'LICENSE*' -exec cp {} "$work/seeds/" \; 2>/dev/null || true
done
if [ "$format" = incremental ]; then
    # Its inputs start with a chunk-size byte: each seed gets one in front.
    cp Tests/Fixtures/Progressive/* "$work/seeds/"
    for seed in "$work/seeds"/*; do
        case "$seed" in *.inc) continue ;; esac
        { printf '\x07'; cat "$seed"; } > "$seed.inc" && rm "$seed"
    done
fi
binary="$(IMAGO_FUZZ=1 swift build --product "$product" --scratch-path .build/fuzz --show-bin-path \
    --sanitize=fuzzer --sanitize=address)/$product"
# SWIFT_BACKTRACE=enable=no, or the Swift runtime swallows the crashes libFuzzer reports.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" "$work/corpus" "$work/seeds" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=1048576 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1
