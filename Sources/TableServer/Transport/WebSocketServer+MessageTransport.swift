import CWebsockets

extension WebSocketServer: MessageTransport {
  /// - Important: Must be called on the service thread.
  public func peerAddress(of connection: ConnectionID) -> String? {
    precondition(isOnServiceThread, "peerAddress(of:) called off the service thread")
    guard let open = openConnection(connection), !open.request.peerAddress.isEmpty else {
      return nil
    }
    return open.request.peerAddress
  }

  /// - Important: Must be called on the service thread.
  @discardableResult
  public func send(_ frame: OutgoingFrame, to connection: ConnectionID) -> Bool {
    precondition(isOnServiceThread, "send(_:to: \(connection)) called off the service thread")
    guard let open = openConnection(connection), open.pendingClose == nil else { return false }
    guard open.queue.append(frame) else {
      if frame.isAnswer { refuseUnreadAnswers(open) }
      return false
    }
    requestWrite(open)
    return true
  }

  /// `open` sent so many commands without reading their answers that one more answer
  /// passed the answers' bound (`OutgoingQueue`). An answer is never dropped, so the
  /// connection is closed (1008) and the refusal counted.
  private func refuseUnreadAnswers(_ open: WebSocketConnection) {
    onRefusal?(.unreadAnswers, open.request.peerAddress.isEmpty ? "-" : open.request.peerAddress)
    close(
      open.id, status: LWS_CLOSE_STATUS_POLICY_VIOLATION,
      reason: Self.explanation(of: .unreadAnswers))
    // A peer that reads nothing never lets the close frame out: it is cut off after
    // `unreadAnswersCloseSeconds` rather than left for the keepalive to find.
    lws_set_timeout(open.wsi, PENDING_TIMEOUT_CLOSE_SEND, Self.unreadAnswersCloseSeconds)
  }

  /// How long a connection closed for unread answers has to take its close frame.
  static let unreadAnswersCloseSeconds: Int32 = 3

  /// - Important: Must be called on the service thread.
  public func replaceQueue(of connection: ConnectionID, with frames: [OutgoingFrame]) {
    precondition(isOnServiceThread, "replaceQueue(of: \(connection)) called off the service thread")
    guard let open = openConnection(connection), open.pendingClose == nil else { return }
    // The answers stay, ahead of the fresh screen: no screen repeats them.
    for dropped in open.queue.replace(with: frames) { dropped.fanoutMark?.release() }
    lws_callback_on_writable(open.wsi)
  }

  /// Closes with status 1000 (normal closure).
  ///
  /// - Important: Must be called on the service thread.
  public func close(_ connection: ConnectionID, reason: String) {
    precondition(isOnServiceThread, "close(\(connection)) called off the service thread")
    close(connection, status: LWS_CLOSE_STATUS_NORMAL, reason: reason)
  }

  /// Closes with status `code` (1000, 1001, 1008 for abuse, 1013 for try again later, or an
  /// application code 4000–4999).
  ///
  /// - Important: Must be called on the service thread.
  public func close(_ connection: ConnectionID, code: Int, reason: String) {
    close(connection, status: lws_close_status(rawValue: UInt32(clamping: code)), reason: reason)
  }

  /// - Important: Must be called on the service thread.
  public func upgradeRequest(of connection: ConnectionID) -> UpgradeRequest {
    precondition(
      isOnServiceThread, "upgradeRequest(of: \(connection)) called off the service thread")
    return openConnection(connection)?.request ?? UpgradeRequest()
  }

  /// - Important: Must be called on the service thread.
  public func queuedFrameCount(of connection: ConnectionID) -> Int {
    precondition(
      isOnServiceThread, "queuedFrameCount(of: \(connection)) called off the service thread")
    return openConnection(connection)?.queue.count ?? 0
  }

  /// Sends `status` once the queue is written, then closes. The reason is cut to fit a
  /// control frame (123 bytes).
  ///
  /// - Important: Must be called on the service thread.
  func close(_ connection: ConnectionID, status: lws_close_status, reason: String) {
    precondition(isOnServiceThread, "close(\(connection)) called off the service thread")
    guard let open = openConnection(connection), open.pendingClose == nil else { return }
    var reason = reason
    while reason.utf8.count > 123 { reason.removeLast() }
    open.pendingClose = (status, reason)
    lws_callback_on_writable(open.wsi)
  }
}
