#!/usr/bin/env bash
# Builds the photo set of the image-server benchmark (issue 36) into OUT: the photographic wallpapers Debian ships
# (plasma-workspace-wallpapers, gnome-backgrounds; Scripts/setup.sh installs both) scaled with libvips to about 2K
# like the DIV2K photos (2040 px on the longer side), each stored as JPEG (q90, 4:2:0), PNG, WebP (q90) and AVIF
# (q80), metadata stripped. Reusable by other measurements (issue 37's q=auto and f=best).
#
#   Scripts/bench/photo-set.sh OUT [COUNT]     (COUNT: at most this many photos, default 100)
#
# OUT/master/NAME.png is the lossless 2040 px master; OUT/NAME.{jpg,png,webp,avif} are the originals the servers
# read (the PNG is the master itself). Prints how many photos the set holds. Idempotent: existing files are kept.
set -euo pipefail
# libvips warns about every EXIF resolution unit the wallpapers carry: nothing to act on.
export VIPS_WARNING=0
out=${1:?usage: photo-set.sh OUT [COUNT]}
count=${2:-100}
side=2040
# The wallpapers that are photographs (the rest of both packages are drawings, renders and patterns; Debian 12's
# gnome-backgrounds 43 has no photograph, later versions may): each package's largest landscape file is used.
photos=(BytheWater ColdRipple ColorfulCups DarkestHour EveningGlow FallenLeaf Grey Kite OneStandsOut Path summer_1am)
roots=(/usr/share/wallpapers /usr/share/backgrounds/gnome)
mkdir -p "$out/master"
made=0
for name in "${photos[@]}"; do
    [ $made -ge "$count" ] && break
    source=""
    for root in "${roots[@]}"; do
        for candidate in "$root/$name"/contents/images/*.jpg "$root/$name"/contents/images/*.png "$root/$name".*; do
            [ -f "$candidate" ] || continue
            # Keep the widest landscape image of the wallpaper (packages ship portrait variants too).
            w=$(vipsheader -f width "$candidate" 2>/dev/null) h=$(vipsheader -f height "$candidate" 2>/dev/null)
            [ "$w" -ge "$h" ] || continue
            if [ -z "$source" ] || [ "$w" -gt "$best" ]; then source=$candidate; best=$w; fi
        done
    done
    [ -n "$source" ] || { echo "photo-set.sh: $name not found (install plasma-workspace-wallpapers)" >&2; continue; }
    key=$(echo "$name" | tr '[:upper:]_' '[:lower:]-')
    master="$out/master/$key.png"
    if [ ! -f "$master" ]; then
        # Lanczos3 reduction (vips thumbnail: shrink-on-load only where it stays exact for PNG), sRGB, no alpha.
        vips thumbnail "$source" "$out/master/$key.v" $side --height $side --size down --linear
        vips colourspace "$out/master/$key.v" "$out/master/$key.tmp.v" srgb
        vips pngsave "$out/master/$key.tmp.v" "$master" --strip --compression 9
        rm -f "$out/master/$key.v" "$out/master/$key.tmp.v"
    fi
    [ -f "$out/$key.png" ] || cp "$master" "$out/$key.png"
    [ -f "$out/$key.jpg" ] || vips jpegsave "$master" "$out/$key.jpg" --Q 90 --strip --optimize-coding \
        --subsample-mode on
    [ -f "$out/$key.webp" ] || vips webpsave "$master" "$out/$key.webp" --Q 90 --strip
    [ -f "$out/$key.avif" ] || vips heifsave "$master" "$out/$key.avif" --Q 80 --compression av1 --strip
    made=$((made + 1))
done
echo "photo-set.sh: $made photos of about ${side} px in $out (JPEG, PNG, WebP, AVIF)"
[ $made -gt 0 ]
