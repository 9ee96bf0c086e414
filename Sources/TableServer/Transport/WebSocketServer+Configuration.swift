extension WebSocketServer {
  /// Everything `tableweb serve` can set about the transport.
  public struct Configuration: Sendable {
    /// The address to listen on. Only an IP address or `localhost`.
    public var host: String
    /// The port to listen on; 0 lets the system pick one (read it back from
    /// `WebSocketServer.port`).
    public var port: Int
    /// The folder served as static files at `/`; nil serves the page built into the
    /// library (this package's `Public/`).
    public var publicDirectory: String?
    /// Origins (`scheme://host[:port]`) allowed besides the server's own.
    public var allowedOrigins: [String]
    /// The largest client message accepted, in bytes, after reassembling fragments.
    public var maxMessageSize: Int
    /// How many frames may wait for one slow connection.
    public var maxQueuedFrames: Int
    /// How many bytes may wait for one slow connection (one frame is always accepted
    /// into an empty queue, however large).
    public var maxQueuedBytes: Int
    /// Seconds without traffic before the server pings a connection.
    public var pingAfterIdleSeconds: Int
    /// Seconds without traffic (a pong counts) before the server drops a connection.
    public var hangUpAfterIdleSeconds: Int
    /// Whether to offer permessage-deflate to clients that ask for it.
    public var permessageDeflate: Bool
    /// Exact paths answered by the `HTTPResponder` given to `WebSocketServer.start(delegate:responder:onRefusal:)`
    /// instead of the static files (`/healthz`, `/metrics`).
    public var dynamicPaths: [String]
    /// Whether the static page is served at all (false for a metrics-only listener).
    public var servesPage: Bool
    /// Whether the page built in brings its service worker (`/sw.js`), which keeps the page
    /// for the next visit; false serves one that caches nothing and drops what an earlier
    /// one kept (`tableweb serve --no-page-worker`).
    public var pageWorker: Bool = true
    /// Host names (no port) answered besides the loopback ones. A server on a loopback
    /// ``host`` answers only a `Host` that is a loopback name or address or one of these
    /// (403 on every path, the upgrade included); names given here make a server on any
    /// address check too.
    public var allowedHosts: [String]
    /// Seconds a request's headers may take to arrive, counted from the connection's accept
    /// (the first request) or from its first byte (the next ones on a kept-alive connection).
    public var headerTimeoutSeconds: Int = 5
    /// Connections held at once, every kind; past it new ones get HTTP 503.
    public var maxConnections: Int = 20_000
    /// Connections one address may hold at once (see ``trustedProxies``); past it, 503.
    public var maxConnectionsPerAddress: Int = 1_000
    /// Connections one address may have still sending their first request's headers; past
    /// it, 503. Headers arrive in one packet from real clients.
    public var maxPendingHeadersPerAddress: Int = 32
    /// Addresses of reverse proxies whose `X-Forwarded-For` names the client: a connection
    /// from one counts against the last address in it that is not a trusted proxy. Nobody
    /// else's `X-Forwarded-For` is read.
    public var trustedProxies: [String] = []

    public init(
      host: String = "127.0.0.1", port: Int = 8080, publicDirectory: String? = nil,
      allowedOrigins: [String] = [], maxMessageSize: Int = 64 * 1024,
      maxQueuedFrames: Int = 512, maxQueuedBytes: Int = 8 * 1024 * 1024,
      pingAfterIdleSeconds: Int = 30, hangUpAfterIdleSeconds: Int = 75,
      permessageDeflate: Bool = false, dynamicPaths: [String] = [], servesPage: Bool = true,
      allowedHosts: [String] = []
    ) {
      self.allowedHosts = allowedHosts
      self.dynamicPaths = dynamicPaths
      self.servesPage = servesPage
      self.host = host
      self.port = port
      self.publicDirectory = publicDirectory
      self.allowedOrigins = allowedOrigins
      self.maxMessageSize = maxMessageSize
      self.maxQueuedFrames = maxQueuedFrames
      self.maxQueuedBytes = maxQueuedBytes
      self.pingAfterIdleSeconds = pingAfterIdleSeconds
      self.hangUpAfterIdleSeconds = hangUpAfterIdleSeconds
      self.permessageDeflate = permessageDeflate
    }
  }
}
