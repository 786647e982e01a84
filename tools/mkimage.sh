#!/bin/sh
# tools/mkimage.sh EFI CFG IMAGE [--size MB]
# Builds a raw disk image with a GPT and one FAT32 EFI System Partition
# holding \EFI\BOOT\BOOTX64.EFI and \baremark.cfg.  No root needed: sfdisk
# works on the file, mtools writes the FAT at the partition's offset.
#   --size MB   image size (default 64; FAT32 needs at least ~33 MiB)
set -eu
. "$(cd "$(dirname "$0")/.." && pwd)/tools/lib/common.sh"
bm_init mkimage.sh "$@"
case ${1:-} in -*) bm_usage_error "unknown option $1" ;; esac
[ $# -ge 3 ] || bm_usage_error "give EFI, CFG and IMAGE"
efi=$1 cfg=$2 img=$3
shift 3
size=64
while [ $# -gt 0 ]; do
    case $1 in
    --size) [ $# -ge 2 ] || bm_usage_error "--size needs a size in MB"; size=$2; shift 2 ;;
    *) bm_usage_error "unknown option $1" ;;
    esac
done
ESP_TYPE=$BM_ESP_TYPE
tmp="$img.tmp"
rm -f "$tmp"
truncate -s "${size}M" "$tmp"
# One partition from 1 MiB to the end (sfdisk keeps the backup GPT room).
printf 'label: gpt\nstart=2048, type=%s, name="baremark ESP"\n' "$ESP_TYPE" |
    sfdisk --quiet "$tmp"
part_sectors=$(sfdisk --json "$tmp" | sed -n 's/.*"size": *\([0-9]*\).*/\1/p' | head -1)
export MTOOLS_SKIP_CHECK=1
mformat -i "$tmp@@1M" -F -T "$part_sectors" -v BAREMARK ::
mmd -i "$tmp@@1M" ::/EFI ::/EFI/BOOT ::/baremark
mcopy -i "$tmp@@1M" "$efi" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$tmp@@1M" "$cfg" ::/baremark.cfg
mv "$tmp" "$img"
