/// The knobs of `SessionServer`.
public struct SessionServerConfiguration: Sendable, Hashable {
  /// Refuse every command that changes shared data (`not_allowed`), and show every list
  /// as not editable.
  public var isReadOnly: Bool
  /// How many rows of each section a `screen` carries; the client fetches the rest.
  public var screenRowLimit: Int
  /// The most rows one `fetch` returns.
  public var fetchLimit: Int
  /// Commands a connection may send in a burst, and per second after it.
  public var burstSize: Double
  public var commandsPerSecond: Double
  /// A connection whose messages are refused by the rate limit this many times in a row
  /// is closed.
  public var refusalsBeforeClose: Int
  /// Lists with more rows than this, from a ``WindowedDataSource``, are held as their
  /// first screen only and diffed from the data source's edits by position, never read
  /// whole (SessionServer+Windows).
  public var windowedListThreshold: Int = 10_000
  /// Searches are read off the core thread (`ServerAction.readSearch`) and answered when
  /// their results come back: set by `TablewebServer` when the data source declares a
  /// ``DataSourceCapabilities/searchReader`` and keeps versions. False: read at once.
  package var readsSearchesAside = false

  public init(
    isReadOnly: Bool = false, screenRowLimit: Int = 300, fetchLimit: Int = 500,
    burstSize: Double = 100, commandsPerSecond: Double = 50, refusalsBeforeClose: Int = 50
  ) {
    precondition(screenRowLimit > 0 && fetchLimit > 0 && refusalsBeforeClose > 0)
    self.isReadOnly = isReadOnly
    self.screenRowLimit = screenRowLimit
    self.fetchLimit = fetchLimit
    self.burstSize = burstSize
    self.commandsPerSecond = commandsPerSecond
    self.refusalsBeforeClose = refusalsBeforeClose
  }
}
