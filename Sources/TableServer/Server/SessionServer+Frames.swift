import TableModel

/// What the server says, encoded once into frames.
extension SessionServer {
  func reply(_ message: ServerMessage, to connection: ConnectionID) -> ServerAction {
    reply(message, to: [connection])
  }

  /// An answer or news for `connections` (the `.reply` kind): its frame is an answer, which
  /// outlives its connection's queue being replaced by a fresh screen, since no screen
  /// repeats it (`OutgoingFrame.isAnswer`). The one place both are set.
  func reply(_ message: ServerMessage, to connections: [ConnectionID]) -> ServerAction {
    .send(
      OutgoingFrame(utf8: message.serializedUTF8, isAnswer: true), to: connections, kind: .reply)
  }

  func frame(for message: ServerMessage) -> OutgoingFrame {
    OutgoingFrame(utf8: message.serializedUTF8)
  }

  /// The session's top screen, as `screen` sends it to `connections`. A pop carries the
  /// row that led up from the level (UIKit highlights it as it comes back) and where the
  /// person had scrolled to.
  mutating func screen(
    of token: SessionToken, transition: ScreenTransition, to connections: [ConnectionID]
  )
    -> ServerAction
  {
    guard let session = sessions[token] else { preconditionFailure("\(token) is not open") }
    let searched = searchResults(shownTo: session)
    guard var snapshot = searched?.results ?? snapshots[session.topList] else {
      // Only a failing database leaves a top screen unread; say so rather than guess.
      let error = ProtocolError(.internal, "the screen \(session.topList) could not be read")
      return reply(.error(ref: nil, error), to: connections)
    }
    if !mayWrite(session.topList, session: session) { snapshot.isEditable = false }
    let top = session.stack.top
    var screen = LoadedScreen(
      snapshot: snapshot, backTitle: session.stack.backTitle,
      isEditing: top.isEditing && snapshot.isEditable,
      rowLimit: configuration.screenRowLimit, search: searched?.query.text)
    if searched == nil, let counts = windowCounts[session.topList] {  // held as its first rows only
      for index in screen.sections.indices { screen.sections[index].count = counts[index] }
    }
    let message = ScreenMessage(
      transition: transition, stack: session.stack.titles, screen: screen,
      scrollAnchor: transition == .pop ? top.scrollAnchor : nil,
      selectedRow: transition == .pop ? top.selectedRow : nil, sidebar: sidebar(of: session))
    return .send(frame(for: .screen(message)), to: connections, kind: .screen)
  }
}
