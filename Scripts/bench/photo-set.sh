#!/usr/bin/env bash
# Builds the photo set of the image-server benchmark (issue 36) into OUT: the photographs among the wallpapers
# Debian 12 ships under free licences (Scripts/setup.sh installs the packages): 11 from plasma-workspace-wallpapers
# (GPL-2+), 12 from lomiri-wallpapers-16.04 and -20.04 (CC-BY, CC-BY-SA, CC0) and 9 from mate-backgrounds (GPL-2+,
# CC-BY-SA); gnome-backgrounds 43, ukui-wallpapers and the other lomiri sets hold drawings and renders only. Each is
# scaled down with libvips to 2040 px on its longer side like the DIV2K photos (the few between 1900 and 2040 px
# are kept as they are; smaller ones are left out) and stored as JPEG (q90, 4:2:0), PNG, WebP (q90) and AVIF (q80),
# metadata stripped. Reusable by other measurements (issue 37's q=auto and f=best).
#
#   Scripts/bench/photo-set.sh OUT [COUNT]     (COUNT: at most this many photos, default 100)
#
# OUT/master/NAME.png is the lossless master; OUT/NAME.{jpg,png,webp,avif} are the originals the servers read (the
# PNG is the master itself). Prints how many photos the set holds. Idempotent: existing files are kept.
set -euo pipefail
# libvips warns about every EXIF resolution unit the wallpapers carry: nothing to act on.
export VIPS_WARNING=0
out=${1:?usage: photo-set.sh OUT [COUNT]}
count=${2:-100}
side=2040
# plasma-workspace-wallpapers: the photographs (its other wallpapers are drawings and renders), each as the widest
# landscape file the wallpaper ships (it has portrait variants of some).
plasma=(BytheWater ColdRipple ColorfulCups DarkestHour EveningGlow FallenLeaf Grey Kite OneStandsOut Path summer_1am)
# Single files of the other packages (portrait photographs included, as in DIV2K).
files=(/usr/share/backgrounds/{Bridge_by_Sander_Klootwijk,Dragonfly_by_Bolly,Picture_0B_by_freespace}.jpg
    /usr/share/backgrounds/{Wine_by_Jakkub_Mede,aitzgorri_by_Aitzol_Berasategi,free_by_Peter_Nerlich}.jpg
    /usr/share/backgrounds/{friends_by_Aitzol_Berasategi,life_by_Aitzol_Berasategi}.jpg
    /usr/share/backgrounds/{picosdeeuropa_by_Aitzol_Berasategi,seeding_by_Clements_Engelhardt}.jpg
    /usr/share/backgrounds/{sunset_by_Aitzol_Berasategi,Kleiber_by_Lukas_Baubkus}.jpg
    /usr/share/backgrounds/mate/nature/{Aqua,Blinds,Garden,LadyBird,RainDrops,Storm,TwoWings,Wood,YellowFlower}.jpg)
sources=()
for name in "${plasma[@]}"; do
    best="" widest=0
    for candidate in /usr/share/wallpapers/"$name"/contents/images/*.{jpg,png}; do
        [ -f "$candidate" ] || continue
        w=$(vipsheader -f width "$candidate" 2>/dev/null) h=$(vipsheader -f height "$candidate" 2>/dev/null)
        if [ "$w" -ge "$h" ] && [ "$w" -gt "$widest" ]; then best=$candidate widest=$w; fi
    done
    [ -n "$best" ] && sources+=("$best") || echo "photo-set.sh: $name missing (plasma-workspace-wallpapers)" >&2
done
for file in "${files[@]}"; do
    [ -f "$file" ] && sources+=("$file") || echo "photo-set.sh: $file missing (see Scripts/setup.sh)" >&2
done
mkdir -p "$out/master"
made=0
for source in "${sources[@]}"; do
    [ $made -ge "$count" ] && break
    w=$(vipsheader -f width "$source" 2>/dev/null) h=$(vipsheader -f height "$source" 2>/dev/null)
    [ $((w > h ? w : h)) -ge 1900 ] || continue
    # The wallpaper's name: its folder for plasma, the file name before "_by_" for the others.
    case $source in
        /usr/share/wallpapers/*) name=${source#/usr/share/wallpapers/}; name=${name%%/*} ;;
        *) name=$(basename "$source"); name=${name%%_by_*}; name=${name%.*} ;;
    esac
    key=$(echo "$name" | tr '[:upper:]_' '[:lower:]-')
    master="$out/master/$key.png"
    if [ ! -f "$master" ]; then
        # Lanczos3 reduction in linear light (no shrink-on-load), sRGB, no alpha.
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
