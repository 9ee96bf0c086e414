#ifndef TABLEWEB_CWEBSOCKETS_SHIM_H
#define TABLEWEB_CWEBSOCKETS_SHIM_H
#include <libwebsockets.h>

// Macros Swift cannot import, as constants.
static const size_t tableweb_lws_pre = LWS_PRE;
#endif
