#!/usr/bin/env bash
# Installs what atomlab needs on Debian/Ubuntu, only where it is missing:
# a C toolchain, CMake, the OpenCL headers and ICD loader, PoCL (OpenCL on the
# CPU), cJSON, gnuplot (heatmaps), valgrind (a memcheck test), Python 3 (the CLI
# tests read JSON with it), git and chromium (the report test loads report.html
# headless), libjpeg-turbo and a Debian wallpaper package with real photographs
# (the histogram app's photo distribution), and dict-gcide (English text for
# `atomlab app swapps`'s string match), and the Vulkan headers, glslc and Mesa's Vulkan drivers (the Vulkan
# backend, tested on lavapipe), and python3-venv (scripts/test.sh tests the Python package in a venv, numpy and
# pytest from PyPI).
set -euo pipefail

PACKAGES=(gcc make cmake pkg-config git python3 python3-venv ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd libcjson-dev clinfo gnuplot-nox valgrind chromium
  libjpeg-dev zlib1g-dev lomiri-wallpapers-20.04 dict-gcide libvulkan-dev glslc mesa-vulkan-drivers)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "atomlab: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "error: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
