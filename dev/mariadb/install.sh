#!/bin/sh
# Installs Debian's mariadb-server when its server program is missing: the database tests start
# their own MariaDB from it (dev/mariadb). Nothing else is set up or started; the system service
# is left stopped.
set -eu
for dir in $(printf '%s' "${PATH:-}" | tr ':' ' ') /usr/sbin /usr/bin /usr/local/sbin /usr/local/bin; do
  if [ -x "$dir/mariadbd" ]; then exit 0; fi
done
if [ "$(id -u)" -eq 0 ]; then sudo=''; else sudo='sudo'; fi
echo 'mariadbd not found: installing mariadb-server (apt-get)' >&2
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mariadb-server
