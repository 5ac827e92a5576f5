#!/bin/sh
# deps.sh PACKAGE... - make sure these Debian packages are installed.
#
# Installs the missing ones with apt-get when run as root; otherwise stops
# with the exact command to run.  Prints nothing when all are present.
set -eu
missing=""
for pkg in "$@"; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $pkg"
	fi
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: missing packages:$missing (no apt-get here: install them by hand)" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing" >&2
	echo "deps.sh: run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have empty package lists; refresh them once.
apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1 || {
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends $missing >/dev/null
}
