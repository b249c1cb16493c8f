#!/usr/bin/env bash
# Proves the package builds and runs without OpenCV and FFmpeg (issue 38): in a private mount namespace (root;
# nothing outside it changes), their headers are hidden behind empty folders and their shared libraries behind
# /dev/null, then `imago` is built there and asked to use the face detector and the video decoder. Both must refuse
# with a clear reason, and the binary must not reference either library.
# Usage: Scripts/check-without-opencv-ffmpeg.sh [SCRATCH_PATH]   (default .build; the shims recompile there)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${1:-.build}"
if [ "${IMAGO_HIDDEN:-}" != 1 ]; then
    exec unshare --mount --propagation private env IMAGO_HIDDEN=1 "$0" "$@"
fi
empty=$(mktemp -d)
for folder in /usr/include/opencv4 /usr/include/x86_64-linux-gnu/libavformat /usr/include/x86_64-linux-gnu/libavcodec \
    /usr/include/x86_64-linux-gnu/libavutil /usr/include/x86_64-linux-gnu/libswscale; do
    [ -d "$folder" ] && mount --bind "$empty" "$folder"
done
for library in /usr/lib/x86_64-linux-gnu/libopencv_*.so* /usr/lib/x86_64-linux-gnu/libav{format,codec,util}.so* \
    /usr/lib/x86_64-linux-gnu/libswscale.so*; do
    [ -e "$library" ] && mount --bind /dev/null "$library"
done
echo "hidden: $(ls /usr/include/opencv4 | wc -l) OpenCV headers, $(ls /usr/include/x86_64-linux-gnu/libavformat | wc -l) libavformat headers visible"
swift build --scratch-path "$scratch" --product imago 2>&1 | tail -2
imago="$scratch/debug/imago"
if nm "$imago" | grep -q -E ' U (_ZN2cv|avformat_|avcodec_|sws_)'; then
    echo "FAIL: the binary references OpenCV or FFmpeg"; exit 1
fi
if ldd "$imago" | grep -q -E 'opencv|libav|swscale'; then echo "FAIL: the binary links OpenCV or FFmpeg"; exit 1; fi
echo "the binary references neither OpenCV nor FFmpeg"
work=$(mktemp -d)
printf '{"detectors": ["faces"]}' > "$work/faces.json"
printf '{"codecs": ["png", "jpeg", "video"]}' > "$work/video.json"
printf '\x00\x00\x00\x20ftypisom\x00\x00\x02\x00isomiso2avc1mp41' > "$work/clip.mp4"
status=0
echo "--- a configuration naming the faces detector:"
"$imago" info --config "$work/faces.json" Tests/DetectTests/Fixtures/astronaut.jpg 2>&1 | head -3 || status=$?
echo "--- a video with the video codec configured:"
"$imago" info --config "$work/video.json" "$work/clip.mp4" 2>&1 | head -3 || true
echo "--- a JPEG still decodes:"
"$imago" info Tests/DetectTests/Fixtures/astronaut.jpg 2>&1 | head -2
