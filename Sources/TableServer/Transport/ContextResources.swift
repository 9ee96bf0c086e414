import CWebsockets

#if canImport(Glibc)
  import Glibc
#endif

/// The C memory libwebsockets keeps pointers to for its context's whole life: protocol
/// names and table, the static-file mount and its MIME types, the extensions, the
/// keepalive policy (none: see WebSocketServer+IdleSweep). Created before the context and freed only after it is destroyed.
///
/// - Important: Not thread-safe; lws reads it on the service thread.
final class ContextResources {
  static let httpProtocolName = "http"

  /// Types lws does not know (or gets wrong) for the files a page is made of.
  static let extraMimeTypes: [(suffix: String, type: String)] = [
    (".mjs", "text/javascript"),
    (".js", "text/javascript"),
    (".css", "text/css"),
    (".svg", "image/svg+xml"),
    (".json", "application/json"),
    (".map", "application/json"),
    (".webmanifest", "application/manifest+json"),
    (".png", "image/png"),
    (".ico", "image/x-icon"),
    (".woff2", "font/woff2"),
    (".woff", "font/woff"),
    (".txt", "text/plain; charset=utf-8"),
    (".html", "text/html; charset=utf-8"),
  ]

  private var strings: [UnsafeMutablePointer<CChar>] = []
  let protocols: UnsafeMutablePointer<lws_protocols>
  let protocolCount = 3  // http, tableweb.v1, the terminator
  /// The API mount and one callback mount per dynamic path (handed to the http
  /// protocol's callback), then the static files (lws picks the longest mount point).
  let mount: UnsafeMutablePointer<lws_http_mount>
  let mountCount: Int
  let mimeTypes: UnsafeMutablePointer<lws_protocol_vhost_options>
  let extensions: UnsafeMutablePointer<lws_extension>
  let retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>
  let interface: UnsafePointer<CChar>

  /// `publicDirectory`: the folder served at `/`, or nil for the page built in, which the
  /// http protocol's callback answers.
  init(configuration: WebSocketServer.Configuration, publicDirectory: String?) {
    interface = UnsafePointer(
      Self.copy(
        configuration.host == "localhost" ? "127.0.0.1" : configuration.host, into: &strings))

    protocols = .allocate(capacity: protocolCount)
    protocols.initialize(repeating: lws_protocols(), count: protocolCount)
    protocols[0].name = UnsafePointer(Self.copy(Self.httpProtocolName, into: &strings))
    protocols[0].callback = httpProtocolCallback
    protocols[1].name = UnsafePointer(Self.copy(UpgradePolicy.subprotocol, into: &strings))
    protocols[1].callback = webSocketProtocolCallback
    protocols[1].per_session_data_size = MemoryLayout<UInt64>.size
    // lws keeps a receive buffer of this size for each connection's life: commands are
    // small, so keep it small (an idle connection costs about 3 KiB less than the default);
    // larger messages simply arrive in more pieces.
    protocols[1].rx_buffer_size = 1024

    mimeTypes = .allocate(capacity: Self.extraMimeTypes.count)
    for (index, entry) in Self.extraMimeTypes.enumerated() {
      var option = lws_protocol_vhost_options()
      option.next =
        index + 1 < Self.extraMimeTypes.count ? UnsafePointer(mimeTypes + index + 1) : nil
      option.name = UnsafePointer(Self.copy(entry.suffix, into: &strings))
      option.value = UnsafePointer(Self.copy(entry.type, into: &strings))
      (mimeTypes + index).initialize(to: option)
    }

    let dynamicPaths = [WebSocketServer.apiPathPrefix] + configuration.dynamicPaths
    mountCount = dynamicPaths.count + (configuration.servesPage ? 1 : 0)
    mount = .allocate(capacity: mountCount)
    for (index, path) in dynamicPaths.enumerated() {
      var dynamic = lws_http_mount()
      dynamic.mount_next = index + 1 < mountCount ? UnsafePointer(mount + index + 1) : nil
      dynamic.mountpoint = UnsafePointer(Self.copy(path, into: &strings))
      dynamic.mountpoint_len = UInt8(path.utf8.count)
      dynamic.origin = UnsafePointer(Self.copy(Self.httpProtocolName, into: &strings))
      dynamic.protocol = dynamic.origin
      dynamic.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
      (mount + index).initialize(to: dynamic)
    }
    var mountValue = lws_http_mount()
    mountValue.mountpoint = UnsafePointer(Self.copy("/", into: &strings))
    mountValue.mountpoint_len = 1  // lws does not measure it
    // Binding the mount to the http protocol lets it add headers (Cache-Control) to files.
    mountValue.protocol = UnsafePointer(Self.copy(Self.httpProtocolName, into: &strings))
    if let publicDirectory {
      mountValue.origin = UnsafePointer(Self.copy(publicDirectory, into: &strings))
      mountValue.def = UnsafePointer(Self.copy("index.html", into: &strings))
      mountValue.extra_mimetypes = UnsafePointer(mimeTypes)
      mountValue.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
    } else {
      mountValue.origin = mountValue.protocol
      mountValue.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
    }
    if configuration.servesPage { (mount + dynamicPaths.count).initialize(to: mountValue) }

    extensions = .allocate(capacity: 2)
    extensions.initialize(repeating: lws_extension(), count: 2)
    if configuration.permessageDeflate {
      extensions[0].name = UnsafePointer(Self.copy("permessage-deflate", into: &strings))
      extensions[0].callback = lws_extension_callback_pm_deflate
      extensions[0].client_offer = UnsafePointer(
        Self.copy("permessage-deflate; client_max_window_bits", into: &strings))
    }

    retryPolicy = .allocate(capacity: 1)
    var policy = lws_retry_bo_t()
    // No keepalive timers of lws's own (one sorted insertion per connection heard from):
    // the server's idle sweep pings and hangs up instead (WebSocketServer+IdleSweep).
    policy.secs_since_valid_ping = 0
    policy.secs_since_valid_hangup = 0
    retryPolicy.initialize(to: policy)
  }

  deinit {
    protocols.deinitialize(count: protocolCount)
    protocols.deallocate()
    mimeTypes.deinitialize(count: Self.extraMimeTypes.count)
    mimeTypes.deallocate()
    mount.deinitialize(count: mountCount)
    mount.deallocate()
    extensions.deinitialize(count: 2)
    extensions.deallocate()
    retryPolicy.deinitialize(count: 1)
    retryPolicy.deallocate()
    for string in strings { free(string) }
  }

  private static func copy(_ string: String, into strings: inout [UnsafeMutablePointer<CChar>])
    -> UnsafeMutablePointer<CChar>
  {
    let copy = strdup(string)!
    strings.append(copy)
    return copy
  }
}
