#ifndef TABLEWEB_CWEBSOCKETS_SHIM_H
#define TABLEWEB_CWEBSOCKETS_SHIM_H
#include <libwebsockets.h>

// Macros Swift cannot import, as constants.
static const size_t tableweb_lws_pre = LWS_PRE;

static const uint64_t tableweb_lws_option_validate_utf8 = LWS_SERVER_OPTION_VALIDATE_UTF8;
static const uint64_t tableweb_lws_option_disable_ipv6 = LWS_SERVER_OPTION_DISABLE_IPV6;
static const uint64_t tableweb_lws_option_raw_origin = LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN;

static const int tableweb_lws_log_errors = LLL_ERR;
static const int tableweb_lws_log_warnings = LLL_WARN;
static const int tableweb_lws_log_notices = LLL_NOTICE;

static const int tableweb_lws_context_port_no_listen = CONTEXT_PORT_NO_LISTEN;

#endif
