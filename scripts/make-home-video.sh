#!/usr/bin/env bash
# Renders the home page's short "How Ampere works" clip (apps/web/public/videos/how-ampere-works.webm)
# from text alone, so the app ships its own video and needs no outside host (decision 030).
# Needs ffmpeg with libvpx-vp9 and the DejaVu fonts. Run from the repository root.
set -euo pipefail
out=apps/web/public/videos/how-ampere-works.webm
bold=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
regular=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
seconds=12

# One slide: a title and a line under it, shown from $1 to $2 seconds, fading in and out.
slide() {
  local from=$1 to=$2 title=$3 line=$4
  local alpha="if(lt(t,${from}+0.4),(t-${from})/0.4,if(gt(t,${to}-0.4),(${to}-t)/0.4,1))"
  printf "drawtext=fontfile=%s:text='%s':fontsize=46:fontcolor=white:x=(w-tw)/2:y=128:enable='between(t,%s,%s)':alpha='%s'," "$bold" "$title" "$from" "$to" "$alpha"
  printf "drawtext=fontfile=%s:text='%s':fontsize=24:fontcolor=0xcdeede:x=(w-tw)/2:y=198:enable='between(t,%s,%s)':alpha='%s'," "$regular" "$line" "$from" "$to" "$alpha"
}

filters="$(slide 0 3 'Ampere' 'Electric cars by the day')"
filters+="$(slide 3 6 '1. Search' 'Pick a city and your dates')"
filters+="$(slide 6 9 '2. Book and verify' 'License, insurance and deposit in minutes')"
filters+="$(slide 9 12 '3. Unlock and drive' 'Your phone is the key')"
# A bar along the bottom that fills as the clip runs.
filters="[0]${filters%,}[text];[text][1]overlay=x='-W+W*t/${seconds}':y=H-8:shortest=1"

ffmpeg -y -loglevel error -f lavfi -i "color=c=0x0b3d2e:s=640x360:d=${seconds}:r=24" -f lavfi -i "color=c=0x7cffb2:s=640x8:d=${seconds}:r=24" \
  -filter_complex "$filters" \
  -c:v libvpx-vp9 -b:v 0 -crf 42 -row-mt 1 -pix_fmt yuv420p -an "$out"
ls -l "$out"
