#!/usr/bin/env bash
# Prepares the VM the kernel-HCI tests boot (docs/testing-vm.md): Debian's kernel from
# linux-image-amd64 (apt-get download, dpkg-deb -x, depmod) and a busybox-static initramfs that loads
# virtio/9p and the Bluetooth modules with hci_vhci. Everything is cached under .build/vm/ by kernel
# version; run again, it only checks. Prints the directory holding vmlinuz and initramfs.
# Needs: apt-get (Debian), dpkg-deb, kmod (depmod, modprobe), busybox-static, cpio, gzip.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD/.build/vm

fail() { echo "vm prepare: $*" >&2; exit 1; }
for tool in apt-get apt-cache dpkg-deb depmod modprobe cpio gzip; do
    command -v "$tool" >/dev/null || fail "$tool is missing: run 'bash Tests/setup.sh' (it installs kmod, cpio, busybox-static and qemu-system-x86)"
done
[ -x /bin/busybox ] && [[ $'\n'$(/bin/busybox --list)$'\n' == *$'\ninsmod\n'* ]] || fail "/bin/busybox (busybox-static) is missing: run 'bash Tests/setup.sh'"

# The image package the linux-image-amd64 metapackage points at today (linux-image-6.1.0-NN-amd64).
image_package() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'; }
package=$(image_package)
if [ -z "$package" ] && [ ! -f "$root"/kernel-*/initramfs.cpio.gz ] 2>/dev/null; then
    # A machine whose package lists were never fetched (apt-cache knows nothing yet).
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    package=$(image_package)
fi
if [ -z "$package" ]; then
    package=$(ls "$root"/kernel-*/package 2>/dev/null | head -n 1 | xargs -r cat)
    [ -n "$package" ] || fail "apt-cache knows no linux-image-amd64: run 'apt-get update' (Debian's package lists are needed once)"
fi
version=${package#linux-image-}
dir=$root/kernel-$version
if [ -f "$dir/initramfs.cpio.gz" ] && [ "$dir/initramfs.cpio.gz" -nt "$0" ] && [ "$dir/initramfs.cpio.gz" -nt Tests/vm/init ]; then
    echo "$dir"; exit 0
fi

mkdir -p "$dir/deb"
if [ ! -f "$dir/vmlinuz" ]; then
    ( cd "$dir/deb" && apt-get download "$package" >/dev/null 2>"$dir/download.log" ) \
        || fail "apt-get download $package failed ($(tail -n 1 "$dir/download.log")): check the network and 'apt-get update'"
    rm -rf "$dir/tree"
    dpkg-deb -x "$dir"/deb/*.deb "$dir/tree"
    depmod -b "$dir/tree" "$version"
    cp "$dir/tree/boot/vmlinuz-$version" "$dir/vmlinuz.tmp"
    echo "$package" > "$dir/package"
    rm -f "$dir"/deb/*.deb
    mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
fi

# The modules and their dependencies, in load order (modprobe --show-depends reads modules.dep).
staging=$dir/initramfs
rm -rf "$staging"
mkdir -p "$staging"/{bin,modules,proc,sys,dev,host,out}
cp /bin/busybox "$staging/bin/busybox"
: > "$staging/modules/order"
for module in virtio_pci virtio_console 9pnet_virtio 9p rfkill crc16 ecdh_generic bluetooth hci_vhci; do
    modprobe -d "$dir/tree" -S "$version" --show-depends "$module" | awk '$1 == "insmod" { print $2 }' | while read -r path; do
        name=$(basename "$path")
        grep -qx "$name" "$staging/modules/order" && continue
        cp "$path" "$staging/modules/$name"
        echo "$name" >> "$staging/modules/order"
    done
done
cp Tests/vm/init "$staging/init"
chmod +x "$staging/init"
( cd "$staging" && find . | cpio -o -H newc --quiet | gzip -1 > "$dir/initramfs.cpio.gz.tmp" )
mv "$dir/initramfs.cpio.gz.tmp" "$dir/initramfs.cpio.gz"
echo "$dir"
