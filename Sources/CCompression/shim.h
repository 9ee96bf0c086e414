#ifndef TABLEWEB_CCOMPRESSION_SHIM_H
#define TABLEWEB_CCOMPRESSION_SHIM_H
// zlib (gzip) and the brotli encoder: the page is compressed once, when it is built.
#include <zlib.h>
#include <brotli/encode.h>

// deflateInit2 is a macro.
static inline int tableweb_deflate_init_gzip(z_stream *stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}
#endif
