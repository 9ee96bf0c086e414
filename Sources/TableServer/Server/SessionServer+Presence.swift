import TableModel

/// Presence (a protocol extension): who shows each list and what they are doing to its
/// rows. A list's viewers are the sessions whose top screen or split-view sidebar shows
/// it. Each is sent the list's `presence` with every `screen` (once the command that made
/// the screen is answered), and again whenever
/// the set of viewers or an activity changes: at once, unless the list's last one went
/// out less than 100 ms ago; then once, when the 100 ms are up (the core asks to be woken
/// with `ServerAction/wake(after:)`).
///
/// Presence is per server: several servers on one database each see only their own
/// connections.
extension SessionServer {
  /// `activity`: what the session is doing on `list`, a list it shows; nil ends it.
  mutating func report(
    _ kind: Presence.Activity?, on row: String?, in list: String, session token: SessionToken
  ) throws(ProtocolError) {
    guard let session = sessions[token] else { preconditionFailure("\(token) is not open") }
    guard session.topList == list || session.sidebarList == list else {
      throw ProtocolError(.notAllowed, "list \(list) is not on this session's screen")
    }
    let doing = kind.map { PresenceBook.Doing(list: list, row: row, kind: $0) }
    let old = presence.activities[token]
    guard old != doing else { return }
    if let old { presence.changed.insert(old.list) }
    presence.activities[token] = doing
    presence.changed.insert(list)
  }

  /// Ends the session's activity when it no longer shows the list it was on.
  mutating func endActivityOffScreen(_ token: SessionToken) {
    guard let doing = presence.activities[token] else { return }
    if let session = sessions[token],
      session.topList == doing.list || session.sidebarList == doing.list
    {
      return
    }
    presence.activities[token] = nil
    presence.changed.insert(doing.list)
  }

  /// The sessions showing `list`, top screen or sidebar, in the order they came.
  func presenceTokens(of list: String) -> [SessionToken] {
    let shown = (audiences[list] ?? []).union(sidebarAudiences[list] ?? [])
    // Each token's arrival looked up once, then sorted by number: a comparator that looked
    // them up (hashing two tokens a comparison) held the core for seconds at 1,000 viewers.
    return shown.map { (presence.arrivals[$0] ?? .max, $0) }
      .sorted { $0.0 < $1.0 }
      .map(\.1)
  }

  /// Who shows `list` now, as `presence` lists them (`you` false for all), and how many
  /// there are.
  public func presence(of list: String) -> (viewers: [Presence.Viewer], count: Int) {
    let tokens = presenceTokens(of: list)
    return (listed(tokens, on: list).map(\.1), tokens.count)
  }

  /// The viewers a `presence` names: the first `PresenceBook/viewerLimit` to come, then
  /// the others with an activity on the list.
  private func listed(_ tokens: [SessionToken], on list: String)
    -> [(SessionToken, Presence.Viewer)]
  {
    var listed = tokens.prefix(PresenceBook.viewerLimit).map { ($0, viewer($0, on: list)) }
    for token in tokens.dropFirst(PresenceBook.viewerLimit)
    where presence.activities[token]?.list == list {
      listed.append((token, viewer(token, on: list)))
    }
    return listed
  }

  private func viewer(_ token: SessionToken, on list: String) -> Presence.Viewer {
    guard let session = sessions[token] else { preconditionFailure("\(token) is not open") }
    let name =
      session.identity?.name ?? session.name ?? "Guest \(presence.guestNumbers[token] ?? 0)"
    let doing = presence.activities[token].flatMap { $0.list == list ? $0 : nil }
    return Presence.Viewer(
      name: name, role: mayWrite(list, session: session) ? .editor : .viewer, row: doing?.row,
      activity: doing?.kind)
  }

  /// `presence` of `list` for `token`'s connections (`you` marks its own entry).
  private func presenceFrame(
    of list: String, listed: [(SessionToken, Presence.Viewer)], count: Int,
    for token: SessionToken?
  ) -> OutgoingFrame {
    var viewers = listed.map(\.1)
    if let token, let index = listed.firstIndex(where: { $0.0 == token }) {
      viewers[index].isYou = true
    }
    return frame(for: .presence(Presence(list: list, viewers: viewers, count: count)))
  }

  /// Frames of `list`'s presence for each of `recipients`: one per session that is
  /// listed (its own `you`), one shared by the rest.
  private func presenceSends(of list: String, to recipients: [SessionToken])
    -> [ServerAction]
  {
    let tokens = presenceTokens(of: list)
    let listed = listed(tokens, on: list)
    let listedTokens = Set(listed.map(\.0))
    var effects: [ServerAction] = []
    var unlisted: [ConnectionID] = []
    for token in recipients {
      guard let session = sessions[token], !session.connections.isEmpty else { continue }
      if listedTokens.contains(token) {
        effects.append(
          .send(
            presenceFrame(of: list, listed: listed, count: tokens.count, for: token),
            to: session.connections, kind: .presence))
      } else {
        unlisted += session.connections
      }
    }
    if !unlisted.isEmpty {
      effects.append(
        .send(
          presenceFrame(of: list, listed: listed, count: tokens.count, for: nil), to: unlisted,
          kind: .presence))
    }
    return effects
  }

  /// `effects`, then the presence of the lists each `screen` among them shows, for the
  /// same connections (after the command's `ack`, so that a screen is still the last
  /// thing before its answer), then the presence that changed and may go out now.
  mutating func withPresence(_ effects: [ServerAction], at now: ContinuousClock.Instant)
    -> [ServerAction]
  {
    var result = effects
    var greeted: [String: Set<SessionToken>] = [:]
    for case .send(_, let targets, .screen) in effects {
      for connection in targets {
        guard let token = connections[connection]?.session, let session = sessions[token] else {
          continue
        }
        for list in [session.topList] + (session.sidebarList.map { [$0] } ?? []) {
          let tokens = presenceTokens(of: list)
          let listed = listed(tokens, on: list)
          result.append(
            .send(
              presenceFrame(of: list, listed: listed, count: tokens.count, for: token),
              to: [connection], kind: .presence))
          greeted[list, default: []].insert(token)
        }
      }
    }
    result += sendChangedPresence(at: now, except: greeted)
    return result
  }

  /// The core's wake-up (`ServerAction/wake(after:)`) came: sends the presence that
  /// waited for its 100 ms.
  public mutating func presenceWake(at now: ContinuousClock.Instant) -> [ServerAction] {
    presence.wakeAt = nil
    return sendChangedPresence(at: now)
  }

  /// The presence of each changed list to its viewers (but `except` those who just got it
  /// with a screen), when the list's last went out at least 100 ms ago; a wake-up for the
  /// rest.
  private mutating func sendChangedPresence(
    at now: ContinuousClock.Instant, except greeted: [String: Set<SessionToken>] = [:]
  ) -> [ServerAction] {
    guard !presence.changed.isEmpty else { return [] }
    var effects: [ServerAction] = []
    var earliest: ContinuousClock.Instant?
    for list in presence.changed.sorted() {
      let tokens = presenceTokens(of: list)
      if tokens.isEmpty {
        presence.changed.remove(list)
        presence.lastSent[list] = nil
        continue
      }
      if let last = presence.lastSent[list] {
        let due = last + PresenceBook.interval(for: tokens.count)
        if now < due {
          earliest = min(earliest ?? due, due)
          continue
        }
      }
      presence.changed.remove(list)
      let skipped = greeted[list] ?? []
      let recipients = skipped.isEmpty ? tokens : tokens.filter { !skipped.contains($0) }
      guard !recipients.isEmpty else { continue }
      presence.lastSent[list] = now
      effects += presenceSends(of: list, to: recipients)
    }
    if let earliest, presence.wakeAt.map({ earliest < $0 }) ?? true {
      presence.wakeAt = earliest
      effects.append(.wake(after: earliest - now))
    }
    return effects
  }
}
