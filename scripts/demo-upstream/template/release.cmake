# This release of the demo server. scripts/make-demo-upstream writes this file for every tag.
set(DEMO_VERSION "10.11.0")
# Server settings this release always runs with (they come after my.cnf, so they win).
set(DEMO_EXTRA_ARGS "--innodb-flush-log-at-trx-commit=2;--sync-binlog=0")
# Extra instructions the server runs per query (launcher/extra-work.c); -1: none preloaded.
set(DEMO_EXTRA_INSTRUCTIONS -1)
