#ifndef TABLEWEB_CCRYPTO_SHIM_H
#define TABLEWEB_CCRYPTO_SHIM_H
// The system's libcrypto (OpenSSL): random bytes, SHA-256, constant-time comparison.
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#endif
