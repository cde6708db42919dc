#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Strata builds and tests with, if any is missing.
set -euo pipefail
packages=(pkg-config libwayland-dev wayland-protocols libpixman-1-dev libpng-dev libxkbcommon-dev libpango1.0-dev fonts-dejavu-core fonts-noto-color-emoji fonts-wqy-microhei fonts-lohit-deva xkb-data libx11-data weston sway cage xwayland grim wtype wl-clipboard adwaita-icon-theme kwin-wayland dbus gcc libglib2.0-dev mutter pipewire wireplumber gstreamer1.0-pipewire gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good libnotify-bin foot gir1.2-gtk-4.0 python3-gi python3-pyqt5 qtwayland5 xdg-desktop-portal xdg-desktop-portal-gtk at-spi2-core python3-pyatspi orca dconf-service dconf-gsettings-backend gsettings-desktop-schemas libglib2.0-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# sway refuses to run as root: run as root, the tests run it as an unprivileged
# system user (no home, no login shell), made here once and said so.
if [ "$(id -u)" -eq 0 ] && ! id strata-test >/dev/null 2>&1; then
    echo "Creating the system user 'strata-test' (no home, no login) to run sway in the tests, as sway refuses to run as root."
    useradd --system --no-create-home --shell /usr/sbin/nologin strata-test
fi
command -v swift >/dev/null || { echo "Swift 6 is needed: https://www.swift.org/install/linux/" >&2; exit 1; }
