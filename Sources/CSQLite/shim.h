#ifndef TABLEWEB_CSQLITE_SHIM_H
#define TABLEWEB_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: tell SQLite to copy bound text.
static inline sqlite3_destructor_type tableweb_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}
#endif
