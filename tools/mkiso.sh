#!/bin/sh
# tools/mkiso.sh EFI CFG ISO [--fat-mb MB]
# Builds an ISO 9660 image for optical drives and a BMC's virtual media,
# hybrid so that it also boots written to a stick (dd, tools/write-stick):
#   - a FAT image holding \EFI\BOOT\BOOTX64.EFI and \baremark.cfg is the
#     El Torito boot image (no emulation, platform EFI), which UEFI firmware
#     boots from a CD;
#   - the same FAT image is appended as partition 2 of a GPT (type EFI
#     System), which UEFI firmware boots from a disk or stick;
#   - the ISO tree repeats both files so an OS sees them on the CD.
# xorriso (Debian package xorriso) writes the ISO, mtools the FAT image; no
# root needed.  The FAT image has room beyond the files (--fat-mb, default
# 16) so a stick written from the ISO can keep results on it; on a CD it is
# read-only and the run looks for another writable FAT volume (README
# "Booting from the network and virtual media").
set -eu
[ $# -ge 3 ] || { echo "usage: $0 EFI CFG ISO [--fat-mb MB]" >&2; exit 2; }
efi=$1 cfg=$2 iso=$3
shift 3
fat_mb=16
while [ $# -gt 0 ]; do
    case $1 in
    --fat-mb) fat_mb=$2; shift 2 ;;
    *) echo "mkiso: unknown option $1" >&2; exit 2 ;;
    esac
done
command -v xorriso >/dev/null || { echo "mkiso: xorriso not found (Debian package xorriso; tools/install-deps.sh)" >&2; exit 1; }
work="$iso.d.tmp"
rm -rf "$work" "$iso.tmp"
mkdir -p "$work/tree/EFI/BOOT"
export MTOOLS_SKIP_CHECK=1
# FAT16 needs at least 4085 clusters: 16 MiB with 2 KiB clusters is fine.
mformat -C -i "$work/efiboot.img" -T $((fat_mb * 2048)) -h 64 -s 32 -v BAREMARK ::
mmd -i "$work/efiboot.img" ::/EFI ::/EFI/BOOT
mcopy -i "$work/efiboot.img" "$efi" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$work/efiboot.img" "$cfg" ::/baremark.cfg
cp "$efi" "$work/tree/EFI/BOOT/BOOTX64.EFI"
cp "$cfg" "$work/tree/baremark.cfg"
# -e --interval:appended_partition_2:all:: makes the El Torito entry point
# at the appended partition, so the FAT image is stored once.
xorriso -as mkisofs -quiet -o "$iso.tmp" -R -J -V BAREMARK \
    -append_partition 2 0xef "$work/efiboot.img" -appended_part_as_gpt \
    -e --interval:appended_partition_2:all:: -no-emul-boot \
    "$work/tree" 2>"$work/xorriso.log" || { cat "$work/xorriso.log" >&2; exit 1; }
rm -rf "$work"
mv "$iso.tmp" "$iso"
