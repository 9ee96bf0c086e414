import TableModel

/// What the server core asks the I/O code to do. The core decides; `SessionHost`
/// carries the actions out through a `MessageTransport`, in order.
package enum ServerAction: Sendable {
  /// Queue `frame` (encoded once) for each connection.
  case send(OutgoingFrame, to: [ConnectionID], kind: FrameKind)
  /// Close after what is queued, with WebSocket status `code` (4401: unauthorized).
  case close(ConnectionID, reason: String, code: Int = 1000)
  /// Call `SessionServer/presenceWake(at:)` on the core thread after `delay`: a
  /// `presence` waits for its list's 100 ms (SessionServer+Presence).
  case wake(after: Duration)
  /// Read the results of `query` on `list` off the core thread (the data source's
  /// ``DataSourceCapabilities/searchReader``), diff them there from `base` (the results
  /// shown now, if any), and hand them to `SessionServer.searchRead(_:in:read:)` on the
  /// core thread when they are ready.
  case readSearch(SearchQuery, list: String, base: TableSnapshot?)

  /// What a frame is, so that a connection whose queue was just replaced by a fresh
  /// screen is not sent diffs that screen already contains.
  public enum FrameKind: Sendable, Hashable {
    /// `welcome`, `ack`, `error`, `rows`, `notice`: answers and news, always delivered.
    case reply
    case screen
    case diff
    /// `presence`: dropped with the queue, as a fresh screen brings it again.
    case presence
  }
}
