#!/usr/bin/env bash
# Proves the package builds and runs without OpenCV and FFmpeg (issue 38): in a private mount namespace (root;
# nothing outside it changes), their headers are hidden behind empty folders and their shared libraries behind
# /dev/null, then `imago` is built there and asked to use the face detector and the video decoder. Both must refuse
# with a clear reason, and the binary must not reference either library.
# Usage: IMAGO_CHECK_CLIP=clip.mp4 Scripts/check-without-opencv-ffmpeg.sh [SCRATCH_PATH]
#   (default .build: only the two shims recompile there, and again when built normally afterwards)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${1:-.build}"
if [ "${IMAGO_HIDDEN:-}" != 1 ]; then
    exec unshare --mount --propagation private env IMAGO_HIDDEN=1 "$0" "$@"
fi
empty=$(mktemp -d)
# IMAGO_KEEP_HEADERS=1 hides the libraries only: a build that has the headers, run where the libraries are missing.
[ "${IMAGO_KEEP_HEADERS:-}" = 1 ] || for folder in /usr/include/opencv4 /usr/include/x86_64-linux-gnu/libavformat /usr/include/x86_64-linux-gnu/libavcodec \
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
clip="${IMAGO_CHECK_CLIP:-Tests/VideoTests/Fixtures/none.mp4}"
echo "--- imago load with a configuration naming the faces detector:"
"$imago" load --config "$work/faces.json" Tests/DetectTests/Fixtures/astronaut.jpg 2>&1 | head -3 || true
echo "--- imago info on a video ($clip):"
"$imago" info "$clip" 2>&1 | head -3 || true
echo "--- imago info on a JPEG:"
"$imago" info Tests/DetectTests/Fixtures/astronaut.jpg 2>&1 | head -2
printf '{"codecs": ["png", "jpeg", "video"]}' > "$work/video.json"
echo "--- imago serve with a configuration naming the video codec (exits at start):"
timeout 30 "$imago" serve --listen 127.0.0.1:0 --config "$work/video.json" 2>&1 | head -3 || true
echo "--- imago serve with a configuration naming the faces detector (exits at start):"
timeout 30 "$imago" serve --listen 127.0.0.1:0 --config "$work/faces.json" 2>&1 | head -3 || true
