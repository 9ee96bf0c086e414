#ifndef TABLEWEB_CSQLITE_SHIM_H
#define TABLEWEB_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: tell SQLite to copy bound text.
static inline sqlite3_destructor_type tableweb_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

// SQLite's memory statistics off (sqlite3_config is variadic, which Swift cannot call).
// With them on, every allocation of every connection takes one process-wide mutex: a
// search thread at nice 10, preempted while holding it, held the service thread up to
// 123 ms on a busy machine (`tablebench search`). Only before SQLite is initialized.
static inline int tableweb_sqlite_disable_memstatus(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
