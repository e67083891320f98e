#!/bin/sh
# Run once by the postgres image when it creates the primary's data folder: let
# streaming standbys (the compose "replica" profile) connect for replication.
set -e
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
