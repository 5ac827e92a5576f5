#!/bin/sh
# sanitizer-deps.sh - the CUDA Sanitizer API for building the explain
# library where compute-sanitizer is not installed (this machine, CI):
# pip installs NVIDIA's PyPI package nvidia-cuda-sanitizer-api, pinned to
# the release of CUDA 13.0 that the project builds with, under
# build/sanitizer-api (headers in nvidia/cu13/include, libsanitizer-public.so
# in nvidia/cu13/lib).  Prints nothing when it is there already.
set -eu
version=13.0.85
dest=build/sanitizer-api
[ -f "$dest/nvidia/cu13/include/sanitizer.h" ] && exit 0
py=$(command -v python3 || true)
if [ -z "$py" ] || ! "$py" -m pip --version >/dev/null 2>&1; then
	echo "sanitizer-deps.sh: python3 -m pip is needed to install nvidia-cuda-sanitizer-api==$version" >&2
	exit 1
fi
echo "sanitizer-deps.sh: installing nvidia-cuda-sanitizer-api==$version into $dest" >&2
"$py" -m pip install -q --disable-pip-version-check --no-deps \
	--target "$dest" "nvidia-cuda-sanitizer-api==$version"
