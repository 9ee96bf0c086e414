import CCompression
import CCrypto
import Foundation

/// What the embedder needs of zlib, brotli and libcrypto: each is called here only.
enum Compression {
  /// `data` as a gzip member (zlib, level 9), with no name and no time in its header, so
  /// that the same page always builds the same bytes.
  static func gzip(_ data: [UInt8]) throws -> [UInt8] {
    var stream = z_stream()
    guard tableweb_deflate_init_gzip(&stream, 9) == Z_OK else {
      throw EmbedError("zlib: deflateInit2 failed")
    }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 64)
    var input = data
    let result = input.withUnsafeMutableBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        stream.next_in = input.baseAddress
        stream.avail_in = uInt(input.count)
        stream.next_out = output.baseAddress
        stream.avail_out = uInt(output.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard result == Z_STREAM_END else { throw EmbedError("zlib: deflate returned \(result)") }
    return Array(output.prefix(Int(stream.total_out)))
  }

  /// `data` compressed with brotli at its highest quality (the page is compressed once).
  static func brotli(_ data: [UInt8]) throws -> [UInt8] {
    var size = BrotliEncoderMaxCompressedSize(data.count)
    var output = [UInt8](repeating: 0, count: max(size, 1024))
    size = output.count
    let ok = data.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        BrotliEncoderCompress(
          BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, input.count,
          input.baseAddress, &size, output.baseAddress)
      }
    }
    guard ok == BROTLI_TRUE else { throw EmbedError("brotli: BrotliEncoderCompress failed") }
    return Array(output.prefix(size))
  }

  /// The SHA-256 digest of `data`.
  static func sha256(_ data: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    _ = data.withUnsafeBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
    return digest
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }
}

struct EmbedError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
