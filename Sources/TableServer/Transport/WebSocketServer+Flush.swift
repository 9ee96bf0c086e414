import CWebsockets

/// Writing queued frames straight after the service loop's turn instead of at each
/// connection's writeable callback.
///
/// A fan-out to 10,000 idle viewers through writeable callbacks is 10,000
/// `lws_callback_on_writable`, a poll of every socket and 10,000 callbacks; written here it
/// is 10,000 writes. Frames still queue first (nothing is written while the work that
/// queued them runs, so a queue can be replaced before it is written) and are written
/// after lws's turn, in order, several to a write when they fit
/// (`WebSocketConnection.writeWaitingFrames()`), while the socket takes them whole: once
/// lws holds part of a write back, the rest waits for the writeable callback as before.
///
/// - Important: Service thread only.
extension WebSocketServer {
  /// Asks for `connection`'s queue to be written: after this turn of the service loop
  /// when nothing stands in the way, else at its writeable callback.
  func requestWrite(_ connection: WebSocketConnection) {
    guard !configuration.permessageDeflate else {
      // The compressor reads a frame until the next writeable callback.
      lws_callback_on_writable(connection.wsi)
      return
    }
    guard !connection.awaitsFlush else { return }
    connection.awaitsFlush = true
    connectionsToFlush.append(connection.id)
  }

  /// Writes what the connections asked for in ``requestWrite(_:)`` wait to send.
  func flushWrites() {
    guard !connectionsToFlush.isEmpty else { return }
    let waiting = connectionsToFlush
    connectionsToFlush = []
    for id in waiting {
      guard let connection = connections[id] else { continue }
      connection.awaitsFlush = false
      flush(connection)
    }
  }

  private func flush(_ connection: WebSocketConnection) {
    while !connection.pingDue, !connection.holdsWrittenFrame,
      lws_partial_buffered(connection.wsi) == 0, !connection.queue.isEmpty
    {
      guard let count = connection.writeWaitingFrames() else {
        // lws failed the connection; it closes asynchronously (LWS_CALLBACK_CLOSED).
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, -1)
        return
      }
      countWrite(of: count)
      connection.releaseWrittenFrame()
    }
    if !connection.queue.isEmpty || connection.pendingClose != nil || connection.pingDue {
      lws_callback_on_writable(connection.wsi)
    }
  }
}
