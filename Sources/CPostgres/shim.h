#ifndef TABLEWEB_CPOSTGRES_SHIM_H
#define TABLEWEB_CPOSTGRES_SHIM_H
#include <libpq-fe.h>

// The PG_DIAG_* field codes are character-literal macros Swift does not import.
static inline int tableweb_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int tableweb_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int tableweb_pg_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
#endif
