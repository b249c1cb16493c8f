#!/usr/bin/env bash
# Installs the Debian packages Imago builds against (the C codec libraries) and the tests use (python3 for the
# loopback test server, redis-server and nginx started as children; the wallpapers whose photographs the server
# benchmark uses), and the PyPI tools the tests start in virtual
# environments of their own (moto_server, thumbor). Idempotent; needs root or sudo.
set -euo pipefail
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
packages=(libpng-dev libspng-dev libjpeg-dev libgif-dev libwebp-dev pkg-config python3 liblcms2-dev ghostscript
    libavif-dev libheif-dev libjxl-dev libavif-bin libheif-examples libjxl-tools libcurl4-openssl-dev openssl
    libvips-tools colord-data icc-profiles-free python3-pil python3-numpy libhiredis-dev redis-server redis-tools
    libmicrohttpd-dev curl wrk python3-venv python3-dev nginx libssl-dev
    plasma-workspace-wallpapers gnome-backgrounds lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 mate-backgrounds
    libopencv-objdetect-dev libopencv-imgproc-dev opencv-data
    libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg
    python3-skimage)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# make_venv FOLDER PROBE [--system-site-packages] PACKAGE...: a virtual environment of Debian's python3 (not
# whatever python3 comes first on PATH), made only when PROBE fails to import in it.
make_venv() {
    local venv=$1 probe=$2 options=()
    shift 2
    [ "${1:-}" = --system-site-packages ] && { options+=("$1"); shift; }
    "$venv/bin/python3" -c "$probe" 2>/dev/null && return 0
    $sudo_cmd /usr/bin/python3 -m venv "${options[@]}" "$venv"
    $sudo_cmd "$venv/bin/pip" install -q --disable-pip-version-check "$@"
}
# The reference ThumbHash and BlurHash decoders the placeholder tests compare against, seeing Debian's Pillow/numpy.
make_venv /opt/imago-test-venv "import thumbhash, blurhash, PIL" --system-site-packages \
    thumbhash-python==1.0.1 blurhash==1.1.5
# An S3-compatible server for the S3 transport, cache and fleet tests (issue 25), and a real thumbor for the
# dialect comparison (issue 26): each in its own pinned environment, apart from the system Python's packages.
make_venv /opt/imago-moto-venv "import moto.server, flask_cors" "moto[server]==5.2.5"
make_venv /opt/imago-thumbor-venv "import thumbor, PIL" thumbor==7.8.0 pillow==12.3.0
# The libvips service the server benchmark compares with (Scripts/bench-servers.sh, issue 36): pyvips over Debian's
# libvips under gunicorn, with numpy and Pillow (which reads AVIF) for the benchmark's quality scores.
make_venv /opt/imago-vips-venv "import pyvips, gunicorn, numpy, PIL.AvifImagePlugin" \
    pyvips==3.2.0 gunicorn==27.0.1 numpy==2.4.6 pillow==12.3.0
